//! A shuffle anyone can check, over the real server: the table's summary tells every member the
//! commitment to the server's seed from the start, before the players contribute to the deal (their own
//! values, or the server's draw for a seat that sends none); no message holds the seed or the salt; the record the
//! REST API serves after the end reveals both, verifies (the shuffle proof included), and its commitment
//! is the one told at the start; a finished table answered from the store still tells it. For Romi Rami
//! (`romirami-record/1`) and Rommi (`rummy-record/1`).

use crate::common;
use crate::json_ws;

use std::time::Duration;

use common::{TestServer, fast, http_get};
use json_ws::JsonWs;
use romirami_game::commitment::{ProofFields, ShuffleProof};
use romirami_server::config::Config;
use serde_json::{Value, json};

/// Fast tables: bots without a pause, a short pause between rounds; a start waits `contribution_wait`
/// for the seats' contributions.
fn config(contribution_wait: Duration) -> Config {
    Config { bot_delay: Duration::from_millis(1), round_pause: Duration::from_millis(20), contribution_wait, ..fast() }
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

/// A fresh contribution: 32 random bytes in hex.
fn fresh_contribution() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("random bytes");
    hex::encode(bytes)
}

/// Plays a game of `game` between Ana and Bo (both seats played by the bot once their clocks run out),
/// watched by a spectator from before the start; checks the shuffle proof end to end. Ana always sends
/// her own contribution to the deal; Bo sends his when `bo_contributes`, else the server draws his.
async fn check(server: &TestServer, game: &str, options: Value, bo_contributes: bool) {
    let mut host = JsonWs::guest(&server.url, "Ana").await;
    host.send(json!({ "type": "create_table", "seats": 2, "public": true, "spectators": "everyone",
                      "clock": { "turn_ms": 100, "reserve_ms": 0 }, "game": game, "options": options }))
        .await;
    let created = host.wait_for_type("table_created", Duration::from_secs(10)).await;
    let id = created["table"]["id"].as_str().expect("an id").to_owned();
    let mut watcher = JsonWs::guest(&server.url, "Cleo").await;
    watcher.send(json!({ "type": "watch", "table": id })).await;
    watcher.wait_for_type("table", Duration::from_secs(10)).await;
    let mut bo = JsonWs::guest(&server.url, "Bo").await;
    bo.send(json!({ "type": "join", "table": id })).await;
    // The table is full: it commits to its seed and asks each seat for its contribution.
    let dealing = loop {
        let table = watcher.wait_for_type("table", Duration::from_secs(10)).await;
        if table["table"].get("contributions").is_some() {
            break table;
        }
        assert!(table["table"].get("shuffle").is_none(), "nothing is committed before the start: {table}");
    };
    assert_eq!(dealing["table"]["state"], "waiting", "{dealing}");
    assert_eq!(dealing["table"]["contributions"]["seats"], json!(["waiting", "waiting"]), "{dealing}");
    let commitment = dealing["table"]["shuffle"].as_str().expect("the commitment before the deal").to_owned();
    assert_eq!(commitment.len(), 64);
    let (ana_value, bo_value) = (fresh_contribution(), fresh_contribution());
    host.send(json!({ "type": "contribute", "table": id, "value": ana_value })).await;
    // Twice is refused, and so is a value that is not 32 bytes of lower-case hex.
    host.send(json!({ "type": "contribute", "table": id, "value": fresh_contribution() })).await;
    let again = host.wait_for_type("error", Duration::from_secs(10)).await;
    assert_eq!(again["code"], "already_contributed", "{again}");
    bo.send(json!({ "type": "contribute", "table": id, "value": bo_value.to_uppercase() })).await;
    let bad = bo.wait_for_type("error", Duration::from_secs(10)).await;
    assert_eq!(bad["code"], "bad_contribution", "{bad}");
    if bo_contributes {
        bo.send(json!({ "type": "contribute", "table": id, "value": bo_value })).await;
    }
    let started = loop {
        let table = watcher.wait_for_type("table", Duration::from_secs(10)).await;
        if table["table"]["state"] == "playing" {
            break table;
        }
        assert_eq!(table["table"]["shuffle"], commitment.as_str(), "{table}");
    };
    let bo_from = if bo_contributes { "player" } else { "server" };
    assert_eq!(started["table"]["contributions"]["seats"], json!(["player", bo_from]), "{started}");
    assert_eq!(started["table"]["shuffle"], commitment.as_str(), "the same commitment in play: {started}");
    bo.send(json!({ "type": "contribute", "table": id, "value": fresh_contribution() })).await;
    let late_value = bo.wait_for_type("error", Duration::from_secs(10)).await;
    assert_eq!(late_value["code"], "not_dealing", "{late_value}");
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

    // The record reveals the server's seed and the salt of that commitment, the contributions in seat
    // order (Ana's and Bo's own, or the one the server drew for Bo), and the seed derived from them; it
    // verifies, and any of them changed does not.
    let text = record(server, &id).await;
    let record: Value = serde_json::from_str(&text).expect("JSON");
    let field = |name: &str| record[name].as_str().map(str::to_owned);
    let (seed, salt) = (field("seed").expect("a seed"), field("salt").expect("a salt"));
    let server_seed = field("server_seed").expect("the server's seed");
    assert_eq!(field("commitment").as_deref(), Some(commitment.as_str()));
    let contributions: Vec<String> = serde_json::from_value(record["contributions"].clone()).expect("contributions");
    assert_eq!(contributions.len(), 2);
    assert_eq!(contributions[0], ana_value);
    assert_eq!(contributions[1] == bo_value, bo_contributes, "{contributions:?}");
    let fields = ProofFields {
        seed: Some(seed.clone()),
        salt: Some(salt.clone()),
        commitment: Some(commitment.clone()),
        server_seed: Some(server_seed.clone()),
        contributions: Some(contributions.clone()),
    };
    assert!(ShuffleProof::from_fields(&fields).expect("the proof holds").is_some());
    let verify = |text: &str| -> Result<(), String> {
        match game {
            "romi-rami" => {
                let record: romirami_engine::Record = serde_json::from_str(text).expect("a romirami-record/1");
                record.verify().map(|_| ()).map_err(|e| e.to_string())
            }
            _ => {
                let parsed = romirami_rummy::record::parse(text).expect("a rummy-record/1 document");
                romirami_rummy::record::verify(&parsed).map(|_| ()).map_err(|e| e.code().to_owned())
            }
        }
    };
    verify(&text).unwrap_or_else(|e| panic!("{game}: the record verifies: {e}"));
    let changed = |name: &str, value: Value| {
        let mut record = record.clone();
        record[name] = value;
        verify(&record.to_string()).expect_err(&format!("{game}: a changed `{name}` is refused"));
    };
    for seat in 0..2 {
        let mut values = contributions.clone();
        values[seat] = fresh_contribution();
        changed("contributions", json!(values));
    }
    changed("salt", json!(fresh_contribution()));
    changed("server_seed", json!((server_seed.parse::<u64>().expect("a u64") ^ 1).to_string()));
    // Nothing sent over the WebSocket held the seed or the salt.
    let seed_hex = format!("{:x}", seed.parse::<u64>().expect("a u64"));
    let server_seed_hex = format!("{:x}", server_seed.parse::<u64>().expect("a u64"));
    for text in host.texts.iter().chain(&watcher.texts).chain(&late.texts).chain(&bo.texts) {
        for secret in [&seed, &salt, &seed_hex, &server_seed, &server_seed_hex] {
            assert!(secret.len() < 6 || !text.contains(secret.as_str()), "{game}: a message holds {secret}: {text}");
        }
    }

    // Once nobody is at it, the finished table is answered from the store, with the commitment still.
    drop((host, watcher, late, bo));
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
    // Both players contribute: the server waits as long as it takes (well within its wait).
    let server = TestServer::start(config(Duration::from_secs(60))).await;
    check(&server, "romi-rami", json!({}), true).await;
    check(&server, "rommi", json!({ "target": 60 }), true).await;
    server.shutdown().await;
    // Bo sends nothing: after its wait the server draws his contribution, and says so.
    let server = TestServer::start(config(Duration::from_secs(2))).await;
    check(&server, "rommi", json!({ "target": 60 }), false).await;
    server.shutdown().await;
}
