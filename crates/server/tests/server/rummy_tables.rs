//! The rummy family at real tables: a match of each game — Rommi, Rami, Rumino — is played to its end
//! by the server's bots through the real server on SQLite and on PostgreSQL, watched by a spectator,
//! listed by the REST API with its game, and served as a `rummy-record/1` record that verifies. The
//! spectator is never sent a hand, and no message holds the match's seed.

use crate::common;
use crate::json_ws;

use std::time::Duration;

use common::{PgDatabase, TestServer, fast, http_get, http_get_stored};
use json_ws::JsonWs;
use romirami_server::config::Config;
use romirami_server::store::Store;
use serde_json::{Value, json};

/// Fast tables: bots without a pause, a short pause between rounds.
fn config() -> Config {
    Config { bot_delay: Duration::from_millis(1), round_pause: Duration::from_millis(20), ..fast() }
}

/// Plays one match of `game` with `options` at a table of `seats` on `server`; returns its id and the
/// texts the spectator received.
async fn play(server: &TestServer, game: &str, options: Value, seats: u8) -> (String, Vec<String>) {
    let mut host = JsonWs::guest(&server.url, "Ana").await;
    // The host runs out of time at once, and the bot stands in for them for the rest of the match.
    host.send(json!({ "type": "create_table", "seats": seats, "public": true, "spectators": "everyone",
                      "clock": { "turn_ms": 100, "reserve_ms": 0 }, "game": game, "options": &options }))
        .await;
    let created = host.wait_for_type("table_created", Duration::from_secs(10)).await;
    assert_eq!(created["table"]["game"], game, "{created}");
    // The summary says how the game is played: the options given, the game's defaults around them.
    for (key, value) in options.as_object().expect("options are an object") {
        assert_eq!(&created["table"]["options"][key], value, "{game}: the summary's options hold {key}: {created}");
    }
    if game == "rommi" {
        assert_eq!(created["table"]["options"]["variant"], "basic", "rommi §2's default variant: {created}");
    }
    let id = created["table"]["id"].as_str().expect("an id").to_owned();
    let mut watcher = JsonWs::guest(&server.url, "Cleo").await;
    watcher.send(json!({ "type": "watch", "table": id })).await;
    for _ in 1..seats {
        host.send(json!({ "type": "add_bot", "table": id })).await;
    }
    let over = host.wait_for_type("game_over", Duration::from_secs(60)).await;
    assert_eq!(over["table"], id.as_str());
    watcher.wait_for_type("game_over", Duration::from_secs(10)).await;
    (id, watcher.texts)
}

async fn every_game(server: &TestServer) -> Vec<String> {
    let mut played = Vec::new();
    for (game, options, seats) in [
        ("rommi", json!({ "target": 60 }), 3),
        ("rami", json!({ "match_end": { "rounds": 2 } }), 4),
        ("rumino", json!({ "max_rebuys": 1 }), 3),
    ] {
        let (id, spectator) = play(server, game, options.clone(), seats).await;
        for text in &spectator {
            let msg: Value = serde_json::from_str(text).expect("JSON");
            if let Some(view) = msg.get("view") {
                assert!(view.get("hand").is_none_or(Value::is_null), "{game}: a spectator was sent a hand: {text}");
            }
        }
        // Served over REST as any game is, with a record that verifies.
        let url = format!("{}/api/games/{id}", server.http());
        let answer = http_get_stored(&url).await;
        assert_eq!(answer.status, 200, "{game}: {}", answer.body);
        let summary: Value = serde_json::from_str(&answer.body).expect("JSON");
        assert_eq!(summary["game"], game);
        // The options the table was created with, as the game wrote them in full.
        for (name, value) in options.as_object().expect("an object") {
            assert_eq!(&summary["options"][name], value, "{game}: its options are told: {summary}");
        }
        assert_ne!(summary["ended_by"], "abandoned", "{game}: played to the rule book's end: {summary}");
        let record = http_get(&format!("{url}/record"), "application/json").await;
        let parsed = romirami_rummy::record::parse(&record.body).expect("a rummy-record/1 document");
        romirami_rummy::record::verify(&parsed).unwrap_or_else(|e| panic!("{game}: the record verifies: {e}"));
        let listed = http_get(&format!("{}/api/games?game={game}", server.http()), "application/json").await;
        assert!(listed.body.contains(&id), "{game}: listed by its game: {}", listed.body);
        played.push(spectator.join("\n"));
    }
    played
}

/// No message holds a seed of the store, in any of its written forms.
fn assert_no_seed(texts: &[String], seeds: &[i64]) {
    for seed in seeds {
        let unsigned = u64::from_ne_bytes(seed.to_ne_bytes());
        for form in [seed.to_string(), unsigned.to_string(), format!("{unsigned:x}")] {
            assert!(texts.iter().all(|t| form.len() < 6 || !t.contains(&form)), "a message holds a seed");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rummy_game_plays_to_its_end_on_sqlite() {
    let server = TestServer::start(config()).await;
    let texts = every_game(&server).await;
    let Store::Sqlite(sqlite) = &server.state.store else { panic!("the test server uses SQLite") };
    let seeds: Vec<i64> = sqlx::query_scalar("SELECT seed FROM games").fetch_all(sqlite.pool()).await.expect("seeds");
    assert_eq!(seeds.len(), 3);
    assert_no_seed(&texts, &seeds);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rummy_game_plays_to_its_end_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    let store = Store::connect(&database.url).await.expect("PostgreSQL answers");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config(), store).await;
    every_game(&server).await;
    server.shutdown().await;
    database.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_clients_play_whole_matches_of_every_rummy_game() {
    let server = TestServer::start(config()).await;
    for (game, options, players) in [
        ("rommi", json!({ "target": 60 }), 2),
        ("rami", json!({ "match_end": { "rounds": 1 } }), 3),
        ("rumino", json!({ "max_rebuys": 0 }), 2),
    ] {
        let played = romirami_client::family::play_match(&server.url, game, Some(options), players, "b")
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        assert!(played.actions > 0, "{game}");
        let url = format!("{}/api/games/{}", server.http(), played.table);
        let answer = http_get_stored(&url).await;
        let summary: Value = serde_json::from_str(&answer.body).expect("JSON");
        assert_ne!(summary["ended_by"], "abandoned", "{game}: {summary}");
        let record = http_get(&format!("{url}/record"), "application/json").await;
        let parsed = romirami_rummy::record::parse(&record.body).expect("a rummy-record/1 document");
        romirami_rummy::record::verify(&parsed).unwrap_or_else(|e| panic!("{game}: the record verifies: {e}"));
    }
    server.shutdown().await;
}
