//! What each person may see (rommi §11): a per-viewer snapshot and per-viewer events.
//!
//! The match keeps one list of events with everything in it; [`RommiMatch::events_for`] hands each out
//! redacted for a viewer. A hand and the card drawn from the stock reach only their owner until the round
//! ends; the stock's order and the generator reach nobody.

use serde::Serialize;

use crate::cards::Card;
use crate::melds::{Meld, MeldId};
use crate::record::RommiRoundResult;
use crate::seat::{MatchEnd, MatchResult, Seat, Viewer};

use super::actions::{RommiAction, Step};
use super::game::RommiMatch;
use super::options::RommiOptions;

/// Something that happened, as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RommiEvent {
    /// A round was dealt (rommi §5): its number, dealer, the first discard and the stock's size.
    RoundStarted {
        /// 1, 2, …
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The card turned up.
        top: Card,
        /// Cards in the stock.
        stock: usize,
    },
    /// A hand was dealt; `cards` only for its owner.
    Dealt {
        /// Whose hand.
        seat: Seat,
        /// The cards, for the owner only.
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<Card>>,
    },
    /// `seat` is to act: the first player of a round, or the next seat after a discard.
    ToAct {
        /// The seat whose turn begins.
        seat: Seat,
    },
    /// A stock draw; `card` only for the drawer.
    Drew {
        /// The seat that drew.
        seat: Seat,
        /// The card, for the drawer only.
        #[serde(skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// A take from the discard pile, deepest first (public).
    Took {
        /// The seat that took them.
        seat: Seat,
        /// The cards, deepest first: a deep take's target is the first.
        cards: Vec<Card>,
    },
    /// A round ended on an empty stock (rommi §8).
    EndedRound {
        /// The seat that ended the round instead of taking from the pile.
        seat: Seat,
    },
    /// A new meld.
    Melded {
        /// The seat that laid it.
        seat: Seat,
        /// The meld as it lies, with its id and each card's position.
        meld: Meld,
    },
    /// A lay-off.
    LaidOff {
        /// The seat that laid the cards off (they count for it in `meld_hand` scoring).
        seat: Seat,
        /// The meld they went on.
        id: MeldId,
        /// The cards laid off.
        cards: Vec<Card>,
    },
    /// A discard.
    Discarded {
        /// The seat that ended its turn with it.
        seat: Seat,
        /// The card, now the top of the discard pile.
        card: Card,
    },
    /// `seat` went out (rommi §7).
    WentOut {
        /// The seat whose hand is empty.
        seat: Seat,
    },
    /// The round was scored; every hand is shown (rommi §7, §11).
    RoundEnded {
        /// The round result.
        result: RommiRoundResult,
        /// Every hand as it ended, by seat.
        hands: Vec<Vec<Card>>,
    },
    /// `seat` took back the last step of its turn, `action` (table play only, `docs/protocol.md`, "Taking
    /// back in the rummy family"): the match is again exactly as it was before that action.
    TookBack {
        /// The seat whose turn it is.
        seat: Seat,
        /// The action taken back, as it was played (it showed nothing hidden).
        action: RommiAction,
    },
    /// The match ended.
    MatchOver {
        /// `target`, or `abandoned` for a table given up.
        ended_by: MatchEnd,
        /// Final totals by seat.
        totals: Vec<i64>,
    },
}

impl RommiEvent {
    /// The event as `viewer` may see it.
    fn redacted(&self, viewer: Viewer) -> RommiEvent {
        match self {
            RommiEvent::Dealt { seat, .. } if !viewer.is(*seat) => RommiEvent::Dealt { seat: *seat, cards: None },
            RommiEvent::Drew { seat, .. } if !viewer.is(*seat) => RommiEvent::Drew { seat: *seat, card: None },
            other => other.clone(),
        }
    }
}

/// A snapshot of the match for one viewer (rommi §11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RommiView {
    /// The options.
    pub options: RommiOptions,
    /// The round's number.
    pub round: u32,
    /// The round's dealer.
    pub dealer: Seat,
    /// Who is to act; `None` when over.
    pub to_act: Option<Seat>,
    /// The turn's step.
    pub step: Step,
    /// The viewer's own hand; `None` for a spectator.
    pub hand: Option<Vec<Card>>,
    /// Each hand's size, by seat.
    pub hand_sizes: Vec<usize>,
    /// Cards in the stock.
    pub stock: usize,
    /// The whole discard pile, bottom first (each card was seen face up).
    pub discard_pile: Vec<Card>,
    /// Every meld with its id, cards, positions and who put each card there.
    pub melds: Vec<Meld>,
    /// The card taken from the top of the pile this turn (§6.1 b).
    pub locked: Option<Card>,
    /// A deep take's target still to play (§6.1 c).
    pub must_play: Option<Card>,
    /// Totals by seat.
    pub totals: Vec<i64>,
    /// The last finished round's result and every hand it ended with, when a round has ended.
    pub last_round: Option<(RommiRoundResult, Vec<Vec<Card>>)>,
    /// The match result once over.
    pub result: Option<MatchResult>,
    /// Whether the seat to act may take back the last step of its turn now (table play only:
    /// `docs/protocol.md`, "Taking back in the rummy family").
    pub can_take_back: bool,
    /// How many events the match has had: the number the next event will have (protocol section 7), so
    /// that a client given this view can ask for the events after it, or the history before it.
    pub event_count: usize,
}

impl RommiMatch {
    /// The match as `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> RommiView {
        let r = &self.round;
        let last_round = self.events.iter().rev().find_map(|e| match e {
            RommiEvent::RoundEnded { result, hands } => Some((result.clone(), hands.clone())),
            _ => None,
        });
        RommiView {
            options: self.options,
            round: self.rounds.len() as u32,
            dealer: r.dealer,
            to_act: self.to_act(),
            step: r.step,
            hand: match viewer {
                Viewer::Seat(seat) if seat.index() < self.players => Some(r.hands[seat.index()].clone()),
                _ => None,
            },
            hand_sizes: r.hands.iter().map(Vec::len).collect(),
            stock: r.stock.len(),
            discard_pile: r.pile.clone(),
            melds: r.table.clone(),
            locked: r.locked,
            must_play: r.target,
            totals: self.totals.clone(),
            last_round,
            result: self.result(),
            can_take_back: self.take_backs.any(),
            event_count: self.events.len(),
        }
    }

    /// How many events happened so far.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The events from number `since` on, each with its number, redacted for `viewer`.
    pub fn events_for(&self, viewer: Viewer, since: usize) -> impl Iterator<Item = (usize, RommiEvent)> + '_ {
        self.events.iter().enumerate().skip(since).map(move |(i, e)| (i, e.redacted(viewer)))
    }
}
