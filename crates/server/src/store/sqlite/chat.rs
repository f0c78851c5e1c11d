//! The SQLite backend's table talk: the tables' chat, and the pointer of a finished table to its rematch.

use super::leases::needs_postgres;
use super::{SqliteStore, id_text, uuid_from};
use crate::protocol::{ChatLine, TableId};
use crate::store::backend::Talk;
use crate::store::rows;
use crate::store::types::ChatEntry;
use crate::store::{Fence, StoreError};

impl Talk for SqliteStore {
    async fn append_chat(&self, entry: &ChatEntry<'_>, fence: Option<&Fence>) -> Result<(), StoreError> {
        if fence.is_some() {
            return Err(needs_postgres());
        }
        let mut tx = self.pool.begin().await?;
        let id = id_text(entry.table.0);
        sqlx::query("INSERT INTO chat (table_id, n, player_id, name, channel, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            .bind(&id)
            .bind(entry.n)
            .bind(id_text(entry.from.id.0))
            .bind(&entry.from.name)
            .bind(entry.channel)
            .bind(entry.text)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM chat WHERE table_id = ?1 AND channel = ?2 AND n < ?3")
            .bind(&id)
            .bind(entry.channel)
            .bind(entry.oldest)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn chat(&self, table: TableId, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        sqlx::query(
            "SELECT n, player_id, name, channel, text FROM chat WHERE table_id = ?1 ORDER BY rowid DESC LIMIT ?2",
        )
        .bind(id_text(table.0))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rows::chat_line)
        .collect()
    }

    async fn set_rematch(&self, table: TableId, rematch: TableId) -> Result<bool, StoreError> {
        let updated = sqlx::query("UPDATE tables SET rematch = ?1 WHERE id = ?2")
            .bind(id_text(rematch.0))
            .bind(id_text(table.0))
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(updated > 0)
    }

    async fn rematch(&self, table: TableId) -> Result<Option<TableId>, StoreError> {
        let text: Option<Option<String>> = sqlx::query_scalar("SELECT rematch FROM tables WHERE id = ?1")
            .bind(id_text(table.0))
            .fetch_optional(&self.pool)
            .await?;
        text.flatten().map(|text| Ok(TableId(uuid_from(&text)?))).transpose()
    }
}
