//! Whole random games, exported and replayed: the quickest end-to-end check of the engine.

use romirami_engine::{Game, RandomPlayer, Record, RecordMeta, ShuffleProof};
use time::OffsetDateTime;

#[test]
fn random_games_end_and_their_records_verify() {
    let mut total_actions = 0;
    for seed in 0..300u64 {
        let players = 2 + (seed % 3) as usize;
        let mut game = Game::new(players, seed).expect("valid player count");
        let mut player = RandomPlayer::new(seed ^ 0xdead_beef);
        total_actions += player.play_out(&mut game);
        assert!(game.is_over(), "seed {seed}: game did not end");
        let meta = RecordMeta {
            id: uuid::Uuid::from_u64_pair(seed, seed),
            started_at: OffsetDateTime::UNIX_EPOCH,
            finished_at: OffsetDateTime::UNIX_EPOCH,
            names: (0..players).map(|i| format!("P{i}")).collect(),
            // Every other game carries its shuffle proof, which must hold, reshuffles included.
            shuffle: (seed % 2 == 0).then(|| ShuffleProof::new(seed, [seed as u8; 32])),
        };
        let record = game.record(meta).expect("finished game exports");
        let json = serde_json::to_string(&record).expect("serializes");
        let parsed: Record = serde_json::from_str(&json).expect("parses back");
        assert_eq!(parsed, record);
        let replayed = parsed.verify().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed.result(), game.result());
    }
    assert!(total_actions > 0);
}
