//! The PostgreSQL backend's tournaments.

use sqlx::postgres::PgRow;
use uuid::Uuid;

use super::PgStore;
use crate::protocol::PlayerId;
use crate::store::backend::Tournaments;
use crate::store::{StoreError, TournamentRow, codec, rows};

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
    ) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE tournaments SET state = $2, director = $3, winner = $4 WHERE id = $1")
            .bind(id)
            .bind(state)
            .bind(director)
            .bind(winner.map(|w| w.0))
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 { Err(StoreError::NotFound) } else { Ok(()) }
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

    async fn open_tournaments_by(&self, player: PlayerId) -> Result<i64, StoreError> {
        let count =
            sqlx::query_scalar("SELECT count(*) FROM tournaments WHERE created_by = $1 AND state <> 'finished'")
                .bind(player.0)
                .fetch_one(&self.pool)
                .await?;
        Ok(count)
    }
}
