//! Ratings through the server: named guests play a rated and a casual game over WebSockets, then the
//! REST API shows each game's rating changes, each player's ratings and the leaderboard, paged; and
//! every bad input of the new routes is a 400 or a 404 with its code, never a 5xx.

use crate::common;

use std::time::Duration;

use common::{TestServer, fast, http_get};
use romirami_client::Client;
use romirami_client::bots::play_table_rated;
use romirami_server::config::Config;
use romirami_server::protocol::{PlayerInfo, TableId};
use serde_json::Value;

const JSON: &str = "application/json";

async fn ok_json(server: &TestServer, path: &str) -> Value {
    let answer = http_get(&format!("{}{path}", server.http()), JSON).await;
    assert_eq!(answer.status, 200, "GET {path}: {}", answer.body);
    answer.json()
}

async fn bad(server: &TestServer, path: &str, status: u16, code: &str) {
    let answer = http_get(&format!("{}{path}", server.http()), JSON).await;
    assert_eq!((answer.status, answer.error_code().as_str()), (status, code), "GET {path}: {}", answer.body);
}

/// Plays a game between `players` (their tokens) at a rated or casual table; returns the stored game.
async fn play(server: &TestServer, tokens: &[&str], rated: Option<bool>) -> Value {
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::returning(&server.url, token).await.expect("welcomed back").0);
    }
    let game = play_table_rated(clients, rated).await.expect("the game is played to its end");
    stored(server, game.table).await
}

/// The finished game from the REST API, once the server has stored it.
async fn stored(server: &TestServer, table: TableId) -> Value {
    let url = format!("{}/api/games/{}", server.http(), table);
    for _ in 0..500 {
        let answer = http_get(&url, JSON).await;
        if answer.status == 200 {
            return answer.json();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {table} was not stored within 5 s");
}

/// A player's rating in Romi Rami and how many rated games it rests on.
async fn rating(server: &TestServer, player: &PlayerInfo) -> Option<(i64, u64)> {
    let page = ok_json(server, &format!("/api/players/{}/ratings", player.id)).await;
    assert_eq!(page["id"], player.id.to_string());
    page["ratings"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|r| r["game"] == "romi-rami")
        .map(|r| (r["rating"].as_i64().expect("a number"), r["games"].as_u64().expect("a count")))
}

#[tokio::test]
async fn rated_games_show_their_changes_and_the_leaderboard_pages() {
    let server = TestServer::start(Config { leaderboard_min_games: 2, ..fast() }).await;
    let mut guests = Vec::new();
    for name in ["Ana", "Ben", "Cy"] {
        let (client, player, token) = Client::guest(&server.url, name).await.expect("welcomed");
        client.close().await.ok();
        guests.push((player, token));
    }
    let [(ana, ana_token), (ben, ben_token), (cy, cy_token)] = &guests[..] else { unreachable!() };
    assert_eq!(rating(&server, ana).await, None, "no rating before a rated game");

    // A rated game (the default): every seat's rating before and after, and the players' ratings follow.
    let first = play(&server, &[ana_token, ben_token], None).await;
    assert_eq!(first["rated"], true, "{first}");
    assert!(first["unrated_because"].is_null(), "{first}");
    let changes = first["ratings"].as_array().expect("one per seat");
    assert_eq!(changes.len(), 2);
    for (i, player) in [ana, ben].iter().enumerate() {
        assert_eq!(changes[i]["before"], 1000, "{first}");
        let after = changes[i]["after"].as_i64().expect("a number");
        assert_eq!(rating(&server, player).await, Some((after, 1)));
        let won = first["winners"].as_array().expect("winners").iter().any(|w| w == i);
        let alone = first["winners"].as_array().expect("winners").len() == 1;
        if won && alone {
            assert!(after > 1000, "a sole winner gains: {first}");
        } else if alone {
            assert!(after < 1000, "the loser loses: {first}");
        }
    }

    // A casual game changes nothing.
    let casual = play(&server, &[ana_token, ben_token], Some(false)).await;
    assert_eq!(casual["rated"], false, "{casual}");
    assert_eq!(casual["unrated_because"], "casual", "the reason is told: {casual}");
    assert!(casual["ratings"].as_array().expect("one per seat").iter().all(Value::is_null), "{casual}");
    let after_first = first["ratings"][0]["after"].as_i64();
    assert_eq!(rating(&server, ana).await.map(|r| r.0), after_first, "a casual game leaves the rating");

    // With two rated games each, Ana, Ben and Cy are on the board (min 2); a page at a time.
    play(&server, &[ben_token, cy_token], Some(true)).await;
    play(&server, &[cy_token, ana_token], Some(true)).await;
    let board = ok_json(&server, "/api/leaderboard?game=romi-rami").await;
    assert_eq!(board["min_games"], 2);
    let players = board["players"].as_array().expect("a list");
    assert_eq!(players.len(), 3, "{board}");
    assert!(board["next"].is_null());
    let ratings: Vec<i64> = players.iter().map(|p| p["rating"].as_i64().expect("a number")).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "best first: {board}");
    for p in players {
        let id = p["id"].as_str().expect("an id");
        let who = [ana, ben, cy].into_iter().find(|g| g.id.to_string() == id).expect("one of ours");
        assert_eq!(p["name"], who.name.as_str());
        assert_eq!(rating(&server, who).await, Some((p["rating"].as_i64().expect("a number"), 2)));
    }
    let mut paged = Vec::new();
    let mut next = String::new();
    loop {
        let page = ok_json(&server, &format!("/api/leaderboard?game=romi-rami&limit=1{next}")).await;
        paged.extend(page["players"].as_array().expect("a list").iter().map(|p| p["id"].clone()));
        match page["next"].as_str() {
            Some(cursor) => next = format!("&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(paged, players.iter().map(|p| p["id"].clone()).collect::<Vec<_>>(), "the pages are the board");
    let rommi = ok_json(&server, "/api/leaderboard?game=rommi").await;
    assert_eq!(rommi["players"], serde_json::json!([]), "ratings are per game");

    // The OpenAPI document names the new routes.
    let doc = ok_json(&server, "/api/openapi.json").await;
    for path in ["/api/leaderboard", "/api/players/{id}/ratings"] {
        assert!(doc["paths"].get(path).is_some(), "{path} is documented");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn bad_ratings_requests_are_refused_with_their_codes() {
    let server = TestServer::start(fast()).await;
    for (path, status, code) in [
        ("/api/leaderboard", 400, "bad_parameter"),
        ("/api/leaderboard?game=chess", 400, "bad_parameter"),
        ("/api/leaderboard?game=", 400, "bad_parameter"),
        ("/api/leaderboard?game=rommi&game=rami", 400, "bad_parameter"),
        ("/api/leaderboard?game=rommi&limit=0", 400, "bad_parameter"),
        ("/api/leaderboard?game=rommi&limit=101", 400, "bad_parameter"),
        ("/api/leaderboard?game=rommi&cursor=nonsense", 400, "bad_parameter"),
        ("/api/leaderboard?game=rommi&cursor=7ff0000000000000_00000000000000000000000000000000", 400, "bad_parameter"),
        ("/api/leaderboard?game=rommi&colour=red", 400, "unknown_parameter"),
        ("/api/leaderboard?game=%ZZ", 400, "bad_parameter"),
        ("/api/players/42/ratings", 400, "bad_parameter"),
        ("/api/players/00000000-0000-0000-0000-000000000000/ratings", 404, "not_found"),
        ("/api/players/00000000-0000-0000-0000-000000000000/ratings?x=1", 400, "unknown_parameter"),
    ] {
        bad(&server, path, status, code).await;
    }
    server.shutdown().await;
}
