//! The shuffle proof of a record (record-format.md, "Shuffle proof"): a record that carries its seed,
//! salt and commitment verifies only when the commitment is the seed's and the decks, the trophies, the
//! first player and every reshuffle are what the seed gives.

use crate::{Game, LogEntry, RandomPlayer, Record, RecordMeta, ReplayError, ShuffleError, ShuffleProof};

const SALT: [u8; 32] = [0x5a; 32];

fn meta(players: usize, shuffle: Option<ShuffleProof>) -> RecordMeta {
    RecordMeta {
        id: uuid::Uuid::nil(),
        started_at: time::OffsetDateTime::UNIX_EPOCH,
        finished_at: time::OffsetDateTime::UNIX_EPOCH,
        names: (0..players).map(|seat| format!("P{seat}")).collect(),
        shuffle,
    }
}

/// The first seed from `from` whose random 2-player game reshuffles at least once, and its game.
fn game_with_a_reshuffle(from: u64) -> (u64, Game) {
    (from..from + 500)
        .find_map(|seed| {
            let mut game = Game::new(2, seed).expect("2 players");
            RandomPlayer::new(seed).play_out(&mut game);
            game.log.iter().any(|entry| matches!(entry, LogEntry::Shuffle { .. })).then_some((seed, game))
        })
        .expect("some game among 500 reshuffles")
}

fn code(result: Result<Game, ReplayError>) -> Result<(), String> {
    match result {
        Ok(_) => Ok(()),
        Err(ReplayError::Shuffle(error)) => Err(error.code().to_owned()),
        Err(other) => Err(format!("not a shuffle error: {other}")),
    }
}

/// The record with its proof fields replaced by those of `seed` and `salt`, the commitment recomputed.
fn claiming(record: &Record, seed: u64, salt: [u8; 32]) -> Record {
    let fields = ShuffleProof::new(seed, salt).fields();
    Record { seed: fields.seed, salt: fields.salt, commitment: fields.commitment, ..record.clone() }
}

/// A finished game dealt from the seats' contributions, and its proof.
fn contributed_game() -> (ShuffleProof, Game) {
    let proof = ShuffleProof::contributed(42, SALT, vec![[0x11; 32], [0x22; 32]]);
    let mut game = Game::new(2, proof.seed()).expect("2 players");
    RandomPlayer::new(7).play_out(&mut game);
    (proof, game)
}

#[test]
fn a_record_with_the_seats_contributions_verifies_and_refuses_any_change() {
    let (proof, game) = contributed_game();
    let record = game.record(meta(2, Some(proof.clone()))).expect("over");
    assert_eq!(record.server_seed.as_deref(), Some("42"));
    assert_eq!(record.seed, Some(proof.seed().to_string()));
    assert_eq!(record.contributions, Some(vec!["11".repeat(32), "22".repeat(32)]));
    let json = serde_json::to_string(&record).expect("serializes");
    let read: Record = serde_json::from_str(&json).expect("reads back");
    assert_eq!(code(read.verify()), Ok(()));
    assert_eq!(read.check_shuffle().expect("holds"), Some(proof.clone()));

    let with = |contributions: Vec<[u8; 32]>, server_seed: u64, salt: [u8; 32]| {
        // Every field made consistent with the change except the decks: only they can give it away.
        let fields = ShuffleProof::contributed(server_seed, salt, contributions).fields();
        Record {
            seed: fields.seed,
            salt: fields.salt,
            commitment: fields.commitment,
            server_seed: fields.server_seed,
            contributions: fields.contributions,
            ..record.clone()
        }
    };
    let not_from_seed = Err("shuffle_not_from_seed".to_owned());
    assert_eq!(code(with(vec![[0x11; 32], [0x23; 32]], 42, SALT).verify()), not_from_seed);
    assert_eq!(code(with(vec![[0x22; 32], [0x11; 32]], 42, SALT).verify()), not_from_seed);
    assert_eq!(code(with(vec![[0x11; 32], [0x22; 32]], 43, SALT).verify()), not_from_seed);
    assert_eq!(code(with(vec![[0x11; 32], [0x22; 32]], 42, [0x5b; 32]).verify()), not_from_seed);
    // A field changed alone.
    let mut contribution = record.clone();
    contribution.contributions.as_mut().expect("two")[0] = "12".repeat(32);
    assert_eq!(code(contribution.verify()), Err("shuffle_derivation".into()));
    assert_eq!(
        code(Record { server_seed: Some("43".into()), ..record.clone() }.verify()),
        Err("shuffle_commitment".into())
    );
    assert_eq!(
        code(Record { salt: Some("5b".repeat(32)), ..record.clone() }.verify()),
        Err("shuffle_commitment".into())
    );
    assert_eq!(code(Record { seed: Some("42".into()), ..record.clone() }.verify()), Err("shuffle_derivation".into()));
    assert_eq!(code(Record { contributions: None, ..record }.verify()), Err("shuffle_fields".into()));
}

#[test]
fn a_record_with_its_proof_verifies_reshuffles_included() {
    let (seed, game) = game_with_a_reshuffle(1);
    let record = game.record(meta(2, Some(ShuffleProof::new(seed, SALT)))).expect("over");
    assert_eq!(record.seed.as_deref(), Some(seed.to_string().as_str()));
    assert_eq!(record.salt.as_deref(), Some("5a".repeat(32).as_str()));
    assert_eq!(record.commitment, Some(romirami_game::commitment::commit(seed, &SALT)));
    let json = serde_json::to_string(&record).expect("serializes");
    assert!(json.contains(&format!("\"seed\":\"{seed}\"")), "{json}");
    let read: Record = serde_json::from_str(&json).expect("reads back");
    assert_eq!(read, record);
    assert_eq!(code(read.verify()), Ok(()));
    assert_eq!(read.check_shuffle().expect("holds"), Some(ShuffleProof::new(seed, SALT)));
}

#[test]
fn a_record_without_the_fields_verifies_as_before() {
    let (_, game) = game_with_a_reshuffle(1);
    let record = game.record(meta(2, None)).expect("over");
    let json = serde_json::to_string(&record).expect("serializes");
    for key in ["\"seed\"", "\"salt\"", "\"commitment\""] {
        assert!(!json.contains(key), "{json}");
    }
    assert_eq!(code(record.verify()), Ok(()));
    assert_eq!(record.check_shuffle(), Ok(None));
}

#[test]
fn a_changed_seed_salt_or_commitment_is_refused() {
    let (seed, game) = game_with_a_reshuffle(1);
    let record = game.record(meta(2, Some(ShuffleProof::new(seed, SALT)))).expect("over");
    let changed_seed = Record { seed: Some((seed + 1).to_string()), ..record.clone() };
    assert_eq!(code(changed_seed.verify()), Err("shuffle_commitment".into()));
    let changed_salt = Record { salt: Some("5b".repeat(32)), ..record.clone() };
    assert_eq!(code(changed_salt.verify()), Err("shuffle_commitment".into()));
    let changed_commitment =
        Record { commitment: Some(romirami_game::commitment::commit(seed, &[0x5b; 32])), ..record.clone() };
    assert_eq!(code(changed_commitment.verify()), Err("shuffle_commitment".into()));
    let err = changed_commitment.verify().expect_err("refused");
    assert_eq!(err.to_string(), "shuffle proof: the commitment is not the SHA-256 of the seed and the salt");
    // Only some of the fields, or a malformed one.
    assert_eq!(code(Record { salt: None, ..record.clone() }.verify()), Err("shuffle_fields".into()));
    assert_eq!(
        code(Record { seed: Some(format!("0{seed}")), ..record.clone() }.verify()),
        Err("shuffle_fields".into())
    );
}

#[test]
fn decks_not_from_the_seed_are_refused() {
    let (seed, game) = game_with_a_reshuffle(1);
    let record = game.record(meta(2, None)).expect("over");
    // Another seed, honestly committed: its decks are not the record's.
    let other = claiming(&record, seed + 1, SALT);
    let err = other.verify().expect_err("refused");
    assert_eq!(err, ReplayError::Shuffle(ShuffleError::NotFromSeed("`number_deck`".into())));
    assert_eq!(err.to_string(), "shuffle proof: `number_deck` is not what the seed gives");
    assert_eq!(code(claiming(&record, seed, SALT).verify()), Ok(()));
}

#[test]
fn a_reshuffle_not_from_the_seed_is_refused() {
    let (seed, dealt) = game_with_a_reshuffle(1);
    // The seed's deal, but reshuffles drawn from another generator: the initial decks check, the first
    // reshuffle does not.
    let mut game = Game::from_setup(dealt.setup.clone(), seed ^ 0xffff).expect("a valid setup");
    RandomPlayer::new(seed).play_out(&mut game);
    let first_shuffle =
        game.log.iter().position(|entry| matches!(entry, LogEntry::Shuffle { .. })).expect("it reshuffles too");
    let record = game.record(meta(2, Some(ShuffleProof::new(seed, SALT)))).expect("over");
    let err = record.verify().expect_err("refused");
    assert_eq!(
        err,
        ReplayError::Shuffle(ShuffleError::NotFromSeed(format!("the reshuffle at log entry {first_shuffle}")))
    );
}

#[test]
fn changed_trophies_or_first_player_are_refused() {
    let (seed, game) = game_with_a_reshuffle(1);
    let record = game.record(meta(2, Some(ShuffleProof::new(seed, SALT)))).expect("over");
    let setup = game.setup.clone();
    let mut trophies = setup.trophies;
    let (side_a, side_b) = crate::Trophy::TILES[2];
    trophies[2] = if trophies[2] == side_a { side_b } else { side_a };
    // The check of the proof alone: these records need not replay.
    let changed = Record { trophies, ..record.clone() };
    assert_eq!(changed.check_shuffle(), Err(ReplayError::Shuffle(ShuffleError::NotFromSeed("`trophies`".into()))));
    let first_player = crate::Seat(1 - setup.first_player.0);
    let changed = Record { first_player, ..record.clone() };
    assert_eq!(changed.check_shuffle(), Err(ReplayError::Shuffle(ShuffleError::NotFromSeed("`first_player`".into()))));
    let mut contract_deck = record.contract_deck.clone();
    contract_deck.swap(0, 35);
    let changed = Record { contract_deck, ..record };
    assert_eq!(changed.check_shuffle(), Err(ReplayError::Shuffle(ShuffleError::NotFromSeed("`contract_deck`".into()))));
}
