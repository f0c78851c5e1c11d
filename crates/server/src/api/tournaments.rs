//! Tournaments over REST (docs/tournaments.md): create one (`POST /api/tournaments`, a kept name's
//! bearer token), join, withdraw or pause (`POST /api/tournaments/{id}/join|withdraw|pause`, any
//! player's bearer token), list them and read one. What a tournament does is [`crate::tournament`]'s.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use romirami_tournament::{Format, Refusal, Start};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::names::{bearer, json_body};
use super::{ApiError, ApiErrorBody, ApiErrorCode, find_by_id, uuid_param};
use crate::protocol::{Clock, PlayerId, PlayerInfo};
use crate::state::AppState;
use crate::tournament::{NewTournament, TournamentError, TournamentJson, Tournaments};

/// How many tournaments a list shows, newest first.
const LIST_LIMIT: u32 = 50;

/// What `POST /api/tournaments` reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// The game, by name (`romi-rami`, `rommi`, `rami`, `rumino`).
    pub game: String,
    /// `swiss` or `arena`.
    #[schema(example = "swiss")]
    pub format: String,
    /// Players at each table, a size the game allows.
    pub seats: u8,
    /// Swiss: how many rounds.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Arena: how many minutes.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Every game's clock.
    pub clock: Clock,
    /// `when_full`, or an RFC 3339 time.
    #[schema(example = "when_full")]
    pub start: String,
    /// The most players.
    pub max_players: u32,
    /// Every table of a round plays the same deal, scored by matchpoints.
    #[serde(default)]
    pub duplicate: bool,
    /// The game's options (its rule book's defaults when left out).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Value>,
    /// Whether its games count for the ratings (yes when left out).
    #[serde(default)]
    pub rated: Option<bool>,
}

/// What `POST /api/tournaments/{id}/pause` reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseRequest {
    /// `true` to pause (no new table), `false` to come back.
    pub paused: bool,
}

/// What `POST /api/tournaments/{id}/contribute` reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContributeRequest {
    /// 32 random bytes as 64 lower-case hex digits: the player's contribution to the deal of the
    /// duplicate round being dealt (docs/rules/record-format.md, "The derivation").
    #[schema(example = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")]
    pub value: String,
}

/// The answer to a creation.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedTournament {
    /// The new tournament's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
}

/// A list of tournaments, newest first.
#[derive(Serialize, ToSchema)]
pub struct TournamentList {
    /// At most 50.
    pub tournaments: Vec<TournamentJson>,
}

impl CreateTournament {
    fn read(self) -> Result<NewTournament, ApiError> {
        let format = match (self.format.as_str(), self.rounds, self.minutes) {
            ("swiss", Some(rounds), None) => Format::Swiss { rounds },
            ("arena", None, Some(minutes)) => Format::Arena { minutes },
            ("swiss", ..) => return Err(bad("a Swiss tournament has `rounds` and no `minutes`")),
            ("arena", ..) => return Err(bad("an arena has `minutes` and no `rounds`")),
            _ => return Err(bad("`format` is `swiss` or `arena`")),
        };
        let start = if self.start == "when_full" {
            Start::WhenFull
        } else {
            let at = time::OffsetDateTime::parse(&self.start, &time::format_description::well_known::Rfc3339)
                .map_err(|_| bad("`start` is `when_full` or an RFC 3339 time"))?;
            let ms = at.unix_timestamp_nanos() / 1_000_000;
            Start::At(u64::try_from(ms).map_err(|_| bad("`start` is before 1970"))?)
        };
        Ok(NewTournament {
            game: self.game,
            format,
            seats: self.seats,
            clock: self.clock,
            start,
            max_players: self.max_players,
            duplicate: self.duplicate,
            options: self.options,
            rated: self.rated.unwrap_or(true),
        })
    }
}

fn bad(message: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadTournament, message)
}

impl From<TournamentError> for ApiError {
    fn from(error: TournamentError) -> ApiError {
        let message = error.to_string();
        let (status, code) = match error {
            TournamentError::Bad(_) => (StatusCode::BAD_REQUEST, ApiErrorCode::BadTournament),
            TournamentError::TooMany(_) => (StatusCode::CONFLICT, ApiErrorCode::TooManyTournaments),
            TournamentError::NotFound => (StatusCode::NOT_FOUND, ApiErrorCode::NotFound),
            TournamentError::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, ApiErrorCode::Unavailable),
            TournamentError::Refused(refusal) => (
                StatusCode::CONFLICT,
                match refusal {
                    Refusal::Closed => ApiErrorCode::TournamentClosed,
                    Refusal::Full => ApiErrorCode::TournamentFull,
                    Refusal::AlreadyIn => ApiErrorCode::AlreadyJoined,
                    Refusal::NotIn => ApiErrorCode::NotJoined,
                    Refusal::NotArena | Refusal::BadResult(_) => ApiErrorCode::NotArena,
                    Refusal::NotDealing => ApiErrorCode::NotDealing,
                    Refusal::AlreadyContributed => ApiErrorCode::AlreadyContributed,
                },
            ),
        };
        ApiError::new(status, code, message)
    }
}

/// The player whose bearer token this is.
pub(super) async fn player_of(state: &AppState, headers: &HeaderMap) -> Result<PlayerInfo, ApiError> {
    let no_token = || ApiError::new(StatusCode::UNAUTHORIZED, ApiErrorCode::BadToken, "no player has this token");
    let token = bearer(headers).ok_or_else(no_token)?;
    match state.players.authenticate(token).await {
        Ok(Some(player)) => Ok(player),
        Ok(None) => Err(no_token()),
        Err(error) => Err(ApiError::from_store(error, "player")),
    }
}

/// A tournament's view as the answer's body.
fn view_response(status: StatusCode, view: String) -> Response {
    (status, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], view).into_response()
}

/// Creates a tournament; its creator keeps their name (docs/tournaments.md).
#[utoipa::path(
    post,
    path = "/api/tournaments",
    request_body = CreateTournament,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Created.", body = CreatedTournament),
        (status = 400, description = "Not a tournament that can be (`bad_body`, `bad_tournament`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 403, description = "Only a player who keeps their name creates tournaments (`name_not_kept`).",
         body = ApiErrorBody),
        (status = 409, description = "The player has as many tournaments open as allowed (`too_many_tournaments`).",
         body = ApiErrorBody),
        (status = 413, description = "The body is too large.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let created = async {
        let creator = player_of(&state, &headers).await?;
        let request: CreateTournament = json_body(body)?;
        let new = request.read()?;
        let kept = state.names.keeps_name(&creator).await.map_err(|e| ApiError::from_store(e, "player"))?;
        if !kept {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                ApiErrorCode::NameNotKept,
                "only a player who keeps their name with a password creates tournaments",
            ));
        }
        Ok(state.tournaments.create(&state.services(), &creator, new).await?)
    };
    match created.await {
        Ok(id) => (StatusCode::CREATED, Json(CreatedTournament { id })).into_response(),
        Err(error) => error.into_response(),
    }
}

/// What a join, withdrawal, pause or contribution answers: the tournament as it is now.
async fn after(state: &AppState, id: Uuid, done: Result<(), TournamentError>) -> Response {
    match done {
        Ok(()) => match Tournaments::view(&state.services(), id).await {
            Ok(view) => view_response(StatusCode::OK, view),
            Err(error) => ApiError::from_store(error, "tournament").into_response(),
        },
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// What the player whose bearer token `headers` carry asks of the tournament `id` (join, withdraw,
/// pause, contribute): the id and the token checked in that order, then `ask`, then the answer [`after`].
async fn on_behalf<Ask>(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    ask: impl FnOnce(Uuid, PlayerInfo) -> Ask,
) -> Response
where
    Ask: Future<Output = Result<Result<(), TournamentError>, ApiError>>,
{
    let done = async {
        let id = uuid_param("tournament", id)?;
        let player = player_of(state, headers).await?;
        Ok::<_, ApiError>((id, ask(id, player).await?))
    };
    match done.await {
        Ok((id, done)) => after(state, id, done).await,
        Err(error) => error.into_response(),
    }
}

/// Joins a tournament: a Swiss one before its start, an arena until its window closes.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/join",
    params(("id" = String, Path, description = "The tournament's id (a UUID).", format = Uuid)),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Joined: the tournament now.", body = TournamentJson),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 401, description = "No player has this token.", body = ApiErrorBody),
        (status = 404, description = "No such tournament.", body = ApiErrorBody),
        (status = 409, description = "Closed, full, or joined already (`tournament_closed`, `tournament_full`, \
                                      `already_joined`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn join(State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    let state = &state;
    on_behalf(state, &id, &headers, |id, player| async move {
        Ok(state.tournaments.join(&state.services(), id, player).await)
    })
    .await
}

/// Withdraws from a tournament: before its start, off its list; after it, seated no more.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/withdraw",
    params(("id" = String, Path, description = "The tournament's id (a UUID).", format = Uuid)),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Withdrawn: the tournament now.", body = TournamentJson),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 401, description = "No player has this token.", body = ApiErrorBody),
        (status = 404, description = "No such tournament.", body = ApiErrorBody),
        (status = 409, description = "Not a player of it, or it is over (`not_joined`, `tournament_closed`).",
         body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn withdraw(State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    let state = &state;
    on_behalf(state, &id, &headers, |id, player| async move {
        Ok(state.tournaments.withdraw(&state.services(), id, player.id).await)
    })
    .await
}

/// Contributes to the deal of the duplicate round being dealt: its tables open once every player of the
/// round has contributed, or when the wait is over (the server draws the missing contributions).
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/contribute",
    params(("id" = String, Path, description = "The tournament's id (a UUID).", format = Uuid)),
    request_body = ContributeRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Taken: the tournament now.", body = TournamentJson),
        (status = 400, description = "The id is not a UUID, or the body not a contribution \
                                      (`bad_contribution`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token.", body = ApiErrorBody),
        (status = 404, description = "No such tournament.", body = ApiErrorBody),
        (status = 409, description = "No deal awaits the player's contribution, or it is in already \
                                      (`not_dealing`, `already_contributed`, `tournament_closed`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn contribute(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let state = &state;
    on_behalf(state, &id, &headers, |id, player| async move {
        let request: ContributeRequest = json_body(body)?;
        let value = romirami_game::commitment::contribution_from_hex(&request.value).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                ApiErrorCode::BadContribution,
                "a contribution is 64 lower-case hex digits (32 bytes)",
            )
        })?;
        Ok(state.tournaments.contribute(&state.services(), id, player.id, value).await)
    })
    .await
}

/// Pauses in a running arena (no new table until `paused: false`).
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/pause",
    params(("id" = String, Path, description = "The tournament's id (a UUID).", format = Uuid)),
    request_body = PauseRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Done: the tournament now.", body = TournamentJson),
        (status = 400, description = "The id is not a UUID, or the body not a pause.", body = ApiErrorBody),
        (status = 401, description = "No player has this token.", body = ApiErrorBody),
        (status = 404, description = "No such tournament.", body = ApiErrorBody),
        (status = 409, description = "Not a running arena, or not a player of it (`not_arena`, `not_joined`).",
         body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn pause(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let state = &state;
    on_behalf(state, &id, &headers, |id, player| async move {
        let request: PauseRequest = json_body(body)?;
        Ok(state.tournaments.pause(&state.services(), id, player.id, request.paused).await)
    })
    .await
}

/// The newest tournaments (at most 50), of one state or every one, won by one player or by anyone.
#[utoipa::path(
    get,
    path = "/api/tournaments",
    params(
        ("state" = Option<String>, Query, description = "`waiting`, `running` or `finished`."),
        ("winner" = Option<String>, Query, description = "Only the finished tournaments this player won (a player id).",
         format = Uuid)
    ),
    responses(
        (status = 200, description = "The tournaments, newest first.", body = TournamentList),
        (status = 400, description = "A bad parameter.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn list(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let (wanted, winner) = match list_query(raw.as_deref()) {
        Ok(query) => query,
        Err(error) => return error.into_response(),
    };
    match Tournaments::list(&state.services(), wanted.as_deref(), winner, LIST_LIMIT).await {
        Ok(views) => {
            let body = format!("{{\"tournaments\":[{}]}}", views.join(","));
            view_response(StatusCode::OK, body)
        }
        Err(error) => ApiError::from_store(error, "tournament").into_response(),
    }
}

/// The list's query: `state` and `winner`, each at most once, nothing else.
fn list_query(raw: Option<&str>) -> Result<(Option<String>, Option<PlayerId>), ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|_| ApiError::bad("the query string is not URL-encoded"))?;
    let (mut wanted, mut winner) = (None, None);
    for (name, value) in pairs {
        match name.as_str() {
            "state" if wanted.is_none() => {
                if !["waiting", "running", "finished"].contains(&value.as_str()) {
                    return Err(ApiError::bad("`state` is `waiting`, `running` or `finished`"));
                }
                wanted = Some(value);
            }
            "winner" if winner.is_none() => winner = Some(PlayerId(uuid_param("player", &value)?)),
            "state" | "winner" => return Err(ApiError::bad(format!("`{name}` is given more than once"))),
            _ => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    ApiErrorCode::UnknownParameter,
                    format!("unknown parameter `{}`; known: state, winner", super::cut(&name)),
                ));
            }
        }
    }
    Ok((wanted, winner))
}

/// A tournament: its players, rounds, tables and standings.
#[utoipa::path(
    get,
    path = "/api/tournaments/{id}",
    params(("id" = String, Path, description = "The tournament's id (a UUID).", format = Uuid)),
    responses(
        (status = 200, description = "The tournament.", body = TournamentJson),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 404, description = "No such tournament.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn tournament(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let services = state.services();
    let found = find_by_id(raw, &id, "tournament", "tournament", |id| Tournaments::view(&services, id)).await;
    match found {
        Ok(view) => view_response(StatusCode::OK, view),
        Err(error) => error.into_response(),
    }
}
