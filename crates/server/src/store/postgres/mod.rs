//! The PostgreSQL backend, for production.
//!
//! Its schema is `migrations/postgres`, with native types: `uuid`, `timestamptz`, `boolean`, `jsonb` (a
//! finished game's record is `text`: it is only read whole). A batch of actions is one
//! `INSERT ... SELECT FROM UNNEST(...)`, one round trip whatever its size; a batch of other writes is one
//! such statement per kind of write. How its rows read `int2`, `int4` and `int8` alike: `columns.rs`.
//!
//! Its SQL, by subject: this file (players' tokens, the batches of writes and of actions), `read.rs`,
//! `rate.rs`, `names.rs`, `chat.rs` (chat and rematches) and `leases.rs` (leases and fenced writes).

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

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use sqlx::postgres::{PgExecutor, PgPool, PgPoolOptions};
use sqlx::{Postgres, Row, Transaction};
use time::OffsetDateTime;
use uuid::Uuid;

use super::backend::Backend;
use super::batch::{self, WritesByKind};
use super::{ActionRow, Appended, Fence, GamePlayer, SeatOutcome, StoreError, Write, codec, rows};
use crate::protocol::{Clock, PlayerInfo, TableId};

/// How long a call waits for a connection before giving up with [`StoreError::Unavailable`].
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Two transactions of actions at once: PostgreSQL flushes concurrent commits together, so a batch need
/// not wait for the one before it to be durable.
const COMMITS_IN_FLIGHT: usize = 2;

/// A store in a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// Connects to the database of `url` and applies `migrations/postgres`.
    pub(super) async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(10)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(url)
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()))?;
        sqlx::migrate!("../../migrations/postgres").run(&pool).await?;
        let store = PgStore { pool };
        let replayed = store.rate_unrated().await?;
        if replayed > 0 {
            tracing::info!(
                games = replayed,
                "rated the finished games stored before ratings, in the order they finished"
            );
        }
        Ok(store)
    }

    /// The connection pool, for tools and tests that need SQL of their own.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    async fn write_players<'c>(executor: impl PgExecutor<'c>, kinds: &WritesByKind<'_>) -> Result<(), StoreError> {
        let ids: Vec<Uuid> = kinds.players.iter().map(|(p, _, _)| p.id.0).collect();
        let names: Vec<&str> = kinds.players.iter().map(|(p, _, _)| p.name.as_str()).collect();
        let hashes: Vec<Vec<u8>> = kinds.players.iter().map(|(_, hash, _)| hash.to_vec()).collect();
        let created: Vec<OffsetDateTime> = kinds.players.iter().map(|(_, _, at)| *at).collect();
        // A new player's first token is a live token (`player_tokens`); a player stored again (renamed) keeps
        // theirs as they are: `xmax = 0` tells the rows this statement inserted from those it updated.
        sqlx::query(
            "WITH stored AS (
                 INSERT INTO players (id, name, token_hash, created_at)
                 SELECT * FROM UNNEST($1::uuid[], $2::text[], $3::bytea[], $4::timestamptz[])
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name
                 RETURNING id, token_hash, created_at, (xmax = 0) AS inserted
             )
             INSERT INTO player_tokens (token_hash, player_id, created_at)
             SELECT token_hash, id, created_at FROM stored WHERE inserted
             ON CONFLICT (token_hash) DO NOTHING",
        )
        .bind(ids)
        .bind(names)
        .bind(hashes)
        .bind(created)
        .execute(executor)
        .await?;
        Ok(())
    }

    /// The new tables and their first seats, in one statement.
    async fn write_tables<'c>(executor: impl PgExecutor<'c>, kinds: &WritesByKind<'_>) -> Result<(), StoreError> {
        let tables = &kinds.tables;
        let clocks = |part: fn(&Clock) -> u64| {
            tables
                .iter()
                .map(|t| t.clock.as_ref().map(|c| codec::ms_to_sql(part(c))).transpose())
                .collect::<Result<Vec<_>, _>>()
        };
        let turns: Vec<Option<i64>> = clocks(|c| c.turn_ms)?;
        let reserves: Vec<Option<i64>> = clocks(|c| c.reserve_ms)?;
        let (seat_tables, seat_numbers, seat_players) = seat_columns(&kinds.table_seats);
        sqlx::query(
            "WITH new_tables AS (
                 INSERT INTO tables (id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms, game,
                                     options, rated, tournament)
                 SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::int2[], $4::bool[], $5::text[], $6::timestamptz[],
                                      $7::text[], $8::int8[], $9::int8[], $13::text[], $14::text[], $15::bool[],
                                      $16::uuid[])
             )
             INSERT INTO seats (table_id, seat, player_id) SELECT * FROM UNNEST($10::uuid[], $11::int2[], $12::uuid[])",
        )
        .bind(tables.iter().map(|t| t.id.0).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.host.0).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| i16::from(t.seats)).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.public).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| codec::spectators_to_sql(t.spectators)).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.created_at).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.invite.as_str()).collect::<Vec<_>>())
        .bind(turns)
        .bind(reserves)
        .bind(seat_tables)
        .bind(seat_numbers)
        .bind(seat_players)
        .bind(tables.iter().map(|t| t.game.as_str()).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.options.as_str()).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.rated).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.tournament).collect::<Vec<_>>())
        .execute(executor)
        .await?;
        Ok(())
    }

    /// The new seats of tables that wait, in one statement: each new seat row written (over the old
    /// one of its seat), every other row of those tables deleted.
    async fn write_seats<'c>(executor: impl PgExecutor<'c>, kinds: &WritesByKind<'_>) -> Result<(), StoreError> {
        let (seat_tables, seat_numbers, seat_players) = seat_columns(&kinds.seats);
        sqlx::query(
            "WITH new_seats AS (
                 SELECT * FROM UNNEST($2::uuid[], $3::int2[], $4::uuid[], $5::bool[]) AS u (table_id, seat, player_id, bot)
             ), freed AS (
                 DELETE FROM seats s WHERE s.table_id = ANY($1::uuid[])
                     AND NOT EXISTS (SELECT 1 FROM new_seats n WHERE n.table_id = s.table_id AND n.seat = s.seat)
             )
             INSERT INTO seats (table_id, seat, player_id, bot) SELECT table_id, seat, player_id, bot FROM new_seats
             ON CONFLICT (table_id, seat) DO UPDATE SET player_id = excluded.player_id, bot = excluded.bot",
        )
        .bind(kinds.reseated.iter().map(|t| t.0).collect::<Vec<_>>())
        .bind(seat_tables)
        .bind(seat_numbers)
        .bind(seat_players)
        .bind(kinds.seats.iter().map(|(_, _, _, bot)| *bot).collect::<Vec<_>>())
        .execute(executor)
        .await?;
        Ok(())
    }

    /// The starts of games and their players, in one statement.
    async fn write_starts<'c>(executor: impl PgExecutor<'c>, kinds: &WritesByKind<'_>) -> Result<(), StoreError> {
        let starts = &kinds.starts;
        let counts = starts
            .iter()
            .map(|start| {
                i16::try_from(start.players.len())
                    .map_err(|_| StoreError::Other(format!("{} players cannot play one game", start.players.len())))
            })
            .collect::<Result<Vec<i16>, _>>()?;
        let players: Vec<(TableId, &GamePlayer)> =
            starts.iter().flat_map(|start| start.players.iter().map(move |p| (start.table, p))).collect();
        sqlx::query(
            "WITH new_games AS (
                 INSERT INTO games (table_id, game, seed, salt, player_count, started_at, contributions)
                 SELECT s.id, (SELECT game FROM tables WHERE tables.id = s.id), s.seed, s.salt, s.n, s.at, s.c
                 FROM UNNEST($1::uuid[], $2::int8[], $3::bytea[], $4::int2[], $5::timestamptz[], $11::bytea[])
                     AS s (id, seed, salt, n, at, c)
             )
             INSERT INTO game_players (table_id, seat, player_id, name, bot)
             SELECT * FROM UNNEST($6::uuid[], $7::int2[], $8::uuid[], $9::text[], $10::bool[])",
        )
        .bind(starts.iter().map(|start| start.table.0).collect::<Vec<_>>())
        .bind(starts.iter().map(|start| codec::seed_to_sql(start.seed)).collect::<Vec<_>>())
        .bind(starts.iter().map(|start| start.salt.map(|salt| salt.as_slice())).collect::<Vec<_>>())
        .bind(counts)
        .bind(starts.iter().map(|start| start.started_at).collect::<Vec<_>>())
        .bind(players.iter().map(|(t, _)| t.0).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| i16::from(p.seat.0)).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| p.id.0).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| p.name.as_str()).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| p.bot).collect::<Vec<_>>())
        .bind(starts.iter().map(|start| codec::contributions_to_sql(start.contributions)).collect::<Vec<_>>())
        .execute(executor)
        .await?;
        Ok(())
    }

    /// Writes the finishes of a batch with one statement, which finishes only games still unfinished
    /// with as many players as their outcomes have seats (a game being finished by another transaction
    /// is waited for, then found finished) and writes the results of those it finished, their players
    /// read from `game_players`. Each finish that it did not write gets its error in `outcomes`; they
    /// are told apart (not started, already finished, not fitting) by a read on `pool` afterwards.
    /// Returns the games it finished, in the batch's order.
    async fn write_finishes<'c>(
        executor: impl PgExecutor<'c>,
        pool: &PgPool,
        kinds: &WritesByKind<'_>,
        outcomes: &mut [Result<(), StoreError>],
    ) -> Result<Vec<TableId>, StoreError> {
        let mut finishing = HashSet::new();
        let mut games = Vec::new();
        // Each seat's result: its table, seat, outcome and details as stored.
        let mut seats: Vec<(TableId, i16, &SeatOutcome, String)> = Vec::new();
        for &(index, table, finished, finished_at) in &kinds.finishes {
            let details = match batch::checked_outcome(&finished.outcome) {
                Ok(details) => details,
                Err(error) => {
                    outcomes[index] = Err(error);
                    continue;
                }
            };
            // Two finishes of one game in one batch: the second finds it finished.
            if !finishing.insert(table) {
                outcomes[index] = Err(already_finished(table));
                continue;
            }
            // At most `MAX_SEATS` seats, checked above.
            let count = i16::try_from(details.len()).unwrap_or(i16::MAX);
            games.push((index, table, finished, finished_at, count));
            seats.extend(
                (0i16..)
                    .zip(&finished.outcome.seats)
                    .zip(details)
                    .map(|((seat, outcome), details)| (table, seat, outcome, details)),
            );
        }
        if games.is_empty() {
            return Ok(Vec::new());
        }
        let finished: Vec<Uuid> = sqlx::query_scalar(
            "WITH finished AS (
                 UPDATE games g SET finished_at = u.finished_at, ended_by = u.ended_by, record = u.record
                 FROM UNNEST($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::int2[])
                      AS u (table_id, finished_at, ended_by, record, player_count)
                 WHERE g.table_id = u.table_id AND g.finished_at IS NULL AND g.player_count = u.player_count
                 RETURNING g.table_id
             ), stored AS (
                 INSERT INTO results (table_id, seat, player_id, name, score, details, place, winner, bot, bot_actions)
                 SELECT s.table_id, s.seat, p.player_id, p.name, s.score, s.details, s.place, s.winner, p.bot,
                        (SELECT COUNT(*) FROM actions a WHERE a.table_id = s.table_id AND a.seat = s.seat AND a.by_bot)
                 FROM UNNEST($6::uuid[], $7::int2[], $8::int8[], $9::text[], $10::int2[], $11::bool[])
                      AS s (table_id, seat, score, details, place, winner)
                 JOIN finished f ON f.table_id = s.table_id
                 JOIN game_players p ON p.table_id = s.table_id AND p.seat = s.seat
             )
             SELECT table_id FROM finished",
        )
        .bind(games.iter().map(|(_, t, _, _, _)| t.0).collect::<Vec<_>>())
        .bind(games.iter().map(|(_, _, _, at, _)| *at).collect::<Vec<_>>())
        .bind(games.iter().map(|(_, _, f, _, _)| f.outcome.ended_by.as_str()).collect::<Vec<_>>())
        .bind(games.iter().map(|(_, _, f, _, _)| f.record.as_str()).collect::<Vec<_>>())
        .bind(games.iter().map(|(_, _, _, _, count)| *count).collect::<Vec<_>>())
        .bind(seats.iter().map(|(t, _, _, _)| t.0).collect::<Vec<_>>())
        .bind(seats.iter().map(|(_, seat, _, _)| *seat).collect::<Vec<_>>())
        .bind(seats.iter().map(|(_, _, outcome, _)| outcome.score).collect::<Vec<_>>())
        .bind(seats.iter().map(|(_, _, _, details)| details.as_str()).collect::<Vec<_>>())
        .bind(seats.iter().map(|(_, _, outcome, _)| i16::from(outcome.place)).collect::<Vec<_>>())
        .bind(seats.iter().map(|(_, _, outcome, _)| outcome.winner).collect::<Vec<_>>())
        .fetch_all(executor)
        .await?;
        let finished: HashSet<Uuid> = finished.into_iter().collect();
        let in_order: Vec<TableId> =
            games.iter().map(|(_, table, _, _, _)| *table).filter(|table| finished.contains(&table.0)).collect();
        let refused: Vec<(usize, TableId)> = games
            .iter()
            .filter(|(_, table, _, _, _)| !finished.contains(&table.0))
            .map(|(index, table, _, _, _)| (*index, *table))
            .collect();
        if refused.is_empty() {
            return Ok(in_order);
        }
        let mut state: HashMap<TableId, (bool, i16)> = HashMap::new();
        for row in sqlx::query(
            "SELECT table_id, finished_at IS NOT NULL AS finished, player_count FROM games
             WHERE table_id = ANY($1::uuid[])",
        )
        .bind(refused.iter().map(|(_, t)| t.0).collect::<Vec<_>>())
        .fetch_all(pool)
        .await?
        {
            state.insert(TableId(row.try_get("table_id")?), (row.try_get("finished")?, row.try_get("player_count")?));
        }
        for (index, table) in refused {
            outcomes[index] = Err(match state.get(&table) {
                None => StoreError::NotFound,
                Some((true, _)) => already_finished(table),
                Some((false, players)) => {
                    StoreError::Other(format!("the outcome of game {table} does not fit its {players} players"))
                }
            });
        }
        Ok(in_order)
    }

    async fn game_players(tx: &mut Transaction<'_, Postgres>, table: TableId) -> Result<Vec<GamePlayer>, StoreError> {
        sqlx::query("SELECT seat, player_id, name, bot FROM game_players WHERE table_id = $1 ORDER BY seat")
            .bind(table.0)
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(rows::game_player)
            .collect()
    }
}

impl Backend for PgStore {
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
             WHERE t.token_hash = $1 AND p.deleted_at IS NULL
             LIMIT 1",
        )
        .bind(&token_hash[..])
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        rows::player_info(&row, "id")
    }

    /// Writes a batch in one transaction, one statement per kind of write; see [`Store::write`]. A batch
    /// of one kind is that one statement, a transaction of its own without the round trips of `BEGIN`
    /// and `COMMIT`.
    async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let kinds = WritesByKind::of(batch);
        let mut outcomes = vec![Ok(()); batch.len()];
        // Writes each kind present with its statement, through `$executor` (evaluated for each).
        macro_rules! write_kinds {
            ($executor:expr) => {
                if !kinds.players.is_empty() {
                    Self::write_players($executor, &kinds).await?;
                }
                if !kinds.tables.is_empty() {
                    Self::write_tables($executor, &kinds).await?;
                }
                if !kinds.reseated.is_empty() {
                    Self::write_seats($executor, &kinds).await?;
                }
                if !kinds.starts.is_empty() {
                    Self::write_starts($executor, &kinds).await?;
                }
            };
        }
        // Finishes always take a transaction: a game's result and its ratings are written together.
        if kinds.kinds() == 1 && kinds.finishes.is_empty() {
            write_kinds!(&self.pool);
            return Ok(outcomes);
        }
        let mut tx = self.pool.begin().await?;
        write_kinds!(&mut *tx);
        if !kinds.finishes.is_empty() {
            let finished = Self::write_finishes(&mut *tx, &self.pool, &kinds, &mut outcomes).await?;
            Self::rate_games(&mut tx, &finished).await?;
        }
        tx.commit().await?;
        Ok(outcomes)
    }

    async fn append_actions(&self, batch: &[ActionRow]) -> Result<Appended, StoreError> {
        if batch.iter().any(|row| row.fence.is_some()) {
            return self.append_fenced(batch).await;
        }
        let ActionColumns { tables, seqs, seats, actions, by_bot, reserves } = ActionColumns::of(batch)?;
        // A single statement is a transaction of its own: the whole batch commits, or none of it.
        sqlx::query(
            "INSERT INTO actions (table_id, seq, seat, action, by_bot, reserve_ms)
             SELECT t, s, st, a::jsonb, b, r
             FROM UNNEST($1::uuid[], $2::int8[], $3::int2[], $4::text[], $5::bool[], $6::int8[]) AS u (t, s, st, a, b, r)",
        )
        .bind(tables)
        .bind(seqs)
        .bind(seats)
        .bind(actions)
        .bind(by_bot)
        .bind(reserves)
        .execute(&self.pool)
        .await?;
        Ok(Appended::default())
    }

    async fn truncate_actions(&self, table: TableId, from: u32, fence: Option<&Fence>) -> Result<(), StoreError> {
        if let Some(fence) = fence {
            return self.truncate_fenced(table, from, fence).await;
        }
        sqlx::query("DELETE FROM actions WHERE table_id = $1 AND seq >= $2")
            .bind(table.0)
            .bind(i64::from(from))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// A batch of actions as the arrays an `UNNEST` takes, one per column of `actions`.
struct ActionColumns<'a> {
    tables: Vec<Uuid>,
    seqs: Vec<i64>,
    seats: Vec<i16>,
    actions: Vec<&'a str>,
    by_bot: Vec<bool>,
    reserves: Vec<Option<i64>>,
}

impl<'a> ActionColumns<'a> {
    fn of(batch: &'a [ActionRow]) -> Result<ActionColumns<'a>, StoreError> {
        Ok(ActionColumns {
            tables: batch.iter().map(|row| row.table.0).collect(),
            seqs: batch.iter().map(|row| i64::from(row.seq)).collect(),
            seats: batch.iter().map(|row| i16::from(row.seat.0)).collect(),
            actions: batch.iter().map(|row| row.action.as_str()).collect(),
            by_bot: batch.iter().map(|row| row.by_bot).collect(),
            reserves: batch
                .iter()
                .map(|row| row.reserve_ms.map(codec::ms_to_sql).transpose())
                .collect::<Result<_, _>>()?,
        })
    }
}

fn already_finished(table: TableId) -> StoreError {
    StoreError::Other(format!("game {table} is already finished"))
}

/// Seat rows `(table, seat, player)` as the three arrays an `UNNEST` takes.
fn seat_columns(seats: &[batch::SeatRowOf]) -> (Vec<Uuid>, Vec<i16>, Vec<Uuid>) {
    (
        seats.iter().map(|(table, _, _, _)| table.0).collect(),
        seats.iter().map(|(_, seat, _, _)| *seat).collect(),
        seats.iter().map(|(_, _, player, _)| player.0).collect(),
    )
}
