//! What a player can do (§3, §7), what the engine expects next, and how games end (§4).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::Cards;
use crate::contracts::ContractId;

pub use romirami_game::Seat;

/// A player's move. Each one is checked against the rules before it changes anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// §3 step 1: take 1 to 3 market cards that share a number or a suit.
    Take {
        /// The cards taken.
        cards: Cards,
    },
    /// §3 step 2: complete a contract of the contract market with these hand cards, and the Star when
    /// `star` is true.
    Complete {
        /// The contract, which must be in the contract market.
        contract: ContractId,
        /// The hand cards played.
        cards: Cards,
        /// Whether the Star stands in for one card.
        #[serde(default)]
        star: bool,
    },
    /// §3 step 2: end the contract step; the refill (step 3) and hand limit (step 4) follow.
    Pass,
    /// §3 step 4: discard these cards to get down to exactly 10.
    Discard {
        /// The cards discarded.
        cards: Cards,
    },
    /// §7: take back the last take or contract of this turn, before the refill.
    TakeBack,
}

impl Action {
    /// A short name of the kind of action, for logs and metrics; never holds cards.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Take { .. } => "take",
            Action::Complete { .. } => "complete",
            Action::Pass => "pass",
            Action::Discard { .. } => "discard",
            Action::TakeBack => "take_back",
        }
    }
}

/// The step of a turn that the player to act is in (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnStep {
    /// Step 1: must take from the number market.
    Take,
    /// Step 2: may complete contracts or take back (§7), then passes.
    Contracts,
    /// Step 4: holds more than 10 cards and must discard down to 10.
    Discard,
}

impl fmt::Display for TurnStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnStep::Take => "take from the number market",
            TurnStep::Contracts => "complete contracts or pass",
            TurnStep::Discard => "discard down to 10 cards",
        })
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// §4 first rule: the last round after a player reached the contract target.
    Contracts,
    /// §4 second rule: a market was empty at the end of a turn.
    Market,
    /// The table was given up before the rules ended it.
    Abandoned,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Phase {
    /// The game goes on: `seat` is to act, in `step`.
    Playing {
        /// The player to act.
        seat: Seat,
        /// What they must do.
        step: TurnStep,
    },
    /// The game is over.
    Over {
        /// Why it ended.
        ended_by: EndReason,
    },
}
