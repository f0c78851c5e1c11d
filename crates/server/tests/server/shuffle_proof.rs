//! A shuffle anyone can check, over the real server: the table's summary tells every member the
//! commitment to the game's seed from the start; no message holds the seed or the salt; the record the
//! REST API serves after the end reveals both, verifies (the shuffle proof included), and its commitment
//! is the one told at the start; a finished table answered from the store still tells it. For Romi Rami
//! (`romirami-record/1`) and Rommi (`rummy-record/1`).

use crate::common;
use crate::json_ws;

use std::time::Duration;

use common::{TestServer, fast, http_get};
use json_ws::JsonWs;
use romirami_game::commitment::ShuffleProof;
use romirami_server::config::Config;
use serde_json::{Value, json};

/// Fast tables: bots without a pause, a short pause between rounds.
fn config() -> Config {
    Config { bot_delay: Duration::from_millis(1), round_pause: Duration::from_millis(20), ..fast() }
}

/// The commitments in the `table` messages among `texts`, in order (`None` where a summary has none).
fn told(texts: &[String]) -> Vec<Option<String>> {
    texts
        .iter()
        .map(|text| serde_json::from_str::<Value>(text).expect("JSON"))
        .filter(|msg| msg["type"] == "table")
        .map(|msg| msg["table"]["shuffle"].as_str().map(str::to_owned))
        .collect()
}

/// The record of finished game `id`, served over REST once its result is stored.
async fn record(server: &TestServer, id: &str) -> String {
    let url = format!("{}/api/games/{id}/record", server.http());
    for _ in 0..100 {
        let answer = http_get(&url, "application/json").await;
        if answer.status == 200 {
            return answer.body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the record of {id} is not served");
}

/// Plays a game of `game` (the host's seat played by the bot once its clock runs out, every other seat
/// by a bot), watched by a spectator from before the start; checks the shuffle proof end to end.
async fn check(server: &TestServer, game: &str, options: Value) {
    let mut host = JsonWs::guest(&server.url, "Ana").await;
    host.send(json!({ "type": "create_table", "seats": 2, "public": true, "spectators": "everyone",
                      "clock": { "turn_ms": 100, "reserve_ms": 0 }, "game": game, "options": options }))
        .await;
    let created = host.wait_for_type("table_created", Duration::from_secs(10)).await;
    let id = created["table"]["id"].as_str().expect("an id").to_owned();
    let mut watcher = JsonWs::guest(&server.url, "Cleo").await;
    watcher.send(json!({ "type": "watch", "table": id })).await;
    watcher.wait_for_type("table", Duration::from_secs(10)).await;
    host.send(json!({ "type": "add_bot", "table": id })).await;
    // The start: every member is told the commitment.
    let started = loop {
        let table = watcher.wait_for_type("table", Duration::from_secs(10)).await;
        if table["table"]["state"] == "waiting" {
            assert!(table["table"].get("shuffle").is_none(), "nothing is committed before the start: {table}");
        } else {
            break table;
        }
    };
    assert_eq!(started["table"]["state"], "playing", "{started}");
    let commitment = started["table"]["shuffle"].as_str().expect("the commitment at the start").to_owned();
    assert_eq!(commitment.len(), 64);
    // Someone who comes while the game is in play is told it too.
    let mut late = JsonWs::guest(&server.url, "Dan").await;
    late.send(json!({ "type": "watch", "table": id })).await;
    let table = late.wait_for_type("table", Duration::from_secs(10)).await;
    assert_eq!(table["table"]["shuffle"], commitment.as_str(), "{table}");
    host.wait_for_type("game_over", Duration::from_secs(60)).await;
    watcher.wait_for_type("game_over", Duration::from_secs(10)).await;
    for (who, texts) in [("Ana", &host.texts), ("Cleo", &watcher.texts)] {
        let told = told(texts);
        assert!(told.iter().flatten().any(|c| *c == commitment), "{who}: {told:?}");
        assert!(told.iter().flatten().all(|c| *c == commitment), "{who}: {told:?}");
    }

    // The record reveals the seed and the salt of that commitment, and verifies.
    let text = record(server, &id).await;
    let record: Value = serde_json::from_str(&text).expect("JSON");
    let field = |name: &str| record[name].as_str().map(str::to_owned);
    let (seed, salt) = (field("seed").expect("a seed"), field("salt").expect("a salt"));
    assert_eq!(field("commitment").as_deref(), Some(commitment.as_str()));
    let proof = ShuffleProof::from_fields(Some(&seed), Some(&salt), Some(&commitment)).expect("the proof holds");
    assert!(proof.is_some());
    match game {
        "romi-rami" => {
            let record: romirami_engine::Record = serde_json::from_str(&text).expect("a romirami-record/1");
            record.verify().unwrap_or_else(|e| panic!("{game}: the record verifies: {e}"));
        }
        _ => {
            let parsed = romirami_rummy::record::parse(&text).expect("a rummy-record/1 document");
            romirami_rummy::record::verify(&parsed).unwrap_or_else(|e| panic!("{game}: the record verifies: {e}"));
        }
    }
    // Nothing sent over the WebSocket held the seed or the salt.
    let seed_hex = format!("{:x}", seed.parse::<u64>().expect("a u64"));
    for text in host.texts.iter().chain(&watcher.texts).chain(&late.texts) {
        for secret in [&seed, &salt, &seed_hex] {
            assert!(secret.len() < 6 || !text.contains(secret.as_str()), "{game}: a message holds {secret}: {text}");
        }
    }

    // Once nobody is at it, the finished table is answered from the store, with the commitment still.
    drop((host, watcher, late));
    for attempt in 0.. {
        let mut after = JsonWs::guest(&server.url, "Eve").await;
        after.send(json!({ "type": "watch", "table": id })).await;
        let table = after.wait_for_type("table", Duration::from_secs(10)).await;
        assert_eq!(table["table"]["state"], "finished", "{table}");
        assert_eq!(table["table"]["shuffle"], commitment.as_str(), "{table}");
        // The live table counts the new spectator; the store's answer counts none.
        if table["table"]["spectator_count"] == 0 {
            break;
        }
        assert!(attempt < 50, "the finished table's task ends once nobody is at it");
        drop(after);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commitment_told_at_the_start_is_the_one_the_served_record_proves() {
    let server = TestServer::start(config()).await;
    check(&server, "romi-rami", json!({})).await;
    check(&server, "rommi", json!({ "target": 60 })).await;
    server.shutdown().await;
}
