//! Prints how long random games are and how many legal actions the player to act has, per step:
//! the shape of the work behind the benchmark figures, for a random player that takes back and for one
//! that plays the game's moves only.
//!
//! `cargo run --release -p romirami-engine --example stats`
use romirami_engine::{Game, RandomPlayer};

/// How a kind of random player is made from a seed.
type NewPlayer = fn(u64) -> RandomPlayer;

fn main() {
    let players_of_each_kind: [(&str, NewPlayer); 2] =
        [("every legal action", RandomPlayer::new), ("without take-backs", RandomPlayer::without_take_backs)];
    for ((kind, new_player), players) in players_of_each_kind.into_iter().flat_map(|kind| [2, 3, 4].map(|p| (kind, p)))
    {
        let mut player = new_player(1);
        let (mut actions, mut listed, mut max_listed) = (0usize, 0usize, 0usize);
        let games = 2000;
        let mut per_step = [(0usize, 0usize); 3];
        for seed in 0..games {
            let mut game = Game::new(players, seed).expect("valid");
            while let Some(seat) = game.to_act() {
                let legal = game.legal_actions(seat);
                if let romirami_engine::Phase::Playing { step, .. } = game.phase() {
                    let i = step as usize;
                    per_step[i].0 += 1;
                    per_step[i].1 += legal.len();
                }
                listed += legal.len();
                max_listed = max_listed.max(legal.len());
                let action = player.choose(&game).expect("some action");
                game.apply(seat, &action).expect("legal");
                actions += 1;
            }
        }
        println!(
            "{players}p, {kind}: {:.1} actions/game, {:.1} legal actions on average, {max_listed} at most",
            actions as f64 / games as f64,
            listed as f64 / actions as f64
        );
        for (name, (times, total)) in ["take", "contracts", "discard"].iter().zip(per_step) {
            println!(
                "  {name}: {:.1} per game, {:.1} actions each",
                times as f64 / games as f64,
                total as f64 / times.max(1) as f64
            );
        }
    }
}
