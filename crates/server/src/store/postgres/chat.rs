//! The PostgreSQL backend's table talk: the tables' chat (fenced by the table's lease in a cluster), and
//! the pointer of a finished table to its rematch.

use uuid::Uuid;

use super::PgStore;
use crate::protocol::{ChatLine, TableId};
use crate::store::backend::Talk;
use crate::store::rows;
use crate::store::types::ChatEntry;
use crate::store::{Fence, StoreError};

impl Talk for PgStore {
    async fn append_chat(&self, entry: &ChatEntry<'_>, fence: Option<&Fence>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            // Holds the lease row until the commit, so the table is not granted to another node in
            // between.
            self.hold_lease(&mut tx, entry.table, fence).await?;
        }
        sqlx::query("INSERT INTO chat (table_id, n, player_id, name, channel, text) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(entry.table.0)
            .bind(entry.n)
            .bind(entry.from.id.0)
            .bind(&entry.from.name)
            .bind(entry.channel)
            .bind(entry.text)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM chat WHERE table_id = $1 AND channel = $2 AND n < $3")
            .bind(entry.table.0)
            .bind(entry.channel)
            .bind(entry.oldest)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn chat(&self, table: TableId, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        sqlx::query("SELECT n, player_id, name, channel, text FROM chat WHERE table_id = $1 ORDER BY seq DESC LIMIT $2")
            .bind(table.0)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(rows::chat_line)
            .collect()
    }

    async fn set_rematch(&self, table: TableId, rematch: TableId) -> Result<bool, StoreError> {
        let updated = sqlx::query("UPDATE tables SET rematch = $1 WHERE id = $2")
            .bind(rematch.0)
            .bind(table.0)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(updated > 0)
    }

    async fn rematch(&self, table: TableId) -> Result<Option<TableId>, StoreError> {
        let id: Option<Option<Uuid>> = sqlx::query_scalar("SELECT rematch FROM tables WHERE id = $1")
            .bind(table.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(id.flatten().map(TableId))
    }
}
