//! The table's one way into the lobby, defined on the table's side: the core publishes its summary and
//! counts its host's open tables through a [`LobbyPort`], not the lobby itself, so that it knows nothing
//! of the lobby's subscribers, mirror or table handles, and its tests stand in a fake.

use std::fmt::Debug;

use crate::protocol::{PlayerId, TableSummary};

/// What a table tells the lobby. Synchronous and in memory: what a member is told and what the lobby
/// lists never run ahead of each other.
pub(crate) trait LobbyPort: Debug + Send + Sync {
    /// Records the table's summary: listed while it is public and not finished.
    fn publish(&self, summary: &TableSummary);

    /// Reserves one of `host`'s open tables, unless they host `max` already.
    fn reserve_hosting(&self, host: PlayerId, max: usize) -> bool;

    /// Gives back a table reserved with [`LobbyPort::reserve_hosting`] (it finished or closed).
    fn release_hosting(&self, host: PlayerId);
}
