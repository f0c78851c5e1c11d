//! What the store takes and gives: plain values, the same for both backends and for every game.

use std::fmt;
use std::str::FromStr;

use romirami_game::commitment::{Contribution, Salt};
use romirami_game::{Outcome, Seat};
use time::OffsetDateTime;
use uuid::Uuid;

use super::RatingChange;
use crate::protocol::{Clock, PlayerId, PlayerInfo, SpectatorPolicy, TableId};

/// A table as stored when it is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// The table's id, also its game's.
    pub id: TableId,
    /// The game it seats, by its name (`romi-rami`).
    pub game: String,
    /// The player who opened the table, who may start it, kick and add bots.
    pub host: PlayerId,
    /// How many seats, 2 to [`MAX_SEATS`](super::MAX_SEATS).
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
    /// Whether its game counts for the ratings, as the host chose (see [`ratings`](super::ratings)).
    pub rated: bool,
    /// The tournament its game belongs to, if any: then it is not abandoned when its players are away
    /// (the bot plays for them), offers no rematch and is not listed in the lobby.
    pub tournament: Option<Uuid>,
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

impl GamePlayer {
    /// The level of the host's bot that played the seat: its player's ([`crate::bots`]); `normal` for a
    /// bot stored before bots had levels; none for a person.
    pub fn level(&self) -> Option<romirami_game::Level> {
        self.bot.then(|| crate::bots::level_of(self.id).unwrap_or(romirami_game::Level::Normal))
    }
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
    /// In a cluster, the lease the writing node holds on the table: the row is appended only while that
    /// lease is the table's current one. `None` on a single node.
    pub fence: Option<Fence>,
}

/// A node's lease on a table, as a write presents it: the write goes through only while this lease is the
/// table's current, unexpired one (PostgreSQL only; see `migrations/postgres/0013_table_leases.sql`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fence {
    /// The node holding the lease.
    pub node: String,
    /// The lease's epoch: one more at every grant of the table to a node.
    pub epoch: u64,
}

/// What became of a batch of actions that was committed: every row was appended but those refused by
/// their fence, whose indices are listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Appended {
    /// The indices, in the batch, of the rows whose lease was no longer current: not written.
    pub fenced: Vec<usize>,
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
    /// The server's seed, committed to at the start: with no contributions the game's
    /// `new(players.len(), seed, options)` deals it, else the seed derived from it, the salt and them.
    pub seed: u64,
    /// The salt of the commitment to the seed sent at the start; `None` for a game stored before games
    /// had one (its record carries no shuffle proof).
    pub salt: Option<Salt>,
    /// The seats' contributions to the deal, in seat order; none for a game dealt from the seed alone.
    pub contributions: Vec<Contribution>,
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

/// A table as stored, wherever it is played: what its invite page says about it.
#[derive(Clone, Debug)]
pub struct StoredTable {
    /// The table as it was created.
    pub table: TableRow,
    /// Waiting for its game, playing it, or finished.
    pub state: crate::protocol::TableState,
    /// Whether the host gave a seat to a bot of the time before bots had levels, which was no player of
    /// its own ([`crate::bots`]): that makes a rated table's game casual.
    pub old_bot: bool,
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
    /// The player's rating in this game before and after it; `None` when the game did not count.
    pub rating: Option<RatingChange>,
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
    /// Whether its table was rated (the host's choice); whether the game counted is in the results.
    pub table_rated: bool,
    /// The game's options as its table kept them (a JSON object; `{}` for a game without options).
    pub options: serde_json::Value,
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
    pub(super) finished_at: i64,
    /// The last game's id, which orders games that finished at the same instant.
    pub(super) id: Uuid,
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
    pub(super) fn after(game: &GameSummary) -> GameCursor {
        GameCursor { finished_at: super::codec::micros(game.finished_at), id: game.id.0 }
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
    /// The same figures for each game they played, and their places, in the order of the games' names.
    pub by_game: Vec<super::GameStats>,
    /// Their latest finished games, newest first (at most [`RECENT_GAMES`](super::RECENT_GAMES)).
    pub recent: Vec<GameSummary>,
}

/// A chat message as both backends write it: its number, and the oldest number its table keeps once it
/// is in, as SQL integers; its channel as the text stored.
pub(super) struct ChatEntry<'a> {
    pub(super) table: TableId,
    pub(super) n: i64,
    pub(super) oldest: i64,
    pub(super) from: &'a PlayerInfo,
    pub(super) channel: &'static str,
    pub(super) text: &'a str,
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
    fn a_player_filter_is_an_id_or_a_name() {
        let id = Uuid::new_v4();
        assert_eq!(PlayerFilter::parse(&id.to_string()), PlayerFilter::Id(PlayerId(id)));
        assert_eq!(PlayerFilter::parse("Ana"), PlayerFilter::Name("Ana".into()));
    }
}
