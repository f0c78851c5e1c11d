//! The SQLite backend's ratings: rating finished games in the transaction that stores them, the
//! start-up replay of the games stored before ratings existed, the leaderboard and a player's ratings.
//!
//! A write transaction holds the file's write lock from its start (`BEGIN IMMEDIATE`), so two games that
//! finish at once are rated one after the other, each from the ratings the other left.

use std::collections::HashSet;

use sqlx::{Row, Sqlite, Transaction};

use super::{SqliteStore, id_text, uuid_from};
use crate::protocol::{PlayerId, TableId};
use crate::store::backend::Ratings;
use crate::store::ratings::{self, FinishedForRating, Standings};
use crate::store::rows::{self, Columns};
use crate::store::{BoardCursor, BoardEntry, PlayerRating, StoreError, codec};

impl SqliteStore {
    /// Rates the finished games `tables`, in this order, in `tx`: marks each as rated or not, and for
    /// those that count updates their players' ratings and stores each seat's change.
    pub(super) async fn rate_games(tx: &mut Transaction<'_, Sqlite>, tables: &[TableId]) -> Result<(), StoreError> {
        let mut counted = Vec::new();
        for &table in tables {
            let head = sqlx::query(
                "SELECT g.game, g.ended_by, t.rated FROM games g JOIN tables t ON t.id = g.table_id
                 WHERE g.table_id = ?1 AND g.finished_at IS NOT NULL",
            )
            .bind(id_text(table.0))
            .fetch_one(&mut **tx)
            .await?;
            let seats = sqlx::query(
                "SELECT p.seat, p.player_id, p.name, p.bot, r.place
                 FROM game_players p JOIN results r ON r.table_id = p.table_id AND r.seat = p.seat
                 WHERE p.table_id = ?1 ORDER BY p.seat",
            )
            .bind(id_text(table.0))
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(|row| Ok((rows::game_player(row)?, codec::small_from(row.int("place")?, "place")?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
            let game = FinishedForRating {
                table,
                game: head.try_get("game")?,
                table_rated: head.try_get("rated")?,
                ended_by: head.try_get("ended_by")?,
                seats,
            };
            let counts = game.counts();
            sqlx::query("UPDATE games SET rated = ?2 WHERE table_id = ?1")
                .bind(id_text(table.0))
                .bind(counts)
                .execute(&mut **tx)
                .await?;
            if counts {
                counted.push(game);
            }
        }
        let mut standings = Standings::new();
        let players: HashSet<(PlayerId, &str)> =
            counted.iter().flat_map(|g| g.seats.iter().map(|(p, _)| (p.id, g.game.as_str()))).collect();
        for (player, game) in players {
            let row = sqlx::query("SELECT mu, sigma, games FROM ratings WHERE player_id = ?1 AND game = ?2")
                .bind(id_text(player.0))
                .bind(game)
                .fetch_optional(&mut **tx)
                .await?;
            if let Some(row) = row {
                standings.insert((player, game.to_owned()), rows::standing(&row)?);
            }
        }
        let changes = ratings::rate_in_order(&counted, &mut standings);
        for ((player, game), standing) in &standings {
            sqlx::query(
                "INSERT INTO ratings (player_id, game, mu, sigma, games) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
                                                            games = excluded.games",
            )
            .bind(id_text(player.0))
            .bind(game)
            .bind(standing.rating.mu)
            .bind(standing.rating.sigma)
            .bind(i64::from(standing.games))
            .execute(&mut **tx)
            .await?;
        }
        for change in &changes {
            sqlx::query(
                "INSERT INTO rating_changes (table_id, seat, player_id, mu_before, sigma_before, mu_after, sigma_after)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .bind(id_text(change.table.0))
            .bind(i64::from(change.seat))
            .bind(id_text(change.player.0))
            .bind(change.before.mu)
            .bind(change.before.sigma)
            .bind(change.after.mu)
            .bind(change.after.sigma)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// Rates the finished games not rated yet (those stored before ratings existed), in the order they
    /// finished, in one transaction; returns how many there were.
    pub(super) async fn rate_unrated(&self) -> Result<usize, StoreError> {
        let mut tx = self.write_transaction().await?;
        let tables = sqlx::query_scalar::<_, String>(
            "SELECT table_id FROM games WHERE finished_at IS NOT NULL AND rated IS NULL ORDER BY finished_at, table_id",
        )
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|id| Ok(TableId(uuid_from(id)?)))
        .collect::<Result<Vec<_>, StoreError>>()?;
        Self::rate_games(&mut tx, &tables).await?;
        tx.commit().await?;
        Ok(tables.len())
    }
}

impl Ratings for SqliteStore {
    async fn leaderboard(
        &self,
        game: &str,
        min_games: u32,
        limit: u32,
        cursor: Option<BoardCursor>,
    ) -> Result<Vec<BoardEntry>, StoreError> {
        sqlx::query(
            "SELECT r.player_id, p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE p.deleted_at IS NULL AND r.game = ?1 AND r.games >= ?2
               AND (?3 IS NULL OR r.mu < ?3 OR (r.mu = ?3 AND r.player_id > ?4))
             ORDER BY r.mu DESC, r.player_id
             LIMIT ?5",
        )
        .bind(game)
        .bind(i64::from(min_games))
        .bind(cursor.map(|c| c.mu))
        .bind(cursor.map(|c| id_text(c.id)))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rows::board_entry)
        .collect()
    }

    async fn player_ratings(&self, id: PlayerId) -> Result<Vec<PlayerRating>, StoreError> {
        sqlx::query("SELECT 1 FROM players WHERE id = ?1")
            .bind(id_text(id.0))
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        sqlx::query("SELECT game, mu, sigma, games FROM ratings WHERE player_id = ?1 ORDER BY game")
            .bind(id_text(id.0))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(rows::player_rating)
            .collect()
    }
}
