//! The SQLite backend's Web Push: the server's secrets and the players' push subscriptions
//! (`migrations/sqlite/*_push.sql`).

use super::{SqliteStore, id_text};
use crate::protocol::PlayerId;
use crate::store::backend::Push;
use crate::store::{PushSubscription, StoreError};

impl Push for SqliteStore {
    async fn server_secret(&self, name: &str) -> Result<Option<String>, StoreError> {
        let value = sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = ?1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(value)
    }

    async fn put_server_secret(&self, name: &str, value: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO server_secrets (name, value) VALUES (?1, ?2) ON CONFLICT DO NOTHING")
            .bind(name)
            .bind(value)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn add_push_subscription(&self, subscription: &PushSubscription, most: i64) -> Result<(), StoreError> {
        let mut transaction = self.pool.begin().await?;
        // A device that subscribes again (or for another player) replaces its row, and counts as new.
        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = ?1")
            .bind(&subscription.endpoint)
            .execute(&mut *transaction)
            .await?;
        // Each device of a player newer than the last, even within one clock tick (SQLite's clock counts
        // milliseconds): the oldest is then always the one to forget.
        sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, lang, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5,
                     MAX(?6, COALESCE((SELECT MAX(created_at) + 1 FROM push_subscriptions WHERE player_id = ?2), 0)))",
        )
        .bind(&subscription.endpoint)
        .bind(id_text(subscription.player.0))
        .bind(&subscription.p256dh)
        .bind(&subscription.auth)
        .bind(&subscription.lang)
        .bind(crate::store::codec::micros(time::OffsetDateTime::now_utc()))
        .execute(&mut *transaction)
        .await?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE player_id = ?1 AND endpoint NOT IN
             (SELECT endpoint FROM push_subscriptions WHERE player_id = ?1 ORDER BY created_at DESC, endpoint LIMIT ?2)",
        )
        .bind(id_text(subscription.player.0))
        .bind(most)
        .execute(&mut *transaction)
        .await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn remove_push_subscription(&self, player: PlayerId, endpoint: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = ?1 AND player_id = ?2")
            .bind(endpoint)
            .bind(id_text(player.0))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn forget_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = ?1").bind(endpoint).execute(&self.pool).await?;
        Ok(())
    }

    async fn push_subscriptions(&self, player: PlayerId) -> Result<Vec<PushSubscription>, StoreError> {
        let rows: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT endpoint, p256dh, auth, lang FROM push_subscriptions WHERE player_id = ?1 ORDER BY created_at, endpoint",
        )
        .bind(id_text(player.0))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(endpoint, p256dh, auth, lang)| PushSubscription { player, endpoint, p256dh, auth, lang })
            .collect())
    }
}
