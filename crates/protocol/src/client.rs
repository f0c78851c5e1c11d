//! What a client sends: [`ClientMsg`], parsed once from a text frame by [`parse_client_msg`].

use romirami_game::{Level, Seat};
use serde::{Deserialize, Serialize};

use crate::{Clock, PlayerId, SpectatorPolicy, TableId};

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
        /// At most [`MAX_CHAT_CHARS`](crate::MAX_CHAT_CHARS) characters; the same characters as a display name may hold.
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
    /// A seat's contribution to the deal, while the table gathers them at the start (its summary's
    /// `contributions`): 32 random bytes as 64 lower-case hex digits, drawn where the server cannot see
    /// them (the web client uses Web Crypto). The game's seed is derived from the server's committed seed,
    /// its salt and every seat's contribution (`docs/rules/record-format.md`, "Shuffle proof"). Answered
    /// by the table (its `contributions` with this seat's sent), or `error`.
    Contribute {
        /// The table the sender sits at.
        table: TableId,
        /// 64 lower-case hex digits.
        value: String,
    },
    /// Say yes (`accept`) or no to playing again, once the game is over: only its players may. Every
    /// member is answered by `rematch` (the offer as it stands), `rematch_closed` or `rematch_started`.
    Rematch {
        /// The finished table.
        table: TableId,
        /// `true` to play again, `false` to decline (which closes the offer for everyone).
        accept: bool,
    },
    /// Follow a tournament: its view now (`tournament`) and at every change, and `tournament_table` when
    /// a table of it seats the sender. One tournament at a time per connection; another replaces it.
    TournamentSubscribe {
        /// The tournament.
        tournament: uuid::Uuid,
    },
    /// Stop following the tournament.
    TournamentUnsubscribe,
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
            ClientMsg::Contribute { .. } => "contribute",
            ClientMsg::Rematch { .. } => "rematch",
            ClientMsg::TournamentSubscribe { .. } => "tournament_subscribe",
            ClientMsg::TournamentUnsubscribe => "tournament_unsubscribe",
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
            | ClientMsg::Contribute { table, .. }
            | ClientMsg::Rematch { table, .. } => Some(*table),
            _ => None,
        }
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
