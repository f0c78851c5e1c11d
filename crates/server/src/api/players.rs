//! A player's page: who they are and how they do.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{ApiErrorBody, Game, find_by_id, respond};
use crate::protocol::PlayerId;
use crate::server::AppState;
use crate::store::PlayerStats;

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
pub(super) async fn player(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    let found = find_by_id(raw, &id, "player", "player", |id| state.store.player_stats(PlayerId(id))).await;
    respond(found, |stats| Json(PlayerPage::from(stats)))
}
