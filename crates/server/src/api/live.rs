//! What the server says about itself now: whether it and its database answer, the live public tables
//! (from memory), and one table as its invite page tells it (from the store, wherever it is played).

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tracing::warn;
use utoipa::ToSchema;

use super::{ApiError, ApiErrorBody, no_query, one_parameter, uuid_param};
use crate::protocol::{Clock, SpectatorPolicy, TableId, TableState, TableSummary};
use crate::state::AppState;

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

/// A table as its invite page tells it, before one sits down: which game, with what options and clock.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableInfo {
    /// The table's id.
    pub id: TableId,
    /// The game it seats, by its name (`romi-rami`).
    pub game: String,
    /// Waiting for players, playing, or finished.
    pub state: TableState,
    /// How many seats it has.
    pub seats: u8,
    /// Whether it is listed in the lobby.
    pub public: bool,
    /// Who may watch.
    pub spectators: SpectatorPolicy,
    /// The turn clock, if the table has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// The game's options as the game wrote them in full (`{}` for Romi Rami).
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    /// Whether its game counts for the ratings: the host chose so (the host's bots count too).
    pub rated: bool,
}

/// One table that waits for its players, plays or has finished, wherever in the site it is played: what
/// an invite link's page says before one sits down. A public table, or one whose game has finished, is told
/// to anyone; a private one in waiting or in play only with its invite key (the `invite` of the link), and is
/// otherwise answered as no table at all.
#[utoipa::path(
    get,
    path = "/api/tables/{id}",
    params(
        ("id" = String, Path, description = "The table's id (a UUID).", format = Uuid),
        ("invite" = Option<String>, Query, description = "The invite key of the table's link.")
    ),
    responses(
        (status = 200, description = "The table.", body = TableInfo),
        (status = 400, description = "The id is not a UUID, or a query parameter is not `invite`.",
         body = ApiErrorBody),
        (status = 404, description = "No table has this id, it closed before its game started, or it is \
         private, not finished, and the invite key is missing or wrong.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn table(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = async {
        let invite = one_parameter(raw.as_deref(), "invite", |_| Ok(()))?;
        let id = TableId(uuid_param("table", &id)?);
        let stored = state.store.table(id).await.map_err(|error| ApiError::from_store(error, "table"))?;
        let table = stored.table;
        // A finished game is public (`/api/games`), wherever it was played.
        let told = table.public || stored.state == TableState::Finished;
        if !told && invite.as_deref() != Some(table.invite.as_str()) {
            return Err(ApiError::not_found("table"));
        }
        let options = serde_json::from_str(&table.options).map_err(|error| ApiError::internal(&error))?;
        Ok(TableInfo {
            id,
            game: table.game,
            state: stored.state,
            seats: table.seats,
            public: table.public,
            spectators: table.spectators,
            clock: table.clock,
            options,
            rated: table.rated && !stored.old_bot,
        })
    };
    match found.await {
        Ok(info) => Json(info).into_response(),
        Err(error) => error.into_response(),
    }
}
