//! The SQLite backend: one file, in WAL mode with `synchronous = FULL`, so that a committed transaction
//! survives a power cut (an acknowledged action is durable), and with foreign keys enforced.
//!
//! Its schema is `migrations/sqlite`: ids are hyphenated TEXT, instants INTEGER microseconds since the
//! Unix epoch, JSON TEXT (how its rows read them: `columns.rs`). A batch of writes is one transaction
//! (one commit, one sync of the file), with a statement per row.
//!
//! Its SQL, by subject: this file (players' tokens, the batches of writes and of actions), `read.rs`,
//! `rate.rs`, `names.rs` and `chat.rs` (chat and rematches); `leases.rs` refuses every lease and fenced
//! write, since a cluster never runs on SQLite.

mod accounts;
mod analyses;
mod chat;
mod collusion;
mod columns;
mod leases;
mod moderation;
mod names;
mod push;
mod rate;
mod read;
mod sleeping;
mod tournaments;

use std::collections::HashSet;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, Transaction};
use time::OffsetDateTime;
use uuid::Uuid;

use super::backend::Backend;
use super::batch::{self, Start, WritesByKind};
use super::{ActionRow, Appended, Fence, FinishedGame, GamePlayer, SeatResult, StoreError, Write, codec, rows};
use crate::protocol::{PlayerInfo, TableId};

/// How long a connection waits for the file's write lock before giving up with
/// [`StoreError::Unavailable`].
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// One transaction of actions at a time: SQLite has one writer at a time.
const COMMITS_IN_FLIGHT: usize = 1;

/// A store in a SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
}

fn uuid_from(text: &str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text).map_err(|_| StoreError::Corrupt(format!("{text:?} is not a UUID")))
}

fn id_text(id: Uuid) -> String {
    id.hyphenated().to_string()
}

/// Writes seat rows `(table, seat, player)` in `tx`.
async fn insert_seats(tx: &mut Transaction<'_, Sqlite>, seats: &[batch::SeatRowOf]) -> Result<(), StoreError> {
    for (table, seat, player, bot) in seats {
        sqlx::query("INSERT INTO seats (table_id, seat, player_id, bot) VALUES (?1, ?2, ?3, ?4)")
            .bind(id_text(table.0))
            .bind(i64::from(*seat))
            .bind(id_text(player.0))
            .bind(*bot)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

impl SqliteStore {
    /// Opens (creating when missing) the SQLite file of `url` and applies `migrations/sqlite`.
    pub(super) async fn connect(url: &str) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Other(format!("bad SQLite URL: {e}")))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()))?;
        sqlx::migrate!("../../migrations/sqlite").run(&pool).await?;
        let store = SqliteStore { pool };
        let replayed = store.rate_unrated().await?;
        if replayed > 0 {
            tracing::info!(
                games = replayed,
                "rated the finished games stored before ratings, in the order they finished"
            );
        }
        Ok(store)
    }

    /// A transaction that takes the file's write lock at once (`BEGIN IMMEDIATE`): one that starts
    /// reading and writes later fails at once with `SQLITE_BUSY` when another connection wrote in
    /// between, where this one waits for the lock.
    async fn write_transaction(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// The connection pool, for tools and tests that need SQL of their own.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    async fn write_finish(
        tx: &mut Transaction<'_, Sqlite>,
        table: TableId,
        finished: &FinishedGame,
        finished_at: OffsetDateTime,
        results: &[SeatResult],
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET finished_at = ?2, ended_by = ?3, record = ?4 WHERE table_id = ?1")
            .bind(id_text(table.0))
            .bind(codec::micros(finished_at))
            .bind(&finished.outcome.ended_by)
            .bind(&finished.record)
            .execute(&mut **tx)
            .await?;
        for result in results {
            sqlx::query(
                "INSERT INTO results (table_id, seat, player_id, name, score, details, place, winner, bot, bot_actions)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                         (SELECT COUNT(*) FROM actions a WHERE a.table_id = ?1 AND a.seat = ?2 AND a.by_bot))",
            )
            .bind(id_text(table.0))
            .bind(i64::from(result.player.seat.0))
            .bind(id_text(result.player.id.0))
            .bind(&result.player.name)
            .bind(result.score)
            .bind(codec::details_to_json(&result.details)?)
            .bind(i64::from(result.place))
            .bind(result.winner)
            .bind(result.player.bot)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    async fn game_players(tx: &mut Transaction<'_, Sqlite>, table: TableId) -> Result<Vec<GamePlayer>, StoreError> {
        sqlx::query("SELECT seat, player_id, name, bot FROM game_players WHERE table_id = ?1 ORDER BY seat")
            .bind(id_text(table.0))
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(rows::game_player)
            .collect()
    }
}

impl Backend for SqliteStore {
    const COMMITS_IN_FLIGHT: usize = COMMITS_IN_FLIGHT;

    async fn close(&self) {
        self.pool.close().await;
    }

    async fn health(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn player_by_token_hash(&self, token_hash: &[u8; 32]) -> Result<PlayerInfo, StoreError> {
        let row = sqlx::query(
            "SELECT p.id, p.name FROM player_tokens t JOIN players p ON p.id = t.player_id
             WHERE t.token_hash = ?1 AND p.deleted_at IS NULL
             LIMIT 1",
        )
        .bind(&token_hash[..])
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        rows::player_info(&row, "id")
    }

    /// Writes a batch in one transaction; see [`Store::write`].
    async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let kinds = WritesByKind::of(batch);
        let mut outcomes = vec![Ok(()); batch.len()];
        let mut tx = self.write_transaction().await?;
        for (player, token_hash, at) in &kinds.players {
            // A new player's first token is a live token (`player_tokens`); a player stored again (renamed)
            // keeps theirs as they are.
            let inserted = sqlx::query(
                "INSERT INTO players (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(id_text(player.id.0))
            .bind(&player.name)
            .bind(&token_hash[..])
            .bind(codec::micros(*at))
            .execute(&mut *tx)
            .await?;
            if inserted.rows_affected() == 1 {
                sqlx::query(
                    "INSERT OR IGNORE INTO player_tokens (token_hash, player_id, created_at) VALUES (?1, ?2, ?3)",
                )
                .bind(&token_hash[..])
                .bind(id_text(player.id.0))
                .bind(codec::micros(*at))
                .execute(&mut *tx)
                .await?;
            } else {
                sqlx::query("UPDATE players SET name = ?1 WHERE id = ?2")
                    .bind(&player.name)
                    .bind(id_text(player.id.0))
                    .execute(&mut *tx)
                    .await?;
            }
        }
        for table in &kinds.tables {
            sqlx::query(
                "INSERT INTO tables (id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms, game,
                                     options, rated, tournament)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )
            .bind(id_text(table.id.0))
            .bind(id_text(table.host.0))
            .bind(i64::from(table.seats))
            .bind(table.public)
            .bind(codec::spectators_to_sql(table.spectators))
            .bind(codec::micros(table.created_at))
            .bind(&table.invite)
            .bind(table.clock.map(|c| codec::ms_to_sql(c.turn_ms)).transpose()?)
            .bind(table.clock.map(|c| codec::ms_to_sql(c.reserve_ms)).transpose()?)
            .bind(&table.game)
            .bind(&table.options)
            .bind(table.rated)
            .bind(table.tournament.map(id_text))
            .execute(&mut *tx)
            .await?;
        }
        insert_seats(&mut tx, &kinds.table_seats).await?;
        for table in &kinds.reseated {
            sqlx::query("DELETE FROM seats WHERE table_id = ?1").bind(id_text(table.0)).execute(&mut *tx).await?;
        }
        insert_seats(&mut tx, &kinds.seats).await?;
        for &Start { table, seed, salt, contributions, players, started_at } in &kinds.starts {
            sqlx::query(
                // The game is the table's: a table hosts one game.
                "INSERT INTO games (table_id, game, seed, salt, player_count, started_at, contributions)
                 VALUES (?1, (SELECT game FROM tables WHERE id = ?1), ?2, ?3, ?4, ?5, ?6)",
            )
            .bind(id_text(table.0))
            .bind(codec::seed_to_sql(seed))
            .bind(salt.map(|salt| salt.as_slice()))
            .bind(players.len() as i64)
            .bind(codec::micros(started_at))
            .bind(codec::contributions_to_sql(contributions))
            .execute(&mut *tx)
            .await?;
            for player in players {
                sqlx::query(
                    "INSERT INTO game_players (table_id, seat, player_id, name, bot) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .bind(id_text(table.0))
                .bind(i64::from(player.seat.0))
                .bind(id_text(player.id.0))
                .bind(&player.name)
                .bind(player.bot)
                .execute(&mut *tx)
                .await?;
            }
        }
        let mut finishing = HashSet::new();
        let mut finished_tables = Vec::new();
        for &(index, table, finished, finished_at) in &kinds.finishes {
            let state: Option<Option<i64>> = sqlx::query_scalar("SELECT finished_at FROM games WHERE table_id = ?1")
                .bind(id_text(table.0))
                .fetch_optional(&mut *tx)
                .await?;
            let players = Self::game_players(&mut tx, table).await?;
            let outcome = &finished.outcome;
            match batch::check_finish(table, outcome, state.map(|s| s.is_some()), &players, &mut finishing) {
                Ok(results) => {
                    Self::write_finish(&mut tx, table, finished, finished_at, &results).await?;
                    finished_tables.push(table);
                }
                Err(error) => outcomes[index] = Err(error),
            }
        }
        // In the same transaction: a result is never stored without its ratings, nor the other way.
        Self::rate_games(&mut tx, &finished_tables).await?;
        tx.commit().await?;
        Ok(outcomes)
    }

    async fn append_actions(&self, batch: &[ActionRow]) -> Result<Appended, StoreError> {
        if batch.iter().any(|row| row.fence.is_some()) {
            return Err(leases::needs_postgres());
        }
        let mut tx = self.write_transaction().await?;
        for row in batch {
            sqlx::query(
                "INSERT INTO actions (table_id, seq, seat, action, by_bot, reserve_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .bind(id_text(row.table.0))
            .bind(i64::from(row.seq))
            .bind(i64::from(row.seat.0))
            .bind(&row.action)
            .bind(row.by_bot)
            .bind(row.reserve_ms.map(codec::ms_to_sql).transpose()?)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Appended::default())
    }

    async fn truncate_actions(&self, table: TableId, from: u32, fence: Option<&Fence>) -> Result<(), StoreError> {
        if fence.is_some() {
            return Err(leases::needs_postgres());
        }
        sqlx::query("DELETE FROM actions WHERE table_id = ?1 AND seq >= ?2")
            .bind(id_text(table.0))
            .bind(i64::from(from))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
