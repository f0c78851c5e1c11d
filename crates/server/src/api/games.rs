//! Finished games: the list (paged, or streamed as NDJSON), one game, and its record.

use std::collections::VecDeque;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{ApiError, ApiErrorBody, GameQuery, NDJSON, RatingChangeJson, find_by_id, respond};
use crate::protocol::TableId;
use crate::state::AppState;
use crate::store::ratings::{Unrated, unrated_because};
use crate::store::{GameCursor, GameFilter, GameSummary, MAX_LIST_LIMIT, Store};

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
    /// For a bot's seat, how well it played: `easy`, `normal` or `strong` (each level is a player of
    /// its own, named `Bot · <level>`). Left out for a person's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
}

/// A finished game and its result. `players`, `scores` and `places` are in seat order.
#[derive(Debug, Serialize, ToSchema)]
pub struct Game {
    /// The game's id (also its table's).
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Which game it is, by its name (`romi-rami`).
    pub game: String,
    /// The game's options, as its table was created with them (the variant, a target, ...; `{}` for a
    /// game without options, as Romi Rami).
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
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
    /// Whether the game counted for the players' ratings: its table was rated, it was played to its
    /// end, no seat was a bot's and every player was named.
    pub rated: bool,
    /// Why the game did not count, when it did not: `casual` (the host made the table casual),
    /// `abandoned` (stopped before its end), `bot` (the host gave a seat to the server's bot), `unnamed`
    /// (a player had no name of their own) or `same_player` (one player in two seats); the first that
    /// applies, in that order. `null` for a game that counted.
    pub unrated_because: Option<Unrated>,
    /// For each seat, its player's rating in this game before and after it; `null` in a game that did
    /// not count.
    pub ratings: Vec<Option<RatingChangeJson>>,
}

impl From<GameSummary> for Game {
    fn from(summary: GameSummary) -> Game {
        let results = &summary.results;
        Game {
            id: summary.id.0,
            game: summary.game.clone(),
            options: summary.options.clone(),
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
                    level: r.player.level().map(romirami_game::Level::name),
                })
                .collect(),
            // The details as the game gives them: for Romi Rami, the fields of its score breakdown,
            // which is what this list showed before the store kept any game.
            scores: results.iter().map(|r| r.details.clone()).collect(),
            places: results.iter().map(|r| r.place).collect(),
            winners: results.iter().filter(|r| r.winner).map(|r| r.player.seat.0).collect(),
            bot_actions: results.iter().map(|r| r.bot_actions).collect(),
            rated: results.iter().any(|r| r.rating.is_some()),
            unrated_because: if results.iter().any(|r| r.rating.is_some()) {
                None
            } else {
                let players: Vec<_> = results.iter().map(|r| &r.player).collect();
                // A game that should have counted but holds no rating yet is rated at the next start-up
                // (games stored before ratings existed): no reason to give.
                unrated_because(summary.table_rated, &summary.ended_by, &players)
            },
            ratings: results.iter().map(|r| r.rating.map(RatingChangeJson::from)).collect(),
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
pub(super) async fn list_games(State(state): State<AppState>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Response {
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
        return stream_games(state.store.clone(), state.tournaments.clone(), query);
    }
    match state.store.list_games(&query.filter(), query.limit, query.cursor).await {
        Ok(page) => Json(GameList {
            // A sealed game is left out: the page may hold fewer games than asked, its cursor is the same.
            games: page.games.into_iter().filter(|g| !state.tournaments.is_sealed(g.id)).map(Game::from).collect(),
            next: page.next.map(|cursor| cursor.to_string()),
        })
        .into_response(),
        Err(error) => ApiError::from_store(error, "game").into_response(),
    }
}

/// Where a stream of games stands.
struct Export {
    store: Store,
    /// Which games are sealed (left out).
    tournaments: std::sync::Arc<crate::tournament::Tournaments>,
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
fn stream_games(
    store: Store,
    tournaments: std::sync::Arc<crate::tournament::Tournaments>,
    query: GameQuery,
) -> Response {
    let export = Export {
        store,
        tournaments,
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
                    let tournaments = &export.tournaments;
                    let shown = page.games.into_iter().filter(|game| !tournaments.is_sealed(game.id));
                    export.buffered.extend(shown.map(|game| json_line(&Game::from(game))));
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
        (status = 409, description = "A game of a duplicate round whose deal is still being played (`deal_in_play`).",
         body = ApiErrorBody),
        (status = 404, description = "No finished game has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn game(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = find_by_id(raw, &id, "game", "finished game", |id| state.store.game(TableId(id))).await;
    let found = found
        .and_then(|game| if state.tournaments.is_sealed(game.id) { Err(ApiError::deal_in_play()) } else { Ok(game) });
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
        (status = 409, description = "A game of a duplicate round whose deal is still being played (`deal_in_play`).",
         body = ApiErrorBody),
        (status = 404, description = "No finished game has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn record(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let sealed = uuid::Uuid::parse_str(&id).is_ok_and(|id| state.tournaments.is_sealed(TableId(id)));
    let found = find_by_id(raw, &id, "game", "finished game", |id| state.store.record(TableId(id))).await;
    let found = found.and_then(|record| if sealed { Err(ApiError::deal_in_play()) } else { Ok(record) });
    // The record's text as stored, byte for byte: it is the game's document, not this API's.
    respond(found, |record| ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], record))
}
