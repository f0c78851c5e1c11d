//! The PostgreSQL backend's names you keep: claims and the tokens of sign-ins
//! (`migrations/postgres/0014_names.sql`).

use time::OffsetDateTime;

use super::PgStore;
use crate::protocol::PlayerId;
use crate::store::StoreError;
use crate::store::backend::Claims;
use crate::store::names::{Claim, StoredClaimKeys};
use crate::store::rows;

impl Claims for PgStore {
    async fn claim_name(
        &self,
        player: PlayerId,
        name_key: &str,
        name_skeleton: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO claimed_names (player_id, name_key, password_hash, claimed_at, name_skeleton)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(player.0)
        .bind(name_key)
        .bind(password_hash)
        .bind(OffsetDateTime::now_utc())
        .bind(name_skeleton)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn claim(&self, name_key: &str) -> Result<Claim, StoreError> {
        let row = sqlx::query(
            "SELECT p.id, p.name, c.password_hash FROM claimed_names c JOIN players p ON p.id = c.player_id
             WHERE c.name_key = $1",
        )
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound)?;
        rows::claim(&row)
    }

    async fn has_claimed(&self, player: PlayerId) -> Result<bool, StoreError> {
        let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM claimed_names WHERE player_id = $1")
            .bind(player.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    async fn add_token(&self, player: PlayerId, token_hash: &[u8; 32], device: Option<&str>) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO player_tokens (token_hash, player_id, created_at, device) VALUES ($1, $2, $3, $4)")
            .bind(&token_hash[..])
            .bind(player.0)
            .bind(OffsetDateTime::now_utc())
            .bind(device)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn claimed_names(&self) -> Result<Vec<StoredClaimKeys>, StoreError> {
        let rows: Vec<(uuid::Uuid, String, String, Option<String>)> = sqlx::query_as(
            "SELECT p.id, p.name, c.name_key, c.name_skeleton FROM claimed_names c JOIN players p ON p.id = c.player_id
             ORDER BY c.claimed_at, p.id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(id, name, key, skeleton)| (PlayerId(id), name, key, skeleton)).collect())
    }

    async fn set_name_keys(&self, player: PlayerId, key: &str, skeleton: Option<&str>) -> Result<(), StoreError> {
        sqlx::query("UPDATE claimed_names SET name_key = $1, name_skeleton = $2 WHERE player_id = $3")
            .bind(key)
            .bind(skeleton)
            .bind(player.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn is_claimed_like(&self, name_key: &str, name_skeleton: &str) -> Result<bool, StoreError> {
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM claimed_names WHERE name_key = $1 OR name_skeleton = $2 LIMIT 1")
                .bind(name_key)
                .bind(name_skeleton)
                .fetch_optional(&self.pool)
                .await?;
        Ok(found.is_some())
    }
}
