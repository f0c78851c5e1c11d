//! Table leases and fenced writes, for several nodes serving one site (`migrations/postgres/0013`).
//!
//! A lease names the node that owns a table until `expires_at`, by the database's clock (so no node's clock
//! matters). Every grant raises the table's `epoch`. A fenced write checks, in its own statement, that its
//! lease (node and epoch) is current and unexpired, and takes a share lock on the lease row: a node taking
//! the table over updates that row, so it waits until such a write has committed, and then reads a log that
//! includes it. An append that starts after the lease ran out, or after a takeover, writes nothing.

use std::time::Duration;

use time::OffsetDateTime;
use uuid::Uuid;

use super::{ActionColumns, PgStore};
use crate::protocol::TableId;
use crate::store::backend::Leases;
use crate::store::{ActionRow, Appended, Fence, Lease, StoreError};

/// A lease's length as PostgreSQL's `interval`, in milliseconds.
fn ttl_ms(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)
}

fn epoch_of(value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreError::Corrupt(format!("a lease's epoch is negative: {value}")))
}

fn epoch_sql(epoch: u64) -> Result<i64, StoreError> {
    i64::try_from(epoch).map_err(|_| StoreError::Other(format!("a lease's epoch is too large: {epoch}")))
}

impl PgStore {
    /// Checks, in `tx`, that `fence` is `table`'s current, unexpired lease, and holds the lease row with a
    /// share lock until `tx` ends: a write made in `tx` is then made under that lease.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] when the lease is not the table's current one.
    pub(in crate::store) async fn hold_lease(
        &self,
        tx: &mut sqlx::PgConnection,
        table: TableId,
        fence: &Fence,
    ) -> Result<(), StoreError> {
        let held: Option<i32> = sqlx::query_scalar(
            "SELECT 1 FROM table_leases
             WHERE table_id = $1 AND node = $2 AND epoch = $3 AND expires_at > now()
             FOR SHARE",
        )
        .bind(table.0)
        .bind(&fence.node)
        .bind(epoch_sql(fence.epoch)?)
        .fetch_optional(tx)
        .await?;
        held.map(|_| ()).ok_or_else(|| fenced(table, fence))
    }

    /// Appends a batch of which some rows carry a fence: those go in only under their current lease; the
    /// others as usual. One statement, so the batch commits as a whole (less the fenced-out rows).
    pub(super) async fn append_fenced(&self, batch: &[ActionRow]) -> Result<Appended, StoreError> {
        let ActionColumns { tables, seqs, seats, actions, by_bot, reserves } = ActionColumns::of(batch)?;
        let nodes: Vec<Option<&str>> = batch.iter().map(|row| row.fence.as_ref().map(|f| f.node.as_str())).collect();
        let epochs = batch
            .iter()
            .map(|row| row.fence.as_ref().map(|f| epoch_sql(f.epoch)).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        let written: Vec<(Uuid, i64)> = sqlx::query_as(
            "WITH u AS (
                 SELECT * FROM UNNEST($1::uuid[], $2::int8[], $3::int2[], $4::text[], $5::bool[], $6::int8[],
                                      $7::text[], $8::int8[]) AS u (t, s, st, a, b, r, node, epoch)
             ), held AS (
                 SELECT l.table_id FROM table_leases l JOIN u ON l.table_id = u.t AND l.node = u.node AND l.epoch = u.epoch
                 WHERE l.expires_at > now()
                 FOR SHARE OF l
             )
             INSERT INTO actions (table_id, seq, seat, action, by_bot, reserve_ms)
             SELECT t, s, st, a::jsonb, b, r FROM u WHERE u.node IS NULL OR u.t IN (SELECT table_id FROM held)
             RETURNING table_id, seq::int8",
        )
        .bind(tables)
        .bind(seqs)
        .bind(seats)
        .bind(actions)
        .bind(by_bot)
        .bind(reserves)
        .bind(nodes)
        .bind(epochs)
        .fetch_all(&self.pool)
        .await?;
        let fenced = batch
            .iter()
            .enumerate()
            .filter(|(_, row)| !written.contains(&(row.table.0, i64::from(row.seq))))
            .map(|(i, _)| i)
            .collect();
        Ok(Appended { fenced })
    }

    /// Removes a table's actions from `from` on, only under the table's current lease `fence`.
    pub(super) async fn truncate_fenced(&self, table: TableId, from: u32, fence: &Fence) -> Result<(), StoreError> {
        let held: bool = sqlx::query_scalar(
            "WITH held AS (
                 SELECT table_id FROM table_leases
                 WHERE table_id = $1 AND node = $3 AND epoch = $4 AND expires_at > now()
                 FOR SHARE
             ), removed AS (
                 DELETE FROM actions WHERE table_id = $1 AND seq >= $2 AND EXISTS (SELECT 1 FROM held)
             )
             SELECT EXISTS (SELECT 1 FROM held)",
        )
        .bind(table.0)
        .bind(i64::from(from))
        .bind(&fence.node)
        .bind(epoch_sql(fence.epoch)?)
        .fetch_one(&self.pool)
        .await?;
        if held { Ok(()) } else { Err(fenced(table, fence)) }
    }
}

impl Leases for PgStore {
    /// Grants `table` to `node` for `ttl` when nobody holds it, its lease ran out, or `node` itself holds
    /// it (a node that restarts takes its tables again under a new epoch, fencing its former self).
    /// `None` when another node's lease is current.
    async fn acquire_lease(&self, table: TableId, node: &str, ttl: Duration) -> Result<Option<Lease>, StoreError> {
        let row: Option<(i64, OffsetDateTime)> = sqlx::query_as(
            "INSERT INTO table_leases (table_id, node, epoch, expires_at)
             VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
             ON CONFLICT (table_id) DO UPDATE
                 SET node = EXCLUDED.node, epoch = table_leases.epoch + 1, expires_at = EXCLUDED.expires_at
                 WHERE table_leases.expires_at <= now() OR table_leases.node = EXCLUDED.node
             RETURNING epoch, expires_at",
        )
        .bind(table.0)
        .bind(node)
        .bind(ttl_ms(ttl))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|(epoch, expires_at)| {
            Ok(Lease { table, fence: Fence { node: node.into(), epoch: epoch_of(epoch)? }, expires_at })
        })
        .transpose()
    }

    /// Extends `node`'s current, unexpired leases among `leases` by `ttl`; returns those extended (a lease
    /// that ran out is not renewed: another node may be taking its table over).
    async fn renew_leases(&self, held: &[(TableId, Fence)], ttl: Duration) -> Result<Vec<Lease>, StoreError> {
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let (ids, nodes, epochs) = lease_columns(held)?;
        let rows: Vec<(Uuid, String, i64, OffsetDateTime)> = sqlx::query_as(
            "UPDATE table_leases l SET expires_at = now() + $4 * interval '1 millisecond'
             FROM UNNEST($1::uuid[], $2::text[], $3::int8[]) AS u (t, node, epoch)
             WHERE l.table_id = u.t AND l.node = u.node AND l.epoch = u.epoch AND l.expires_at > now()
             RETURNING l.table_id, l.node, l.epoch, l.expires_at",
        )
        .bind(ids)
        .bind(nodes)
        .bind(epochs)
        .bind(ttl_ms(ttl))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(table, node, epoch, expires_at)| {
                Ok(Lease { table: TableId(table), fence: Fence { node, epoch: epoch_of(epoch)? }, expires_at })
            })
            .collect()
    }

    /// Ends leases at once (a node handing its tables over as it stops): another node may take them now.
    async fn release_leases(&self, held: &[(TableId, Fence)]) -> Result<(), StoreError> {
        let (ids, nodes, epochs) = lease_columns(held)?;
        sqlx::query(
            "UPDATE table_leases l SET expires_at = now()
             FROM UNNEST($1::uuid[], $2::text[], $3::int8[]) AS u (t, node, epoch)
             WHERE l.table_id = u.t AND l.node = u.node AND l.epoch = u.epoch",
        )
        .bind(ids)
        .bind(nodes)
        .bind(epochs)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Tables still open (a game in play, or seats taken before the start) whose lease ran out: a dead or
    /// cut-off node's, for another node to take over. At most `limit`. A tournament's table whose game
    /// never started is its runner's to start, not taken over; a tournament's own lease (under its id,
    /// with no game and no seats) is never among them.
    async fn expired_leases(&self, limit: u32) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<Uuid> = sqlx::query_scalar(
            "SELECT l.table_id FROM table_leases l
             WHERE l.expires_at <= now()
               AND NOT EXISTS (SELECT 1 FROM sleeping_tables z WHERE z.table_id = l.table_id)
               AND (EXISTS (SELECT 1 FROM games g WHERE g.table_id = l.table_id AND g.finished_at IS NULL)
                    OR (NOT EXISTS (SELECT 1 FROM games g WHERE g.table_id = l.table_id)
                        AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = l.table_id)
                        AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = l.table_id AND t.tournament IS NOT NULL)))
             ORDER BY l.expires_at
             LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(TableId).collect())
    }

    /// The current lease of `table`, if it has had one.
    async fn lease(&self, table: TableId) -> Result<Option<Lease>, StoreError> {
        let row: Option<(String, i64, OffsetDateTime)> =
            sqlx::query_as("SELECT node, epoch, expires_at FROM table_leases WHERE table_id = $1")
                .bind(table.0)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|(node, epoch, expires_at)| {
            Ok(Lease { table, fence: Fence { node, epoch: epoch_of(epoch)? }, expires_at })
        })
        .transpose()
    }
}

/// Leases as the three arrays an `UNNEST` takes: tables, nodes, epochs.
type LeaseColumns<'a> = (Vec<Uuid>, Vec<&'a str>, Vec<i64>);

fn lease_columns(held: &[(TableId, Fence)]) -> Result<LeaseColumns<'_>, StoreError> {
    let ids = held.iter().map(|(t, _)| t.0).collect();
    let nodes = held.iter().map(|(_, f)| f.node.as_str()).collect();
    let epochs = held.iter().map(|(_, f)| epoch_sql(f.epoch)).collect::<Result<Vec<_>, _>>()?;
    Ok((ids, nodes, epochs))
}

fn fenced(table: TableId, fence: &Fence) -> StoreError {
    StoreError::Fenced(format!("table {table}: node {} epoch {} is not its current lease", fence.node, fence.epoch))
}
