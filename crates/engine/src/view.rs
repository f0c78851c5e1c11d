//! What each person may see (§6): per-viewer views of the state and per-viewer events.
//!
//! The game keeps one list of events with everything in it; [`Game::events_for`] hands out each one
//! redacted for a viewer, and [`Game::view`] builds a snapshot for a viewer. A seat's hand, its suit
//! bonus pile, the cards it draws and discards reach only that seat; the deck orders and the generator
//! reach nobody. Spectators see exactly the public information.

use serde::{Deserialize, Serialize};

use crate::action::{EndReason, Phase, Seat, TurnStep};
use crate::cards::{Card, Cards};
use crate::contracts::ContractId;
use crate::game::{CONTRACT_MARKET_SLOTS, Game, NUMBER_MARKET_SLOTS, contract_target};
use crate::scoring::{GameResult, TrophyWinners};
use crate::trophies::Trophy;

pub use romirami_game::Viewer;

/// Something that happened, as the game stores it, with nothing redacted. Never leaves the crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    ToAct { seat: Seat, step: TurnStep },
    Took { seat: Seat, cards: Cards },
    Completed { seat: Seat, contract: ContractId, cards: Cards, star: bool },
    TookBack { seat: Seat, contract: Option<ContractId>, cards: Cards, star: bool },
    Passed { seat: Seat },
    ContractMarketRefilled { market: [Option<ContractId>; CONTRACT_MARKET_SLOTS] },
    NumberMarketRefilled { market: [Option<Card>; NUMBER_MARKET_SLOTS] },
    Reshuffled { deck: usize },
    Drew { seat: Seat, cards: Cards },
    Discarded { seat: Seat, cards: Cards },
    LastRound { started: bool },
    GameOver { ended_by: EndReason },
}

/// Something that happened, as one viewer may see it (§6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VisibleEvent {
    /// `seat` is to act, in `step`.
    ToAct {
        /// The seat to act.
        seat: Seat,
        /// What it must do.
        step: TurnStep,
    },
    /// `seat` took these cards from the number market (§3 step 1).
    Took {
        /// Who took.
        seat: Seat,
        /// What they took.
        cards: Cards,
    },
    /// `seat` completed `contract` with these hand cards, and the Star when `star` (§3 step 2).
    Completed {
        /// Who completed it.
        seat: Seat,
        /// The contract completed, which leaves the market for the seat's play area.
        contract: ContractId,
        /// The hand cards played; they are shown when played.
        cards: Cards,
        /// Whether the Star was used.
        star: bool,
    },
    /// `seat` took back its take (no `contract`) or a contract (§7); the cards went back where they were.
    TookBack {
        /// Who took back.
        seat: Seat,
        /// The contract taken back, or `None` for the take.
        #[serde(skip_serializing_if = "Option::is_none")]
        contract: Option<ContractId>,
        /// The cards that went back to the market (a take) or to the hand (a contract).
        cards: Cards,
        /// Whether the Star came back.
        star: bool,
    },
    /// `seat` ended its contract step (§3 step 2).
    Passed {
        /// Who passed.
        seat: Seat,
    },
    /// The contract market after a refill (§3 step 3).
    ContractMarketRefilled {
        /// Slot by slot.
        market: [Option<ContractId>; CONTRACT_MARKET_SLOTS],
    },
    /// The number market after a refill (§3 step 3, step 4).
    NumberMarketRefilled {
        /// Slot by slot.
        market: [Option<Card>; NUMBER_MARKET_SLOTS],
    },
    /// The discard pile was shuffled into a new number deck of `deck` cards; its order stays hidden.
    Reshuffled {
        /// The new deck's size.
        deck: usize,
    },
    /// `seat` drew `count` cards into a short hand (§3 step 4); `cards` only for that seat.
    Drew {
        /// Who drew.
        seat: Seat,
        /// How many cards.
        count: usize,
        /// The cards, for the seat that drew them only.
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// `seat` discarded `count` cards for the hand limit (§3 step 4); `cards` only for that seat.
    Discarded {
        /// Who discarded.
        seat: Seat,
        /// How many cards.
        count: usize,
        /// The cards, for the seat that discarded them only.
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// The last round started (a player reached the contract target, §4), or, when `started` is false,
    /// was called off because the contract that started it was taken back (§7).
    LastRound {
        /// Whether the last round is on now.
        started: bool,
    },
    /// The game is over (§4) with this result (§5).
    GameOver {
        /// The final result, every part revealed.
        result: GameResult,
    },
}

impl Event {
    fn visible(&self, viewer: Viewer, game: &Game) -> VisibleEvent {
        match *self {
            Event::ToAct { seat, step } => VisibleEvent::ToAct { seat, step },
            Event::Took { seat, cards } => VisibleEvent::Took { seat, cards },
            Event::Completed { seat, contract, cards, star } => VisibleEvent::Completed { seat, contract, cards, star },
            Event::TookBack { seat, contract, cards, star } => VisibleEvent::TookBack { seat, contract, cards, star },
            Event::Passed { seat } => VisibleEvent::Passed { seat },
            Event::ContractMarketRefilled { market } => VisibleEvent::ContractMarketRefilled { market },
            Event::NumberMarketRefilled { market } => VisibleEvent::NumberMarketRefilled { market },
            Event::Reshuffled { deck } => VisibleEvent::Reshuffled { deck },
            Event::Drew { seat, cards } => {
                VisibleEvent::Drew { seat, count: cards.len(), cards: viewer.is(seat).then_some(cards) }
            }
            Event::Discarded { seat, cards } => {
                VisibleEvent::Discarded { seat, count: cards.len(), cards: viewer.is(seat).then_some(cards) }
            }
            Event::LastRound { started } => VisibleEvent::LastRound { started },
            Event::GameOver { ended_by } => VisibleEvent::GameOver { result: game.result_as(ended_by) },
        }
    }
}

/// A seat's score as a viewer may see it: the suit bonus (and so the total) only for the seat itself
/// or once the game is over (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatScore {
    /// §5.1, public.
    pub contracts: u32,
    /// §5.2 as the trophies stand now, public.
    pub trophies: u32,
    /// §5.4, public.
    pub star: u32,
    /// The sum of the public parts.
    pub public_total: u32,
    /// §5.3: private to the seat until the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suit_bonus: Option<u32>,
    /// The full total: private to the seat until the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
}

/// One seat as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Which seat this is, in seat order.
    pub seat: Seat,
    /// Its completed contracts, in the order it completed them.
    pub contracts: Vec<ContractId>,
    /// How many cards it holds.
    pub hand_size: usize,
    /// Whether its Star is used.
    pub star_used: bool,
    /// Its score so far.
    pub score: SeatScore,
}

/// The state of a game as one viewer may see it (§6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Who is to act and in which step, or how the game ended.
    pub phase: Phase,
    /// The seat with the first player token.
    pub first_player: Seat,
    /// Whether the last round is on (§4).
    pub last_round: bool,
    /// How many contracts start the last round for this player count (§4).
    pub contract_target: usize,
    /// The trophies in play, tile 1 to 4.
    pub trophies: [Trophy; 4],
    /// Who would win each trophy now.
    pub trophy_leaders: TrophyWinners,
    /// The number market, slot by slot.
    pub number_market: [Option<Card>; NUMBER_MARKET_SLOTS],
    /// The contract market, slot by slot.
    pub contract_market: [Option<ContractId>; CONTRACT_MARKET_SLOTS],
    /// Cards left in the number deck.
    pub number_deck: usize,
    /// Cards left in the contract deck.
    pub contract_deck: usize,
    /// Cards in the discard pile.
    pub discard_pile: usize,
    /// Every seat, in seat order.
    pub seats: Vec<SeatView>,
    /// The viewer's hand, for a seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Cards>,
    /// The viewer's suit bonus pile, for a seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suit_bonus: Option<Cards>,
    /// Whether the player to act may take something back now (§7).
    pub can_take_back: bool,
    /// The result, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// How many events the game has produced: the number the next event will have.
    pub event_count: usize,
}

impl Game {
    /// The state as `viewer` may see it (§6).
    pub fn view(&self, viewer: Viewer) -> View {
        let over = self.is_over();
        let trophy_leaders = self.trophy_winners();
        let seats = self
            .seats_iter()
            .map(|seat| {
                let state = &self.seats[seat.index()];
                let full = self.score(seat, &trophy_leaders);
                let sees_all = over || viewer.is(seat);
                SeatView {
                    seat,
                    contracts: state.contracts.clone(),
                    hand_size: state.hand.len(),
                    star_used: state.star_used,
                    score: SeatScore {
                        contracts: full.contracts,
                        trophies: full.trophies,
                        star: full.star,
                        public_total: full.contracts + full.trophies + full.star,
                        suit_bonus: sees_all.then_some(full.suit_bonus),
                        total: sees_all.then_some(full.total),
                    },
                }
            })
            .collect();
        let own = match viewer {
            Viewer::Seat(seat) => self.seats.get(seat.index()),
            Viewer::Spectator => None,
        };
        View {
            viewer,
            phase: self.phase,
            first_player: self.first_player(),
            last_round: self.is_last_round(),
            contract_target: contract_target(self.players()),
            trophies: self.trophies(),
            trophy_leaders,
            number_market: self.number_market,
            contract_market: self.contract_market,
            number_deck: self.number_deck.len(),
            contract_deck: self.contract_deck.len(),
            discard_pile: self.discard_pile.len(),
            seats,
            hand: own.map(|s| s.hand),
            suit_bonus: own.map(|s| s.suit_bonus),
            can_take_back: self.can_take_back(),
            result: self.result(),
            event_count: self.events.len(),
        }
    }

    /// The events from number `since` on, as `viewer` may see them, each with its number.
    pub fn events_for(&self, viewer: Viewer, since: usize) -> impl Iterator<Item = (usize, VisibleEvent)> + '_ {
        self.events.iter().enumerate().skip(since).map(move |(n, event)| (n, event.visible(viewer, self)))
    }
}
