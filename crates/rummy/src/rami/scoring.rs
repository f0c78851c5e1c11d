//! The end of a round (rami §9) and of the match (rami §10).

use super::melds::penalty_value;
use super::options::MatchEnd as MatchLength;
use crate::cards::Card;
use crate::record::{RamiRoundResult, RamiSeatScore, RoundEnd};
use crate::seat::{Better, MatchEnd, Seat, best_seats};

/// The base penalty of a player who has not opened (rami §9 step 1).
pub const NOT_OPENED: u32 = 100;

/// The result of a round (rami §9). `out` is the seat that went out, with whether it opened in that
/// same turn (`rami_sec`) and whether its last discard was a joker; `None` for a blocked round.
/// `totals` are those before the round.
pub fn score_round(
    hands: &[Vec<Card>],
    opened: &[bool],
    out: Option<(Seat, bool, bool)>,
    totals: &[i64],
) -> RamiRoundResult {
    let (rami_sec, multiplier) = match out {
        Some((_, true, true)) => (true, 4),
        Some((_, true, false)) => (true, 2),
        _ => (false, 1),
    };
    let out_seat = out.map(|(seat, _, _)| seat);
    let scores: Vec<RamiSeatScore> = Seat::all(hands.len())
        .map(|seat| {
            let hand: u32 = hands[seat.index()].iter().map(|&c| penalty_value(c)).sum();
            let opened = opened[seat.index()];
            let penalty = if out_seat == Some(seat) { 0 } else { if opened { hand } else { NOT_OPENED } };
            RamiSeatScore { seat, opened, hand, penalty: u32::from(multiplier) * penalty }
        })
        .collect();
    let totals = totals.iter().zip(&scores).map(|(total, score)| total + i64::from(score.penalty)).collect();
    RamiRoundResult {
        ended_by: if out.is_some() { RoundEnd::Out } else { RoundEnd::Blocked },
        out: out_seat,
        rami_sec,
        multiplier,
        scores,
        totals,
    }
}

/// Whether the match ends after round `number` with these totals (rami §10), and how.
pub fn match_end(length: MatchLength, number: u32, totals: &[i64]) -> Option<MatchEnd> {
    match length {
        MatchLength::Rounds(n) if number >= n => Some(MatchEnd::Rounds),
        MatchLength::Limit(p) if totals.iter().any(|&t| t >= i64::from(p)) => Some(MatchEnd::Limit),
        _ => None,
    }
}

/// The winners on these totals: the lowest, shared on a tie (rami §10).
pub fn winners(totals: &[i64]) -> Vec<Seat> {
    best_seats(totals, Better::Lower, |_| true)
}
