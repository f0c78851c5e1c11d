//! Seats, viewers and the result of a match: the same for the three games.

use serde::{Deserialize, Serialize};

pub use romirami_game::{Seat, Viewer};

/// How a match ended (the record's match `ended_by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// Rommi §10: a total reached the target.
    Target,
    /// Rami §10: the last of `rounds N`.
    Rounds,
    /// Rami §10: a total reached `limit P`.
    Limit,
    /// Rumino §9 step 3: one player left.
    LastPlayer,
    /// Rumino §9 step 3: everybody was eliminated in the same hand.
    AllEliminated,
    /// Rumino §8: a rumino.
    Rumino,
    /// Rumino §9 step 1: three gins.
    ThreeGins,
    /// The table was given up before the rules ended the match.
    Abandoned,
}

/// A match that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A player count outside the game's range.
    #[error("{game} is for {min} to {max} players, not {players} ({game} §1)")]
    PlayerCount {
        /// The game's name.
        game: &'static str,
        /// The count asked for.
        players: usize,
        /// The fewest players.
        min: usize,
        /// The most players.
        max: usize,
    },
    /// An option value the rule book does not allow, or options that are not JSON of the game's options.
    #[error("{0}")]
    Options(String),
}

/// Whether a higher or a lower total is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Rommi `positive` and `meld_hand`.
    Higher,
    /// Rommi `negative`, Rami, Rumino.
    Lower,
}

/// The outcome of a match, for the server and the tools: totals, places and winners by seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// How it ended.
    pub ended_by: MatchEnd,
    /// Each seat's final total, by seat.
    pub totals: Vec<i64>,
    /// Each seat's place, by seat: 1 for the best total; tied totals share a place, and the next place
    /// skips as many as shared (1, 1, 3).
    pub places: Vec<u8>,
    /// The seats that won, ascending; empty for an abandoned match that names none.
    pub winners: Vec<Seat>,
}

/// Places by seat for `totals` (1 = best; ties share, competition ranking), among the seats `counted`
/// says count; the others are placed after them, all sharing the last place.
pub fn places(totals: &[i64], better: Better, counted: impl Fn(usize) -> bool) -> Vec<u8> {
    let beats = |a: i64, b: i64| match better {
        Better::Higher => a > b,
        Better::Lower => a < b,
    };
    let in_count = (0..totals.len()).filter(|&i| counted(i)).count();
    (0..totals.len())
        .map(|i| {
            if !counted(i) {
                return (in_count + 1) as u8;
            }
            let ahead = (0..totals.len()).filter(|&j| counted(j) && beats(totals[j], totals[i])).count();
            (ahead + 1) as u8
        })
        .collect()
}

/// The seats with the best total among those `counted` says count, ascending.
pub fn best_seats(totals: &[i64], better: Better, counted: impl Fn(usize) -> bool) -> Vec<Seat> {
    let counted_totals = (0..totals.len()).filter(|&i| counted(i)).map(|i| totals[i]);
    let best = match better {
        Better::Higher => counted_totals.max(),
        Better::Lower => counted_totals.min(),
    };
    let Some(best) = best else { return Vec::new() };
    (0..totals.len()).filter(|&i| counted(i) && totals[i] == best).map(|i| Seat(i as u8)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_a_place_and_the_win() {
        assert_eq!(places(&[10, 30, 30, 5], Better::Higher, |_| true), vec![3, 1, 1, 4]);
        assert_eq!(places(&[10, 30, 30, 5], Better::Lower, |_| true), vec![2, 3, 3, 1]);
        assert_eq!(best_seats(&[10, 30, 30, 5], Better::Higher, |_| true), vec![Seat(1), Seat(2)]);
        assert_eq!(best_seats(&[10, 30, 30, 5], Better::Lower, |i| i != 3), vec![Seat(0)]);
        assert_eq!(places(&[10, 30, 30, 5], Better::Lower, |i| i != 3), vec![1, 2, 2, 4]);
    }

    #[test]
    fn next_seat_wraps() {
        assert_eq!(Seat(2).next(3), Seat(0));
        assert_eq!(Seat(0).next(3), Seat(1));
    }
}
