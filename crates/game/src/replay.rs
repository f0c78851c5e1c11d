//! A finished game step by step, for the replay viewer (`GET /api/games/{id}/replay`): the record replayed
//! through its game's rules ([`TableGame::replay_steps`]), and after the deal and after every action the
//! game as a spectator sees it, every seat's hand (the game is over: nothing is hidden any more) and what
//! happened, in the events the table sends. Every game gives the same shape, so that one viewer steps
//! through any of them and draws each with its own board.

use serde::Serialize;
use serde_json::Value;

use crate::{Seat, TableGame, Viewer};

/// One action of a record as [`TableGame::replay_steps`] plays it.
pub struct RecordStep<'a, G: TableGame> {
    /// The game just before the action.
    pub before: &'a G,
    /// The seat that plays it.
    pub seat: Seat,
    /// The action, as the table would take it.
    pub action: &'a G::Action,
    /// The record's log entry that writes it, exactly as the record writes it.
    pub entry: Value,
}

/// A finished game step by step.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// The game's name.
    pub game: &'static str,
    /// How many seats it had.
    pub players: usize,
    /// The deal (step 0), then the game after each action of the record's log, in order.
    pub steps: Vec<ReplayStep>,
}

/// The game after one step of a replay.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayStep {
    /// The seat whose action this step is (`None` for the deal).
    pub seat: Option<Seat>,
    /// That action's entry of the record's log, as the record writes it (`None` for the deal).
    pub entry: Option<Value>,
    /// The game after the step, as a spectator sees it (the game's view, as at a table).
    pub view: Value,
    /// Every seat's hand after the step, in seat order, as the seat's own view shows it.
    pub hands: Vec<Value>,
    /// What happened in the step, as a spectator is told: the game's events, as at a table.
    pub events: Vec<Value>,
}

/// The steps of a record of `G`.
///
/// # Errors
/// When the record does not replay.
pub fn replay_of<G: TableGame>(record: &G::Record, players: usize) -> Result<Replay, String> {
    let mut steps = Vec::new();
    let mut events_seen = 0;
    // The action that leads to the next step: each step is taken where the next action starts (or at the
    // end), so that it shows the game after the action before.
    let mut pending: Option<(Seat, Value)> = None;
    let take = |game: &G, acted: Option<(Seat, Value)>, events_seen: &mut usize| {
        let events = game
            .events_for(Viewer::Spectator, *events_seen, usize::MAX)
            .into_iter()
            .map(|(_, e)| to_value(&e))
            .collect();
        *events_seen = game.event_count();
        let hands = Seat::all(players)
            .map(|seat| to_value(&game.view(Viewer::Seat(seat))).get("hand").cloned().unwrap_or(Value::Null))
            .collect();
        let (seat, entry) = acted.map_or((None, None), |(seat, entry)| (Some(seat), Some(entry)));
        ReplayStep { seat, entry, view: to_value(&game.view(Viewer::Spectator)), hands, events }
    };
    let end = G::replay_steps(record, &mut |step| {
        steps.push(take(step.before, pending.take(), &mut events_seen));
        pending = Some((step.seat, step.entry));
    })?;
    steps.push(take(&end, pending.take(), &mut events_seen));
    Ok(Replay { game: G::NAME, players, steps })
}

fn to_value(value: &impl Serialize) -> Value {
    // A game's views and events are plain data with string keys: writing them cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}
