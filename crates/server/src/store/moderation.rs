//! Moderation, in the store: who may moderate, players' reports, bans, and the audit log of every act of an
//! admin (`migrations/*/…_moderation.sql`).

use time::OffsetDateTime;

use super::backend::Moderation;
use super::{Store, StoreError};
use crate::protocol::{PlayerId, PlayerInfo, TableId};

/// A player's report of another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Its number.
    pub id: i64,
    /// Who reported.
    pub reporter: PlayerInfo,
    /// Whom.
    pub player: PlayerInfo,
    /// At which table, when at one.
    pub table: Option<TableId>,
    /// Which chat line of that table (its number), when one.
    pub chat: Option<i64>,
    /// That line's text as it was when reported.
    pub line: Option<String>,
    /// That line's chat (`players` or `spectators`).
    pub channel: Option<String>,
    /// Why.
    pub reason: String,
    /// When.
    pub created_at: OffsetDateTime,
}

/// A report as it is made.
#[derive(Clone, Debug)]
pub struct NewReport<'a> {
    /// Who reports.
    pub reporter: PlayerId,
    /// Whom.
    pub player: PlayerId,
    /// At which table.
    pub table: Option<TableId>,
    /// Which chat line of the table.
    pub chat: Option<i64>,
    /// Why (already checked).
    pub reason: &'a str,
}

/// A ban in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ban {
    /// The banned player.
    pub player: PlayerInfo,
    /// Until when.
    pub until: OffsetDateTime,
    /// Why.
    pub reason: String,
}

/// One act of an admin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    /// When.
    pub at: OffsetDateTime,
    /// The admin (`None`: the command line).
    pub admin: Option<PlayerInfo>,
    /// What: `grant`, `revoke`, `ban`, `unban`.
    pub action: String,
    /// Whom it was about.
    pub target: Option<PlayerInfo>,
    /// The rest (a ban's length and reason, say).
    pub detail: String,
}

impl Store {
    /// Whether `player` may moderate.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn is_admin(&self, player: PlayerId) -> Result<bool, StoreError> {
        dispatch!(self, s => s.is_admin(player).await)
    }

    /// Makes `player` an admin (`admin` true) or no longer one, and writes it in the audit log as the command
    /// line's act; whether anything changed.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn set_admin(&self, player: PlayerId, admin: bool) -> Result<bool, StoreError> {
        let changed = dispatch!(self, s => s.set_admin(player, admin).await)?;
        if changed {
            let action = if admin { "grant" } else { "revoke" };
            self.audit(None, action, Some(player), "from the command line").await?;
        }
        Ok(changed)
    }

    /// Keeps a report; its number. A chat line is kept as it reads now, if the reported player wrote it there.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn add_report(&self, report: &NewReport<'_>) -> Result<i64, StoreError> {
        dispatch!(self, s => s.add_report(report).await)
    }

    /// How many reports `reporter` made since `since`.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn reports_by(&self, reporter: PlayerId, since: OffsetDateTime) -> Result<i64, StoreError> {
        dispatch!(self, s => s.reports_by(reporter, since).await)
    }

    /// The reports nobody acted on yet, oldest first (at most `limit`).
    ///
    /// # Errors
    /// When the query fails.
    pub async fn open_reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        dispatch!(self, s => s.open_reports(limit).await)
    }

    /// Bans `player` until `until` for `reason`, by `admin` (replacing a ban they had), resolves the open
    /// reports about them, and writes it in the audit log.
    ///
    /// # Errors
    /// When the write fails ([`StoreError::NotFound`]: no such player).
    pub async fn ban(
        &self,
        player: PlayerId,
        until: OffsetDateTime,
        reason: &str,
        admin: PlayerId,
        detail: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.ban(player, until, reason, admin).await)?;
        self.audit(Some(admin), "ban", Some(player), detail).await
    }

    /// Lifts `player`'s ban, by `admin`; whether they had one.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn unban(&self, player: PlayerId, admin: PlayerId) -> Result<bool, StoreError> {
        let lifted = dispatch!(self, s => s.unban(player).await)?;
        if lifted {
            self.audit(Some(admin), "unban", Some(player), "").await?;
        }
        Ok(lifted)
    }

    /// The bans in force at `now`.
    ///
    /// # Errors
    /// When the query fails.
    pub async fn bans(&self, now: OffsetDateTime) -> Result<Vec<Ban>, StoreError> {
        dispatch!(self, s => s.bans(now).await)
    }

    /// Writes one act in the audit log.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn audit(
        &self,
        admin: Option<PlayerId>,
        action: &str,
        target: Option<PlayerId>,
        detail: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.audit(admin, action, target, detail).await)
    }

    /// Removes a table's chat line (`n` in `channel`); whose it was, `None` when there was none.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn remove_chat_line(
        &self,
        table: TableId,
        channel: crate::protocol::ChatChannel,
        n: u64,
    ) -> Result<Option<PlayerId>, StoreError> {
        let channel = super::chat::channel_text(channel);
        let n = i64::try_from(n).map_err(|_| StoreError::NotFound)?;
        dispatch!(self, s => s.remove_chat_line(table, channel, n).await)
    }

    /// The audit log, newest first (at most `limit`).
    ///
    /// # Errors
    /// When the query fails.
    pub async fn audit_log(&self, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
        dispatch!(self, s => s.audit_log(limit).await)
    }
}
