//! Every failure of the REST API: a status and a JSON body whose `code` is stable.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tracing::{error, warn};
use utoipa::ToSchema;

use crate::store::StoreError;

/// A stable error code of the REST API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ApiErrorCode {
    /// A query or path parameter does not parse or is out of range (400).
    BadParameter,
    /// A query parameter this endpoint does not know (400).
    UnknownParameter,
    /// No such game or player (404).
    NotFound,
    /// A request's body is not the JSON the endpoint reads (400).
    BadBody,
    /// A request's body is larger than the endpoint reads (413).
    TooLarge,
    /// The password is too short or too long (400).
    BadPassword,
    /// The name cannot be a display name: empty, too long, invisible or control characters (400).
    BadName,
    /// No token, or one no player has (401).
    BadToken,
    /// The player already keeps their name (409).
    AlreadyClaimed,
    /// Another player keeps this name, in some case or width (409).
    NameTaken,
    /// No player keeps this name, or this is not its password: one answer for both (401).
    WrongNameOrPassword,
    /// The player is banned (403): `retry_after` says in how many seconds the ban ends; the message says why.
    Banned,
    /// Only an admin may do this (403).
    NotAdmin,
    /// Not a report that can be made: the player reported is the reporter, or the reason is empty or too
    /// long (400).
    BadReport,
    /// The player made as many reports lately as allowed (10 an hour) (429).
    TooManyReports,
    /// Not the player's password (403).
    WrongPassword,
    /// The player sits at a table that is not over (409): they finish or leave their games first.
    AtATable,
    /// Too many wrong passwords for this name or from this address lately (429): the answer's
    /// `retry_after` (and its `Retry-After` header) says in how many seconds to try again.
    TooManyAttempts,
    /// The server is doing as much of this work as it queues (429): the answer's `retry_after` (and its
    /// `Retry-After` header) says in how many seconds to try again.
    Busy,
    /// Not a tournament that can be: its game, table size, clock, start or shape (400).
    BadTournament,
    /// Only a player who keeps their name with a password may do this (403).
    NameNotKept,
    /// The player has as many tournaments not finished as allowed (409).
    TooManyTournaments,
    /// The tournament takes no more players, or is over (409).
    TournamentClosed,
    /// Every place of the tournament is taken (409).
    TournamentFull,
    /// The player is already in the tournament (409).
    AlreadyJoined,
    /// The player is not (or no longer) in the tournament (409).
    NotJoined,
    /// Only a running arena can be paused (409).
    NotArena,
    /// No duplicate round's deal awaits the player's contribution (409).
    NotDealing,
    /// The player already contributed to the round's deal (409).
    AlreadyContributed,
    /// A contribution is 64 lower-case hex digits (32 bytes) (400).
    BadContribution,
    /// The game belongs to a duplicate round whose deal is still being played at other tables: it is
    /// shown once the round is over (409).
    DealInPlay,
    /// A push subscription the server does not take: keys that are not a device's, or an endpoint that
    /// is not a known push service's (400).
    BadPushSubscription,
    /// The database does not answer (503); try again later.
    Unavailable,
    /// Something went wrong on the server (500); nothing about it is shown.
    Internal,
}

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiErrorBody {
    /// What went wrong.
    pub error: ApiErrorDetail,
}

/// What went wrong.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiErrorDetail {
    /// A stable code a program can branch on.
    pub code: ApiErrorCode,
    /// A sentence for people; its wording may change.
    pub message: String,
    /// With `too_many_attempts`: how many seconds to wait before trying again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
}

/// An error answer: its status and body.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    pub(super) body: ApiErrorBody,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, code: ApiErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ApiErrorBody { error: ApiErrorDetail { code, message: message.into(), retry_after: None } },
        }
    }

    pub(super) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadParameter, message)
    }

    pub(super) fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, ApiErrorCode::NotFound, format!("there is no such {what}"))
    }

    /// Logs the cause and answers with nothing about it.
    pub(super) fn internal(cause: &dyn std::fmt::Display) -> ApiError {
        error!(%cause, "a REST request failed");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, ApiErrorCode::Internal, "the server could not answer")
    }

    /// The game `id` is sealed (see [`ApiErrorCode::DealInPlay`]).
    pub(super) fn deal_in_play() -> ApiError {
        ApiError::new(
            StatusCode::CONFLICT,
            ApiErrorCode::DealInPlay,
            "this game's deal is still being played at other tables of its round; it is shown once the round is over",
        )
    }

    pub(super) fn from_store(error: StoreError, what: &str) -> ApiError {
        match error {
            StoreError::NotFound => ApiError::not_found(what),
            StoreError::Unavailable(cause) => {
                warn!(%cause, "a REST request found the database unavailable");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ApiErrorCode::Unavailable,
                    "the database does not answer; try again later",
                )
            }
            other => ApiError::internal(&other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = self.body.error.retry_after;
        let mut response = (self.status, Json(self.body)).into_response();
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
