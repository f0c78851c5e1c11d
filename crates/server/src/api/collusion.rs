//! The collusion signal for admins: pairs of players who share an address (the store keeps keys of the
//! addresses players said hello from, never the addresses) and sat at the same rated tables again and again
//! (`GET /api/admin/collusion`). It points at pairs to look at, nothing more: a family or a club shares an
//! address too, and the admin decides.

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use utoipa::{IntoParams, ToSchema};

use super::moderation::admin_of;
use super::{ApiError, ApiErrorBody, ApiErrorCode, cut, respond};
use crate::protocol::PlayerInfo;
use crate::state::AppState;
use crate::store::SharedPair;

/// How many rated tables together make a pair worth listing, unless the admin asks otherwise.
const DEFAULT_MIN_TABLES: i64 = 3;

/// The most pairs listed.
const MAX_PAIRS: i64 = 100;

/// The collusion list's query string.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct CollusionQuery {
    /// The fewest rated tables a pair sat at together to be listed (default 3).
    #[param(minimum = 1, maximum = 1000)]
    min_tables: Option<i64>,
}

/// Two players who share an address and sat at rated tables together.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SharedPairJson {
    /// The two players.
    pub players: Vec<PlayerInfo>,
    /// How many addresses both said hello from.
    pub addresses: i64,
    /// How many rated tables both sat at.
    pub tables: i64,
    /// When the last of those games started (RFC 3339).
    pub last_at: String,
}

impl From<SharedPair> for SharedPairJson {
    fn from(pair: SharedPair) -> SharedPairJson {
        SharedPairJson {
            players: pair.players.to_vec(),
            addresses: pair.addresses,
            tables: pair.tables,
            last_at: pair.last_at.format(&Rfc3339).unwrap_or_default(),
        }
    }
}

/// The pairs, the most tables together first.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Collusion {
    /// The fewest tables together a listed pair has.
    pub min_tables: i64,
    /// At most 100 pairs.
    pub pairs: Vec<SharedPairJson>,
}

/// Reads the query string strictly: `min_tables`, the one parameter.
fn parse(raw: Option<&str>) -> Result<CollusionQuery, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|_| ApiError::bad("the query string is not URL-encoded"))?;
    let mut min = None;
    for (name, value) in &pairs {
        if name != "min_tables" {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                ApiErrorCode::UnknownParameter,
                format!("unknown parameter `{}`; known: min_tables", cut(name)),
            ));
        }
        if min.is_some() {
            return Err(ApiError::bad("`min_tables` is given more than once"));
        }
        match value.parse::<i64>() {
            Ok(n @ 1..=1000) => min = Some(n),
            _ => return Err(ApiError::bad("`min_tables` is a number from 1 to 1000")),
        }
    }
    Ok(CollusionQuery { min_tables: min })
}

/// Pairs of players who share an address and sat at the same rated tables again and again (admins only).
#[utoipa::path(
    get,
    path = "/api/admin/collusion",
    params(CollusionQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The pairs, the most rated tables together first.", body = Collusion),
        (status = 400, description = "A parameter is unknown, repeated or bad.", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Not an admin (`not_admin`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn collusion(State(state): State<AppState>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Response {
    let found = async {
        admin_of(&state, &headers).await?;
        let min_tables = parse(raw.as_deref())?.min_tables.unwrap_or(DEFAULT_MIN_TABLES);
        let pairs = state
            .store
            .shared_address_pairs(min_tables, MAX_PAIRS)
            .await
            .map_err(|error| ApiError::from_store(error, "pair"))?;
        Ok::<_, ApiError>(Collusion { min_tables, pairs: pairs.into_iter().map(SharedPairJson::from).collect() })
    };
    respond(found.await, |answer| Json(answer).into_response())
}
