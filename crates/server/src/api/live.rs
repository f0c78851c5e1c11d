//! What the server says about itself now, from memory rather than the store's history: whether it and
//! its database answer, and the live public tables.

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tracing::warn;
use utoipa::ToSchema;

use super::{ApiErrorBody, no_query};
use crate::protocol::TableSummary;
use crate::server::AppState;

/// The server's health.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` when the database does not answer.
    pub status: String,
    /// `ok` or `unavailable`.
    pub database: String,
}

/// The live public tables.
#[derive(Debug, Serialize, ToSchema)]
pub struct Tables {
    /// Every public table that is waiting or playing.
    pub tables: Vec<TableSummary>,
}

/// Whether the server and its database answer.
#[utoipa::path(
    get,
    path = "/api/health",
    responses(
        (status = 200, description = "The server and its database answer.", body = Health),
        (status = 503, description = "The database does not answer.", body = Health)
    )
)]
pub(super) async fn health(State(state): State<AppState>) -> Response {
    match state.store.health().await {
        Ok(()) => Json(Health { status: "ok".into(), database: "ok".into() }).into_response(),
        Err(error) => {
            warn!(%error, "health check: the database does not answer");
            let body = Health { status: "unavailable".into(), database: "unavailable".into() };
            (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
        }
    }
}

/// The live public tables, waiting or playing: the lobby, for clients without a WebSocket.
#[utoipa::path(
    get,
    path = "/api/tables",
    responses(
        (status = 200, description = "The tables.", body = Tables),
        (status = 400, description = "A query parameter was given.", body = ApiErrorBody)
    )
)]
pub(super) async fn tables(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    match no_query(raw.as_deref()) {
        Ok(()) => Json(Tables { tables: state.lobby.public_tables() }).into_response(),
        Err(error) => error.into_response(),
    }
}
