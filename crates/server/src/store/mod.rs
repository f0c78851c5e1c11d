//! Durable storage: players, tables, the action log of every game, and finished games with their
//! results, in PostgreSQL (production) or an embedded SQLite file (the default).
//!
//! [`Store`] is chosen once at start-up from the database URL ([`Store::connect`]) and dispatches
//! statically to its backend; each backend ([`sqlite`], [`postgres`]) owns its SQL and its migrations
//! (`migrations/sqlite`, `migrations/postgres`), which `connect` applies. Every failure is one of the
//! four kinds of [`StoreError`]; a row that does not parse is [`StoreError::Corrupt`], never a panic.
//!
//! A game is stored as its seed and the list of every action applied to it, in order, take-backs
//! included: `Game::new(players, seed)` and the actions replayed give it back exactly
//! ([`Store::unfinished_games`] returns what a restart needs). Actions are appended in batches that
//! each commit in one transaction ([`Store::append_actions`]); [`Committer`] gathers the actions of
//! many tables into such batches (group commit). A finished game keeps its record (as the text the
//! server wrote) and one result row per seat from its [`Outcome`] ([`Store::finish_game`]), for the game
//! list and player statistics.
//!
//! The store knows no game's types: actions, records, table options and a seat's score details are
//! JSON text or values that the game wrote, kept as they are; the table reads them back through the
//! game. What it needs of a record is what every record carries, its `id` and `finished_at`.
//!
//! The other writes (guests, tables, seats, the start and the finish of games) go through the
//! [`Writer`], the group commit for them: each backend writes a batch of them with one statement per
//! kind in one transaction, so that many tables' set-ups and many finished games share one durable
//! commit. One bad write in a batch does not fail the others (see [`Writer`]).
//!
//! A table's game shares the table's id: a table hosts one game, so [`TableId`] names the game in every
//! method, and a record stored for it carries that id.
//!
//! ```no_run
//! # async fn demo() -> Result<(), romirami_server::store::StoreError> {
//! use romirami_server::store::{GameFilter, Store};
//!
//! let store = Store::connect("sqlite://romirami.db").await?;
//! let page = store.list_games(&GameFilter::default(), None, None).await?;
//! for game in &page.games {
//!     println!("{} finished at {}", game.id, game.finished_at);
//! }
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use romirami_game::Seat;
pub use romirami_game::{Outcome, SeatOutcome};
use serde::Deserialize;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::protocol::{Clock, PlayerId, PlayerInfo, SpectatorPolicy, TableId};

mod committer;
pub mod postgres;
pub mod sqlite;
mod writer;

pub use committer::{Committer, CommitterStats};
pub use writer::{Writer, WriterStats};

/// The database used when none is given: a SQLite file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://romirami.db";

/// How many games [`Store::list_games`] returns when no limit is given.
pub const DEFAULT_LIST_LIMIT: u32 = 20;

/// The most games [`Store::list_games`] returns at once.
pub const MAX_LIST_LIMIT: u32 = 100;

/// How many of a player's latest games [`Store::player_stats`] lists.
pub const RECENT_GAMES: u32 = 10;

/// The most seats a stored table or game has (the schema's checks say the same): the rummy family
/// seats up to 6.
pub const MAX_SEATS: u8 = 6;

/// What can go wrong in the store.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No such player, table or game.
    #[error("not found")]
    NotFound,
    /// The database cannot be reached (or the store was closed): nothing was written, try again later.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// A stored row does not parse: the database holds something this server did not write.
    #[error("corrupt data in the database: {0}")]
    Corrupt(String),
    /// A row with the same key is already stored (a unique constraint): for an action, its number
    /// in the game's log is taken.
    #[error("already stored: {0}")]
    Duplicate(String),
    /// Anything else, such as another constraint the write breaks.
    #[error("database error: {0}")]
    Other(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        use sqlx::Error as E;
        match error {
            E::RowNotFound => StoreError::NotFound,
            E::Io(_) | E::Tls(_) | E::PoolTimedOut | E::PoolClosed | E::WorkerCrashed => {
                StoreError::Unavailable(error.to_string())
            }
            E::ColumnDecode { .. } | E::Decode(_) | E::ColumnNotFound(_) | E::TypeNotFound { .. } => {
                StoreError::Corrupt(error.to_string())
            }
            E::Database(ref db) if is_unavailable_code(db.code().as_deref()) => {
                StoreError::Unavailable(error.to_string())
            }
            E::Database(ref db) if db.is_unique_violation() => StoreError::Duplicate(error.to_string()),
            _ => StoreError::Other(error.to_string()),
        }
    }
}

/// Database error codes that mean "the database cannot serve us now", not "this write is wrong":
/// SQLite's busy and locked (5, 6) and I/O or disk-full errors (10, 13, 14); PostgreSQL's connection
/// exceptions (class 08), insufficient resources (class 53), operator intervention (class 57, such as
/// a shutdown) and system errors (class 58).
fn is_unavailable_code(code: Option<&str>) -> bool {
    let Some(code) = code else { return false };
    // PostgreSQL's SQLSTATEs have five characters, the first two being the class.
    if code.len() == 5 {
        return ["08", "53", "57", "58"].iter().any(|class| code.starts_with(class));
    }
    // SQLite's codes are numbers; an extended code keeps its primary code in the low byte (517,
    // SQLITE_BUSY_SNAPSHOT, is a busy).
    code.parse::<u32>().is_ok_and(|number| matches!(number & 0xff, 5 | 6 | 10 | 13 | 14))
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> StoreError {
        match error {
            sqlx::migrate::MigrateError::Execute(inner) => inner.into(),
            other => StoreError::Other(format!("migration failed: {other}")),
        }
    }
}

/// A table as stored when it is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// The table's id, also its game's.
    pub id: TableId,
    /// The game it seats, by its name (`romi-rami`).
    pub game: String,
    /// The player who opened the table, who may start it, kick and add bots.
    pub host: PlayerId,
    /// How many seats, 2 to [`MAX_SEATS`].
    pub seats: u8,
    /// Whether it is listed in the lobby.
    pub public: bool,
    /// Who may watch.
    pub spectators: SpectatorPolicy,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// The key of its invite link.
    pub invite: String,
    /// Its turn clock, if it has one.
    pub clock: Option<Clock>,
    /// The game's options for this table, as the JSON text the game wrote (`{}` for Romi Rami), so
    /// that a restored game is dealt with the same options.
    pub options: String,
}

/// A finished game as the table hands it to the store.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// The game's record, as the JSON text the game wrote; it is stored and served as it is. Its `id`
    /// must be the table's, and its `finished_at` is when the game finished.
    pub record: String,
    /// Its result, one seat per player in seat order.
    pub outcome: Outcome,
}

/// One durable write other than an action: what [`Store::write`] writes in batches, for the
/// [`Writer`].
#[derive(Clone, Debug)]
pub(crate) enum Write {
    /// Stores a player, or renames one already stored.
    Player { player: PlayerInfo, token_hash: [u8; 32], at: OffsetDateTime },
    /// Stores a new table, and who sits where at it (`seats[i]` is seat `i`'s player).
    Table { table: TableRow, seats: Vec<Option<PlayerId>> },
    /// Replaces who sits where at a table that waits for its game: each seat's player, and whether
    /// the host gave it to a bot.
    Seats { table: TableId, seats: Vec<Option<(PlayerId, bool)>> },
    /// Stores the start of a table's game.
    Start { table: TableId, seed: u64, players: Vec<GamePlayer>, started_at: OffsetDateTime },
    /// Stores the end of a table's game: its record (whose `id` is the table's, see [`Write::finish`])
    /// and a result per seat, finished at the record's `finished_at`.
    Finish { table: TableId, finished: Box<FinishedGame>, finished_at: OffsetDateTime },
}

impl Write {
    fn player(player: &PlayerInfo, token_hash: &[u8; 32]) -> Write {
        Write::Player { player: player.clone(), token_hash: *token_hash, at: OffsetDateTime::now_utc() }
    }

    /// The finish of `table`'s game, its record read here, by the caller, rather than by the task that
    /// writes the batch.
    fn finish(table: TableId, finished: FinishedGame) -> Result<Write, StoreError> {
        let head = RecordHead::of(&finished.record)
            .map_err(|e| StoreError::Other(format!("the record of game {table} does not say which game it is: {e}")))?;
        if head.id != table.0 {
            return Err(StoreError::Other(format!("the record of game {} is not the record of {table}", head.id)));
        }
        Ok(Write::Finish { table, finished: Box::new(finished), finished_at: head.finished_at })
    }
}

/// A seat row: the table, the seat's number, its player, and whether the host gave it to a bot.
type SeatRowOf = (TableId, i16, PlayerId, bool);

/// The writes of a batch by kind, each with its index in the batch: the backends write each kind with
/// one statement (PostgreSQL) or in one loop (SQLite), in this order, so that a write never depends on
/// a later kind.
#[derive(Default)]
struct WritesByKind<'a> {
    players: Vec<(&'a PlayerInfo, &'a [u8; 32], OffsetDateTime)>,
    tables: Vec<&'a TableRow>,
    /// The seat rows of the new tables: table, seat number, player.
    table_seats: Vec<SeatRowOf>,
    /// Tables whose seats are replaced (their other rows deleted).
    reseated: Vec<TableId>,
    /// Their new seat rows.
    seats: Vec<SeatRowOf>,
    starts: Vec<(TableId, u64, &'a [GamePlayer], OffsetDateTime)>,
    finishes: Vec<(usize, TableId, &'a FinishedGame, OffsetDateTime)>,
}

impl<'a> WritesByKind<'a> {
    fn of(batch: &'a [Write]) -> WritesByKind<'a> {
        let mut kinds = WritesByKind::default();
        fn seat_rows(table: TableId, seats: &[Option<(PlayerId, bool)>]) -> impl Iterator<Item = SeatRowOf> + '_ {
            (0i16..).zip(seats).filter_map(move |(seat, taken)| taken.map(|(p, bot)| (table, seat, p, bot)))
        }
        for (index, write) in batch.iter().enumerate() {
            match write {
                Write::Player { player, token_hash, at } => kinds.players.push((player, token_hash, *at)),
                Write::Table { table, seats } => {
                    kinds.tables.push(table);
                    let seats: Vec<_> = seats.iter().map(|s| s.map(|p| (p, false))).collect();
                    kinds.table_seats.extend(seat_rows(table.id, &seats));
                }
                Write::Seats { table, seats } => {
                    kinds.reseated.push(*table);
                    kinds.seats.extend(seat_rows(*table, seats));
                }
                Write::Start { table, seed, players, started_at } => {
                    kinds.starts.push((*table, *seed, players, *started_at));
                }
                Write::Finish { table, finished, finished_at } => {
                    kinds.finishes.push((index, *table, finished, *finished_at));
                }
            }
        }
        kinds
    }

    /// How many of the kinds are present: with one, the backend's batch can be a single statement.
    fn kinds(&self) -> usize {
        [
            self.players.is_empty(),
            self.tables.is_empty(),
            self.reseated.is_empty(),
            self.starts.is_empty(),
            self.finishes.is_empty(),
        ]
        .iter()
        .filter(|empty| !**empty)
        .count()
    }
}

/// What a batch's finishes found when they read their games: `Ok` with the results to write, or the
/// error of that one finish.
fn check_finish(
    table: TableId,
    outcome: &Outcome,
    finished: Option<bool>,
    players: &[GamePlayer],
    finishing: &mut std::collections::HashSet<TableId>,
) -> Result<Vec<SeatResult>, StoreError> {
    match finished {
        None => return Err(StoreError::NotFound),
        Some(true) => return Err(StoreError::Other(format!("game {table} is already finished"))),
        Some(false) => {}
    }
    let results = seat_results(outcome, players)?;
    // Two finishes of one game in one batch: the second finds it finished.
    if !finishing.insert(table) {
        return Err(StoreError::Other(format!("game {table} is already finished")));
    }
    Ok(results)
}

/// A seated player of a game: the seat, who, and the name shown in that game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlayer {
    /// Where they sat, in seat order.
    pub seat: Seat,
    /// Who sat there: their player id, the same across games.
    pub id: PlayerId,
    /// The display name, as shown in this game.
    pub name: String,
    /// Whether the host gave the seat to a bot.
    pub bot: bool,
}

/// One action to append to a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    /// The table (and game).
    pub table: TableId,
    /// The action's number in its game: 0 for the first, then one more for each, take-backs included.
    pub seq: u32,
    /// Who played it.
    pub seat: Seat,
    /// What was played: the action as the JSON text the game wrote.
    pub action: String,
    /// Whether the server's bot played it.
    pub by_bot: bool,
    /// The acting seat's clock reserve after it, in milliseconds; `None` without a clock.
    pub reserve_ms: Option<u64>,
}

/// One action of a game's log as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// Who played it.
    pub seat: Seat,
    /// What was played: the action's JSON as it was appended (SQLite gives back the same text,
    /// PostgreSQL the same JSON as its jsonb writes it). Whether it is an action of the game is for the
    /// game to say when it replays it.
    pub action: String,
    /// Whether the server's bot played it.
    pub by_bot: bool,
    /// The acting seat's clock reserve after it, in milliseconds; `None` without a clock.
    pub reserve_ms: Option<u64>,
}

/// A game that started and has not finished: what a restart needs to bring it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnfinishedGame {
    /// The table the game is played at.
    pub table: TableRow,
    /// The game's seed: the game's `new(players.len(), seed, options)` deals it.
    pub seed: u64,
    /// When it started.
    pub started_at: OffsetDateTime,
    /// The players in seat order.
    pub players: Vec<GamePlayer>,
    /// Every action applied so far, in order, take-backs included.
    pub actions: Vec<StoredAction>,
}

/// A table that waits for its game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingTable {
    /// The table.
    pub table: TableRow,
    /// Each seat's player and whether the host gave the seat to a bot; `None` while free.
    pub seats: Vec<Option<(PlayerInfo, bool)>>,
}

/// A finished game as stored, with its table.
#[derive(Clone, Debug)]
pub struct FinishedTable {
    /// The table.
    pub table: TableRow,
    /// Its players in seat order.
    pub players: Vec<GamePlayer>,
    /// The game's record, as the JSON text stored.
    pub record: String,
}

/// One seat's result in a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// Who sat in the seat, and the name shown in the game.
    pub player: GamePlayer,
    /// The seat's final score, as the game counts it.
    pub score: i64,
    /// The score's parts in the game's words, a JSON object.
    pub details: serde_json::Value,
    /// 1 for the best; seats level share a place (1, 1, 3).
    pub place: u8,
    /// Whether the seat is among the winners.
    pub winner: bool,
    /// How many of the seat's actions the server's bot played (all of them for a bot's seat; some for a
    /// player who ran out of time or left).
    pub bot_actions: u32,
}

/// A finished game and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's (and its table's) id.
    pub id: TableId,
    /// Which game it is, by its name (`romi-rami`).
    pub game: String,
    /// When it started.
    pub started_at: OffsetDateTime,
    /// When it finished.
    pub finished_at: OffsetDateTime,
    /// Why it ended, in the game's words (`contracts`, `market`, `abandoned`, ...).
    pub ended_by: String,
    /// Every seat's result, in seat order.
    pub results: Vec<SeatResult>,
}

/// Which player a game list is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerFilter {
    /// The player with this id.
    Id(PlayerId),
    /// Whoever played under exactly this name.
    Name(String),
}

impl PlayerFilter {
    /// Reads a query parameter: a UUID is an id, anything else a name.
    pub fn parse(text: &str) -> PlayerFilter {
        match Uuid::parse_str(text) {
            Ok(id) => PlayerFilter::Id(PlayerId(id)),
            Err(_) => PlayerFilter::Name(text.to_owned()),
        }
    }
}

/// Which finished games to list; every field left `None` lets every game through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Games this player played in.
    pub player: Option<PlayerFilter>,
    /// Games that finished at this instant or later.
    pub since: Option<OffsetDateTime>,
    /// Games that finished before this instant (so `since` and `until` windows never overlap).
    pub until: Option<OffsetDateTime>,
    /// Games with this many players.
    pub players: Option<u8>,
    /// Games of this game, by its name (`romi-rami`).
    pub game: Option<String>,
}

/// Where a page of the game list ends: the next page starts after it. Written as an opaque string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameCursor {
    /// The last game's finish, in microseconds since the Unix epoch.
    finished_at: i64,
    /// The last game's id, which orders games that finished at the same instant.
    id: Uuid,
}

impl fmt::Display for GameCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.finished_at, self.id.simple())
    }
}

/// A cursor string that this store did not write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a game list cursor")]
pub struct BadCursor;

impl FromStr for GameCursor {
    type Err = BadCursor;

    fn from_str(text: &str) -> Result<GameCursor, BadCursor> {
        let (finished_at, id) = text.split_once('_').ok_or(BadCursor)?;
        Ok(GameCursor {
            finished_at: finished_at.parse().map_err(|_| BadCursor)?,
            id: Uuid::parse_str(id).map_err(|_| BadCursor)?,
        })
    }
}

impl GameCursor {
    fn after(game: &GameSummary) -> GameCursor {
        GameCursor { finished_at: micros(game.finished_at), id: game.id.0 }
    }
}

/// One page of the game list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePage {
    /// The games, newest first.
    pub games: Vec<GameSummary>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<GameCursor>,
}

/// A player's record over their finished games.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    /// The player these figures are of.
    pub player: PlayerInfo,
    /// How many finished games they played.
    pub games_played: u64,
    /// How many of those they won (a shared win counts).
    pub wins: u64,
    /// Their average total score; `None` before their first game.
    pub average_score: Option<f64>,
    /// Their latest finished games, newest first (at most [`RECENT_GAMES`]).
    pub recent: Vec<GameSummary>,
}

/// The store: one database, chosen at start-up.
#[derive(Clone, Debug)]
pub enum Store {
    /// An embedded SQLite file.
    Sqlite(sqlite::SqliteStore),
    /// A PostgreSQL server.
    Postgres(postgres::PgStore),
}

/// Runs the same call on whichever backend the store holds.
macro_rules! dispatch {
    ($store:expr, $backend:ident => $call:expr) => {
        match $store {
            Store::Sqlite($backend) => $call,
            Store::Postgres($backend) => $call,
        }
    };
}

impl Store {
    /// Opens the database at `url` and brings its schema up to date: `postgres://` (or `postgresql://`)
    /// for PostgreSQL, `sqlite://path` (or `sqlite:path`) for a SQLite file, created when missing.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the database cannot be reached, [`StoreError::Other`] for a URL
    /// of another kind or a migration that fails.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Store::Postgres(postgres::PgStore::connect(url).await?))
        } else if url.starts_with("sqlite:") {
            Ok(Store::Sqlite(sqlite::SqliteStore::connect(url).await?))
        } else {
            Err(StoreError::Other("the database URL must start with postgres:// or sqlite://".into()))
        }
    }

    /// Closes every connection; later calls fail with [`StoreError::Unavailable`].
    pub async fn close(&self) {
        dispatch!(self, s => s.close().await)
    }

    /// Checks that the database answers.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when it does not.
    pub async fn health(&self) -> Result<(), StoreError> {
        dispatch!(self, s => s.health().await)
    }

    /// Stores a player, or renames one already stored.
    ///
    /// # Errors
    /// When the write fails, e.g. another player has the same token hash.
    pub async fn save_player(&self, player: &PlayerInfo, token_hash: &[u8; 32]) -> Result<(), StoreError> {
        self.write_alone(&Write::player(player, token_hash)).await
    }

    /// The player whose token has this SHA-256 hash.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no player has it.
    pub async fn player_by_token_hash(&self, token_hash: &[u8; 32]) -> Result<PlayerInfo, StoreError> {
        dispatch!(self, s => s.player_by_token_hash(token_hash).await)
    }

    /// Stores a new table, with nobody seated.
    ///
    /// # Errors
    /// When the write fails, e.g. the host is not a stored player or the id is taken.
    pub async fn create_table(&self, table: &TableRow) -> Result<(), StoreError> {
        self.write_alone(&Write::Table { table: table.clone(), seats: Vec::new() }).await
    }

    /// Replaces who sits where at a table that waits for its game: `seats[i]` is seat `i`'s player.
    ///
    /// # Errors
    /// When the write fails, e.g. a player is not stored.
    pub async fn set_seats(&self, table: TableId, seats: &[Option<(PlayerId, bool)>]) -> Result<(), StoreError> {
        self.write_alone(&Write::Seats { table, seats: seats.to_vec() }).await
    }

    /// Stores the start of a table's game: its seed and its players in seat order.
    ///
    /// # Errors
    /// When the write fails, e.g. the table is not stored or its game already started.
    pub async fn start_game(
        &self,
        table: TableId,
        seed: u64,
        players: &[GamePlayer],
        started_at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        self.write_alone(&Write::Start { table, seed, players: players.to_vec(), started_at }).await
    }

    /// Appends actions to the logs of one or more games, in one transaction: when this returns `Ok`,
    /// every row is durable; when it fails, none was written.
    ///
    /// # Errors
    /// When the write fails, e.g. a row's game is not stored or its number is taken.
    pub async fn append_actions(&self, batch: &[ActionRow]) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        dispatch!(self, s => s.append_actions(batch).await)
    }

    /// Removes the actions of a game's log numbered `from` and up. A table calls it after a commit
    /// failed in a way that leaves unknown whether the row was written (the connection broke before the
    /// database's answer), so that the log holds exactly what was acknowledged.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn truncate_actions(&self, table: TableId, from: u32) -> Result<(), StoreError> {
        dispatch!(self, s => s.truncate_actions(table, from).await)
    }

    /// Stores the end of a table's game, in one transaction: its record, and a result per seat from
    /// its outcome. The record's `id` must be the table's, and the outcome must have a seat for each
    /// of the game's players. [`Writer::finish_game`] does the same in a group commit.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when the game was not started, [`StoreError::Other`] when it already
    /// finished or the record or the outcome does not fit it.
    pub async fn finish_game(&self, table: TableId, finished: &FinishedGame) -> Result<(), StoreError> {
        self.write_alone(&Write::finish(table, finished.clone())?).await
    }

    /// Writes `batch`, in one transaction when every write succeeds; returns each write's outcome, in
    /// order. A write that the database refuses is retried alone, so that it fails alone: a finish
    /// whose game is missing or already finished gets its error without failing the batch, and any
    /// other refusal (a constraint, say) makes each write of the batch go in a transaction of its own.
    /// When the database is unavailable, every write fails with [`StoreError::Unavailable`].
    pub(crate) async fn write(&self, batch: &[Write]) -> Vec<Result<(), StoreError>> {
        if batch.is_empty() {
            return Vec::new();
        }
        match dispatch!(self, s => s.write_batch(batch).await) {
            Ok(outcomes) => outcomes,
            Err(error @ StoreError::Unavailable(_)) => vec![Err(error); batch.len()],
            Err(error) if batch.len() == 1 => vec![Err(error)],
            Err(error) => {
                tracing::warn!(writes = batch.len(), %error, "a batch of writes was refused; writing each alone");
                let mut outcomes = Vec::with_capacity(batch.len());
                for write in batch {
                    outcomes.push(self.write_alone(write).await);
                }
                outcomes
            }
        }
    }

    /// Writes one write in a transaction of its own.
    async fn write_alone(&self, write: &Write) -> Result<(), StoreError> {
        let outcome = dispatch!(self, s => s.write_batch(std::slice::from_ref(write)).await);
        outcome?.pop().unwrap_or(Ok(()))
    }

    /// Every game that started and has not finished, with what it takes to bring it back.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when a stored row does not parse or a game's log has a gap.
    pub async fn unfinished_games(&self) -> Result<Vec<UnfinishedGame>, StoreError> {
        dispatch!(self, s => s.unfinished_games().await)
    }

    /// Every table that waits for its game with at least one seat taken (a table that closed before
    /// its start has none), with its seated players: what a restart needs to bring them back.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when a stored row does not parse.
    pub async fn waiting_tables(&self) -> Result<Vec<WaitingTable>, StoreError> {
        dispatch!(self, s => s.waiting_tables().await)
    }

    /// A finished game with its table and players, for someone who opens the table after it closed.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such table or its game has not finished.
    pub async fn finished_table(&self, id: TableId) -> Result<FinishedTable, StoreError> {
        dispatch!(self, s => s.finished_table(id).await)
    }

    /// One page of finished games, newest first: those that `filter` lets through, after `cursor`
    /// (from the previous page), at most `limit` ([`DEFAULT_LIST_LIMIT`] when `None`, never more than
    /// [`MAX_LIST_LIMIT`], at least 1).
    ///
    /// # Errors
    /// When the query fails, or a row does not parse.
    pub async fn list_games(
        &self,
        filter: &GameFilter,
        limit: Option<u32>,
        cursor: Option<GameCursor>,
    ) -> Result<GamePage, StoreError> {
        let limit = limit.unwrap_or(DEFAULT_LIST_LIMIT).clamp(1, MAX_LIST_LIMIT);
        // One more than asked tells whether another page follows.
        let mut games = dispatch!(self, s => s.list_games(filter, limit + 1, cursor).await)?;
        let next = if games.len() > limit as usize {
            games.truncate(limit as usize);
            games.last().map(GameCursor::after)
        } else {
            None
        };
        Ok(GamePage { games, next })
    }

    /// A finished game and its result.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no finished game has this id.
    pub async fn game(&self, id: TableId) -> Result<GameSummary, StoreError> {
        dispatch!(self, s => s.game(id).await)
    }

    /// The record of a finished game, as the JSON text stored (the game's format, such as
    /// `romirami-record/1`).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no finished game has this id, [`StoreError::Corrupt`] when the
    /// stored record is not the record of this game.
    pub async fn record(&self, id: TableId) -> Result<String, StoreError> {
        dispatch!(self, s => s.record(id).await)
    }

    /// A player's name, games played, wins, average score and latest games.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown player.
    pub async fn player_stats(&self, id: PlayerId) -> Result<PlayerStats, StoreError> {
        dispatch!(self, s => s.player_stats(id).await)
    }
}

// Conversions shared by the backends: every value read from a row goes through one of these, so a bad
// row becomes `StoreError::Corrupt`.

/// Microseconds since the Unix epoch, the precision both backends keep.
fn micros(at: OffsetDateTime) -> i64 {
    // An i64 of microseconds spans ±292,000 years; the clamp only guards against absurd inputs.
    i64::try_from(at.unix_timestamp_nanos() / 1000).unwrap_or(if at.year() < 0 { i64::MIN } else { i64::MAX })
}

/// The instant `micros` microseconds after the Unix epoch.
fn from_micros(micros: i64) -> Result<OffsetDateTime, StoreError> {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1000)
        .map_err(|_| StoreError::Corrupt(format!("instant {micros} is out of range")))
}

/// A seed as stored: the i64 with the same bits, since SQL has no unsigned 64-bit integer.
fn seed_to_sql(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

fn seed_from_sql(stored: i64) -> u64 {
    u64::from_ne_bytes(stored.to_ne_bytes())
}

fn seat_from(stored: i64) -> Result<Seat, StoreError> {
    match u8::try_from(stored) {
        Ok(seat) if seat < MAX_SEATS => Ok(Seat(seat)),
        _ => Err(StoreError::Corrupt(format!("seat {stored} is not 0 to {}", MAX_SEATS - 1))),
    }
}

fn small_from(stored: i64, what: &str) -> Result<u8, StoreError> {
    u8::try_from(stored).map_err(|_| StoreError::Corrupt(format!("{what} {stored} is out of range")))
}

fn count_from(stored: i64) -> Result<u32, StoreError> {
    u32::try_from(stored).map_err(|_| StoreError::Corrupt(format!("count {stored} is out of range")))
}

fn spectators_to_sql(policy: SpectatorPolicy) -> &'static str {
    match policy {
        SpectatorPolicy::Everyone => "everyone",
        SpectatorPolicy::Link => "link",
        SpectatorPolicy::Nobody => "nobody",
    }
}

fn spectators_from(stored: &str) -> Result<SpectatorPolicy, StoreError> {
    match stored {
        "everyone" => Ok(SpectatorPolicy::Everyone),
        "link" => Ok(SpectatorPolicy::Link),
        "nobody" => Ok(SpectatorPolicy::Nobody),
        other => Err(StoreError::Corrupt(format!("unknown spectator policy {other:?}"))),
    }
}

/// A stored action's text, checked to be JSON: the table hands it to the game as JSON.
fn action_from_json(table: &impl fmt::Display, seq: i64, json: String) -> Result<String, StoreError> {
    match serde_json::from_str::<serde::de::IgnoredAny>(&json) {
        Ok(_) => Ok(json),
        Err(e) => Err(StoreError::Corrupt(format!("action {seq} of game {table} is not JSON: {e}"))),
    }
}

/// What the store reads of a record: what every game's record carries.
#[derive(Deserialize)]
struct RecordHead {
    id: uuid::Uuid,
    #[serde(with = "time::serde::rfc3339")]
    finished_at: OffsetDateTime,
}

impl RecordHead {
    fn of(json: &str) -> Result<RecordHead, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// A stored record's text, checked to be the record of game `table`.
fn record_from_json(table: TableId, json: String) -> Result<String, StoreError> {
    match RecordHead::of(&json) {
        Ok(head) if head.id == table.0 => Ok(json),
        Ok(head) => Err(StoreError::Corrupt(format!("game {table} holds the record of game {}", head.id))),
        Err(e) => Err(StoreError::Corrupt(format!("the record of game {table} does not parse: {e}"))),
    }
}

/// A seat's score details as stored: JSON text.
fn details_to_json(details: &serde_json::Value) -> Result<String, StoreError> {
    if !details.is_object() {
        return Err(StoreError::Other(format!("a seat's score details are not a JSON object: {details}")));
    }
    serde_json::to_string(details).map_err(|e| StoreError::Other(format!("cannot write score details: {e}")))
}

fn details_from(stored: &str) -> Result<serde_json::Value, StoreError> {
    match serde_json::from_str::<serde_json::Value>(stored) {
        Ok(details) if details.is_object() => Ok(details),
        _ => Err(StoreError::Corrupt(format!("score details {stored:?} are not a JSON object"))),
    }
}

/// Checks that a game's log, read in order, is numbered 0, 1, 2, ... without gaps, and keeps the moves.
fn contiguous_actions(
    table: &impl fmt::Display,
    rows: Vec<(i64, StoredAction)>,
) -> Result<Vec<StoredAction>, StoreError> {
    rows.into_iter()
        .zip(0i64..)
        .map(|((seq, action), expected)| {
            if seq == expected {
                Ok(action)
            } else {
                Err(StoreError::Corrupt(format!("game {table} has action {seq} where action {expected} belongs")))
            }
        })
        .collect()
}

/// Checks a finished game's outcome: one seat per player, each with a place among them and its
/// details a JSON object. Returns each seat's details as the text stored.
fn checked_outcome(outcome: &Outcome) -> Result<Vec<String>, StoreError> {
    let seats = outcome.seats.len();
    if seats == 0 || seats > usize::from(MAX_SEATS) {
        return Err(StoreError::Other(format!("an outcome of {seats} seats")));
    }
    if outcome.ended_by.is_empty() {
        return Err(StoreError::Other("an outcome that does not say how the game ended".into()));
    }
    outcome
        .seats
        .iter()
        .map(|seat| {
            if seat.place == 0 || usize::from(seat.place) > seats {
                return Err(StoreError::Other(format!("place {} among {seats} seats", seat.place)));
            }
            details_to_json(&seat.details)
        })
        .collect()
}

/// The result rows of a finished game: one per seat, from its outcome and the players as the game
/// started.
fn seat_results(outcome: &Outcome, players: &[GamePlayer]) -> Result<Vec<SeatResult>, StoreError> {
    checked_outcome(outcome)?;
    if outcome.seats.len() != players.len() {
        return Err(StoreError::Other(format!(
            "the outcome has {} seats, the game {} players",
            outcome.seats.len(),
            players.len()
        )));
    }
    players
        .iter()
        .map(|player| {
            let seat = outcome
                .seats
                .get(player.seat.index())
                .ok_or_else(|| StoreError::Other(format!("the outcome has no {}", player.seat)))?;
            Ok(SeatResult {
                player: player.clone(),
                score: seat.score,
                details: seat.details.clone(),
                place: seat.place,
                winner: seat.winner,
                bot_actions: 0,
            })
        })
        .collect()
}

/// Gives each of `games` its results from `rows` (a game's seats in order, as both back-ends read them
/// in one query). A finished game without results is corrupt.
fn attach_results(
    games: &mut [GameSummary],
    rows: impl IntoIterator<Item = Result<(TableId, SeatResult), StoreError>>,
) -> Result<(), StoreError> {
    let mut by_game: HashMap<TableId, Vec<SeatResult>> = HashMap::with_capacity(games.len());
    for row in rows {
        let (table, result) = row?;
        by_game.entry(table).or_default().push(result);
    }
    for game in games {
        game.results = by_game.remove(&game.id).unwrap_or_default();
        if game.results.is_empty() {
            return Err(StoreError::Corrupt(format!("finished game {} has no results", game.id)));
        }
    }
    Ok(())
}

/// A clock's milliseconds as stored.
fn ms_to_sql(ms: u64) -> Result<i64, StoreError> {
    i64::try_from(ms).map_err(|_| StoreError::Other(format!("{ms} ms is too long to store")))
}

fn ms_from(stored: i64) -> Result<u64, StoreError> {
    u64::try_from(stored).map_err(|_| StoreError::Corrupt(format!("{stored} ms is negative")))
}

/// A table's clock from its two columns: both or neither.
fn clock_from(turn_ms: Option<i64>, reserve_ms: Option<i64>) -> Result<Option<Clock>, StoreError> {
    match (turn_ms, reserve_ms) {
        (Some(turn), Some(reserve)) => Ok(Some(Clock { turn_ms: ms_from(turn)?, reserve_ms: ms_from(reserve)? })),
        (None, None) => Ok(None),
        _ => Err(StoreError::Corrupt("a clock with only one of its two times".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let cursor = GameCursor { finished_at: 1_700_000_000_123_456, id: Uuid::new_v4() };
        assert_eq!(cursor.to_string().parse::<GameCursor>(), Ok(cursor));
        for bad in ["", "12", "x_y", "12_notauuid", "_", "1.5_00000000000000000000000000000000"] {
            assert_eq!(bad.parse::<GameCursor>(), Err(BadCursor), "{bad}");
        }
    }

    #[test]
    fn seeds_keep_every_bit() {
        for seed in [0, 1, u64::MAX, 1 << 63, 0xdead_beef_dead_beef] {
            assert_eq!(seed_from_sql(seed_to_sql(seed)), seed);
        }
    }

    #[test]
    fn instants_keep_microseconds() {
        let at = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789).expect("in range");
        let back = from_micros(micros(at)).expect("in range");
        assert_eq!(micros(back), 1_700_000_000_123_456);
        assert!(matches!(from_micros(i64::MAX), Err(StoreError::Corrupt(_))));
    }

    #[test]
    fn results_go_to_their_games_in_seat_order_and_a_game_without_is_corrupt() {
        let result = |table: TableId, seat: u8| {
            let seat = Seat(seat);
            let player = GamePlayer { seat, id: PlayerId(Uuid::new_v4()), name: format!("p{seat}"), bot: false };
            let details = serde_json::json!({ "total": 0 });
            Ok((table, SeatResult { player, score: 0, details, place: 1, winner: true, bot_actions: 0 }))
        };
        let game = |id: TableId| GameSummary {
            game: "romi-rami".into(),
            id,
            started_at: OffsetDateTime::UNIX_EPOCH,
            finished_at: OffsetDateTime::UNIX_EPOCH,
            ended_by: "market".into(),
            results: Vec::new(),
        };
        let (a, b, c) = (TableId(Uuid::new_v4()), TableId(Uuid::new_v4()), TableId(Uuid::new_v4()));
        let seats = |games: &[GameSummary]| -> Vec<Vec<u8>> {
            games.iter().map(|g| g.results.iter().map(|r| r.player.seat.0).collect()).collect()
        };

        let mut games = vec![game(b), game(a)];
        attach_results(&mut games, [result(a, 0), result(a, 1), result(b, 0), result(b, 1), result(b, 2)])
            .expect("every game has results");
        assert_eq!(seats(&games), [vec![0, 1, 2], vec![0, 1]]);

        let mut games = vec![game(a), game(c)];
        let missing = attach_results(&mut games, [result(a, 0), result(a, 1)]);
        assert!(matches!(missing, Err(StoreError::Corrupt(ref m)) if m.contains(&c.to_string())), "{missing:?}");

        let mut games = vec![game(a)];
        let unreadable = attach_results(&mut games, [result(a, 0), Err(StoreError::Corrupt("bad row".into()))]);
        assert!(matches!(unreadable, Err(StoreError::Corrupt(ref m)) if m == "bad row"), "{unreadable:?}");
    }

    #[test]
    fn a_player_filter_is_an_id_or_a_name() {
        let id = Uuid::new_v4();
        assert_eq!(PlayerFilter::parse(&id.to_string()), PlayerFilter::Id(PlayerId(id)));
        assert_eq!(PlayerFilter::parse("Ana"), PlayerFilter::Name("Ana".into()));
    }

    #[test]
    fn busy_locked_and_connection_errors_are_unavailability() {
        for code in ["5", "6", "517", "261", "10", "13", "14", "08006", "57P01", "53300"] {
            assert!(is_unavailable_code(Some(code)), "{code}");
        }
        for code in ["19", "2067", "23505", "42P01"] {
            assert!(!is_unavailable_code(Some(code)), "{code}");
        }
        assert!(!is_unavailable_code(None));
    }

    #[test]
    fn bad_rows_are_corrupt() {
        assert!(seat_from(5).is_ok());
        assert!(matches!(seat_from(6), Err(StoreError::Corrupt(_))));
        assert!(matches!(seat_from(-1), Err(StoreError::Corrupt(_))));
        assert!(matches!(spectators_from("all"), Err(StoreError::Corrupt(_))));
        assert!(matches!(action_from_json(&"g", 0, "{".into()), Err(StoreError::Corrupt(_))));
        assert_eq!(action_from_json(&"g", 0, r#"{"type":"pass"}"#.into()), Ok(r#"{"type":"pass"}"#.into()));
        assert!(matches!(details_from("[1]"), Err(StoreError::Corrupt(_))));
        assert!(matches!(details_from("{"), Err(StoreError::Corrupt(_))));
        let game = TableId(Uuid::new_v4());
        let record = format!(r#"{{"id":"{}","finished_at":"2026-01-01T00:00:00Z"}}"#, game.0);
        assert_eq!(record_from_json(game, record.clone()), Ok(record.clone()));
        assert!(matches!(record_from_json(TableId(Uuid::new_v4()), record), Err(StoreError::Corrupt(_))));
        assert!(matches!(record_from_json(game, r#"{"format":1}"#.into()), Err(StoreError::Corrupt(_))));
        let pass = |seat| StoredAction {
            seat: Seat(seat),
            action: r#"{"type":"pass"}"#.into(),
            by_bot: false,
            reserve_ms: None,
        };
        let gap = vec![(0, pass(0)), (2, pass(1))];
        assert!(matches!(contiguous_actions(&"g", gap), Err(StoreError::Corrupt(_))));
    }
}
