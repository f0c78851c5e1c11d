//! Rematches in the store: a finished table points to the table where its players play again, so that
//! its id and its invite link lead there once the finished table has closed.

use super::backend::Talk;
use super::{Store, StoreError};
use crate::protocol::TableId;

impl Store {
    /// Notes that the players of `table`'s finished game play again at `rematch`.
    ///
    /// # Errors
    /// When the write fails; [`StoreError::NotFound`] when `table` is not stored.
    pub async fn set_rematch(&self, table: TableId, rematch: TableId) -> Result<(), StoreError> {
        let stored = dispatch!(self, s => s.set_rematch(table, rematch).await)?;
        if stored { Ok(()) } else { Err(StoreError::NotFound) }
    }

    /// The table where the players of `table` play again, if they do.
    ///
    /// # Errors
    /// When the store cannot be read, or the id does not parse ([`StoreError::Corrupt`]).
    pub async fn rematch(&self, table: TableId) -> Result<Option<TableId>, StoreError> {
        dispatch!(self, s => s.rematch(table).await)
    }
}
