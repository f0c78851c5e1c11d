//! The game: its state, what each seat may ask of it, and the checks of an action (§3, §7). The deal
//! (§2) is in `deal`, the steps an action makes and what follows them on their own (§3, §4) in `steps`.
//!
//! [`Game`] keeps every field private: the only ways out are [`Game::view`] and [`Game::events_for`],
//! which redact per viewer (§6), and [`Game::record`], which is for finished games. Every change goes
//! through [`Game::apply`], which checks the action with [`Game::check`] first and changes nothing when it
//! is illegal. The automatic steps (refills, reshuffles, hand refill, the end of the game) happen inside
//! `apply`.

use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;

use crate::action::{Action, EndReason, Phase, Seat, TurnStep};
use crate::cards::{Card, Cards};
use crate::contracts::ContractId;
use crate::error::IllegalAction;
use crate::random::GameRng;
use crate::record::LogEntry;
use crate::trophies::Trophy;
use crate::view::Event;

mod deal;
mod steps;

pub use deal::Setup;

/// Cards dealt to each hand at the start (§2.3).
pub const STARTING_HAND: usize = 3;
/// Slots of the number market (§2.4).
pub const NUMBER_MARKET_SLOTS: usize = 6;
/// Slots of the contract market (§2.4).
pub const CONTRACT_MARKET_SLOTS: usize = 4;
/// The hand limit (§3 step 4).
pub const HAND_LIMIT: usize = 10;
/// The hand size a short hand is refilled to (§3 step 4).
pub const HAND_MINIMUM: usize = 3;

/// How many completed contracts start the last round (§4): 7 for 2 players, 6 for 3, 5 for 4.
pub const fn contract_target(players: usize) -> usize {
    match players {
        2 => 7,
        3 => 6,
        _ => 5,
    }
}

/// What belongs to one seat.
#[derive(Clone, Debug)]
pub(crate) struct SeatState {
    pub(crate) hand: Cards,
    pub(crate) suit_bonus: Cards,
    pub(crate) contracts: Vec<ContractId>,
    pub(crate) star_used: bool,
}

/// Where reshuffles get their order: the game's generator in live play, a record's `shuffle` entries in
/// a replay.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant, reason = "a game holds one shuffler, and live play is the common case")]
pub(crate) enum Shuffler {
    Random(GameRng),
    Scripted { orders: VecDeque<Vec<Card>>, fault: Option<ShuffleFault> },
}

/// A replayed reshuffle that the record did not describe correctly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShuffleFault {
    Missing,
    NotAPermutation,
}

/// How to take back one action of the current turn (§7).
#[derive(Clone, Debug)]
enum Undo {
    Take { cards: Cards, market_before: [Option<Card>; NUMBER_MARKET_SLOTS] },
    Complete { slot: usize, contract: ContractId, cards: Cards, star: bool },
}

/// The events one [`Game::apply`] produced, as positions in the game's event list
/// (see [`Game::events_for`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The event numbers, counting from 0 at the start of the game.
    pub events: Range<usize>,
}

/// A game of Romi Rami in progress or finished.
#[derive(Clone)]
pub struct Game {
    pub(crate) setup: Setup,
    /// Top of the deck at the end.
    pub(crate) number_deck: Vec<Card>,
    /// Top of the deck at the end.
    pub(crate) contract_deck: Vec<ContractId>,
    pub(crate) number_market: [Option<Card>; NUMBER_MARKET_SLOTS],
    pub(crate) contract_market: [Option<ContractId>; CONTRACT_MARKET_SLOTS],
    pub(crate) discard_pile: Vec<Card>,
    pub(crate) seats: Vec<SeatState>,
    pub(crate) phase: Phase,
    undo: Vec<Undo>,
    pub(crate) log: Vec<LogEntry>,
    pub(crate) events: Vec<Event>,
    pub(crate) shuffler: Shuffler,
}

impl fmt::Debug for Game {
    /// Only public facts: a game printed into a log line must not leak a hand or a deck.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("players", &self.players())
            .field("phase", &self.phase)
            .field("number_market", &self.number_market)
            .field("contract_market", &self.contract_market)
            .field("number_deck", &self.number_deck.len())
            .field("contract_deck", &self.contract_deck.len())
            .field("discard_pile", &self.discard_pile.len())
            .finish_non_exhaustive()
    }
}

impl Game {
    /// How many players.
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// The seat with the first player token.
    pub fn first_player(&self) -> Seat {
        self.setup.first_player
    }

    /// The trophies in play, tile 1 to 4.
    pub fn trophies(&self) -> [Trophy; 4] {
        self.setup.trophies
    }

    /// Who is to act and in which step, or how the game ended.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// The seat to act, while the game goes on.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Playing { seat, .. } => Some(seat),
            Phase::Over { .. } => None,
        }
    }

    /// Whether this is the last round (§4): some player has reached the contract target.
    pub fn is_last_round(&self) -> bool {
        let target = contract_target(self.players());
        self.seats.iter().any(|s| s.contracts.len() >= target)
    }

    /// Whether the player to act can take something back now (§7).
    pub fn can_take_back(&self) -> bool {
        !self.undo.is_empty()
    }

    /// How many events the game has produced so far.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// Gives the game up: it ends as [`EndReason::Abandoned`], scored as it stands (§5).
    /// Does nothing to a game that is already over.
    pub fn abandon(&mut self) {
        if !self.is_over() {
            self.finish(EndReason::Abandoned);
        }
    }

    /// Checks `action` by `seat` against the rules without changing anything.
    ///
    /// # Errors
    /// The rule the action breaks, as an [`IllegalAction`].
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction> {
        let step = match self.phase {
            Phase::Over { .. } => return Err(IllegalAction::GameOver),
            Phase::Playing { seat: to_act, step } => {
                if seat.index() >= self.players() {
                    return Err(IllegalAction::NoSuchSeat { seat });
                }
                if seat != to_act {
                    return Err(IllegalAction::NotYourTurn { seat, to_act });
                }
                step
            }
        };
        let wrong_step = |rule| Err(IllegalAction::WrongStep { step, action: action.kind(), rule });
        match *action {
            Action::Take { cards } if step == TurnStep::Take => self.check_take(&cards),
            Action::Take { .. } => wrong_step("§3 step 1"),
            Action::Complete { contract, cards, star } if step == TurnStep::Contracts => {
                self.check_complete(seat, contract, &cards, star)
            }
            Action::Complete { .. } | Action::Pass => {
                if step == TurnStep::Contracts {
                    Ok(())
                } else {
                    wrong_step("§3 step 2")
                }
            }
            Action::Discard { cards } if step == TurnStep::Discard => self.check_discard(seat, &cards),
            Action::Discard { .. } => wrong_step("§3 step 4"),
            Action::TakeBack if step == TurnStep::Contracts => {
                if self.undo.is_empty() {
                    Err(IllegalAction::NothingToTakeBack)
                } else {
                    Ok(())
                }
            }
            Action::TakeBack => wrong_step("§7"),
        }
    }

    /// Whether `action` by `seat` is legal now; the same answer as [`Game::check`].
    pub fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    /// Plays `action` for `seat`, then every automatic step that follows it.
    ///
    /// # Errors
    /// When the action is illegal: the rule it breaks. The game is then exactly as it was.
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Result<Applied, IllegalAction> {
        self.check(seat, action)?;
        Ok(self.apply_listed(seat, action))
    }

    /// [`Game::apply`] without the check, for an action known to pass it: one that
    /// [`Game::legal_actions`] lists (the random player's, whose every choice is a listed action). The
    /// check was nearly half the cost of `apply` in a random game; debug builds still make it.
    pub(crate) fn apply_listed(&mut self, seat: Seat, action: &Action) -> Applied {
        debug_assert_eq!(self.check(seat, action), Ok(()), "{action:?} by {seat} is legal");
        let first_event = self.events.len();
        match *action {
            Action::Take { cards } => self.take(seat, cards),
            Action::Complete { contract, cards, star } => self.complete(seat, contract, cards, star),
            Action::Pass => self.pass(seat),
            Action::Discard { cards } => self.discard(seat, cards),
            Action::TakeBack => self.take_back(seat),
        }
        Applied { events: first_event..self.events.len() }
    }

    pub(crate) fn number_market_cards(&self) -> Cards {
        Cards::of_slots(&self.number_market)
    }

    fn check_take(&self, cards: &Cards) -> Result<(), IllegalAction> {
        let count = cards.len();
        if !(1..=3).contains(&count) {
            return Err(IllegalAction::TakeCount { count });
        }
        if !self.number_market_cards().contains(cards) {
            return Err(IllegalAction::NotInMarket { cards: *cards });
        }
        if cards.one_number() || cards.one_suit() { Ok(()) } else { Err(IllegalAction::TakeMixed { cards: *cards }) }
    }

    fn check_complete(&self, seat: Seat, contract: ContractId, cards: &Cards, star: bool) -> Result<(), IllegalAction> {
        if !self.contract_market.contains(&Some(contract)) {
            return Err(IllegalAction::ContractNotInMarket { contract });
        }
        let state = &self.seats[seat.index()];
        if star && state.star_used {
            return Err(IllegalAction::StarUsed);
        }
        let expected = usize::from(contract.contract().card_count()) - usize::from(star);
        let count = cards.len();
        if count != expected {
            return Err(IllegalAction::ContractCardCount { contract, expected, count, star });
        }
        if !state.hand.contains(cards) {
            return Err(IllegalAction::NotInHand { cards: *cards });
        }
        if !contract.is_filled_by(cards.number_counts(), star) {
            return Err(IllegalAction::DoesNotFill { contract, cards: *cards, star });
        }
        Ok(())
    }

    fn check_discard(&self, seat: Seat, cards: &Cards) -> Result<(), IllegalAction> {
        let hand = &self.seats[seat.index()].hand;
        let expected = hand.len().saturating_sub(HAND_LIMIT);
        let count = cards.len();
        if count != expected {
            return Err(IllegalAction::DiscardCount { expected, count });
        }
        if !hand.contains(cards) {
            return Err(IllegalAction::DiscardNotInHand { cards: *cards });
        }
        Ok(())
    }
}
