//! The PostgreSQL backend's sleeping tables (`migrations/postgres/0021_sleeping_tables.sql`).

use time::OffsetDateTime;
use uuid::Uuid;

use super::PgStore;
use crate::protocol::{PlayerId, TableId, TableSummary};
use crate::store::backend::Sleeping;
use crate::store::{SleepRow, StoreError, codec};

type Row = (Uuid, OffsetDateTime, Option<OffsetDateTime>, Option<i16>, Vec<Uuid>, sqlx::types::Json<TableSummary>);

fn row((table, turn_since, wake_at, to_act, players, summary): Row) -> Result<SleepRow, StoreError> {
    Ok(SleepRow {
        table: TableId(table),
        turn_since,
        wake_at,
        to_act: to_act.map(|seat| codec::seat_from(i64::from(seat))).transpose()?,
        players: players.into_iter().map(PlayerId).collect(),
        summary: summary.0,
    })
}

const COLUMNS: &str = "table_id, turn_since, wake_at, to_act, players, summary";

impl Sleeping for PgStore {
    async fn put_sleeping(&self, sleeping: &SleepRow) -> Result<(), StoreError> {
        let players: Vec<Uuid> = sleeping.players.iter().map(|p| p.0).collect();
        sqlx::query(
            "INSERT INTO sleeping_tables (table_id, turn_since, wake_at, to_act, players, summary)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (table_id) DO UPDATE
             SET turn_since = $2, wake_at = $3, to_act = $4, players = $5, summary = $6, slept_at = now()",
        )
        .bind(sleeping.table.0)
        .bind(sleeping.turn_since)
        .bind(sleeping.wake_at)
        .bind(sleeping.to_act.map(|seat| i16::from(seat.0)))
        .bind(players)
        .bind(sqlx::types::Json(&sleeping.summary))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn sleeping(&self, table: TableId) -> Result<Option<SleepRow>, StoreError> {
        let found: Option<Row> = sqlx::query_as(&format!("SELECT {COLUMNS} FROM sleeping_tables WHERE table_id = $1"))
            .bind(table.0)
            .fetch_optional(&self.pool)
            .await?;
        found.map(row).transpose()
    }

    async fn delete_sleeping(&self, table: TableId) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM sleeping_tables WHERE table_id = $1").bind(table.0).execute(&self.pool).await?;
        Ok(done.rows_affected() > 0)
    }

    async fn due_sleepers(&self, now: OffsetDateTime, limit: i64) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<Uuid> = sqlx::query_scalar(
            "SELECT table_id FROM sleeping_tables WHERE wake_at <= $1 ORDER BY wake_at, table_id LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(TableId).collect())
    }

    async fn sleeping_ids(&self) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<Uuid> = sqlx::query_scalar("SELECT table_id FROM sleeping_tables").fetch_all(&self.pool).await?;
        Ok(ids.into_iter().map(TableId).collect())
    }

    async fn sleeping_tables_of(&self, player: PlayerId) -> Result<Vec<SleepRow>, StoreError> {
        let rows: Vec<Row> = sqlx::query_as(&format!("SELECT {COLUMNS} FROM sleeping_tables WHERE $1 = ANY(players)"))
            .bind(player.0)
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(row).collect()
    }

    async fn sleeping_tables_hosted_by(&self, host: PlayerId) -> Result<i64, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM sleeping_tables s JOIN tables t ON t.id = s.table_id WHERE t.host = $1",
        )
        .bind(host.0)
        .fetch_one(&self.pool)
        .await?;
        Ok(count)
    }

    async fn open_tables_of(&self, player: PlayerId) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<Uuid> = sqlx::query_scalar(
            "SELECT gp.table_id FROM game_players gp JOIN games g ON g.table_id = gp.table_id
             WHERE gp.player_id = $1 AND g.finished_at IS NULL
             UNION
             SELECT s.table_id FROM seats s
             WHERE s.player_id = $1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.table_id = s.table_id)",
        )
        .bind(player.0)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(TableId).collect())
    }
}
