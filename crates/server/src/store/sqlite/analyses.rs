//! The SQLite backend's analyses of finished games.

use super::{SqliteStore, id_text};
use crate::protocol::TableId;
use crate::store::StoreError;
use crate::store::backend::Analyses;

impl Analyses for SqliteStore {
    async fn analysis(&self, game: TableId, seat: i16) -> Result<Option<String>, StoreError> {
        let text = sqlx::query_scalar("SELECT analysis FROM analyses WHERE game_id = ?1 AND seat = ?2")
            .bind(id_text(game.0))
            .bind(seat)
            .fetch_optional(&self.pool)
            .await?;
        Ok(text)
    }

    async fn put_analysis(&self, game: TableId, seat: i16, analysis: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO analyses (game_id, seat, analysis) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
            .bind(id_text(game.0))
            .bind(seat)
            .bind(analysis)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
