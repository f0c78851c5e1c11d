//! What the server sends: [`ServerMsg`], and the stable [`ErrorCode`] of every error it answers.

use romirami_game::Seat;
use serde::{Deserialize, Serialize};

use crate::{
    ChatLine, Limits, NumberedEvent, PlayerId, PlayerInfo, Presence, PresenceChange, RematchEnd, Role, TableId,
    TableSummary,
};

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
    /// The player is banned: refused at `hello` (and their open connections closed); the message says how
    /// many minutes are left and why.
    Banned,
    /// The token this connection said hello with was ended (a sign-out, a sign-out everywhere, a new
    /// password, a deleted account): the server closes the connection next.
    SignedOut,
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
    /// No such tournament.
    NoSuchTournament,
    /// The seat count or options are not allowed.
    BadOptions,
    /// The player hosts as many open tables as allowed.
    TooManyTables,
    /// All seats are taken.
    TableFull,
    /// The game has started (or is being dealt): seats can no longer change.
    AlreadyStarted,
    /// A `contribute` whose value is not 64 lower-case hex digits.
    BadContribution,
    /// A `contribute` when the table is not gathering contributions (before the start, or once dealt).
    NotDealing,
    /// A `contribute` from a seat that has one already (its first stands).
    AlreadyContributed,
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
        /// The last [`CHAT_HISTORY`](crate::CHAT_HISTORY) messages at most, in order, without those of muted players.
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
    /// A followed tournament as it stands (`GET /api/tournaments/{id}`'s body): on subscribing and at
    /// every change (a join, a table's end, a new round, the countdown, the end).
    Tournament {
        /// The tournament's view.
        tournament: serde_json::Value,
    },
    /// A table of the followed tournament seats the recipient: their game is on (join `table`; until
    /// they do, their turns run on the clock and the bot plays them when it runs out).
    TournamentTable {
        /// The tournament.
        tournament: uuid::Uuid,
        /// The table.
        table: TableId,
        /// Its round.
        round: u32,
        /// Its players in seat order.
        seats: Vec<PlayerId>,
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
