//! The SQLite backend's sleeping tables (`migrations/sqlite/0018_sleeping_tables.sql`).

use time::OffsetDateTime;

use super::{SqliteStore, id_text, uuid_from};
use crate::protocol::{PlayerId, TableId};
use crate::store::backend::Sleeping;
use crate::store::{SleepRow, StoreError, codec};

type Row = (String, i64, Option<i64>, Option<i64>, String, String);

fn row((table, turn_since, wake_at, to_act, players, summary): Row) -> Result<SleepRow, StoreError> {
    let players: Vec<String> = serde_json::from_str(&players)
        .map_err(|e| StoreError::Corrupt(format!("the players of the sleeping table {table}: {e}")))?;
    Ok(SleepRow {
        table: TableId(uuid_from(&table)?),
        turn_since: codec::from_micros(turn_since)?,
        wake_at: wake_at.map(codec::from_micros).transpose()?,
        to_act: to_act.map(codec::seat_from).transpose()?,
        players: players.iter().map(|p| uuid_from(p).map(PlayerId)).collect::<Result<_, _>>()?,
        summary: serde_json::from_str(&summary)
            .map_err(|e| StoreError::Corrupt(format!("the summary of the sleeping table {table}: {e}")))?,
    })
}

const COLUMNS: &str = "table_id, turn_since, wake_at, to_act, players, summary";

impl Sleeping for SqliteStore {
    async fn put_sleeping(&self, sleeping: &SleepRow) -> Result<(), StoreError> {
        let players: Vec<String> = sleeping.players.iter().map(|p| id_text(p.0)).collect();
        let players = serde_json::to_string(&players).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let summary = serde_json::to_string(&sleeping.summary).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        sqlx::query(
            "INSERT OR REPLACE INTO sleeping_tables (table_id, turn_since, wake_at, to_act, players, summary)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(id_text(sleeping.table.0))
        .bind(codec::micros(sleeping.turn_since))
        .bind(sleeping.wake_at.map(codec::micros))
        .bind(sleeping.to_act.map(|seat| i64::from(seat.0)))
        .bind(players)
        .bind(summary)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn sleeping(&self, table: TableId) -> Result<Option<SleepRow>, StoreError> {
        let found: Option<Row> = sqlx::query_as(&format!("SELECT {COLUMNS} FROM sleeping_tables WHERE table_id = ?1"))
            .bind(id_text(table.0))
            .fetch_optional(&self.pool)
            .await?;
        found.map(row).transpose()
    }

    async fn delete_sleeping(&self, table: TableId) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM sleeping_tables WHERE table_id = ?1")
            .bind(id_text(table.0))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn due_sleepers(&self, now: OffsetDateTime, limit: i64) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT table_id FROM sleeping_tables WHERE wake_at <= ?1 ORDER BY wake_at, table_id LIMIT ?2",
        )
        .bind(codec::micros(now))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        ids.iter().map(|id| uuid_from(id).map(TableId)).collect()
    }

    async fn sleeping_ids(&self) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<String> = sqlx::query_scalar("SELECT table_id FROM sleeping_tables").fetch_all(&self.pool).await?;
        ids.iter().map(|id| uuid_from(id).map(TableId)).collect()
    }

    async fn sleeping_tables_of(&self, player: PlayerId) -> Result<Vec<SleepRow>, StoreError> {
        let rows: Vec<Row> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM sleeping_tables WHERE EXISTS (SELECT 1 FROM json_each(players) WHERE value = ?1)"
        ))
        .bind(id_text(player.0))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(row).collect()
    }

    async fn sleeping_tables_hosted_by(&self, host: PlayerId) -> Result<i64, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM sleeping_tables s JOIN tables t ON t.id = s.table_id WHERE t.host = ?1",
        )
        .bind(id_text(host.0))
        .fetch_one(&self.pool)
        .await?;
        Ok(count)
    }

    async fn open_tables_of(&self, player: PlayerId) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT gp.table_id FROM game_players gp JOIN games g ON g.table_id = gp.table_id
             WHERE gp.player_id = ?1 AND g.finished_at IS NULL
             UNION
             SELECT s.table_id FROM seats s
             WHERE s.player_id = ?1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.table_id = s.table_id)",
        )
        .bind(id_text(player.0))
        .fetch_all(&self.pool)
        .await?;
        ids.iter().map(|id| uuid_from(id).map(TableId)).collect()
    }
}
