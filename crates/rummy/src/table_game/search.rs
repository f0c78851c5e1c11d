//! What the strong bot's search needs of the rummy family (`romirami_game::search`): worlds a seat
//! cannot tell from the real one, and how good the match stands for a seat when a playout stops.
//!
//! In all three games a seat knows its hand, the discard pile (face up), the melds on the table and how
//! many cards each hand and the stock hold; it does not know the others' hands, the stock's order and
//! the generator of later shuffles and deals. A world deals the unknown cards again at random among the
//! others' hands and the stock, keeping every count; the unknown cards are sorted first, so that where
//! they really lie changes nothing. (The record of the round's deal, kept for the match's record, is not
//! read by play: a world keeps it as it is and never writes a record.)
//!
//! A playout stops at the end of the round (hand), where [`value`] judges the match totals.

use romirami_game::Seat;

use crate::cards::{Card, RummyRng};

/// `hands` (by seat) and `stock` dealt again from `rng`: the cards of every hand but `seat`'s and of
/// the stock, sorted, shuffled, and handed out by the same counts.
pub(super) fn redeal(seat: Seat, hands: &mut [Vec<Card>], stock: &mut [Card], rng: &mut RummyRng) {
    let mut pool: Vec<Card> = stock.to_vec();
    for (i, hand) in hands.iter().enumerate() {
        if i != seat.index() {
            pool.extend_from_slice(hand);
        }
    }
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    for (i, hand) in hands.iter_mut().enumerate() {
        if i != seat.index() {
            for card in hand.iter_mut() {
                *card = rest.next().unwrap_or(*card);
            }
        }
    }
    for card in stock.iter_mut() {
        *card = rest.next().unwrap_or(*card);
    }
}

/// The analysis of a finished game in the rummy family (docs/analysis.md): values are the points a seat
/// gains in the round against the others' average gain ([`points_lead`]); a decision that costs 3 points
/// or more is an inaccuracy, 8 a mistake, 15 a blunder.
pub(super) const ANALYSIS: romirami_game::AnalysisScale =
    romirami_game::AnalysisScale { unit: "points", thresholds: [3.0, 8.0, 15.0] };

/// What `seat` gained between the match `totals` where a playout stopped and `from` where it started,
/// against the others' mean gain, in points: positive is good, whether `lower` totals are better
/// (penalty points) or higher ones.
pub(super) fn points_lead(seat: Seat, totals: &[i64], from: &[i64], lower: bool) -> f64 {
    let gain = |i: usize| (totals.get(i).copied().unwrap_or(0) - from.get(i).copied().unwrap_or(0)) as f64;
    let others: Vec<f64> = (0..totals.len()).filter(|&i| i != seat.index()).map(gain).collect();
    let mean = others.iter().sum::<f64>() / others.len().max(1) as f64;
    let own = gain(seat.index());
    if lower { mean - own } else { own - mean }
}

/// The scale of [`value`]: a round won by this many points more than the others' mean is worth about
/// three quarters.
const SCALE: f64 = 25.0;

/// How good a playout was for `seat`, from 0 to 1, from the match `totals` where it stopped and `from`
/// where it started, when `lower` totals are better (penalty points) or higher ones: what the seat gained
/// in it against the others' mean gain. A finished match counts its `winners`: 1 shared among them, 0
/// for the others.
pub(super) fn value(seat: Seat, totals: &[i64], from: &[i64], lower: bool, winners: Option<&[Seat]>) -> f64 {
    if let Some(winners) = winners.filter(|w| !w.is_empty()) {
        return if winners.contains(&seat) { 1.0 / winners.len() as f64 } else { 0.0 };
    }
    let gain = |i: usize| (totals.get(i).copied().unwrap_or(0) - from.get(i).copied().unwrap_or(0)) as f64;
    let others: Vec<f64> = (0..totals.len()).filter(|&i| i != seat.index()).map(gain).collect();
    let mean = others.iter().sum::<f64>() / others.len().max(1) as f64;
    let own = gain(seat.index());
    let lead = if lower { mean - own } else { own - mean };
    0.5 + 0.5 * (lead / SCALE).tanh()
}
