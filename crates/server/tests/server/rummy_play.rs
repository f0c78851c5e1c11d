//! The rummy family's play at a real table, a person against the server's bots: taking back a take from
//! the discard pile (Rommi, Rumino; `docs/protocol.md`, "Taking back in the rummy family"), and a server
//! that stops in the middle of a round and another that takes over on the same database (SQLite and
//! PostgreSQL), which brings the round back exactly as it stood and plays the match to its end, the
//! record verifying.

use crate::common;
use crate::json_ws;

use std::time::Duration;

use common::{PgDatabase, TestServer, fast, http_get, http_get_stored};
use json_ws::JsonWs;
use romirami_client::family::choose;
use romirami_server::config::Config;
use romirami_server::store::Store;
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// Bots without a pause, a short pause between rounds.
fn config() -> Config {
    Config { bot_delay: Duration::from_millis(1), round_pause: Duration::from_millis(20), ..fast() }
}

/// A person's connection to one table, numbering its actions.
struct Player {
    ws: JsonWs,
    table: String,
    next_id: u64,
}

impl Player {
    /// Opens a table of `game` for `seats` on `ws`, the rest of the seats the server's bots: the host.
    async fn host(mut ws: JsonWs, game: &str, options: Value, seats: u8, clock: Option<Value>) -> Player {
        ws.send(json!({ "type": "create_table", "seats": seats, "public": true, "spectators": "everyone",
                        "clock": clock, "game": game, "options": options }))
            .await;
        let created = ws.wait_for_type("table_created", Duration::from_secs(10)).await;
        let table = created["table"]["id"].as_str().expect("an id").to_owned();
        for _ in 1..seats {
            ws.send(json!({ "type": "add_bot", "table": table })).await;
        }
        Player { ws, table, next_id: 1 }
    }

    /// Sends `action`; returns the `events` that came with it and the `ack`'s event count.
    async fn act(&mut self, action: &Value) -> (Vec<Value>, u64) {
        let id = self.next_id;
        self.next_id += 1;
        self.ws.send(json!({ "type": "act", "table": self.table, "id": id, "action": action })).await;
        let mut events = Vec::new();
        loop {
            let msg = self.ws.recv().await;
            match msg["type"].as_str() {
                Some("events") => events.extend(msg["events"].as_array().into_iter().flatten().cloned()),
                Some("ack") if msg["id"] == id => return (events, msg["events"].as_u64().expect("a count")),
                Some("error") => panic!("{action} refused: {msg}"),
                _ => {}
            }
        }
    }

    /// The legal actions of the next `your_turn`, or `None` once the game is over.
    async fn turn(&mut self) -> Option<Vec<Value>> {
        loop {
            let msg = self.ws.recv_within(Duration::from_secs(60)).await;
            match msg["type"].as_str() {
                Some("your_turn") => return Some(msg["legal"].as_array().expect("a list").clone()),
                Some("game_over") => return None,
                _ => {}
            }
        }
    }

    /// The seat's view as a fresh `join` tells it.
    async fn view(&mut self) -> Value {
        self.ws.send(json!({ "type": "join", "table": self.table })).await;
        loop {
            let msg = self.ws.recv().await;
            if msg["type"] == "table" && !msg["view"].is_null() {
                return msg["view"].clone();
            }
        }
    }
}

fn kind(action: &Value) -> &str {
    action["type"].as_str().or_else(|| action.as_str()).unwrap_or("")
}

/// The stored match: played to its rule book's end, with a record that verifies.
async fn stored_and_verified(server: &TestServer, table: &str, game: &str) {
    let url = format!("{}/api/games/{table}", server.http());
    let answer = http_get_stored(&url).await;
    assert_eq!(answer.status, 200, "{game}: {}", answer.body);
    let summary: Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_ne!(summary["ended_by"], "abandoned", "{game}: played to its end: {summary}");
    let record = http_get(&format!("{url}/record"), "application/json").await;
    let parsed = romirami_rummy::record::parse(&record.body).expect("a rummy-record/1 document");
    romirami_rummy::record::verify(&parsed).unwrap_or_else(|e| panic!("{game}: the record verifies: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_from_the_pile_is_taken_back_at_a_real_table() {
    let server = TestServer::start(config()).await;
    for (game, options) in [("rommi", json!({ "target": 60 })), ("rumino", json!({ "max_rebuys": 0 }))] {
        // Three seconds for the first turn; then the host is out of time and the bot finishes the match.
        let clock = json!({ "turn_ms": 3000, "reserve_ms": 0 });
        let mut ana = Player::host(JsonWs::guest(&server.url, "Ana").await, game, options, 2, Some(clock)).await;
        let mut cleo = JsonWs::guest(&server.url, "Cleo").await;
        cleo.send(json!({ "type": "watch", "table": ana.table })).await;
        // Cleo watches before Ana moves: her `watch` and Ana's moves come on two connections, in no set order
        // (on a loaded machine the take-back could come first, and Cleo would wait for it for ever).
        while !cleo.texts.iter().any(|t| t.contains("\"type\":\"table\"")) {
            cleo.recv().await;
        }
        let legal = ana.turn().await.expect("a turn");
        assert!(legal.iter().all(|a| kind(a) != "take_back"), "{game}: nothing to take back at a turn's start");
        let before = ana.view().await;
        assert_eq!(before["can_take_back"], false);
        let take = legal.iter().find(|a| kind(a) == "take").expect("rommi §6.1 b, rumino §6 c: a take").clone();
        ana.act(&take).await;
        let legal = ana.turn().await.expect("the turn goes on");
        let take_back = legal.iter().find(|a| kind(a) == "take_back").expect("the take may be taken back").clone();
        assert_eq!(take_back, json!({ "type": "take_back" }));
        assert_eq!(ana.view().await["can_take_back"], true);
        let (events, _) = ana.act(&take_back).await;
        let told = events.iter().map(|e| &e["event"]).find(|e| e["type"] == "took_back").expect("a took_back event");
        assert_eq!(told["action"], take, "{game}: {told}");
        let after = ana.view().await;
        // The event count goes on (the took_back event is a new one); everything else is as it was.
        assert!(after["event_count"].as_u64() > before["event_count"].as_u64(), "{game}: {after}");
        let without_count = |mut view: Value| {
            view.as_object_mut().expect("a view is an object").remove("event_count");
            view
        };
        assert_eq!(without_count(after), without_count(before), "{game}: the table is as it was before the take");
        // The spectator is told too.
        while !cleo.texts.iter().any(|t| t.contains("took_back")) {
            cleo.recv().await;
        }
        drop(cleo);
        // The match goes on to its end, the take-back in the stored log and the record verifying.
        while ana.turn().await.is_some() {}
        stored_and_verified(&server, &ana.table, game).await;
    }
    server.shutdown().await;
}

/// One match of each game, a restart in its first round: the seat's view before and after is the same,
/// and the match is played to its end by the person and the bots.
async fn a_round_survives_a_restart(url: &str) {
    for (game, options, seats) in [
        ("rommi", json!({ "target": 60 }), 3),
        ("rami", json!({ "match_end": { "rounds": 2 } }), 3),
        ("rumino", json!({ "max_rebuys": 1 }), 3),
    ] {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let server = TestServer::start_with(listener, config(), Store::connect(url).await.expect("opens")).await;
        let (ws, welcome) = JsonWs::hello(&server.url, json!({ "type": "hello", "protocol": 1, "name": "Ana" })).await;
        let token = welcome["token"].as_str().expect("a token").to_owned();
        let mut ana = Player::host(ws, game, options, seats, None).await;
        let mut legal = ana.turn().await.expect("a turn");
        let round = |view: &Value| view.get("round").or_else(|| view.get("hand_number")).cloned();
        // Ana plays (a take taken back among her actions where the game offers one) until three of her
        // actions stand in the round in play: the restart comes in the middle of that round.
        let mut before = ana.view().await;
        let (mut in_round, mut steps) = (round(&before), 0);
        while steps < 3 {
            let take = legal.iter().find(|a| kind(a) == "take").filter(|_| steps == 0);
            let back = legal.iter().find(|a| kind(a) == "take_back");
            let action = take.or(back).cloned().unwrap_or_else(|| choose(&legal).expect("a move"));
            ana.act(&action).await;
            legal = ana.turn().await.expect("the match goes on");
            before = ana.view().await;
            steps = if round(&before) == in_round { steps + 1 } else { 0 };
            in_round = round(&before);
        }
        server.shutdown().await;

        // Another server on the same database: Ana comes back to the round as it stood.
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let server = TestServer::start_with(listener, config(), Store::connect(url).await.expect("opens")).await;
        let (ws, _) = JsonWs::hello(&server.url, json!({ "type": "hello", "protocol": 1, "token": token })).await;
        let mut ana = Player { ws, table: ana.table, next_id: 1 };
        assert_eq!(ana.view().await, before, "{game}: nothing of the round is lost");
        let mut legal = ana.turn().await.expect("the turn is Ana's still");
        loop {
            ana.act(&choose(&legal).expect("a move")).await;
            match ana.turn().await {
                Some(next) => legal = next,
                None => break,
            }
        }
        stored_and_verified(&server, &ana.table, game).await;
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_survives_a_restart_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    a_round_survives_a_restart(&format!("sqlite://{}", dir.path().join("games.db").display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_survives_a_restart_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    a_round_survives_a_restart(&database.url).await;
    database.drop_database().await;
}
