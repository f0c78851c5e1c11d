//! Being at a table together: who is there (presence) and the table's chat.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::PlayerInfo;

/// Where a seat's player is, as every member of the table sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// The player is connected (and plays the seat, or gets it back at their next turn).
    Here,
    /// The player's connection is gone; while the game is on, their clock runs as if they were there.
    Away,
    /// The server's bot plays the seat: a bot's seat, or a player who left or ran out of time.
    Bot,
}

/// Why a seat's presence changed, for the game log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PresenceChange {
    /// The player's last connection to the table closed.
    Disconnected,
    /// The player left the table during the game: the bot plays the seat.
    Left,
    /// The player ran out of time: the bot plays the seat.
    OutOfTime,
    /// The player came back to their seat.
    Back,
}

/// The most characters (Unicode scalar values, combining marks riding on the one before) a chat message
/// may have.
pub const MAX_CHAT_CHARS: usize = 300;

/// How many chat messages a table keeps (and shows to whoever comes): the most recent ones.
pub const CHAT_HISTORY: usize = 200;

/// Which of a table's two chats a message is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// The players' chat: everyone at the table reads it.
    Players,
    /// The spectators' chat: the players read it only once the game is over.
    Spectators,
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Its number at the table, from 0, in the order the table took the messages.
    pub n: u64,
    /// Who wrote it.
    pub from: PlayerInfo,
    /// The chat it is in.
    pub channel: ChatChannel,
    /// What they wrote: plain text, to be shown as text (never as markup).
    pub text: String,
}
