//! Card values (rommi §4), round scores in the three modes (§9) and the match's winners (§10).

use crate::cards::{Card, Rank};
use crate::melds::Placed;
use crate::record::{RommiRoundResult, RommiSeatScore, RoundEnd};
use crate::seat::{Better, Seat};

use super::game::Round;
use super::options::{RommiOptions, Scoring, Variant};

/// Where a card is when it is valued: the ace's value depends on it (rommi §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    /// In a hand.
    Hand,
    /// In a set.
    Set,
    /// In a run, at this position.
    Run(u8),
}

/// A card's value (rommi §4).
pub fn value(options: &RommiOptions, rank: Rank, at: Where) -> u32 {
    let simple = options.simple_scoring;
    match rank.number() {
        1 => {
            let low = options.variant == Variant::Basic || at == Where::Run(1);
            match (low, simple) {
                (true, false) => 1,
                (true, true) => 5,
                (false, _) => 15,
            }
        }
        n @ 2..=9 => {
            if simple {
                5
            } else {
                u32::from(n)
            }
        }
        _ => 10,
    }
}

/// The value of a hand (rommi §4).
pub fn hand_value(options: &RommiOptions, hand: &[Card]) -> u32 {
    hand.iter().filter_map(|c| c.rank()).map(|r| value(options, r, Where::Hand)).sum()
}

/// The value of a card on the table.
pub fn placed_value(options: &RommiOptions, placed: &Placed) -> u32 {
    let at = match placed.position {
        Some(p) => Where::Run(p),
        None => Where::Set,
    };
    value(options, placed.rank, at)
}

/// Whether higher or lower totals win (rommi §10).
pub fn better(options: &RommiOptions) -> Better {
    match options.scoring {
        Scoring::Positive | Scoring::MeldHand => Better::Higher,
        Scoring::Negative => Better::Lower,
    }
}

/// The round's result (rommi §9): each seat's hand value, melded value and score; `totals` are the totals
/// before the round.
pub(crate) fn round_result(
    options: &RommiOptions,
    round: &Round,
    out: Option<Seat>,
    totals: &[i64],
) -> RommiRoundResult {
    let n = round.hands.len();
    let hands: Vec<u32> = round.hands.iter().map(|h| hand_value(options, h)).collect();
    let mut melded = vec![0u32; n];
    for placed in round.table.iter().flat_map(|m| &m.cards) {
        melded[placed.owner.index()] += placed_value(options, placed);
    }
    let scores = round_scores(options.scoring, &hands, &melded, out);
    RommiRoundResult {
        ended_by: if out.is_some() { RoundEnd::Out } else { RoundEnd::Stock },
        out,
        scores: (0..n)
            .map(|i| RommiSeatScore { seat: Seat(i as u8), hand: hands[i], melded: melded[i], score: scores[i] })
            .collect(),
        totals: totals.iter().zip(&scores).map(|(t, s)| t + s).collect(),
    }
}

/// The round scores by seat (rommi §9) from the hand values and melded values.
pub fn round_scores(scoring: Scoring, hands: &[u32], melded: &[u32], out: Option<Seat>) -> Vec<i64> {
    let n = hands.len();
    match (scoring, out) {
        (Scoring::Positive, Some(out)) => {
            let others: u32 = (0..n).filter(|&i| i != out.index()).map(|i| hands[i]).sum();
            (0..n).map(|i| if i == out.index() { i64::from(others) } else { 0 }).collect()
        }
        (Scoring::Positive, None) => {
            let lowest = hands.iter().copied().min().unwrap_or(0);
            let winners = hands.iter().filter(|&&h| h == lowest).count() as u32;
            let pot: u32 = hands.iter().map(|h| h - lowest).sum();
            // §9.1: a split pot is rounded down.
            hands.iter().map(|&h| if h == lowest { i64::from(pot / winners) } else { 0 }).collect()
        }
        (Scoring::MeldHand, _) => (0..n).map(|i| i64::from(melded[i]) - i64::from(hands[i])).collect(),
        (Scoring::Negative, _) => hands.iter().map(|&h| i64::from(h)).collect(),
    }
}
