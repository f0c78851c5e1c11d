//! The analysis of a finished game for one seat: each decision the seat took when it had a real choice,
//! judged by the strong bot's search from what the seat knew then, never from the hands revealed at the
//! end (docs/analysis.md).
//!
//! The record is replayed ([`TableGame::replay_steps`]); at each of the seat's actions with two legal
//! actions or more, the game as it stood is searched from the seat's view: worlds the seat cannot tell
//! from the real one are drawn ([`TableGame::determinize`]), each candidate action is played in them and
//! the normal bot plays the rest of the playout ([`TableGame::playout_done`]), which is scored in the
//! game's own unit ([`TableGame::analysis_value`]). First every legal action competes by sequential
//! halving on half the budget, the action played kept in to the end; then the best of them and the one
//! played are scored again on fresh worlds, the same for both, so that the loss is not inflated by the
//! luck that made the best look best. The loss (best minus played, never below 0) gives the class by the
//! game's thresholds ([`AnalysisScale`]).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Seat, TableGame};

/// The unit the analysis of a game speaks in, and where its classes begin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalysisScale {
    /// The values' unit, in the game's own scoring: `points` (what the value means in each game is
    /// [`TableGame::analysis_value`]'s to say).
    pub unit: &'static str,
    /// The losses from which a decision is an inaccuracy, a mistake and a blunder.
    pub thresholds: [f64; 3],
}

/// How much an analysis spends, and its seed (the same seed, the same analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisSettings {
    /// Playouts per decision: half to find the best action, half to score it against the one played.
    pub playouts: u32,
    /// Seeds every world drawn.
    pub seed: u64,
}

/// How a decision is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// As good as the best action found, or close.
    Good,
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A large loss.
    Blunder,
}

impl Class {
    /// The class of a decision that lost `loss` on `scale`.
    pub fn of(loss: f64, scale: &AnalysisScale) -> Class {
        let [inaccuracy, mistake, blunder] = scale.thresholds;
        if loss >= blunder {
            Class::Blunder
        } else if loss >= mistake {
            Class::Mistake
        } else if loss >= inaccuracy {
            Class::Inaccuracy
        } else {
            Class::Good
        }
    }
}

/// One judged decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The action's number in the record (1 for its first action): the replay's step that shows the game
    /// after it.
    pub step: usize,
    /// The action played: its entry of the record's log, as the record writes it.
    pub played: Value,
    /// The best action found, as the record would write it (the played one when none is better).
    pub best: Value,
    /// The expected value of the action played, in the game's unit.
    pub value_played: f64,
    /// The expected value of the best action.
    pub value_best: f64,
    /// `value_best − value_played`, never below 0.
    pub loss: f64,
    /// The class of the loss.
    pub class: Class,
}

/// The counts of an analysis.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Decisions judged.
    pub decisions: usize,
    /// Of which inaccuracies,
    pub inaccuracies: usize,
    /// mistakes,
    pub mistakes: usize,
    /// and blunders.
    pub blunders: usize,
    /// The losses summed, in the game's unit.
    pub points_lost: f64,
}

impl Summary {
    /// The counts of `decisions`.
    pub fn of(decisions: &[Decision]) -> Summary {
        let count = |class| decisions.iter().filter(|d| d.class == class).count();
        Summary {
            decisions: decisions.len(),
            inaccuracies: count(Class::Inaccuracy),
            mistakes: count(Class::Mistake),
            blunders: count(Class::Blunder),
            points_lost: round2(decisions.iter().map(|d| d.loss).sum()),
        }
    }
}

/// The analysis of one seat of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The game's name.
    pub game: String,
    /// The seat analysed.
    pub seat: Seat,
    /// The values' unit ([`AnalysisScale::unit`]).
    pub unit: String,
    /// The losses from which a decision is an inaccuracy, a mistake and a blunder.
    pub thresholds: [f64; 3],
    /// The seat's decisions, in order.
    pub decisions: Vec<Decision>,
    /// Their counts.
    pub summary: Summary,
}

/// One of the seat's actions to judge: the game before it, and what was played.
struct Moment<G: TableGame> {
    step: usize,
    before: G,
    action: G::Action,
    entry: Value,
}

/// Analyses `seat` of a finished game of `G` told by `record`, calling `progress(done, total)` after each
/// decision judged (and once before the first).
///
/// # Errors
/// When the record does not replay.
pub fn analyse<G: TableGame>(
    record: &G::Record,
    seat: Seat,
    settings: &AnalysisSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, String> {
    let mut moments = Vec::new();
    let mut step = 0;
    G::replay_steps(record, &mut |s| {
        step += 1;
        if s.seat != seat || choices(s.before, seat) < 2 {
            return;
        }
        if let Some(action) = copy::<G>(s.action) {
            moments.push(Moment { step, before: s.before.clone(), action, entry: s.entry });
        }
    })?;
    let total = moments.len();
    progress(0, total);
    let mut decisions = Vec::with_capacity(total);
    for (done, moment) in moments.into_iter().enumerate() {
        let seed = settings.seed ^ (moment.step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let judged = judge(&moment.before, seat, &moment.action, settings.playouts, seed);
        let best = match &judged.best {
            Some(best) => moment.before.entry_for(seat, best).unwrap_or_else(|| moment.entry.clone()),
            None => moment.entry.clone(),
        };
        let loss = (judged.value_best - judged.value_played).max(0.0);
        decisions.push(Decision {
            step: moment.step,
            played: moment.entry,
            best,
            value_played: round2(judged.value_played),
            value_best: round2(judged.value_best),
            loss: round2(loss),
            class: Class::of(loss, &G::ANALYSIS),
        });
        progress(done + 1, total);
    }
    let summary = Summary::of(&decisions);
    Ok(Analysis {
        game: G::NAME.to_owned(),
        seat,
        unit: G::ANALYSIS.unit.to_owned(),
        thresholds: G::ANALYSIS.thresholds,
        decisions,
        summary,
    })
}

/// How many actions `seat` could choose between (take-backs aside).
fn choices<G: TableGame>(game: &G, seat: Seat) -> usize {
    game.legal(seat).iter().filter(|action| !G::undoes(action)).count()
}

/// A copy of an action, through the JSON its game writes for it (the trait asks no `Clone` of actions).
fn copy<G: TableGame>(action: &G::Action) -> Option<G::Action> {
    serde_json::to_value(action).ok().and_then(|value| serde_json::from_value(value).ok())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// What [`judge`] found: the best action when it is not the one played, and both values.
pub struct Judged<A> {
    /// The best action, when it beats the one played on the fresh worlds; `None` when the played one
    /// is as good.
    pub best: Option<A>,
    /// The played action's mean value over the fresh worlds.
    pub value_played: f64,
    /// The best action's mean value there (the played one's when it is as good).
    pub value_best: f64,
}

/// Judges `played` for `seat` in `game` from the seat's view, with `playouts` playouts from `seed`: see the
/// module's documentation. Reads nothing the seat cannot see: the game only through
/// [`TableGame::determinize`] and the seat's own legal actions.
pub fn judge<G: TableGame>(game: &G, seat: Seat, played: &G::Action, playouts: u32, seed: u64) -> Judged<G::Action> {
    let written = |action: &G::Action| serde_json::to_string(action).ok();
    let mut arms: Vec<G::Action> = game.legal(seat).into_iter().filter(|action| !G::undoes(action)).collect();
    let played_text = written(played);
    let played_at = match arms.iter().position(|action| written(action) == played_text) {
        Some(at) => at,
        None => {
            // An action the legal list writes otherwise (a meld's cards in another order): judged as it is.
            arms.extend(copy::<G>(played));
            arms.len() - 1
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let half = (playouts / 2).max(1);
    let candidate = select(game, seat, &arms, played_at, half, &mut rng);
    // Fresh worlds for the two actions compared, the same for both.
    let worlds = if candidate == played_at { half.max(1) } else { (half / 2).max(1) };
    let (mut sum_played, mut sum_best) = (0.0, 0.0);
    for _ in 0..worlds {
        let start = game.determinize(seat, rng.next_u64());
        sum_played += playout_value(&start, seat, &arms[played_at]);
        if candidate != played_at {
            sum_best += playout_value(&start, seat, &arms[candidate]);
        }
    }
    let value_played = sum_played / f64::from(worlds);
    if candidate == played_at {
        return Judged { best: None, value_played, value_best: value_played };
    }
    let value_best = sum_best / f64::from(worlds);
    if value_best <= value_played {
        return Judged { best: None, value_played, value_best: value_played };
    }
    let best = arms.swap_remove(candidate);
    Judged { best: Some(best), value_played, value_best }
}

/// The arm that looks best after sequential halving over `playouts` playouts, `keep` never dropped; ties
/// go to `keep`.
fn select<G: TableGame>(
    game: &G,
    seat: Seat,
    arms: &[G::Action],
    keep: usize,
    playouts: u32,
    rng: &mut ChaCha8Rng,
) -> usize {
    if arms.len() < 2 {
        return keep;
    }
    let rounds = usize::BITS - (arms.len() - 1).leading_zeros();
    let mut alive: Vec<usize> = (0..arms.len()).collect();
    let (mut sums, mut counts) = (vec![0.0; arms.len()], vec![0u32; arms.len()]);
    for round in 0..rounds {
        let worlds = (playouts / (rounds * alive.len() as u32)).max(1);
        for _ in 0..worlds {
            let start = game.determinize(seat, rng.next_u64());
            for &arm in &alive {
                sums[arm] += playout_value(&start, seat, &arms[arm]);
                counts[arm] += 1;
            }
        }
        let mean = |arm: usize| if counts[arm] == 0 { f64::NEG_INFINITY } else { sums[arm] / f64::from(counts[arm]) };
        alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then((b == keep).cmp(&(a == keep))).then(a.cmp(&b)));
        if round + 1 < rounds {
            let dropped = alive.split_off(alive.len().div_ceil(2));
            if dropped.contains(&keep) {
                alive.push(keep);
            }
        }
    }
    alive[0]
}

/// The value for `seat` of playing `action` in the world `start`, then letting the normal bot play the
/// playout out.
fn playout_value<G: TableGame>(start: &G, seat: Seat, action: &G::Action) -> f64 {
    let mut world = start.clone();
    if world.apply(seat, action).is_err() {
        // Legal in the seat's view is legal in every world it cannot tell apart: this does not happen.
        return f64::NEG_INFINITY;
    }
    crate::search::play_out(&mut world, start);
    world.analysis_value(seat, start)
}
