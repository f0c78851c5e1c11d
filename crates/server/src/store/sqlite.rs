//! The SQLite backend: one file, in WAL mode with `synchronous = FULL`, so that a committed transaction
//! survives a power cut (an acknowledged action is durable), and with foreign keys enforced.
//!
//! Its schema is `migrations/sqlite`: ids are hyphenated TEXT, instants INTEGER microseconds since the
//! Unix epoch, JSON TEXT. A batch of writes is one transaction (one commit, one sync of the file),
//! with a statement per row.

use std::collections::HashSet;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, Sqlite, Transaction};
use uuid::Uuid;

use time::OffsetDateTime;

use super::{
    ActionRow, FinishedGame, FinishedTable, GameCursor, GameFilter, GamePlayer, GameSummary, PlayerFilter, PlayerStats,
    RECENT_GAMES, SeatResult, StoreError, StoredAction, TableRow, UnfinishedGame, WaitingTable, Write, WritesByKind,
};
use crate::protocol::{PlayerId, PlayerInfo, TableId};

/// How long a connection waits for the file's write lock before giving up with
/// [`StoreError::Unavailable`].
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

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

/// The columns of `results` that [`seat_result`] reads, in a query over `results r`.
const RESULT_COLUMNS: &str =
    "r.table_id, r.seat, r.player_id, r.name, r.score, r.details, r.place, r.winner, r.bot, r.bot_actions";

/// The columns of `tables t` that [`table_row`] reads.
const TABLE_COLUMNS: &str =
    "t.host, t.seat_count, t.public, t.spectators, t.created_at, t.invite, t.turn_ms, t.reserve_ms, t.game, t.options";

/// Writes seat rows `(table, seat, player)` in `tx`.
async fn insert_seats(tx: &mut Transaction<'_, Sqlite>, seats: &[super::SeatRowOf]) -> Result<(), StoreError> {
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

/// A `tables` row with the [`TABLE_COLUMNS`].
fn table_row(id: TableId, row: &SqliteRow) -> Result<TableRow, StoreError> {
    Ok(TableRow {
        id,
        game: row.try_get("game")?,
        host: PlayerId(uuid_from(row.try_get("host")?)?),
        seats: super::small_from(row.try_get("seat_count")?, "seat count")?,
        public: row.try_get("public")?,
        spectators: super::spectators_from(row.try_get("spectators")?)?,
        created_at: super::from_micros(row.try_get("created_at")?)?,
        invite: row.try_get("invite")?,
        clock: super::clock_from(row.try_get("turn_ms")?, row.try_get("reserve_ms")?)?,
        options: row.try_get("options")?,
    })
}

fn seat_result(row: &SqliteRow) -> Result<(TableId, SeatResult), StoreError> {
    let table = TableId(uuid_from(row.try_get("table_id")?)?);
    let seat = super::seat_from(row.try_get("seat")?)?;
    let player = GamePlayer {
        seat,
        id: PlayerId(uuid_from(row.try_get("player_id")?)?),
        name: row.try_get("name")?,
        bot: row.try_get("bot")?,
    };
    Ok((
        table,
        SeatResult {
            player,
            score: row.try_get("score")?,
            details: super::details_from(row.try_get("details")?)?,
            place: super::small_from(row.try_get("place")?, "place")?,
            winner: row.try_get("winner")?,
            bot_actions: super::count_from(row.try_get("bot_actions")?)?,
        },
    ))
}

/// A finished game's row of `games g`, without its results.
fn game_head(row: &SqliteRow) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: TableId(uuid_from(row.try_get("table_id")?)?),
        game: row.try_get("game")?,
        started_at: super::from_micros(row.try_get("started_at")?)?,
        finished_at: super::from_micros(row.try_get("finished_at")?)?,
        ended_by: row.try_get("ended_by")?,
        results: Vec::new(),
    })
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
        Ok(SqliteStore { pool })
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

    pub(super) async fn close(&self) {
        self.pool.close().await;
    }

    pub(super) async fn health(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub(super) async fn player_by_token_hash(&self, token_hash: &[u8; 32]) -> Result<PlayerInfo, StoreError> {
        let row = sqlx::query("SELECT id, name FROM players WHERE token_hash = ?1")
            .bind(&token_hash[..])
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(PlayerInfo { id: PlayerId(uuid_from(row.try_get("id")?)?), name: row.try_get("name")? })
    }

    /// Writes a batch in one transaction; see [`Store::write`].
    pub(super) async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let kinds = WritesByKind::of(batch);
        let mut outcomes = vec![Ok(()); batch.len()];
        let mut tx = self.write_transaction().await?;
        for (player, token_hash, at) in &kinds.players {
            sqlx::query(
                "INSERT INTO players (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name",
            )
            .bind(id_text(player.id.0))
            .bind(&player.name)
            .bind(&token_hash[..])
            .bind(super::micros(*at))
            .execute(&mut *tx)
            .await?;
        }
        for table in &kinds.tables {
            sqlx::query(
                "INSERT INTO tables (id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms, game,
                                     options)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )
            .bind(id_text(table.id.0))
            .bind(id_text(table.host.0))
            .bind(i64::from(table.seats))
            .bind(table.public)
            .bind(super::spectators_to_sql(table.spectators))
            .bind(super::micros(table.created_at))
            .bind(&table.invite)
            .bind(table.clock.map(|c| super::ms_to_sql(c.turn_ms)).transpose()?)
            .bind(table.clock.map(|c| super::ms_to_sql(c.reserve_ms)).transpose()?)
            .bind(&table.game)
            .bind(&table.options)
            .execute(&mut *tx)
            .await?;
        }
        insert_seats(&mut tx, &kinds.table_seats).await?;
        for table in &kinds.reseated {
            sqlx::query("DELETE FROM seats WHERE table_id = ?1").bind(id_text(table.0)).execute(&mut *tx).await?;
        }
        insert_seats(&mut tx, &kinds.seats).await?;
        for (table, seed, players, started_at) in &kinds.starts {
            sqlx::query(
                // The game is the table's: a table hosts one game.
                "INSERT INTO games (table_id, game, seed, player_count, started_at)
                 VALUES (?1, (SELECT game FROM tables WHERE id = ?1), ?2, ?3, ?4)",
            )
            .bind(id_text(table.0))
            .bind(super::seed_to_sql(*seed))
            .bind(players.len() as i64)
            .bind(super::micros(*started_at))
            .execute(&mut *tx)
            .await?;
            for player in *players {
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
        for &(index, table, finished, finished_at) in &kinds.finishes {
            let state: Option<Option<i64>> = sqlx::query_scalar("SELECT finished_at FROM games WHERE table_id = ?1")
                .bind(id_text(table.0))
                .fetch_optional(&mut *tx)
                .await?;
            let players = Self::game_players(&mut tx, table).await?;
            let outcome = &finished.outcome;
            match super::check_finish(table, outcome, state.map(|s| s.is_some()), &players, &mut finishing) {
                Ok(results) => Self::write_finish(&mut tx, table, finished, finished_at, &results).await?,
                Err(error) => outcomes[index] = Err(error),
            }
        }
        tx.commit().await?;
        Ok(outcomes)
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
            .bind(super::micros(finished_at))
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
            .bind(super::details_to_json(&result.details)?)
            .bind(i64::from(result.place))
            .bind(result.winner)
            .bind(result.player.bot)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    pub(super) async fn append_actions(&self, batch: &[ActionRow]) -> Result<(), StoreError> {
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
            .bind(row.reserve_ms.map(super::ms_to_sql).transpose()?)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn game_players(tx: &mut Transaction<'_, Sqlite>, table: TableId) -> Result<Vec<GamePlayer>, StoreError> {
        sqlx::query("SELECT seat, player_id, name, bot FROM game_players WHERE table_id = ?1 ORDER BY seat")
            .bind(id_text(table.0))
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(|row| {
                Ok(GamePlayer {
                    seat: super::seat_from(row.try_get("seat")?)?,
                    id: PlayerId(uuid_from(row.try_get("player_id")?)?),
                    name: row.try_get("name")?,
                    bot: row.try_get("bot")?,
                })
            })
            .collect()
    }

    pub(super) async fn truncate_actions(&self, table: TableId, from: u32) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM actions WHERE table_id = ?1 AND seq >= ?2")
            .bind(id_text(table.0))
            .bind(i64::from(from))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(super) async fn waiting_tables(&self) -> Result<Vec<WaitingTable>, StoreError> {
        // One snapshot for the whole read, so a table and its seats agree.
        let mut tx = self.pool.begin().await?;
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
            let table = table_row(TableId(uuid_from(head.try_get("id")?)?), head)?;
            let rows = sqlx::query(
                "SELECT s.seat, s.player_id, s.bot, p.name FROM seats s JOIN players p ON p.id = s.player_id
                 WHERE s.table_id = ?1 ORDER BY s.seat",
            )
            .bind(id_text(table.id.0))
            .fetch_all(&mut *tx)
            .await?;
            let mut seats = vec![None; usize::from(table.seats)];
            for row in &rows {
                let seat = super::seat_from(row.try_get("seat")?)?;
                let player =
                    PlayerInfo { id: PlayerId(uuid_from(row.try_get("player_id")?)?), name: row.try_get("name")? };
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
            let id = TableId(uuid_from(head.try_get("table_id")?)?);
            let table = table_row(id, head)?;
            let players = Self::game_players(&mut tx, id).await?;
            let rows = sqlx::query(
                "SELECT seq, seat, action, by_bot, reserve_ms FROM actions WHERE table_id = ?1 ORDER BY seq",
            )
            .bind(id_text(id.0))
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| {
                let seq: i64 = row.try_get("seq")?;
                let action = StoredAction {
                    seat: super::seat_from(row.try_get("seat")?)?,
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
                started_at: super::from_micros(head.try_get("started_at")?)?,
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
        let ids: Vec<String> = games.iter().map(|g| id_text(g.id.0)).collect();
        let ids = serde_json::to_string(&ids).map_err(|e| StoreError::Other(e.to_string()))?;
        let sql = format!(
            "SELECT {RESULT_COLUMNS} FROM results r
             WHERE r.table_id IN (SELECT value FROM json_each(?1))
             ORDER BY r.table_id, r.seat"
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
            Some(PlayerFilter::Id(id)) => (Some(id_text(id.0)), None),
            Some(PlayerFilter::Name(name)) => (None, Some(name.as_str())),
            None => (None, None),
        };
        let rows = sqlx::query(
            "SELECT g.table_id, g.game, g.started_at, g.finished_at, g.ended_by FROM games g
             WHERE g.finished_at IS NOT NULL
               AND (?1 IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE player_id = ?1))
               AND (?2 IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE name = ?2))
               AND (?3 IS NULL OR g.finished_at >= ?3)
               AND (?4 IS NULL OR g.finished_at < ?4)
               AND (?5 IS NULL OR g.player_count = ?5)
               AND (?6 IS NULL OR (g.finished_at, g.table_id) < (?6, ?7))
               AND (?9 IS NULL OR g.game = ?9)
             ORDER BY g.finished_at DESC, g.table_id DESC
             LIMIT ?8",
        )
        .bind(player_id)
        .bind(player_name)
        .bind(filter.since.map(super::micros))
        .bind(filter.until.map(super::micros))
        .bind(filter.players.map(i64::from))
        .bind(cursor.map(|c| c.finished_at))
        .bind(cursor.map(|c| id_text(c.id)))
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
             WHERE g.table_id = ?1 AND g.finished_at IS NOT NULL",
        )
        .bind(id_text(id.0))
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
             WHERE t.id = ?1 AND g.record IS NOT NULL"
        ))
        .bind(id_text(id.0))
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
        let json: String = sqlx::query_scalar("SELECT record FROM games WHERE table_id = ?1 AND record IS NOT NULL")
            .bind(id_text(id.0))
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        super::record_from_json(id, json)
    }

    pub(super) async fn player_stats(&self, id: PlayerId) -> Result<PlayerStats, StoreError> {
        let name: String = sqlx::query_scalar("SELECT name FROM players WHERE id = ?1")
            .bind(id_text(id.0))
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        let totals = sqlx::query(
            "SELECT COUNT(*) AS games, COALESCE(SUM(winner), 0) AS wins, AVG(score) AS average
             FROM results WHERE player_id = ?1",
        )
        .bind(id_text(id.0))
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
