//! Fingerprints of whole random games, fixed when the engine was correct, so that work on speed cannot
//! change behaviour unnoticed.
//!
//! Each test plays games with [`RandomPlayer`] from fixed seeds and hashes what a user of the crate can
//! observe: every list of legal actions (order included), every action chosen, every event as each
//! viewer gets it, the record's log and the result. The hash is FNV-1a over the JSON texts, which depend
//! only on this crate's code, never on the machine. If a fingerprint changes, the engine behaves
//! differently: seeds would no longer replay the games they gave before.

use crate::game::Game;
use crate::player::RandomPlayer;
use crate::view::Viewer;

/// FNV-1a, 64 bits: simple, fixed, and enough to tell two texts apart here.
struct Fingerprint(u64);

impl Fingerprint {
    fn new() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, text: &str) {
        for byte in text.bytes().chain([0xff]) {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn add_json<T: serde::Serialize>(&mut self, value: &T) {
        self.add(&serde_json::to_string(value).expect("engine types serialize"));
    }
}

/// Everything observable about `games` random games per player count, step by step.
fn observed_games(games: u64) -> u64 {
    let mut print = Fingerprint::new();
    for players in 2..=4 {
        for seed in 0..games {
            let mut game = Game::new(players, seed * 7 + players as u64).expect("2 to 4 players");
            let mut player = RandomPlayer::new(seed ^ 0x5eed);
            while let Some(seat) = game.to_act() {
                print.add_json(&game.legal_actions(seat));
                let action = player.choose(&game).expect("the game goes on");
                print.add_json(&action);
                let applied = game.apply(seat, &action).expect("chosen actions are legal");
                print.add(&format!("{:?}", applied.events));
            }
            for viewer in [Viewer::Spectator].into_iter().chain(game.seats_iter().map(Viewer::Seat)) {
                for (number, event) in game.events_for(viewer, 0) {
                    print.add(&number.to_string());
                    print.add_json(&event);
                }
                print.add_json(&game.view(viewer));
            }
            print.add_json(&game.log);
            print.add_json(&game.result());
        }
    }
    print.0
}

/// The actions [`RandomPlayer::play_out`] applies over many games: its choice sequence.
fn played_out(games: u64) -> u64 {
    let mut print = Fingerprint::new();
    for players in 2..=4 {
        let mut player = RandomPlayer::new(players as u64);
        for seed in 0..games {
            let mut game = Game::new(players, seed).expect("2 to 4 players");
            let actions = player.play_out(&mut game);
            print.add(&actions.to_string());
            print.add_json(&game.log);
            print.add_json(&game.result());
        }
    }
    print.0
}

#[test]
fn random_games_are_observed_as_before() {
    assert_eq!(observed_games(40), 12_438_027_396_422_971_928);
}

#[test]
fn random_play_outs_are_as_before() {
    assert_eq!(played_out(400), 1_847_137_338_319_332_161);
}
