//! The three games as [`TableGame`](romirami_game::TableGame)s: how the server seats a match of Rommi, Rami or Rumino.
//!
//! The game at a table is the whole match ([`RommiMatch`](crate::rommi::RommiMatch),
//! [`RamiMatch`](crate::rami::RamiMatch), [`RuminoMatch`](crate::rumino::RuminoMatch)): every round to
//! the rule book's match end. Each implementation is a thin mapping of the match's own API: its actions,
//! its per-viewer views and events (hands, stock order and seed never shown to anyone else), its bot, its
//! `rummy-record/1` record and the record's replay.
//!
//! Between rounds nothing waits: the action that ends a round scores it and deals the next one inside
//! the same `apply` (Rommi and Rami; in Rumino too, once no rebuy choice is due), so [`TableGame::to_act`](romirami_game::TableGame::to_act)
//! already names the next round's first player. Rumino's rebuys (rumino §9 step 4) are actions: each
//! player eliminated in a hand who may rebuy is, in turn, the seat to act, with
//! [`RuminoAction::Rebuy`](crate::rumino::RuminoAction::Rebuy) as their legal actions; the last choice
//! deals the next hand.
//!
//! A seat's action at the table is a [`TableAction`]: the game's own action, or `take_back`, which undoes
//! the last step of the seat's turn while nothing hidden has been shown in it (`take_back.rs` says what
//! each game allows and why the match keeps copies of itself to do it).
//!
//! The options a host gives may leave any key out ([`RommiTableOptions`], [`RamiTableOptions`],
//! [`RuminoTableOptions`]); the rule book's default takes its place.

mod rami;
mod rommi;
mod rumino;
mod search;
mod take_back;

#[cfg(test)]
mod analysis_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod take_back_tests;
#[cfg(test)]
mod tests;

use romirami_game::{Outcome, Refusal, RefusalKind, SeatOutcome};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

use crate::cards::RummyRng;
use crate::record::RecordMeta;
use crate::seat::{MatchEnd, MatchResult, Seat};

pub use rami::RamiTableOptions;
pub use rommi::RommiTableOptions;
pub use rumino::RuminoTableOptions;
pub use take_back::{ActionStyle, TableAction, TakeBacks};

/// Tells `each` of an action a record's replay is about to play, as the table would take it.
fn tell<G, A>(
    each: &mut dyn FnMut(romirami_game::RecordStep<'_, G>),
    before: &G,
    seat: Seat,
    action: &A,
    entry: &crate::record::LogEntry,
) where
    G: romirami_game::TableGame<Action = TableAction<A>>,
    A: Clone,
{
    let action = TableAction::Play(action.clone());
    let entry = serde_json::to_value(entry).unwrap_or_default();
    each(romirami_game::RecordStep { before, seat, action: &action, entry });
}

/// The refusal of an action the match's check refused: `over` and `not_your_turn` tell its kind.
fn refusal(message: String, over: bool, not_your_turn: bool) -> Refusal {
    let kind = if over {
        RefusalKind::GameOver
    } else if not_your_turn {
        RefusalKind::NotYourTurn
    } else {
        RefusalKind::Illegal
    };
    Refusal::new(kind, message)
}

/// The generator a bot breaks its ties with: seeded from where the match stands (its event count) and
/// the seat, so the same match state gives the same bot action.
fn bot_rng(events: usize, seat: Seat) -> RummyRng {
    RummyRng::from_seed(((events as u64) << 8) ^ u64::from(seat.0) ^ 0x5eed_b075_0000_0000)
}

/// The record's meta data as `rummy-record/1` writes it: the id in its hyphenated form, times in RFC 3339
/// UTC.
fn record_meta(meta: romirami_game::RecordMeta) -> Result<RecordMeta, String> {
    let utc = |at: OffsetDateTime| at.to_offset(UtcOffset::UTC).format(&Rfc3339).map_err(|e| e.to_string());
    Ok(RecordMeta {
        id: meta.id.to_string(),
        started_at: utc(meta.started_at)?,
        finished_at: utc(meta.finished_at)?,
        names: meta.names,
        shuffle: meta.shuffle,
    })
}

/// The outcome of a finished match: `places` as the game ranks its seats, and `rounds[seat]` each round's
/// score of the seat (`None` for a Rumino hand it was not dealt in). An abandoned match names no winner.
fn outcome(
    result: &MatchResult,
    places: Vec<u8>,
    rounds: &[Vec<Option<i64>>],
    extra: impl Fn(usize, &mut serde_json::Map<String, serde_json::Value>),
) -> Option<Outcome> {
    let ended_by = serde_json::to_value(result.ended_by).ok()?.as_str()?.to_owned();
    let abandoned = result.ended_by == MatchEnd::Abandoned;
    let seats = result
        .totals
        .iter()
        .zip(places)
        .enumerate()
        .map(|(i, (&total, place))| {
            let mut details = serde_json::Map::new();
            details.insert("total".into(), total.into());
            let scores: Vec<serde_json::Value> =
                rounds.get(i).into_iter().flatten().map(|s| s.map_or(serde_json::Value::Null, Into::into)).collect();
            details.insert("rounds".into(), scores.into());
            extra(i, &mut details);
            SeatOutcome {
                score: total,
                place,
                winner: !abandoned && result.winners.contains(&Seat(i as u8)),
                details: details.into(),
            }
        })
        .collect();
    Some(Outcome { ended_by, seats })
}
