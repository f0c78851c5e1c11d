//! Plays complete random games as fast as it can and prints games per second: a quick check, and a
//! target for profilers (`valgrind --tool=callgrind`, `perf record`).
//!
//! `cargo run --release -p romirami-engine --example playouts -- [GAMES] [PLAYERS] [without-take-backs]`
//!
//! With `without-take-backs`, the player picks among the game's moves only
//! (`RandomPlayer::without_take_backs`).

use std::time::Instant;

use romirami_engine::Game;

mod common;

fn main() {
    let (games, players, mut player) = common::games_players_and_player(20_000);
    let start = Instant::now();
    let mut actions = 0;
    // One game dealt again for each seed: `Game::redeal` reuses its memory.
    let mut game = Game::new(players, 0).expect("2 to 4 players");
    for seed in 0..games {
        game.redeal(players, seed).expect("2 to 4 players");
        actions += player.play_out(&mut game);
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{games} games of {players} players, {actions} actions in {elapsed:.3} s: {:.0} games/s, {:.0} actions/s",
        games as f64 / elapsed,
        actions as f64 / elapsed
    );
}
