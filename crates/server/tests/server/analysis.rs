//! A finished game step by step (`GET /api/games/{id}/replay`) and the analysis of a seat
//! (`GET /api/games/{id}/analysis?seat=N`), for each of the four games: finished games are stored as a
//! table stores them, then asked for over HTTP. The replay's steps are the record's actions in order; the
//! analysis is queued, runs, is served with the seat's own actions in order, and is kept.

use crate::common;

use std::time::Duration;

use common::{TestServer, fast, http_get};
use romirami_game::{RecordMeta, Seat};
use romirami_server::protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::{FinishedGame, GamePlayer, Store, TableRow};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

const JSON: &str = "application/json";

/// Plays a game of `name` for two with the normal bots for at most `actions` actions (abandoned there), and
/// stores it as a finished table; returns its id and its record.
async fn finished(
    store: &Store,
    games: &romirami_game::Games,
    name: &str,
    seed: u64,
    actions: usize,
) -> (TableId, Value) {
    let kind = games.get(name).expect("a game of the server");
    let options = kind.options(None, 2).expect("the default options");
    let mut game = kind.new_game(2, seed, &options).expect("a new game");
    let id = TableId(Uuid::new_v4());
    let players: Vec<GamePlayer> = (0..2u8)
        .map(|seat| GamePlayer { seat: Seat(seat), id: PlayerId(Uuid::new_v4()), name: format!("P{seat}"), bot: false })
        .collect();
    for player in &players {
        let info = PlayerInfo { id: player.id, name: player.name.clone() };
        store
            .save_player(&info, player.id.0.as_bytes().repeat(2).as_slice().try_into().expect("32 bytes"))
            .await
            .expect("a player");
    }
    let row = TableRow {
        id,
        game: name.into(),
        host: players[0].id,
        seats: 2,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: OffsetDateTime::now_utc(),
        invite: "key".into(),
        clock: None,
        options: options.get().to_owned(),
        rated: false,
        tournament: None,
    };
    store.create_table(&row).await.expect("a table");
    let started_at = OffsetDateTime::now_utc();
    store.start_game(id, seed, None, &players, started_at).await.expect("started");
    for _ in 0..actions {
        let Some(seat) = game.to_act() else { break };
        let action = game.bot(seat).expect("the bot moves");
        game.play(seat, &action).expect("legal");
    }
    if !game.is_over() {
        game.abandon();
    }
    let names = players.iter().map(|p| p.name.clone()).collect();
    let meta = RecordMeta { id: id.0, started_at, finished_at: OffsetDateTime::now_utc(), names, shuffle: None };
    let record = game.record(meta).expect("a record").get().to_owned();
    let outcome = game.outcome().expect("over");
    store.finish_game(id, &FinishedGame { record: record.clone(), outcome }).await.expect("finished");
    (id, serde_json::from_str(&record).expect("JSON"))
}

/// The record's entries that are a seat's actions, in order (not a reshuffle, nor a player going out).
fn actions(record: &Value) -> Vec<Value> {
    let entries: Vec<Value> = match record["rounds"].as_array() {
        Some(rounds) => rounds.iter().flat_map(|r| r["log"].as_array().expect("a log").clone()).collect(),
        None => record["log"].as_array().expect("a log").clone(),
    };
    let automatic = ["out", "reshuffle", "rumino", "shuffle"];
    entries.into_iter().filter(|e| automatic.iter().all(|key| e.get(key).is_none())).collect()
}

async fn get(server: &TestServer, path: &str) -> common::HttpAnswer {
    http_get(&format!("{}{path}", server.http()), JSON).await
}

async fn replay_and_analyse(server: &TestServer, name: &str, seed: u64) {
    let store = &server.state.store;
    let (id, record) = finished(store, &server.state.config.games, name, seed, 60).await;
    let moves = actions(&record);

    let replay = get(server, &format!("/api/games/{}/replay", id.0)).await;
    assert_eq!(replay.status, 200, "{name}: {}", replay.body);
    let replay = replay.json();
    assert_eq!(replay["game"], name);
    let steps = replay["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), moves.len() + 1, "{name}: the deal and one step per action");
    let entries: Vec<Value> = steps[1..].iter().map(|s| s["entry"].clone()).collect();
    assert_eq!(entries, moves, "{name}: the steps are the record's actions");
    assert!(steps.iter().all(|s| s["hands"].as_array().is_some_and(|h| h.len() == 2)), "{name}: two hands");

    let path = format!("/api/games/{}/analysis?seat=1", id.0);
    let first = get(server, &path).await;
    assert_eq!(first.status, 202, "{name}: queued at first: {}", first.body);
    assert!(matches!(first.json()["state"].as_str(), Some("queued" | "running")), "{}", first.body);
    let mut answer = first;
    for _ in 0..1200 {
        if answer.status == 200 {
            break;
        }
        assert_eq!(answer.status, 202, "{name}: {}", answer.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
        answer = get(server, &path).await;
    }
    assert_eq!(answer.status, 200, "{name}: done within a minute: {}", answer.body);
    let analysis = answer.json();
    assert_eq!((analysis["game"].as_str(), analysis["seat"].as_u64()), (Some(name), Some(1)));
    assert_eq!((analysis["state"].as_str(), analysis["progress"].as_f64()), (Some("done"), Some(1.0)));
    let decisions = analysis["decisions"].as_array().expect("decisions");
    assert!(!decisions.is_empty(), "{name}: seat 1 had choices");
    let own: Vec<&Value> = moves.iter().filter(|m| m["seat"] == 1).collect();
    let mut rest = own.into_iter();
    for decision in decisions {
        assert!(rest.any(|m| *m == decision["played"]), "{name}: {} is seat 1's next action", decision["played"]);
        assert!(matches!(decision["class"].as_str(), Some("good" | "inaccuracy" | "mistake" | "blunder")));
        assert_eq!(decision["best"]["seat"], 1, "{name}: {}", decision["best"]);
    }
    assert_eq!(analysis["summary"]["decisions"].as_u64(), Some(decisions.len() as u64));
    // Kept: the next request is answered from the store, the same.
    let again = get(server, &path).await;
    assert_eq!((again.status, again.json()), (200, analysis), "{name}: kept");
    let kept = store.analysis(id, Seat(1)).await.expect("read");
    assert!(kept.is_some(), "{name}: in the store");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_replays_step_by_step_and_is_analysed_from_the_seats_view() {
    let server = TestServer::start(romirami_server::config::Config { analysis_playouts: 8, ..fast() }).await;
    for (name, seed) in [("romi-rami", 1), ("rommi", 2), ("rami", 3), ("rumino", 4)] {
        replay_and_analyse(&server, name, seed).await;
    }
    let unknown = Uuid::new_v4();
    for (path, status, code) in [
        (format!("/api/games/{unknown}/replay"), 404, "not_found"),
        (format!("/api/games/{unknown}/analysis?seat=0"), 404, "not_found"),
        ("/api/games/nope/replay".to_owned(), 400, "bad_parameter"),
        (format!("/api/games/{unknown}/replay?x=1"), 400, "unknown_parameter"),
        (format!("/api/games/{unknown}/analysis"), 400, "bad_parameter"),
        (format!("/api/games/{unknown}/analysis?seat=x"), 400, "bad_parameter"),
        (format!("/api/games/{unknown}/analysis?seat=0&seat=1"), 400, "bad_parameter"),
    ] {
        let answer = get(&server, &path).await;
        assert_eq!((answer.status, answer.error_code().as_str()), (status, code), "{path}: {}", answer.body);
    }
    // A seat the game does not have.
    let (id, _) = finished(&server.state.store, &server.state.config.games, "rommi", 9, 4).await;
    let answer = get(&server, &format!("/api/games/{}/analysis?seat=2", id.0)).await;
    assert_eq!((answer.status, answer.error_code().as_str()), (400, "bad_parameter"), "{}", answer.body);
    server.shutdown().await;
}
