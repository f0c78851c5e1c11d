//! Complete random games per second, and actions per second, on one thread.
//!
//! `cargo bench -p romirami-engine --bench games` (pin it to one core with `taskset -c 0` for the
//! per-core figure). Each iteration deals a game again ([`Game::redeal`]) from a fresh seed and plays it to its end with
//! uniformly random legal actions ([`RandomPlayer`]): every legal action in `complete_random_game` and
//! `random_game_actions`, every one but taking back (§7) in `complete_random_game_without_take_backs`.
//!
//! The engine's goal, at least 100,000 complete 4-player random games per second per core, is read off
//! `complete_random_game_without_take_backs/players/4`: its games are the random play of the game's
//! moves ([`RandomPlayer::without_take_backs`]). Taking back is no move of the table game and leaves no
//! trace in a game's record; the group with take-backs measures what a uniform player's undoing and
//! redoing adds (`docs/performance.md`, "The engine").
//!
//! Two more groups give the rules' share of that work: `replayed_random_game` and
//! `replayed_random_game_without_take_backs` replay complete random games of each kind, whose actions
//! were chosen beforehand, through the public, checked [`Game::apply`], as the server applies a
//! player's move and as `romirami verify` replays a record, with no choosing at all.

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use romirami_engine::{Action, Game, RandomPlayer, Seat};

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
/// of each counted by `per_game(players)` elements, by players that `new_player` makes from a seed.
fn random_games(
    c: &mut Criterion,
    name: &str,
    first_seed: u64,
    new_player: fn(u64) -> RandomPlayer,
    per_game: impl Fn(usize) -> u64,
) {
    let mut group = c.benchmark_group(name);
    for players in [2, 3, 4] {
        group.throughput(Throughput::Elements(per_game(players)));
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, &players| {
            let mut seed = first_seed;
            let mut player = new_player(first_seed ^ 7);
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

/// Complete games per second, every legal action a choice (take-backs included).
fn complete_games(c: &mut Criterion) {
    random_games(c, "complete_random_game", 0, RandomPlayer::new, |_| 1);
}

/// Complete games per second, the game's moves the only choices (no take-backs).
fn complete_games_without_take_backs(c: &mut Criterion) {
    random_games(c, "complete_random_game_without_take_backs", 0, RandomPlayer::without_take_backs, |_| 1);
}

/// Actions per second, over the games of `complete_random_game`.
fn actions(c: &mut Criterion) {
    random_games(c, "random_game_actions", 1_000_000, RandomPlayer::new, actions_per_game);
}

/// Games of `players` played beforehand by a random player that `new_player` makes: each game's seed
/// and its actions in order.
fn recorded_games(players: usize, games: u64, new_player: fn(u64) -> RandomPlayer) -> Vec<(u64, Vec<(Seat, Action)>)> {
    let mut player = new_player(3);
    (0..games)
        .map(|seed| {
            let mut game = Game::new(players, seed).expect("valid player count");
            let mut actions = Vec::new();
            while let (Some(seat), Some(action)) = (game.to_act(), player.choose(&game)) {
                game.apply(seat, &action).expect("the random player's actions are legal");
                actions.push((seat, action));
            }
            (seed, actions)
        })
        .collect()
}

/// Complete games per second when the actions are given: each iteration deals the next recorded game
/// again and applies its actions, each one checked, to the end. The games are those of the random
/// players that `new_player` makes, so the difference from the group that plays such games is the
/// random player's choosing.
fn replayed_games(c: &mut Criterion, name: &str, new_player: fn(u64) -> RandomPlayer) {
    let mut group = c.benchmark_group(name);
    for players in [2, 3, 4] {
        let recorded = recorded_games(players, 1_000, new_player);
        group.throughput(Throughput::Elements(1));
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, &players| {
            let mut next = recorded.iter().cycle();
            let mut game = Game::new(players, 0).expect("valid player count");
            b.iter(|| {
                let (seed, actions) = next.next().expect("a cycle never ends");
                game.redeal(players, *seed).expect("valid player count");
                for (seat, action) in actions {
                    black_box(game.apply(*seat, action).expect("a recorded action is legal"));
                }
                assert!(game.is_over(), "a recorded game ends with its last action");
            });
        });
    }
    group.finish();
}

/// The games of `complete_random_game` (take-backs included), replayed.
fn replayed_random_games(c: &mut Criterion) {
    replayed_games(c, "replayed_random_game", RandomPlayer::new);
}

/// The games of `complete_random_game_without_take_backs`, replayed: the rules' share of a game of
/// the game's moves alone.
fn replayed_games_without_take_backs(c: &mut Criterion) {
    replayed_games(c, "replayed_random_game_without_take_backs", RandomPlayer::without_take_backs);
}

criterion_group!(
    benches,
    complete_games,
    complete_games_without_take_backs,
    actions,
    replayed_random_games,
    replayed_games_without_take_backs
);
criterion_main!(benches);
