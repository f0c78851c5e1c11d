//! What a Rumino player may do (rumino §6, §9 step 4), and the entries of a hand's log (record format).

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::seat::Seat;

/// One action of a player. Everything else in a hand (the deal, reshuffles, ruminos, scoring) the engine
/// does by itself inside [`crate::rumino::RuminoMatch::apply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RuminoAction {
    /// §6 a: end the hand with a deadwood of 7 or less, before drawing.
    Knock,
    /// §6 b: draw the top card of the stock.
    Draw,
    /// §6 c: take the top card of the discard pile.
    Take,
    /// §6 step 2: discard `card`; with `gin`, declare gin with the 7 cards kept.
    Discard {
        /// The card discarded.
        card: Card,
        /// Whether this discard declares gin.
        gin: bool,
    },
    /// §9 step 4: the choice of a player eliminated in the hand just scored.
    Rebuy {
        /// `true` to rebuy, `false` to stay out.
        rebuy: bool,
    },
}

/// One entry of a hand's log (record format, "Log entries"): an action that stands, with the card it
/// moved, or what the engine found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuminoEntry {
    /// `{ "seat": s, "draw": "4c" }`.
    Draw {
        /// Who drew.
        seat: Seat,
        /// The stock's top card.
        card: Card,
    },
    /// `{ "seat": s, "take": ["5h"] }`.
    Take {
        /// Who took.
        seat: Seat,
        /// The discard pile's top card.
        card: Card,
    },
    /// `{ "seat": s, "knock": true }`.
    Knock {
        /// Who knocked.
        seat: Seat,
    },
    /// `{ "seat": s, "discard": "Qs" }`, with `"gin": true` on a gin.
    Discard {
        /// Who discarded.
        seat: Seat,
        /// The card discarded.
        card: Card,
        /// Whether it declares gin.
        gin: bool,
    },
    /// `{ "seat": s, "rumino": [7 codes] }`, with `"claim": "7h"` for a discard taken out of turn.
    Rumino {
        /// Whose rumino.
        seat: Seat,
        /// The 7 cards that form it (with the claimed card, when there is one).
        cards: Vec<Card>,
        /// The discard taken out of turn (§8 step 3).
        claim: Option<Card>,
    },
    /// `{ "reshuffle": [codes] }`: the new stock, top first (§6).
    Reshuffle {
        /// The new stock, top first.
        stock: Vec<Card>,
    },
}

impl RuminoEntry {
    /// The seat and action of an entry a player sent; `None` for what the engine writes itself.
    pub fn action(&self) -> Option<(Seat, RuminoAction)> {
        match *self {
            RuminoEntry::Draw { seat, .. } => Some((seat, RuminoAction::Draw)),
            RuminoEntry::Take { seat, .. } => Some((seat, RuminoAction::Take)),
            RuminoEntry::Knock { seat } => Some((seat, RuminoAction::Knock)),
            RuminoEntry::Discard { seat, card, gin } => Some((seat, RuminoAction::Discard { card, gin })),
            RuminoEntry::Rumino { .. } | RuminoEntry::Reshuffle { .. } => None,
        }
    }
}
