//! Rami's use of the shared melds (rami §3): the rules it plays them by, the values of §4, and the
//! section of the rule book each meld refusal breaks.

use crate::cards::Card;
use crate::melds::{JokerFor, Meld, MeldError, MeldId, MeldKind, MeldRules};
use crate::seat::Seat;

/// Rami's meld rules: versatile aces (both in one run allowed), at most one stated joker, runs up to 14.
pub(crate) const RULES: &MeldRules = &MeldRules::RAMI;

/// The value of a card at a run position, or of a set's card when `position` is the rank's position
/// with the ace at 14, "in a meld" (rami §4): 1 at position 1, 11 at 14, 10 for J, Q and K.
pub(crate) const fn position_value(position: u8) -> u32 {
    match position {
        14 => 11,
        11..=13 => 10,
        p => p as u32,
    }
}

/// The value of a meld "in a meld" (rami §4): each card by its position in a run, each card as the
/// set's rank in a set (an ace 11); a joker counts as the card it stands for.
pub fn meld_value(meld: &Meld) -> u32 {
    meld.cards
        .iter()
        .map(|placed| match (meld.kind, placed.position) {
            (MeldKind::Run(_), Some(position)) => position_value(position),
            _ => {
                let rank = placed.rank.number();
                position_value(if rank == 1 { 14 } else { rank })
            }
        })
        .sum()
}

/// The value of a card left in hand at the end of a round (rami §4): ace 11, J, Q, K 10, joker 20.
pub fn penalty_value(card: Card) -> u32 {
    match card.rank() {
        None => 20,
        Some(rank) if rank.is_ace() => 11,
        Some(rank) => position_value(rank.number()),
    }
}

/// A run without a joker: the tierce franche a Rami 51 opening needs (rami §6).
pub fn is_pure_run(meld: &Meld) -> bool {
    matches!(meld.kind, MeldKind::Run(_)) && !meld.has_joker()
}

/// The section of rami.md that a meld refusal breaks.
pub(crate) const fn section(error: &MeldError) -> &'static str {
    match error {
        MeldError::TooFew | MeldError::Mixed => "§3",
        MeldError::SetTooBig(_) | MeldError::SetSuit => "§3.1",
        MeldError::RunTooLong(_) | MeldError::SamePosition | MeldError::NotConsecutive { .. } => "§3.2",
        MeldError::NoJokers | MeldError::SecondJoker | MeldError::JokerStatement | MeldError::JokerDoesNotFit => "§3.3",
        MeldError::NoJokerThere | MeldError::ThreeCardSet | MeldError::WrongCard(_) => "§7.3",
    }
}

/// A new meld under Rami's rules. A stated joker that cannot fit the naturals (a card of another suit
/// than a run's, another rank than a set's) is refused as the joker rule it breaks (§3.3), rather than
/// as cards of mixed suits or ranks.
///
/// # Errors
/// The meld rule the cards break.
pub(crate) fn new_meld(id: MeldId, owner: Seat, cards: &[Card], joker: Option<JokerFor>) -> Result<Meld, MeldError> {
    let mut naturals = cards.iter().filter(|c| !c.is_joker());
    if let (Some(first), Some(stated)) = (naturals.next(), joker) {
        let same_rank = naturals.clone().all(|c| c.rank() == first.rank());
        let same_suit = naturals.all(|c| c.suit() == first.suit());
        let fits = match (stated, same_rank, same_suit) {
            // Copies of one card, or mixed cards: the shared check names what is wrong.
            (_, true, true) | (_, false, false) => true,
            (JokerFor::Rank(rank), true, false) => first.rank() == Some(rank),
            (JokerFor::Card(card), false, true) => card.suit() == first.suit(),
            (JokerFor::Card(_), true, false) | (JokerFor::Rank(_), false, true) => false,
        };
        if !fits {
            return Err(MeldError::JokerDoesNotFit);
        }
    }
    Meld::new(id, owner, cards, joker, RULES)
}
