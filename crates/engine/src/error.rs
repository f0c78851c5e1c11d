//! Why the engine refuses an action or a setup. Every illegal-action error names the rule it breaks.
//!
//! The messages only speak of what the acting player sent and of public state, so they are safe to show
//! to that player; they never list another seat's cards, a face-down pile or a deck.

use crate::action::{Seat, TurnStep};
use crate::cards::Cards;
use crate::contracts::ContractId;

/// An action the rules do not allow now. The game is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// The game is over: no action is taken any more.
    #[error("the game is over (§4)")]
    GameOver,
    /// No such seat at this table.
    #[error("{seat} is not at this table")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
    },
    /// Someone else is to act.
    #[error("it is {to_act}'s turn, not {seat}'s (§3)")]
    NotYourTurn {
        /// The seat that tried to act.
        seat: Seat,
        /// The seat to act.
        to_act: Seat,
    },
    /// The action does not belong to the step the turn is in.
    #[error("now you must {step}; a {action} does not fit this step ({rule})")]
    WrongStep {
        /// The step the turn is in.
        step: TurnStep,
        /// The kind of action sent.
        action: &'static str,
        /// The rule that fixes the order of the steps.
        rule: &'static str,
    },
    /// A take of no card or of more than three.
    #[error("take 1, 2 or 3 cards, not {count} (§3 step 1)")]
    TakeCount {
        /// How many cards the take named.
        count: usize,
    },
    /// A take of cards that are not all in the number market.
    #[error("{cards} are not all in the number market (§3 step 1)")]
    NotInMarket {
        /// The cards named.
        cards: Cards,
    },
    /// A take of cards that share neither a number nor a suit.
    #[error("{cards} share neither a number nor a suit (§3 step 1)")]
    TakeMixed {
        /// The cards named.
        cards: Cards,
    },
    /// A contract that is not in the contract market.
    #[error("contract {contract} is not in the contract market (§3 step 2)")]
    ContractNotInMarket {
        /// The contract named.
        contract: ContractId,
    },
    /// Cards played that are not all in the player's hand.
    #[error("{cards} are not all in your hand (§3 step 2)")]
    NotInHand {
        /// The cards named.
        cards: Cards,
    },
    /// The Star was already used this game.
    #[error("your Star is already used; it serves once per game (§3 step 2, §1.4)")]
    StarUsed,
    /// The wrong number of cards for the contract.
    #[error("contract {contract} takes {expected} cards from the hand{with_star}, not {count} (§3 step 2)",
        with_star = if *star { " with the Star" } else { "" })]
    ContractCardCount {
        /// The contract named.
        contract: ContractId,
        /// How many cards it takes.
        expected: usize,
        /// How many were played.
        count: usize,
        /// Whether the Star was played.
        star: bool,
    },
    /// Cards that cannot be split to meet the contract's requirements.
    #[error("{cards}{with_star} cannot be split to meet the requirements of contract {contract} (§3 step 2, §1.2)",
        with_star = if *star { " and the Star" } else { "" })]
    DoesNotFill {
        /// The contract named.
        contract: ContractId,
        /// The cards played.
        cards: Cards,
        /// Whether the Star was played.
        star: bool,
    },
    /// A hand-limit discard of the wrong number of cards.
    #[error("discard exactly {expected} cards to keep 10, not {count} (§3 step 4)")]
    DiscardCount {
        /// How many must go.
        expected: usize,
        /// How many were named.
        count: usize,
    },
    /// A hand-limit discard of cards not in the hand.
    #[error("{cards} are not all in your hand (§3 step 4)")]
    DiscardNotInHand {
        /// The cards named.
        cards: Cards,
    },
    /// Nothing this turn can be taken back.
    #[error("there is nothing to take back: only this turn's take and contracts, before the refill (§7)")]
    NothingToTakeBack,
}

impl IllegalAction {
    /// A stable, machine-readable code for the error, for protocols and tests.
    pub const fn code(&self) -> &'static str {
        match self {
            IllegalAction::GameOver => "game_over",
            IllegalAction::NoSuchSeat { .. } => "no_such_seat",
            IllegalAction::NotYourTurn { .. } => "not_your_turn",
            IllegalAction::WrongStep { .. } => "wrong_step",
            IllegalAction::TakeCount { .. } => "take_count",
            IllegalAction::NotInMarket { .. } => "not_in_market",
            IllegalAction::TakeMixed { .. } => "take_mixed",
            IllegalAction::ContractNotInMarket { .. } => "contract_not_in_market",
            IllegalAction::NotInHand { .. } => "not_in_hand",
            IllegalAction::StarUsed => "star_used",
            IllegalAction::ContractCardCount { .. } => "contract_card_count",
            IllegalAction::DoesNotFill { .. } => "does_not_fill",
            IllegalAction::DiscardCount { .. } => "discard_count",
            IllegalAction::DiscardNotInHand { .. } => "discard_not_in_hand",
            IllegalAction::NothingToTakeBack => "nothing_to_take_back",
        }
    }

    /// The rule-book section the action breaks.
    pub const fn rule(&self) -> &'static str {
        match self {
            IllegalAction::GameOver => "§4",
            IllegalAction::NoSuchSeat { .. } => "§2",
            IllegalAction::NotYourTurn { .. } => "§3",
            IllegalAction::WrongStep { rule, .. } => rule,
            IllegalAction::TakeCount { .. } | IllegalAction::NotInMarket { .. } | IllegalAction::TakeMixed { .. } => {
                "§3 step 1"
            }
            IllegalAction::ContractNotInMarket { .. }
            | IllegalAction::NotInHand { .. }
            | IllegalAction::StarUsed
            | IllegalAction::ContractCardCount { .. }
            | IllegalAction::DoesNotFill { .. } => "§3 step 2",
            IllegalAction::DiscardCount { .. } | IllegalAction::DiscardNotInHand { .. } => "§3 step 4",
            IllegalAction::NothingToTakeBack => "§7",
        }
    }
}

/// A setup that cannot start a game of §2.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2, 3 or 4 players.
    #[error("a game is for 2 to 4 players, not {0} (§2.1)")]
    PlayerCount(usize),
    /// The first player is not one of the seats.
    #[error("the first player {0} is not one of the seats (§2.6)")]
    FirstPlayer(Seat),
    /// The number deck is not exactly the 92 cards of §1.1.
    #[error("the number deck must hold exactly the 92 cards of §1.1")]
    NumberDeck,
    /// The contract deck is not exactly the 36 contracts of §1.2.
    #[error("the contract deck must hold each of the 36 contracts of §1.2 once")]
    ContractDeck,
    /// A trophy shows a side of the wrong tile.
    #[error("trophy {position} must be a side of tile {position} (§1.3)")]
    Trophy {
        /// The tile, 1 to 4.
        position: usize,
    },
}
