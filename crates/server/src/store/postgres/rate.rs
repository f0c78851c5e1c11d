//! The PostgreSQL backend's ratings: rating finished games in the transaction that stores them, the
//! start-up replay of the games stored before ratings existed, the leaderboard and a player's ratings.
//!
//! A batch of finishes is rated with a fixed number of statements whatever its size. Two transactions
//! that finish games with a player in common (two server processes, or the writer and a direct
//! `finish_game`) are kept apart by row locks: each first makes sure its players' rating rows exist
//! (`INSERT ... ON CONFLICT DO NOTHING`), then locks them (`SELECT ... FOR UPDATE`, in one order), so
//! the second reads the ratings the first committed.

use std::collections::HashMap;

use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use super::PgStore;
use crate::protocol::{PlayerId, TableId};
use crate::store::backend::Ratings;
use crate::store::ratings::{self, FinishedForRating, Standings};
use crate::store::rows::{self, Columns};
use crate::store::{BoardCursor, BoardEntry, PlayerRating, Rating, Standing, StoreError, codec};

/// The key of the transaction-scoped advisory lock that the start-up replay holds, so that two server
/// processes starting at once do not both replay the same games. Any fixed number would do; this is
/// "ratings" in ASCII.
const REPLAY_LOCK: i64 = 0x0072_6174_696e_6773;

impl PgStore {
    /// Rates the finished games `tables`, in this order, in `tx`: marks each as rated or not, and for
    /// those that count updates their players' ratings and stores each seat's change.
    pub(super) async fn rate_games(tx: &mut Transaction<'_, Postgres>, tables: &[TableId]) -> Result<(), StoreError> {
        if tables.is_empty() {
            return Ok(());
        }
        let ids: Vec<Uuid> = tables.iter().map(|t| t.0).collect();
        let rows = sqlx::query(
            "SELECT g.table_id, g.game, g.ended_by, t.rated, p.seat, p.player_id, p.name, p.bot, r.place
             FROM games g JOIN tables t ON t.id = g.table_id
                  JOIN game_players p ON p.table_id = g.table_id
                  JOIN results r ON r.table_id = p.table_id AND r.seat = p.seat
             WHERE g.table_id = ANY($1::uuid[])
             ORDER BY g.table_id, p.seat",
        )
        .bind(&ids)
        .fetch_all(&mut **tx)
        .await?;
        let mut by_table: HashMap<TableId, FinishedForRating> = HashMap::with_capacity(tables.len());
        for row in &rows {
            let table = TableId(row.try_get("table_id")?);
            let place = codec::small_from(row.int("place")?, "place")?;
            let seat = (rows::game_player(row)?, place);
            match by_table.get_mut(&table) {
                Some(game) => game.seats.push(seat),
                None => {
                    let game = FinishedForRating {
                        table,
                        game: row.try_get("game")?,
                        table_rated: row.try_get("rated")?,
                        ended_by: row.try_get("ended_by")?,
                        seats: vec![seat],
                    };
                    by_table.insert(table, game);
                }
            }
        }
        let counted: Vec<FinishedForRating> =
            tables.iter().filter_map(|t| by_table.remove(t)).filter(FinishedForRating::counts).collect();
        sqlx::query("UPDATE games SET rated = (table_id = ANY($2::uuid[])) WHERE table_id = ANY($1::uuid[])")
            .bind(&ids)
            .bind(counted.iter().map(|g| g.table.0).collect::<Vec<_>>())
            .execute(&mut **tx)
            .await?;
        if counted.is_empty() {
            return Ok(());
        }
        // Every (player, game) the batch rates, in one order for every transaction (no deadlock).
        let mut keys: Vec<(Uuid, &str)> =
            counted.iter().flat_map(|g| g.seats.iter().map(|(p, _)| (p.id.0, g.game.as_str()))).collect();
        keys.sort_unstable();
        keys.dedup();
        let players: Vec<Uuid> = keys.iter().map(|(p, _)| *p).collect();
        let games: Vec<&str> = keys.iter().map(|(_, g)| *g).collect();
        sqlx::query(
            "INSERT INTO ratings (player_id, game, mu, sigma, games)
             SELECT u.player_id, u.game, $3, $4, 0 FROM UNNEST($1::uuid[], $2::text[]) AS u (player_id, game)
             ORDER BY u.player_id, u.game
             ON CONFLICT (player_id, game) DO NOTHING",
        )
        .bind(&players)
        .bind(&games)
        .bind(Rating::NEW.mu)
        .bind(Rating::NEW.sigma)
        .execute(&mut **tx)
        .await?;
        let mut standings = Standings::new();
        for row in sqlx::query(
            "SELECT r.player_id, r.game, r.mu, r.sigma, r.games FROM ratings r
             JOIN UNNEST($1::uuid[], $2::text[]) AS u (player_id, game) ON u.player_id = r.player_id AND u.game = r.game
             ORDER BY r.player_id, r.game
             FOR UPDATE OF r",
        )
        .bind(&players)
        .bind(&games)
        .fetch_all(&mut **tx)
        .await?
        {
            standings.insert((PlayerId(row.uuid("player_id")?), row.text("game")?), rows::standing(&row)?);
        }
        let changes = ratings::rate_in_order(&counted, &mut standings);
        let rated: Vec<(&(PlayerId, String), &Standing)> = standings.iter().collect();
        sqlx::query(
            "UPDATE ratings r SET mu = u.mu, sigma = u.sigma, games = u.games
             FROM UNNEST($1::uuid[], $2::text[], $3::float8[], $4::float8[], $5::int4[]) AS u (player_id, game, mu, sigma, games)
             WHERE r.player_id = u.player_id AND r.game = u.game",
        )
        .bind(rated.iter().map(|((p, _), _)| p.0).collect::<Vec<_>>())
        .bind(rated.iter().map(|((_, g), _)| g.as_str()).collect::<Vec<_>>())
        .bind(rated.iter().map(|(_, s)| s.rating.mu).collect::<Vec<_>>())
        .bind(rated.iter().map(|(_, s)| s.rating.sigma).collect::<Vec<_>>())
        .bind(rated.iter().map(|(_, s)| i32::try_from(s.games).unwrap_or(i32::MAX)).collect::<Vec<_>>())
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO rating_changes (table_id, seat, player_id, mu_before, sigma_before, mu_after, sigma_after)
             SELECT * FROM UNNEST($1::uuid[], $2::int2[], $3::uuid[], $4::float8[], $5::float8[], $6::float8[],
                                  $7::float8[])",
        )
        .bind(changes.iter().map(|c| c.table.0).collect::<Vec<_>>())
        .bind(changes.iter().map(|c| i16::from(c.seat)).collect::<Vec<_>>())
        .bind(changes.iter().map(|c| c.player.0).collect::<Vec<_>>())
        .bind(changes.iter().map(|c| c.before.mu).collect::<Vec<_>>())
        .bind(changes.iter().map(|c| c.before.sigma).collect::<Vec<_>>())
        .bind(changes.iter().map(|c| c.after.mu).collect::<Vec<_>>())
        .bind(changes.iter().map(|c| c.after.sigma).collect::<Vec<_>>())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Rates the finished games not rated yet (those stored before ratings existed), in the order they
    /// finished, in one transaction; returns how many there were. Server processes that start at once
    /// take turns (an advisory lock): the later ones find nothing left to rate.
    pub(super) async fn rate_unrated(&self) -> Result<usize, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(REPLAY_LOCK).execute(&mut *tx).await?;
        let tables: Vec<TableId> = sqlx::query_scalar::<_, Uuid>(
            "SELECT table_id FROM games WHERE finished_at IS NOT NULL AND rated IS NULL ORDER BY finished_at, table_id",
        )
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(TableId)
        .collect();
        Self::rate_games(&mut tx, &tables).await?;
        tx.commit().await?;
        Ok(tables.len())
    }
}

impl Ratings for PgStore {
    async fn leaderboard(
        &self,
        game: &str,
        min_games: u32,
        limit: u32,
        cursor: Option<BoardCursor>,
    ) -> Result<Vec<BoardEntry>, StoreError> {
        sqlx::query(
            "SELECT r.player_id, p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE p.deleted_at IS NULL AND r.game = $1 AND r.games >= $2
               AND ($3::float8 IS NULL OR r.mu < $3 OR (r.mu = $3 AND r.player_id > $4))
             ORDER BY r.mu DESC, r.player_id
             LIMIT $5",
        )
        .bind(game)
        .bind(i32::try_from(min_games).unwrap_or(i32::MAX))
        .bind(cursor.map(|c| c.mu))
        .bind(cursor.map(|c| c.id))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rows::board_entry)
        .collect()
    }

    async fn player_ratings(&self, id: PlayerId) -> Result<Vec<PlayerRating>, StoreError> {
        sqlx::query("SELECT 1 FROM players WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        sqlx::query("SELECT game, mu, sigma, games FROM ratings WHERE player_id = $1 AND games > 0 ORDER BY game")
            .bind(id.0)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(rows::player_rating)
            .collect()
    }
}
