//! Issue 38's Swiss, as a user runs it: `romirami serve`; a player who keeps their name creates a Swiss
//! tournament of 8 over 3 rounds of two-player Romi Rami over REST; `romirami bots --tournament` fills it
//! and plays it out; every player sat once a round, no pair met twice, and `romirami verify` passes every
//! game's record.

use std::collections::HashSet;

use romirami_client::Client;
use romirami_client::tournament::post;
use serde_json::{Value, json};

use crate::common::{romirami, serve};

fn get(url: &str) -> String {
    ureq::get(url).call().expect("served").body_mut().read_to_string().expect("text")
}

#[test]
fn romirami_bots_fills_a_swiss_tournament_and_plays_it_out() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = format!("sqlite://{}", dir.path().join("games.db").display());
    let (mut server, address) = serve(&database, &["--tournament-round-pause-ms", "100", "--bot-delay-ms", "1"]);
    let http = format!("http://{address}");

    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let id = runtime.block_on(async {
        let (_client, _, token) = Client::guest(&format!("ws://{address}/ws"), "Host Hanna").await.expect("welcomed");
        let (status, claimed) =
            post(&http, "/api/players/claim", &token, Some(json!({ "password": "a good password" })))
                .await
                .expect("claims");
        assert_eq!(status, 200, "{claimed}");
        let body = json!({
            "game": "romi-rami", "format": "swiss", "seats": 2, "rounds": 3,
            "clock": { "turn_ms": 30_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 8
        });
        let (status, created) = post(&http, "/api/tournaments", &token, Some(body)).await.expect("creates");
        assert_eq!(status, 201, "{created}");
        created["id"].as_str().expect("an id").to_owned()
    });

    let bots = romirami()
        .args(["bots", "--server", &http, "--tournament", &id, "--players", "8"])
        .output()
        .expect("the bots run");
    let report = String::from_utf8_lossy(&bots.stdout);
    assert!(bots.status.success(), "bots failed: {report}");
    assert!(report.contains("the tournament is finished"), "{report}");

    let view: Value = serde_json::from_str(&get(&format!("{http}/api/tournaments/{id}"))).expect("JSON");
    assert_eq!(view["state"], "finished");
    let rounds = view["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3);
    let records = dir.path().join("records");
    std::fs::create_dir(&records).expect("a directory");
    let mut pairs = HashSet::new();
    for round in rounds {
        let tables = round["tables"].as_array().expect("tables");
        let seated: HashSet<&str> =
            tables.iter().flat_map(|t| t["seats"].as_array().expect("seats")).filter_map(Value::as_str).collect();
        assert_eq!(seated.len(), 8, "everyone once a round");
        for table in tables {
            let mut pair: Vec<&str> =
                table["seats"].as_array().expect("seats").iter().filter_map(Value::as_str).collect();
            pair.sort_unstable();
            assert!(pairs.insert(pair.join(",")), "a pair met twice");
            let table = table["table"].as_str().expect("an id");
            let record = get(&format!("{http}/api/games/{table}/record"));
            std::fs::write(records.join(format!("{table}.json")), record).expect("written");
        }
    }
    let verified = romirami().arg("verify").arg(&records).output().expect("verify runs");
    let report = String::from_utf8_lossy(&verified.stdout);
    assert!(verified.status.success(), "{report}");
    assert_eq!(report, "12 records, 12 valid, 0 invalid\n");
    server.kill().expect("stops");
    let _ = server.wait();
}
