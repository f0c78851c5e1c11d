//! A player's page: who they are and how they do, over every game and in each game they played;
//! `?game=NAME` keeps only one game's games.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;
use romirami_game::Games;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{ApiError, ApiErrorBody, Game, cut, one_parameter, respond, uuid_param};
use crate::protocol::PlayerId;
use crate::state::AppState;
use crate::store::{GameStats, PlayerStats};

/// A player's page: who they are and how they do.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerPage {
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Their display name.
    pub name: String,
    /// Whether they keep their name with a password (nobody else can take it).
    pub claimed: bool,
    /// Finished games they played.
    pub games_played: u64,
    /// Games they won (a shared win counts).
    pub wins: u64,
    /// Their average total score; `null` before their first finished game. Each game scores its own
    /// way: `by_game` has the figures that compare.
    pub average_score: Option<f64>,
    /// Their figures in each game they played, by the game's name in order.
    pub by_game: Vec<PlayerGameStats>,
    /// Their latest finished games, newest first (at most 10).
    pub recent: Vec<Game>,
}

/// A player's figures in one game: what every game's result has, a score, a place and a win.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerGameStats {
    /// The game, by its name (`romi-rami`, `rommi`, `rami`, `rumino`).
    pub game: String,
    /// Finished games of it they played.
    pub games_played: u64,
    /// Games they won (a shared win counts).
    pub wins: u64,
    /// How often they ended in each place: the first number counts their first places, the second
    /// their second places, and so on to the worst place they had.
    pub places: Vec<u64>,
    /// Their average score, in the game's own scoring (in games scored by penalty points, such as
    /// Rami, lower is better).
    pub average_score: f64,
    /// Their average place; 1 is the best.
    pub average_place: f64,
}

impl From<GameStats> for PlayerGameStats {
    fn from(stats: GameStats) -> PlayerGameStats {
        PlayerGameStats {
            game: stats.game,
            games_played: stats.games_played,
            wins: stats.wins,
            places: stats.places,
            average_score: stats.average_score,
            average_place: stats.average_place,
        }
    }
}

impl From<PlayerStats> for PlayerPage {
    fn from(stats: PlayerStats) -> PlayerPage {
        PlayerPage {
            id: stats.player.id.0,
            name: stats.player.name,
            claimed: false,
            games_played: stats.games_played,
            wins: stats.wins,
            average_score: stats.average_score,
            by_game: stats.by_game.into_iter().map(PlayerGameStats::from).collect(),
            recent: stats.recent.into_iter().map(Game::from).collect(),
        }
    }
}

/// The `game` filter of a player's page, read strictly: no other parameter, given once, naming a game
/// this server hosts.
fn game_filter(raw: Option<&str>, games: &Games) -> Result<Option<String>, ApiError> {
    one_parameter(raw, "game", |value| match games.get(value) {
        Some(_) => Ok(()),
        None => {
            let known = games.names().collect::<Vec<_>>().join(", ");
            Err(ApiError::bad(format!("`game` is one of {known}, not `{}`", cut(value))))
        }
    })
}

/// A player's name, games played, wins, average score and latest games, with the figures of each game
/// they played; with `game`, of that game's games only.
#[utoipa::path(
    get,
    path = "/api/players/{id}",
    params(
        ("id" = String, Path, description = "The player's id (a UUID).", format = Uuid),
        ("game" = Option<String>, Query,
         description = "Only this game's games, by its name (`romi-rami`, `rommi`, `rami`, `rumino`): the \
                        figures, `by_game` and `recent`.")
    ),
    responses(
        (status = 200, description = "The player.", body = PlayerPage),
        (status = 400, description = "The id is not a UUID, or a bad parameter (an unknown game, say).",
         body = ApiErrorBody),
        (status = 404, description = "No player has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn player(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = async {
        let game = game_filter(raw.as_deref(), &state.config.games)?;
        let id = PlayerId(uuid_param("player", &id)?);
        let stats =
            state.store.player_stats(id, game.as_deref()).await.map_err(|e| ApiError::from_store(e, "player"))?;
        let claimed = state.store.has_claimed(id).await.map_err(|e| ApiError::from_store(e, "player"))?;
        Ok(PlayerPage { claimed, ..PlayerPage::from(stats) })
    };
    respond(found.await, Json)
}
