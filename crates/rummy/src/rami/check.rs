//! Why the Rami engine refuses an action. Every refusal names the section of rami.md it breaks, in its
//! message (`rami §6: the opening is 46 points, 51 needed`) and in [`RamiIllegal::rule`].
//!
//! The messages speak only of what the acting player sent and of public state, so they are safe to show
//! to that player: never another hand or the stock.

use crate::cards::Card;
use crate::melds::{MeldError, MeldId};
use crate::seat::Seat;

use super::melds::section;

/// Formats a list of cards as their codes.
pub(crate) struct Codes<'a>(pub(crate) &'a [Card]);

impl std::fmt::Display for Codes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, card) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

/// An action the rules do not allow now. The match is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RamiIllegal {
    /// The match is over.
    #[error("rami §10: the match is over")]
    MatchOver,
    /// No such seat at this table.
    #[error("rami §1: {0} is not at this table")]
    NoSuchSeat(Seat),
    /// Someone else is to act.
    #[error("rami §5: it is {to_act}'s turn, not {seat}'s")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Who is to act.
        to_act: Seat,
    },
    /// A play or a discard before the draw.
    #[error("rami §7.1: the turn starts with a draw from the stock or the discard pile, not a {0}")]
    DrawFirst(&'static str),
    /// A second draw.
    #[error("rami §7.1: you have drawn this turn; the player does exactly one draw")]
    AlreadyDrew,
    /// A take with one card in hand.
    #[error("rami §7.1 b: with one card (\"carte\", §7.5) you must draw from the stock")]
    TakeWithOneCard,
    /// A take of a card that could not be played first.
    #[error("rami §7.1 b: {0} could not go on the table in your first play this turn, leaving a card in hand")]
    TakeUnplayable(Card),
    /// After a take, a first play without the taken card.
    #[error("rami §7.1 b: your first play this turn must put {0}, taken from the discard pile, on the table")]
    TakenCardFirst(Card),
    /// After an exchange, something else than a meld or lay-off with a joker.
    #[error("rami §7.3: after a joker exchange your next play is a meld or a lay-off with a joker")]
    JokerPlayNext,
    /// A meld, lay-off or exchange before opening.
    #[error("rami §6: until you have opened, the only way to put cards on the table is to open")]
    NotOpened,
    /// A second opening.
    #[error("rami §6: you have already opened this round")]
    AlreadyOpened,
    /// Cards that are not all in the hand.
    #[error("rami §7.2: {0} are not all in your hand")]
    NotInHand(String),
    /// An opening of no meld.
    #[error("rami §6: an opening lays one or more melds")]
    EmptyOpening,
    /// An opening under the threshold.
    #[error("rami §6: the opening is {value} points, {needed} needed")]
    OpeningTooLow {
        /// What the melds are worth.
        value: u32,
        /// The table's threshold.
        needed: u32,
    },
    /// A Rami 51 opening without a jokerless run.
    #[error("rami §6: a Rami 51 opening includes a run of 3 or more cards without a joker")]
    NoPureRun,
    /// A play that would leave the hand empty.
    #[error("rami §7.2: no play may leave the hand empty; one card must remain for the discard (§7.4)")]
    EmptiesHand,
    /// A meld id that is not on the table.
    #[error("rami §3.5: there is no {0} on the table")]
    NoSuchMeld(MeldId),
    /// Cards that do not make a meld, or do not fit one, or a joker that cannot be exchanged.
    #[error("rami {}: {error}", section(error))]
    Meld {
        /// What is wrong.
        error: MeldError,
    },
    /// An exchange after which no meld or lay-off with a joker could follow.
    #[error("rami §7.3: after this exchange no meld or lay-off with a joker would be possible, leaving a card in hand")]
    ExchangeDeadEnd,
}

impl RamiIllegal {
    /// A stable, machine-readable code for the refusal.
    pub const fn code(&self) -> &'static str {
        match self {
            RamiIllegal::MatchOver => "match_over",
            RamiIllegal::NoSuchSeat(_) => "no_such_seat",
            RamiIllegal::NotYourTurn { .. } => "not_your_turn",
            RamiIllegal::DrawFirst(_) => "draw_first",
            RamiIllegal::AlreadyDrew => "already_drew",
            RamiIllegal::TakeWithOneCard => "take_with_one_card",
            RamiIllegal::TakeUnplayable(_) => "take_unplayable",
            RamiIllegal::TakenCardFirst(_) => "taken_card_first",
            RamiIllegal::JokerPlayNext => "joker_play_next",
            RamiIllegal::NotOpened => "not_opened",
            RamiIllegal::AlreadyOpened => "already_opened",
            RamiIllegal::NotInHand(_) => "not_in_hand",
            RamiIllegal::EmptyOpening => "empty_opening",
            RamiIllegal::OpeningTooLow { .. } => "opening_too_low",
            RamiIllegal::NoPureRun => "no_pure_run",
            RamiIllegal::EmptiesHand => "empties_hand",
            RamiIllegal::NoSuchMeld(_) => "no_such_meld",
            RamiIllegal::Meld { .. } => "invalid_meld",
            RamiIllegal::ExchangeDeadEnd => "exchange_dead_end",
        }
    }

    /// The section of rami.md the action breaks.
    pub const fn rule(&self) -> &'static str {
        match self {
            RamiIllegal::MatchOver => "§10",
            RamiIllegal::NoSuchSeat(_) => "§1",
            RamiIllegal::NotYourTurn { .. } => "§5",
            RamiIllegal::DrawFirst(_) | RamiIllegal::AlreadyDrew => "§7.1",
            RamiIllegal::TakeWithOneCard | RamiIllegal::TakeUnplayable(_) | RamiIllegal::TakenCardFirst(_) => "§7.1 b",
            RamiIllegal::JokerPlayNext | RamiIllegal::ExchangeDeadEnd => "§7.3",
            RamiIllegal::NotOpened
            | RamiIllegal::AlreadyOpened
            | RamiIllegal::EmptyOpening
            | RamiIllegal::OpeningTooLow { .. }
            | RamiIllegal::NoPureRun => "§6",
            RamiIllegal::NotInHand(_) | RamiIllegal::EmptiesHand => "§7.2",
            RamiIllegal::NoSuchMeld(_) => "§3.5",
            RamiIllegal::Meld { error } => section(error),
        }
    }

    pub(crate) fn not_in_hand(cards: &[Card]) -> RamiIllegal {
        RamiIllegal::NotInHand(Codes(cards).to_string())
    }
}

impl From<MeldError> for RamiIllegal {
    fn from(error: MeldError) -> RamiIllegal {
        RamiIllegal::Meld { error }
    }
}

/// A match that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RamiSetupError {
    /// Not 2 to 5 players.
    #[error("rami §1: a match is for 2 to 5 players, not {0}")]
    PlayerCount(usize),
}
