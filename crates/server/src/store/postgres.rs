//! The PostgreSQL backend, for production.
//!
//! Its schema is `migrations/postgres`, with native types: `uuid`, `timestamptz`, `boolean`, `jsonb`.
//! A batch of actions is one `INSERT ... SELECT FROM UNNEST(...)`, one round trip whatever its size.

use std::collections::HashMap;
use std::time::Duration;

use romirami_engine::{Record, ScoreBreakdown};
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, Row, Transaction};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{
    ActionRow, GameCursor, GameFilter, GamePlayer, GameSummary, PlayerFilter, PlayerStats, RECENT_GAMES, SeatResult,
    StoreError, StoredAction, TableRow, UnfinishedGame,
};
use crate::protocol::{PlayerId, PlayerInfo, TableId};

/// How long a call waits for a connection before giving up with [`StoreError::Unavailable`].
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// A store in a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
}

/// The columns of `results` that [`seat_result`] reads, in a query over `results r`.
const RESULT_COLUMNS: &str = "r.table_id, r.seat, r.player_id, r.name, r.total, r.contracts, r.trophies, \
                              r.suit_bonus, r.star, r.place, r.winner, r.bot, r.bot_actions";

fn points(row: &PgRow, column: &str) -> Result<u32, StoreError> {
    super::points_from(i64::from(row.try_get::<i32, _>(column)?))
}

fn seat(row: &PgRow, column: &str) -> Result<romirami_engine::Seat, StoreError> {
    super::seat_from(i64::from(row.try_get::<i16, _>(column)?))
}

fn points_from_i64(stored: i32) -> Result<u32, StoreError> {
    super::points_from(i64::from(stored))
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
    let score = ScoreBreakdown {
        seat,
        total: points(row, "total")?,
        contracts: points(row, "contracts")?,
        trophies: points(row, "trophies")?,
        suit_bonus: points(row, "suit_bonus")?,
        star: points(row, "star")?,
    };
    let place = super::small_from(i64::from(row.try_get::<i16, _>("place")?), "place")?;
    let bot_actions = points_from_i64(row.try_get("bot_actions")?)?;
    Ok((table, SeatResult { player, score, place, winner: row.try_get("winner")?, bot_actions }))
}

/// A finished game's row of `games g`, without its results.
fn game_head(row: &PgRow) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: TableId(row.try_get("table_id")?),
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
        ended_by: super::ended_by_from(row.try_get("ended_by")?)?,
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

    pub(super) async fn save_player(
        &self,
        player: &PlayerInfo,
        token_hash: &[u8; 32],
        now: OffsetDateTime,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (id) DO UPDATE SET name = excluded.name",
        )
        .bind(player.id.0)
        .bind(&player.name)
        .bind(&token_hash[..])
        .bind(now)
        .execute(&self.pool)
        .await?;
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

    pub(super) async fn create_table(&self, table: &TableRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tables (id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(table.id.0)
        .bind(table.host.0)
        .bind(i16::from(table.seats))
        .bind(table.public)
        .bind(super::spectators_to_sql(table.spectators))
        .bind(table.created_at)
        .bind(&table.invite)
        .bind(table.clock.map(|c| super::ms_to_sql(c.turn_ms)).transpose()?)
        .bind(table.clock.map(|c| super::ms_to_sql(c.reserve_ms)).transpose()?)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(super) async fn set_seats(&self, table: TableId, seats: &[Option<PlayerId>]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM seats WHERE table_id = $1").bind(table.0).execute(&mut *tx).await?;
        for (seat, player) in (0i16..).zip(seats) {
            let Some(player) = player else { continue };
            sqlx::query("INSERT INTO seats (table_id, seat, player_id) VALUES ($1, $2, $3)")
                .bind(table.0)
                .bind(seat)
                .bind(player.0)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn start_game(
        &self,
        table: TableId,
        seed: u64,
        players: &[GamePlayer],
        started_at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let count = i16::try_from(players.len())
            .map_err(|_| StoreError::Other(format!("{} players cannot play one game", players.len())))?;
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO games (table_id, seed, player_count, started_at) VALUES ($1, $2, $3, $4)")
            .bind(table.0)
            .bind(super::seed_to_sql(seed))
            .bind(count)
            .bind(started_at)
            .execute(&mut *tx)
            .await?;
        for player in players {
            sqlx::query("INSERT INTO game_players (table_id, seat, player_id, name, bot) VALUES ($1, $2, $3, $4, $5)")
                .bind(table.0)
                .bind(i16::from(player.seat.0))
                .bind(player.id.0)
                .bind(&player.name)
                .bind(player.bot)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn append_actions(&self, batch: &[ActionRow]) -> Result<(), StoreError> {
        let tables: Vec<Uuid> = batch.iter().map(|row| row.table.0).collect();
        let seqs: Vec<i64> = batch.iter().map(|row| i64::from(row.seq)).collect();
        let seats: Vec<i16> = batch.iter().map(|row| i16::from(row.seat.0)).collect();
        let actions = batch.iter().map(|row| super::action_to_json(&row.action)).collect::<Result<Vec<String>, _>>()?;
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
            .map(|row| {
                Ok(GamePlayer {
                    seat: seat(row, "seat")?,
                    id: PlayerId(row.try_get("player_id")?),
                    name: row.try_get("name")?,
                    bot: row.try_get("bot")?,
                })
            })
            .collect()
    }

    pub(super) async fn finish_game(
        &self,
        table: TableId,
        record: &Record,
        record_json: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        // FOR UPDATE: two finishes of one game cannot both see it unfinished.
        let state: Option<Option<OffsetDateTime>> =
            sqlx::query_scalar("SELECT finished_at FROM games WHERE table_id = $1 FOR UPDATE")
                .bind(table.0)
                .fetch_optional(&mut *tx)
                .await?;
        match state {
            None => return Err(StoreError::NotFound),
            Some(Some(_)) => return Err(StoreError::Other(format!("game {table} is already finished"))),
            Some(None) => {}
        }
        let results = super::seat_results(record, &Self::game_players(&mut tx, table).await?)?;
        sqlx::query("UPDATE games SET finished_at = $2, ended_by = $3, record = $4::jsonb WHERE table_id = $1")
            .bind(table.0)
            .bind(record.finished_at)
            .bind(super::ended_by_to_sql(record.result.ended_by))
            .bind(record_json)
            .execute(&mut *tx)
            .await?;
        for result in &results {
            sqlx::query(
                "INSERT INTO results (table_id, seat, player_id, name, total, contracts, trophies, suit_bonus, star,
                                      place, winner, bot, bot_actions)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
                         (SELECT COUNT(*) FROM actions a WHERE a.table_id = $1 AND a.seat = $2 AND a.by_bot))",
            )
            .bind(table.0)
            .bind(i16::from(result.player.seat.0))
            .bind(result.player.id.0)
            .bind(&result.player.name)
            .bind(points_to_sql(result.score.total)?)
            .bind(points_to_sql(result.score.contracts)?)
            .bind(points_to_sql(result.score.trophies)?)
            .bind(points_to_sql(result.score.suit_bonus)?)
            .bind(points_to_sql(result.score.star)?)
            .bind(i16::from(result.place))
            .bind(result.winner)
            .bind(result.player.bot)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn unfinished_games(&self) -> Result<Vec<UnfinishedGame>, StoreError> {
        // One snapshot for the whole read, so a game and its log agree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let heads = sqlx::query(
            "SELECT g.table_id, g.seed, g.started_at, t.host, t.seat_count, t.public, t.spectators, t.created_at, t.invite,
                    t.turn_ms, t.reserve_ms
             FROM games g JOIN tables t ON t.id = g.table_id
             WHERE g.finished_at IS NULL
             ORDER BY g.started_at, g.table_id",
        )
        .fetch_all(&mut *tx)
        .await?;
        let mut games = Vec::with_capacity(heads.len());
        for head in &heads {
            let id = TableId(head.try_get("table_id")?);
            let table = TableRow {
                id,
                host: PlayerId(head.try_get("host")?),
                seats: super::small_from(i64::from(head.try_get::<i16, _>("seat_count")?), "seat count")?,
                public: head.try_get("public")?,
                spectators: super::spectators_from(head.try_get("spectators")?)?,
                created_at: head.try_get("created_at")?,
                invite: head.try_get("invite")?,
                clock: super::clock_from(head.try_get("turn_ms")?, head.try_get("reserve_ms")?)?,
            };
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
        let mut by_game: HashMap<TableId, Vec<SeatResult>> = HashMap::with_capacity(games.len());
        let sql = format!(
            "SELECT {RESULT_COLUMNS} FROM results r WHERE r.table_id = ANY($1::uuid[]) ORDER BY r.table_id, r.seat"
        );
        for row in sqlx::query(&sql).bind(ids).fetch_all(&self.pool).await? {
            let (table, result) = seat_result(&row)?;
            by_game.entry(table).or_default().push(result);
        }
        for game in &mut games {
            game.results = by_game.remove(&game.id).unwrap_or_default();
            if game.results.is_empty() {
                return Err(StoreError::Corrupt(format!("finished game {} has no results", game.id)));
            }
        }
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
            "SELECT g.table_id, g.started_at, g.finished_at, g.ended_by FROM games g
             WHERE g.finished_at IS NOT NULL
               AND ($1::uuid IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE player_id = $1))
               AND ($2::text IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE name = $2))
               AND ($3::timestamptz IS NULL OR g.finished_at >= $3)
               AND ($4::timestamptz IS NULL OR g.finished_at < $4)
               AND ($5::int2 IS NULL OR g.player_count = $5)
               AND ($6::timestamptz IS NULL OR (g.finished_at, g.table_id) < ($6, $7::uuid))
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
        .fetch_all(&self.pool)
        .await?;
        let games = rows.iter().map(game_head).collect::<Result<Vec<_>, _>>()?;
        self.with_results(games).await
    }

    pub(super) async fn game(&self, id: TableId) -> Result<GameSummary, StoreError> {
        let row = sqlx::query(
            "SELECT g.table_id, g.started_at, g.finished_at, g.ended_by FROM games g
             WHERE g.table_id = $1 AND g.finished_at IS NOT NULL",
        )
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        let mut games = self.with_results(vec![game_head(&row)?]).await?;
        games.pop().ok_or(StoreError::NotFound)
    }

    pub(super) async fn record(&self, id: TableId) -> Result<Record, StoreError> {
        let json: String =
            sqlx::query_scalar("SELECT record::text FROM games WHERE table_id = $1 AND record IS NOT NULL")
                .bind(id.0)
                .fetch_optional(&self.pool)
                .await?
                .ok_or(StoreError::NotFound)?;
        super::record_from_json(&id, &json)
    }

    pub(super) async fn player_stats(&self, id: PlayerId) -> Result<PlayerStats, StoreError> {
        let name: String = sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        let totals = sqlx::query(
            "SELECT COUNT(*) AS games, COALESCE(SUM(winner::int), 0)::int8 AS wins, AVG(total)::float8 AS average
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

fn points_to_sql(points: u32) -> Result<i32, StoreError> {
    i32::try_from(points).map_err(|_| StoreError::Other(format!("a score of {points} is out of range")))
}
