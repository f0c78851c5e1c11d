//! The PostgreSQL backend's reads: restoring tables and games, the game list, one game, its record
//! and a player's statistics. Reads that must agree with each other share one snapshot.

use sqlx::Row;
use sqlx::postgres::PgRow;
use uuid::Uuid;

use super::{PgStore, seat};
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::store::backend::Reads;
use crate::store::{
    FinishedTable, GameCursor, GameFilter, GamePlayer, GameSummary, PlayerFilter, PlayerStats, RECENT_GAMES,
    SeatResult, StoreError, StoredAction, TableRow, UnfinishedGame, WaitingTable, codec, stats::PlaceRow,
};

/// The columns of `results` that [`seat_result`] reads, in a query over `results r`.
/// With it, `c.mu_before` and `c.mu_after`: the query joins `rating_changes c` with [`RATING_JOIN`].
const RESULT_COLUMNS: &str = "r.table_id, r.seat, r.player_id, r.name, r.score, r.details, r.place, r.winner, r.bot, \
                              r.bot_actions, c.mu_before, c.mu_after";

/// The seat's rating change, if its game counted, for the [`RESULT_COLUMNS`].
const RATING_JOIN: &str = "LEFT JOIN rating_changes c ON c.table_id = r.table_id AND c.seat = r.seat";

/// The columns of `tables t` that [`table_row`] reads.
const TABLE_COLUMNS: &str = "t.host, t.seat_count, t.public, t.spectators, t.created_at, t.invite, t.turn_ms, t.reserve_ms, t.game, t.options, \
     t.rated";

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
            details: codec::details_from(row.try_get("details")?)?,
            place: codec::small_from(i64::from(row.try_get::<i16, _>("place")?), "place")?,
            winner: row.try_get("winner")?,
            bot_actions: codec::count_from(i64::from(row.try_get::<i32, _>("bot_actions")?))?,
            rating: codec::rating_change(row.try_get("mu_before")?, row.try_get("mu_after")?),
        },
    ))
}

/// A finished game's row of `games g`, without its results.
fn game_head(row: &PgRow) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: TableId(row.try_get("table_id")?),
        game: row.try_get("game")?,
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
        ended_by: row.try_get("ended_by")?,
        // Every game has its table's row; a table stored before tables were rated or casual is rated.
        table_rated: row.try_get::<Option<bool>, _>("table_rated")?.unwrap_or(true),
        options: codec::options(row.try_get::<Option<String>, _>("options")?.as_deref())?,
        results: Vec::new(),
    })
}

/// A `tables` row with the [`TABLE_COLUMNS`].
fn table_row(id: TableId, row: &PgRow) -> Result<TableRow, StoreError> {
    Ok(TableRow {
        id,
        game: row.try_get("game")?,
        host: PlayerId(row.try_get("host")?),
        seats: codec::small_from(i64::from(row.try_get::<i16, _>("seat_count")?), "seat count")?,
        public: row.try_get("public")?,
        spectators: codec::spectators_from(row.try_get("spectators")?)?,
        created_at: row.try_get("created_at")?,
        invite: row.try_get("invite")?,
        clock: codec::clock_from(row.try_get("turn_ms")?, row.try_get("reserve_ms")?)?,
        options: row.try_get("options")?,
        rated: row.try_get("rated")?,
    })
}

/// The ids of `tables` as PostgreSQL's `uuid[]`.
fn uuids(tables: &[TableId]) -> Vec<Uuid> {
    tables.iter().map(|table| table.0).collect()
}

impl PgStore {
    /// Fills in the results of `games`, read in one query.
    async fn with_results(&self, mut games: Vec<GameSummary>) -> Result<Vec<GameSummary>, StoreError> {
        if games.is_empty() {
            return Ok(games);
        }
        let ids: Vec<Uuid> = games.iter().map(|g| g.id.0).collect();
        let sql = format!(
            "SELECT {RESULT_COLUMNS} FROM results r {RATING_JOIN} WHERE r.table_id = ANY($1::uuid[]) ORDER BY r.table_id, r.seat"
        );
        let rows = sqlx::query(&sql).bind(ids).fetch_all(&self.pool).await?;
        codec::attach_results(&mut games, rows.iter().map(seat_result))?;
        Ok(games)
    }
}

impl Reads for PgStore {
    async fn waiting_tables(&self, only: Option<&[TableId]>) -> Result<Vec<WaitingTable>, StoreError> {
        // One snapshot for the whole read, so a table and its seats agree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let heads = sqlx::query(&format!(
            "SELECT t.id, {TABLE_COLUMNS}
             FROM tables t
             WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id)
                 AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id)
                 AND ($1::uuid[] IS NULL OR t.id = ANY($1))
             ORDER BY t.created_at, t.id"
        ))
        .bind(only.map(uuids))
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
                let seat = codec::seat_from(i64::from(row.try_get::<i16, _>("seat")?))?;
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

    async fn unfinished_games(&self, only: Option<&[TableId]>) -> Result<Vec<UnfinishedGame>, StoreError> {
        // One snapshot for the whole read, so a game and its log agree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let heads = sqlx::query(&format!(
            "SELECT g.table_id, g.seed, g.salt, g.started_at, {TABLE_COLUMNS}
             FROM games g JOIN tables t ON t.id = g.table_id
             WHERE g.finished_at IS NULL AND ($1::uuid[] IS NULL OR g.table_id = ANY($1))
             ORDER BY g.started_at, g.table_id"
        ))
        .bind(only.map(uuids))
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
                    action: codec::action_from_json(&id, seq, row.try_get("action")?)?,
                    by_bot: row.try_get("by_bot")?,
                    reserve_ms: row.try_get::<Option<i64>, _>("reserve_ms")?.map(codec::ms_from).transpose()?,
                };
                Ok((seq, action))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
            games.push(UnfinishedGame {
                table,
                seed: codec::seed_from_sql(head.try_get("seed")?),
                salt: codec::salt_from(head.try_get("salt")?, &id)?,
                started_at: head.try_get("started_at")?,
                players,
                actions: codec::contiguous_actions(&id, rows)?,
            });
        }
        tx.commit().await?;
        Ok(games)
    }

    async fn list_games(
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
        let cursor_at = cursor.map(|c| codec::from_micros(c.finished_at)).transpose()?;
        let rows = sqlx::query(
            "SELECT g.table_id, g.game, g.started_at, g.finished_at, g.ended_by,
                    (SELECT t.rated FROM tables t WHERE t.id = g.table_id) AS table_rated,
                    (SELECT t.options FROM tables t WHERE t.id = g.table_id) AS options
             FROM games g
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

    async fn game(&self, id: TableId) -> Result<GameSummary, StoreError> {
        let row = sqlx::query(
            "SELECT g.table_id, g.game, g.started_at, g.finished_at, g.ended_by,
                    (SELECT t.rated FROM tables t WHERE t.id = g.table_id) AS table_rated,
                    (SELECT t.options FROM tables t WHERE t.id = g.table_id) AS options
             FROM games g
             WHERE g.table_id = $1 AND g.finished_at IS NOT NULL",
        )
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        let mut games = self.with_results(vec![game_head(&row)?]).await?;
        games.pop().ok_or(StoreError::NotFound)
    }

    async fn finished_table(&self, id: TableId) -> Result<FinishedTable, StoreError> {
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
        let record = codec::record_from_json(id, head.try_get("record")?)?;
        let players = Self::game_players(&mut tx, id).await?;
        tx.commit().await?;
        Ok(FinishedTable { table, players, record })
    }

    async fn record(&self, id: TableId) -> Result<String, StoreError> {
        let json: String = sqlx::query_scalar("SELECT record FROM games WHERE table_id = $1 AND record IS NOT NULL")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        codec::record_from_json(id, json)
    }

    async fn player_stats(&self, id: PlayerId, game: Option<&str>) -> Result<PlayerStats, StoreError> {
        let name: String = sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        let rows = sqlx::query(
            "SELECT g.game, r.place::int8 AS place, COUNT(*) AS games, COUNT(*) FILTER (WHERE r.winner) AS wins,
                    SUM(r.score)::int8 AS score
             FROM results r JOIN games g ON g.table_id = r.table_id
             WHERE r.player_id = $1 AND ($2::text IS NULL OR g.game = $2)
             GROUP BY g.game, r.place ORDER BY g.game, r.place",
        )
        .bind(id.0)
        .bind(game)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(PlaceRow::read)
        .collect::<Result<Vec<_>, _>>()?;
        let filter =
            GameFilter { player: Some(PlayerFilter::Id(id)), game: game.map(str::to_owned), ..GameFilter::default() };
        let recent = self.list_games(&filter, RECENT_GAMES, None).await?;
        PlayerStats::assemble(PlayerInfo { id, name }, &rows, recent)
    }
}
