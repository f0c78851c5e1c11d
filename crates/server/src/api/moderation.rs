//! Moderation over REST: any player reports another (`POST /api/reports`, bearer); admins, named from the
//! command line (`romirami admin grant NAME`), read the open reports (`GET /api/admin/reports`), ban and lift
//! bans (`GET`/`POST /api/admin/bans`, `DELETE /api/admin/bans/{player}`) and read the audit log of every
//! admin's act (`GET /api/admin/audit`), remove a chat line (`DELETE /api/admin/tables/{table}/chat/{channel}/{n}`)
//! and close a table (`POST /api/admin/tables/{table}/close`). Everyone else gets 403 `not_admin` from the admin endpoints.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::names::json_body;
use super::tournaments::player_of;
use super::{ApiError, ApiErrorBody, ApiErrorCode, respond, uuid_param};
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::state::AppState;
use crate::store::{AuditEntry, Ban, NewReport, Report, StoreError};
use crate::text::clean_reason;

/// How many reports a player may make in an hour.
const REPORTS_PER_HOUR: i64 = 10;
/// The longest ban, in minutes: a year.
const MAX_BAN_MINUTES: u32 = 525_600;

/// What `POST /api/reports` reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// The player reported.
    #[schema(value_type = String, format = Uuid)]
    pub player: Uuid,
    /// The table where it happened.
    #[serde(default)]
    #[schema(value_type = Option<String>, format = Uuid)]
    pub table: Option<Uuid>,
    /// The chat line reported, by its number at that table (`n` of the `chat` message).
    #[serde(default)]
    pub chat: Option<i64>,
    /// Why: 1 to 500 characters.
    pub reason: String,
}

/// A report made.
#[derive(Debug, Serialize, ToSchema)]
pub struct Reported {
    /// Its number.
    pub id: i64,
}

/// A report, as admins read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportJson {
    /// Its number.
    pub id: i64,
    /// Who reported.
    pub reporter: PlayerInfo,
    /// Whom.
    pub player: PlayerInfo,
    /// At which table.
    #[schema(value_type = Option<String>, format = Uuid)]
    pub table: Option<Uuid>,
    /// Which chat line there.
    pub chat: Option<i64>,
    /// That line as it read when reported (when the player reported wrote it).
    pub line: Option<String>,
    /// That line's chat, `players` or `spectators` (with `table` and `chat`, what removes it).
    pub channel: Option<String>,
    /// Why.
    pub reason: String,
    /// When (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

impl From<Report> for ReportJson {
    fn from(r: Report) -> ReportJson {
        ReportJson {
            id: r.id,
            reporter: r.reporter,
            player: r.player,
            table: r.table.map(|t| t.0),
            chat: r.chat,
            line: r.line,
            channel: r.channel,
            reason: r.reason,
            created_at: r.created_at,
        }
    }
}

/// The open reports, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Reports {
    /// At most 200.
    pub reports: Vec<ReportJson>,
}

/// What `POST /api/admin/bans` reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BanRequest {
    /// The player banned.
    #[schema(value_type = String, format = Uuid)]
    pub player: Uuid,
    /// For how long: 1 to 525,600 minutes (a year).
    pub minutes: u32,
    /// Why (shown to the player): 1 to 500 characters.
    pub reason: String,
}

/// A ban in force.
#[derive(Debug, Serialize, ToSchema)]
pub struct BanJson {
    /// The banned player.
    pub player: PlayerInfo,
    /// Until when (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub until: OffsetDateTime,
    /// Why.
    pub reason: String,
}

impl From<Ban> for BanJson {
    fn from(b: Ban) -> BanJson {
        BanJson { player: b.player, until: b.until, reason: b.reason }
    }
}

/// The bans in force.
#[derive(Debug, Serialize, ToSchema)]
pub struct Bans {
    /// Soonest to end first.
    pub bans: Vec<BanJson>,
}

/// One act of an admin.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditJson {
    /// When (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub at: OffsetDateTime,
    /// The admin; `null` for the command line.
    pub admin: Option<PlayerInfo>,
    /// `grant`, `revoke`, `ban` or `unban`.
    pub action: String,
    /// Whom it was about.
    pub target: Option<PlayerInfo>,
    /// The rest: a ban's length and reason.
    pub detail: String,
}

impl From<AuditEntry> for AuditJson {
    fn from(e: AuditEntry) -> AuditJson {
        AuditJson { at: e.at, admin: e.admin, action: e.action, target: e.target, detail: e.detail }
    }
}

/// The audit log, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Audit {
    /// At most 200.
    pub entries: Vec<AuditJson>,
}

fn store_error(error: StoreError) -> ApiError {
    ApiError::from_store(error, "player")
}

fn bad_report(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadReport, message)
}

/// The admin whose bearer token this is.
pub(super) async fn admin_of(state: &AppState, headers: &HeaderMap) -> Result<PlayerInfo, ApiError> {
    let player = player_of(state, headers).await?;
    if state.store.is_admin(player.id).await.map_err(store_error)? {
        Ok(player)
    } else {
        Err(ApiError::new(StatusCode::FORBIDDEN, ApiErrorCode::NotAdmin, "only an admin may do this"))
    }
}

/// Reports a player (at a table, of a chat line there) to the admins.
#[utoipa::path(
    post,
    path = "/api/reports",
    request_body = ReportRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Reported.", body = Reported),
        (status = 400, description = "Not a report (`bad_body`, `bad_report`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 404, description = "No such player.", body = ApiErrorBody),
        (status = 429, description = "Ten reports in the last hour already (`too_many_reports`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn report(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let done = async {
        let reporter = player_of(&state, &headers).await?;
        let request: ReportRequest = json_body(body)?;
        let reason = clean_reason(&request.reason).map_err(bad_report)?;
        if request.player == reporter.id.0 {
            return Err(bad_report("one does not report oneself"));
        }
        state.store.player_ratings(PlayerId(request.player)).await.map_err(store_error)?;
        let hour_ago = OffsetDateTime::now_utc() - time::Duration::HOUR;
        if state.store.reports_by(reporter.id, hour_ago).await.map_err(store_error)? >= REPORTS_PER_HOUR {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ApiErrorCode::TooManyReports,
                "you made ten reports in the last hour; the admins read them first",
            ));
        }
        let report = NewReport {
            reporter: reporter.id,
            player: PlayerId(request.player),
            table: request.table.map(TableId),
            chat: request.chat,
            reason: &reason,
        };
        let id = state.store.add_report(&report).await.map_err(store_error)?;
        tracing::info!(report = id, reporter = %reporter.id, "a player was reported");
        Ok::<_, ApiError>((StatusCode::CREATED, Json(Reported { id })))
    };
    respond(done.await, |answer| answer)
}

/// The reports nobody acted on yet (admins only).
#[utoipa::path(
    get,
    path = "/api/admin/reports",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The open reports, oldest first.", body = Reports),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody)
    )
)]
pub(super) async fn reports(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let found = async {
        admin_of(&state, &headers).await?;
        let reports = state.store.open_reports(200).await.map_err(store_error)?;
        Ok::<_, ApiError>(Reports { reports: reports.into_iter().map(ReportJson::from).collect() })
    };
    respond(found.await, Json)
}

/// The bans in force (admins only).
#[utoipa::path(
    get,
    path = "/api/admin/bans",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The bans in force.", body = Bans),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody)
    )
)]
pub(super) async fn bans(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let found = async {
        admin_of(&state, &headers).await?;
        let bans = state.store.bans(OffsetDateTime::now_utc()).await.map_err(store_error)?;
        Ok::<_, ApiError>(Bans { bans: bans.into_iter().map(BanJson::from).collect() })
    };
    respond(found.await, Json)
}

/// Bans a player (admins only): refused at `hello` and at sign-in until it ends, their connections closed;
/// the open reports about them are resolved.
#[utoipa::path(
    post,
    path = "/api/admin/bans",
    request_body = BanRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Banned.", body = BanJson),
        (status = 400, description = "Not a ban (`bad_body`, `bad_report` for the reason, `bad_parameter` for \
                                      the minutes).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody),
        (status = 404, description = "No such player.", body = ApiErrorBody)
    )
)]
pub(super) async fn ban(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let done = async {
        let admin = admin_of(&state, &headers).await?;
        let request: BanRequest = json_body(body)?;
        let reason = clean_reason(&request.reason).map_err(bad_report)?;
        if !(1..=MAX_BAN_MINUTES).contains(&request.minutes) {
            return Err(ApiError::bad(format!("a ban lasts 1 to {MAX_BAN_MINUTES} minutes")));
        }
        let player = PlayerId(request.player);
        if player == admin.id {
            return Err(ApiError::bad("an admin does not ban themselves"));
        }
        state.store.player_ratings(player).await.map_err(store_error)?;
        let until = OffsetDateTime::now_utc() + time::Duration::minutes(i64::from(request.minutes));
        let detail = format!("{} minutes: {reason}", request.minutes);
        state.store.ban(player, until, &reason, admin.id, &detail).await.map_err(store_error)?;
        // In force on this node at once (its connections closed); on the others at their next read.
        state.moderation.refresh().await.map_err(store_error)?;
        tracing::info!(admin = %admin.id, %player, minutes = request.minutes, "a player was banned");
        let banned = state.store.bans(OffsetDateTime::now_utc()).await.map_err(store_error)?;
        let ban = banned.into_iter().find(|b| b.player.id == player).ok_or_else(|| ApiError::not_found("ban"))?;
        Ok::<_, ApiError>((StatusCode::CREATED, Json(BanJson::from(ban))))
    };
    respond(done.await, |answer| answer)
}

/// Lifts a player's ban (admins only).
#[utoipa::path(
    delete,
    path = "/api/admin/bans/{player}",
    params(("player" = String, Path, description = "The banned player's id.")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The ban is lifted."),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody),
        (status = 404, description = "The player is not banned.", body = ApiErrorBody)
    )
)]
pub(super) async fn unban(State(state): State<AppState>, headers: HeaderMap, Path(player): Path<String>) -> Response {
    let done = async {
        let admin = admin_of(&state, &headers).await?;
        let player = PlayerId(uuid_param("player", &player)?);
        if !state.store.unban(player, admin.id).await.map_err(store_error)? {
            return Err(ApiError::not_found("ban"));
        }
        state.moderation.refresh().await.map_err(store_error)?;
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    respond(done.await, |status| status.into_response())
}

/// Tells a live table an admin's act; `false` when the table is not live.
async fn tell_table(
    state: &AppState,
    admin: &PlayerInfo,
    table: TableId,
    act: crate::table::ModerationAct,
) -> Result<bool, ApiError> {
    let Some(handle) = state.live_table(table).await.map_err(store_error)? else { return Ok(false) };
    // The admin is no member of the table: what it would say to them goes nowhere.
    let (out, _queue, _too_slow) = crate::table::Outbox::new(16);
    let from = crate::table::Sender { conn: crate::table::ConnId(u64::MAX), player: admin.clone(), out };
    Ok(handle.send_or_return(crate::table::TableCommand::Moderate { from, act }).await.is_ok())
}

/// Removes a chat line (admins only): the store forgets it, and the live table's members read the chat again
/// without it.
#[utoipa::path(
    delete,
    path = "/api/admin/tables/{table}/chat/{channel}/{n}",
    params(
        ("table" = String, Path, description = "The table's id."),
        ("channel" = String, Path, description = "`players` or `spectators`."),
        ("n" = u64, Path, description = "The line's number in its chat.")
    ),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The line is removed."),
        (status = 400, description = "Not a table, chat or number (`bad_parameter`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody),
        (status = 404, description = "No such line.", body = ApiErrorBody)
    )
)]
pub(super) async fn remove_line(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((table, channel, n)): Path<(String, String, String)>,
) -> Response {
    let done = async {
        let admin = admin_of(&state, &headers).await?;
        let table = TableId(uuid_param("table", &table)?);
        let channel = match channel.as_str() {
            "players" => crate::protocol::ChatChannel::Players,
            "spectators" => crate::protocol::ChatChannel::Spectators,
            _ => return Err(ApiError::bad("a chat is `players` or `spectators`")),
        };
        let n: u64 = n.parse().map_err(|_| ApiError::bad("a line's number is a whole number"))?;
        let Some(writer) = state.store.remove_chat_line(table, channel, n).await.map_err(store_error)? else {
            return Err(ApiError::not_found("chat line"));
        };
        tell_table(&state, &admin, table, crate::table::ModerationAct::RemoveChat { channel, n }).await?;
        let detail = format!("line {n} of the {} chat at table {table}", channel_word(channel));
        state.store.audit(Some(admin.id), "remove_line", Some(writer), &detail).await.map_err(store_error)?;
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    respond(done.await, |status| status.into_response())
}

fn channel_word(channel: crate::protocol::ChatChannel) -> &'static str {
    match channel {
        crate::protocol::ChatChannel::Players => "players'",
        crate::protocol::ChatChannel::Spectators => "spectators'",
    }
}

/// Closes a table (admins only): a game in play ends as abandoned, a waiting table closes.
#[utoipa::path(
    post,
    path = "/api/admin/tables/{table}/close",
    params(("table" = String, Path, description = "The table's id.")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The table is told to close."),
        (status = 400, description = "Not a table id (`bad_parameter`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody),
        (status = 404, description = "No such live table.", body = ApiErrorBody)
    )
)]
pub(super) async fn close_table(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(table): Path<String>,
) -> Response {
    let done = async {
        let admin = admin_of(&state, &headers).await?;
        let table = TableId(uuid_param("table", &table)?);
        if !tell_table(&state, &admin, table, crate::table::ModerationAct::Close).await? {
            return Err(ApiError::not_found("live table"));
        }
        let detail = format!("table {table}");
        state.store.audit(Some(admin.id), "close", None, &detail).await.map_err(store_error)?;
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    respond(done.await, |status| status.into_response())
}

/// The audit log: every act of an admin, and of the command line (admins only).
#[utoipa::path(
    get,
    path = "/api/admin/audit",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The audit log, newest first.", body = Audit),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody)
    )
)]
pub(super) async fn audit(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let found = async {
        admin_of(&state, &headers).await?;
        let entries = state.store.audit_log(200).await.map_err(store_error)?;
        Ok::<_, ApiError>(Audit { entries: entries.into_iter().map(AuditJson::from).collect() })
    };
    respond(found.await, Json)
}
