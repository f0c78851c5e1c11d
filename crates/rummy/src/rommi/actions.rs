//! What a Rommi player can do (rommi §6). Each action is one log entry of the record.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::melds::MeldId;

/// A player's action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RommiAction {
    /// §6.1 a: the top card of the stock.
    Draw,
    /// §6.1 b and c: `card` and every card above it from the discard pile. The top card alone is b (it is
    /// then locked); a deeper card is a deep take (`500` only) and `card` is its target.
    Take {
        /// The deepest card taken.
        card: Card,
    },
    /// §6.1 d: end the round; only on an empty stock (§8).
    EndRound,
    /// §6.2: a new meld from the hand.
    Meld {
        /// Its cards.
        cards: Vec<Card>,
    },
    /// §6.2: cards from the hand added to meld `id`.
    LayOff {
        /// The meld.
        id: MeldId,
        /// The cards.
        cards: Vec<Card>,
    },
    /// §6.3: the discard that ends the turn.
    Discard {
        /// The card from the hand put on the discard pile.
        card: Card,
    },
}

impl RommiAction {
    /// A short name of the kind of action, for logs and metrics; never holds cards.
    pub const fn kind(&self) -> &'static str {
        match self {
            RommiAction::Draw => "draw",
            RommiAction::Take { .. } => "take",
            RommiAction::EndRound => "end_round",
            RommiAction::Meld { .. } => "meld",
            RommiAction::LayOff { .. } => "lay_off",
            RommiAction::Discard { .. } => "discard",
        }
    }
}

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// §6.1: draw, take or end the round.
    Draw,
    /// §6.2 and §6.3: play, then discard.
    Play,
}
