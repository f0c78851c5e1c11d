//! Hidden information stays hidden for the rummy family too (rommi §11, rami §11, rumino §10): over a
//! match of each of Rommi, Rami and Rumino, a person against the server's bots and a spectator watching,
//! through a real server,
//! - no message to the person shows another seat's hand or drawn card, and none to the spectator shows
//!   any hand or drawn card, until the round's end shows every hand;
//! - no message to either holds the stock's order or a deck before the match is over, nor the seed;
//! - no log line (at `debug`) holds a card or a seed;
//! - no REST answer about the live match holds a card, and its record is not served before the end;
//! - the served page holds no seed.
//!
//! Romi Rami's side is `hidden_information.rs`; the games' own property tests check their views and
//! events over many matches.

use crate::common;
use crate::json_ws;

use std::time::Duration;

use common::{TestServer, fast, http_get};
use json_ws::JsonWs;
use romirami_client::family::choose;
use romirami_server::config::Config;
use romirami_server::store::Store;
use serde_json::{Value, json};

/// The rummy card codes (`Ac`, `10h`, `Qs`, ...) found in `text` as words of their own.
fn card_codes(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| {
            let (rank, suit) = word.split_at(word.len().saturating_sub(1));
            matches!(suit, "c" | "d" | "h" | "s")
                && matches!(rank, "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K")
        })
        .collect()
}

#[test]
fn rummy_card_codes_are_found_as_words_only() {
    assert_eq!(card_codes(r#"["Ac","10h"] drew Qs."#), ["Ac", "10h", "Qs"]);
    assert!(card_codes("4c1d-9cab 1c 11h Acx a9h").is_empty());
}

/// What a member must never be shown, checked in each message: `own` is the member's seat (none for a
/// spectator). Returns whether the message is the `game_over`.
fn check_message(text: &str, own: Option<u64>, game: &str) -> bool {
    let msg: Value = serde_json::from_str(text).expect("JSON");
    if msg["type"] == "game_over" {
        return true;
    }
    if let Some(view) = msg.get("view").filter(|v| !v.is_null()) {
        if own.is_none() {
            assert!(view["hand"].is_null(), "{game}: a spectator is shown a hand: {text}");
        }
        assert!(view.get("decks").is_none_or(Value::is_null), "{game}: decks shown before the end: {text}");
        assert!(view["stock"].is_number(), "{game}: the stock is shown as more than its size: {text}");
    }
    for event in msg["events"].as_array().into_iter().flatten().map(|e| &e["event"]) {
        let seat = event["seat"].as_u64();
        let someone_elses = seat.is_some() && seat != own;
        match event["type"].as_str() {
            // A card drawn from the stock: its drawer's alone (rommi §11, rami §11, rumino §10).
            Some("drew") if someone_elses || own.is_none() => {
                assert!(event["card"].is_null(), "{game}: another's drawn card: {text}")
            }
            // A deal: one's own hand only.
            Some("dealt") if someone_elses || own.is_none() => {
                assert!(event["cards"].is_null() && event["hand"].is_null(), "{game}: another's hand: {text}")
            }
            Some("round_started") if own.is_none() => {
                assert!(event["hand"].is_null(), "{game}: a spectator is dealt a hand: {text}")
            }
            _ => {}
        }
        assert!(!event["stock"].is_array(), "{game}: the stock's order: {text}");
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_log_line_or_rest_answer_of_a_rummy_match_holds_hidden_information() {
    // Alone in the process while it reads every log line, at `debug` as an operator would run it.
    let _alone = crate::ALONE.lock().await;
    let captured = romirami_testlog::Everything::start(tracing::Level::DEBUG);
    let config = Config { bot_delay: Duration::from_millis(1), round_pause: Duration::from_millis(20), ..fast() };
    let server = TestServer::start(config).await;
    let (mut texts, mut rest) = (Vec::new(), Vec::new());
    for (game, options) in [
        ("rommi", json!({ "target": 60 })),
        ("rami", json!({ "match_end": { "rounds": 2 } })),
        ("rumino", json!({ "max_rebuys": 1 })),
    ] {
        let mut ana = JsonWs::guest(&server.url, "Ana").await;
        ana.send(json!({ "type": "create_table", "seats": 3, "public": true, "spectators": "everyone",
                         "game": game, "options": options }))
            .await;
        let created = ana.wait_for_type("table_created", Duration::from_secs(10)).await;
        let table = created["table"]["id"].as_str().expect("an id").to_owned();
        let mut cleo = JsonWs::guest(&server.url, "Cleo").await;
        cleo.send(json!({ "type": "watch", "table": table })).await;
        for _ in 0..2 {
            ana.send(json!({ "type": "add_bot", "table": table })).await;
        }
        // Ana plays her seat (0) and reads everything; Cleo watches; the REST API is asked meanwhile.
        let ana_plays = async {
            let mut id = 0;
            loop {
                let msg = ana.recv_within(Duration::from_secs(60)).await;
                let text = ana.texts.last().expect("kept").clone();
                if check_message(&text, Some(0), game) {
                    break;
                }
                if msg["type"] == "your_turn" {
                    id += 1;
                    let action = choose(msg["legal"].as_array().expect("a list")).expect("a move");
                    ana.send(json!({ "type": "act", "table": table, "id": id, "action": action })).await;
                }
            }
        };
        let cleo_watches = async {
            loop {
                cleo.recv_within(Duration::from_secs(60)).await;
                if check_message(cleo.texts.last().expect("kept"), None, game) {
                    break;
                }
            }
        };
        let live = async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let game_url = format!("{}/api/games/{table}", server.http());
            let answers = [
                http_get(&format!("{}/api/tables", server.http()), "application/json").await,
                http_get(&game_url, "application/json").await,
                http_get(&format!("{game_url}/record"), "application/json").await,
                http_get(&format!("{}/", server.http()), "text/html").await,
            ];
            assert!(answers[0].body.contains(&table), "{game}: the match is live: {}", answers[0].body);
            assert_ne!(answers[2].status, 200, "{game}: no record of a live match: {}", answers[2].body);
            assert_eq!(answers[3].status, 200, "the page is served");
            answers.into_iter().map(|a| a.body).collect::<Vec<_>>()
        };
        let ((), (), answers) = tokio::join!(ana_plays, cleo_watches, live);
        for body in &answers[..3] {
            assert!(card_codes(body).is_empty(), "{game}: a REST answer about a live match holds cards: {body}");
        }
        rest.extend(answers);
        texts.extend(ana.texts.iter().chain(&cleo.texts).cloned());
    }
    let Store::Sqlite(sqlite) = &server.state.store else { panic!("the test server uses SQLite") };
    let seeds: Vec<i64> = sqlx::query_scalar("SELECT seed FROM games").fetch_all(sqlite.pool()).await.expect("seeds");
    assert_eq!(seeds.len(), 3);
    server.shutdown().await;

    let log = captured.text();
    assert!(log.lines().count() > 0, "the server logged something at debug");
    for line in log.lines() {
        assert!(card_codes(line).is_empty(), "a log line holds cards: {line}");
    }
    // The seed, in any of its written forms, is in no message, log line, REST answer or page.
    for seed in &seeds {
        let unsigned = u64::from_ne_bytes(seed.to_ne_bytes());
        for form in [seed.to_string(), unsigned.to_string(), format!("{unsigned:x}")] {
            let leak = texts.iter().chain(&rest).chain(std::iter::once(&log)).find(|t| t.contains(&form));
            assert!(form.len() < 6 || leak.is_none(), "the seed {form} is in {leak:?}");
        }
    }
    println!(
        "3 matches: {} messages, {} log lines and {} REST answers inspected: no hidden card, deck or seed",
        texts.len(),
        log.lines().count(),
        rest.len()
    );
}
