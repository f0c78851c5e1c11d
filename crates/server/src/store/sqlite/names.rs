//! The SQLite backend's names you keep: claims and the tokens of sign-ins (`migrations/sqlite/0011_names.sql`).

use time::OffsetDateTime;

use super::{SqliteStore, id_text};
use crate::protocol::PlayerId;
use crate::store::backend::Claims;
use crate::store::rows;
use crate::store::{StoreError, codec, names::Claim};

impl Claims for SqliteStore {
    async fn claim_name(&self, player: PlayerId, name_key: &str, password_hash: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO claimed_names (player_id, name_key, password_hash, claimed_at) VALUES (?1, ?2, ?3, ?4)",
        )
        .bind(id_text(player.0))
        .bind(name_key)
        .bind(password_hash)
        .bind(codec::micros(OffsetDateTime::now_utc()))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn claim(&self, name_key: &str) -> Result<Claim, StoreError> {
        let row = sqlx::query(
            "SELECT p.id, p.name, c.password_hash FROM claimed_names c JOIN players p ON p.id = c.player_id
             WHERE c.name_key = ?1",
        )
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        rows::claim(&row)
    }

    async fn has_claimed(&self, player: PlayerId) -> Result<bool, StoreError> {
        let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM claimed_names WHERE player_id = ?1")
            .bind(id_text(player.0))
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    async fn add_token(&self, player: PlayerId, token_hash: &[u8; 32]) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO player_tokens (token_hash, player_id, created_at) VALUES (?1, ?2, ?3)")
            .bind(&token_hash[..])
            .bind(id_text(player.0))
            .bind(codec::micros(OffsetDateTime::now_utc()))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
