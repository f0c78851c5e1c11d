//! Helpers shared by Rami's tests.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::rami::{RamiMatch, RamiOptions, bot};

/// Plays `game` to its end with the bot in every seat; returns how many actions it applied.
pub(super) fn play_out(game: &mut RamiMatch, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let action = bot::choose(game, seat, &mut rng).expect("the bot acts on its turn");
        if let Err(e) = game.apply(seat, &action) {
            panic!("the bot's {action:?} was refused: {e}");
        }
        actions += 1;
        assert!(actions < 100_000, "a match ends");
    }
    actions
}

/// A new match.
pub(super) fn new_match(players: usize, seed: u64, options: RamiOptions) -> RamiMatch {
    RamiMatch::new(players, seed, options).expect("2 to 5 players")
}

/// Meta data for a record.
pub(super) fn meta(players: usize) -> crate::record::RecordMeta {
    crate::record::RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".to_owned(),
        started_at: "2026-11-21T10:00:00Z".to_owned(),
        finished_at: "2026-11-21T10:48:00Z".to_owned(),
        names: (0..players).map(|i| format!("P{i}")).collect(),
    }
}

/// The match's record, written as JSON, read back and verified; the verified result and tally.
pub(super) fn round_trip(game: &RamiMatch) -> crate::record::Verified {
    let record = game.record(meta(game.players())).expect("an over match exports");
    let json = serde_json::to_string(&record).expect("a record serializes");
    let parsed = crate::record::parse(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(parsed, record);
    crate::record::verify(&parsed).unwrap_or_else(|e| panic!("{e}"))
}
