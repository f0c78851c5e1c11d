//! Web Push in the store (docs/push.md): the secrets the server makes once and every node shares (the VAPID
//! key), and the players' push subscriptions, one per device.

use super::backend::Push;
use super::{Store, StoreError};
use crate::protocol::PlayerId;

/// A browser's push subscription for a player, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSubscription {
    /// Whose it is.
    pub player: PlayerId,
    /// Where pushes for this device are posted (RFC 8030), checked against the server's endpoint rules
    /// when it was given.
    pub endpoint: String,
    /// The device's P-256 public key (RFC 8291 `p256dh`), base64url.
    pub p256dh: String,
    /// The device's authentication secret (RFC 8291 `auth`), base64url.
    pub auth: String,
    /// The language its notifications are written in (`en`, `fr`, `it`).
    pub lang: String,
}

/// The most devices a player receives pushes on; a further one replaces the oldest.
pub(super) const MOST_DEVICES: i64 = 10;

impl Store {
    /// The secret `name`, if one was kept.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn server_secret(&self, name: &str) -> Result<Option<String>, StoreError> {
        dispatch!(self, s => s.server_secret(name).await)
    }

    /// The secret `name`: the one kept, or `make()`'s, kept now. Nodes that start together agree: the first
    /// write wins, and every node reads it back.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub async fn server_secret_or(&self, name: &str, make: impl FnOnce() -> String) -> Result<String, StoreError> {
        if let Some(kept) = self.server_secret(name).await? {
            return Ok(kept);
        }
        let made = make();
        dispatch!(self, s => s.put_server_secret(name, &made).await)?;
        self.server_secret(name).await?.ok_or_else(|| StoreError::Corrupt(format!("the secret {name} was not kept")))
    }

    /// Keeps `subscription` (replacing its endpoint's row); a player's devices beyond the tenth are
    /// forgotten, oldest first.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn add_push_subscription(&self, subscription: &PushSubscription) -> Result<(), StoreError> {
        dispatch!(self, s => s.add_push_subscription(subscription, MOST_DEVICES).await)
    }

    /// Forgets `endpoint` if it is `player`'s; whether it was.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn remove_push_subscription(&self, player: PlayerId, endpoint: &str) -> Result<bool, StoreError> {
        dispatch!(self, s => s.remove_push_subscription(player, endpoint).await)
    }

    /// Forgets `endpoint`, whoever's it is: its push service answered that it is gone.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn forget_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.forget_push_endpoint(endpoint).await)
    }

    /// Every device of `player` that receives pushes, oldest first.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn push_subscriptions(&self, player: PlayerId) -> Result<Vec<PushSubscription>, StoreError> {
        dispatch!(self, s => s.push_subscriptions(player).await)
    }
}
