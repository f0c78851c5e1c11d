//! The SQLite backend's accounts: devices, signing out, a new password, a player's chat lines and the
//! deletion of an account (`migrations/sqlite/0020_accounts.sql`).

use time::OffsetDateTime;

use super::{SqliteStore, id_text, uuid_from};
use crate::protocol::{PlayerId, TableId};
use crate::store::accounts::{DELETED_NAME, Device, WrittenLine, record_without};
use crate::store::backend::Accounts;
use crate::store::{StoreError, codec};

impl Accounts for SqliteStore {
    async fn devices(&self, player: PlayerId) -> Result<Vec<Device>, StoreError> {
        let rows: Vec<(Vec<u8>, i64, Option<String>)> = sqlx::query_as(
            "SELECT token_hash, created_at, device FROM player_tokens WHERE player_id = ?1
             ORDER BY created_at, token_hash",
        )
        .bind(id_text(player.0))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(hash, created_at, device)| {
                Ok(Device {
                    token_hash: codec::token_hash(&hash)?,
                    created_at: codec::from_micros(created_at)?,
                    device,
                })
            })
            .collect()
    }

    async fn remove_token(&self, token_hash: &[u8; 32]) -> Result<Option<PlayerId>, StoreError> {
        let player: Option<String> =
            sqlx::query_scalar("DELETE FROM player_tokens WHERE token_hash = ?1 RETURNING player_id")
                .bind(&token_hash[..])
                .fetch_optional(&self.pool)
                .await?;
        player.map(|id| uuid_from(&id).map(PlayerId)).transpose()
    }

    async fn remove_tokens(&self, player: PlayerId, keep: Option<&[u8; 32]>) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM player_tokens WHERE player_id = ?1 AND (?2 IS NULL OR token_hash <> ?2)")
            .bind(id_text(player.0))
            .bind(keep.map(|hash| hash.to_vec()))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    async fn set_password_hash(&self, player: PlayerId, password_hash: &str) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE claimed_names SET password_hash = ?1 WHERE player_id = ?2")
            .bind(password_hash)
            .bind(id_text(player.0))
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 { Err(StoreError::NotFound) } else { Ok(()) }
    }

    async fn lines_of(&self, player: PlayerId) -> Result<Vec<WrittenLine>, StoreError> {
        let rows: Vec<(String, String, String)> =
            sqlx::query_as("SELECT table_id, channel, text FROM chat WHERE player_id = ?1 ORDER BY table_id, n")
                .bind(id_text(player.0))
                .fetch_all(&self.pool)
                .await?;
        rows.into_iter()
            .map(|(table, channel, text)| Ok(WrittenLine { table: TableId(uuid_from(&table)?), channel, text }))
            .collect()
    }

    async fn delete_player(&self, player: PlayerId) -> Result<(), StoreError> {
        let id = id_text(player.0);
        let mut tx = self.write_transaction().await?;
        let renamed = sqlx::query("UPDATE players SET name = ?1, deleted_at = ?2 WHERE id = ?3 AND deleted_at IS NULL")
            .bind(DELETED_NAME)
            .bind(codec::micros(OffsetDateTime::now_utc()))
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        if renamed.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        for table in ["claimed_names", "player_tokens", "chat", "push_subscriptions", "player_addresses"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE player_id = ?1")).bind(&id).execute(&mut *tx).await?;
        }
        let records: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT g.table_id, group_concat(gp.seat), g.record
             FROM game_players gp JOIN games g ON g.table_id = gp.table_id
             WHERE gp.player_id = ?1 AND g.record IS NOT NULL
             GROUP BY g.table_id",
        )
        .bind(&id)
        .fetch_all(&mut *tx)
        .await?;
        for (table, seats, record) in records {
            let seats: Vec<u8> = seats.split(',').filter_map(|seat| seat.trim().parse().ok()).collect();
            let Some(rewritten) = record_without(&record, &seats) else {
                return Err(StoreError::Corrupt(format!("the record of game {table} has no list of players")));
            };
            sqlx::query("UPDATE games SET record = ?1 WHERE table_id = ?2")
                .bind(rewritten)
                .bind(&table)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE game_players SET name = ?1 WHERE player_id = ?2")
            .bind(DELETED_NAME)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE results SET name = ?1 WHERE player_id = ?2")
            .bind(DELETED_NAME)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
