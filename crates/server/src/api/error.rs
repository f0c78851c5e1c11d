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
}

/// An error answer: its status and body.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    pub(super) body: ApiErrorBody,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, code: ApiErrorCode, message: impl Into<String>) -> ApiError {
        ApiError { status, body: ApiErrorBody { error: ApiErrorDetail { code, message: message.into() } } }
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
        (self.status, Json(self.body)).into_response()
    }
}
