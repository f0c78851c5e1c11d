//! Accounts people control, over REST (every endpoint takes the player's bearer token): who they are and
//! where they are signed in (`GET /api/players/me`), signing out here (`POST /api/sign-out`) or everywhere
//! (`POST /api/sign-out-everywhere`), a new password (`POST /api/players/me/password`), everything the
//! site keeps of them (`GET /api/players/me/export`) and deleting the account (`DELETE /api/players/me`).
//!
//! An ended token finds nobody from then on, on every node, and the connections that said hello with it
//! close with `signed_out` ([`crate::players::Players::sign_out`], `cluster/sign_outs.rs`).

use std::net::SocketAddr;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::games::Game;
use super::names::{bearer, json_body};
use super::ratings::RatingJson;
use super::tournaments::player_of;
use super::{ApiError, ApiErrorBody, ApiErrorCode};
use crate::addresses::client_address;
use crate::names::NameError;
use crate::players::{SignOut, hash_token};
use crate::protocol::{PlayerInfo, TableState};
use crate::state::AppState;
use crate::store::{GameFilter, PlayerFilter, StoreError, WrittenLine};

/// One device the player is signed in on: a token of theirs.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeviceJson {
    /// When it signed in (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub signed_in_at: OffsetDateTime,
    /// How the browser named itself then (its User-Agent); `null` for the browser the player first played in.
    pub device: Option<String>,
    /// Whether it is the device asking.
    pub current: bool,
}

/// `GET /api/players/me`: the player, and where they are signed in.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Their name.
    pub name: String,
    /// Whether they keep their name with a password.
    pub claimed: bool,
    /// Whether they may moderate (named from the command line: `romirami admin grant NAME`).
    pub admin: bool,
    /// Every device they are signed in on, oldest first.
    pub devices: Vec<DeviceJson>,
}

/// What `POST /api/players/me/password` reads.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password the name is kept with now.
    pub old_password: String,
    /// The new one: 8 to 128 characters.
    pub new_password: String,
}

/// What `DELETE /api/players/me` reads.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    /// The player's password; required when they keep their name.
    #[serde(default)]
    pub password: Option<String>,
}

/// `GET /api/players/me/export`: everything the site keeps of the player.
#[derive(Debug, Serialize, ToSchema)]
pub struct Export {
    /// `romirami-export/1`.
    pub format: &'static str,
    /// When it was made (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub exported_at: OffsetDateTime,
    /// Who they are, and their devices.
    pub player: Me,
    /// Every finished game they played, newest first, as `GET /api/games` lists them.
    pub games: Vec<Game>,
    /// Their rating in each game they played rated.
    pub ratings: Vec<RatingJson>,
    /// Every chat line of theirs the tables keep.
    pub chat: Vec<ChatLineJson>,
}

/// A chat line of the player's.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatLineJson {
    /// The table.
    #[schema(value_type = String, format = Uuid)]
    pub table: Uuid,
    /// `players` or `spectators`.
    pub channel: String,
    /// The line.
    pub text: String,
}

impl From<WrittenLine> for ChatLineJson {
    fn from(line: WrittenLine) -> ChatLineJson {
        ChatLineJson { table: line.table.0, channel: line.channel, text: line.text }
    }
}

fn store_error(error: StoreError) -> ApiError {
    ApiError::from_store(error, "player")
}

async fn me_of(state: &AppState, player: &PlayerInfo, headers: &HeaderMap) -> Result<Me, ApiError> {
    let current = bearer(headers).map(hash_token);
    let claimed = state.names.keeps_name(player).await.map_err(store_error)?;
    let devices = state.store.devices(player.id).await.map_err(store_error)?;
    let admin = state.store.is_admin(player.id).await.map_err(store_error)?;
    Ok(Me {
        id: player.id.0,
        name: player.name.clone(),
        claimed,
        admin,
        devices: devices
            .into_iter()
            .map(|d| DeviceJson {
                signed_in_at: d.created_at,
                device: d.device,
                current: Some(d.token_hash) == current,
            })
            .collect(),
    })
}

/// The player, and every device they are signed in on.
#[utoipa::path(
    get,
    path = "/api/players/me",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The player.", body = Me),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn me(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let found = async {
        let player = player_of(&state, &headers).await?;
        me_of(&state, &player, &headers).await
    };
    super::respond(found.await, Json)
}

/// Ends the token the request is sent with: it finds nobody from then on, and the connections that said
/// hello with it close.
#[utoipa::path(
    post,
    path = "/api/sign-out",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Signed out."),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn sign_out(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let done = async {
        let player = player_of(&state, &headers).await?;
        let token = bearer(&headers).unwrap_or_default();
        state.players.sign_out(token).await.map_err(store_error)?;
        state.tell_sign_out(SignOut::Token(hash_token(token))).await;
        tracing::info!(player = %player.id, "a player signed out");
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    super::respond(done.await, |status| status)
}

/// Ends every token of the player's, this one too: every device is signed out.
#[utoipa::path(
    post,
    path = "/api/sign-out-everywhere",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Signed out on every device."),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn sign_out_everywhere(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let done = async {
        let player = player_of(&state, &headers).await?;
        let ended = state.players.sign_out_everywhere(player.id, None).await.map_err(store_error)?;
        state.tell_sign_out(SignOut::Player(player.id)).await;
        tracing::info!(player = %player.id, ended, "a player signed out everywhere");
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    super::respond(done.await, |status| status)
}

/// A new password for the player's kept name, given the old one; every other device is signed out (this one
/// stays signed in).
#[utoipa::path(
    post,
    path = "/api/players/me/password",
    request_body = PasswordChange,
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The password is changed; the other devices are signed out."),
        (status = 400, description = "Not a password change, or the new password is too short or too long \
                                      (`bad_body`, `bad_password`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "The old password is wrong (`wrong_password`).", body = ApiErrorBody),
        (status = 409, description = "The player keeps no name (`name_not_kept`).", body = ApiErrorBody),
        (status = 429, description = "Too many wrong passwords lately (`too_many_attempts`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer, or the server is too busy.",
         body = ApiErrorBody)
    )
)]
pub(super) async fn change_password(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let done = async {
        let player = player_of(&state, &headers).await?;
        let request: PasswordChange = json_body(body)?;
        let address = client_address(peer, &headers, &state.config);
        state.names.change_password(&player, &request.old_password, &request.new_password, address).await?;
        let keep = bearer(&headers);
        state.players.sign_out_everywhere(player.id, keep).await.map_err(store_error)?;
        state.tell_sign_out(SignOut::Player(player.id)).await;
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    super::respond(done.await, |status| status)
}

/// Everything the site keeps of the player: who they are, their devices, every finished game they played,
/// their ratings and their chat lines, as one JSON document.
#[utoipa::path(
    get,
    path = "/api/players/me/export",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The player's data.", body = Export),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn export(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let found = async {
        let player = player_of(&state, &headers).await?;
        let me = me_of(&state, &player, &headers).await?;
        let filter = GameFilter { player: Some(PlayerFilter::Id(player.id)), ..GameFilter::default() };
        let mut games = Vec::new();
        let mut cursor = None;
        loop {
            let page = state
                .store
                .list_games(&filter, Some(crate::store::MAX_LIST_LIMIT), cursor)
                .await
                .map_err(store_error)?;
            // A duplicate round's game is shown once its round is over, here as in `GET /api/games`.
            games.extend(page.games.into_iter().filter(|g| !state.tournaments.is_sealed(g.id)).map(Game::from));
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let ratings = state.store.player_ratings(player.id).await.map_err(store_error)?;
        let chat = state.store.lines_of(player.id).await.map_err(store_error)?;
        Ok::<_, ApiError>(Export {
            format: "romirami-export/1",
            exported_at: OffsetDateTime::now_utc(),
            player: me,
            games,
            ratings: ratings.into_iter().map(RatingJson::from).collect(),
            chat: chat.into_iter().map(ChatLineJson::from).collect(),
        })
    };
    let found = found.await;
    match found {
        Ok(export) => {
            let disposition = format!("attachment; filename=\"romirami-{}.json\"", export.player.id);
            ([(axum::http::header::CONTENT_DISPOSITION, disposition)], Json(export)).into_response()
        }
        Err(error) => error.into_response(),
    }
}

/// Deletes the player's account: their name is freed and shows as "deleted player" in every past game and
/// record; their chat lines, devices and push subscriptions go. Their password is asked when they keep
/// their name. Refused while they sit at a table that is not over.
#[utoipa::path(
    delete,
    path = "/api/players/me",
    request_body = Deletion,
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The account is deleted; every device is signed out."),
        (status = 400, description = "Not a deletion (`bad_body`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "The password is wrong or missing (`wrong_password`).", body = ApiErrorBody),
        (status = 409, description = "The player sits at a table not over (`at_a_table`).", body = ApiErrorBody),
        (status = 429, description = "Too many wrong passwords lately (`too_many_attempts`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn delete_me(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let done = async {
        let player = player_of(&state, &headers).await?;
        let request: Deletion = json_body(body)?;
        if state.names.keeps_name(&player).await.map_err(store_error)? {
            let address = client_address(peer, &headers, &state.config);
            let password = request.password.ok_or(NameError::WrongPassword)?;
            state.names.check_own_password(&player, &password, address).await?;
        }
        let live = state.lobby.tables_of(player.id).iter().any(|table| table.state != TableState::Finished);
        let asleep = !state.store.sleeping_tables_of(player.id).await.map_err(store_error)?.is_empty();
        let elsewhere =
            state.cluster.is_some() && !state.store.open_tables_of(player.id).await.map_err(store_error)?.is_empty();
        if live || asleep || elsewhere {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                ApiErrorCode::AtATable,
                "you sit at a table that is not over: finish or leave your games first",
            ));
        }
        state.store.delete_player(player.id).await.map_err(store_error)?;
        state.players.forget(SignOut::Player(player.id));
        state.tell_sign_out(SignOut::Player(player.id)).await;
        tracing::info!(player = %player.id, "a player deleted their account");
        Ok::<_, ApiError>(StatusCode::NO_CONTENT)
    };
    super::respond(done.await, |status| status)
}
