//! Where a random game's time goes by kind of step: plays complete random games and times each
//! choice, each `check` of the chosen action and each checked `apply` apart, by the kind of step and
//! of action, and the deal of each game. (`apply` checks the action again: its figure includes the
//! check's.)
//!
//! `cargo run --release -p romirami-engine --example steps -- [GAMES] [PLAYERS] [without-take-backs]`
//!
//! With `without-take-backs`, the player picks among the game's moves only
//! (`RandomPlayer::without_take_backs`), as in `playouts`.
//!
//! Each step is timed with `Instant`, whose own cost (measured first and printed) is taken off every
//! figure; the figures are for comparing the kinds of step with each other, not for the games per
//! second, which `playouts` measures without the timer.

use std::time::{Duration, Instant};

use romirami_engine::{Action, Game, Phase, TurnStep};

mod common;

/// The kinds of step timed apart.
const KINDS: [&str; 5] = ["take", "pass", "complete", "take back", "discard"];

fn main() {
    let (games, players, mut player) = common::games_players_and_player(40_000);
    let timer = timer_cost();
    let mut game = Game::new(players, 0).expect("2 to 4 players");
    // Per kind of step: how many, the time choosing, checking and applying.
    let mut steps = [(0u64, Duration::ZERO, Duration::ZERO, Duration::ZERO); KINDS.len()];
    let mut dealing = Duration::ZERO;
    for seed in 0..games {
        let start = Instant::now();
        game.redeal(players, seed).expect("2 to 4 players");
        dealing += start.elapsed();
        while let Phase::Playing { seat, step } = game.phase() {
            let start = Instant::now();
            let action = player.choose(&game).expect("the game goes on");
            let chosen = Instant::now();
            let checked = game.check(seat, &action);
            let checked_at = Instant::now();
            assert_eq!(checked, Ok(()), "the player chooses legal actions");
            game.apply(seat, &action).expect("the player chooses legal actions");
            let applied = Instant::now();
            let kind = match (step, action) {
                (TurnStep::Take, _) => 0,
                (_, Action::Pass) => 1,
                (_, Action::Complete { .. }) => 2,
                (_, Action::TakeBack) => 3,
                _ => 4,
            };
            steps[kind].0 += 1;
            steps[kind].1 += chosen - start;
            steps[kind].2 += checked_at - chosen;
            steps[kind].3 += applied - checked_at;
        }
    }
    let per_game =
        |time: Duration, count: u64| time.as_nanos() as f64 / games as f64 - timer * count as f64 / games as f64;
    println!("{games} games of {players} players; the timer's own cost, {timer:.1} ns, is taken off each figure");
    println!("deal: {:.0} ns a game", per_game(dealing, games));
    for (name, (count, choosing, checking, applying)) in KINDS.iter().zip(steps) {
        if count == 0 {
            continue;
        }
        let each = |time: Duration| time.as_nanos() as f64 / count as f64 - timer;
        println!(
            "{name}: {:.1} a game; choosing {:.0} ns each ({:.0} ns a game), checking {:.0} ns each ({:.0} ns a game), applying (checked) {:.0} ns each ({:.0} ns a game)",
            count as f64 / games as f64,
            each(choosing),
            per_game(choosing, count),
            each(checking),
            per_game(checking, count),
            each(applying),
            per_game(applying, count),
        );
    }
}

/// What timing an empty stretch with `Instant` costs, in nanoseconds.
fn timer_cost() -> f64 {
    const ROUNDS: u32 = 1_000_000;
    let mut total = Duration::ZERO;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        total += start.elapsed();
    }
    total.as_nanos() as f64 / f64::from(ROUNDS)
}
