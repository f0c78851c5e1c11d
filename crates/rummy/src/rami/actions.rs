//! Rami's actions: what a player sends. Each one that stands becomes one entry of the round's log
//! (rummy-record-format.md, "Log entries": the shared [`LogEntry`]); the engine adds the automatic ones
//! (`out`, `reshuffle`).

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::melds::{JokerFor, MeldId};
use crate::record::{LogEntry, MeldEntry};
use crate::seat::Seat;

/// A new meld as a player lays it: cards from the hand, and what a joker among them stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeldCards {
    /// The cards, in any order.
    pub cards: Vec<Card>,
    /// What the joker stands for (rami §3.3): present exactly when `cards` holds a joker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joker: Option<JokerFor>,
}

impl MeldCards {
    /// A meld of `cards` with `joker` stated.
    pub fn new(cards: Vec<Card>, joker: Option<JokerFor>) -> MeldCards {
        MeldCards { cards, joker }
    }

    /// Whether a card with `card`'s code is among the cards.
    pub fn contains(&self, card: Card) -> bool {
        self.cards.contains(&card)
    }
}

/// What a player does on their turn (rami §7).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RamiAction {
    /// §7.1 a: take the top card of the stock.
    Draw,
    /// §7.1 b: take the top card of the discard pile.
    Take,
    /// §6: open with these new melds, numbered in this order.
    Open(Vec<MeldCards>),
    /// §7.2: lay one new meld.
    Meld(MeldCards),
    /// §3.5: lay `cards` off on meld `id`.
    LayOff {
        /// The meld.
        id: MeldId,
        /// The cards from the hand.
        cards: Vec<Card>,
        /// What a joker among them stands for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        joker: Option<JokerFor>,
    },
    /// §7.3: put `card` in place of meld `id`'s joker and take the joker.
    Exchange {
        /// The meld.
        id: MeldId,
        /// The natural card the joker stands for.
        card: Card,
    },
    /// §7.4: discard `card`, ending the turn.
    Discard(Card),
}

impl RamiAction {
    /// The action's name, as the record's entry key.
    pub const fn name(&self) -> &'static str {
        match self {
            RamiAction::Draw => "draw",
            RamiAction::Take => "take",
            RamiAction::Open(_) => "open",
            RamiAction::Meld(_) => "meld",
            RamiAction::LayOff { .. } => "lay_off",
            RamiAction::Exchange { .. } => "exchange",
            RamiAction::Discard(_) => "discard",
        }
    }

    /// Whether the action puts cards on the table: a play of rami §1 other than the exchange.
    pub(crate) fn laid_cards(&self) -> Option<Vec<Card>> {
        match self {
            RamiAction::Open(melds) => Some(melds.iter().flat_map(|m| m.cards.iter().copied()).collect()),
            RamiAction::Meld(meld) => Some(meld.cards.clone()),
            RamiAction::LayOff { cards, .. } => Some(cards.clone()),
            _ => None,
        }
    }
}

impl RamiAction {
    /// The seat and action of a log entry a player makes; `None` for the engine's entries (`out`,
    /// `reshuffle`) and for the entries of other games.
    pub fn from_entry(entry: &LogEntry) -> Option<(Seat, RamiAction)> {
        let cards = |m: &MeldEntry| MeldCards { cards: m.cards.clone(), joker: m.joker };
        Some(match entry {
            LogEntry::Draw { seat, .. } => (*seat, RamiAction::Draw),
            LogEntry::Take { seat, .. } => (*seat, RamiAction::Take),
            LogEntry::Open { seat, melds } => (*seat, RamiAction::Open(melds.iter().map(cards).collect())),
            LogEntry::Meld { seat, meld } => (*seat, RamiAction::Meld(cards(meld))),
            LogEntry::LayOff { seat, lay_off } => {
                (*seat, RamiAction::LayOff { id: lay_off.id, cards: lay_off.cards.clone(), joker: lay_off.joker })
            }
            LogEntry::Exchange { seat, id, card } => (*seat, RamiAction::Exchange { id: *id, card: *card }),
            LogEntry::Discard { seat, card, gin: false } => (*seat, RamiAction::Discard(*card)),
            _ => return None,
        })
    }
}
