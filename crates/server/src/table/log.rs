//! A table's durable log: the one way from a table to the store.
//!
//! It carries out the core's [`Durable`] writes (seats, bots, the start, each action) and stores the
//! finished game. The action log holds only what was acknowledged: after an append that failed —
//! perhaps after its row was written — what lies past the acknowledged actions is cleared before the
//! next append. A number already taken means such a row is there though no append of this table
//! failed: one that a server killed before answering had sent, committed by its database after this
//! server read the log back at its restart. It is cleared the same way, and the row goes once more.

use std::time::Duration;

use tokio::sync::oneshot;
use tracing::{debug, error, warn};

use super::core::Durable;
use crate::protocol::TableId;
use crate::store::{ActionRow, Committer, Fence, FinishedGame, Store, StoreError, Writer};

/// The durable log of one table.
#[derive(Debug)]
pub(crate) struct TableLog {
    table: TableId,
    store: Store,
    committer: Committer,
    writer: Writer,
    /// Whether the last append failed: the log may then hold one row past the acknowledged actions.
    unsure: bool,
    /// In a cluster, this node's lease on the table, presented with every append and truncation.
    fence: Option<Fence>,
}

impl TableLog {
    pub(crate) fn new(table: TableId, store: Store, committer: Committer, writer: Writer) -> TableLog {
        TableLog { table, store, committer, writer, unsure: false, fence: None }
    }

    /// Presents `fence` with every append and truncation from now on: they go through only while it is
    /// the table's current lease.
    pub(crate) fn fence_with(&mut self, fence: Option<Fence>) {
        self.fence = fence;
    }

    /// The store the log is kept in.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Makes `durable` durable.
    ///
    /// # Errors
    /// When the store refuses it or cannot be reached; then nothing of it is acknowledged.
    pub(crate) async fn write(&mut self, durable: &Durable) -> Result<(), StoreError> {
        match durable {
            Durable::Seats(seats) => self.writer.set_seats(self.table, seats).await,
            Durable::Start { shuffle, players, started_at } => {
                self.writer.start_game(self.table, shuffle, players, *started_at).await
            }
            Durable::Action(row) => self.append(row).await,
            Durable::Chat(row) => self.store.append_chat(row, self.fence.as_ref()).await,
        }
    }

    async fn append(&mut self, row: &ActionRow) -> Result<(), StoreError> {
        let mut cleared_duplicate = false;
        loop {
            if self.unsure {
                self.store.truncate_actions(self.table, row.seq, self.fence.as_ref()).await?;
                self.unsure = false;
            }
            let row = ActionRow { fence: self.fence.clone(), ..row.clone() };
            match self.committer.commit(row.clone()).await {
                Ok(()) => return Ok(()),
                Err(StoreError::Duplicate(_)) if !cleared_duplicate => {
                    warn!(table = %self.table, seq = row.seq, "an unacknowledged action was in the log; clearing it");
                    cleared_duplicate = true;
                    self.unsure = true;
                }
                // Refused by the fence: nothing was written, and nothing may be (the table is another node's).
                Err(error @ StoreError::Fenced(_)) => return Err(error),
                Err(error) => {
                    self.unsure = true;
                    return Err(error);
                }
            }
        }
    }

    /// Stores the finished game's record and results in the background, trying again while the
    /// database is unavailable: the game's log is already stored, so a server that stops before this
    /// succeeds finishes the game again when it restores it. The receiver hears when it is done
    /// (stored, or refused for good).
    pub(crate) fn store_result(&self, finished: FinishedGame) -> oneshot::Receiver<()> {
        let (writer, table) = (self.writer.clone(), self.table);
        let (done, stored) = oneshot::channel();
        tokio::spawn(async move {
            let _done = done;
            let mut pause = Duration::from_millis(100);
            loop {
                match writer.finish_game(table, finished.clone()).await {
                    Ok(()) => return debug!(%table, "result stored"),
                    Err(StoreError::Unavailable(error)) => {
                        warn!(%table, %error, "the result could not be stored yet; trying again");
                        tokio::time::sleep(pause).await;
                        pause = (pause * 2).min(Duration::from_secs(10));
                    }
                    Err(error) => return error!(%table, %error, "the result could not be stored"),
                }
            }
        });
        stored
    }
}
