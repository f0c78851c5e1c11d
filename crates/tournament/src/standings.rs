//! Points and standings (docs/tournaments.md, "Points").
//!
//! - **A game's points** come from the places: at a table of `k`, a seat scores the share of the others
//!   it finished ahead of, a level seat counting half: `(ahead + level / 2) / (k − 1)`. So first is 1,
//!   last is 0, and with two players a win is 1, a draw ½, a loss 0, as in chess.
//! - **Duplicate**: a seat is compared with the players who held the same seat of the same deal at the
//!   round's other tables (matchpoints, as in duplicate bridge): the share of them it did better than, a
//!   tie counting half, where better is a better place, then a larger margin over its table
//!   ([`SeatResult::margin`]). A deal played at one table only scores its place points.
//! - **A bye** (Swiss, when the numbers do not divide) scores 1, as a win does (FIDE's rule), and is not a
//!   game.
//! - **Ties**: Swiss by the Buchholz score (the sum, over a player's games, of the mean final points of
//!   the others at the table); arena by points per game; then by who joined first.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::spec::Format;
use crate::state::{Entrant, PlayerKey, Round, SeatResult, Table};

/// What a bye is worth.
pub const BYE_POINTS: f64 = 1.0;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player.
    pub player: PlayerKey,
    /// Their points.
    pub points: f64,
    /// Games finished.
    pub games: u32,
    /// What breaks a tie on points (see the module).
    pub tiebreak: f64,
}

/// The points of each seat of `table`, a table of `round`, once it finished.
pub(crate) fn table_points(round: &Round, table: &Table) -> Option<Vec<f64>> {
    let results = table.results.as_ref()?;
    if round.deal.is_none() {
        return Some(place_points(results));
    }
    let points = (0..results.len())
        .map(|seat| {
            let mine = results[seat];
            let rivals: Vec<SeatResult> = round
                .tables
                .iter()
                .filter(|other| other.id != table.id)
                .filter_map(|other| other.results.as_ref()?.get(seat).copied())
                .collect();
            if rivals.is_empty() {
                return place_points(results)[seat];
            }
            let beaten: f64 = rivals
                .iter()
                .map(|rival| match compare(&mine, rival) {
                    Ordering::Greater => 1.0,
                    Ordering::Equal => 0.5,
                    Ordering::Less => 0.0,
                })
                .sum();
            beaten / rivals.len() as f64
        })
        .collect();
    Some(points)
}

/// Place points at one table (see the module).
pub fn place_points(results: &[SeatResult]) -> Vec<f64> {
    let others = results.len().saturating_sub(1).max(1) as f64;
    results
        .iter()
        .map(|mine| {
            let ahead = results.iter().filter(|other| other.place > mine.place).count() as f64;
            let level = results.iter().filter(|other| other.place == mine.place).count().saturating_sub(1) as f64;
            (ahead + level / 2.0) / others
        })
        .collect()
}

/// Which of two results of the same seat of the same deal is better: the better place, then the larger
/// margin.
fn compare(mine: &SeatResult, rival: &SeatResult) -> Ordering {
    rival.place.cmp(&mine.place).then(mine.margin.cmp(&rival.margin))
}

/// The standings: every player who joined, best first.
pub(crate) fn standings(format: &Format, players: &[Entrant], rounds: &[Round]) -> Vec<Standing> {
    let mut points: HashMap<PlayerKey, f64> = HashMap::new();
    let mut games: HashMap<PlayerKey, u32> = HashMap::new();
    // Each finished game: who sat there and their points, for the tiebreaks.
    let mut played: Vec<(Vec<PlayerKey>, Vec<f64>)> = Vec::new();
    for round in rounds {
        for bye in &round.byes {
            *points.entry(*bye).or_default() += BYE_POINTS;
        }
        for table in &round.tables {
            let Some(table_points) = table_points(round, table) else { continue };
            for (player, got) in table.seats.iter().zip(&table_points) {
                *points.entry(*player).or_default() += got;
                *games.entry(*player).or_default() += 1;
            }
            played.push((table.seats.clone(), table_points));
        }
    }
    let total = |player: &PlayerKey| points.get(player).copied().unwrap_or(0.0);
    let mut tiebreaks: HashMap<PlayerKey, f64> = HashMap::new();
    match format {
        Format::Swiss { .. } => {
            for (seats, _) in &played {
                for player in seats {
                    let others: Vec<f64> = seats.iter().filter(|o| *o != player).map(total).collect();
                    let mean = others.iter().sum::<f64>() / others.len().max(1) as f64;
                    *tiebreaks.entry(*player).or_default() += mean;
                }
            }
        }
        Format::Arena { .. } => {
            for (player, &count) in &games {
                tiebreaks.insert(*player, total(player) / f64::from(count.max(1)));
            }
        }
    }
    let mut lines: Vec<(usize, Standing)> = players
        .iter()
        .enumerate()
        .map(|(joined, entrant)| {
            let player = entrant.id;
            let line = Standing {
                player,
                points: total(&player),
                games: games.get(&player).copied().unwrap_or(0),
                tiebreak: tiebreaks.get(&player).copied().unwrap_or(0.0),
            };
            (joined, line)
        })
        .collect();
    lines.sort_by(|(joined_a, a), (joined_b, b)| {
        b.points.total_cmp(&a.points).then(b.tiebreak.total_cmp(&a.tiebreak)).then(joined_a.cmp(joined_b))
    });
    lines.into_iter().map(|(_, line)| line).collect()
}
