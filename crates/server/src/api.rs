//! The REST API: finished games and their records, players' statistics, the live public tables and the
//! server's health, as JSON under `/api`; and the OpenAPI document that describes it, generated from
//! the handlers below (`GET /api/openapi.json`).
//!
//! Everything here is public: a finished game's record shows the deck it was dealt from, but only once
//! the game is over. Games in play are only seen through the WebSocket, redacted per viewer.
//!
//! Every failure is an [`ApiError`]: a status and a JSON body `{"error": {"code", "message"}}` whose
//! `code` is stable ([`ApiErrorCode`]). Query parameters are checked strictly: an unknown one, one given
//! twice or a value that does not parse is a 400, never ignored.

use std::collections::VecDeque;

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use bytes::Bytes;
use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tracing::{error, warn};
use utoipa::{IntoParams, OpenApi, ToSchema};
use uuid::Uuid;

use crate::protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId, TableState, TableSummary};
use crate::server::AppState;
use crate::store::{GameCursor, GameFilter, GameSummary, MAX_LIST_LIMIT, PlayerFilter, PlayerStats, Store, StoreError};

/// The media type of the streamed game list.
pub const NDJSON: &str = "application/x-ndjson";

/// The routes under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/games", get(list_games))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(record))
        .route("/api/players/{id}", get(player))
        .route("/api/tables", get(tables))
        .route("/api/openapi.json", get(openapi_json))
}

/// The OpenAPI document of this API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Romi Rami Online",
        description = "Finished games, their records, players' statistics and the live public tables \
                       of a Romi Rami Online server. Games in play are played and watched over the \
                       WebSocket at /ws (see docs/protocol.md)."
    ),
    paths(health, list_games, game, record, player, tables),
    components(schemas(
        Health,
        GameList,
        Game,
        GamePlayerJson,
        PlayerPage,
        Tables,
        TableSummary,
        TableState,
        SpectatorPolicy,
        PlayerInfo,
        PlayerId,
        TableId,
        ApiErrorBody,
        ApiErrorDetail,
        ApiErrorCode
    ))
)]
pub struct ApiDoc;

async fn openapi_json() -> Response {
    match ApiDoc::openapi().to_json() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => ApiError::internal(&e).into_response(),
    }
}

// ---------------------------------------------------------------------------------------------------
// Errors

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
    body: ApiErrorBody,
}

impl ApiError {
    fn new(status: StatusCode, code: ApiErrorCode, message: impl Into<String>) -> ApiError {
        ApiError { status, body: ApiErrorBody { error: ApiErrorDetail { code, message: message.into() } } }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadParameter, message)
    }

    fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, ApiErrorCode::NotFound, format!("there is no such {what}"))
    }

    /// Logs the cause and answers with nothing about it.
    fn internal(cause: &dyn std::fmt::Display) -> ApiError {
        error!(%cause, "a REST request failed");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, ApiErrorCode::Internal, "the server could not answer")
    }

    fn from_store(error: StoreError, what: &str) -> ApiError {
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

// ---------------------------------------------------------------------------------------------------
// What the API answers with

/// The server's health.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` when the database does not answer.
    pub status: String,
    /// `ok` or `unavailable`.
    pub database: String,
}

/// A seated player of a finished game.
#[derive(Debug, Serialize, ToSchema)]
pub struct GamePlayerJson {
    /// The seat, from 0.
    pub seat: u8,
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// The name shown in this game.
    pub name: String,
    /// Whether the host gave the seat to a bot.
    pub bot: bool,
}

/// A finished game and its result. `players`, `scores` and `places` are in seat order.
#[derive(Debug, Serialize, ToSchema)]
pub struct Game {
    /// The game's id (also its table's).
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Which game it is, by its name (`romi-rami`).
    pub game: String,
    /// When it started (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub started_at: OffsetDateTime,
    /// When it finished (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub finished_at: OffsetDateTime,
    /// How it ended, in the game's words. Romi Rami: `contracts` (the contract market could not be
    /// refilled), `market` (the number market could not be refilled) or `abandoned` (stopped before
    /// its end).
    pub ended_by: String,
    /// Who played, in seat order, with the names shown in the game.
    pub players: Vec<GamePlayerJson>,
    /// Their scores, part by part, as the game gives them: an object per seat with at least `total`.
    /// Romi Rami (§5): `seat`, `total`, `contracts` (§5.1, points of the seat's contracts), `trophies`
    /// (§5.2, points of the trophies it won), `suit_bonus` (§5.3) and `star` (§5.4, 1 when it never used
    /// its Star).
    #[schema(value_type = Vec<Object>)]
    pub scores: Vec<serde_json::Value>,
    /// Their places: 1 for the best; seats level share a place (Romi Rami: level on total and suit
    /// bonus).
    pub places: Vec<u8>,
    /// The winning seats (more than one on a shared win; none in an abandoned game).
    pub winners: Vec<u8>,
    /// For each seat, how many of its actions the server's bot played: all for a bot's seat, some for a
    /// player who ran out of time or left, none for a player who played every move.
    pub bot_actions: Vec<u32>,
}

impl From<GameSummary> for Game {
    fn from(summary: GameSummary) -> Game {
        let results = &summary.results;
        Game {
            id: summary.id.0,
            game: summary.game.clone(),
            started_at: summary.started_at,
            finished_at: summary.finished_at,
            ended_by: summary.ended_by.clone(),
            players: results
                .iter()
                .map(|r| GamePlayerJson {
                    seat: r.player.seat.0,
                    id: r.player.id.0,
                    name: r.player.name.clone(),
                    bot: r.player.bot,
                })
                .collect(),
            // The details as the game gives them: for Romi Rami, the fields of its score breakdown,
            // which is what this list showed before the store kept any game.
            scores: results.iter().map(|r| r.details.clone()).collect(),
            places: results.iter().map(|r| r.place).collect(),
            winners: results.iter().filter(|r| r.winner).map(|r| r.player.seat.0).collect(),
            bot_actions: results.iter().map(|r| r.bot_actions).collect(),
        }
    }
}

/// A page of the game list.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameList {
    /// The games, newest first.
    pub games: Vec<Game>,
    /// Pass as `cursor` for the next page; `null` on the last page.
    pub next: Option<String>,
}

/// A player's page: who they are and how they do.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerPage {
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Their display name.
    pub name: String,
    /// Finished games they played.
    pub games_played: u64,
    /// Games they won (a shared win counts).
    pub wins: u64,
    /// Their average total score; `null` before their first finished game.
    pub average_score: Option<f64>,
    /// Their latest finished games, newest first (at most 10).
    pub recent: Vec<Game>,
}

impl From<PlayerStats> for PlayerPage {
    fn from(stats: PlayerStats) -> PlayerPage {
        PlayerPage {
            id: stats.player.id.0,
            name: stats.player.name,
            games_played: stats.games_played,
            wins: stats.wins,
            average_score: stats.average_score,
            recent: stats.recent.into_iter().map(Game::from).collect(),
        }
    }
}

/// The live public tables.
#[derive(Debug, Serialize, ToSchema)]
pub struct Tables {
    /// Every public table that is waiting or playing.
    pub tables: Vec<TableSummary>,
}

// ---------------------------------------------------------------------------------------------------
// Query parameters

/// The filters and paging of the game list. Every parameter is optional.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    /// Games this player played: their id, or the exact name they played under.
    pub player: Option<String>,
    /// Games that finished at this instant or later (RFC 3339, e.g. `2026-11-21T08:00:00Z`).
    #[param(value_type = Option<String>, format = DateTime)]
    pub since: Option<OffsetDateTime>,
    /// Games that finished before this instant (RFC 3339).
    #[param(value_type = Option<String>, format = DateTime)]
    pub until: Option<OffsetDateTime>,
    /// Games with this many players.
    #[param(minimum = 2, maximum = 4)]
    pub players: Option<u8>,
    /// Games of this game, by its name (`romi-rami`); a name the server does not know matches no game.
    pub game: Option<String>,
    /// How many games per page (default 20). With `Accept: application/x-ndjson`, how many games in
    /// all (default: every game that matches).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
    /// Where the page starts: the `next` of the previous page.
    #[param(value_type = Option<String>)]
    pub cursor: Option<GameCursor>,
}

/// The names [`GameQuery`] accepts.
pub const GAME_QUERY_PARAMETERS: [&str; 7] = ["player", "since", "until", "players", "game", "limit", "cursor"];

impl GameQuery {
    /// Reads a query string strictly.
    ///
    /// # Errors
    /// An unknown parameter, one given twice, or a value that does not parse or is out of range.
    pub fn parse(raw: Option<&str>) -> Result<GameQuery, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|_| ApiError::bad("the query string is not URL-encoded"))?;
        let mut query = GameQuery::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &pairs {
            let Some(known) = GAME_QUERY_PARAMETERS.iter().find(|known| *known == name) else {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    ApiErrorCode::UnknownParameter,
                    format!("unknown parameter `{}`; known: {}", cut(name), GAME_QUERY_PARAMETERS.join(", ")),
                ));
            };
            if seen.contains(known) {
                return Err(ApiError::bad(format!("`{known}` is given more than once")));
            }
            seen.push(known);
            match *known {
                "player" => {
                    if value.is_empty() {
                        return Err(ApiError::bad("`player` needs a player id or name"));
                    }
                    query.player = Some(value.clone());
                }
                "game" => {
                    if value.is_empty() {
                        return Err(ApiError::bad("`game` needs a game's name, like romi-rami"));
                    }
                    query.game = Some(value.clone());
                }
                "since" => query.since = Some(instant("since", value)?),
                "until" => query.until = Some(instant("until", value)?),
                "players" => match value.parse::<u8>() {
                    Ok(n @ 2..=4) => query.players = Some(n),
                    _ => return Err(ApiError::bad("`players` is 2, 3 or 4")),
                },
                "limit" => match value.parse::<u32>() {
                    Ok(n @ 1..=MAX_LIST_LIMIT) => query.limit = Some(n),
                    _ => return Err(ApiError::bad(format!("`limit` is a number from 1 to {MAX_LIST_LIMIT}"))),
                },
                _ => {
                    query.cursor = Some(
                        value.parse().map_err(|_| ApiError::bad("`cursor` is not a cursor this server gave out"))?,
                    );
                }
            }
        }
        Ok(query)
    }

    fn filter(&self) -> GameFilter {
        GameFilter {
            player: self.player.as_deref().map(PlayerFilter::parse),
            since: self.since,
            until: self.until,
            players: self.players,
            game: self.game.clone(),
        }
    }
}

fn instant(name: &str, value: &str) -> Result<OffsetDateTime, ApiError> {
    OffsetDateTime::parse(value, &Rfc3339)
        .map_err(|_| ApiError::bad(format!("`{name}` is an RFC 3339 instant, like 2026-11-21T08:00:00Z")))
}

/// A client's text cut short for an error message.
fn cut(text: &str) -> String {
    text.chars().take(40).collect()
}

fn uuid_param(what: &str, text: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(text).map_err(|_| ApiError::bad(format!("a {what} id is a UUID, not `{}`", cut(text))))
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

// ---------------------------------------------------------------------------------------------------
// Handlers

/// Whether the server and its database answer.
#[utoipa::path(
    get,
    path = "/api/health",
    responses(
        (status = 200, description = "The server and its database answer.", body = Health),
        (status = 503, description = "The database does not answer.", body = Health)
    )
)]
async fn health(State(state): State<AppState>) -> Response {
    match state.store.health().await {
        Ok(()) => Json(Health { status: "ok".into(), database: "ok".into() }).into_response(),
        Err(error) => {
            warn!(%error, "health check: the database does not answer");
            let body = Health { status: "unavailable".into(), database: "unavailable".into() };
            (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
        }
    }
}

/// Finished games, newest first, filtered and paged. With `Accept: application/x-ndjson`, every
/// matching game is streamed instead, one JSON object per line (bulk export); an error after the
/// first line ends the stream with a line `{"error": {...}}`.
#[utoipa::path(
    get,
    path = "/api/games",
    params(GameQuery),
    responses(
        (status = 200,
         description = "A page of games (JSON), or every matching game, one per line (NDJSON, when asked for).",
         content((GameList = "application/json"), (Game = "application/x-ndjson"))),
        (status = 400, description = "A bad parameter.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
async fn list_games(State(state): State<AppState>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Response {
    let query = match GameQuery::parse(raw.as_deref()) {
        Ok(query) => query,
        Err(error) => return error.into_response(),
    };
    let wants_ndjson = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|accept| accept.split(',').any(|kind| kind.trim().starts_with(NDJSON)));
    if wants_ndjson {
        return stream_games(state.store.clone(), query);
    }
    match state.store.list_games(&query.filter(), query.limit, query.cursor).await {
        Ok(page) => Json(GameList {
            games: page.games.into_iter().map(Game::from).collect(),
            next: page.next.map(|cursor| cursor.to_string()),
        })
        .into_response(),
        Err(error) => ApiError::from_store(error, "game").into_response(),
    }
}

/// Where a stream of games stands.
struct Export {
    store: Store,
    filter: GameFilter,
    cursor: Option<GameCursor>,
    /// Games still to send; `None` for every game.
    remaining: Option<u32>,
    /// Lines fetched and not yet sent.
    buffered: VecDeque<Bytes>,
    done: bool,
}

fn json_line(value: &impl Serialize) -> Bytes {
    let mut line = serde_json::to_vec(value).unwrap_or_default();
    line.push(b'\n');
    Bytes::from(line)
}

/// Streams every game `query` lets through, a page of the store at a time, one JSON line per game.
fn stream_games(store: Store, query: GameQuery) -> Response {
    let export = Export {
        store,
        filter: query.filter(),
        cursor: query.cursor,
        remaining: query.limit,
        buffered: VecDeque::new(),
        done: false,
    };
    let lines = futures_util::stream::unfold(export, |mut export| async move {
        loop {
            if let Some(line) = export.buffered.pop_front() {
                return Some((Ok::<Bytes, std::io::Error>(line), export));
            }
            if export.done || export.remaining == Some(0) {
                return None;
            }
            let page_size = export.remaining.map_or(MAX_LIST_LIMIT, |n| n.min(MAX_LIST_LIMIT));
            match export.store.list_games(&export.filter, Some(page_size), export.cursor).await {
                Ok(page) => {
                    if let Some(remaining) = &mut export.remaining {
                        *remaining -= u32::try_from(page.games.len()).unwrap_or(*remaining).min(*remaining);
                    }
                    export.buffered.extend(page.games.into_iter().map(|game| json_line(&Game::from(game))));
                    export.cursor = page.next;
                    export.done = page.next.is_none();
                }
                Err(error) => {
                    export.done = true;
                    export.buffered.push_back(json_line(&ApiError::from_store(error, "game").body));
                }
            }
        }
    });
    ([(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON))], Body::from_stream(lines)).into_response()
}

/// One finished game and its result.
#[utoipa::path(
    get,
    path = "/api/games/{id}",
    params(("id" = String, Path, description = "The game's id (a UUID).", format = Uuid)),
    responses(
        (status = 200, description = "The game.", body = Game),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 404, description = "No finished game has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
async fn game(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = find_by_id(raw, &id, "game", "finished game", |id| state.store.game(TableId(id))).await;
    respond(found, |game| Json(Game::from(game)))
}

/// The record of a finished game, in its game's format (`romirami-record/1` for Romi Rami): its deal,
/// every move, and its result.
#[utoipa::path(
    get,
    path = "/api/games/{id}/record",
    params(("id" = String, Path, description = "The game's id (a UUID).", format = Uuid)),
    responses(
        (status = 200, description = "The record, in its game's format (`romirami-record/1` for Romi Rami).",
         body = Object),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 404, description = "No finished game has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
async fn record(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = find_by_id(raw, &id, "game", "finished game", |id| state.store.record(TableId(id))).await;
    // The record's text as stored, byte for byte: it is the game's document, not this API's.
    respond(found, |record| ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], record))
}

/// A player's name, games played, wins, average score and latest games.
#[utoipa::path(
    get,
    path = "/api/players/{id}",
    params(("id" = String, Path, description = "The player's id (a UUID).", format = Uuid)),
    responses(
        (status = 200, description = "The player.", body = PlayerPage),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 404, description = "No player has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
async fn player(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = find_by_id(raw, &id, "player", "player", |id| state.store.player_stats(PlayerId(id))).await;
    respond(found, |stats| Json(PlayerPage::from(stats)))
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

/// The live public tables, waiting or playing: the lobby, for clients without a WebSocket.
#[utoipa::path(
    get,
    path = "/api/tables",
    responses(
        (status = 200, description = "The tables.", body = Tables),
        (status = 400, description = "A query parameter was given.", body = ApiErrorBody)
    )
)]
async fn tables(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    match no_query(raw.as_deref()) {
        Ok(()) => Json(Tables { tables: state.lobby.public_tables() }).into_response(),
        Err(error) => error.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(result: Result<GameQuery, ApiError>) -> ApiErrorCode {
        result.expect_err("refused").body.error.code
    }

    #[test]
    fn game_queries_are_read_strictly() {
        let query = GameQuery::parse(Some("player=Ana%20B&players=3&limit=5&since=2026-01-01T00:00:00Z"))
            .expect("a good query");
        assert_eq!(query.player.as_deref(), Some("Ana B"));
        assert_eq!((query.players, query.limit), (Some(3), Some(5)));
        assert!(query.since.is_some() && query.until.is_none() && query.cursor.is_none());
        assert!(GameQuery::parse(None).is_ok());
        assert_eq!(code(GameQuery::parse(Some("colour=red"))), ApiErrorCode::UnknownParameter);
        for bad in [
            "players=5",
            "players=x",
            "limit=0",
            "limit=101",
            "limit=-1",
            "since=yesterday",
            "until=2026-13-01T00:00:00Z",
            "cursor=abc",
            "player=",
            "game=",
            "limit=5&limit=6",
        ] {
            assert_eq!(code(GameQuery::parse(Some(bad))), ApiErrorCode::BadParameter, "{bad}");
        }
    }

    #[test]
    fn the_document_lists_the_parameters_the_parser_reads() {
        let doc = ApiDoc::openapi();
        let games = doc.paths.paths.get("/api/games").and_then(|item| item.get.as_ref()).expect("GET /api/games");
        let mut documented: Vec<&str> =
            games.parameters.iter().flatten().map(|parameter| parameter.name.as_str()).collect();
        documented.sort_unstable();
        let mut parsed = GAME_QUERY_PARAMETERS.to_vec();
        parsed.sort_unstable();
        assert_eq!(documented, parsed);
    }
}
