//! Table leases, for several nodes serving one site: which node owns a table, until when, under which
//! epoch. PostgreSQL only: a cluster keeps its tables in one PostgreSQL database, and SQLite is a single
//! node's store (see `postgres/leases.rs` for how a lease fences writes; `sqlite/leases.rs` refuses them).

use std::time::Duration;

use time::OffsetDateTime;

use super::backend::Leases;
use super::{Fence, Store, StoreError};
use crate::protocol::TableId;

/// A node's lease on a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The table.
    pub table: TableId,
    /// Who holds it, under which epoch: what the holder's writes present.
    pub fence: Fence,
    /// When it runs out unless renewed, by the database's clock.
    pub expires_at: OffsetDateTime,
}

impl Store {
    /// Grants `table` to `node` for `ttl` when nobody holds it, its lease ran out, or `node` holds it
    /// already (then under a new epoch, which fences the node's earlier writes). `None` when another
    /// node's lease is current.
    ///
    /// # Errors
    /// When the database fails, or the store is SQLite.
    pub async fn acquire_lease(&self, table: TableId, node: &str, ttl: Duration) -> Result<Option<Lease>, StoreError> {
        dispatch!(self, s => s.acquire_lease(table, node, ttl).await)
    }

    /// Extends by `ttl` those of the leases `held` that are still current and unexpired, and returns them;
    /// a lease missing from the answer is lost, and its table must not be acted for any more.
    ///
    /// # Errors
    /// When the database fails, or the store is SQLite.
    pub async fn renew_leases(&self, held: &[(TableId, Fence)], ttl: Duration) -> Result<Vec<Lease>, StoreError> {
        dispatch!(self, s => s.renew_leases(held, ttl).await)
    }

    /// Ends the leases `held` now, so that another node can take their tables at once.
    ///
    /// # Errors
    /// When the database fails, or the store is SQLite.
    pub async fn release_leases(&self, held: &[(TableId, Fence)]) -> Result<(), StoreError> {
        dispatch!(self, s => s.release_leases(held).await)
    }

    /// Open tables (in play, or waiting with seats taken) whose lease ran out, at most `limit`: a dead node's,
    /// for another node to take over.
    ///
    /// # Errors
    /// When the database fails, or the store is SQLite.
    pub async fn expired_leases(&self, limit: u32) -> Result<Vec<TableId>, StoreError> {
        dispatch!(self, s => s.expired_leases(limit).await)
    }

    /// The current lease of `table`, if it ever had one.
    ///
    /// # Errors
    /// When the database fails, or the store is SQLite.
    pub async fn lease(&self, table: TableId) -> Result<Option<Lease>, StoreError> {
        dispatch!(self, s => s.lease(table).await)
    }
}
