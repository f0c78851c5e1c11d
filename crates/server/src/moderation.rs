//! Moderation: the bans in force, kept in memory in front of the store so that every `hello` and sign-in can
//! ask without a query, and what admins do (`api/moderation.rs` answers them over REST).
//!
//! A ban refuses the player at `hello` and at sign-in (`banned`, with the time left) and closes the
//! connections they have open. Each node reads the bans in force again every [`REFRESH`]: a ban made on
//! another node of a cluster takes effect here within that time (on the node that made it, at once).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use time::OffsetDateTime;

use crate::players::Players;
use crate::protocol::PlayerId;
use crate::store::{Store, StoreError};
use crate::sync::lock;

/// How often each node reads the bans in force again.
pub const REFRESH: Duration = Duration::from_secs(15);

/// A ban as a player is told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Banned {
    /// How long it has to run, in whole minutes rounded up.
    pub minutes_left: u64,
    /// How long it has to run, in seconds rounded up.
    pub seconds_left: u64,
    /// Why.
    pub reason: String,
}

impl Banned {
    /// The sentence a banned player reads.
    pub fn sentence(&self) -> String {
        format!("you are banned for {} more minute(s): {}", self.minutes_left, self.reason)
    }
}

/// The bans in force, and the players whose connections are told of a new one.
#[derive(Debug)]
pub struct Moderation {
    store: Store,
    players: Arc<Players>,
    bans: Mutex<HashMap<PlayerId, (OffsetDateTime, String)>>,
}

impl Moderation {
    /// The bans in force in `store`, read now and again every [`REFRESH`] by a task on the current runtime.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn start(store: Store, players: Arc<Players>) -> Result<Arc<Moderation>, StoreError> {
        let moderation = Arc::new(Moderation { store, players, bans: Mutex::default() });
        moderation.refresh().await?;
        tokio::spawn(refresh_every(Arc::downgrade(&moderation)));
        Ok(moderation)
    }

    /// Reads the bans in force again; a new one makes the open connections check their player.
    ///
    /// # Errors
    /// When the store cannot be read (the bans known stay as they were).
    pub async fn refresh(&self) -> Result<(), StoreError> {
        let fresh: HashMap<PlayerId, (OffsetDateTime, String)> = self
            .store
            .bans(OffsetDateTime::now_utc())
            .await?
            .into_iter()
            .map(|ban| (ban.player.id, (ban.until, ban.reason)))
            .collect();
        let mut bans = lock(&self.bans);
        let new = fresh.keys().any(|player| !bans.contains_key(player));
        *bans = fresh;
        drop(bans);
        if new {
            self.players.recheck();
        }
        Ok(())
    }

    /// `player`'s ban in force, if any.
    pub fn ban_of(&self, player: PlayerId) -> Option<Banned> {
        let bans = lock(&self.bans);
        let (until, reason) = bans.get(&player)?;
        let left = *until - OffsetDateTime::now_utc();
        if left <= time::Duration::ZERO {
            return None;
        }
        let seconds = u64::try_from(left.whole_seconds()).unwrap_or(0) + u64::from(left.subsec_nanoseconds() > 0);
        Some(Banned { minutes_left: seconds.div_ceil(60), seconds_left: seconds, reason: reason.clone() })
    }
}

async fn refresh_every(moderation: Weak<Moderation>) {
    let mut ticks = tokio::time::interval(REFRESH);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        let Some(moderation) = moderation.upgrade() else { return };
        if let Err(error) = moderation.refresh().await {
            tracing::warn!(%error, "the bans could not be read again; the known ones stay");
        }
    }
}
