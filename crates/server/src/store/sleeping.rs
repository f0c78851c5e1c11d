//! Turn-based tables asleep (docs/architecture.md, "Turn-based tables"): a table nobody is at holds no
//! memory; its row here says when its running turn started and when it must wake by itself.

use romirami_game::Seat;
use time::OffsetDateTime;

use super::backend::Sleeping;
use super::{Store, StoreError};
use crate::protocol::{PlayerId, TableId};

/// A sleeping table, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SleepRow {
    /// The table.
    pub table: TableId,
    /// When its running turn started (when it fell asleep, while it waits for players).
    pub turn_since: OffsetDateTime,
    /// When it must wake by itself: the running turn's end, reserve included; `None` when only a visitor
    /// wakes it (it waits for players, or its clock has no end).
    pub wake_at: Option<OffsetDateTime>,
    /// The seat to act; `None` while the table waits for players.
    pub to_act: Option<Seat>,
    /// Its seated players, for their "my games" (bots included).
    pub players: Vec<PlayerId>,
    /// The table's summary as it fell asleep (without presence): what "my games" shows of it.
    pub summary: crate::protocol::TableSummary,
}

impl Store {
    /// Keeps `row`: its table is asleep.
    ///
    /// # Errors
    /// When the write fails (then the table stays awake).
    pub async fn put_sleeping(&self, row: &SleepRow) -> Result<(), StoreError> {
        dispatch!(self, s => s.put_sleeping(row).await)
    }

    /// The row of `table` if it is asleep.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn sleeping(&self, table: TableId) -> Result<Option<SleepRow>, StoreError> {
        dispatch!(self, s => s.sleeping(table).await)
    }

    /// Wakes `table` in the store (deletes its row); whether it was asleep.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn delete_sleeping(&self, table: TableId) -> Result<bool, StoreError> {
        dispatch!(self, s => s.delete_sleeping(table).await)
    }

    /// At most `limit` sleeping tables due to wake at `now`, earliest first.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn due_sleepers(&self, now: OffsetDateTime, limit: i64) -> Result<Vec<TableId>, StoreError> {
        dispatch!(self, s => s.due_sleepers(now, limit).await)
    }

    /// Every sleeping table.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn sleeping_ids(&self) -> Result<Vec<TableId>, StoreError> {
        dispatch!(self, s => s.sleeping_ids().await)
    }

    /// The sleeping tables `player` sits at.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn sleeping_tables_of(&self, player: PlayerId) -> Result<Vec<SleepRow>, StoreError> {
        dispatch!(self, s => s.sleeping_tables_of(player).await)
    }

    /// The tables not over where `player` sits, on any node, awake or asleep.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn open_tables_of(&self, player: PlayerId) -> Result<Vec<TableId>, StoreError> {
        dispatch!(self, s => s.open_tables_of(player).await)
    }

    /// How many sleeping tables `host` hosts.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn sleeping_tables_hosted_by(&self, host: PlayerId) -> Result<i64, StoreError> {
        dispatch!(self, s => s.sleeping_tables_hosted_by(host).await)
    }
}
