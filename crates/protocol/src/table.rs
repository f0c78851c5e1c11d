//! The tables: their ids and players', who may watch, the clock, the summary every list and message
//! shows, and the limits a server announces.

use romirami_game::{Level, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{Presence, ROMI_RAMI};

fn romi_rami() -> String {
    ROMI_RAMI.to_owned()
}

/// A table's public, unguessable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = String, format = Uuid)]
pub struct TableId(pub Uuid);

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A player's public id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = String, format = Uuid)]
pub struct PlayerId(pub Uuid);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Who may watch a table (the host's choice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpectatorPolicy {
    /// Anyone who knows the table's id.
    #[default]
    Everyone,
    /// Only people who have the invite link (its `invite` key).
    Link,
    /// Nobody but the players.
    Nobody,
}

/// A table's turn clock: each turn has `turn_ms`; a seat that takes longer spends its reserve, and a
/// seat that runs out of both is played by the server's bot until its player comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// The time of each turn, in milliseconds.
    pub turn_ms: u64,
    /// The reserve of each seat for the whole game, in milliseconds.
    pub reserve_ms: u64,
}

impl Clock {
    /// Relaxed: 90 s a turn and 5 minutes of reserve.
    pub const RELAXED: Clock = Clock { turn_ms: 90_000, reserve_ms: 300_000 };
    /// Normal: 45 s a turn and 2 minutes of reserve.
    pub const NORMAL: Clock = Clock { turn_ms: 45_000, reserve_ms: 120_000 };
    /// Fast: 20 s a turn and 1 minute of reserve.
    pub const FAST: Clock = Clock { turn_ms: 20_000, reserve_ms: 60_000 };
    /// The shortest turn a table may have, in milliseconds.
    pub const MIN_TURN_MS: u64 = 100;
    /// The longest turn or reserve, in milliseconds (seven days).
    pub const MAX_MS: u64 = 7 * 86_400_000;
    /// A table whose turn is longer than this (ten minutes) is turn-based: it is played over days, and
    /// sleeps while nobody is at it (docs/architecture.md, "Turn-based tables").
    pub const TURN_BASED_AFTER_MS: u64 = 600_000;
    /// A day a turn, two days of reserve: the turn-based clock the web client offers first.
    pub const DAILY: Clock = Clock { turn_ms: 86_400_000, reserve_ms: 2 * 86_400_000 };

    /// Whether the times are within bounds.
    pub fn is_valid(self) -> bool {
        (Clock::MIN_TURN_MS..=Clock::MAX_MS).contains(&self.turn_ms) && self.reserve_ms <= Clock::MAX_MS
    }

    /// Whether a table with this clock is turn-based: a turn longer than ten minutes.
    pub fn is_turn_based(self) -> bool {
        self.turn_ms > Clock::TURN_BASED_AFTER_MS
    }
}

/// A player as others see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerInfo {
    /// The public id.
    pub id: PlayerId,
    /// The display name.
    pub name: String,
}

/// A table's state in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableState {
    /// Seats are being filled.
    Waiting,
    /// The game is on.
    Playing,
    /// The game is over; the table can still be viewed.
    Finished,
}

/// A table as the lobby and its members see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TableSummary {
    /// The table's id.
    pub id: TableId,
    /// The game it seats, by its name (`romi-rami`).
    #[serde(default = "romi_rami")]
    pub game: String,
    /// Where it stands.
    pub state: TableState,
    /// The player who opened the table: the one who may start it, kick and add bots.
    pub host: PlayerId,
    /// Whether it is listed in the lobby.
    pub public: bool,
    /// Who may watch.
    pub spectators: SpectatorPolicy,
    /// Every seat: its player, or `null` while free.
    pub seats: Vec<Option<PlayerInfo>>,
    /// How many spectators are watching.
    pub spectator_count: usize,
    /// The turn clock, if the table has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// For each seat, whether the server's bot plays it: a bot's seat, or a seat whose player ran out of
    /// time or left (until they come back).
    #[serde(default)]
    pub bots: Vec<bool>,
    /// For each seat the host gave to a bot, how well the bot plays (`easy`, `normal`, `strong`); `null`
    /// for a person's seat (whose stand-in, while the server's bot plays it, is `normal`) and a free one.
    #[serde(default)]
    #[schema(value_type = Vec<Option<String>>)]
    pub levels: Vec<Option<Level>>,
    /// From the start of the game: the commitment to its seed, 64 lower-case hex digits, the SHA-256 of
    /// `romirami-shuffle/1`, the seed (8 bytes big-endian) and a fresh 32-byte salt. The finished game's
    /// record reveals the seed and the salt, so that anyone can check that the cards came from the seed
    /// committed to before the first card was dealt (`docs/rules/record-format.md`, "Shuffle proof").
    /// Left out before the start, and for a game stored before the server sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<String>,
    /// At the start, while the table gathers the seats' contributions to the deal (before the game is
    /// dealt), and through the game when the server dealt it so: who gave each seat's contribution, and
    /// how long the server still waits for the missing ones. A seated client whose seat is `waiting`
    /// sends `contribute`. Left out before the start and for games dealt from the server's seed alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contributions: Option<Contributions>,
    /// The game's table options as the game wrote them in full (every default filled in), so that the
    /// lobby and the table can say how the game is played: `{}` for Romi Rami, e.g.
    /// `{"variant": "basic", "scoring": "positive", …, "target": 100}` for Rommi. Left out by servers
    /// that did not send it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Value>,
    /// For each seat, where its player is (`null` while the seat is free): connected, away (their
    /// connection is gone; in play their clock runs), or replaced by the server's bot.
    #[serde(default)]
    pub presence: Vec<Option<Presence>>,
    /// Whether the table's game will count for the players' ratings, as its host chose at creation: the
    /// host's bots count too, each level a player of its own (`Bot · strong`).
    #[serde(default = "yes")]
    pub rated: bool,
    /// The tournament the table's game belongs to (`docs/tournaments.md`), whose page leads back from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Uuid)]
    pub tournament: Option<Uuid>,
    /// In play, the seat whose turn it is (left out between turns and before the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<u8>)]
    pub to_act: Option<Seat>,
    /// With a clock, when the running turn ends, its seat's reserve included (RFC 3339): a turn-based
    /// table's players plan their day by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_ends_at: Option<String>,
}

/// The seats' contributions to the deal (`TableSummary::contributions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Contributions {
    /// For each seat of the game, in seat order, where its contribution comes from.
    pub seats: Vec<ContributionFrom>,
    /// While some seat is `waiting`: milliseconds before the server draws their contributions itself and
    /// deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<u64>,
}

/// Where a seat's contribution to the deal comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContributionFrom {
    /// Not sent yet.
    Waiting,
    /// Sent by the seat's player.
    Player,
    /// Drawn by the server: the seat is a bot's, or its player sent none in time.
    Server,
}

fn yes() -> bool {
    true
}

/// The recipient's place at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Seated in this seat.
    Seat(Seat),
    /// Watching as a spectator, who sees the public view only.
    Spectator,
}

/// One event with its number at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberedEvent<E> {
    /// The event's number, from 0 at the start of the game.
    pub n: usize,
    /// The event, as the recipient may see it.
    pub event: E,
}

/// The limits a connection must keep to, announced in `welcome` so that clients can pace themselves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// The largest message, in bytes.
    pub max_message_bytes: usize,
    /// Messages per second, on average.
    pub messages_per_second: f64,
    /// Messages allowed in a burst above the average.
    pub message_burst: f64,
}
