//! Rematches in the store: a finished table points to the table where its players play again, so that
//! its id and its invite link lead there once the finished table has closed.

use uuid::Uuid;

use super::{Store, StoreError};
use crate::protocol::TableId;

impl Store {
    /// Notes that the players of `table`'s finished game play again at `rematch`.
    ///
    /// # Errors
    /// When the write fails; [`StoreError::NotFound`] when `table` is not stored.
    pub async fn set_rematch(&self, table: TableId, rematch: TableId) -> Result<(), StoreError> {
        let updated = match self {
            Store::Sqlite(s) => sqlx::query("UPDATE tables SET rematch = ?1 WHERE id = ?2")
                .bind(rematch.0.hyphenated().to_string())
                .bind(table.0.hyphenated().to_string())
                .execute(s.pool())
                .await?
                .rows_affected(),
            Store::Postgres(s) => sqlx::query("UPDATE tables SET rematch = $1 WHERE id = $2")
                .bind(rematch.0)
                .bind(table.0)
                .execute(s.pool())
                .await?
                .rows_affected(),
        };
        if updated == 0 { Err(StoreError::NotFound) } else { Ok(()) }
    }

    /// The table where the players of `table` play again, if they do.
    ///
    /// # Errors
    /// When the store cannot be read, or the id does not parse ([`StoreError::Corrupt`]).
    pub async fn rematch(&self, table: TableId) -> Result<Option<TableId>, StoreError> {
        let rematch = match self {
            Store::Sqlite(s) => {
                let text: Option<Option<String>> = sqlx::query_scalar("SELECT rematch FROM tables WHERE id = ?1")
                    .bind(table.0.hyphenated().to_string())
                    .fetch_optional(s.pool())
                    .await?;
                text.flatten()
                    .map(|text| {
                        Uuid::parse_str(&text).map_err(|_| StoreError::Corrupt(format!("{text:?} is not a UUID")))
                    })
                    .transpose()?
            }
            Store::Postgres(s) => {
                let id: Option<Option<Uuid>> = sqlx::query_scalar("SELECT rematch FROM tables WHERE id = $1")
                    .bind(table.0)
                    .fetch_optional(s.pool())
                    .await?;
                id.flatten()
            }
        };
        Ok(rematch.map(TableId))
    }
}
