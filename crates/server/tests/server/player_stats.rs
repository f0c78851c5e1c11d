//! Players' statistics per game over REST (`GET /api/players/{id}`, its `by_game` and its `game`
//! filter), on each backend (SQLite always, PostgreSQL from `DATABASE_URL`, mandatory in CI): two guests
//! play two games of Romi Rami and one of Rommi against each other; each figure on their pages must be
//! what the games' own results (`GET /api/games/{id}`) add up to.

use crate::common;

use std::time::Duration;

use common::{HttpAnswer, TestServer, fast, http_get, http_get_stored};
use romirami_client::Client;
use romirami_client::{bots, family};
use romirami_server::config::Config;
use romirami_server::protocol::TableId;
use serde_json::{Value, json};

const JSON: &str = "application/json";

async fn get(server: &TestServer, path: &str) -> HttpAnswer {
    http_get(&format!("{}{path}", server.http()), JSON).await
}

async fn ok_json(server: &TestServer, path: &str) -> Value {
    let answer = get(server, path).await;
    assert_eq!(answer.status, 200, "GET {path}: {}", answer.body);
    answer.json()
}

/// Plays one game of `game` between the players of `tokens` (the first hosts; they sit in this order),
/// with the game's bots, and returns the finished game as the REST API serves it.
async fn play(server: &TestServer, tokens: &[&str], game: &str, options: Value) -> Value {
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::returning(&server.url, token).await.expect("welcomed back").0);
    }
    let players = tokens.len();
    clients[0]
        .send_json(&json!({ "type": "create_table", "seats": players, "game": game, "options": options }))
        .await
        .expect("sent");
    let (table, invite) = loop {
        let msg: Value = clients[0].recv_as(Duration::from_secs(10)).await.expect("a message");
        if msg["type"] == "table_created" {
            let id = uuid::Uuid::parse_str(msg["table"]["id"].as_str().expect("an id")).expect("a UUID");
            break (TableId(id), msg["invite"].as_str().expect("an invite").to_owned());
        }
    };
    for client in &mut clients[1..] {
        client.send_json(&json!({ "type": "join", "table": table.0, "invite": invite })).await.expect("sent");
        loop {
            let msg: Value = client.recv_as(Duration::from_secs(10)).await.expect("a message");
            assert_ne!(msg["type"], "error", "{msg}");
            if msg["type"] == "table" {
                break;
            }
        }
    }
    let romi_rami = game == "romi-rami";
    let seats: Vec<_> = clients
        .into_iter()
        .map(|mut c| {
            tokio::spawn(async move {
                if romi_rami {
                    bots::play_seat(&mut c, table).await.map(|_| ())
                } else {
                    family::play_seat(&mut c, table).await.map(|_| ())
                }
            })
        })
        .collect();
    for seat in seats {
        seat.await.expect("the seat's task").expect("the seat plays to the end");
    }
    let answer = http_get_stored(&format!("{}/api/games/{}", server.http(), table.0)).await;
    assert_eq!(answer.status, 200, "the game is stored: {}", answer.body);
    answer.json()
}

/// What `seat`'s results in `games` add up to: games, wins, places (counts from first), average score
/// and average place.
fn expected(games: &[&Value], seat: usize) -> (u64, u64, Vec<u64>, f64, f64) {
    let mut places = Vec::new();
    let (mut wins, mut score, mut place_sum) = (0, 0.0, 0.0);
    for game in games {
        let place = game["places"][seat].as_u64().expect("a place");
        let index = usize::try_from(place).expect("small") - 1;
        if places.len() <= index {
            places.resize(index + 1, 0);
        }
        places[index] += 1;
        wins += u64::from(game["winners"].as_array().expect("winners").contains(&json!(seat)));
        score += game["scores"][seat]["total"].as_f64().expect("a total");
        place_sum += place as f64;
    }
    let n = games.len() as f64;
    (games.len() as u64, wins, places, score / n, place_sum / n)
}

fn assert_game_stats(stats: &Value, games: &[&Value], seat: usize) {
    let (played, wins, places, average_score, average_place) = expected(games, seat);
    assert_eq!(stats["games_played"], played, "{stats}");
    assert_eq!(stats["wins"], wins, "{stats}");
    assert_eq!(stats["places"], json!(places), "{stats}");
    assert!((stats["average_score"].as_f64().expect("a number") - average_score).abs() < 1e-9, "{stats}");
    assert!((stats["average_place"].as_f64().expect("a number") - average_place).abs() < 1e-9, "{stats}");
}

fn ids(games: &Value) -> Vec<&str> {
    games.as_array().expect("games").iter().map(|g| g["id"].as_str().expect("an id")).collect()
}

async fn story(server: &TestServer) {
    let (_, ana, ana_token) = Client::guest(&server.url, "Ana").await.expect("welcomed");
    let (_, bo, bo_token) = Client::guest(&server.url, "Bo").await.expect("welcomed");
    let tokens = [ana_token.as_str(), bo_token.as_str()];
    let romi_1 = play(server, &tokens, "romi-rami", json!({})).await;
    let rommi = play(server, &tokens, "rommi", json!({ "target": 1 })).await;
    let romi_2 = play(server, &[&bo_token, &ana_token], "romi-rami", json!({})).await;

    // Ana sat first at the first two games and second at the third.
    let page = ok_json(server, &format!("/api/players/{}", ana.id)).await;
    let by_game = page["by_game"].as_array().expect("by_game");
    assert_eq!(by_game.iter().map(|g| g["game"].as_str().expect("a name")).collect::<Vec<_>>(), ["romi-rami", "rommi"]);
    let ana_romi = [(&romi_1, 0), (&romi_2, 1)];
    let (_, romi_wins, ..) = expected(&[&romi_1], 0);
    let (_, romi_2_wins, ..) = expected(&[&romi_2], 1);
    assert_eq!(by_game[0]["games_played"], 2);
    assert_eq!(by_game[0]["wins"], romi_wins + romi_2_wins);
    let places_sum: u64 = ana_romi.iter().map(|(g, s)| g["places"][*s].as_u64().expect("a place")).sum();
    assert!((by_game[0]["average_place"].as_f64().expect("a number") - places_sum as f64 / 2.0).abs() < 1e-9);
    assert_game_stats(&by_game[1], &[&rommi], 0);
    assert_eq!(page["games_played"], 3);
    let total: u64 = by_game.iter().map(|g| g["wins"].as_u64().expect("wins")).sum();
    assert_eq!(page["wins"], total);

    // Bo sat second at the first two games: his Romi Rami figures are the first game's and the third's.
    let bo_page = ok_json(server, &format!("/api/players/{}", bo.id)).await;
    assert_game_stats(&bo_page["by_game"][1], &[&rommi], 1);

    // The game filter: only Rommi's games, figures, and recent games.
    let only = ok_json(server, &format!("/api/players/{}?game=rommi", ana.id)).await;
    assert_eq!(only["games_played"], 1);
    assert_eq!(only["by_game"].as_array().map(Vec::len), Some(1));
    assert_game_stats(&only["by_game"][0], &[&rommi], 0);
    assert_eq!(ids(&only["recent"]), [rommi["id"].as_str().expect("an id")]);
    let romi_only = ok_json(server, &format!("/api/players/{}?game=romi-rami", bo.id)).await;
    assert_eq!(ids(&romi_only["recent"]), [romi_2["id"].as_str().expect("id"), romi_1["id"].as_str().expect("id")]);
    let none = ok_json(server, &format!("/api/players/{}?game=rumino", ana.id)).await;
    assert_eq!((none["games_played"].as_u64(), none["average_score"].is_null()), (Some(0), true));
    assert_eq!((none["by_game"].as_array().map(Vec::len), none["recent"].as_array().map(Vec::len)), (Some(0), Some(0)));

    // Bad filters.
    for (query, code) in [
        ("game=chess", "bad_parameter"),
        ("game=", "bad_parameter"),
        ("game=rommi&game=rami", "bad_parameter"),
        ("colour=red", "unknown_parameter"),
    ] {
        let answer = get(server, &format!("/api/players/{}?{query}", ana.id)).await;
        assert_eq!((answer.status, answer.error_code().as_str()), (400, code), "{query}: {}", answer.body);
    }
    let answer = get(server, "/api/players/42?game=rommi").await;
    assert_eq!((answer.status, answer.error_code().as_str()), (400, "bad_parameter"));

    // The OpenAPI document describes the filter and the figures.
    let doc = ok_json(server, "/api/openapi.json").await;
    let parameters = doc["paths"]["/api/players/{id}"]["get"]["parameters"].as_array().expect("parameters");
    assert!(parameters.iter().any(|p| p["name"] == "game" && p["in"] == "query"), "{parameters:?}");
    let schema = &doc["components"]["schemas"]["PlayerGameStats"]["properties"];
    for field in ["game", "games_played", "wins", "places", "average_score", "average_place"] {
        assert!(schema[field].is_object(), "{field} is documented");
    }
}

/// No pause between rounds: the bots do not need one.
fn config() -> Config {
    Config { round_pause: Duration::ZERO, ..fast() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statistics_per_game_on_sqlite() {
    let server = TestServer::start(config()).await;
    story(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statistics_per_game_on_postgres() {
    let Some((server, store, database)) = TestServer::start_on_postgres(config()).await else { return };
    story(&server).await;
    server.stop_on_postgres(store, database).await;
}
