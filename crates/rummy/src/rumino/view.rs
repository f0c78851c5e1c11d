//! What each person may see (rumino §10): per-viewer snapshots and per-viewer events.
//!
//! The match keeps one list of events with everything in it; [`RuminoMatch::events_for`] hands each one
//! out redacted for a viewer, and [`RuminoMatch::view`] builds a snapshot for one. A hand and the card
//! its owner draws reach only that owner, until a knock or gin shows every hand; the stock's order
//! reaches nobody until the match is over.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::rumino::actions::{RuminoAction, RuminoEntry};
use crate::rumino::game::{HandEnd, HandScore, Phase, RuminoMatch, RuminoOutcome};
use crate::rumino::lays::deadwood;
use crate::seat::{MatchEnd, Seat, Viewer};

/// Something that happened, with nothing redacted. Never leaves the crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    Dealt { number: u32, dealer: Seat, hands: Vec<Vec<Card>>, upcard: Card, stock: usize },
    ToAct { seat: Seat },
    Reshuffled { stock: usize },
    Knocked { seat: Seat },
    Drew { seat: Seat, card: Card },
    Took { seat: Seat, card: Card },
    Discarded { seat: Seat, card: Card, gin: bool },
    Rumino { seat: Seat, cards: Vec<Card>, claim: Option<Card> },
    HandScored { ended_by: HandEnd, by: Seat, hands: Vec<(Seat, Vec<Card>)>, scores: Vec<HandScore>, totals: Vec<i64> },
    Eliminated { seat: Seat },
    RebuyAsked { seat: Seat },
    RebuyChosen { seat: Seat, rebuy: bool },
    TookBack { seat: Seat, action: RuminoAction },
    MatchOver { ended_by: MatchEnd, winners: Vec<Seat> },
}

/// Something that happened, as one viewer may see it (§10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RuminoEvent {
    /// A hand was dealt (§5): the viewer's own 7 cards, when they are dealt in.
    Dealt {
        /// The hand's number.
        number: u32,
        /// Its dealer.
        dealer: Seat,
        /// The viewer's cards; `None` for a spectator or a player out.
        hand: Option<Vec<Card>>,
        /// The upcard.
        upcard: Card,
        /// Cards in the stock.
        stock: usize,
    },
    /// `seat` is to play a turn.
    ToAct {
        /// The seat.
        seat: Seat,
    },
    /// The discard pile under its top became the stock (§6); its order stays hidden.
    Reshuffled {
        /// Cards in the new stock.
        stock: usize,
    },
    /// `seat` knocked (§6 a).
    Knocked {
        /// The seat.
        seat: Seat,
    },
    /// `seat` drew from the stock; `card` only for that seat.
    Drew {
        /// The seat.
        seat: Seat,
        /// The card, for its owner only.
        card: Option<Card>,
    },
    /// `seat` took `card` from the discard pile (§6 c).
    Took {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// `seat` discarded `card`, declaring gin when `gin`.
    Discarded {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
        /// Whether it declared gin.
        gin: bool,
    },
    /// `seat` holds a rumino and wins (§8); `claim` is a discard taken out of turn.
    Rumino {
        /// The winner.
        seat: Seat,
        /// The rumino.
        cards: Vec<Card>,
        /// The discard claimed, if any.
        claim: Option<Card>,
    },
    /// A knock or gin ended the hand: every hand is shown with its score (§7, §10).
    HandScored {
        /// How it ended.
        ended_by: HandEnd,
        /// Who ended it.
        by: Seat,
        /// Every hand dealt in, shown.
        hands: Vec<(Seat, Vec<Card>)>,
        /// Deadwood and score per seat dealt in.
        scores: Vec<HandScore>,
        /// Totals by seat, before rebuys.
        totals: Vec<i64>,
    },
    /// `seat` went above 100 (§9 step 2).
    Eliminated {
        /// The seat.
        seat: Seat,
    },
    /// `seat` is to choose whether to rebuy (§9 step 4).
    RebuyAsked {
        /// The seat.
        seat: Seat,
    },
    /// `seat` chose.
    RebuyChosen {
        /// The seat.
        seat: Seat,
        /// Whether it rebought.
        rebuy: bool,
    },
    /// `seat` took back the last step of its turn, `action` (table play only, `docs/protocol.md`, "Taking
    /// back in the rummy family"): the match is again exactly as it was before that action.
    TookBack {
        /// The seat whose turn it is.
        seat: Seat,
        /// The action taken back, as it was played (it showed nothing hidden).
        action: RuminoAction,
    },
    /// The match is over.
    MatchOver {
        /// How.
        ended_by: MatchEnd,
        /// Who won, ascending.
        winners: Vec<Seat>,
    },
}

impl Event {
    fn visible(&self, viewer: Viewer) -> RuminoEvent {
        let own = |seat: Seat| viewer == Viewer::Seat(seat);
        match self.clone() {
            Event::Dealt { number, dealer, hands, upcard, stock } => {
                let hand = match viewer {
                    Viewer::Seat(seat) => hands.get(usize::from(seat.0)).filter(|h| !h.is_empty()).cloned(),
                    Viewer::Spectator => None,
                };
                RuminoEvent::Dealt { number, dealer, hand, upcard, stock }
            }
            Event::ToAct { seat } => RuminoEvent::ToAct { seat },
            Event::Reshuffled { stock } => RuminoEvent::Reshuffled { stock },
            Event::Knocked { seat } => RuminoEvent::Knocked { seat },
            Event::Drew { seat, card } => RuminoEvent::Drew { seat, card: own(seat).then_some(card) },
            Event::Took { seat, card } => RuminoEvent::Took { seat, card },
            Event::Discarded { seat, card, gin } => RuminoEvent::Discarded { seat, card, gin },
            Event::Rumino { seat, cards, claim } => RuminoEvent::Rumino { seat, cards, claim },
            Event::HandScored { ended_by, by, hands, scores, totals } => {
                RuminoEvent::HandScored { ended_by, by, hands, scores, totals }
            }
            Event::Eliminated { seat } => RuminoEvent::Eliminated { seat },
            Event::RebuyAsked { seat } => RuminoEvent::RebuyAsked { seat },
            Event::RebuyChosen { seat, rebuy } => RuminoEvent::RebuyChosen { seat, rebuy },
            Event::TookBack { seat, action } => RuminoEvent::TookBack { seat, action },
            Event::MatchOver { ended_by, winners } => RuminoEvent::MatchOver { ended_by, winners },
        }
    }
}

/// One seat as everybody sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuminoSeatView {
    /// The seat.
    pub seat: Seat,
    /// Whether its player is in (§1).
    pub is_in: bool,
    /// Its total (§9).
    pub total: i64,
    /// How many times it rebought.
    pub rebuys: u32,
    /// Cards in its hand (0 when out of the hand).
    pub hand_size: usize,
}

/// What the player to act must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuminoStep {
    /// Knock, draw or take (§6).
    Pick,
    /// Discard, with or without gin (§6 step 2).
    Discard,
    /// Choose whether to rebuy (§9 step 4).
    Rebuy,
}

/// How the last finished hand ended, as shown to everybody (§10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownEnd {
    /// How it ended.
    pub ended_by: HandEnd,
    /// Who ended it.
    pub by: Seat,
    /// After a knock or gin: every hand with its deadwood and score.
    pub hands: Vec<ShownHand>,
    /// After a rumino: the winning cards.
    pub rumino: Option<Vec<Card>>,
}

/// One hand shown at a knock or gin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownHand {
    /// The seat.
    pub seat: Seat,
    /// Its 7 cards.
    pub cards: Vec<Card>,
    /// Its deadwood (§4).
    pub deadwood: u32,
    /// Its score (§7).
    pub score: i64,
}

/// A hand's deck and reshuffles, revealed when the match is over (§10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedDeck {
    /// The hand's number.
    pub number: u32,
    /// Its deck, top first.
    pub deck: Vec<Card>,
    /// Each reshuffle's new stock, top first.
    pub reshuffles: Vec<Vec<Card>>,
}

/// The match as one viewer may see it (§10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuminoView {
    /// Who is looking.
    pub viewer: Viewer,
    /// The current hand's number.
    pub hand_number: u32,
    /// Its dealer.
    pub dealer: Seat,
    /// Who must act; `None` when the match is over.
    pub to_act: Option<Seat>,
    /// What they must do.
    pub step: Option<RuminoStep>,
    /// The viewer's own cards, when they are dealt in.
    pub hand: Option<Vec<Card>>,
    /// The lowest deadwood of the viewer's hand (§4).
    pub deadwood: Option<u32>,
    /// The discard pile, bottom first: its last card is the top.
    pub discard_pile: Vec<Card>,
    /// Cards in the stock.
    pub stock: usize,
    /// Every seat, in seat order.
    pub seats: Vec<RuminoSeatView>,
    /// The card taken from the discard pile this turn (§6 c).
    pub taken: Option<Card>,
    /// How the last finished hand ended.
    pub last_end: Option<ShownEnd>,
    /// The end of the match.
    pub outcome: Option<RuminoOutcome>,
    /// Once the match is over: every hand's deck and reshuffles.
    pub decks: Option<Vec<RevealedDeck>>,
    /// Whether the seat to act may take back the last step of its turn now (table play only:
    /// `docs/protocol.md`, "Taking back in the rummy family").
    #[serde(default)]
    pub can_take_back: bool,
    /// How many events the match has had: the number the next event will have (protocol section 7), so
    /// that a client given this view can ask for the events after it, or the history before it.
    #[serde(default)]
    pub event_count: usize,
}

impl RuminoMatch {
    /// The match as `viewer` may see it (§10).
    pub fn view(&self, viewer: Viewer) -> RuminoView {
        let current = self.hand_logs.last().expect("a match always has a hand dealt");
        let own = match viewer {
            Viewer::Seat(seat) => self.hands.get(usize::from(seat.0)).filter(|h| !h.is_empty()),
            Viewer::Spectator => None,
        };
        let step = match self.phase {
            Phase::Turn { drawn: false, .. } => Some(RuminoStep::Pick),
            Phase::Turn { drawn: true, .. } => Some(RuminoStep::Discard),
            Phase::Rebuy { .. } => Some(RuminoStep::Rebuy),
            Phase::Over => None,
        };
        RuminoView {
            viewer,
            hand_number: current.number,
            dealer: current.dealer,
            to_act: self.to_act(),
            step,
            hand: own.cloned(),
            deadwood: own.map(|h| deadwood(h)),
            discard_pile: self.discard.clone(),
            stock: self.stock.len(),
            seats: (0..self.players)
                .map(|i| RuminoSeatView {
                    seat: Seat(i as u8),
                    is_in: self.is_in[i],
                    total: self.totals[i],
                    rebuys: self.rebuy_counts[i],
                    hand_size: self.hands[i].len(),
                })
                .collect(),
            taken: self.taken,
            last_end: self.last_end(),
            outcome: self.outcome.clone(),
            decks: self.is_over().then(|| self.revealed_decks()),
            can_take_back: self.take_backs.any(),
            event_count: self.events.len(),
        }
    }

    fn last_end(&self) -> Option<ShownEnd> {
        self.events.iter().rev().find_map(|event| match event {
            Event::HandScored { ended_by, by, hands, scores, .. } => Some(ShownEnd {
                ended_by: *ended_by,
                by: *by,
                hands: hands
                    .iter()
                    .zip(scores)
                    .map(|((seat, cards), score)| ShownHand {
                        seat: *seat,
                        cards: cards.clone(),
                        deadwood: score.deadwood,
                        score: score.score,
                    })
                    .collect(),
                rumino: None,
            }),
            Event::Rumino { seat, cards, .. } => {
                Some(ShownEnd { ended_by: HandEnd::Rumino, by: *seat, hands: Vec::new(), rumino: Some(cards.clone()) })
            }
            _ => None,
        })
    }

    fn revealed_decks(&self) -> Vec<RevealedDeck> {
        self.hand_logs
            .iter()
            .map(|h| RevealedDeck {
                number: h.number,
                deck: h.deck.clone(),
                reshuffles: h
                    .log
                    .iter()
                    .filter_map(|e| match e {
                        RuminoEntry::Reshuffle { stock } => Some(stock.clone()),
                        _ => None,
                    })
                    .collect(),
            })
            .collect()
    }

    /// How many events the match has produced: the next call's `since`.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The events from number `since` on, each redacted for `viewer` (§10), with its number.
    pub fn events_for(&self, viewer: Viewer, since: usize) -> impl Iterator<Item = (usize, RuminoEvent)> + '_ {
        self.events.iter().enumerate().skip(since).map(move |(number, event)| (number, event.visible(viewer)))
    }
}
