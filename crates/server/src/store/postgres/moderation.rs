//! The PostgreSQL backend's moderation: admins, reports, bans and the audit log
//! (`migrations/postgres/0024_moderation.sql`).

use time::OffsetDateTime;
use uuid::Uuid;

use super::PgStore;
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::store::StoreError;
use crate::store::backend::Moderation;
use crate::store::moderation::{AuditEntry, Ban, NewReport, Report};

fn info(id: Option<Uuid>, name: Option<String>) -> Option<PlayerInfo> {
    Some(PlayerInfo { id: PlayerId(id?), name: name.unwrap_or_default() })
}

impl Moderation for PgStore {
    async fn is_admin(&self, player: PlayerId) -> Result<bool, StoreError> {
        let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM admins WHERE player_id = $1")
            .bind(player.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    async fn set_admin(&self, player: PlayerId, admin: bool) -> Result<bool, StoreError> {
        let done = if admin {
            sqlx::query("INSERT INTO admins (player_id, granted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING")
                .bind(player.0)
                .bind(OffsetDateTime::now_utc())
                .execute(&self.pool)
                .await?
        } else {
            sqlx::query("DELETE FROM admins WHERE player_id = $1").bind(player.0).execute(&self.pool).await?
        };
        Ok(done.rows_affected() > 0)
    }

    async fn add_report(&self, report: &NewReport<'_>) -> Result<i64, StoreError> {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO reports (reporter_id, player_id, table_id, chat_n, line, channel, reason, created_at)
             VALUES ($1, $2, $3, $4,
                     (SELECT text FROM chat WHERE table_id = $3 AND n = $4 AND player_id = $2
                      ORDER BY channel LIMIT 1),
                     (SELECT channel FROM chat WHERE table_id = $3 AND n = $4 AND player_id = $2
                      ORDER BY channel LIMIT 1), $5, $6)
             RETURNING id",
        )
        .bind(report.reporter.0)
        .bind(report.player.0)
        .bind(report.table.map(|t| t.0))
        .bind(report.chat)
        .bind(report.reason)
        .bind(OffsetDateTime::now_utc())
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    async fn reports_by(&self, reporter: PlayerId, since: OffsetDateTime) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND created_at >= $2")
            .bind(reporter.0)
            .bind(since)
            .fetch_one(&self.pool)
            .await?)
    }

    async fn open_reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        type Row = (
            i64,
            Uuid,
            String,
            Uuid,
            String,
            Option<Uuid>,
            Option<i64>,
            Option<String>,
            Option<String>,
            String,
            OffsetDateTime,
        );
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT r.id, r.reporter_id, a.name, r.player_id, b.name, r.table_id, r.chat_n, r.line, r.channel, r.reason, r.created_at
             FROM reports r JOIN players a ON a.id = r.reporter_id JOIN players b ON b.id = r.player_id
             WHERE r.resolved_at IS NULL ORDER BY r.created_at, r.id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(
                |(id, reporter, reporter_name, player, player_name, table, chat, line, channel, reason, created_at)| {
                    Report {
                        id,
                        reporter: PlayerInfo { id: PlayerId(reporter), name: reporter_name },
                        player: PlayerInfo { id: PlayerId(player), name: player_name },
                        table: table.map(TableId),
                        chat,
                        line,
                        channel,
                        reason,
                        created_at,
                    }
                },
            )
            .collect())
    }

    async fn ban(
        &self,
        player: PlayerId,
        until: OffsetDateTime,
        reason: &str,
        admin: PlayerId,
    ) -> Result<(), StoreError> {
        let now = OffsetDateTime::now_utc();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO bans (player_id, until, reason, admin_id, created_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (player_id) DO UPDATE
             SET until = excluded.until, reason = excluded.reason, admin_id = excluded.admin_id,
                 created_at = excluded.created_at",
        )
        .bind(player.0)
        .bind(until)
        .bind(reason)
        .bind(admin.0)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE reports SET resolved_at = $1 WHERE player_id = $2 AND resolved_at IS NULL")
            .bind(now)
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn unban(&self, player: PlayerId) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM bans WHERE player_id = $1").bind(player.0).execute(&self.pool).await?;
        Ok(done.rows_affected() > 0)
    }

    async fn bans(&self, now: OffsetDateTime) -> Result<Vec<Ban>, StoreError> {
        let rows: Vec<(Uuid, String, OffsetDateTime, String)> = sqlx::query_as(
            "SELECT b.player_id, p.name, b.until, b.reason FROM bans b JOIN players p ON p.id = b.player_id
             WHERE b.until > $1 ORDER BY b.until",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, name, until, reason)| Ban { player: PlayerInfo { id: PlayerId(id), name }, until, reason })
            .collect())
    }

    async fn audit(
        &self,
        admin: Option<PlayerId>,
        action: &str,
        target: Option<PlayerId>,
        detail: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO audit_log (at, admin_id, action, target_id, detail) VALUES ($1, $2, $3, $4, $5)")
            .bind(OffsetDateTime::now_utc())
            .bind(admin.map(|a| a.0))
            .bind(action)
            .bind(target.map(|t| t.0))
            .bind(detail)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn remove_chat_line(
        &self,
        table: TableId,
        channel: &'static str,
        n: i64,
    ) -> Result<Option<PlayerId>, StoreError> {
        let player: Option<Uuid> =
            sqlx::query_scalar("DELETE FROM chat WHERE table_id = $1 AND channel = $2 AND n = $3 RETURNING player_id")
                .bind(table.0)
                .bind(channel)
                .bind(n)
                .fetch_optional(&self.pool)
                .await?;
        Ok(player.map(PlayerId))
    }

    async fn audit_log(&self, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
        type Row = (OffsetDateTime, Option<Uuid>, Option<String>, String, Option<Uuid>, Option<String>, String);
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT l.at, l.admin_id, a.name, l.action, l.target_id, t.name, l.detail
             FROM audit_log l LEFT JOIN players a ON a.id = l.admin_id LEFT JOIN players t ON t.id = l.target_id
             ORDER BY l.id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(at, admin, admin_name, action, target, target_name, detail)| AuditEntry {
                at,
                admin: info(admin, admin_name),
                action,
                target: info(target, target_name),
                detail,
            })
            .collect())
    }
}
