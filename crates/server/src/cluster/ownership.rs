//! Which tables this node owns: a lease per table in PostgreSQL (`store::Lease`), claimed when the node
//! opens or restores a table, renewed every third of its length while NATS is connected, and released
//! when the table closes or the node stops. A lease that could not be renewed is lost: the table's
//! appends, fenced by it, are refused from then on, and the table closes (`table::task`) — at its next
//! write, or at once when the renewal finds the lease gone ([`Ownership::lost_signal`]), so that a node
//! that lost a table does not go on showing its members a game that moves on elsewhere.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tracing::{info, warn};

use crate::protocol::TableId;
use crate::store::{Fence, Store, StoreError};
use crate::sync::lock;

/// The leases this node holds.
#[derive(Debug)]
pub(crate) struct Ownership {
    node: String,
    store: Store,
    ttl: Duration,
    nats: async_nats::Client,
    held: Mutex<HashMap<TableId, Held>>,
}

/// A lease this node holds, and the signal its table waits on for its loss.
#[derive(Debug)]
struct Held {
    fence: Fence,
    lost: Arc<Notify>,
}

impl Ownership {
    /// The node's ownership, with its renewal task running on the current runtime.
    pub(super) fn start(node: String, store: Store, ttl: Duration, nats: async_nats::Client) -> Arc<Ownership> {
        let ownership = Arc::new(Ownership { node, store, ttl, nats, held: Mutex::default() });
        tokio::spawn(renew_forever(Arc::downgrade(&ownership)));
        ownership
    }

    /// Takes `table` for this node: its fence, or `None` when another node's lease on it is current.
    ///
    /// # Errors
    /// When the database fails.
    pub(crate) async fn claim(&self, table: TableId) -> Result<Option<Fence>, StoreError> {
        let lease = self.store.acquire_lease(table, &self.node, self.ttl).await?;
        Ok(lease.map(|lease| {
            let held = Held { fence: lease.fence.clone(), lost: Arc::new(Notify::new()) };
            lock(&self.held).insert(table, held);
            lease.fence
        }))
    }

    /// What `table`'s task waits on to learn that the renewal found its lease gone; `None` when this node
    /// holds no lease on it.
    pub(crate) fn lost_signal(&self, table: TableId) -> Option<Arc<Notify>> {
        lock(&self.held).get(&table).map(|held| held.lost.clone())
    }

    /// Gives `table` up (it closed): its lease ends now, in the background.
    pub(crate) fn release(&self, table: TableId) {
        let Some(Held { fence, .. }) = lock(&self.held).remove(&table) else { return };
        let store = self.store.clone();
        tokio::spawn(async move {
            if let Err(error) = store.release_leases(&[(table, fence)]).await {
                warn!(%table, %error, "a closed table's lease was not released; it runs out by itself");
            }
        });
    }

    /// Gives `table` up now, waiting for the store: a table that fell asleep, which any node may wake at once.
    pub(crate) async fn release_now(&self, table: TableId) {
        let Some(Held { fence, .. }) = lock(&self.held).remove(&table) else { return };
        if let Err(error) = self.store.release_leases(&[(table, fence)]).await {
            warn!(%table, %error, "a sleeping table's lease was not released; it runs out by itself");
        }
    }

    /// Releases every lease this node holds, now.
    pub(crate) async fn release_all(&self) {
        let held: Vec<(TableId, Fence)> = lock(&self.held).drain().map(|(table, held)| (table, held.fence)).collect();
        if let Err(error) = self.store.release_leases(&held).await {
            warn!(node = %self.node, %error, "the leases were not released; they run out by themselves");
        }
    }

    /// Forgets `table` without releasing its lease: its lease is lost already.
    pub(crate) fn forget(&self, table: TableId) {
        lock(&self.held).remove(&table);
    }

    /// Renews every lease held; those that could not be renewed are forgotten, their tables told, and
    /// returned.
    async fn renew(&self) -> Result<Vec<TableId>, StoreError> {
        let held: Vec<(TableId, Fence)> = lock(&self.held).iter().map(|(t, h)| (*t, h.fence.clone())).collect();
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let renewed = self.store.renew_leases(&held, self.ttl).await?;
        let kept: std::collections::HashSet<TableId> = renewed.iter().map(|lease| lease.table).collect();
        let lost: Vec<TableId> = held.iter().map(|(t, _)| *t).filter(|t| !kept.contains(t)).collect();
        let mut map = lock(&self.held);
        for table in &lost {
            // A permit is kept if the table's task is not waiting right now: it sees it at its next wait.
            if let Some(held) = map.remove(table) {
                held.lost.notify_one();
            }
        }
        crate::metrics::lease_renewals(renewed.len(), lost.len(), map.len());
        Ok(lost)
    }
}

/// Renews the leases every third of their length while the node lives and NATS is connected: a node cut
/// off from NATS lets its leases run out, so that the nodes the players can reach take its tables.
async fn renew_forever(ownership: std::sync::Weak<Ownership>) {
    loop {
        let Some(this) = ownership.upgrade() else { return };
        let pause = this.ttl / 3;
        if this.nats.connection_state() == async_nats::connection::State::Connected {
            let began = std::time::Instant::now();
            if this.nats.flush().await.is_ok() {
                crate::metrics::nats_round_trip(began);
            }
            match this.renew().await {
                Ok(lost) if !lost.is_empty() => info!(node = %this.node, lost = lost.len(), "leases lost"),
                Ok(_) => {}
                Err(error) => warn!(node = %this.node, %error, "the leases could not be renewed"),
            }
        } else {
            warn!(node = %this.node, "NATS is disconnected: the leases are not renewed");
        }
        drop(this);
        tokio::time::sleep(pause).await;
    }
}
