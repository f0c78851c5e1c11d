//! Table leases on SQLite: there are none. A cluster of nodes keeps its tables in one PostgreSQL
//! database; a SQLite file is a single node's store, so every lease operation, and every write that
//! carries a fence, is refused.

use std::time::Duration;

use super::SqliteStore;
use crate::protocol::TableId;
use crate::store::backend::Leases;
use crate::store::{Fence, Lease, StoreError};

/// The error of a lease operation, or of a fenced write, on SQLite.
pub(super) fn needs_postgres() -> StoreError {
    StoreError::Other("table leases need PostgreSQL: a cluster of nodes cannot share a SQLite file".into())
}

impl Leases for SqliteStore {
    async fn acquire_lease(&self, _table: TableId, _node: &str, _ttl: Duration) -> Result<Option<Lease>, StoreError> {
        Err(needs_postgres())
    }

    async fn renew_leases(&self, _held: &[(TableId, Fence)], _ttl: Duration) -> Result<Vec<Lease>, StoreError> {
        Err(needs_postgres())
    }

    async fn release_leases(&self, _held: &[(TableId, Fence)]) -> Result<(), StoreError> {
        Err(needs_postgres())
    }

    async fn expired_leases(&self, _limit: u32) -> Result<Vec<TableId>, StoreError> {
        Err(needs_postgres())
    }

    async fn lease(&self, _table: TableId) -> Result<Option<Lease>, StoreError> {
        Err(needs_postgres())
    }
}
