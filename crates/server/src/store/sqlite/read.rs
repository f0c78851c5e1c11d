//! The SQLite backend's reads: restoring tables and games, the game list, one game, its record and a
//! player's statistics. Its rows are mapped by [`rows`](crate::store::rows), as PostgreSQL's are.

use sqlx::Row;

use super::{SqliteStore, id_text};
use crate::protocol::{PlayerId, TableId};
use crate::store::backend::Reads;
use crate::store::rows::{self, Columns};
use crate::store::{
    FinishedTable, GameCursor, GameFilter, GameSummary, PlayerFilter, StoreError, StoredTable, UnfinishedGame,
    WaitingTable, codec, stats::PlaceRow,
};

/// The columns of `tables t` that [`rows::table_row`] reads.
const TABLE_COLUMNS: &str = "t.host, t.seat_count, t.public, t.spectators, t.created_at, t.invite, t.turn_ms, \
                             t.reserve_ms, t.game, t.options, t.rated, t.tournament";

/// The columns of `games g` that [`rows::game_head`] reads, with its table's flag and options.
const GAME_COLUMNS: &str = "g.table_id, g.game, g.started_at, g.finished_at, g.ended_by,
                    (SELECT t.rated FROM tables t WHERE t.id = g.table_id) AS table_rated,
                    (SELECT t.options FROM tables t WHERE t.id = g.table_id) AS options";

/// The columns of `results r` that [`rows::seat_result`] reads, with `c.mu_before` and `c.mu_after`:
/// the query joins `rating_changes c` with [`RATING_JOIN`].
const RESULT_COLUMNS: &str = "r.table_id, r.seat, r.player_id, r.name, r.score, r.details, r.place, r.winner, r.bot, \
                              r.bot_actions, c.mu_before, c.mu_after";

/// The seat's rating change, if its game counted, for the [`RESULT_COLUMNS`].
const RATING_JOIN: &str = "LEFT JOIN rating_changes c ON c.table_id = r.table_id AND c.seat = r.seat";

/// Whether `table` is among `only` (every table when `None`). The choice is made on the small head rows,
/// before a table's seats or actions are read; nothing asks SQLite for a few tables among many but a
/// cluster's takeover, and a cluster never runs on SQLite.
fn wanted(only: Option<&[TableId]>, table: TableId) -> bool {
    only.is_none_or(|only| only.contains(&table))
}

impl SqliteStore {
    /// Fills in the results of `games`, read in one query.
    async fn with_results(&self, mut games: Vec<GameSummary>) -> Result<Vec<GameSummary>, StoreError> {
        if games.is_empty() {
            return Ok(games);
        }
        let ids: Vec<String> = games.iter().map(|g| id_text(g.id.0)).collect();
        let ids = serde_json::to_string(&ids).map_err(|e| StoreError::Other(e.to_string()))?;
        let sql = format!(
            "SELECT {RESULT_COLUMNS} FROM results r {RATING_JOIN}
             WHERE r.table_id IN (SELECT value FROM json_each(?1))
             ORDER BY r.table_id, r.seat"
        );
        let rows = sqlx::query(&sql).bind(ids).fetch_all(&self.pool).await?;
        codec::attach_results(&mut games, rows.iter().map(rows::seat_result))?;
        Ok(games)
    }
}

impl Reads for SqliteStore {
    async fn waiting_tables(&self, only: Option<&[TableId]>) -> Result<Vec<WaitingTable>, StoreError> {
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
            let table = rows::table_row(TableId(head.uuid("id")?), head)?;
            if !wanted(only, table.id) {
                continue;
            }
            let seats = sqlx::query(
                "SELECT s.seat, s.player_id, s.bot, p.name FROM seats s JOIN players p ON p.id = s.player_id
                 WHERE s.table_id = ?1 ORDER BY s.seat",
            )
            .bind(id_text(table.id.0))
            .fetch_all(&mut *tx)
            .await?;
            tables.push(rows::waiting_table(table, &seats)?);
        }
        tx.commit().await?;
        Ok(tables)
    }

    async fn unfinished_games(&self, only: Option<&[TableId]>) -> Result<Vec<UnfinishedGame>, StoreError> {
        // One snapshot for the whole read, so a game and its log agree.
        let mut tx = self.pool.begin().await?;
        let heads = sqlx::query(&format!(
            "SELECT g.table_id, g.seed, g.salt, g.contributions, g.started_at, {TABLE_COLUMNS}
             FROM games g JOIN tables t ON t.id = g.table_id
             WHERE g.finished_at IS NULL
             ORDER BY g.started_at, g.table_id"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let mut games = Vec::with_capacity(heads.len());
        for head in &heads {
            let id = TableId(head.uuid("table_id")?);
            if !wanted(only, id) {
                continue;
            }
            let players = Self::game_players(&mut tx, id).await?;
            let log = sqlx::query(
                "SELECT seq, seat, action, by_bot, reserve_ms FROM actions WHERE table_id = ?1 ORDER BY seq",
            )
            .bind(id_text(id.0))
            .fetch_all(&mut *tx)
            .await?;
            games.push(rows::unfinished_game(id, head, players, &log)?);
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
            Some(PlayerFilter::Id(id)) => (Some(id_text(id.0)), None),
            Some(PlayerFilter::Name(name)) => (None, Some(name.as_str())),
            None => (None, None),
        };
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}
             FROM games g
             WHERE g.finished_at IS NOT NULL
               AND (?1 IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE player_id = ?1))
               AND (?2 IS NULL OR g.table_id IN (SELECT table_id FROM results WHERE name = ?2))
               AND (?3 IS NULL OR g.finished_at >= ?3)
               AND (?4 IS NULL OR g.finished_at < ?4)
               AND (?5 IS NULL OR g.player_count = ?5)
               AND (?6 IS NULL OR (g.finished_at, g.table_id) < (?6, ?7))
               AND (?9 IS NULL OR g.game = ?9)
             ORDER BY g.finished_at DESC, g.table_id DESC
             LIMIT ?8"
        ))
        .bind(player_id)
        .bind(player_name)
        .bind(filter.since.map(codec::micros))
        .bind(filter.until.map(codec::micros))
        .bind(filter.players.map(i64::from))
        .bind(cursor.map(|c| c.finished_at))
        .bind(cursor.map(|c| id_text(c.id)))
        .bind(i64::from(limit))
        .bind(filter.game.as_deref())
        .fetch_all(&self.pool)
        .await?;
        let games = rows.iter().map(rows::game_head).collect::<Result<Vec<_>, _>>()?;
        self.with_results(games).await
    }

    async fn game(&self, id: TableId) -> Result<GameSummary, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}
             FROM games g
             WHERE g.table_id = ?1 AND g.finished_at IS NOT NULL"
        ))
        .bind(id_text(id.0))
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        let mut games = self.with_results(vec![rows::game_head(&row)?]).await?;
        games.pop().ok_or(StoreError::NotFound)
    }

    async fn table(&self, id: TableId) -> Result<StoredTable, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {TABLE_COLUMNS},
                CASE WHEN EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id AND g.finished_at IS NULL) THEN 'playing'
                     WHEN EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id) THEN 'finished'
                     WHEN EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id) THEN 'waiting'
                END AS state,
                (EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.bot AND s.player_id NOT LIKE '{BOT_IDS}')
                    OR EXISTS (SELECT 1 FROM game_players p WHERE p.table_id = t.id AND p.bot
                               AND p.player_id NOT LIKE '{BOT_IDS}')) AS old_bot
             FROM tables t WHERE t.id = ?1",
            BOT_IDS = crate::bots::ID_PATTERN
        ))
        .bind(id_text(id.0))
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        rows::stored_table(id, &row)
    }

    async fn finished_table(&self, id: TableId) -> Result<FinishedTable, StoreError> {
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
        let table = rows::table_row(id, &head)?;
        let record = codec::record_from_json(id, head.try_get("record")?)?;
        let players = Self::game_players(&mut tx, id).await?;
        tx.commit().await?;
        Ok(FinishedTable { table, players, record })
    }

    async fn record(&self, id: TableId) -> Result<String, StoreError> {
        let json: String = sqlx::query_scalar("SELECT record FROM games WHERE table_id = ?1 AND record IS NOT NULL")
            .bind(id_text(id.0))
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        codec::record_from_json(id, json)
    }

    async fn player_places(&self, id: PlayerId, game: Option<&str>) -> Result<(String, Vec<PlaceRow>), StoreError> {
        let name: String = sqlx::query_scalar("SELECT name FROM players WHERE id = ?1")
            .bind(id_text(id.0))
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)?;
        let places = sqlx::query(
            "SELECT g.game, r.place, COUNT(*) AS games, SUM(r.winner) AS wins, SUM(r.score) AS score
             FROM results r JOIN games g ON g.table_id = r.table_id
             WHERE r.player_id = ?1 AND (?2 IS NULL OR g.game = ?2)
             GROUP BY g.game, r.place ORDER BY g.game, r.place",
        )
        .bind(id_text(id.0))
        .bind(game)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rows::place_row)
        .collect::<Result<Vec<_>, _>>()?;
        Ok((name, places))
    }
}
