//! Taking back a step of one's own turn at a table, for Rommi, Rami and Rumino (`docs/protocol.md`,
//! "Taking back in the rummy family").
//!
//! None of the three rule books speaks of taking back: it is the online table's courtesy, as Romi Rami's
//! §7 is, and follows the same line. While it is their turn, a player may take back the steps of that turn,
//! the last first, back to its start, as long as no step of the turn has shown anything hidden — a card
//! drawn from the stock, a new deal, a reshuffle, hands shown at a knock or gin, a rumino (each game's
//! `reveals_hidden`). The first such step makes the turn final. A step that ends the turn (a discard,
//! the end of a round) is never taken back: the turn is someone else's, or a new one.
//!
//! The design keeps the table core game-neutral and the rules untouched: the table's action is
//! [`TableAction`], the game's own action or `take_back`, and the legal list offers `take_back` when it
//! may be played. Before each step that could be taken back, the match keeps a copy of itself (without
//! its events, which are numbered and already sent); taking back puts that copy back and adds a
//! `took_back` event naming the step undone. A copy rather than an inverse of each step because a
//! copy is exact by construction (meld ids, joker positions, locks, deep-take targets, tallies, the
//! round's record log), which the property tests check against the views before the step. The round's
//! record log is restored with the rest, so the record holds only the actions that stand (rummy record
//! format, "Log entries") and replays as before; the table's stored log keeps the `take_back` rows, and a
//! restart replays them through the same `apply`.

use std::fmt;

use romirami_game::{Refusal, RefusalKind};
use serde::de::{DeserializeOwned, Error as _};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::seat::Seat;

/// A seat's action at a table: the game's own, or taking back the last step of its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableAction<A> {
    /// `take_back`: undo the last step of this turn.
    TakeBack,
    /// An action of the game.
    Play(A),
}

/// How a game writes its actions, so that `take_back` is written the same way: `{"type": "take_back"}`
/// for a game whose actions are objects tagged by `type` (Rommi, Rumino), `"take_back"` for one whose
/// unit actions are strings (Rami's `"draw"`).
pub trait ActionStyle {
    /// Whether actions are objects tagged by `type`.
    const TAGGED: bool;
}

impl<A: Serialize + ActionStyle> Serialize for TableAction<A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TableAction::Play(action) => action.serialize(serializer),
            TableAction::TakeBack if A::TAGGED => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("type", "take_back")?;
                map.end()
            }
            TableAction::TakeBack => serializer.serialize_str("take_back"),
        }
    }
}

impl<'de, A: DeserializeOwned + ActionStyle> Deserialize<'de> for TableAction<A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TableAction<A>, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        let take_back = if A::TAGGED {
            value.get("type").and_then(serde_json::Value::as_str) == Some("take_back")
        } else {
            value.as_str() == Some("take_back")
        };
        if take_back {
            return match value.as_object() {
                Some(fields) if fields.len() > 1 => Err(D::Error::custom("take_back has no fields")),
                _ => Ok(TableAction::TakeBack),
            };
        }
        A::deserialize(value).map(TableAction::Play).map_err(D::Error::custom)
    }
}

/// What a match keeps so that the steps of the turn in play can be taken back.
#[derive(Clone)]
pub struct TakeBacks<M, A> {
    /// The match before each step of this turn that may still be taken back, with that step; the last
    /// step's last. The copies hold no events and no take-backs of their own.
    steps: Vec<(M, A)>,
    /// Whether a step of this turn showed something hidden: the turn is final.
    closed: bool,
    /// Never: a world of the strong bot's search, where nobody takes back, keeps no copies.
    never: bool,
}

impl<M, A> Default for TakeBacks<M, A> {
    fn default() -> Self {
        TakeBacks { steps: Vec::new(), closed: false, never: false }
    }
}

impl<M, A> TakeBacks<M, A> {
    /// No take-backs, ever: for a world of the strong bot's search.
    pub(crate) fn never() -> Self {
        TakeBacks { steps: Vec::new(), closed: true, never: true }
    }

    /// Whether a step of the turn in play may be taken back.
    pub(crate) fn any(&self) -> bool {
        !self.steps.is_empty()
    }
}

impl<M, A> fmt::Debug for TakeBacks<M, A> {
    /// How many steps may be taken back, never what the copies hold (hands, the stock).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TakeBacks").field("steps", &self.steps.len()).field("closed", &self.closed).finish()
    }
}

/// A match whose table lets a player take back the steps of their turn.
pub(crate) trait Undo: Clone + Sized {
    /// The game's own action.
    type Action: Clone;
    /// The event the match keeps.
    type Event;

    /// The match's events and its take-backs.
    fn undo_parts(&mut self) -> (&mut Vec<Self::Event>, &mut TakeBacks<Self, Self::Action>);
    /// The take-backs, to read.
    fn take_backs(&self) -> &TakeBacks<Self, Self::Action>;
    /// Which turn is in play: the round (or hand) and the seat to act. A step after which it differs
    /// ended the turn.
    fn turn(&self) -> (usize, Option<Seat>);
    /// Whether `action`, legal now, shows anybody something hidden.
    fn reveals(&self, action: &Self::Action) -> bool;
    /// The event that tells everyone `seat` took `action` back.
    fn took_back(seat: Seat, action: Self::Action) -> Self::Event;
    /// The rule that made the turn final, for the refusal of a take-back after it.
    const FINAL: &'static str;
}

/// The match without its events and take-backs: what taking back a step restores.
fn copy<M: Undo>(game: &mut M) -> M {
    let (events, take_backs) = game.undo_parts();
    let (events, take_backs) = (std::mem::take(events), std::mem::take(take_backs));
    let copy = game.clone();
    let (e, t) = game.undo_parts();
    (*e, *t) = (events, take_backs);
    copy
}

/// Plays `action` for the seat to act through `play`, which applies a checked action, and keeps what
/// taking it back needs.
///
/// # Errors
/// `play`'s refusal; the match is then unchanged.
pub(crate) fn play<M: Undo>(
    game: &mut M,
    action: &M::Action,
    play: impl FnOnce(&mut M) -> Result<(), Refusal>,
) -> Result<(), Refusal> {
    if game.take_backs().never {
        return play(game);
    }
    let turn = game.turn();
    let reveals = game.reveals(action);
    let before = (!reveals && !game.take_backs().closed).then(|| copy(game));
    play(game)?;
    let ended = game.turn() != turn;
    let (_, take_backs) = game.undo_parts();
    if ended {
        *take_backs = TakeBacks::default();
    } else if reveals {
        *take_backs = TakeBacks { steps: Vec::new(), closed: true, never: false };
    } else if let Some(before) = before {
        take_backs.steps.push((before, action.clone()));
    }
    Ok(())
}

/// Whether `seat` may take back a step now.
pub(crate) fn can<M: Undo>(game: &M, seat: Seat) -> bool {
    game.turn().1 == Some(seat) && !game.take_backs().steps.is_empty()
}

/// Why `seat` may not take back a step now, if it may not.
pub(crate) fn check<M: Undo>(game: &M, seat: Seat, name: &str, over: bool) -> Result<(), Refusal> {
    if over {
        return Err(Refusal::new(RefusalKind::GameOver, format!("{name}: the match is over")));
    }
    if game.turn().1 != Some(seat) {
        return Err(Refusal::new(
            RefusalKind::NotYourTurn,
            format!("{name}: only the seat to act may take back a step of its own turn"),
        ));
    }
    let take_backs = game.take_backs();
    if take_backs.closed {
        return Err(Refusal::new(
            RefusalKind::Illegal,
            format!("{name}: this turn is final, {} (taking back: docs/protocol.md)", M::FINAL),
        ));
    }
    if take_backs.steps.is_empty() {
        return Err(Refusal::new(
            RefusalKind::Illegal,
            format!("{name}: nothing to take back, this turn has no step yet (taking back: docs/protocol.md)"),
        ));
    }
    Ok(())
}

/// Takes back the last step of `seat`'s turn: the match is again exactly as before it, its events
/// kept and one more telling what was taken back.
///
/// # Errors
/// Why not ([`check`]); the match is then unchanged.
pub(crate) fn take_back<M: Undo>(game: &mut M, seat: Seat, name: &str, over: bool) -> Result<(), Refusal> {
    check(game, seat, name, over)?;
    let (events, take_backs) = game.undo_parts();
    let Some((before, action)) = take_backs.steps.pop() else {
        return Err(Refusal::new(RefusalKind::Illegal, format!("{name}: nothing to take back")));
    };
    let (mut events, take_backs) = (std::mem::take(events), std::mem::take(take_backs));
    *game = before;
    events.push(M::took_back(seat, action));
    let (e, t) = game.undo_parts();
    (*e, *t) = (events, take_backs);
    Ok(())
}
