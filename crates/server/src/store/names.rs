//! Names you keep, in the store: a player's claim on their name (the name as it is compared, and the
//! argon2id hash of their password) and the tokens given to them at each sign-in.
//!
//! The store compares nothing itself: the caller hands it the name's key (`text::name_key`) and the
//! password's PHC string, and a unique index on the key keeps one claim per name.

use super::backend::Claims;
use super::{Store, StoreError};
use crate::protocol::{PlayerId, PlayerInfo};

/// A claimed name as stored: whose it is, and the hash their password must match.
#[derive(Clone, PartialEq, Eq)]
pub struct Claim {
    /// The player who claimed it, with their name as they show it.
    pub player: PlayerInfo,
    /// The password's argon2id hash, a PHC string.
    pub password_hash: String,
}

impl std::fmt::Debug for Claim {
    /// Leaves the hash out: it is a secret's stand-in, not for logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Claim").field("player", &self.player).finish_non_exhaustive()
    }
}

impl Store {
    /// Claims the name whose key is `name_key` for `player`, with the hash of their password.
    ///
    /// # Errors
    /// [`StoreError::Duplicate`] when the name is already claimed (by anyone) or the player already
    /// claimed a name; another error when the write fails, e.g. the player is not stored.
    pub async fn claim_name(&self, player: PlayerId, name_key: &str, password_hash: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.claim_name(player, name_key, password_hash).await)
    }

    /// The claim on the name whose key is `name_key`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when nobody claimed it.
    pub async fn claim(&self, name_key: &str) -> Result<Claim, StoreError> {
        dispatch!(self, s => s.claim(name_key).await)
    }

    /// Whether `player` claimed their name.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn has_claimed(&self, player: PlayerId) -> Result<bool, StoreError> {
        dispatch!(self, s => s.has_claimed(player).await)
    }

    /// Keeps one more token of `player`'s, as its SHA-256 hash: [`Store::player_by_token_hash`] then finds
    /// them by it as by their first one.
    ///
    /// # Errors
    /// When the write fails, e.g. the player is not stored.
    pub async fn add_token(&self, player: PlayerId, token_hash: &[u8; 32]) -> Result<(), StoreError> {
        dispatch!(self, s => s.add_token(player, token_hash).await)
    }
}
