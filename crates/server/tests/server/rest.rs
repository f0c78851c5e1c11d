//! The persistence story through the server, told against each backend (SQLite always, PostgreSQL from
//! `DATABASE_URL`, mandatory in CI): guests play three games over WebSockets; the finished games are
//! then asked for every way the REST API allows (list, each filter, cursor paging, NDJSON, one game,
//! its record, a player's page, the live tables, health, the OpenAPI document, bad parameters), and
//! each record is replayed by `romirami verify`.

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use common::{HttpAnswer, PgDatabase, TestServer, fast, http_get};
use romirami_client::Client;
use romirami_client::bots::play_table;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::{GameResult, Record};
use romirami_server::protocol::{PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::Store;
use serde_json::Value;
use tokio::net::TcpListener;

const JSON: &str = "application/json";
const NDJSON: &str = "application/x-ndjson";

/// A guest that plays several games: its name, id and token.
struct Guest {
    player: PlayerInfo,
    token: String,
}

impl Guest {
    async fn new(server: &TestServer, name: &str) -> Guest {
        let (client, player, token) = Client::guest(&server.url, name).await.expect("welcomed");
        client.close().await.ok();
        Guest { player, token }
    }

    async fn connect(&self, server: &TestServer) -> Client {
        let (client, player) = Client::returning(&server.url, &self.token).await.expect("welcomed back");
        assert_eq!(player, self.player, "the token brings the same player back");
        client
    }
}

/// A game played through the server, as its players saw it end.
struct Played {
    id: TableId,
    result: GameResult,
    players: Vec<PlayerInfo>,
}

async fn play(server: &TestServer, guests: &[&Guest]) -> Played {
    let mut clients = Vec::new();
    for guest in guests {
        clients.push(guest.connect(server).await);
    }
    let game = play_table(clients).await.expect("the game is played to its end");
    // The result is stored in the background right after the game ends: wait for it.
    let url = format!("{}/api/games/{}", server.http(), game.table);
    for _ in 0..500 {
        if http_get(&url, JSON).await.status == 200 {
            return Played {
                id: game.table,
                result: game.result,
                players: guests.iter().map(|g| g.player.clone()).collect(),
            };
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {} was not stored within 5 s", game.table);
}

async fn get(server: &TestServer, path: &str) -> HttpAnswer {
    http_get(&format!("{}{path}", server.http()), JSON).await
}

async fn ok_json(server: &TestServer, path: &str) -> Value {
    let answer = get(server, path).await;
    assert_eq!(answer.status, 200, "GET {path}: {}", answer.body);
    assert!(answer.content_type.starts_with(JSON), "GET {path}: {}", answer.content_type);
    answer.json()
}

fn ids(games: &Value) -> Vec<String> {
    games.as_array().expect("a list of games").iter().map(|g| g["id"].as_str().expect("an id").to_owned()).collect()
}

async fn listed(server: &TestServer, query: &str) -> Vec<String> {
    let page = ok_json(server, &format!("/api/games?{query}")).await;
    assert!(page["next"].is_null(), "one page: {page}");
    ids(&page["games"])
}

async fn bad(server: &TestServer, path: &str, status: u16, code: &str) {
    let answer = get(server, path).await;
    assert_eq!((answer.status, answer.error_code().as_str()), (status, code), "GET {path}: {}", answer.body);
    assert!(answer.content_type.starts_with(JSON));
}

/// Checks one game as the API shows it against what its players saw.
fn check_game(json: &Value, played: &Played) {
    assert_eq!(json["id"], played.id.to_string());
    let seats = played.players.len();
    let players = json["players"].as_array().expect("players");
    assert_eq!(players.len(), seats);
    for (seat, (shown, player)) in players.iter().zip(&played.players).enumerate() {
        assert_eq!(shown["seat"], seat);
        assert_eq!(shown["id"], player.id.to_string());
        assert_eq!(shown["name"], player.name);
    }
    let scores = json["scores"].as_array().expect("scores");
    for (shown, score) in scores.iter().zip(&played.result.scores) {
        assert_eq!(shown["seat"], score.seat.0);
        for (field, value) in [
            ("total", score.total),
            ("contracts", score.contracts),
            ("trophies", score.trophies),
            ("suit_bonus", score.suit_bonus),
            ("star", score.star),
        ] {
            assert_eq!(shown[field], value, "{field} of seat {}", score.seat.0);
        }
    }
    let winners: Vec<u64> = played.result.winners.iter().map(|s| u64::from(s.0)).collect();
    let shown_winners: Vec<u64> =
        json["winners"].as_array().expect("winners").iter().filter_map(Value::as_u64).collect();
    assert_eq!(shown_winners, winners);
    let places = json["places"].as_array().expect("places");
    assert_eq!(places.len(), seats);
    for (seat, place) in places.iter().enumerate() {
        let better = played.result.scores.iter().filter(|s| {
            (s.total, s.suit_bonus) > (played.result.scores[seat].total, played.result.scores[seat].suit_bonus)
        });
        assert_eq!(place.as_u64(), Some(better.count() as u64 + 1));
    }
    assert!(json["ended_by"] == "contracts" || json["ended_by"] == "market", "{}", json["ended_by"]);
    assert_eq!(json["game"], "romi-rami", "the stored game names its game");
    for instant in ["started_at", "finished_at"] {
        let text = json[instant].as_str().expect("an instant");
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).expect("RFC 3339");
    }
}

async fn story(server: &TestServer) {
    let ana = Guest::new(server, "Ana").await;
    let ben = Guest::new(server, "Ben").await;
    let cy = Guest::new(server, "Cy").await;

    let first = play(server, &[&ana, &ben]).await;
    let second = play(server, &[&ana, &ben, &cy]).await;
    let third = play(server, &[&ben, &cy]).await;
    let by_id: HashMap<String, &Played> =
        [&first, &second, &third].into_iter().map(|p| (p.id.to_string(), p)).collect();
    let newest_first = vec![third.id.to_string(), second.id.to_string(), first.id.to_string()];

    // The list, newest first, each game as its players saw it.
    let page = ok_json(server, "/api/games").await;
    assert_eq!(ids(&page["games"]), newest_first);
    assert!(page["next"].is_null());
    for game in page["games"].as_array().expect("games") {
        check_game(game, by_id[game["id"].as_str().expect("id")]);
    }

    // Each filter.
    let ana_id = ana.player.id.to_string();
    assert_eq!(listed(server, &format!("player={ana_id}")).await, newest_first[1..]);
    assert_eq!(listed(server, "player=Ana").await, newest_first[1..]);
    assert_eq!(listed(server, "player=Cy").await, newest_first[..2]);
    assert_eq!(listed(server, "player=Nobody").await, Vec::<String>::new());
    assert_eq!(listed(server, "players=3").await, [second.id.to_string()]);
    assert_eq!(listed(server, "players=2").await, [third.id.to_string(), first.id.to_string()]);
    assert_eq!(listed(server, "players=4").await, Vec::<String>::new());
    let finished_second = page["games"][1]["finished_at"].as_str().expect("finished_at").to_owned();
    let encoded = finished_second.replace('+', "%2B");
    assert_eq!(listed(server, &format!("since={encoded}")).await, newest_first[..2]);
    assert_eq!(listed(server, &format!("until={encoded}")).await, newest_first[2..]);
    assert_eq!(listed(server, &format!("since={encoded}&until={encoded}")).await, Vec::<String>::new());
    assert_eq!(listed(server, &format!("player=Ben&players=2&until={encoded}")).await, newest_first[2..]);

    // Cursor paging, one game per page.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let query = cursor.as_ref().map_or_else(String::new, |c| format!("&cursor={c}"));
        let page = ok_json(server, &format!("/api/games?limit=1{query}")).await;
        let games = ids(&page["games"]);
        assert_eq!(games.len(), 1, "{page}");
        paged.extend(games);
        match page["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(paged, newest_first);
    let two = ok_json(server, "/api/games?limit=2&player=Ben").await;
    assert_eq!(ids(&two["games"]), newest_first[..2]);
    let rest =
        ok_json(server, &format!("/api/games?player=Ben&cursor={}", two["next"].as_str().expect("a next page"))).await;
    assert_eq!(ids(&rest["games"]), newest_first[2..]);

    // NDJSON: every game, one per line; `limit` caps the total; the filters apply.
    let stream = http_get(&format!("{}/api/games", server.http()), NDJSON).await;
    assert_eq!(stream.status, 200);
    assert!(stream.content_type.starts_with(NDJSON), "{}", stream.content_type);
    let lines: Vec<Value> =
        stream.body.lines().map(|line| serde_json::from_str(line).expect("each line is JSON")).collect();
    assert_eq!(lines.iter().map(|g| g["id"].as_str().expect("id").to_owned()).collect::<Vec<_>>(), newest_first);
    for line in &lines {
        check_game(line, by_id[line["id"].as_str().expect("id")]);
    }
    let capped = http_get(&format!("{}/api/games?limit=2", server.http()), NDJSON).await;
    assert_eq!(capped.body.lines().count(), 2);
    let cys = http_get(&format!("{}/api/games?player=Cy&players=2", server.http()), NDJSON).await;
    assert_eq!(cys.body.lines().count(), 1);

    // One game, and its record, which replays through the rules to its result (as `romirami verify`
    // checks it).
    for played in [&first, &second, &third] {
        check_game(&ok_json(server, &format!("/api/games/{}", played.id)).await, played);
        let record = get(server, &format!("/api/games/{}/record", played.id)).await;
        assert_eq!(record.status, 200);
        let parsed: Record = serde_json::from_str(&record.body).expect("a romirami-record/1 document");
        assert_eq!(parsed.id, played.id.0);
        assert_eq!(parsed.result, played.result);
        let names: Vec<&str> = parsed.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, played.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>());
        parsed.verify().expect("the record replays to its result");
    }

    // A player's page.
    let page = ok_json(server, &format!("/api/players/{ana_id}")).await;
    assert_eq!(page["id"], ana_id);
    assert_eq!(page["name"], "Ana");
    assert_eq!(page["games_played"], 2);
    let ana_scores: Vec<(u32, bool)> = [&first, &second]
        .iter()
        .map(|p| (p.result.scores[0].total, p.result.winners.contains(&romirami_engine::Seat(0))))
        .collect();
    assert_eq!(page["wins"], ana_scores.iter().filter(|(_, won)| *won).count());
    let average = f64::from(ana_scores.iter().map(|(total, _)| total).sum::<u32>()) / 2.0;
    assert!((page["average_score"].as_f64().expect("an average") - average).abs() < 1e-9);
    assert_eq!(ids(&page["recent"]), newest_first[1..]);
    let cy_page = ok_json(server, &format!("/api/players/{}", cy.player.id)).await;
    assert_eq!(cy_page["games_played"], 2);
    let newcomer = Guest::new(server, "Dee").await;
    let fresh = ok_json(server, &format!("/api/players/{}", newcomer.player.id)).await;
    assert_eq!((fresh["games_played"].as_u64(), fresh["average_score"].is_null()), (Some(0), true));

    // The live tables: a public one is listed, a private one is not.
    let mut host = newcomer.connect(server).await;
    host.send(&ClientMsg::CreateTable {
        seats: 3,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        clock: None,
        game: None,
        options: None,
        rated: None,
    })
    .await
    .expect("sent");
    host.send(&ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators: SpectatorPolicy::Link,
        clock: None,
        game: None,
        options: None,
        rated: None,
    })
    .await
    .expect("sent");
    let mut created = Vec::new();
    let mut invites = Vec::new();
    while created.len() < 2 {
        if let ServerMsg::TableCreated { table, invite } = host.recv().await.expect("a message") {
            created.push(table.id);
            invites.push(invite);
        }
    }
    let live = ok_json(server, "/api/tables").await;
    let tables = live["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 1, "{live}");
    assert_eq!(tables[0]["id"], created[0].to_string());
    assert_eq!(tables[0]["state"], "waiting");
    assert_eq!(tables[0]["seats"][0]["name"], "Dee");

    // One table, as its invite page tells it: a public one to anyone, a private one with its key only.
    let public = ok_json(server, &format!("/api/tables/{}", created[0])).await;
    assert_eq!(public["game"], "romi-rami", "{public}");
    assert_eq!((&public["state"], &public["seats"], &public["public"]), (&"waiting".into(), &3.into(), &true.into()));
    assert_eq!((&public["options"], &public["rated"]), (&serde_json::json!({}), &true.into()), "{public}");
    assert!(public.get("invite").is_none(), "the key is never told: {public}");
    let private = format!("/api/tables/{}", created[1]);
    bad(server, &private, 404, "not_found").await;
    bad(server, &format!("{private}?invite={}x", invites[1]), 404, "not_found").await;
    bad(server, &format!("/api/tables/{}?invite={}", created[1], invites[0]), 404, "not_found").await;
    let private = ok_json(server, &format!("{private}?invite={}", invites[1])).await;
    assert_eq!(
        (&private["public"], &private["spectators"], &private["seats"]),
        (&false.into(), &"link".into(), &2.into())
    );
    let finished = ok_json(server, &format!("/api/tables/{}", first.id)).await;
    assert_eq!((&finished["state"], &finished["seats"]), (&"finished".into(), &2.into()), "{finished}");
    bad(server, &format!("/api/tables/{}", uuid::Uuid::new_v4()), 404, "not_found").await;
    bad(server, "/api/tables/not-a-uuid", 400, "bad_parameter").await;
    bad(server, &format!("/api/tables/{}?key=1", created[0]), 400, "unknown_parameter").await;
    bad(server, &format!("/api/tables/{}?invite=a&invite=b", created[0]), 400, "bad_parameter").await;

    // Health and the OpenAPI document.
    let health = ok_json(server, "/api/health").await;
    assert_eq!(health["status"], "ok");
    let doc = ok_json(server, "/api/openapi.json").await;
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
    for path in [
        "/api/health",
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/record",
        "/api/players/{id}",
        "/api/tables",
        "/api/tables/{id}",
    ] {
        assert!(doc["paths"][path]["get"].is_object(), "{path} is documented");
    }

    // Bad parameters and unknown ids.
    bad(server, "/api/games?colour=red", 400, "unknown_parameter").await;
    bad(server, "/api/games?players=7", 400, "bad_parameter").await;
    bad(server, "/api/games?limit=1000", 400, "bad_parameter").await;
    bad(server, "/api/games?since=yesterday", 400, "bad_parameter").await;
    bad(server, "/api/games?cursor=nonsense", 400, "bad_parameter").await;
    bad(server, "/api/games/not-a-uuid", 400, "bad_parameter").await;
    bad(server, &format!("/api/games/{}", uuid::Uuid::new_v4()), 404, "not_found").await;
    bad(server, &format!("/api/games/{}/record", uuid::Uuid::new_v4()), 404, "not_found").await;
    bad(server, &format!("/api/games/{}/record", created[0]), 404, "not_found").await;
    bad(server, &format!("/api/players/{}", uuid::Uuid::new_v4()), 404, "not_found").await;
    bad(server, "/api/players/42", 400, "bad_parameter").await;
    bad(server, "/api/tables?x=1", 400, "unknown_parameter").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_story_on_sqlite() {
    let server = TestServer::start(fast()).await;
    story(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_story_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    let store = Store::connect(&database.url).await.expect("the database opens");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, fast(), store.clone()).await;
    story(&server).await;
    server.shutdown().await;
    store.close().await;
    database.drop_database().await;
}
