//! The SQLite backend's tournaments.

use sqlx::sqlite::SqliteRow;
use uuid::Uuid;

use super::{SqliteStore, id_text};
use crate::protocol::{PlayerId, TableId};
use crate::store::backend::Tournaments;
use crate::store::{Fence, StoreError, TournamentRow, codec, rows};

const COLUMNS: &str = "id, game, options, turn_ms, reserve_ms, rated, created_by, created_at, state, director";

fn read(found: Vec<SqliteRow>) -> Result<Vec<TournamentRow>, StoreError> {
    found.iter().map(rows::tournament_row).collect()
}

impl Tournaments for SqliteStore {
    async fn create_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        sqlx::query(&format!("INSERT INTO tournaments ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"))
            .bind(id_text(row.id))
            .bind(&row.game)
            .bind(&row.options)
            .bind(codec::ms_to_sql(row.clock.turn_ms)?)
            .bind(codec::ms_to_sql(row.clock.reserve_ms)?)
            .bind(row.rated)
            .bind(id_text(row.created_by.0))
            .bind(codec::micros(row.created_at))
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
        if fence.is_some() {
            return Err(super::leases::needs_postgres());
        }
        let done = sqlx::query("UPDATE tournaments SET state = ?2, director = ?3, winner = ?4 WHERE id = ?1")
            .bind(id_text(id))
            .bind(state)
            .bind(director)
            .bind(winner.map(|w| id_text(w.0)))
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 { Err(StoreError::NotFound) } else { Ok(()) }
    }

    async fn tournament(&self, id: Uuid) -> Result<Option<TournamentRow>, StoreError> {
        let found = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1"))
            .bind(id_text(id))
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
             WHERE (?1 IS NULL OR state = ?1) AND (?3 IS NULL OR winner = ?3)
             ORDER BY created_at DESC, id LIMIT ?2"
        ))
        .bind(state)
        .bind(limit)
        .bind(winner.map(|w| id_text(w.0)))
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

    async fn undirected_tournaments(&self, _limit: i64, _node: Option<&str>) -> Result<Vec<TournamentRow>, StoreError> {
        Err(super::leases::needs_postgres())
    }

    async fn tournament_tables(&self, id: Uuid) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<String> =
            sqlx::query_scalar("SELECT id FROM tables WHERE tournament = ?1 ORDER BY created_at, id")
                .bind(id_text(id))
                .fetch_all(&self.pool)
                .await?;
        ids.iter()
            .map(|id| {
                Uuid::parse_str(id).map(TableId).map_err(|e| StoreError::Corrupt(format!("a table id {id:?}: {e}")))
            })
            .collect()
    }

    async fn open_tournaments_by(&self, player: PlayerId) -> Result<i64, StoreError> {
        let count =
            sqlx::query_scalar("SELECT count(*) FROM tournaments WHERE created_by = ?1 AND state <> 'finished'")
                .bind(id_text(player.0))
                .fetch_one(&self.pool)
                .await?;
        Ok(count)
    }
}
