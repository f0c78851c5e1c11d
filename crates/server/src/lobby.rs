//! The lobby: the directory of every live table, and the public list that subscribers follow.
//!
//! Tables publish their summary here whenever it changes; the lobby keeps the public ones and
//! broadcasts each change, already serialized, to every subscribed connection. A subscriber that falls
//! behind the broadcast gets the whole list again.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, RwLock};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::broadcast;

use crate::protocol::{PlayerId, TableId, TableState, TableSummary};
use crate::table::TableHandle;
use crate::wire::ServerMsg;

/// Lobby changes buffered per subscriber before it counts as fallen behind.
const UPDATE_BUFFER: usize = 256;

/// The live tables.
#[derive(Debug)]
pub struct Lobby {
    tables: RwLock<HashMap<TableId, TableHandle>>,
    public: Mutex<BTreeMap<TableId, TableSummary>>,
    open_by_host: Mutex<HashMap<PlayerId, usize>>,
    updates: broadcast::Sender<Utf8Bytes>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tables: RwLock::default(),
            public: Mutex::default(),
            open_by_host: Mutex::default(),
            updates: broadcast::channel(UPDATE_BUFFER).0,
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data behind; carry on with it.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Lobby {
    /// The table with this id, if it is live.
    pub fn table(&self, id: TableId) -> Option<TableHandle> {
        self.tables.read().unwrap_or_else(|p| p.into_inner()).get(&id).cloned()
    }

    /// How many tables are live.
    pub fn table_count(&self) -> usize {
        self.tables.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Reserves one of `host`'s open tables, unless they host `max` already.
    pub(crate) fn reserve_hosting(&self, host: PlayerId, max: usize) -> bool {
        let mut open = lock(&self.open_by_host);
        let count = open.entry(host).or_default();
        if *count >= max {
            return false;
        }
        *count += 1;
        true
    }

    /// Gives back a table reserved with [`Lobby::reserve_hosting`] (it finished or closed).
    pub(crate) fn release_hosting(&self, host: PlayerId) {
        let mut open = lock(&self.open_by_host);
        if let Some(count) = open.get_mut(&host) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&host);
            }
        }
    }

    pub(crate) fn register(&self, handle: TableHandle) {
        self.tables.write().unwrap_or_else(|p| p.into_inner()).insert(handle.id, handle);
    }

    pub(crate) fn unregister(&self, id: TableId) {
        self.tables.write().unwrap_or_else(|p| p.into_inner()).remove(&id);
        self.remove_public(id);
    }

    /// Records a table's summary: listed while it is public and not finished.
    pub(crate) fn publish(&self, summary: &TableSummary) {
        if !summary.public {
            return;
        }
        if summary.state == TableState::Finished {
            self.remove_public(summary.id);
            return;
        }
        let changed = lock(&self.public).insert(summary.id, summary.clone()).as_ref() != Some(summary);
        if changed {
            let _ = self.updates.send(ServerMsg::LobbyTable { table: summary.clone() }.to_json().into());
        }
    }

    fn remove_public(&self, id: TableId) {
        if lock(&self.public).remove(&id).is_some() {
            let _ = self.updates.send(ServerMsg::LobbyTableRemoved { table: id }.to_json().into());
        }
    }

    /// The public tables, waiting or playing.
    pub fn public_tables(&self) -> Vec<TableSummary> {
        lock(&self.public).values().cloned().collect()
    }

    /// Follows the lobby: the current list, and a receiver of every later change.
    pub fn subscribe(&self) -> (ServerMsg, broadcast::Receiver<Utf8Bytes>) {
        // Subscribe first, so that no change between the two is lost (one may come twice).
        let receiver = self.updates.subscribe();
        (ServerMsg::Lobby { tables: self.public_tables() }, receiver)
    }
}
