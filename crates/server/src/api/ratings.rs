//! Ratings: a game's leaderboard (paged as the game list is) and a player's ratings. How games are
//! rated is `store::ratings`'s.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{ApiError, ApiErrorBody, ApiErrorCode, cut, find_by_id, respond};
use crate::protocol::PlayerId;
use crate::state::AppState;
use crate::store::{BoardCursor, BoardPage, MAX_LIST_LIMIT, PlayerRating, RatingChange};

/// A seat's rating in a rated game, as shown: before the game and after it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingChangeJson {
    /// The rating before the game.
    pub before: i64,
    /// The rating after it.
    pub after: i64,
}

impl From<RatingChange> for RatingChangeJson {
    fn from(change: RatingChange) -> RatingChangeJson {
        RatingChangeJson { before: change.before, after: change.after }
    }
}

/// A player's rating in one game.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingJson {
    /// The game, by its name (`romi-rami`).
    pub game: String,
    /// The rating as shown: a newcomer has 1000 (Weng-Lin's estimate, 25, times 40).
    pub rating: i64,
    /// How uncertain it is, on the same scale (one standard deviation; 333 for a newcomer).
    pub uncertainty: i64,
    /// How many rated games of this game it rests on.
    pub games: u32,
}

impl From<PlayerRating> for RatingJson {
    fn from(rating: PlayerRating) -> RatingJson {
        let standing = rating.standing;
        RatingJson {
            game: rating.game,
            rating: standing.rating.shown(),
            uncertainty: crate::store::ratings::shown(standing.rating.sigma),
            games: standing.games,
        }
    }
}

/// A player's ratings.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerRatings {
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Their rating in each game they played rated, by the game's name; empty before their first.
    pub ratings: Vec<RatingJson>,
}

/// One line of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Their current display name.
    pub name: String,
    /// Their rating in the board's game, as shown.
    pub rating: i64,
    /// How many rated games of it they finished.
    pub games: u32,
    /// Whether the player is one of the server's bots: each level is a player of its own.
    pub bot: bool,
    /// For a bot, its level: `easy`, `normal` or `strong`. Left out for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
}

/// A page of a game's leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    /// The game, by its name.
    pub game: String,
    /// How many rated games a player needs to be listed.
    pub min_games: u32,
    /// The players, best first (by rating, then by id).
    pub players: Vec<LeaderboardEntry>,
    /// Pass as `cursor` for the next page; `null` on the last page.
    pub next: Option<String>,
}

/// The parameters of the leaderboard.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct LeaderboardQuery {
    /// The game, by its name (`romi-rami`, `rommi`, `rami`, `rumino`). Required.
    game: String,
    /// How many players per page (default 20).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<u32>,
    /// Where the page starts: the `next` of the previous page.
    #[param(value_type = Option<String>)]
    cursor: Option<BoardCursor>,
}

/// The names [`LeaderboardQuery`] accepts.
const LEADERBOARD_PARAMETERS: [&str; 3] = ["game", "limit", "cursor"];

/// Reads the leaderboard's query string strictly, as the game list's: an unknown parameter, one given
/// twice, a value that does not parse or a game this server does not host is a 400.
fn parse(raw: Option<&str>, games: &romirami_game::Games) -> Result<LeaderboardQuery, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|_| ApiError::bad("the query string is not URL-encoded"))?;
    let (mut game, mut limit, mut cursor) = (None, None, None);
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in &pairs {
        let Some(known) = LEADERBOARD_PARAMETERS.iter().find(|known| *known == name) else {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                ApiErrorCode::UnknownParameter,
                format!("unknown parameter `{}`; known: {}", cut(name), LEADERBOARD_PARAMETERS.join(", ")),
            ));
        };
        if seen.contains(known) {
            return Err(ApiError::bad(format!("`{known}` is given more than once")));
        }
        seen.push(known);
        match *known {
            "game" => game = Some(value.clone()),
            "limit" => match value.parse::<u32>() {
                Ok(n @ 1..=MAX_LIST_LIMIT) => limit = Some(n),
                _ => return Err(ApiError::bad(format!("`limit` is a number from 1 to {MAX_LIST_LIMIT}"))),
            },
            _ => {
                cursor =
                    Some(value.parse().map_err(|_| ApiError::bad("`cursor` is not a cursor this server gave out"))?);
            }
        }
    }
    let known = || games.names().collect::<Vec<_>>().join(", ");
    match game {
        Some(game) if games.get(&game).is_some() => Ok(LeaderboardQuery { game, limit, cursor }),
        Some(game) => Err(ApiError::bad(format!("this server has no game `{}`; it has {}", cut(&game), known()))),
        None => Err(ApiError::bad(format!("`game` names the leaderboard's game: one of {}", known()))),
    }
}

/// A game's leaderboard: the players with at least a few rated games of it, best first, paged.
#[utoipa::path(
    get,
    path = "/api/leaderboard",
    params(LeaderboardQuery),
    responses(
        (status = 200, description = "A page of the leaderboard.", body = Leaderboard),
        (status = 400, description = "A parameter is unknown, repeated or bad, or the game is missing or unknown.",
         body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn leaderboard(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let LeaderboardQuery { game, limit, cursor } = match parse(raw.as_deref(), &state.config.games) {
        Ok(query) => query,
        Err(error) => return error.into_response(),
    };
    let min_games = state.config.leaderboard_min_games;
    match state.store.leaderboard(&game, min_games, limit, cursor).await {
        Ok(BoardPage { entries, next }) => Json(Leaderboard {
            game,
            min_games,
            players: entries
                .into_iter()
                .map(|entry| {
                    let level = crate::bots::level_of(entry.player.id);
                    LeaderboardEntry {
                        id: entry.player.id.0,
                        name: entry.player.name,
                        rating: entry.standing.rating.shown(),
                        games: entry.standing.games,
                        bot: level.is_some(),
                        level: level.map(romirami_game::Level::name),
                    }
                })
                .collect(),
            next: next.map(|cursor| cursor.to_string()),
        })
        .into_response(),
        Err(error) => ApiError::from_store(error, "leaderboard").into_response(),
    }
}

/// A player's rating in each game they played rated.
#[utoipa::path(
    get,
    path = "/api/players/{id}/ratings",
    params(("id" = String, Path, description = "The player's id (a UUID).", format = Uuid)),
    responses(
        (status = 200, description = "The player's ratings.", body = PlayerRatings),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 404, description = "No player has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn player_ratings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let found = find_by_id(raw, &id, "player", "player", |id| async move {
        state.store.player_ratings(PlayerId(id)).await.map(|ratings| (id, ratings))
    })
    .await;
    respond(found, |(id, ratings)| {
        Json(PlayerRatings { id, ratings: ratings.into_iter().map(RatingJson::from).collect() })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaderboard_queries_are_read_strictly() {
        let games = crate::games();
        let query = parse(Some("game=rommi&limit=5"), &games).expect("a good query");
        assert_eq!((query.game.as_str(), query.limit, query.cursor), ("rommi", Some(5), None));
        for bad in ["", "limit=5", "game=chess", "game=rommi&game=rami", "game=rommi&limit=0", "game=rommi&cursor=x"] {
            assert_eq!(parse(Some(bad), &games).expect_err(bad).body.error.code, ApiErrorCode::BadParameter, "{bad}");
        }
        let unknown = parse(Some("game=rommi&colour=red"), &games).expect_err("refused");
        assert_eq!(unknown.body.error.code, ApiErrorCode::UnknownParameter);
    }
}
