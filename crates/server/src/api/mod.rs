//! The REST API: finished games and their records, players' statistics and ratings, each game's
//! leaderboard, the live public tables and the server's health, as JSON under `/api`; claiming a name
//! and signing in with it (the two `POST`s); and the OpenAPI document that describes it, generated from
//! the handlers' annotations (`GET /api/openapi.json`).
//!
//! Everything read here is public: a finished game's record shows the deck it was dealt from, but only
//! once the game is over. Games in play are only seen through the WebSocket, redacted per viewer.
//!
//! Every failure is an [`ApiError`]: a status and a JSON body `{"error": {"code", "message"}}` whose
//! `code` is stable ([`ApiErrorCode`]). Query parameters are checked strictly: an unknown one, one given
//! twice or a value that does not parse is a 400, never ignored.

mod account;
mod analysis;
mod collusion;
mod error;
mod games;
mod live;
mod me;
mod moderation;
mod names;
mod openapi;
mod players;
mod push;
mod query;
mod ratings;
mod tournaments;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::compression::CompressionLayer;
use uuid::Uuid;

pub use account::{ChatLineJson, Deletion, DeviceJson, Export, Me, PasswordChange};
pub use analysis::{AnalysisJson, DecisionJson, ReplayJson, ReplayStepJson, SummaryJson};
pub use collusion::{Collusion, SharedPairJson};
pub use error::{ApiError, ApiErrorBody, ApiErrorCode, ApiErrorDetail};
pub use games::{Game, GameList, GamePlayerJson};
pub use live::{Health, TableInfo, Tables};
pub use me::{MyTable, MyTables};
pub use moderation::{Audit, AuditJson, BanJson, BanRequest, Bans, ReportJson, ReportRequest, Reported, Reports};
pub use names::{ClaimRequest, Claimed, SignInRequest, SignedIn};
pub use openapi::ApiDoc;
pub use players::{PlayerGameStats, PlayerPage};
pub use push::{PushKey, Subscribed, SubscriptionKeys, SubscriptionRequest, UnsubscribeRequest};
pub use query::{GAME_QUERY_PARAMETERS, GameQuery};
pub use ratings::{Leaderboard, LeaderboardEntry, PlayerRatings, RatingChangeJson, RatingJson};
pub use tournaments::{ContributeRequest, CreateTournament, CreatedTournament, PauseRequest, TournamentList};

use crate::state::AppState;
use crate::store::StoreError;

/// The media type of the streamed game list.
pub const NDJSON: &str = "application/x-ndjson";

/// The routes under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/health", get(live::health))
        .route("/api/games", get(games::list_games))
        .route("/api/games/{id}", get(games::game))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/replay", get(analysis::replay).layer(CompressionLayer::new()))
        .route("/api/games/{id}/analysis", get(analysis::analysis).layer(CompressionLayer::new()))
        .route("/api/players/claim", post(names::claim).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)))
        .route("/api/sign-in", post(names::sign_in).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)))
        .route("/api/players/me", get(account::me).delete(account::delete_me))
        .route("/api/players/me/tables", get(me::my_tables))
        .route(
            "/api/players/me/password",
            post(account::change_password).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)),
        )
        .route("/api/players/me/export", get(account::export))
        .route("/api/reports", post(moderation::report).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)))
        .route("/api/admin/reports", get(moderation::reports))
        .route(
            "/api/admin/bans",
            get(moderation::bans).post(moderation::ban).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)),
        )
        .route("/api/admin/bans/{player}", axum::routing::delete(moderation::unban))
        .route("/api/admin/audit", get(moderation::audit))
        .route("/api/admin/collusion", get(collusion::collusion))
        .route("/api/admin/tables/{table}/chat/{channel}/{n}", axum::routing::delete(moderation::remove_line))
        .route("/api/admin/tables/{table}/close", post(moderation::close_table))
        .route("/api/sign-out", post(account::sign_out))
        .route("/api/sign-out-everywhere", post(account::sign_out_everywhere))
        .route("/api/players/{id}", get(players::player))
        .route("/api/players/{id}/ratings", get(ratings::player_ratings))
        .route("/api/leaderboard", get(ratings::leaderboard))
        .route("/api/tables", get(live::tables))
        .route("/api/tables/{id}", get(live::table))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)),
        )
        .route("/api/tournaments/{id}", get(tournaments::tournament))
        .route("/api/tournaments/{id}/join", post(tournaments::join))
        .route("/api/tournaments/{id}/withdraw", post(tournaments::withdraw))
        .route("/api/tournaments/{id}/contribute", post(tournaments::contribute))
        .route(
            "/api/tournaments/{id}/pause",
            post(tournaments::pause).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)),
        )
        .route("/api/push/key", get(push::key))
        .route(
            "/api/push/subscriptions",
            post(push::subscribe).delete(push::unsubscribe).layer(DefaultBodyLimit::max(names::MAX_BODY_BYTES)),
        )
        .route("/api/openapi.json", get(openapi::openapi_json))
}

/// A client's text cut short for an error message.
fn cut(text: &str) -> String {
    text.chars().take(40).collect()
}

fn uuid_param(what: &str, text: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(text).map_err(|_| ApiError::bad(format!("a {what} id is a UUID, not `{}`", cut(text))))
}

/// The one parameter `name` of an endpoint that takes no other, read strictly: an unknown parameter or
/// `name` given twice is a 400, and each value must pass `check` (in the order given).
fn one_parameter(
    raw: Option<&str>,
    name: &str,
    check: impl Fn(&str) -> Result<(), ApiError>,
) -> Result<Option<String>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|_| ApiError::bad("the query string is not URL-encoded"))?;
    let mut found = None;
    for (given, value) in pairs {
        if given != name {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                ApiErrorCode::UnknownParameter,
                format!("unknown parameter `{}`; known: {name}", cut(&given)),
            ));
        }
        if found.is_some() {
            return Err(ApiError::bad(format!("`{name}` is given more than once")));
        }
        check(&value)?;
        found = Some(value);
    }
    Ok(found)
}

fn no_query(raw: Option<&str>) -> Result<(), ApiError> {
    match raw {
        Some(raw) if !raw.is_empty() => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ApiErrorCode::UnknownParameter,
            "this endpoint takes no query parameters",
        )),
        _ => Ok(()),
    }
}

/// What the routes that name one stored thing by its UUID share: no query, the id checked, one lookup in
/// the store. `param` names the path parameter in a bad-id error, `thing` what was not found.
async fn find_by_id<T, Lookup>(
    raw: Option<String>,
    id: &str,
    param: &str,
    thing: &str,
    lookup: impl FnOnce(Uuid) -> Lookup,
) -> Result<T, ApiError>
where
    Lookup: Future<Output = Result<T, StoreError>>,
{
    no_query(raw.as_deref())?;
    let id = uuid_param(param, id)?;
    lookup(id).await.map_err(|error| ApiError::from_store(error, thing))
}

/// The response for a lookup: the found thing as `body` makes it, or the error.
fn respond<T, Body: IntoResponse>(found: Result<T, ApiError>, body: impl FnOnce(T) -> Body) -> Response {
    match found {
        Ok(found) => body(found).into_response(),
        Err(error) => error.into_response(),
    }
}
