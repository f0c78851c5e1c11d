//! Why the Rumino engine refuses an action. Each refusal names the rule it breaks
//! (`rumino §6 a: ...`), and speaks only of the acting player's own cards and public state.

use crate::cards::Card;
use crate::seat::Seat;

/// An action the rules of `rumino.md` do not allow now. The match is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuminoIllegal {
    /// The match is over (§8, §9).
    #[error("rumino §9: the match is over")]
    MatchOver,
    /// No such seat at this table.
    #[error("rumino §1: {seat} is not at this table")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
    },
    /// Someone else is to act.
    #[error("rumino §6: it is {to_act}'s turn, not {seat}'s")]
    NotYourTurn {
        /// The seat that tried to act.
        seat: Seat,
        /// The seat to act.
        to_act: Seat,
    },
    /// A knock, draw or take after the turn's draw or take.
    #[error("rumino §6: you already hold 8 cards; discard one")]
    AlreadyDrew,
    /// A discard before the turn's draw or take.
    #[error("rumino §6: draw or take a card before discarding")]
    MustDrawFirst,
    /// A knock with a deadwood above 7.
    #[error("rumino §6 a: your deadwood is {deadwood}; a knock needs 7 or less")]
    KnockTooHigh {
        /// The hand's lowest deadwood (§4).
        deadwood: u32,
    },
    /// A discard of a card the hand does not hold.
    #[error("rumino §6: {card} is not in your hand")]
    NotInHand {
        /// The card named.
        card: Card,
    },
    /// A discard of the code just taken from the discard pile.
    #[error("rumino §6 c: {card} was taken from the discard pile this turn and may not be discarded")]
    TakenCard {
        /// The code taken.
        card: Card,
    },
    /// Gin declared with 7 cards whose deadwood is not 0.
    #[error("rumino §6 step 2: gin needs deadwood 0 in the 7 cards kept, not {deadwood}")]
    NotGin {
        /// The lowest deadwood of the cards kept.
        deadwood: u32,
    },
    /// A turn action while eliminated players choose whether to rebuy.
    #[error("rumino §9 step 4: {to_act} is choosing whether to rebuy")]
    RebuyPending {
        /// The seat choosing.
        to_act: Seat,
    },
    /// A rebuy choice outside of §9 step 4.
    #[error("rumino §9 step 4: a rebuy is chosen only after being eliminated")]
    NoRebuyNow,
}

impl RuminoIllegal {
    /// A stable, machine-readable code for protocols and tests.
    pub const fn code(&self) -> &'static str {
        match self {
            RuminoIllegal::MatchOver => "match_over",
            RuminoIllegal::NoSuchSeat { .. } => "no_such_seat",
            RuminoIllegal::NotYourTurn { .. } => "not_your_turn",
            RuminoIllegal::AlreadyDrew => "already_drew",
            RuminoIllegal::MustDrawFirst => "must_draw_first",
            RuminoIllegal::KnockTooHigh { .. } => "knock_too_high",
            RuminoIllegal::NotInHand { .. } => "not_in_hand",
            RuminoIllegal::TakenCard { .. } => "taken_card",
            RuminoIllegal::NotGin { .. } => "not_gin",
            RuminoIllegal::RebuyPending { .. } => "rebuy_pending",
            RuminoIllegal::NoRebuyNow => "no_rebuy_now",
        }
    }

    /// The rule-book section the action breaks, as `rumino §N`.
    pub const fn rule(&self) -> &'static str {
        match self {
            RuminoIllegal::MatchOver => "rumino §9",
            RuminoIllegal::NoSuchSeat { .. } => "rumino §1",
            RuminoIllegal::NotYourTurn { .. } | RuminoIllegal::AlreadyDrew | RuminoIllegal::MustDrawFirst => {
                "rumino §6"
            }
            RuminoIllegal::NotInHand { .. } => "rumino §6",
            RuminoIllegal::KnockTooHigh { .. } => "rumino §6 a",
            RuminoIllegal::TakenCard { .. } => "rumino §6 c",
            RuminoIllegal::NotGin { .. } => "rumino §6 step 2",
            RuminoIllegal::RebuyPending { .. } | RuminoIllegal::NoRebuyNow => "rumino §9 step 4",
        }
    }
}

/// A match that cannot be set up (rumino §1, §2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuminoSetupError {
    /// Not 2 to 6 players.
    #[error("rumino §1: a match is for 2 to 6 players, not {0}")]
    PlayerCount(usize),
    /// The first dealer is not one of the seats.
    #[error("rumino §5: the first dealer {0} is not one of the seats")]
    Dealer(Seat),
}
