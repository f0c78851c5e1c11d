//! What a backend of the store does: the traits that [`SqliteStore`](super::sqlite::SqliteStore) and
//! [`PgStore`](super::postgres::PgStore) implement, each in its own module, with its own SQL.
//!
//! [`Store`](super::Store) is an enum over the two backends, chosen once at start-up, and calls them
//! through these traits: the dispatch is static (a `match`, then a direct call), no trait object. What
//! both backends decide alike (the checks of a finish, the paging of lists, the statistics, the ratings'
//! arithmetic, the mapping of most columns to their types) is written once outside them; what is here is
//! what needs the database.
//!
//! The work is split by subject into a few traits, so that each backend implements each in the file
//! that holds its SQL (`read.rs`, `rate.rs`, `names.rs`, `chat.rs`, `leases.rs`); [`Backend`] is all of
//! them. Every method returns a `Send` future: the committer and the writer await them in tasks of
//! their own.

use std::future::Future;
use std::time::Duration;

use time::OffsetDateTime;

use super::accounts::{Device, WrittenLine};
use super::collusion::SharedPair;
use super::moderation::{AuditEntry, Ban, NewReport, Report};
use super::names::StoredClaimKeys;
use super::push::PushSubscription;
use super::sleeping::SleepRow;
use super::stats::PlaceRow;
use super::tournaments::TournamentRow;
use super::types::ChatEntry;
use super::{
    ActionRow, Appended, BoardCursor, BoardEntry, Claim, Fence, FinishedTable, GameCursor, GameFilter, GameSummary,
    Lease, PlayerRating, StoreError, StoredTable, UnfinishedGame, WaitingTable, Write,
};
use crate::protocol::{ChatLine, PlayerId, PlayerInfo, TableId};

/// A backend of the store: one database.
pub(super) trait Backend:
    Reads + Ratings + Claims + Accounts + Moderation + Collusion + Talk + Leases + Analyses + Tournaments + Push + Sleeping
{
    /// How many transactions of actions the [`Committer`](super::Committer) keeps in flight at once.
    const COMMITS_IN_FLIGHT: usize;

    /// Closes every connection; later calls fail with [`StoreError::Unavailable`].
    fn close(&self) -> impl Future<Output = ()> + Send;

    /// Checks that the database answers.
    fn health(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The player whose first token, or a token given at a sign-in, has this hash.
    fn player_by_token_hash(
        &self,
        token_hash: &[u8; 32],
    ) -> impl Future<Output = Result<PlayerInfo, StoreError>> + Send;

    /// Writes `batch` in one transaction: `Err` when the transaction failed (nothing was written),
    /// otherwise each write's outcome (a finish that does not fit its game fails alone, the others are
    /// written).
    fn write_batch(
        &self,
        batch: &[Write],
    ) -> impl Future<Output = Result<Vec<Result<(), StoreError>>, StoreError>> + Send;

    /// Appends a non-empty batch of actions in one transaction, but the rows refused by their fence.
    fn append_actions(&self, batch: &[ActionRow]) -> impl Future<Output = Result<Appended, StoreError>> + Send;

    /// Removes the actions of `table` numbered `from` and up, under `fence` when one is given.
    fn truncate_actions(
        &self,
        table: TableId,
        from: u32,
        fence: Option<&Fence>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// The reads of tables and games: restoring them, the game list, one game, its record, a player's
/// statistics.
pub(super) trait Reads {
    /// The tables that wait for their game with a seat taken; among `only` when given.
    fn waiting_tables(
        &self,
        only: Option<&[TableId]>,
    ) -> impl Future<Output = Result<Vec<WaitingTable>, StoreError>> + Send;

    /// The games that started and have not finished; among `only` when given.
    fn unfinished_games(
        &self,
        only: Option<&[TableId]>,
    ) -> impl Future<Output = Result<Vec<UnfinishedGame>, StoreError>> + Send;

    /// A table that is waiting (with a seat taken), playing or finished, as stored.
    fn table(&self, id: TableId) -> impl Future<Output = Result<StoredTable, StoreError>> + Send;

    /// A finished game with its table and players.
    fn finished_table(&self, id: TableId) -> impl Future<Output = Result<FinishedTable, StoreError>> + Send;

    /// At most `limit` finished games that `filter` lets through, after `cursor`, newest first.
    fn list_games(
        &self,
        filter: &GameFilter,
        limit: u32,
        cursor: Option<GameCursor>,
    ) -> impl Future<Output = Result<Vec<GameSummary>, StoreError>> + Send;

    /// A finished game and its result.
    fn game(&self, id: TableId) -> impl Future<Output = Result<GameSummary, StoreError>> + Send;

    /// A finished game's record, as stored.
    fn record(&self, id: TableId) -> impl Future<Output = Result<String, StoreError>> + Send;

    /// A player's name, and their results by game and place (sorted by game), over `game`'s games only
    /// when one is named.
    fn player_places(
        &self,
        id: PlayerId,
        game: Option<&str>,
    ) -> impl Future<Output = Result<(String, Vec<PlaceRow>), StoreError>> + Send;
}

/// The reads of ratings (the writes are part of a finish's transaction).
pub(super) trait Ratings {
    /// At most `limit` players of `game`'s leaderboard with at least `min_games` rated games, after
    /// `cursor`, best first.
    fn leaderboard(
        &self,
        game: &str,
        min_games: u32,
        limit: u32,
        cursor: Option<BoardCursor>,
    ) -> impl Future<Output = Result<Vec<BoardEntry>, StoreError>> + Send;

    /// A player's rating in each game they played rated.
    fn player_ratings(&self, id: PlayerId) -> impl Future<Output = Result<Vec<PlayerRating>, StoreError>> + Send;
}

/// Names kept with a password, and the tokens of sign-ins.
pub(super) trait Claims {
    /// Claims a name (by its key and skeleton) for `player`.
    fn claim_name(
        &self,
        player: PlayerId,
        name_key: &str,
        name_skeleton: &str,
        password_hash: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The claim on a name, by its key.
    fn claim(&self, name_key: &str) -> impl Future<Output = Result<Claim, StoreError>> + Send;

    /// Whether a claim has this key or this skeleton.
    fn is_claimed_like(
        &self,
        name_key: &str,
        name_skeleton: &str,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Whether `player` claimed their name.
    fn has_claimed(&self, player: PlayerId) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Keeps one more token hash of `player`'s, given to the browser that named itself `device`.
    fn add_token(
        &self,
        player: PlayerId,
        token_hash: &[u8; 32],
        device: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Every claimed name: its player, the name as shown, its stored key and skeleton, oldest claim first.
    fn claimed_names(&self) -> impl Future<Output = Result<Vec<StoredClaimKeys>, StoreError>> + Send;

    /// Stores `key` and `skeleton` for `player`'s claimed name ([`StoreError::Duplicate`] if another claim has
    /// either).
    fn set_name_keys(
        &self,
        player: PlayerId,
        key: &str,
        skeleton: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Accounts people control: devices, signing out, a new password, a player's lines, deleting an account.
pub(super) trait Accounts {
    /// A player's tokens as devices, oldest first.
    fn devices(&self, player: PlayerId) -> impl Future<Output = Result<Vec<Device>, StoreError>> + Send;

    /// Deletes a token; whose it was.
    fn remove_token(&self, token_hash: &[u8; 32]) -> impl Future<Output = Result<Option<PlayerId>, StoreError>> + Send;

    /// Deletes a player's tokens but `keep`; how many.
    fn remove_tokens(
        &self,
        player: PlayerId,
        keep: Option<&[u8; 32]>,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Replaces the password hash of a player's claim ([`StoreError::NotFound`] without one).
    fn set_password_hash(
        &self,
        player: PlayerId,
        password_hash: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The chat lines a player wrote.
    fn lines_of(&self, player: PlayerId) -> impl Future<Output = Result<Vec<WrittenLine>, StoreError>> + Send;

    /// Deletes an account (see [`Store::delete_player`](super::Store::delete_player)).
    fn delete_player(&self, player: PlayerId) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Where players connect from, and the pairs who share an address at rated tables (see
/// [`Store::note_address`](super::Store::note_address)).
pub(super) trait Collusion {
    fn note_address(
        &self,
        player: PlayerId,
        key: &[u8; 32],
        at: OffsetDateTime,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    fn shared_address_pairs(
        &self,
        min_tables: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<SharedPair>, StoreError>> + Send;
}

/// Moderation: admins, reports, bans, the audit log (see [`Store::is_admin`](super::Store::is_admin) and on).
pub(super) trait Moderation {
    fn is_admin(&self, player: PlayerId) -> impl Future<Output = Result<bool, StoreError>> + Send;
    fn set_admin(&self, player: PlayerId, admin: bool) -> impl Future<Output = Result<bool, StoreError>> + Send;
    fn add_report(&self, report: &NewReport<'_>) -> impl Future<Output = Result<i64, StoreError>> + Send;
    fn reports_by(
        &self,
        reporter: PlayerId,
        since: OffsetDateTime,
    ) -> impl Future<Output = Result<i64, StoreError>> + Send;
    fn open_reports(&self, limit: i64) -> impl Future<Output = Result<Vec<Report>, StoreError>> + Send;
    fn ban(
        &self,
        player: PlayerId,
        until: OffsetDateTime,
        reason: &str,
        admin: PlayerId,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    fn unban(&self, player: PlayerId) -> impl Future<Output = Result<bool, StoreError>> + Send;
    fn bans(&self, now: OffsetDateTime) -> impl Future<Output = Result<Vec<Ban>, StoreError>> + Send;
    fn audit(
        &self,
        admin: Option<PlayerId>,
        action: &str,
        target: Option<PlayerId>,
        detail: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    fn audit_log(&self, limit: i64) -> impl Future<Output = Result<Vec<AuditEntry>, StoreError>> + Send;
    fn remove_chat_line(
        &self,
        table: TableId,
        channel: &'static str,
        n: i64,
    ) -> impl Future<Output = Result<Option<PlayerId>, StoreError>> + Send;
}

/// What a table keeps beside its game: its chat, and the table where its players play again.
pub(super) trait Talk {
    /// Stores a chat message (under `fence` when one is given) and forgets its table's messages older
    /// than those it keeps.
    fn append_chat(
        &self,
        entry: &ChatEntry<'_>,
        fence: Option<&Fence>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The last `limit` chat messages of `table`, newest first.
    fn chat(&self, table: TableId, limit: i64) -> impl Future<Output = Result<Vec<ChatLine>, StoreError>> + Send;

    /// Points `table` to `rematch`; `false` when `table` is not stored.
    fn set_rematch(&self, table: TableId, rematch: TableId) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The table `table` points to, if any.
    fn rematch(&self, table: TableId) -> impl Future<Output = Result<Option<TableId>, StoreError>> + Send;
}

/// The analyses of finished games, as JSON text (`crate::store::analyses` reads and writes them).
pub(super) trait Analyses {
    /// The analysis of `seat` in `game`, if it was kept.
    fn analysis(&self, game: TableId, seat: i16) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    /// Keeps the analysis of `seat` in `game`, unless one is kept already.
    fn put_analysis(
        &self,
        game: TableId,
        seat: i16,
        analysis: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Table leases, for a cluster of nodes (see [`Store::acquire_lease`](super::Store::acquire_lease)).
pub(super) trait Leases {
    /// Grants `table` to `node` for `ttl` unless another node's lease is current.
    fn acquire_lease(
        &self,
        table: TableId,
        node: &str,
        ttl: Duration,
    ) -> impl Future<Output = Result<Option<Lease>, StoreError>> + Send;

    /// Extends the current ones among `held` by `ttl`, and returns them.
    fn renew_leases(
        &self,
        held: &[(TableId, Fence)],
        ttl: Duration,
    ) -> impl Future<Output = Result<Vec<Lease>, StoreError>> + Send;

    /// Ends the leases `held` now.
    fn release_leases(&self, held: &[(TableId, Fence)]) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// At most `limit` open tables whose lease ran out.
    fn expired_leases(&self, limit: u32) -> impl Future<Output = Result<Vec<TableId>, StoreError>> + Send;

    /// The current lease of `table`, if it ever had one.
    fn lease(&self, table: TableId) -> impl Future<Output = Result<Option<Lease>, StoreError>> + Send;
}

/// Tournaments, each a row with its director as JSON (`crate::store::tournaments`).
pub(super) trait Tournaments {
    /// Stores a new tournament.
    fn create_tournament(&self, row: &TournamentRow) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Replaces a tournament's state, director and winner.
    fn save_tournament(
        &self,
        id: uuid::Uuid,
        state: &str,
        director: &str,
        winner: Option<PlayerId>,
        fence: Option<&Fence>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The tournament `id`, if there is one.
    fn tournament(&self, id: uuid::Uuid) -> impl Future<Output = Result<Option<TournamentRow>, StoreError>> + Send;

    /// The newest tournaments, of `state` or of every state, won by `winner` or by anyone.
    fn tournaments(
        &self,
        state: Option<&str>,
        winner: Option<PlayerId>,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<TournamentRow>, StoreError>> + Send;

    /// The tournaments not finished, oldest first.
    fn unfinished_tournaments(&self) -> impl Future<Output = Result<Vec<TournamentRow>, StoreError>> + Send;

    /// The tournaments not finished whose lease ran out or never was (or names `node`), oldest first.
    fn undirected_tournaments(
        &self,
        limit: i64,
        node: Option<&str>,
    ) -> impl Future<Output = Result<Vec<TournamentRow>, StoreError>> + Send;

    /// The tables of the tournament `id`, oldest first.
    fn tournament_tables(&self, id: uuid::Uuid) -> impl Future<Output = Result<Vec<TableId>, StoreError>> + Send;

    /// How many tournaments `player` created that are not finished.
    fn open_tournaments_by(&self, player: PlayerId) -> impl Future<Output = Result<i64, StoreError>> + Send;
}

/// Web Push: the server's secrets and the players' push subscriptions (`crate::store::push`).
pub(super) trait Push {
    /// The secret `name`, if one was kept.
    fn server_secret(&self, name: &str) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    /// Keeps `value` as the secret `name` unless one is kept already (the first node to write wins).
    fn put_server_secret(&self, name: &str, value: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Keeps `subscription`, replacing the row of its endpoint, and forgets the player's oldest beyond
    /// `most` devices.
    fn add_push_subscription(
        &self,
        subscription: &PushSubscription,
        most: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Forgets `endpoint` if it is `player`'s; whether it was.
    fn remove_push_subscription(
        &self,
        player: PlayerId,
        endpoint: &str,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Forgets `endpoint`, whoever's it is (its push service said it is gone).
    fn forget_push_endpoint(&self, endpoint: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Every subscription of `player`, oldest first.
    fn push_subscriptions(
        &self,
        player: PlayerId,
    ) -> impl Future<Output = Result<Vec<PushSubscription>, StoreError>> + Send;
}

/// Turn-based tables asleep (`crate::store::sleeping`).
pub(super) trait Sleeping {
    /// Keeps `row`: its table is asleep (a row of the same table is replaced).
    fn put_sleeping(&self, row: &SleepRow) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The row of `table` if it is asleep.
    fn sleeping(&self, table: TableId) -> impl Future<Output = Result<Option<SleepRow>, StoreError>> + Send;

    /// Deletes the row of `table`; whether there was one.
    fn delete_sleeping(&self, table: TableId) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// At most `limit` sleeping tables whose `wake_at` is at or before `now`, earliest first.
    fn due_sleepers(
        &self,
        now: time::OffsetDateTime,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<TableId>, StoreError>> + Send;

    /// Every sleeping table.
    fn sleeping_ids(&self) -> impl Future<Output = Result<Vec<TableId>, StoreError>> + Send;

    /// The sleeping tables `player` sits at.
    fn sleeping_tables_of(&self, player: PlayerId) -> impl Future<Output = Result<Vec<SleepRow>, StoreError>> + Send;

    /// The tables not over where `player` sits (a seat taken before the start, or a player of a game in play).
    fn open_tables_of(&self, player: PlayerId) -> impl Future<Output = Result<Vec<TableId>, StoreError>> + Send;

    /// How many sleeping tables `host` hosts.
    fn sleeping_tables_hosted_by(&self, host: PlayerId) -> impl Future<Output = Result<i64, StoreError>> + Send;
}
