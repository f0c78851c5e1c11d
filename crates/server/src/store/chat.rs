//! The tables' chat in the store: each table's last [`CHAT_HISTORY`] messages, kept so that a reload, a
//! late spectator or a restarted server shows the same history. Never part of a game's record, never
//! served by the REST API.

use super::backend::Talk;
use super::types::ChatEntry;
use super::{Fence, Store, StoreError};
use crate::protocol::{CHAT_HISTORY, ChatChannel, ChatLine, PlayerInfo, TableId};

/// One chat message of a table, to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// The table.
    pub table: TableId,
    /// The message.
    pub line: ChatLine,
}

pub(super) fn channel_text(channel: ChatChannel) -> &'static str {
    match channel {
        ChatChannel::Players => "players",
        ChatChannel::Spectators => "spectators",
    }
}

fn channel_from(text: &str) -> Result<ChatChannel, StoreError> {
    match text {
        "players" => Ok(ChatChannel::Players),
        "spectators" => Ok(ChatChannel::Spectators),
        other => Err(StoreError::Corrupt(format!("{other:?} is not a chat channel"))),
    }
}

fn number(n: u64) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Other(format!("chat message number {n} is too large")))
}

/// The oldest message number a table keeps once message `n` is in.
fn oldest_kept(n: u64) -> Result<i64, StoreError> {
    number(n.saturating_sub(CHAT_HISTORY as u64 - 1))
}

/// A stored chat message, as both backends read it.
///
/// # Errors
/// [`StoreError::Corrupt`] for a negative number or an unknown channel.
pub(super) fn line(n: i64, from: PlayerInfo, channel: &str, text: String) -> Result<ChatLine, StoreError> {
    let n = u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("chat message number {n}")))?;
    Ok(ChatLine { n, from, channel: channel_from(channel)?, text })
}

impl Store {
    /// Stores a chat message, and forgets the table's messages older than its last [`CHAT_HISTORY`].
    /// With a `fence` (a cluster's node), the message is stored only while that lease is the table's
    /// current one, as an action is: a node that lost the table never stores, and so never shows, another
    /// message of it.
    ///
    /// # Errors
    /// When the write fails (the table is not stored, or the number is taken); [`StoreError::Fenced`] when
    /// `fence` is not the table's current lease; [`StoreError::Other`] for a fence on SQLite.
    pub async fn append_chat(&self, row: &ChatRow, fence: Option<&Fence>) -> Result<(), StoreError> {
        let ChatRow { table, line } = row;
        let entry = ChatEntry {
            table: *table,
            n: number(line.n)?,
            oldest: oldest_kept(line.n)?,
            from: &line.from,
            channel: channel_text(line.channel),
            text: &line.text,
        };
        dispatch!(self, s => s.append_chat(&entry, fence).await)
    }

    /// A table's kept chat messages, oldest first (at most [`CHAT_HISTORY`]).
    ///
    /// # Errors
    /// When the store cannot be read, or a row does not parse ([`StoreError::Corrupt`]).
    pub async fn chat(&self, table: TableId) -> Result<Vec<ChatLine>, StoreError> {
        let mut lines = dispatch!(self, s => s.chat(table, CHAT_HISTORY as i64).await)?;
        lines.reverse();
        Ok(lines)
    }
}
