//! A player's own page of tables, "my games" (`GET /api/players/me/tables`, their bearer token): every table
//! they sit at that is not over — live on this node, or asleep in the store (a turn-based table nobody is at),
//! or in a cluster live on another node (from the store, without its turn) — with whose turn it is and when it
//! ends, the player's turns first, the most urgent first.

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;

use super::tournaments::player_of;
use super::{ApiError, ApiErrorBody, no_query, respond};
use crate::protocol::{PlayerInfo, TableId, TableState, TableSummary};
use crate::state::AppState;

/// The answer of `GET /api/players/me/tables`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyTables {
    /// The player's tables not over: theirs to play first, then by the end of the running turn.
    pub tables: Vec<MyTable>,
    /// How many of them wait for the player's move.
    pub your_turn: usize,
}

/// One of a player's tables.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyTable {
    /// The table (its page is `/#/table/ID`).
    pub table: TableId,
    /// Its game, by name.
    pub game: String,
    /// `waiting` (for players) or `playing`.
    pub state: TableState,
    /// Whether it is turn-based (a turn longer than ten minutes).
    pub turn_based: bool,
    /// Whether it sleeps (nobody is at it); it wakes when someone comes.
    pub asleep: bool,
    /// The player's seat.
    pub seat: u8,
    /// Who sits where.
    pub players: Vec<Option<PlayerInfo>>,
    /// The seat whose turn it is, in play.
    pub to_act: Option<u8>,
    /// Whether that is the player's seat.
    pub your_turn: bool,
    /// When the running turn ends, its reserve included (RFC 3339), with a clock.
    pub turn_ends_at: Option<String>,
}

impl MyTable {
    fn of(summary: TableSummary, player: &PlayerInfo, asleep: bool) -> Option<MyTable> {
        if summary.state == TableState::Finished {
            return None;
        }
        let seat = summary.seats.iter().position(|p| p.as_ref().is_some_and(|p| p.id == player.id))?;
        let seat = u8::try_from(seat).ok()?;
        let to_act = summary.to_act.map(|seat| seat.0);
        Some(MyTable {
            table: summary.id,
            game: summary.game,
            state: summary.state,
            turn_based: summary.clock.is_some_and(|clock| clock.is_turn_based()),
            asleep,
            seat,
            players: summary.seats,
            to_act,
            your_turn: to_act == Some(seat),
            turn_ends_at: summary.turn_ends_at,
        })
    }

    /// The order of the list: the player's turns first, then the soonest end of a turn, then the rest.
    fn urgency(&self) -> (bool, bool, Option<OffsetDateTime>, TableId) {
        let ends = self.turn_ends_at.as_deref().and_then(|at| OffsetDateTime::parse(at, &Rfc3339).ok());
        (!self.your_turn, ends.is_none(), ends, self.table)
    }
}

/// The tables `ids`, live on other nodes of the cluster, as the store has them: who sits where, no turn.
async fn elsewhere_tables(
    state: &AppState,
    ids: &[TableId],
    player: &PlayerInfo,
) -> Result<Vec<MyTable>, crate::store::StoreError> {
    let mut found = Vec::new();
    let seat_of = |seats: &[Option<PlayerInfo>]| {
        seats.iter().position(|p| p.as_ref().is_some_and(|p| p.id == player.id)).and_then(|s| u8::try_from(s).ok())
    };
    let entry = |table: &crate::store::TableRow, state: TableState, players: Vec<Option<PlayerInfo>>| {
        seat_of(&players).map(|seat| MyTable {
            table: table.id,
            game: table.game.clone(),
            state,
            turn_based: table.clock.is_some_and(|clock| clock.is_turn_based()),
            asleep: false,
            seat,
            players,
            to_act: None,
            your_turn: false,
            turn_ends_at: None,
        })
    };
    for game in state.store.unfinished_games_among(ids).await? {
        let players = game.players.iter().map(|p| Some(PlayerInfo { id: p.id, name: p.name.clone() })).collect();
        found.extend(entry(&game.table, TableState::Playing, players));
    }
    for waiting in state.store.waiting_tables_among(ids).await? {
        let players = waiting.seats.iter().map(|seat| seat.as_ref().map(|(p, _)| p.clone())).collect();
        found.extend(entry(&waiting.table, TableState::Waiting, players));
    }
    Ok(found)
}

/// The player's tables that are not over, theirs to play first (docs/push.md: what the "my games" page shows).
#[utoipa::path(
    get,
    path = "/api/players/me/tables",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The player's tables.", body = MyTables),
        (status = 400, description = "A query parameter was given.", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn my_tables(State(state): State<AppState>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Response {
    let found = async {
        no_query(raw.as_deref())?;
        let player = player_of(&state, &headers).await?;
        let mut tables: Vec<MyTable> = state
            .lobby
            .tables_of(player.id)
            .into_iter()
            .filter_map(|summary| MyTable::of(summary, &player, false))
            .collect();
        let store_error = |e| ApiError::from_store(e, "player");
        let asleep = state.store.sleeping_tables_of(player.id).await.map_err(store_error)?;
        for row in asleep {
            // A table woken meanwhile is listed live already.
            if !tables.iter().any(|table| table.table == row.table) {
                tables.extend(MyTable::of(row.summary, &player, true));
            }
        }
        if state.cluster.is_some() {
            // In a cluster, a table live on another node is known to this one by the store only: listed
            // without its turn (its page tells it).
            let known: Vec<TableId> = tables.iter().map(|table| table.table).collect();
            let elsewhere: Vec<TableId> = state
                .store
                .open_tables_of(player.id)
                .await
                .map_err(store_error)?
                .into_iter()
                .filter(|id| !known.contains(id))
                .collect();
            if !elsewhere.is_empty() {
                tables.extend(elsewhere_tables(&state, &elsewhere, &player).await.map_err(store_error)?);
            }
        }
        tables.sort_by_key(MyTable::urgency);
        let your_turn = tables.iter().filter(|table| table.your_turn).count();
        Ok::<_, ApiError>(MyTables { tables, your_turn })
    };
    respond(found.await, Json)
}
