//! Durable storage: players, tables, the action log of every game, and finished games with their
//! results, in PostgreSQL (production) or an embedded SQLite file (the default).
//!
//! [`Store`] is chosen once at start-up from the database URL ([`Store::connect`]): an enum over the two
//! backends, [`sqlite::SqliteStore`] and [`postgres::PgStore`], which implement the traits of
//! `backend.rs` (`Backend`, with `Reads`, `Ratings`, `Claims`, `Talk` and `Leases`); each method of
//! `Store` matches on the backend and calls it directly (static dispatch, no trait object). Every SQL
//! statement is in its backend's module ([`sqlite`], [`postgres`]), with its migrations
//! (`migrations/sqlite`, `migrations/postgres`, which `connect` applies); the other files of this module
//! hold none. What both backends do alike is written once here: the checks and grouping of a batch of
//! writes (`batch.rs`), the mapping of the rows both read with the same columns (`rows.rs`, each
//! backend saying only how it reads an id, an instant, a number or a flag), the conversions of values
//! (`codec.rs`), the paging of lists, the statistics (`stats.rs`), the ratings' arithmetic
//! ([`ratings`]) and "write the batch, then each write alone" (`retry.rs`). Every failure is one of the
//! six kinds of [`StoreError`]; a row that does not parse is [`StoreError::Corrupt`], never a panic.
//!
//! A game is stored as its seed and the list of every action applied to it, in order, take-backs
//! included: `Game::new(players, seed)` and the actions replayed give it back exactly
//! ([`Store::unfinished_games`] returns what a restart needs). Actions are appended in batches that
//! each commit in one transaction ([`Store::append_actions`]); [`Committer`] gathers the actions of
//! many tables into such batches (group commit). A finished game keeps its record (as the text the
//! server wrote) and one result row per seat from its [`Outcome`] ([`Store::finish_game`]), for the game
//! list and player statistics.
//!
//! The transaction that stores a game's result also rates it ([`ratings`]): it updates its players'
//! ratings in that game and keeps each seat's rating before and after; the games stored before ratings
//! existed are rated when the store opens, replayed in the order they finished.
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

/// Runs the same call on whichever backend the store holds: a `match`, then a direct (static) call to
/// that backend's implementation of the [`backend`] traits.
macro_rules! dispatch {
    ($store:expr, $backend:ident => $call:expr) => {
        match $store {
            Store::Sqlite($backend) => $call,
            Store::Postgres($backend) => $call,
        }
    };
}

mod accounts;
mod analyses;
mod backend;
mod batch;
mod chat;
mod codec;
mod collusion;
mod committer;
mod error;
mod leases;
mod moderation;
mod names;
pub mod postgres;
mod push;
pub mod ratings;
mod rematch;
mod retry;
mod rows;
mod sleeping;
pub mod sqlite;
mod stats;
mod tournaments;
mod types;
mod writer;

pub use accounts::{DELETED_NAME, Device, WrittenLine};
pub use chat::ChatRow;
pub use collusion::SharedPair;
pub use committer::{Committer, CommitterStats};
pub use error::StoreError;
pub use leases::Lease;
pub use moderation::{AuditEntry, Ban, NewReport, Report};
pub use names::Claim;
pub use push::PushSubscription;
pub use ratings::{BoardCursor, BoardEntry, BoardPage, PlayerRating, Rating, RatingChange, Standing};
pub use romirami_game::{Outcome, SeatOutcome};
pub use sleeping::SleepRow;
pub use stats::GameStats;
pub use tournaments::TournamentRow;
pub use types::{
    ActionRow, Appended, BadCursor, Fence, FinishedGame, FinishedTable, GameCursor, GameFilter, GamePage, GamePlayer,
    GameSummary, PlayerFilter, PlayerStats, SeatResult, StoredAction, StoredTable, TableRow, UnfinishedGame,
    WaitingTable,
};
pub use writer::{Writer, WriterStats};

use backend::{Backend, Ratings, Reads};
pub(crate) use batch::Write;
use romirami_game::commitment::{Salt, ShuffleProof};
use time::OffsetDateTime;

use crate::protocol::{PlayerId, PlayerInfo, TableId};

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

/// The store: one database, chosen at start-up.
#[derive(Clone, Debug)]
pub enum Store {
    /// An embedded SQLite file.
    Sqlite(sqlite::SqliteStore),
    /// A PostgreSQL server.
    Postgres(postgres::PgStore),
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

    /// How many transactions of actions the [`Committer`] keeps in flight at once: PostgreSQL writes
    /// several at once and flushes their commits together, SQLite has one writer at a time.
    fn commits_in_flight(&self) -> usize {
        match self {
            Store::Sqlite(_) => sqlite::SqliteStore::COMMITS_IN_FLIGHT,
            Store::Postgres(_) => postgres::PgStore::COMMITS_IN_FLIGHT,
        }
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

    /// The player whose token has this SHA-256 hash: their first token, or one given at a sign-in
    /// ([`Store::add_token`]).
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

    /// Stores the start of a table's game: its seed, the salt of the commitment to it (`None` for a game
    /// without a shuffle proof) and its players in seat order.
    ///
    /// # Errors
    /// When the write fails, e.g. the table is not stored or its game already started.
    pub async fn start_game(
        &self,
        table: TableId,
        seed: u64,
        salt: Option<Salt>,
        players: &[GamePlayer],
        started_at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let contributions = Vec::new();
        self.write_alone(&Write::Start { table, seed, salt, contributions, players: players.to_vec(), started_at })
            .await
    }

    /// Stores the start of a table's game dealt with `shuffle`: the server's seed, the salt and the seats'
    /// contributions, and its players in seat order.
    ///
    /// # Errors
    /// As [`Store::start_game`].
    pub async fn start_dealt_game(
        &self,
        table: TableId,
        shuffle: &ShuffleProof,
        players: &[GamePlayer],
        started_at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        self.write_alone(&Write::start(table, shuffle, players, started_at)).await
    }

    /// Appends actions to the logs of one or more games, in one transaction: when this returns `Ok`,
    /// every row is durable but those its [`Appended`] lists as refused by their [`Fence`]; when it fails,
    /// none was written.
    ///
    /// # Errors
    /// When the write fails, e.g. a row's game is not stored or its number is taken; or, on SQLite, when
    /// a row carries a fence (leases are PostgreSQL's).
    pub async fn append_actions(&self, batch: &[ActionRow]) -> Result<Appended, StoreError> {
        if batch.is_empty() {
            return Ok(Appended::default());
        }
        dispatch!(self, s => s.append_actions(batch).await)
    }

    /// Removes the actions of a game's log numbered `from` and up. A table calls it after a commit
    /// failed in a way that leaves unknown whether the row was written (the connection broke before the
    /// database's answer), so that the log holds exactly what was acknowledged.
    ///
    /// # Errors
    /// When the write fails.
    ///
    /// With a `fence`, nothing is removed unless that lease is the table's current one: a node that lost
    /// the table must not clear what its new owner appended ([`StoreError::Fenced`] then).
    pub async fn truncate_actions(&self, table: TableId, from: u32, fence: Option<&Fence>) -> Result<(), StoreError> {
        dispatch!(self, s => s.truncate_actions(table, from, fence).await)
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
    /// other refusal (a constraint, say) makes each write of the batch go in a transaction of its own
    /// ([`retry`]). When the database is unavailable, every write fails with [`StoreError::Unavailable`].
    pub(crate) async fn write(&self, batch: &[Write]) -> Vec<Result<(), StoreError>> {
        if batch.is_empty() {
            return Vec::new();
        }
        retry::batch_then_each_alone(batch, "writes", self).await
    }

    /// Writes one write in a transaction of its own.
    async fn write_alone(&self, write: &Write) -> Result<(), StoreError> {
        retry::alone(write, self).await
    }

    /// Every game that started and has not finished, with what it takes to bring it back.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when a stored row does not parse or a game's log has a gap.
    pub async fn unfinished_games(&self) -> Result<Vec<UnfinishedGame>, StoreError> {
        dispatch!(self, s => s.unfinished_games(None).await)
    }

    /// The unfinished games among `tables`, as [`Store::unfinished_games`] reads them: a takeover's read,
    /// which does not read the rest of the cluster's games.
    ///
    /// # Errors
    /// As [`Store::unfinished_games`].
    pub async fn unfinished_games_among(&self, tables: &[TableId]) -> Result<Vec<UnfinishedGame>, StoreError> {
        dispatch!(self, s => s.unfinished_games(Some(tables)).await)
    }

    /// Every table that waits for its game with at least one seat taken (a table that closed before
    /// its start has none), with its seated players: what a restart needs to bring them back.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when a stored row does not parse.
    pub async fn waiting_tables(&self) -> Result<Vec<WaitingTable>, StoreError> {
        dispatch!(self, s => s.waiting_tables(None).await)
    }

    /// The waiting tables among `tables`, as [`Store::waiting_tables`] reads them.
    ///
    /// # Errors
    /// As [`Store::waiting_tables`].
    pub async fn waiting_tables_among(&self, tables: &[TableId]) -> Result<Vec<WaitingTable>, StoreError> {
        dispatch!(self, s => s.waiting_tables(Some(tables)).await)
    }

    /// A table that waits for its game (with a seat taken), plays it or has finished, wherever it is
    /// played: what its invite page tells.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when there is no such table, or it closed before its game started.
    pub async fn table(&self, id: TableId) -> Result<StoredTable, StoreError> {
        dispatch!(self, s => s.table(id).await)
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

    /// A player's name, games played, wins, average score and latest games, with the figures of each
    /// game they played; only `game`'s games when one is named.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown player.
    pub async fn player_stats(&self, id: PlayerId, game: Option<&str>) -> Result<PlayerStats, StoreError> {
        let (name, places) = dispatch!(self, s => s.player_places(id, game).await)?;
        let filter =
            GameFilter { player: Some(PlayerFilter::Id(id)), game: game.map(str::to_owned), ..GameFilter::default() };
        let recent = dispatch!(self, s => s.list_games(&filter, RECENT_GAMES, None).await)?;
        PlayerStats::assemble(PlayerInfo { id, name }, &places, recent)
    }

    /// One page of a game's leaderboard, best first: the players with at least `min_games` rated games of
    /// `game`, after `cursor` (from the previous page), at most `limit` ([`DEFAULT_LIST_LIMIT`] when
    /// `None`, never more than [`MAX_LIST_LIMIT`], at least 1).
    ///
    /// # Errors
    /// When the query fails, or a row does not parse.
    pub async fn leaderboard(
        &self,
        game: &str,
        min_games: u32,
        limit: Option<u32>,
        cursor: Option<BoardCursor>,
    ) -> Result<BoardPage, StoreError> {
        let limit = limit.unwrap_or(DEFAULT_LIST_LIMIT).clamp(1, MAX_LIST_LIMIT);
        // One more than asked tells whether another page follows.
        let mut entries = dispatch!(self, s => s.leaderboard(game, min_games, limit + 1, cursor).await)?;
        let next = if entries.len() > limit as usize {
            entries.truncate(limit as usize);
            entries.last().map(BoardCursor::after)
        } else {
            None
        };
        Ok(BoardPage { entries, next })
    }

    /// A player's rating in each game they played rated, by the game's name.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown player.
    pub async fn player_ratings(&self, id: PlayerId) -> Result<Vec<PlayerRating>, StoreError> {
        dispatch!(self, s => s.player_ratings(id).await)
    }
}

impl retry::Transact<Write> for Store {
    /// Writes the batch in one transaction with its backend ([`Backend::write_batch`]).
    async fn transact(&self, batch: &[Write]) -> retry::Outcomes {
        dispatch!(self, s => s.write_batch(batch).await)
    }
}
