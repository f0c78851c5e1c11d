//! Why Rommi refuses an action. Every refusal names its rule (`rommi §6.1: ...`) and speaks only of what
//! the acting player sent and of public state.

use crate::cards::Card;
use crate::melds::{MeldError, MeldId};
use crate::seat::Seat;

use super::actions::Step;

/// An action the rules do not allow now; the match is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RommiIllegal {
    /// The match is over.
    #[error("rommi §10: the match is over")]
    MatchOver,
    /// Between rounds of a replay: no round is dealt.
    #[error("rommi §5: no round is in play")]
    NoRound,
    /// Not a seat of this table.
    #[error("rommi §1: {0} is not at this table")]
    NoSuchSeat(Seat),
    /// Another seat is to act.
    #[error("rommi §5: it is {to_act}'s turn, not {seat}'s")]
    NotYourTurn {
        /// The seat that sent the action.
        seat: Seat,
        /// The seat whose turn it is.
        to_act: Seat,
    },
    /// The action does not belong to the turn's step.
    #[error("rommi §6: a {action} does not fit now ({step})")]
    WrongStep {
        /// The kind of action sent.
        action: &'static str,
        /// What the turn expects.
        step: &'static str,
    },
    /// A draw from an empty stock.
    #[error("rommi §6.1 a: the stock is empty; take from the discard pile or end the round (§8)")]
    StockEmpty,
    /// Ending the round while the stock has cards.
    #[error("rommi §6.1 d: the round can be ended only on an empty stock (§8)")]
    StockNotEmpty,
    /// A take of a card that is not in the discard pile.
    #[error("rommi §6.1: {0} is not in the discard pile")]
    NotInPile(Card),
    /// A deep take in `basic`.
    #[error("rommi §6.1 c: only the top discard may be taken in basic rummy")]
    DeepTakeBasic,
    /// A deep take whose target cannot be played right after it.
    #[error("rommi §6.1 c: {0} could not be melded or laid off right after the take")]
    DeepTakeUnplayable(Card),
    /// Cards that are not all in the hand.
    #[error("rommi §6.2: {0} is not in your hand")]
    NotInHand(Card),
    /// The same card twice in one play.
    #[error("rommi §6.2: {0} is named twice")]
    Repeated(Card),
    /// The first play after a deep take leaves the target out.
    #[error("rommi §6.1 c: your first play this turn must contain {0}, the deep take's target")]
    TargetFirst(Card),
    /// A discard before the target of a deep take is played.
    #[error("rommi §6.1 c: play {0}, the deep take's target, before discarding")]
    TargetUnplayed(Card),
    /// No such meld on the table.
    #[error("rommi §3.4: there is no {0} on the table")]
    NoSuchMeld(MeldId),
    /// Not a meld, or not a lay-off that keeps the meld valid.
    #[error("rommi §3: {0}")]
    Meld(MeldError),
    /// `meld_restriction`: a second new meld this turn.
    #[error("rommi §6.2 (meld restriction): one new meld per turn")]
    SecondMeld,
    /// `meld_restriction`: a lay-off before one's own meld this round.
    #[error("rommi §6.2 (meld restriction): lay off only after laying a meld of your own this round")]
    LayOffBeforeMeld,
    /// Discarding the card just taken from the top of the pile.
    #[error("rommi §6.1 b: {0} was just taken from the discard pile and cannot be discarded this turn")]
    Locked(Card),
}

impl RommiIllegal {
    /// A stable, machine-readable code.
    pub const fn code(&self) -> &'static str {
        match self {
            RommiIllegal::MatchOver => "match_over",
            RommiIllegal::NoRound => "no_round",
            RommiIllegal::NoSuchSeat(_) => "no_such_seat",
            RommiIllegal::NotYourTurn { .. } => "not_your_turn",
            RommiIllegal::WrongStep { .. } => "wrong_step",
            RommiIllegal::StockEmpty => "stock_empty",
            RommiIllegal::StockNotEmpty => "stock_not_empty",
            RommiIllegal::NotInPile(_) => "not_in_pile",
            RommiIllegal::DeepTakeBasic => "deep_take_basic",
            RommiIllegal::DeepTakeUnplayable(_) => "deep_take_unplayable",
            RommiIllegal::NotInHand(_) => "not_in_hand",
            RommiIllegal::Repeated(_) => "repeated_card",
            RommiIllegal::TargetFirst(_) => "target_first",
            RommiIllegal::TargetUnplayed(_) => "target_unplayed",
            RommiIllegal::NoSuchMeld(_) => "no_such_meld",
            RommiIllegal::Meld(_) => "invalid_meld",
            RommiIllegal::SecondMeld => "second_meld",
            RommiIllegal::LayOffBeforeMeld => "lay_off_before_meld",
            RommiIllegal::Locked(_) => "locked_card",
        }
    }
}

impl Step {
    pub(crate) const fn describe(self) -> &'static str {
        match self {
            Step::Draw => "draw, take from the discard pile, or end the round",
            Step::Play => "meld, lay off or discard",
        }
    }
}
