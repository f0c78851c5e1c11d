//! The server's bots at three levels, for any game: `normal` is the game's own bot
//! ([`TableGame::bot`]); `easy` plays it with deliberate slips; `strong` searches.
//!
//! The strong bot decides from its seat's view only: determinized Monte Carlo ("perfect-information Monte
//! Carlo" with the normal bot as the playout policy). It draws worlds the seat cannot tell from the real
//! one ([`TableGame::determinize`]: what it cannot see dealt again at random, consistently with what it
//! can); in each world it plays each of its legal actions in turn, lets the normal bot play every seat
//! until the playout ends (the end of the game or of its round, [`TableGame::playout_done`]) and scores
//! the world for the seat ([`TableGame::value`], 0 to 1). The actions are tried in the same worlds, so
//! that they are compared on the same luck, and by sequential halving (Karnin, Koren and Somekh 2013):
//! after each round of worlds the worse half drops out, so that the budget goes to the actions that might
//! be best (the normal bot's choice stays in). The action with the best mean is played, unless it beats
//! the normal bot's own choice by no more than the noise of the worlds drawn (its mean difference over
//! the same worlds within one standard error): then the normal choice stands. Its budget is a number of
//! playouts (worlds × actions tried): the same seed gives the same decision. A caller may also stop it
//! early ([`Budget::stop`]): the server caps its thinking time that way.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::{Seat, TableGame};

/// How well the server's bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Sensible moves with deliberate slips, for beginners.
    Easy,
    /// The game's own bot: one sensible move, no look-ahead.
    #[default]
    Normal,
    /// Searches from its seat's view.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Strong];

    /// The level's name in the protocol (`easy`, `normal`, `strong`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Strong => "strong",
        }
    }

    /// The level called `name`.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name() == name)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The strong bot's playouts per decision, unless its game says otherwise
/// ([`TableGame::STRONG_PLAYOUTS`]) or its caller does ([`Budget::playouts`]).
pub const DEFAULT_PLAYOUTS: u32 = 400;

/// How much a bot may think: a seed (the same seed, the same decision), a number of playouts, and
/// optionally a way for the caller to stop it early (checked between playouts).
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Seeds every random choice of the decision.
    pub seed: u64,
    /// The strong bot's playouts; its game's own number ([`TableGame::STRONG_PLAYOUTS`]) when `None`.
    pub playouts: Option<u32>,
    /// Says when to stop before the playouts are spent (a wall-clock cap); the best action so far is
    /// played then.
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl Budget<'_> {
    /// `playouts` playouts from `seed`, with no other limit.
    pub fn playouts(seed: u64, playouts: u32) -> Budget<'static> {
        Budget { seed, playouts: Some(playouts), stop: None }
    }

    /// The game's own number of playouts, from `seed`, with no other limit.
    pub fn seeded(seed: u64) -> Budget<'static> {
        Budget { seed, playouts: None, stop: None }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop())
    }
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget").field("seed", &self.seed).field("playouts", &self.playouts).finish_non_exhaustive()
    }
}

/// The action of `level`'s bot for `seat` (none when `seat` is not to act).
pub fn choose<G: TableGame>(game: &G, seat: Seat, level: Level, budget: &Budget<'_>) -> Option<G::Action> {
    match level {
        Level::Normal => game.bot(seat),
        Level::Easy => easy(game, seat, budget.seed),
        Level::Strong => strong(game, seat, budget),
    }
}

/// The normal bot's action, but one decision in [`TableGame::EASY_SLIP_ONE_IN`] a legal action at random
/// (never a take-back).
fn easy<G: TableGame>(game: &G, seat: Seat, seed: u64) -> Option<G::Action> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if rng.next_u64() % G::EASY_SLIP_ONE_IN.max(1) != 0 {
        return game.bot(seat);
    }
    let mut legal = game.legal(seat);
    legal.retain(|action| !G::undoes(action));
    if legal.is_empty() {
        return game.bot(seat);
    }
    let pick = usize::try_from(rng.next_u64() % legal.len() as u64).unwrap_or(0);
    Some(legal.swap_remove(pick))
}

/// The searching bot's action: see the module's documentation.
fn strong<G: TableGame>(game: &G, seat: Seat, budget: &Budget<'_>) -> Option<G::Action> {
    let mut legal = game.legal(seat);
    legal.retain(|action| !G::undoes(action));
    let normal = game.bot(seat);
    if legal.len() <= 1 {
        return legal.pop().or(normal);
    }
    // Where the normal bot's choice is in the list (actions are compared as the game writes them).
    let written = |action: &G::Action| serde_json::to_string(action).ok();
    let normal_at = normal.as_ref().and_then(|normal| {
        let normal = written(normal);
        legal.iter().position(|action| written(action) == normal)
    });
    let mut rng = ChaCha8Rng::seed_from_u64(budget.seed);
    let playouts = budget.playouts.unwrap_or(G::STRONG_PLAYOUTS);
    // Sequential halving: in each round every action still in is tried in the same new worlds (so that
    // they are compared on the same luck), then the worse half drops out; the normal bot's choice stays
    // in to the end, as the action to beat.
    let rounds = usize::BITS - (legal.len() - 1).leading_zeros();
    let mut alive: Vec<usize> = (0..legal.len()).collect();
    // By world, each action's value there (`NaN` where it was not tried).
    let mut values: Vec<Vec<f64>> = Vec::new();
    'rounds: for round in 0..rounds {
        let worlds = (playouts / (rounds * alive.len() as u32)).max(1);
        for _ in 0..worlds {
            if !values.is_empty() && budget.stopped() {
                break 'rounds;
            }
            let start = game.determinize(seat, rng.next_u64());
            let mut row = vec![f64::NAN; legal.len()];
            for &arm in &alive {
                let mut world = start.clone();
                row[arm] = match world.apply(seat, &legal[arm]) {
                    Ok(()) => {
                        play_out(&mut world, &start);
                        world.value(seat, &start)
                    }
                    // Legal in the seat's view is legal in every world it cannot tell apart: this does
                    // not happen, and would count as the worst outcome.
                    Err(_) => 0.0,
                };
            }
            values.push(row);
        }
        if round + 1 < rounds {
            let means = means(&values, legal.len());
            alive.sort_by(|&a, &b| means[b].total_cmp(&means[a]).then(a.cmp(&b)));
            let keep = alive.len().div_ceil(2);
            let dropped = alive.split_off(keep);
            if let Some(normal) = normal_at.filter(|normal| dropped.contains(normal)) {
                alive.push(normal);
            }
        }
    }
    let means = means(&values, legal.len());
    let best = alive.iter().copied().max_by(|&a, &b| means[a].total_cmp(&means[b]).then(b.cmp(&a)))?;
    // The normal bot's choice stands unless the best one beats it by more than the noise: its mean
    // difference over the same worlds above one standard error.
    let chosen = match normal_at {
        Some(normal) if normal != best && !clearly_better(&values, best, normal) => normal,
        _ => best,
    };
    Some(legal.swap_remove(chosen))
}

/// The mean value of each of the `actions` over the worlds where it was tried (minus infinity for none).
fn means(values: &[Vec<f64>], actions: usize) -> Vec<f64> {
    let (mut sums, mut counts) = (vec![0.0; actions], vec![0u32; actions]);
    for row in values {
        for (arm, value) in row.iter().enumerate().filter(|(_, v)| !v.is_nan()) {
            sums[arm] += value;
            counts[arm] += 1;
        }
    }
    sums.iter().zip(&counts).map(|(sum, &n)| if n == 0 { f64::NEG_INFINITY } else { sum / f64::from(n) }).collect()
}

/// Whether action `a` did better than `b` over the worlds where both were tried by more than one standard
/// error of the mean difference.
fn clearly_better(values: &[Vec<f64>], a: usize, b: usize) -> bool {
    let differences: Vec<f64> = values.iter().map(|row| row[a] - row[b]).filter(|d| !d.is_nan()).collect();
    let n = differences.len() as f64;
    if n == 0.0 {
        return false;
    }
    let mean = differences.iter().sum::<f64>() / n;
    if n < 2.0 {
        return mean > 0.0;
    }
    let variance = differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    mean > (variance / n).sqrt()
}

/// The most actions a playout plays before it is scored where it stands.
const PLAYOUT_LIMIT: usize = 2_000;

/// Lets the normal bot play every seat of `world` until the playout is done.
pub(crate) fn play_out<G: TableGame>(world: &mut G, from: &G) {
    for _ in 0..PLAYOUT_LIMIT {
        if world.playout_done(from) {
            return;
        }
        let Some(seat) = world.to_act() else { return };
        let Some(action) = world.bot(seat) else { return };
        if world.apply_checked(seat, &action).is_err() {
            return;
        }
    }
}
