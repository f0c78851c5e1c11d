//! The PostgreSQL backend, for production.
//!
//! Its schema is `migrations/postgres`, with native types: `uuid`, `timestamptz`, `boolean`, `jsonb` (a
//! finished game's record is `text`: it is only read whole). A batch of actions is one
//! `INSERT ... SELECT FROM UNNEST(...)`, one round trip whatever its size; a batch of other writes is one
//! such statement per kind of write.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use romirami_game::Seat;
use sqlx::postgres::{PgExecutor, PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, Row, Transaction};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{
    ActionRow, FinishedTable, GameCursor, GameFilter, GamePlayer, GameSummary, PlayerFilter, PlayerStats, RECENT_GAMES,
    SeatOutcome, SeatResult, StoreError, StoredAction, TableRow, UnfinishedGame, WaitingTable, Write, WritesByKind,
};
use crate::protocol::{Clock, PlayerId, PlayerInfo, TableId};

/// How long a call waits for a connection before giving up with [`StoreError::Unavailable`].
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// A store in a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
}

/// The columns of `results` that [`seat_result`] reads, in a query over `results r`.
const RESULT_COLUMNS: &str =
    "r.table_id, r.seat, r.player_id, r.name, r.score, r.details, r.place, r.winner, r.bot, r.bot_actions";

/// The columns of `tables t` that [`table_row`] reads.
const TABLE_COLUMNS: &str =
    "t.host, t.seat_count, t.public, t.spectators, t.created_at, t.invite, t.turn_ms, t.reserve_ms, t.game, t.options";

fn seat(row: &PgRow, column: &str) -> Result<Seat, StoreError> {
    super::seat_from(i64::from(row.try_get::<i16, _>(column)?))
}

fn seat_result(row: &PgRow) -> Result<(TableId, SeatResult), StoreError> {
    let table = TableId(row.try_get("table_id")?);
    let seat = seat(row, "seat")?;
    let player = GamePlayer {
        seat,
        id: PlayerId(row.try_get("player_id")?),
        name: row.try_get("name")?,
        bot: row.try_get("bot")?,
    };
    Ok((
        table,
        SeatResult {
            player,
            score: row.try_get("score")?,
            details: super::details_from(row.try_get("details")?)?,
            place: super::small_from(i64::from(row.try_get::<i16, _>("place")?), "place")?,
            winner: row.try_get("winner")?,
            bot_actions: super::count_from(i64::from(row.try_get::<i32, _>("bot_actions")?))?,
        },
    ))
}

/// A row of `game_players`.
fn game_player(row: &PgRow) -> Result<GamePlayer, StoreError> {
    Ok(GamePlayer {
        seat: seat(row, "seat")?,
        id: PlayerId(row.try_get("player_id")?),
        name: row.try_get("name")?,
        bot: row.try_get("bot")?,
    })
}

/// A finished game's row of `games g`, without its results.
fn game_head(row: &PgRow) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: TableId(row.try_get("table_id")?),
        game: row.try_get("game")?,
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
        ended_by: row.try_get("ended_by")?,
        results: Vec::new(),
    })
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
        Ok(PgStore { pool })
    }

    /// The connection pool, for tools and tests that need SQL of their own.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub(super) async fn close(&self) {
        self.pool.close().await;
    }

    pub(super) async fn health(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub(super) async fn player_by_token_hash(&self, token_hash: &[u8; 32]) -> Result<PlayerInfo, StoreError> {
        let row = sqlx::query("SELECT id, name FROM players WHERE token_hash = $1")
            .bind(&token_hash[..])
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(PlayerInfo { id: PlayerId(row.try_get("id")?), name: row.try_get("name")? })
    }

    /// Writes a batch in one transaction, one statement per kind of write; see [`Store::write`]. A batch
    /// of one kind is that one statement, a transaction of its own without the round trips of `BEGIN`
    /// and `COMMIT`.
    pub(super) async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
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
                if !kinds.finishes.is_empty() {
                    Self::write_finishes($executor, &self.pool, &kinds, &mut outcomes).await?;
                }
            };
        }
        if kinds.kinds() == 1 {
            write_kinds!(&self.pool);
            return Ok(outcomes);
        }
        let mut tx = self.pool.begin().await?;
        write_kinds!(&mut *tx);
        tx.commit().await?;
        Ok(outcomes)
    }

    async fn write_players<'c>(executor: impl PgExecutor<'c>, kinds: &WritesByKind<'_>) -> Result<(), StoreError> {
        let ids: Vec<Uuid> = kinds.players.iter().map(|(p, _, _)| p.id.0).collect();
        let names: Vec<&str> = kinds.players.iter().map(|(p, _, _)| p.name.as_str()).collect();
        let hashes: Vec<Vec<u8>> = kinds.players.iter().map(|(_, hash, _)| hash.to_vec()).collect();
        let created: Vec<OffsetDateTime> = kinds.players.iter().map(|(_, _, at)| *at).collect();
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at)
             SELECT * FROM UNNEST($1::uuid[], $2::text[], $3::bytea[], $4::timestamptz[])
             ON CONFLICT (id) DO UPDATE SET name = excluded.name",
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
                .map(|t| t.clock.as_ref().map(|c| super::ms_to_sql(part(c))).transpose())
                .collect::<Result<Vec<_>, _>>()
        };
        let turns: Vec<Option<i64>> = clocks(|c| c.turn_ms)?;
        let reserves: Vec<Option<i64>> = clocks(|c| c.reserve_ms)?;
        let (seat_tables, seat_numbers, seat_players) = seat_columns(&kinds.table_seats);
        sqlx::query(
            "WITH new_tables AS (
                 INSERT INTO tables (id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms, game,
                                     options)
                 SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::int2[], $4::bool[], $5::text[], $6::timestamptz[],
                                      $7::text[], $8::int8[], $9::int8[], $13::text[], $14::text[])
             )
             INSERT INTO seats (table_id, seat, player_id) SELECT * FROM UNNEST($10::uuid[], $11::int2[], $12::uuid[])",
        )
        .bind(tables.iter().map(|t| t.id.0).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.host.0).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| i16::from(t.seats)).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.public).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| super::spectators_to_sql(t.spectators)).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.created_at).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.invite.as_str()).collect::<Vec<_>>())
        .bind(turns)
        .bind(reserves)
        .bind(seat_tables)
        .bind(seat_numbers)
        .bind(seat_players)
        .bind(tables.iter().map(|t| t.game.as_str()).collect::<Vec<_>>())
        .bind(tables.iter().map(|t| t.options.as_str()).collect::<Vec<_>>())
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
            .map(|(_, _, players, _)| {
                i16::try_from(players.len())
                    .map_err(|_| StoreError::Other(format!("{} players cannot play one game", players.len())))
            })
            .collect::<Result<Vec<i16>, _>>()?;
        let players: Vec<(TableId, &GamePlayer)> =
            starts.iter().flat_map(|(t, _, players, _)| players.iter().map(move |p| (*t, p))).collect();
        sqlx::query(
            "WITH new_games AS (
                 INSERT INTO games (table_id, game, seed, player_count, started_at)
                 SELECT s.id, (SELECT game FROM tables WHERE tables.id = s.id), s.seed, s.n, s.at
                 FROM UNNEST($1::uuid[], $2::int8[], $3::int2[], $4::timestamptz[]) AS s (id, seed, n, at)
             )
             INSERT INTO game_players (table_id, seat, player_id, name, bot)
             SELECT * FROM UNNEST($5::uuid[], $6::int2[], $7::uuid[], $8::text[], $9::bool[])",
        )
        .bind(starts.iter().map(|(t, _, _, _)| t.0).collect::<Vec<_>>())
        .bind(starts.iter().map(|(_, seed, _, _)| super::seed_to_sql(*seed)).collect::<Vec<_>>())
        .bind(counts)
        .bind(starts.iter().map(|(_, _, _, at)| *at).collect::<Vec<_>>())
        .bind(players.iter().map(|(t, _)| t.0).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| i16::from(p.seat.0)).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| p.id.0).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| p.name.as_str()).collect::<Vec<_>>())
        .bind(players.iter().map(|(_, p)| p.bot).collect::<Vec<_>>())
        .execute(executor)
        .await?;
        Ok(())
    }

    /// Writes the finishes of a batch with one statement, which finishes only games still unfinished
    /// with as many players as their outcomes have seats (a game being finished by another transaction
    /// is waited for, then found finished) and writes the results of those it finished, their players
    /// read from `game_players`. Each finish that it did not write gets its error in `outcomes`; they
    /// are told apart (not started, already finished, not fitting) by a read on `pool` afterwards.
    async fn write_finishes<'c>(
        executor: impl PgExecutor<'c>,
        pool: &PgPool,
        kinds: &WritesByKind<'_>,
        outcomes: &mut [Result<(), StoreError>],
    ) -> Result<(), StoreError> {
        let mut finishing = HashSet::new();
        let mut games = Vec::new();
        // Each seat's result: its table, seat, outcome and details as stored.
        let mut seats: Vec<(TableId, i16, &SeatOutcome, String)> = Vec::new();
        for &(index, table, finished, finished_at) in &kinds.finishes {
            let details = match super::checked_outcome(&finished.outcome) {
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
            return Ok(());
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
        let refused: Vec<(usize, TableId)> = games
            .iter()
            .filter(|(_, table, _, _, _)| !finished.contains(&table.0))
            .map(|(index, table, _, _, _)| (*index, *table))
            .collect();
        if refused.is_empty() {
            return Ok(());
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
        Ok(())
    }

    pub(super) async fn append_actions(&self, batch: &[ActionRow]) -> Result<(), StoreError> {
        let tables: Vec<Uuid> = batch.iter().map(|row| row.table.0).collect();
        let seqs: Vec<i64> = batch.iter().map(|row| i64::from(row.seq)).collect();
        let seats: Vec<i16> = batch.iter().map(|row| i16::from(row.seat.0)).collect();
        let actions: Vec<&str> = batch.iter().map(|row| row.action.as_str()).collect();
        let by_bot: Vec<bool> = batch.iter().map(|row| row.by_bot).collect();
        let reserves =
            batch.iter().map(|row| row.reserve_ms.map(super::ms_to_sql).transpose()).collect::<Result<Vec<_>, _>>()?;
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
        Ok(())
    }

    async fn game_players(tx: &mut Transaction<'_, Postgres>, table: TableId) -> Result<Vec<GamePlayer>, StoreError> {
        sqlx::query("SELECT seat, player_id, name, bot FROM game_players WHERE table_id = $1 ORDER BY seat")
            .bind(table.0)
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(game_player)
            .collect()
    }

    pub(super) async fn truncate_actions(&self, table: TableId, from: u32) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM actions WHERE table_id = $1 AND seq >= $2")
            .bind(table.0)
            .bind(i64::from(from))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(super) async fn waiting_tables(&self) -> Result<Vec<WaitingTable>, StoreError> {
        // One snapshot for the whole read, so a table and its seats agree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let heads = sqlx::query(&format!(
            "SELECT t.id, {TABLE_COLUMNS}
             FROM tables t
             WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id)
                 AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id)
             ORDER BY t.created_at, t.id"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let mut tables = Vec::with_capacity(heads.len());
        for head in &heads {
            let table = table_row(TableId(head.try_get("id")?), head)?;
            let rows = sqlx::query(
                "SELECT s.seat, s.player_id, s.bot, p.name FROM seats s JOIN players p ON p.id = s.player_id
                 WHERE s.table_id = $1 ORDER BY s.seat",
            )
            .bind(table.id.0)
            .fetch_all(&mut *tx)
            .await?;
            let mut seats = vec![None; usize::from(table.seats)];
            for row in &rows {
                let seat = super::seat_from(i64::from(row.try_get::<i16, _>("seat")?))?;
                let player = PlayerInfo { id: PlayerId(row.try_get("player_id")?), name: row.try_get("name")? };
                let slot = seats
                    .get_mut(seat.index())
                    .ok_or_else(|| StoreError::Corrupt(format!("{seat} of {}", table.id)))?;
                *slot = Some((player, row.try_get("bot")?));
            }
            tables.push(WaitingTable { table, seats });
        }
        tx.commit().await?;
        Ok(tables)
    }

    pub(super) async fn unfinished_games(&self) -> Result<Vec<UnfinishedGame>, StoreError> {
        // One snapshot for the whole read, so a game and its log agree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let heads = sqlx::query(&format!(
            "SELECT g.table_id, g.seed, g.started_at, {TABLE_COLUMNS}
             FROM games g JOIN tables t ON t.id = g.table_id
             WHERE g.finished_at IS NULL
             ORDER BY g.started_at, g.table_id"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let mut games = Vec::with_capacity(heads.len());
        for head in &heads {
            let id = TableId(head.try_get("table_id")?);
            let table = table_row(id, head)?;
            let players = Self::game_players(&mut tx, id).await?;
            let rows = sqlx::query(
                "SELECT seq, seat, action::text AS action, by_bot, reserve_ms FROM actions
                     WHERE table_id = $1 ORDER BY seq",
            )
            .bind(id.0)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| {
                let seq: i64 = row.try_get("seq")?;
                let action = StoredAction {
                    seat: seat(row, "seat")?,
                    action: super::action_from_json(&id, seq, row.try_get("action")?)?,
                    by_bot: row.try_get("by_bot")?,
                    reserve_ms: row.try_get::<Option<i64>, _>("reserve_ms")?.map(super::ms_from).transpose()?,
                };
                Ok((seq, action))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
            games.push(UnfinishedGame {
                table,
                seed: super::seed_from_sql(head.try_get("seed")?),
                started_at: head.try_get("started_at")?,
                players,
                actions: super::contiguous_actions(&id, rows)?,
            });
        }
        tx.commit().await?;
        Ok(games)
    }

    /// Fills in the results of `games`, read in one query.
    async fn with_results(&self, mut games: Vec<GameSummary>) -> Result<Vec<GameSummary>, StoreError> {
        if games.is_empty() {
            return Ok(games);
        }
        let ids: Vec<Uuid> = games.iter().map(|g| g.id.0).collect();
        let sql = format!(
            "SELECT {RESULT_COLUMNS} FROM results r WHERE r.table_id = ANY($1::uuid[]) ORDER BY r.table_id, r.seat"
        );
        let rows = sqlx::query(&sql).bind(ids).fetch_all(&self.pool).await?;
        super::attach_results(&mut games, rows.iter().map(seat_result))?;
        Ok(games)
    }

    pub(super) async fn list_games(
        &self,
        filter: &GameFilter,
        limit: u32,
        cursor: Option<GameCursor>,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let (player_id, player_name) = match &filter.player {
            Some(PlayerFilter::Id(id)) => (Some(id.0), None),
            Some(PlayerFilter::Name(name)) => (None, Some(name.as_str())),
            None => (None, None),
        };
        let cursor_at = cursor.map(|c| super::from_micros(c.finished_at)).transpose()?;
        let rows = sqlx::query(
            "SELECT g.table_id, g.game, g.started_at, g.finished_at, g.ended_by FROM games g
             WHERE g.finished_at IS NOT NULL
               AND ($1::uuid IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE player_id = $1))
               AND ($2::text IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE name = $2))
               AND ($3::timestamptz IS NULL OR g.finished_at >= $3)
               AND ($4::timestamptz IS NULL OR g.finished_at < $4)
               AND ($5::int2 IS NULL OR g.player_count = $5)
               AND ($6::timestamptz IS NULL OR (g.finished_at, g.table_id) < ($6, $7::uuid))
               AND ($9::text IS NULL OR g.game = $9)
             ORDER BY g.finished_at DESC, g.table_id DESC
             LIMIT $8",
        )
        .bind(player_id)
        .bind(player_name)
        .bind(filter.since)
        .bind(filter.until)
        .bind(filter.players.map(i16::from))
        .bind(cursor_at)
        .bind(cursor.map(|c| c.id))
        .bind(i64::from(limit))
        .bind(filter.game.as_deref())
        .fetch_all(&self.pool)
        .await?;
        let games = rows.iter().map(game_head).collect::<Result<Vec<_>, _>>()?;
        self.with_results(games).await
    }

    pub(super) async fn game(&self, id: TableId) -> Result<GameSummary, StoreError> {
        let row = sqlx::query(
            "SELECT g.table_id, g.game, g.started_at, g.finished_at, g.ended_by FROM games g
             WHERE g.table_id = $1 AND g.finished_at IS NOT NULL",
        )
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        let mut games = self.with_results(vec![game_head(&row)?]).await?;
        games.pop().ok_or(StoreError::NotFound)
    }

    pub(super) async fn finished_table(&self, id: TableId) -> Result<FinishedTable, StoreError> {
        let mut tx = self.pool.begin().await?;
        let head = sqlx::query(&format!(
            "SELECT {TABLE_COLUMNS}, g.record
             FROM tables t JOIN games g ON g.table_id = t.id
             WHERE t.id = $1 AND g.record IS NOT NULL"
        ))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let table = table_row(id, &head)?;
        let record = super::record_from_json(id, head.try_get("record")?)?;
        let players = Self::game_players(&mut tx, id).await?;
        tx.commit().await?;
        Ok(FinishedTable { table, players, record })
    }

    pub(super) async fn record(&self, id: TableId) -> Result<String, StoreError> {
        let json: String = sqlx::query_scalar("SELECT record FROM games WHERE table_id = $1 AND record IS NOT NULL")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        super::record_from_json(id, json)
    }

    pub(super) async fn player_stats(&self, id: PlayerId) -> Result<PlayerStats, StoreError> {
        let name: String = sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        let totals = sqlx::query(
            "SELECT COUNT(*) AS games, COALESCE(SUM(winner::int), 0)::int8 AS wins, AVG(score)::float8 AS average
             FROM results WHERE player_id = $1",
        )
        .bind(id.0)
        .fetch_one(&self.pool)
        .await?;
        let count = |column: &str| -> Result<u64, StoreError> {
            let value: i64 = totals.try_get(column)?;
            u64::try_from(value).map_err(|_| StoreError::Corrupt(format!("{column} is {value}")))
        };
        let filter = GameFilter { player: Some(PlayerFilter::Id(id)), ..GameFilter::default() };
        Ok(PlayerStats {
            player: PlayerInfo { id, name },
            games_played: count("games")?,
            wins: count("wins")?,
            average_score: totals.try_get("average")?,
            recent: self.list_games(&filter, RECENT_GAMES, None).await?,
        })
    }
}

fn already_finished(table: TableId) -> StoreError {
    StoreError::Other(format!("game {table} is already finished"))
}

/// A `tables` row with the [`TABLE_COLUMNS`].
fn table_row(id: TableId, row: &PgRow) -> Result<TableRow, StoreError> {
    Ok(TableRow {
        id,
        game: row.try_get("game")?,
        host: PlayerId(row.try_get("host")?),
        seats: super::small_from(i64::from(row.try_get::<i16, _>("seat_count")?), "seat count")?,
        public: row.try_get("public")?,
        spectators: super::spectators_from(row.try_get("spectators")?)?,
        created_at: row.try_get("created_at")?,
        invite: row.try_get("invite")?,
        clock: super::clock_from(row.try_get("turn_ms")?, row.try_get("reserve_ms")?)?,
        options: row.try_get("options")?,
    })
}

/// Seat rows `(table, seat, player)` as the three arrays an `UNNEST` takes.
fn seat_columns(seats: &[super::SeatRowOf]) -> (Vec<Uuid>, Vec<i16>, Vec<Uuid>) {
    (
        seats.iter().map(|(table, _, _, _)| table.0).collect(),
        seats.iter().map(|(_, seat, _, _)| *seat).collect(),
        seats.iter().map(|(_, _, player, _)| player.0).collect(),
    )
}
