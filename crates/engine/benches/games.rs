//! Complete random games per second, and actions per second, on one thread.
//!
//! `cargo bench -p romirami-engine --bench games` (pin it to one core with `taskset -c 0` for the
//! per-core figure). Each iteration deals a game again ([`Game::redeal`]) from a fresh seed and plays it to its end with
//! uniformly random legal actions ([`RandomPlayer`]).

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use romirami_engine::{Game, RandomPlayer};

/// Average actions per complete game for `players`, over a fixed sample, so that the action-rate
/// figure can be given as a throughput.
fn actions_per_game(players: usize) -> u64 {
    let mut player = RandomPlayer::new(1);
    let games = 2_000u64;
    let total: usize = (0..games)
        .map(|seed| {
            let mut game = Game::new(players, seed).expect("valid player count");
            player.play_out(&mut game)
        })
        .sum();
    (total as u64).div_ceil(games)
}

/// Plays complete random games for 2, 3 and 4 players, one game per iteration, with the throughput
/// of each counted by `per_game(players)` elements.
fn random_games(c: &mut Criterion, name: &str, first_seed: u64, per_game: impl Fn(usize) -> u64) {
    let mut group = c.benchmark_group(name);
    for players in [2, 3, 4] {
        group.throughput(Throughput::Elements(per_game(players)));
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, &players| {
            let mut seed = first_seed;
            let mut player = RandomPlayer::new(first_seed ^ 7);
            // One game dealt again for each seed, as a simulation would: `Game::redeal` reuses its memory.
            let mut game = Game::new(players, seed).expect("valid player count");
            b.iter(|| {
                seed += 1;
                game.redeal(players, seed).expect("valid player count");
                black_box(player.play_out(&mut game))
            });
        });
    }
    group.finish();
}

/// Complete games per second.
fn complete_games(c: &mut Criterion) {
    random_games(c, "complete_random_game", 0, |_| 1);
}

/// Actions per second, over the same kind of games.
fn actions(c: &mut Criterion) {
    random_games(c, "random_game_actions", 1_000_000, actions_per_game);
}

criterion_group!(benches, complete_games, actions);
criterion_main!(benches);
