//! A Rommi bot that plays sensibly: it takes from the discard pile when the card makes a meld, melds and
//! lays off whatever it can, keeps pairs and near-runs, and throws its least useful, costliest card.
//!
//! It only looks at what its seat may see (its hand, the discard pile and the locked card, as
//! [`RommiMatch::view`] shows them to its seat, and the legal actions), and picks among equals with the
//! generator it is given, so a seeded bot reproduces.

use rand_core::Rng;

use crate::cards::{Card, below};
use crate::seat::Seat;

use super::actions::RommiAction;
use super::game::RommiMatch;
use super::options::Scoring;
use super::plays::meld_candidates;
use super::scoring::{Where, value};

/// The bot's action for `seat`; `None` when `seat` is not to act.
pub fn choose(m: &RommiMatch, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Option<RommiAction> {
    let legal = m.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    // What the seat's view shows of its hand, the discard pile and the locked card, read in place: the
    // whole view (every meld, the last round's result) would cost more than the decision.
    let round = &m.round;
    let hand = round.hands.get(seat.index()).cloned().unwrap_or_default();
    let (discard_pile, locked) = (&round.pile, round.locked);
    let rules = m.options().meld_rules();

    // The draw (rommi §6.1): a pile card that makes a meld with the hand, the top one first and a deep
    // take only if it costs few cards (unless melds score, §9.2).
    let takes: Vec<Card> =
        legal.iter().filter_map(|a| if let RommiAction::Take { card } = a { Some(*card) } else { None }).collect();
    for card in takes {
        let depth = discard_pile.len() - discard_pile.iter().rposition(|&c| c == card).unwrap_or(0);
        let cheap = depth <= 3 || m.options().scoring == Scoring::MeldHand;
        let mut after = hand.clone();
        after.extend_from_slice(&discard_pile[discard_pile.len() - depth..]);
        if cheap && meld_candidates(&after, rules).iter().any(|meld| meld.contains(&card)) {
            return Some(RommiAction::Take { card });
        }
    }
    if legal.contains(&RommiAction::Draw) {
        return Some(RommiAction::Draw);
    }
    if legal.contains(&RommiAction::EndRound) {
        return Some(RommiAction::EndRound);
    }

    // The plays (§6.2): the biggest meld, the locked card's first; then the biggest lay-off.
    let size = |a: &RommiAction| match a {
        RommiAction::Meld { cards } | RommiAction::LayOff { cards, .. } => {
            cards.len() * 2 + usize::from(locked.is_some_and(|l| cards.contains(&l))) * 100
        }
        _ => 0,
    };
    let best_play = |melds: bool| {
        legal
            .iter()
            .filter(
                |a| if melds { matches!(a, RommiAction::Meld { .. }) } else { matches!(a, RommiAction::LayOff { .. }) },
            )
            .max_by_key(|a| size(a))
            .cloned()
    };
    if let Some(play) = best_play(true).or_else(|| best_play(false)) {
        return Some(play);
    }

    // The discard (§6.3): the card that helps least, costliest first among equals.
    let discards: Vec<Card> =
        legal.iter().filter_map(|a| if let RommiAction::Discard { card } = a { Some(*card) } else { None }).collect();
    let worth = |card: Card| {
        let keep = keep_score(&hand, card);
        let cost = card.rank().map_or(0, |r| value(m.options(), r, Where::Hand));
        i64::from(keep) * 100 - i64::from(cost)
    };
    let least = discards.iter().map(|&c| worth(c)).min()?;
    let worst: Vec<Card> = discards.into_iter().filter(|&c| worth(c) == least).collect();
    Some(RommiAction::Discard { card: worst[below(rng, worst.len())] })
}

/// How much `card` helps `hand` towards melds: pairs of its rank, and cards of its suit one or two
/// positions away (near-runs).
fn keep_score(hand: &[Card], card: Card) -> u32 {
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else { return 0 };
    let mut score = 0;
    for other in hand.iter().filter(|&&c| c != card) {
        if other.rank() == Some(rank) {
            score += 3;
        } else if other.suit() == Some(suit) {
            let (a, b) = (i32::from(rank.number()), i32::from(other.rank().map_or(0, |r| r.number())));
            let gap = (a - b).abs().min((a - b).abs().abs_diff(13) as i32);
            score += match gap {
                1 => 2,
                2 => 1,
                _ => 0,
            };
        }
    }
    score
}
