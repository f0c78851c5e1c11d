//! Accounts people control, in the store: a player's signed-in devices (one token each), signing out one
//! or all of them, a new password, what the store holds of a player (for their export), and the deletion
//! of an account (`migrations/*/…_accounts.sql`).
//!
//! A deleted player's row stays (games and ratings refer to it) under the name [`DELETED_NAME`], in
//! `players`, in every game's list of players and in every stored record; their kept name is freed and
//! their tokens, chat lines and push subscriptions are gone.

use serde::Serialize;
use time::OffsetDateTime;

use super::backend::Accounts;
use super::{Store, StoreError};
use crate::protocol::{PlayerId, TableId};

/// The name a deleted player shows under, everywhere.
pub const DELETED_NAME: &str = "deleted player";

/// One signed-in device of a player: a token of theirs, as stored (its hash, never the token).
#[derive(Clone, PartialEq, Eq)]
pub struct Device {
    /// The token's SHA-256 hash.
    pub token_hash: [u8; 32],
    /// When the token was given (at the guest's first hello, or at a sign-in).
    pub created_at: OffsetDateTime,
    /// How the browser named itself then (its User-Agent), when it said.
    pub device: Option<String>,
}

impl std::fmt::Debug for Device {
    /// Leaves the token's hash out: it is a secret's stand-in.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device").field("created_at", &self.created_at).field("device", &self.device).finish()
    }
}

/// A chat line a player wrote, as kept (for their export).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WrittenLine {
    /// The table it was written at.
    pub table: TableId,
    /// `players` or `spectators`.
    pub channel: String,
    /// The line.
    pub text: String,
}

/// A stored record with `seats`' names (the deleted player's) replaced by [`DELETED_NAME`]; `None` when the
/// record is not JSON with a `players` list. Records are the compact JSON the server wrote, so the
/// players' entries are replaced in the text, leaving every other byte as it was; a record written
/// another way is written again whole.
pub(super) fn record_without(record: &str, seats: &[u8]) -> Option<String> {
    let parsed: serde_json::Value = serde_json::from_str(record).ok()?;
    let players = parsed.get("players")?.as_array()?;
    let mut text = record.to_owned();
    let mut whole = parsed.clone();
    let mut by_text = true;
    for &seat in seats {
        let entry =
            players.iter().find(|p| p.get("seat").and_then(serde_json::Value::as_u64) == Some(u64::from(seat)))?;
        let name = serde_json::to_string(entry.get("name")?).ok()?;
        let written = format!("{{\"seat\":{seat},\"name\":{name}}}");
        let replaced = format!("{{\"seat\":{seat},\"name\":{}}}", serde_json::to_string(DELETED_NAME).ok()?);
        if by_text && text.matches(&written).count() == 1 {
            text = text.replacen(&written, &replaced, 1);
        } else {
            by_text = false;
        }
        if let Some(list) = whole.get_mut("players").and_then(serde_json::Value::as_array_mut) {
            for p in list.iter_mut() {
                if p.get("seat").and_then(serde_json::Value::as_u64) == Some(u64::from(seat)) {
                    p["name"] = serde_json::Value::from(DELETED_NAME);
                }
            }
        }
    }
    if by_text { Some(text) } else { serde_json::to_string(&whole).ok() }
}

impl Store {
    /// `player`'s signed-in devices, oldest first.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn devices(&self, player: PlayerId) -> Result<Vec<Device>, StoreError> {
        dispatch!(self, s => s.devices(player).await)
    }

    /// Ends the token with this hash; returns whose it was (`None`: no such token).
    ///
    /// # Errors
    /// When the write fails.
    pub async fn remove_token(&self, token_hash: &[u8; 32]) -> Result<Option<PlayerId>, StoreError> {
        dispatch!(self, s => s.remove_token(token_hash).await)
    }

    /// Ends every token of `player`'s but the one with the hash `keep`, when given; returns how many ended.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn remove_tokens(&self, player: PlayerId, keep: Option<&[u8; 32]>) -> Result<u64, StoreError> {
        dispatch!(self, s => s.remove_tokens(player, keep).await)
    }

    /// Replaces the password hash of `player`'s kept name.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when they keep no name.
    pub async fn set_password_hash(&self, player: PlayerId, password_hash: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_password_hash(player, password_hash).await)
    }

    /// The chat lines `player` wrote that the tables keep, by table.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn lines_of(&self, player: PlayerId) -> Result<Vec<WrittenLine>, StoreError> {
        dispatch!(self, s => s.lines_of(player).await)
    }

    /// Deletes `player`'s account, in one transaction: their name becomes [`DELETED_NAME`] in their row,
    /// their games and their games' records; their kept name, tokens, chat lines and push subscriptions go.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no such player is stored (or they were deleted already).
    pub async fn delete_player(&self, player: PlayerId) -> Result<(), StoreError> {
        dispatch!(self, s => s.delete_player(player).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_loses_the_deleted_names_and_nothing_else() {
        let record = r#"{"format":"romirami-record/1","players":[{"seat":0,"name":"Ana"},{"seat":1,"name":"Bo \"B\""}],"log":[{"seat":0,"name":"Ana"}]}"#;
        let without = record_without(record, &[1]).expect("a record");
        assert_eq!(
            without,
            r#"{"format":"romirami-record/1","players":[{"seat":0,"name":"Ana"},{"seat":1,"name":"deleted player"}],"log":[{"seat":0,"name":"Ana"}]}"#
        );
        // The same entry twice in the text: written again whole, the log's copy untouched.
        let twice = record_without(record, &[0]).expect("a record");
        let parsed: serde_json::Value = serde_json::from_str(&twice).expect("JSON");
        assert_eq!(parsed["players"][0]["name"], "deleted player");
        assert_eq!(parsed["players"][1]["name"], "Bo \"B\"");
        assert_eq!(parsed["log"][0]["name"], "Ana");
        assert_eq!(record_without("not json", &[0]), None);
        assert_eq!(record_without(r#"{"players":[]}"#, &[0]), None);
    }
}
