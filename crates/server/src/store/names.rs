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

/// A claim's stored keys: its player, the name as shown, its key and its skeleton (none for a claim that
/// looks like an older one).
pub(super) type StoredClaimKeys = (PlayerId, String, String, Option<String>);

impl Store {
    /// Claims the name whose key is `name_key` and skeleton `name_skeleton` for `player`, with the hash of
    /// their password.
    ///
    /// # Errors
    /// [`StoreError::Duplicate`] when a name with that key or skeleton is already claimed (by anyone) or the
    /// player already claimed a name; another error when the write fails, e.g. the player is not stored.
    pub async fn claim_name(
        &self,
        player: PlayerId,
        name_key: &str,
        name_skeleton: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.claim_name(player, name_key, name_skeleton, password_hash).await)
    }

    /// Whether a kept name has the key `name_key` or the skeleton `name_skeleton`: the same name, or one that
    /// looks the same.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn is_claimed_like(&self, name_key: &str, name_skeleton: &str) -> Result<bool, StoreError> {
        dispatch!(self, s => s.is_claimed_like(name_key, name_skeleton).await)
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

    /// Keeps one more token of `player`'s, as its SHA-256 hash, given to the browser that named itself
    /// `device` (its User-Agent, cut to 200 characters): [`Store::player_by_token_hash`] then finds them by it.
    ///
    /// # Errors
    /// When the write fails, e.g. the player is not stored.
    pub async fn add_token(
        &self,
        player: PlayerId,
        token_hash: &[u8; 32],
        device: Option<&str>,
    ) -> Result<(), StoreError> {
        let device = device.map(|d| d.chars().take(200).collect::<String>());
        dispatch!(self, s => s.add_token(player, token_hash, device.as_deref()).await)
    }

    /// Gives every claimed name the key `key` makes of it now (names are compared by a stricter key than
    /// they once were: `text::name_key`), oldest claim first; returns how many keys changed. A claim whose
    /// new key an older claim has already keeps its old key, and is logged: the older claim keeps the name
    /// (the two names look alike, which is what the stricter key stops). Every node may run it at its
    /// start: it changes nothing the second time.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub async fn rekey_claimed_names(
        &self,
        key: impl Fn(&str) -> String,
        skeleton: impl Fn(&str) -> String,
    ) -> Result<usize, StoreError> {
        let claims = dispatch!(self, s => s.claimed_names().await)?;
        let mut changed = 0;
        for (player, name, stored_key, stored_skeleton) in claims {
            let (fresh_key, fresh_skeleton) = (key(&name), skeleton(&name));
            if fresh_key == stored_key && stored_skeleton.as_deref() == Some(fresh_skeleton.as_str()) {
                continue;
            }
            match dispatch!(self, s => s.set_name_keys(player, &fresh_key, Some(&fresh_skeleton)).await) {
                Ok(()) => changed += 1,
                Err(StoreError::Duplicate(_)) => {
                    tracing::warn!(
                        %player,
                        "a kept name is the same as or looks like an older kept name: the older claim keeps it"
                    );
                    // The key alone, if it is this name's only: the name still signs in by it.
                    if fresh_key != stored_key && stored_skeleton.is_some() {
                        continue;
                    }
                    match dispatch!(self, s => s.set_name_keys(player, &fresh_key, None).await) {
                        Ok(()) => changed += 1,
                        Err(StoreError::Duplicate(_)) => {}
                        Err(error) => return Err(error),
                    }
                }
                Err(error) => return Err(error),
            }
        }
        Ok(changed)
    }
}
