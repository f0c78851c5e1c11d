//! The tables' chat in the store: each table's last [`CHAT_HISTORY`] messages, kept so that a reload, a
//! late spectator or a restarted server shows the same history. Never part of a game's record, never
//! served by the REST API.

use sqlx::Row;
use uuid::Uuid;

use super::{Fence, Store, StoreError};
use crate::protocol::{CHAT_HISTORY, ChatChannel, ChatLine, PlayerId, PlayerInfo, TableId};

/// One chat message of a table, to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// The table.
    pub table: TableId,
    /// The message.
    pub line: ChatLine,
}

fn channel_text(channel: ChatChannel) -> &'static str {
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

impl Store {
    /// Stores a chat message, and forgets the table's messages older than its last [`CHAT_HISTORY`].
    /// With a `fence` (a cluster's node), the message is stored only while that lease is the table's
    /// current one, as an action is: a node that lost the table never stores, and so never shows, another
    /// message of it.
    ///
    /// # Errors
    /// When the write fails (the table is not stored, or the number is taken); [`StoreError::Fenced`] when
    /// `fence` is not the table's current lease.
    pub async fn append_chat(&self, row: &ChatRow, fence: Option<&Fence>) -> Result<(), StoreError> {
        let ChatRow { table, line } = row;
        let (n, oldest) = (number(line.n)?, oldest_kept(line.n)?);
        let channel = channel_text(line.channel);
        match self {
            Store::Sqlite(_) if fence.is_some() => return Err(super::leases::needs_postgres()),
            Store::Sqlite(s) => {
                let mut tx = s.pool().begin().await?;
                let id = table.0.hyphenated().to_string();
                sqlx::query(
                    "INSERT INTO chat (table_id, n, player_id, name, channel, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .bind(&id)
                .bind(n)
                .bind(line.from.id.0.hyphenated().to_string())
                .bind(&line.from.name)
                .bind(channel)
                .bind(&line.text)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM chat WHERE table_id = ?1 AND n < ?2")
                    .bind(&id)
                    .bind(oldest)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
            Store::Postgres(s) => {
                let mut tx = s.pool().begin().await?;
                if let Some(fence) = fence {
                    // Holds the lease row until the commit, so the table is not granted to another node
                    // in between.
                    s.hold_lease(&mut tx, *table, fence).await?;
                }
                sqlx::query(
                    "INSERT INTO chat (table_id, n, player_id, name, channel, text) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(table.0)
                .bind(n)
                .bind(line.from.id.0)
                .bind(&line.from.name)
                .bind(channel)
                .bind(&line.text)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM chat WHERE table_id = $1 AND n < $2")
                    .bind(table.0)
                    .bind(oldest)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
        }
        Ok(())
    }

    /// A table's kept chat messages, oldest first (at most [`CHAT_HISTORY`]).
    ///
    /// # Errors
    /// When the store cannot be read, or a row does not parse ([`StoreError::Corrupt`]).
    pub async fn chat(&self, table: TableId) -> Result<Vec<ChatLine>, StoreError> {
        let limit = CHAT_HISTORY as i64;
        let rows: Vec<(i64, Uuid, String, String, String)> = match self {
            Store::Sqlite(s) => {
                let rows = sqlx::query(
                    "SELECT n, player_id, name, channel, text FROM chat WHERE table_id = ?1 ORDER BY n DESC LIMIT ?2",
                )
                .bind(table.0.hyphenated().to_string())
                .bind(limit)
                .fetch_all(s.pool())
                .await?;
                rows.iter()
                    .map(|row| {
                        let id: String = row.try_get("player_id")?;
                        let id =
                            Uuid::parse_str(&id).map_err(|_| StoreError::Corrupt(format!("{id:?} is not a UUID")))?;
                        Ok((row.try_get("n")?, id, row.try_get("name")?, row.try_get("channel")?, row.try_get("text")?))
                    })
                    .collect::<Result<_, StoreError>>()?
            }
            Store::Postgres(s) => {
                let rows = sqlx::query(
                    "SELECT n, player_id, name, channel, text FROM chat WHERE table_id = $1 ORDER BY n DESC LIMIT $2",
                )
                .bind(table.0)
                .bind(limit)
                .fetch_all(s.pool())
                .await?;
                rows.iter()
                    .map(|row| {
                        Ok((
                            row.try_get("n")?,
                            row.try_get("player_id")?,
                            row.try_get("name")?,
                            row.try_get("channel")?,
                            row.try_get("text")?,
                        ))
                    })
                    .collect::<Result<_, StoreError>>()?
            }
        };
        rows.into_iter()
            .rev()
            .map(|(n, id, name, channel, text)| {
                let n = u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("chat message number {n}")))?;
                Ok(ChatLine { n, from: PlayerInfo { id: PlayerId(id), name }, channel: channel_from(&channel)?, text })
            })
            .collect()
    }
}
