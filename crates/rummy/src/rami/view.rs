//! What each person may see (rami §11): per-viewer snapshots and per-viewer events.
//!
//! The match keeps one list of events with everything in it; [`RamiMatch::events_for`] hands each one
//! out redacted for a viewer. Only two things are private: a player's dealt hand and the card they draw
//! from the stock, which reach that player alone. The stock's order (after a deal or a reshuffle) reaches
//! nobody. Everything else — melds, the whole discard pile, the card taken from it, exchanges, "carte",
//! penalties, and every hand once a round is over — is public.

use serde::{Deserialize, Serialize};

use super::actions::RamiAction;
use super::game::{Owes, RamiMatch};
use super::options::RamiOptions;
use crate::cards::Card;
use crate::melds::Meld;
use crate::record::RamiRoundResult;
use crate::seat::{MatchResult, Seat, Viewer};

/// Something that happened, as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RamiEvent {
    /// Round `number` was dealt by `dealer` (rami §5).
    RoundStarted {
        /// From 1.
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The viewer's own dealt hand; `None` for a spectator.
        #[serde(skip_serializing_if = "Option::is_none")]
        hand: Option<Vec<Card>>,
        /// The card turned up to start the discard pile.
        discard: Card,
        /// How many cards the stock holds.
        stock: usize,
    },
    /// `seat` drew from the stock; `card` only for that seat (rami §11).
    Drew {
        /// Who.
        seat: Seat,
        /// The card, for its drawer only.
        #[serde(skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// `seat` took `card` from the discard pile.
    Took {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// `seat` opened with these melds (rami §6).
    Opened {
        /// Who.
        seat: Seat,
        /// The new melds, as on the table.
        melds: Vec<Meld>,
    },
    /// `seat` laid a new meld.
    Melded {
        /// Who.
        seat: Seat,
        /// The meld.
        meld: Meld,
    },
    /// `seat` laid `cards` off on a meld laid by `owner`.
    LaidOff {
        /// Who.
        seat: Seat,
        /// The cards laid off.
        cards: Vec<Card>,
        /// Who laid the meld.
        owner: Seat,
        /// The meld after the lay-off.
        meld: Meld,
    },
    /// `seat` put `card` in place of a meld's joker and took the joker (rami §7.3).
    Exchanged {
        /// Who.
        seat: Seat,
        /// The card given.
        card: Card,
        /// Who laid the meld.
        owner: Seat,
        /// The meld after the exchange.
        meld: Meld,
    },
    /// `seat` discarded `card`.
    Discarded {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// `seat` holds one card: "carte" (rami §7.5).
    Carte {
        /// Who.
        seat: Seat,
    },
    /// The discard pile under its top card became a stock of `stock` cards (rami §8).
    Reshuffled {
        /// The new stock's size; its order stays hidden.
        stock: usize,
    },
    /// `seat` went out.
    Out {
        /// Who.
        seat: Seat,
    },
    /// Round `number` is over; every hand is shown (rami §11).
    RoundEnded {
        /// The round.
        number: u32,
        /// Its result.
        result: RamiRoundResult,
        /// Each seat's cards left, by seat.
        hands: Vec<Vec<Card>>,
    },
    /// `seat` took back the last step of its turn, `action` (table play only, `docs/protocol.md`, "Taking
    /// back in the rummy family"): the match is again exactly as it was before that action.
    TookBack {
        /// The seat whose turn it is.
        seat: Seat,
        /// The action taken back, as it was played (it showed nothing hidden).
        action: RamiAction,
    },
    /// The match is over (rami §10).
    MatchOver {
        /// The result.
        result: MatchResult,
    },
}

/// An event as the match stores it: the two private ones unredacted, the rest as everybody sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    RoundStarted { number: u32, dealer: Seat, hands: Vec<Vec<Card>>, discard: Card, stock: usize },
    Drew { seat: Seat, card: Card },
    Public(RamiEvent),
}

impl Event {
    fn visible(&self, viewer: Viewer) -> RamiEvent {
        match self {
            Event::RoundStarted { number, dealer, hands, discard, stock } => RamiEvent::RoundStarted {
                number: *number,
                dealer: *dealer,
                hand: match viewer {
                    Viewer::Seat(seat) => hands.get(seat.index()).cloned(),
                    Viewer::Spectator => None,
                },
                discard: *discard,
                stock: *stock,
            },
            Event::Drew { seat, card } => RamiEvent::Drew { seat: *seat, card: viewer.is(*seat).then_some(*card) },
            Event::Public(event) => event.clone(),
        }
    }
}

/// A round over, as everybody sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSummary {
    /// From 1.
    pub number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The result.
    pub result: RamiRoundResult,
    /// Each seat's cards left at the end, by seat.
    pub hands: Vec<Vec<Card>>,
}

/// The match as one viewer may see it (rami §11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamiView {
    /// Who is looking.
    pub viewer: Viewer,
    /// The table's options.
    pub options: RamiOptions,
    /// The round in progress, or the last one once the match is over.
    pub round: u32,
    /// Its dealer.
    pub dealer: Seat,
    /// The seat to act; `None` when the match is over.
    pub to_act: Option<Seat>,
    /// Whether the seat to act has drawn this turn.
    pub drew: bool,
    /// Whether the seat to act opened this turn (a rami sec if they go out now).
    pub opened_this_turn: bool,
    /// What the seat to act still owes this turn.
    pub owes: Option<Owes>,
    /// The viewer's own hand; `None` for a spectator.
    pub hand: Option<Vec<Card>>,
    /// How many cards each hand holds, by seat.
    pub hand_sizes: Vec<usize>,
    /// Who has opened this round, by seat.
    pub opened: Vec<bool>,
    /// Who holds one card ("carte", rami §7.5), by seat.
    pub carte: Vec<bool>,
    /// Every meld on the table, in id order, each with the seat that laid it.
    pub melds: Vec<Meld>,
    /// The whole discard pile, bottom first: the last card is the top.
    pub discard_pile: Vec<Card>,
    /// How many cards the stock holds.
    pub stock: usize,
    /// Each seat's total after the rounds over, by seat.
    pub totals: Vec<i64>,
    /// The rounds over, with every hand shown.
    pub rounds: Vec<RoundSummary>,
    /// The match result, once over.
    pub result: Option<MatchResult>,
    /// Whether the seat to act may take back the last step of its turn now (table play only:
    /// `docs/protocol.md`, "Taking back in the rummy family").
    #[serde(default)]
    pub can_take_back: bool,
    /// How many events the match has had: the number the next event will have (protocol section 7), so
    /// that a client given this view can ask for the events after it, or the history before it.
    #[serde(default)]
    pub event_count: usize,
}

impl RamiMatch {
    /// The match as `viewer` may see it (rami §11).
    pub fn view(&self, viewer: Viewer) -> RamiView {
        let round = &self.round;
        let turn = self.turn();
        let sizes: Vec<usize> = round.hands.iter().map(|h| h.len()).collect();
        RamiView {
            viewer,
            options: self.options,
            round: round.number,
            dealer: round.dealer,
            to_act: turn.map(|t| t.seat),
            drew: turn.is_some_and(|t| t.drew),
            opened_this_turn: turn.is_some_and(|t| t.opened_now),
            owes: turn.and_then(|t| t.owes),
            hand: match viewer {
                Viewer::Seat(seat) => round.hands.get(seat.index()).map(|h| h.cards()),
                Viewer::Spectator => None,
            },
            carte: sizes.iter().map(|&n| n == 1).collect(),
            hand_sizes: sizes,
            opened: round.opened.clone(),
            melds: round.melds.clone(),
            discard_pile: round.discard.clone(),
            stock: round.stock.len(),
            totals: self.totals.clone(),
            rounds: self
                .rounds()
                .filter_map(|r| {
                    Some(RoundSummary {
                        number: r.number,
                        dealer: r.dealer,
                        result: r.result.clone()?,
                        hands: r.hands.iter().map(|h| h.cards()).collect(),
                    })
                })
                .collect(),
            result: self.result(),
            can_take_back: self.take_backs.any(),
            event_count: self.event_count(),
        }
    }

    /// The events from number `since` on, each redacted for `viewer`, with its number.
    pub fn events_for(&self, viewer: Viewer, since: usize) -> impl Iterator<Item = (usize, RamiEvent)> + '_ {
        let dropped = self.events_dropped;
        let kept = self.events.iter().enumerate().skip(since.saturating_sub(dropped));
        kept.map(move |(n, event)| (dropped + n, event.visible(viewer)))
    }
}
