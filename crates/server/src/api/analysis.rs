//! A finished game step by step (`GET /api/games/{id}/replay`) and the analysis of one of its seats
//! (`GET /api/games/{id}/analysis?seat=N`, made by [`crate::analyst`]). Both read only the record, which is
//! public once the game is over.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use romirami_game::{Analysis, Class, Decision, Seat, Summary};
use serde::Serialize;
use utoipa::ToSchema;

use super::{ApiError, ApiErrorBody, ApiErrorCode, one_parameter, uuid_param};
use crate::analyst::Progress;
use crate::protocol::TableId;
use crate::state::AppState;

/// A finished game step by step: the deal, then the game after each action of its record.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayJson {
    /// Which game it is (`rommi`).
    pub game: String,
    /// How many seats it had.
    pub players: usize,
    /// Step 0 is the deal; step n the game after the record's n-th action.
    pub steps: Vec<ReplayStepJson>,
}

/// The game after one step of a replay.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayStepJson {
    /// The seat whose action the step is; left out for the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// That action's entry of the record's log, exactly as the record writes it; left out for the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub entry: Option<serde_json::Value>,
    /// The game after the step as a spectator sees it: the game's view, as a table sends it.
    #[schema(value_type = Object)]
    pub view: serde_json::Value,
    /// Every seat's hand after the step, in seat order, as the game writes cards (the game is over: nothing
    /// is hidden); `null` for a seat without a hand (out of the match).
    #[schema(value_type = Vec<Option<Vec<String>>>)]
    pub hands: Vec<serde_json::Value>,
    /// What happened in the step, as a table tells a spectator: the game's events.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<serde_json::Value>,
}

/// A finished game, step by step, for a replay viewer: every game's record the same way.
#[utoipa::path(
    get,
    path = "/api/games/{id}/replay",
    params(("id" = String, Path, description = "The game's id (a UUID).", format = Uuid)),
    responses(
        (status = 200, description = "The game step by step (gzip when the client accepts it).", body = ReplayJson),
        (status = 400, description = "The id is not a UUID.", body = ApiErrorBody),
        (status = 409, description = "A game of a duplicate round whose deal is still being played (`deal_in_play`).",
         body = ApiErrorBody),
        (status = 404, description = "No finished game has this id.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn replay(State(state): State<AppState>, Path(id): Path<String>, RawQuery(raw): RawQuery) -> Response {
    match replay_of(&state, &id, raw.as_deref()).await {
        Ok(replay) => Json(replay).into_response(),
        Err(error) => error.into_response(),
    }
}

async fn replay_of(state: &AppState, id: &str, raw: Option<&str>) -> Result<ReplayJson, ApiError> {
    super::no_query(raw)?;
    let id = TableId(uuid_param("game", id)?);
    let (kind, record) = finished(state, id).await?;
    // A replay takes a few to a few hundred milliseconds of one core: off the runtime, a few at a time.
    let _permit = state.analyst.replay_permit().await;
    let replay = tokio::task::spawn_blocking(move || kind.replay_steps(&record))
        .await
        .map_err(|e| ApiError::internal(&e))?
        .map_err(|e| ApiError::internal(&format!("the record of {id} does not replay: {e}")))?;
    let steps = replay
        .steps
        .into_iter()
        .map(|step| ReplayStepJson {
            seat: step.seat.map(|seat| seat.0),
            entry: step.entry,
            view: step.view,
            hands: step.hands,
            events: step.events,
        })
        .collect();
    Ok(ReplayJson { game: replay.game.to_owned(), players: replay.players, steps })
}

/// A finished game's kind and record.
async fn finished(
    state: &AppState,
    id: TableId,
) -> Result<(std::sync::Arc<dyn romirami_game::GameKind>, String), ApiError> {
    if state.tournaments.is_sealed(id) {
        return Err(ApiError::deal_in_play());
    }
    let game = state.store.game(id).await.map_err(|e| ApiError::from_store(e, "finished game"))?;
    let kind = state
        .config
        .games
        .get(&game.game)
        .ok_or_else(|| {
            ApiError::internal(&format!("the game {id} is of {}, which this server does not know", game.game))
        })?
        .clone();
    let record = state.store.record(id).await.map_err(|e| ApiError::from_store(e, "finished game"))?;
    Ok((kind, record))
}

/// The analysis of one seat of a finished game: `state` says whether it is `queued`, `running` or `done`;
/// the decisions and their summary are filled in once it is done.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisJson {
    /// Which game it is (`rommi`).
    pub game: String,
    /// The seat analysed.
    pub seat: u8,
    /// `queued`, `running` or `done`.
    pub state: &'static str,
    /// How far it is, from 0 to 1.
    pub progress: f64,
    /// The values' unit: `points` — in Romi Rami the seat's final lead over the best of the others, in the
    /// rummy family the points gained in the round against the others' average gain. Left out until done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The losses from which a decision is an `inaccuracy`, a `mistake` and a `blunder`, in that unit.
    /// Left out until done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<[f64; 3]>,
    /// Each action the seat took with a real choice (two legal actions or more), in order.
    pub decisions: Vec<DecisionJson>,
    /// The decisions counted.
    pub summary: SummaryJson,
}

/// One judged decision.
#[derive(Debug, Serialize, ToSchema)]
pub struct DecisionJson {
    /// The action's number in the record (1 for its first action): the replay's step after it.
    pub step: usize,
    /// The action played: its entry of the record's log, as the record writes it.
    #[schema(value_type = Object)]
    pub played: serde_json::Value,
    /// The best action found from what the seat knew, in the same form (the played one when none is
    /// better).
    #[schema(value_type = Object)]
    pub best: serde_json::Value,
    /// The expected value of the action played.
    pub value_played: f64,
    /// The expected value of the best action.
    pub value_best: f64,
    /// `value_best − value_played`.
    pub loss: f64,
    /// `good`, `inaccuracy`, `mistake` or `blunder`.
    #[schema(value_type = String)]
    pub class: Class,
}

/// The counts of an analysis.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct SummaryJson {
    /// Decisions judged.
    pub decisions: usize,
    /// Inaccuracies among them.
    pub inaccuracies: usize,
    /// Mistakes among them.
    pub mistakes: usize,
    /// Blunders among them.
    pub blunders: usize,
    /// The losses summed, in the analysis's unit.
    pub points_lost: f64,
}

impl From<Decision> for DecisionJson {
    fn from(d: Decision) -> DecisionJson {
        DecisionJson {
            step: d.step,
            played: d.played,
            best: d.best,
            value_played: d.value_played,
            value_best: d.value_best,
            loss: d.loss,
            class: d.class,
        }
    }
}

impl From<Summary> for SummaryJson {
    fn from(s: Summary) -> SummaryJson {
        SummaryJson {
            decisions: s.decisions,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            points_lost: s.points_lost,
        }
    }
}

fn done(analysis: Analysis) -> AnalysisJson {
    AnalysisJson {
        game: analysis.game,
        seat: analysis.seat.0,
        state: "done",
        progress: 1.0,
        unit: Some(analysis.unit),
        thresholds: Some(analysis.thresholds),
        decisions: analysis.decisions.into_iter().map(DecisionJson::from).collect(),
        summary: analysis.summary.into(),
    }
}

fn pending(game: String, seat: Seat, progress: &Progress) -> AnalysisJson {
    let (state, progress) = match *progress {
        Progress::Running { done, total } if total > 0 => ("running", done as f64 / total as f64),
        Progress::Running { .. } => ("running", 0.0),
        _ => ("queued", 0.0),
    };
    AnalysisJson {
        game,
        seat: seat.0,
        state,
        progress,
        unit: None,
        thresholds: None,
        decisions: Vec::new(),
        summary: SummaryJson::default(),
    }
}

/// The analysis of one seat of a finished game: each of its decisions judged by the strong bot from what
/// the seat knew then (docs/analysis.md). Made on request, one at a time per server on a bounded queue,
/// and kept once done: ask again until `state` is `done` (202 until then).
#[utoipa::path(
    get,
    path = "/api/games/{id}/analysis",
    params(
        ("id" = String, Path, description = "The game's id (a UUID).", format = Uuid),
        ("seat" = u8, Query, description = "The seat to analyse, from 0.")
    ),
    responses(
        (status = 200, description = "The analysis, done.", body = AnalysisJson),
        (status = 202, description = "The analysis is queued or running: `state` and `progress` say how far.",
         body = AnalysisJson),
        (status = 400, description = "The id is not a UUID, or `seat` is missing or no seat of the game.",
         body = ApiErrorBody),
        (status = 409, description = "A game of a duplicate round whose deal is still being played (`deal_in_play`).",
         body = ApiErrorBody),
        (status = 404, description = "No finished game has this id.", body = ApiErrorBody),
        (status = 429, description = "The analysis queue is full: try again after `Retry-After` seconds.",
         body = ApiErrorBody),
        (status = 500, description = "The analysis could not be made.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    match analysis_of(&state, &id, raw.as_deref()).await {
        Ok((status, body)) => (status, Json(body)).into_response(),
        Err(error) => error.into_response(),
    }
}

async fn analysis_of(state: &AppState, id: &str, raw: Option<&str>) -> Result<(StatusCode, AnalysisJson), ApiError> {
    let seat = one_parameter(raw, "seat", |value| {
        value
            .parse::<u8>()
            .map(|_| ())
            .map_err(|_| ApiError::bad(format!("`seat` is a seat number, not `{}`", super::cut(value))))
    })?
    .ok_or_else(|| ApiError::bad("`seat` is required: the seat to analyse, from 0"))?;
    let seat = Seat(seat.parse().map_err(|_| ApiError::bad("`seat` is a seat number"))?);
    let id = TableId(uuid_param("game", id)?);
    if state.tournaments.is_sealed(id) {
        return Err(ApiError::deal_in_play());
    }
    let game = state.store.game(id).await.map_err(|e| ApiError::from_store(e, "finished game"))?;
    if seat.index() >= game.results.len() {
        return Err(ApiError::bad(format!(
            "the game has {} seats, 0 to {}",
            game.results.len(),
            game.results.len() - 1
        )));
    }
    if let Some(analysis) = state.store.analysis(id, seat).await.map_err(|e| ApiError::from_store(e, "analysis"))? {
        return Ok((StatusCode::OK, done(analysis)));
    }
    let progress = match state.analyst.progress(id, seat) {
        Some(Progress::Failed(cause)) => {
            return Err(ApiError::internal(&format!("the analysis of {id} failed: {cause}")));
        }
        Some(progress) => progress,
        None => state.analyst.request(id, &game.game, seat).map_err(|full| {
            let mut error = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ApiErrorCode::Busy,
                "the server is making as many analyses as it queues: try again later",
            );
            error.body.error.retry_after = Some(full.retry_after.as_secs().max(1));
            error
        })?,
    };
    Ok((StatusCode::ACCEPTED, pending(game.game, seat, &progress)))
}
