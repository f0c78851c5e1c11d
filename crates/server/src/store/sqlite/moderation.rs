//! The SQLite backend's moderation: admins, reports, bans and the audit log
//! (`migrations/sqlite/0021_moderation.sql`).

use time::OffsetDateTime;

use super::{SqliteStore, id_text, uuid_from};
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::store::backend::Moderation;
use crate::store::moderation::{AuditEntry, Ban, NewReport, Report};
use crate::store::{StoreError, codec};

fn info(id: Option<String>, name: Option<String>) -> Result<Option<PlayerInfo>, StoreError> {
    id.map(|id| Ok(PlayerInfo { id: PlayerId(uuid_from(&id)?), name: name.unwrap_or_default() })).transpose()
}

impl Moderation for SqliteStore {
    async fn is_admin(&self, player: PlayerId) -> Result<bool, StoreError> {
        let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM admins WHERE player_id = ?1")
            .bind(id_text(player.0))
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    async fn set_admin(&self, player: PlayerId, admin: bool) -> Result<bool, StoreError> {
        let done = if admin {
            sqlx::query("INSERT OR IGNORE INTO admins (player_id, granted_at) VALUES (?1, ?2)")
                .bind(id_text(player.0))
                .bind(codec::micros(OffsetDateTime::now_utc()))
                .execute(&self.pool)
                .await?
        } else {
            sqlx::query("DELETE FROM admins WHERE player_id = ?1").bind(id_text(player.0)).execute(&self.pool).await?
        };
        Ok(done.rows_affected() > 0)
    }

    async fn add_report(&self, report: &NewReport<'_>) -> Result<i64, StoreError> {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO reports (reporter_id, player_id, table_id, chat_n, line, channel, reason, created_at)
             VALUES (?1, ?2, ?3, ?4,
                     (SELECT text FROM chat WHERE table_id = ?3 AND n = ?4 AND player_id = ?2
                      ORDER BY channel LIMIT 1),
                     (SELECT channel FROM chat WHERE table_id = ?3 AND n = ?4 AND player_id = ?2
                      ORDER BY channel LIMIT 1), ?5, ?6)
             RETURNING id",
        )
        .bind(id_text(report.reporter.0))
        .bind(id_text(report.player.0))
        .bind(report.table.map(|t| id_text(t.0)))
        .bind(report.chat)
        .bind(report.reason)
        .bind(codec::micros(OffsetDateTime::now_utc()))
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    async fn reports_by(&self, reporter: PlayerId, since: OffsetDateTime) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM reports WHERE reporter_id = ?1 AND created_at >= ?2")
            .bind(id_text(reporter.0))
            .bind(codec::micros(since))
            .fetch_one(&self.pool)
            .await?)
    }

    async fn open_reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        type Row = (
            i64,
            String,
            String,
            String,
            String,
            Option<String>,
            Option<i64>,
            Option<String>,
            Option<String>,
            String,
            i64,
        );
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT r.id, r.reporter_id, a.name, r.player_id, b.name, r.table_id, r.chat_n, r.line, r.channel, r.reason, r.created_at
             FROM reports r JOIN players a ON a.id = r.reporter_id JOIN players b ON b.id = r.player_id
             WHERE r.resolved_at IS NULL ORDER BY r.created_at, r.id LIMIT ?1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(
                |(id, reporter, reporter_name, player, player_name, table, chat, line, channel, reason, created_at)| {
                    Ok(Report {
                        id,
                        reporter: PlayerInfo { id: PlayerId(uuid_from(&reporter)?), name: reporter_name },
                        player: PlayerInfo { id: PlayerId(uuid_from(&player)?), name: player_name },
                        table: table.map(|t| uuid_from(&t).map(TableId)).transpose()?,
                        chat,
                        line,
                        channel,
                        reason,
                        created_at: codec::from_micros(created_at)?,
                    })
                },
            )
            .collect()
    }

    async fn ban(
        &self,
        player: PlayerId,
        until: OffsetDateTime,
        reason: &str,
        admin: PlayerId,
    ) -> Result<(), StoreError> {
        let now = codec::micros(OffsetDateTime::now_utc());
        let mut tx = self.write_transaction().await?;
        sqlx::query(
            "INSERT INTO bans (player_id, until, reason, admin_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (player_id) DO UPDATE
             SET until = excluded.until, reason = excluded.reason, admin_id = excluded.admin_id,
                 created_at = excluded.created_at",
        )
        .bind(id_text(player.0))
        .bind(codec::micros(until))
        .bind(reason)
        .bind(id_text(admin.0))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE reports SET resolved_at = ?1 WHERE player_id = ?2 AND resolved_at IS NULL")
            .bind(now)
            .bind(id_text(player.0))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn unban(&self, player: PlayerId) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM bans WHERE player_id = ?1").bind(id_text(player.0)).execute(&self.pool).await?;
        Ok(done.rows_affected() > 0)
    }

    async fn bans(&self, now: OffsetDateTime) -> Result<Vec<Ban>, StoreError> {
        let rows: Vec<(String, String, i64, String)> = sqlx::query_as(
            "SELECT b.player_id, p.name, b.until, b.reason FROM bans b JOIN players p ON p.id = b.player_id
             WHERE b.until > ?1 ORDER BY b.until",
        )
        .bind(codec::micros(now))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(id, name, until, reason)| {
                Ok(Ban {
                    player: PlayerInfo { id: PlayerId(uuid_from(&id)?), name },
                    until: codec::from_micros(until)?,
                    reason,
                })
            })
            .collect()
    }

    async fn audit(
        &self,
        admin: Option<PlayerId>,
        action: &str,
        target: Option<PlayerId>,
        detail: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO audit_log (at, admin_id, action, target_id, detail) VALUES (?1, ?2, ?3, ?4, ?5)")
            .bind(codec::micros(OffsetDateTime::now_utc()))
            .bind(admin.map(|a| id_text(a.0)))
            .bind(action)
            .bind(target.map(|t| id_text(t.0)))
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
        let player: Option<String> =
            sqlx::query_scalar("DELETE FROM chat WHERE table_id = ?1 AND channel = ?2 AND n = ?3 RETURNING player_id")
                .bind(id_text(table.0))
                .bind(channel)
                .bind(n)
                .fetch_optional(&self.pool)
                .await?;
        player.map(|id| uuid_from(&id).map(PlayerId)).transpose()
    }

    async fn audit_log(&self, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
        type Row = (i64, Option<String>, Option<String>, String, Option<String>, Option<String>, String);
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT l.at, l.admin_id, a.name, l.action, l.target_id, t.name, l.detail
             FROM audit_log l LEFT JOIN players a ON a.id = l.admin_id LEFT JOIN players t ON t.id = l.target_id
             ORDER BY l.id DESC LIMIT ?1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(at, admin, admin_name, action, target, target_name, detail)| {
                Ok(AuditEntry {
                    at: codec::from_micros(at)?,
                    admin: info(admin, admin_name)?,
                    action,
                    target: info(target, target_name)?,
                    detail,
                })
            })
            .collect()
    }
}
