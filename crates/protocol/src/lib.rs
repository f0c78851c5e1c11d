//! The WebSocket protocol: every message a client sends ([`ClientMsg`]) and every message the server
//! sends ([`ServerMsg`]), as JSON objects tagged by `type`. `docs/protocol.md` shows each with an example.
//!
//! Incoming text is parsed once, here, into typed messages; the rest of the server never sees JSON.
//! Outgoing messages are serialized once per kind of recipient (a seat, or the spectators) and the
//! same bytes are handed to every connection of that kind.
//!
//! It is a crate of its own, which needs only `romirami-game` (for [`romirami_game::Seat`]) and serde,
//! so that what parses untrusted input can be built, tested and fuzzed (`fuzz/`) without the server's
//! network and database stack; the server re-exports it as `romirami_server::protocol`. It names no
//! game: a game's payloads (its actions, views, events, legal actions and result) are type parameters,
//! JSON in the server and a game's own types in a client of that game.
#![forbid(unsafe_code)]

use std::fmt;
use utoipa::ToSchema;

use romirami_game::{Level, Seat};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

mod rematch;
mod together;
pub use rematch::RematchEnd;
pub use together::{CHAT_HISTORY, ChatChannel, ChatLine, MAX_CHAT_CHARS, Presence, PresenceChange};

/// The name of the game Romi Rami, as tables, stored games and the REST API name it.
pub const ROMI_RAMI: &str = "romi-rami";

fn romi_rami() -> String {
    ROMI_RAMI.to_owned()
}

/// The protocol version the server speaks; a client says which one it speaks in its `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

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

/// A message from a client. `A` is the action of `act` in the table's game's form: a client of one game
/// names its game's action type (`romirami_client::romi_rami::ClientMsg` is Romi Rami's); the server
/// reads it as JSON and leaves it to the table's game. The protocol knows no game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg<A> {
    /// The first message on a connection: the protocol version, and either the token of a returning
    /// player or the display name of a new guest.
    Hello {
        /// The protocol version the client speaks.
        protocol: u32,
        /// A returning player's secret token.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// A new guest's display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Receive the list of public tables now and every change to it from now on.
    LobbySubscribe,
    /// Stop receiving lobby changes.
    LobbyUnsubscribe,
    /// Open a new table, hosted by the sender, who sits in its first seat.
    CreateTable {
        /// How many seats, 2 to 4.
        seats: u8,
        /// Whether it is listed in the lobby.
        #[serde(default)]
        public: bool,
        /// Who may watch.
        #[serde(default)]
        spectators: SpectatorPolicy,
        /// The turn clock; none for a friendly table.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Clock>,
        /// The game to play, by its name; Romi Rami (`romi-rami`) when none is given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        /// The game's table options (targets, variants); the rule book's defaults when none are given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<serde_json::Value>,
        /// Whether the game counts for the players' ratings (`true`) or is casual (`false`); rated when
        /// not given. A game with a bot's seat, an abandoned game or one with an unnamed player never
        /// counts, whatever the table says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rated: Option<bool>,
    },
    /// Sit down at a table, or come back to one's seat. `since` is the number of events the client
    /// already has, to receive only the missed ones.
    Join {
        /// The table to sit at, as the lobby or the invite link names it.
        table: TableId,
        /// The invite key from the invite link; needed for a private table.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
        /// How many of the table's events the client has already seen.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<usize>,
    },
    /// Watch a table as a spectator.
    Watch {
        /// The table to watch.
        table: TableId,
        /// The invite key, when the table lets only people with the link watch.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
        /// How many of the table's events the client has already seen.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<usize>,
    },
    /// Stop watching, or give up one's seat before the game starts.
    Leave {
        /// The table to leave.
        table: TableId,
    },
    /// The host starts the game (at least 2 seats filled).
    Start {
        /// The table to start, which the sender hosts.
        table: TableId,
    },
    /// The host removes a seated player before the start.
    Kick {
        /// The table the seat is at, which the sender hosts.
        table: TableId,
        /// The seat to free.
        seat: Seat,
    },
    /// The host gives the first free seat to a bot of `level`, before the start.
    AddBot {
        /// The table whose first free seat the bot takes, which the sender hosts.
        table: TableId,
        /// How well the bot plays: `easy`, `normal` (when left out) or `strong`.
        #[serde(default)]
        level: Level,
    },
    /// Earlier events of a table's game, for a member rebuilding its log (after a reload, or a spectator
    /// arriving late) when a catch-up answered with the full table instead: answered by `history` with at
    /// most the server's catch-up limit of events from `from` on, filtered for the sender's role.
    History {
        /// The table, which the sender is a member of.
        table: TableId,
        /// The number of the first event wanted.
        from: usize,
    },
    /// Play an action in one's seat. Answered by `ack` or `error` with the same `id`.
    Act {
        /// The table whose game the sender is seated in.
        table: TableId,
        /// The client's number for this action, echoed in the answer.
        id: u64,
        /// What the sender plays, one of the legal actions its `your_turn` listed, in the table's game's
        /// own form.
        action: A,
    },
    /// Say something in the table's chat: the players' chat from a seat, the spectators' chat from a
    /// spectator. Answered by the `chat` message that carries it, or `error`.
    Chat {
        /// The table the sender is at.
        table: TableId,
        /// At most [`MAX_CHAT_CHARS`] characters; the same characters as a display name may hold.
        text: String,
    },
    /// Stop (or start again) receiving another member's chat messages, for oneself only. Answered by
    /// `muted`.
    Mute {
        /// The table the sender is at.
        table: TableId,
        /// Whose messages.
        player: PlayerId,
        /// `true` to mute, `false` to hear them again.
        muted: bool,
    },
    /// Say yes (`accept`) or no to playing again, once the game is over: only its players may. Every
    /// member is answered by `rematch` (the offer as it stands), `rematch_closed` or `rematch_started`.
    Rematch {
        /// The finished table.
        table: TableId,
        /// `true` to play again, `false` to decline (which closes the offer for everyone).
        accept: bool,
    },
}

impl<A> ClientMsg<A> {
    /// The message's `type`, for logs and metrics.
    pub const fn kind(&self) -> &'static str {
        match self {
            ClientMsg::Hello { .. } => "hello",
            ClientMsg::LobbySubscribe => "lobby_subscribe",
            ClientMsg::LobbyUnsubscribe => "lobby_unsubscribe",
            ClientMsg::CreateTable { .. } => "create_table",
            ClientMsg::Join { .. } => "join",
            ClientMsg::Watch { .. } => "watch",
            ClientMsg::Leave { .. } => "leave",
            ClientMsg::Start { .. } => "start",
            ClientMsg::Kick { .. } => "kick",
            ClientMsg::AddBot { .. } => "add_bot",
            ClientMsg::History { .. } => "history",
            ClientMsg::Act { .. } => "act",
            ClientMsg::Chat { .. } => "chat",
            ClientMsg::Mute { .. } => "mute",
            ClientMsg::Rematch { .. } => "rematch",
        }
    }

    /// The table the message is about, if any.
    pub const fn table(&self) -> Option<TableId> {
        match self {
            ClientMsg::Join { table, .. }
            | ClientMsg::Watch { table, .. }
            | ClientMsg::Leave { table }
            | ClientMsg::Start { table }
            | ClientMsg::AddBot { table, .. }
            | ClientMsg::Kick { table, .. }
            | ClientMsg::History { table, .. }
            | ClientMsg::Act { table, .. }
            | ClientMsg::Chat { table, .. }
            | ClientMsg::Mute { table, .. }
            | ClientMsg::Rematch { table, .. } => Some(*table),
            _ => None,
        }
    }
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
    /// The longest turn or reserve, in milliseconds (one day).
    pub const MAX_MS: u64 = 86_400_000;

    /// Whether the times are within bounds.
    pub fn is_valid(self) -> bool {
        (Clock::MIN_TURN_MS..=Clock::MAX_MS).contains(&self.turn_ms) && self.reserve_ms <= Clock::MAX_MS
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

/// A stable error code, for programs; each error also carries a sentence for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol.
    Malformed,
    /// A frame larger than the limit.
    TooLarge,
    /// Binary frames are not part of the protocol.
    Binary,
    /// The client speaks another protocol version.
    UnsupportedProtocol,
    /// A message before `hello`.
    HelloFirst,
    /// A second `hello`.
    AlreadyGreeted,
    /// The token is not a player's.
    BadToken,
    /// The display name is empty, too long, has invisible or control characters, or reads as a
    /// server bot's.
    BadName,
    /// Another player keeps this display name (claimed with a password, in some case or width): a new
    /// guest must choose another.
    NameTaken,
    /// A chat message is empty, too long, or has invisible or control characters.
    BadChat,
    /// A `mute` names the sender or someone who is not at the table.
    BadMute,
    /// No such table (or it is private and the invite key is wrong).
    NoSuchTable,
    /// The seat count or options are not allowed.
    BadOptions,
    /// The player hosts as many open tables as allowed.
    TooManyTables,
    /// All seats are taken.
    TableFull,
    /// The game has started: seats can no longer change.
    AlreadyStarted,
    /// Only the host may do that.
    NotHost,
    /// The start needs at least 2 seated players.
    NotEnoughPlayers,
    /// The table's policy does not let this client watch.
    SpectatingNotAllowed,
    /// The sender is not seated at this table (for an action), or not at it at all.
    NotSeated,
    /// The game has not started.
    NotStarted,
    /// The game is not over yet (a `rematch` before the end).
    NotFinished,
    /// No rematch offer is open at the table: it was declined, timed out or started, or the game ended
    /// without one (abandoned).
    NoRematch,
    /// The game is over: no action is taken any more.
    GameOver,
    /// It is another seat's turn.
    NotYourTurn,
    /// The action breaks a rule; the message names it.
    IllegalAction,
    /// Too many messages too fast.
    RateLimited,
    /// The client's address has as many connections open as the server allows; the connection is
    /// closed.
    TooManyConnections,
    /// The client's address created as many new guests as the server allows per minute.
    TooManyGuests,
    /// The server has as many live tables as it allows: no new one for now.
    ServerFull,
    /// The server is shutting down.
    ShuttingDown,
    /// The database did not answer: nothing was done (an action was not played); try again shortly.
    Unavailable,
    /// The table moved to another server node of the site (its node stopped, or lost touch with the
    /// others): nothing was lost; join it again, with `since`, to carry on.
    TableMoved,
    /// Something went wrong on the server; nothing about it is shown.
    Internal,
}

/// A message from the server.
///
/// The game's payloads — `V` the view, `E` an event, `L` the legal actions, `R` the result — are the
/// types of the table's game: a client of one game reads them as its game's types
/// (`romirami_client::romi_rami::ServerMsg` is Romi Rami's), the server, which seats any game, writes
/// them as the JSON its game gave. The protocol knows no game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<V, E, L, R> {
    /// The answer to `hello`.
    Welcome {
        /// The protocol version the server speaks.
        protocol: u32,
        /// Who the client is.
        player: PlayerInfo,
        /// A new guest's secret token: keep it to come back; it is sent only this once.
        #[serde(skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// The limits this connection must keep to.
        limits: Limits,
    },
    /// The public tables (after `lobby_subscribe`, or when the client fell behind).
    Lobby {
        /// Every public table that is waiting or playing.
        tables: Vec<TableSummary>,
    },
    /// A public table opened or changed.
    LobbyTable {
        /// The table as it is now.
        table: TableSummary,
    },
    /// A public table left the lobby (it finished, or closed).
    LobbyTableRemoved {
        /// The table that is no longer listed.
        table: TableId,
    },
    /// The table the client asked to create.
    TableCreated {
        /// The new table.
        table: TableSummary,
        /// The invite key; the invite link carries it.
        invite: String,
    },
    /// The full state of a table for the recipient: sent on joining or watching, on a catch-up from too
    /// long ago, and when the seats change before the start.
    Table {
        /// The table as the recipient may see it.
        table: TableSummary,
        /// The recipient's place.
        role: Role,
        /// The game as the recipient may see it, once it has started.
        #[serde(skip_serializing_if = "Option::is_none")]
        view: Option<V>,
    },
    /// New events of a table's game, in order, filtered for the recipient.
    Events {
        /// The table whose game the events are of.
        table: TableId,
        /// The new events, numbered from where the recipient's previous ones stopped.
        events: Vec<NumberedEvent<E>>,
    },
    /// The game as the recipient may now see it, sent right after each batch of `events` for a game whose
    /// events do not carry everything its view holds (the rummy family's): the client puts it in place of
    /// the view it held, and never has to ask for the table again to follow the game.
    View {
        /// The table whose game it is.
        table: TableId,
        /// The game, filtered for the recipient (its `event_count` says up to which event).
        view: V,
    },
    /// The answer to `history`: earlier events, in order, filtered for the recipient, for its log only (the
    /// view the recipient holds already includes them). Empty when `from` is at or past the last event.
    History {
        /// The table whose game the events are of.
        table: TableId,
        /// The events from the one asked for on, at most the server's catch-up limit of them.
        events: Vec<NumberedEvent<E>>,
    },
    /// The clocks, when a turn starts or a member arrives at a table with a clock: who is to act, the
    /// time left of their turn and every seat's reserve, in milliseconds, as of sending.
    Clocks {
        /// The table whose clocks these are.
        table: TableId,
        /// The seat to act; none once the game is over.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to_act: Option<Seat>,
        /// What is left of the turn.
        turn_ms: u64,
        /// Each seat's reserve.
        reserves_ms: Vec<u64>,
    },
    /// A choice outside the turns is asked of `seat` (Rumino's rebuy): it has `left_ms` milliseconds to
    /// make it, as of sending, while the turn clock stands still; then the bot's choice is made for it.
    /// Sent to every member when the choice is asked, and to a member who arrives while it is open.
    Choice {
        /// The table where the choice is asked.
        table: TableId,
        /// The seat asked.
        seat: Seat,
        /// The time left to choose.
        left_ms: u64,
    },
    /// It is the recipient's turn: what it may do.
    YourTurn {
        /// The table where it is the recipient's turn.
        table: TableId,
        /// Every distinct legal action.
        legal: L,
    },
    /// The action with this `id` was applied; its events follow (or came) in `events`.
    Ack {
        /// The table the action was played at.
        table: TableId,
        /// The client's id for the action.
        id: u64,
        /// The number of events the table has now.
        events: usize,
    },
    /// The game is over: the final scores and the winners.
    GameOver {
        /// The table whose game ended.
        table: TableId,
        /// The result, every part revealed.
        result: R,
    },
    /// A seat's player came or went (during the game): where they are now, and why it changed.
    Presence {
        /// The table.
        table: TableId,
        /// The seat.
        seat: Seat,
        /// Where its player is now.
        presence: Presence,
        /// What happened, for the game log.
        change: PresenceChange,
    },
    /// New chat messages the recipient may read.
    Chat {
        /// The table whose chat it is.
        table: TableId,
        /// The messages, in order.
        lines: Vec<ChatLine>,
    },
    /// Every chat message the recipient may read, in place of what it had: on joining or watching, and
    /// when the game ends (the players then read the spectators' chat too).
    ChatHistory {
        /// The table whose chat it is.
        table: TableId,
        /// The last [`CHAT_HISTORY`] messages at most, in order, without those of muted players.
        lines: Vec<ChatLine>,
    },
    /// The answer to `mute`: the recipient no longer receives (or again receives) this player's messages.
    Muted {
        /// The table.
        table: TableId,
        /// The player.
        player: PlayerId,
        /// Whether they are muted now.
        muted: bool,
    },
    /// The rematch offer as it stands, to every member of the finished table: when the game ends, at each
    /// answer, and on joining. Seats a bot plays have said yes already.
    Rematch {
        /// The finished table.
        table: TableId,
        /// For each seat, whether it said yes.
        accepted: Vec<bool>,
        /// The time left to answer, in milliseconds, as of sending; then the offer closes.
        remaining_ms: u64,
    },
    /// The rematch offer closed without a new game: a player declined, or time ran out. The table then
    /// closes as any finished table does.
    RematchClosed {
        /// The finished table.
        table: TableId,
        /// Why.
        reason: RematchEnd,
        /// The seat that declined.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Everyone said yes: the new game is on at the table `rematch`, with the same players in the same
    /// seats and the same options and invite key. The recipient is no longer a member of `table`: a
    /// player joins `rematch` (their seat is theirs), a spectator watches it. Also the answer to a `join`
    /// or `watch` of `table` from then on, for whoever may see it.
    RematchStarted {
        /// The finished table.
        table: TableId,
        /// The new table, where the next game is played.
        rematch: TableId,
    },
    /// The recipient no longer is at the table (it left, or the host removed it).
    Left {
        /// The table the recipient is no longer at.
        table: TableId,
    },
    /// A request was refused.
    Error {
        /// The table the request was about.
        #[serde(skip_serializing_if = "Option::is_none")]
        table: Option<TableId>,
        /// The `id` of the refused action.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// What kind of error.
        code: ErrorCode,
        /// A sentence for people.
        message: String,
    },
}

impl<V: Serialize, E: Serialize, L: Serialize, R: Serialize> ServerMsg<V, E, L, R> {
    /// An error about `table` (and the action `id`, for an `act`).
    pub fn error(table: Option<TableId>, id: Option<u64>, code: ErrorCode, message: impl Into<String>) -> Self {
        ServerMsg::Error { table, id, code, message: message.into() }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        // Serializing these types cannot fail: every map key is a string and no Serialize impl errs.
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"type":"error","code":"internal","message":"the server could not write a message"}"#.to_owned()
        })
    }
}

/// Parses one text frame whose action is read as `A` (the server reads it as JSON, for the table's game
/// to read).
///
/// # Errors
/// A sentence saying what is wrong with it, safe to send back.
pub fn parse_client_msg<A: serde::de::DeserializeOwned>(text: &str) -> Result<ClientMsg<A>, String> {
    serde_json::from_str(text).map_err(|e| {
        // serde's message names fields and types of the protocol, never server state.
        let message = e.to_string();
        // At most 200 bytes, cut at a character boundary: the message may quote the client's text.
        let end = (0..=message.len().min(200)).rev().find(|&i| message.is_char_boundary(i)).unwrap_or(0);
        message[..end].to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client message whose action is read as JSON, as the server reads it.
    fn parse(text: &str) -> Result<ClientMsg<serde_json::Value>, String> {
        parse_client_msg(text)
    }

    #[test]
    fn client_messages_parse_from_their_documented_form() {
        let hello = parse(r#"{"type":"hello","protocol":1,"name":"Ana"}"#);
        assert_eq!(hello, Ok(ClientMsg::Hello { protocol: 1, token: None, name: Some("Ana".into()) }));
        let act = parse(
            r#"{"type":"act","table":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11","id":3,"action":{"type":"take","cards":["3he","3cl"]}}"#,
        );
        assert!(matches!(act, Ok(ClientMsg::Act { id: 3, .. })), "{act:?}");
        assert!(parse(r#"{"type":"hello","protocol":1,"extra":1}"#).is_err());
        assert!(parse(r#"{"type":"nope"}"#).is_err());
        assert!(parse("not json").is_err());
        // serde quotes the unknown type; the error must be cut between characters, not inside one.
        let long = format!(r#"{{"type":"{}"}}"#, "é".repeat(120));
        assert!(parse(&long).is_err_and(|message| message.len() <= 200));
    }

    #[test]
    fn a_table_is_rated_or_casual_and_nothing_else() {
        let rated = |json: &str| match parse(json) {
            Ok(ClientMsg::CreateTable { rated, .. }) => Ok(rated),
            other => Err(format!("{other:?}")),
        };
        assert_eq!(rated(r#"{"type":"create_table","seats":2}"#), Ok(None), "rated unless said");
        assert_eq!(rated(r#"{"type":"create_table","seats":2,"rated":false}"#), Ok(Some(false)));
        assert_eq!(rated(r#"{"type":"create_table","seats":2,"rated":true}"#), Ok(Some(true)));
        for hostile in [r#""yes""#, "1", "null", "[]", r#"{"rated":true}"#] {
            let json = format!(r#"{{"type":"create_table","seats":2,"rated":{hostile}}}"#);
            // `null` reads as not said; anything but a boolean is malformed.
            assert!(rated(&json).is_err() || hostile == "null", "{json}");
        }
        // A summary written before tables were rated or casual reads as rated.
        let summary: TableSummary = serde_json::from_str(
            r#"{"id":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11","state":"waiting","host":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11",
                "public":true,"spectators":"everyone","seats":[null,null],"spectator_count":0}"#,
        )
        .expect("a summary");
        assert!(summary.rated);
    }
}
