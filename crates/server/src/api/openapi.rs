//! The OpenAPI document, generated from the handlers' annotations, so that it cannot drift from them.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa::OpenApi;

use super::{
    ApiError, ApiErrorBody, ApiErrorCode, ApiErrorDetail, Game, GameList, GamePlayerJson, Health, PlayerGameStats,
    PlayerPage, Tables,
};
use super::{Leaderboard, LeaderboardEntry, PlayerRatings, RatingChangeJson, RatingJson};
use super::{games, live, players, ratings};
use crate::protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId, TableState, TableSummary};

/// The OpenAPI document of this API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Romi Rami Online",
        description = "Finished games, their records, players' statistics and ratings, each game's \
                       leaderboard and the live public tables \
                       of a Romi Rami Online server. Games in play are played and watched over the \
                       WebSocket at /ws (see docs/protocol.md)."
    ),
    paths(
        live::health,
        games::list_games,
        games::game,
        games::record,
        players::player,
        ratings::player_ratings,
        ratings::leaderboard,
        live::tables
    ),
    components(schemas(
        Health,
        GameList,
        Game,
        GamePlayerJson,
        PlayerPage,
        PlayerRatings,
        RatingJson,
        RatingChangeJson,
        Leaderboard,
        LeaderboardEntry,
        PlayerGameStats,
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

pub(super) async fn openapi_json() -> Response {
    match ApiDoc::openapi().to_json() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => ApiError::internal(&e).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::GAME_QUERY_PARAMETERS;

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
