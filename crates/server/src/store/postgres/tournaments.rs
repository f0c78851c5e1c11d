//! The PostgreSQL backend's tournaments.

use sqlx::postgres::PgRow;
use uuid::Uuid;

use super::PgStore;
use crate::protocol::{PlayerId, TableId};
use crate::store::backend::Tournaments;
use crate::store::{Fence, StoreError, TournamentRow, codec, rows};

const COLUMNS: &str = "id, game, options, turn_ms, reserve_ms, rated, created_by, created_at, state, director";

fn read(found: Vec<PgRow>) -> Result<Vec<TournamentRow>, StoreError> {
    found.iter().map(rows::tournament_row).collect()
}

impl Tournaments for PgStore {
    async fn create_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        sqlx::query(&format!("INSERT INTO tournaments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"))
            .bind(row.id)
            .bind(&row.game)
            .bind(&row.options)
            .bind(codec::ms_to_sql(row.clock.turn_ms)?)
            .bind(codec::ms_to_sql(row.clock.reserve_ms)?)
            .bind(row.rated)
            .bind(row.created_by.0)
            .bind(row.created_at)
            .bind(&row.state)
            .bind(&row.director)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn save_tournament(
        &self,
        id: Uuid,
        state: &str,
        director: &str,
        winner: Option<PlayerId>,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let Some(fence) = fence else {
            let done = sqlx::query("UPDATE tournaments SET state = $2, director = $3, winner = $4 WHERE id = $1")
                .bind(id)
                .bind(state)
                .bind(director)
                .bind(winner.map(|w| w.0))
                .execute(&self.pool)
                .await?;
            return if done.rows_affected() == 0 { Err(StoreError::NotFound) } else { Ok(()) };
        };
        // As a table's append (`leases.rs`): written only under the current, unexpired lease, held with a
        // share lock until the write commits, so that a node taking the tournament over reads it.
        let epoch = i64::try_from(fence.epoch).map_err(|_| StoreError::Other("a lease's epoch is too large".into()))?;
        let (held, updated): (bool, bool) = sqlx::query_as(
            "WITH held AS (
                 SELECT table_id FROM table_leases
                 WHERE table_id = $1 AND node = $5 AND epoch = $6 AND expires_at > now()
                 FOR SHARE
             ), updated AS (
                 UPDATE tournaments SET state = $2, director = $3, winner = $4
                 WHERE id = $1 AND EXISTS (SELECT 1 FROM held)
                 RETURNING id
             )
             SELECT EXISTS (SELECT 1 FROM held), EXISTS (SELECT 1 FROM updated)",
        )
        .bind(id)
        .bind(state)
        .bind(director)
        .bind(winner.map(|w| w.0))
        .bind(&fence.node)
        .bind(epoch)
        .fetch_one(&self.pool)
        .await?;
        match (held, updated) {
            (false, _) => Err(StoreError::Fenced(format!(
                "tournament {id}: node {} epoch {} is not its current lease",
                fence.node, fence.epoch
            ))),
            (true, false) => Err(StoreError::NotFound),
            (true, true) => Ok(()),
        }
    }

    async fn tournament(&self, id: Uuid) -> Result<Option<TournamentRow>, StoreError> {
        let found = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(read(found)?.pop())
    }

    async fn tournaments(
        &self,
        state: Option<&str>,
        winner: Option<PlayerId>,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments
             WHERE ($1::text IS NULL OR state = $1) AND ($3::uuid IS NULL OR winner = $3)
             ORDER BY created_at DESC, id LIMIT $2"
        ))
        .bind(state)
        .bind(limit)
        .bind(winner.map(|w| w.0))
        .fetch_all(&self.pool)
        .await?;
        read(found)
    }

    async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE state <> 'finished' ORDER BY created_at, id"
        ))
        .fetch_all(&self.pool)
        .await?;
        read(found)
    }

    async fn undirected_tournaments(&self, limit: i64, node: Option<&str>) -> Result<Vec<TournamentRow>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments t
             WHERE state <> 'finished'
               AND NOT EXISTS (SELECT 1 FROM table_leases l
                               WHERE l.table_id = t.id AND l.expires_at > now() AND l.node IS DISTINCT FROM $2)
             ORDER BY created_at, id LIMIT $1"
        ))
        .bind(limit)
        .bind(node)
        .fetch_all(&self.pool)
        .await?;
        read(found)
    }

    async fn tournament_tables(&self, id: Uuid) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM tables WHERE tournament = $1 ORDER BY created_at, id")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(ids.into_iter().map(TableId).collect())
    }

    async fn open_tournaments_by(&self, player: PlayerId) -> Result<i64, StoreError> {
        let count =
            sqlx::query_scalar("SELECT count(*) FROM tournaments WHERE created_by = $1 AND state <> 'finished'")
                .bind(player.0)
                .fetch_one(&self.pool)
                .await?;
        Ok(count)
    }
}
