//! A shuffle anyone can check: the commitment to the seed is told at the start and to whoever comes
//! later; the seed and the salt leave the table only in the finished game's record.

use romirami_game::commitment::{ProofFields, ShuffleProof, commit};

use super::*;
use crate::store::FinishedGame;

const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

fn salt() -> Salt {
    std::array::from_fn(|i| 0xa0 + i as u8)
}

/// Every way the seed or the salt could be written: the seed in decimal and hex, the salt in hex and as
/// a list of decimal bytes.
fn secrets() -> Vec<String> {
    let salt = salt();
    let dealt = proof().seed();
    vec![
        dealt.to_string(),
        format!("{dealt:x}"),
        SEED.to_string(),
        format!("{SEED:x}"),
        format!("{SEED:X}"),
        hex::encode(salt),
        hex::encode(&salt[..8]),
        salt.iter().map(u8::to_string).collect::<Vec<_>>().join(","),
        salt.iter().map(u8::to_string).collect::<Vec<_>>().join(", "),
    ]
}

/// The proof of the games here: the server's seed and salt, and each seat's contribution drawn by the
/// server (these tests' tables wait for none: the test entropy's value for each).
fn proof() -> ShuffleProof {
    ShuffleProof::contributed(SEED, salt(), vec![[3; 32]; 2])
}

fn assert_secret_free(what: &str, text: &str) {
    for secret in secrets() {
        assert!(!text.contains(&secret), "{what} holds {secret}: {text}");
    }
}

/// The `shuffle` of every `table` message among `texts`.
fn shuffles(texts: &[String]) -> Vec<Option<String>> {
    texts
        .iter()
        .filter_map(|text| match serde_json::from_str::<ServerMsg>(text).expect("parses") {
            ServerMsg::Table { table, .. } => Some(table.shuffle),
            _ => None,
        })
        .collect()
}

#[test]
fn the_commitment_is_told_from_the_start_and_the_seed_and_salt_only_in_the_record() {
    // Every line the core logs while the game is played (on this thread: the core has no threads).
    let ((texts, finished), logs) = romirami_testlog::this_thread(play_a_game_with_a_spectator);
    let commitment = commit(SEED, &salt());
    let (ana, cleo, dan) = texts;
    for (who, texts) in [("Ana", &ana), ("Cleo", &cleo), ("Dan", &dan)] {
        for text in texts {
            assert_secret_free(who, text);
        }
        let told = shuffles(texts);
        assert!(told.iter().flatten().next().is_some(), "{who} was told the commitment: {texts:?}");
        assert!(told.iter().flatten().all(|c| *c == commitment), "{who}: {told:?}");
    }
    // Ana and Cleo were there before the start: no commitment then, the first `table` with a view has it.
    assert_eq!(shuffles(&cleo).first(), Some(&None), "nothing is committed before the start");
    assert!(logs.contains("game started"), "the logs were captured: {logs}");
    assert_secret_free("the logs", &logs);

    // The record reveals the seed and the salt; their commitment is the one every member was told, and
    // the record verifies, the shuffle proof included.
    let record: serde_json::Value = serde_json::from_str(&finished.record).expect("a record");
    let field = |name: &str| record.get(name).and_then(|v| v.as_str()).map(str::to_owned);
    let contributions = record["contributions"]
        .as_array()
        .map(|values| values.iter().map(|v| v.as_str().unwrap_or_default().to_owned()).collect::<Vec<_>>());
    let fields = ProofFields {
        seed: field("seed"),
        salt: field("salt"),
        commitment: field("commitment"),
        server_seed: field("server_seed"),
        contributions,
    };
    assert_eq!(ShuffleProof::from_fields(&fields), Ok(Some(proof())));
    assert_eq!(field("commitment"), Some(commitment));
    let record: romirami_engine::Record = serde_json::from_str(&finished.record).expect("a Romi Rami record");
    record.verify().expect("the record verifies, its shuffle proof too");
}

/// What Ana, Cleo, and Dan then Eve were sent, as texts.
type Sent = (Vec<String>, Vec<String>, Vec<String>);

/// Ana plays the bot's choices against a bot, Cleo watches from before the start and Dan from the
/// middle of the game. Gives what each of them was sent, and the finished game as it would be stored.
fn play_a_game_with_a_spectator() -> (Sent, FinishedGame) {
    let (mut ana, mut cleo, mut dan) = (Client::new(1, "Ana"), Client::new(3, "Cleo"), Client::new(4, "Dan"));
    let mut table =
        Table::open_with(&ana, 2, None, romi_rami(), Fixed { seed: SEED, salt: salt(), ..Fixed::default() });
    table.join(&ana);
    let watch =
        |client: &Client| TableCommand::Watch { from: client.from.clone(), invite: Some("key".into()), since: None };
    table.command(watch(&cleo));
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
    assert_eq!(table.core.state(), TableState::Playing);
    assert!(matches!(table.writes.last(), Some(Durable::Start { shuffle, .. }) if *shuffle == proof()));
    let (mut ana_texts, mut cleo_texts, mut dan_texts) = (ana.texts(), cleo.texts(), Vec::new());
    let mut ms = 0;
    let mut steps = 0;
    while table.core.state() == TableState::Playing {
        steps += 1;
        assert!(steps < 100_000, "the game ends");
        if steps == 20 {
            table.command(watch(&dan));
        }
        match table.to_act() {
            Some(Seat(0)) => {
                let action = table.core.game().and_then(|g| g.bot(Seat(0))).expect("the bot has a move");
                let action = serde_json::from_str(action.text().get()).expect("JSON");
                table.command(TableCommand::Act { from: ana.from.clone(), id: steps, action });
            }
            _ => {
                ms += 100;
                table.at(ms);
            }
        }
        ana_texts.extend(ana.texts());
        cleo_texts.extend(cleo.texts());
        dan_texts.extend(dan.texts());
    }
    assert_eq!(table.core.state(), TableState::Finished);
    // Whoever comes to the finished table is told the commitment too.
    let mut eve = Client::new(5, "Eve");
    table.command(watch(&eve));
    let eve_texts = eve.texts();
    assert_eq!(shuffles(&eve_texts), vec![Some(commit(SEED, &salt()))]);
    dan_texts.extend(eve_texts);
    let finished = table
        .effects
        .iter()
        .find_map(|e| match e {
            Effect::StoreResult(finished) => Some((**finished).clone()),
            _ => None,
        })
        .expect("the result is stored");
    ((ana_texts, cleo_texts, dan_texts), finished)
}

#[test]
fn a_restored_game_keeps_its_salt_and_one_stored_without_has_no_proof() {
    let restore = |salt: Option<Salt>| {
        let players = (0u8..2)
            .map(|seat| GamePlayer {
                seat: Seat(seat),
                id: PlayerId(Uuid::from_u128(2000 + u128::from(seat))),
                name: format!("P{seat}"),
                bot: false,
            })
            .collect();
        let table = TableRow {
            id: TableId(Uuid::from_u128(9)),
            game: crate::protocol::ROMI_RAMI.into(),
            options: "{}".into(),
            rated: true,
            tournament: None,
            host: PlayerId(Uuid::from_u128(2000)),
            seats: 2,
            public: true,
            spectators: SpectatorPolicy::Everyone,
            created_at: OffsetDateTime::UNIX_EPOCH,
            invite: "key".into(),
            clock: None,
        };
        let stored = UnfinishedGame {
            table,
            seed: SEED,
            salt,
            contributions: Vec::new(),
            started_at: OffsetDateTime::UNIX_EPOCH,
            players,
            actions: Vec::new(),
        };
        let lobby = Arc::new(Listings::default());
        let start = Instant::now();
        let now = Now { at: start, wall: OffsetDateTime::UNIX_EPOCH };
        let core = TableCore::restored(stored, shared(&lobby), now).expect("it replays");
        let mut table = Table::around(core, lobby, start);
        assert_eq!(table.core.summary().shuffle, salt.map(|salt| commit(SEED, &salt)));
        // Nobody comes back: the game is abandoned, and its record carries the proof, or none.
        table.at(60_000);
        assert_eq!(table.core.state(), TableState::Finished);
        let record = table
            .effects
            .iter()
            .find_map(|e| match e {
                Effect::StoreResult(finished) => Some(finished.record.clone()),
                _ => None,
            })
            .expect("the result is stored");
        serde_json::from_str::<serde_json::Value>(&record).expect("JSON")
    };
    let record = restore(Some(salt()));
    assert_eq!(record["seed"], SEED.to_string());
    assert_eq!(record["salt"], hex::encode(salt()));
    assert_eq!(record["commitment"], commit(SEED, &salt()));
    let record = restore(None);
    assert!(record.get("seed").is_none() && record.get("salt").is_none() && record.get("commitment").is_none());
}
