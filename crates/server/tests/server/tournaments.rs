//! Tournaments over the real server (docs/tournaments.md): created over REST by a player who keeps their
//! name, joined over REST by bot players who follow it over the WebSocket and play every game they are
//! seated at (`romirami_client::tournament`), to the end; a duplicate one deals one deal a round; the
//! refusals; and a director that survives a restart of its server mid-round.

use std::collections::HashSet;
use std::time::Duration;

use romirami_client::tournament::{TournamentPlayer, join, play_tournament, post};
use romirami_protocol::PlayerId;
use romirami_server::config::Config;
use serde_json::{Value, json};

use crate::common::{self, TestServer, fast, http_get};

/// Bots without a pause, a short pause between rounds.
fn config() -> Config {
    Config {
        bot_delay: Duration::from_millis(1),
        round_pause: Duration::from_millis(5),
        tournament_round_pause: Duration::from_millis(50),
        ..fast()
    }
}

/// A guest who keeps their name: their token.
async fn director(server: &TestServer, name: &str) -> String {
    let (client, _, token) = common::guest(&server.url, name).await;
    drop(client);
    let (status, answer) =
        post(&server.http(), "/api/players/claim", &token, Some(json!({ "password": "a good password" })))
            .await
            .expect("claims");
    assert_eq!(status, 200, "{answer}");
    token
}

/// A tournament's body for `POST /api/tournaments`.
fn swiss(players: u32, rounds: u32, duplicate: bool) -> Value {
    json!({
        "game": "romi-rami", "format": "swiss", "seats": 2, "rounds": rounds,
        "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full",
        "max_players": players, "duplicate": duplicate
    })
}

async fn create(server: &TestServer, token: &str, body: Value) -> uuid::Uuid {
    let (status, answer) = post(&server.http(), "/api/tournaments", token, Some(body)).await.expect("posts");
    assert_eq!(status, 201, "{answer}");
    uuid::Uuid::parse_str(answer["id"].as_str().expect("an id")).expect("a UUID")
}

async fn view(server: &TestServer, id: uuid::Uuid) -> Value {
    let answer = http_get(&format!("{}/api/tournaments/{id}", server.http()), "application/json").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    serde_json::from_str(&answer.body).expect("JSON")
}

/// `players` bot guests join `id` and play it to its end; the tournament's last view.
async fn play_out(server: &TestServer, id: uuid::Uuid, players: usize, prefix: &str) -> Value {
    let mut bots = Vec::new();
    for i in 0..players {
        let (mut client, me, token) = common::guest(&server.url, &format!("{prefix} {i}")).await;
        join(&server.http(), id, &token).await.expect("joins");
        // Each contributes to its duplicate rounds' deals, as the web page does.
        let mut player = TournamentPlayer::new(PlayerId(me.id.0), id, "romi-rami").contributing(&server.http(), &token);
        bots.push(tokio::spawn(async move { player.play(&mut client).await.expect("plays the tournament") }));
    }
    for bot in bots {
        let played = tokio::time::timeout(Duration::from_secs(120), bot).await.expect("in time").expect("no panic");
        assert!(!played.tables.is_empty());
    }
    view(server, id).await
}

/// The record of finished game `table`, verified; its JSON.
async fn verified_record(server: &TestServer, table: &str) -> Value {
    let answer = common::http_get_stored(&format!("{}/api/games/{table}/record", server.http())).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let record: romirami_engine::Record = serde_json::from_str(&answer.body).expect("a romirami-record/1");
    record.verify().unwrap_or_else(|e| panic!("the record of {table} verifies: {e}"));
    serde_json::from_str(&answer.body).expect("JSON")
}

/// Each of `group` plays the Romi Rami tournament `id` on its connection, in a task of its own.
fn play_all(
    group: Vec<(romirami_client::Client, romirami_protocol::PlayerInfo)>,
    id: uuid::Uuid,
) -> Vec<tokio::task::JoinHandle<romirami_client::tournament::TournamentPlay>> {
    group
        .into_iter()
        .map(|(mut client, me)| {
            tokio::spawn(async move {
                play_tournament(&mut client, PlayerId(me.id.0), id, "romi-rami").await.expect("plays")
            })
        })
        .collect()
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().into_iter().flatten().filter_map(|v| v.as_str().map(str::to_owned)).collect()
}

#[tokio::test]
async fn a_swiss_of_eight_bots_over_three_rounds_plays_to_its_end_by_the_rules() {
    let server = TestServer::start(config()).await;
    let token = director(&server, "Swiss Director").await;
    let id = create(&server, &token, swiss(8, 3, false)).await;
    assert_eq!(view(&server, id).await["state"], "waiting");
    let end = play_out(&server, id, 8, "Swiss").await;
    assert_eq!(end["state"], "finished", "{end}");
    let rounds = end["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3);
    let mut pairs = HashSet::new();
    let mut points: std::collections::HashMap<String, f64> = Default::default();
    for round in rounds {
        let tables = round["tables"].as_array().expect("tables");
        assert_eq!(tables.len(), 4);
        let seated: HashSet<String> = tables.iter().flat_map(|t| strings(&t["seats"])).collect();
        assert_eq!(seated.len(), 8, "everyone once a round: {round}");
        for table in tables {
            let seats = strings(&table["seats"]);
            let mut pair = seats.clone();
            pair.sort();
            assert!(pairs.insert(pair), "a pair met twice: {seats:?}");
            // The documented points: a win 1, a draw ½, a loss 0, from the game's places.
            let places: Vec<u64> =
                table["places"].as_array().expect("finished").iter().filter_map(Value::as_u64).collect();
            for (i, seat) in seats.iter().enumerate() {
                let other = places[1 - i];
                let got = match places[i].cmp(&other) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                *points.entry(seat.clone()).or_default() += got;
            }
            let record = verified_record(&server, table["table"].as_str().expect("an id")).await;
            assert_eq!(record["id"], table["table"]);
        }
    }
    let standings = end["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 8);
    let listed: Vec<f64> = standings.iter().map(|s| s["points"].as_f64().expect("points")).collect();
    assert!(listed.windows(2).all(|w| w[0] >= w[1]), "best first: {listed:?}");
    // The winner's trophy: the tournaments they won.
    let winner = standings[0]["player"].as_str().expect("a player");
    let won = http_get(&format!("{}/api/tournaments?winner={winner}", server.http()), "application/json").await;
    let won: Value = serde_json::from_str(&won.body).expect("JSON");
    assert_eq!(won["tournaments"][0]["id"], json!(id.to_string()), "{won}");
    let other = standings[7]["player"].as_str().expect("a player");
    let none = http_get(&format!("{}/api/tournaments?winner={other}", server.http()), "application/json").await;
    assert!(none.body.contains("\"tournaments\":[]"), "{}", none.body);
    for line in standings {
        let player = line["player"].as_str().expect("a player");
        assert_eq!(line["points"].as_f64(), points.get(player).copied(), "{line}");
        assert_eq!(line["games"], 3);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_duplicate_swiss_deals_one_deal_a_round_and_scores_by_matchpoints() {
    // The server waits longer for the players' contributions than the test lasts: every round's tables
    // open because all four players contributed to its deal.
    let server = TestServer::start(Config { contribution_wait: Duration::from_secs(600), ..config() }).await;
    let token = director(&server, "Duplicate Director").await;
    let id = create(&server, &token, swiss(4, 2, true)).await;
    let end = play_out(&server, id, 4, "Duplicate").await;
    assert_eq!(end["state"], "finished", "{end}");
    assert_eq!(end["duplicate"], true);
    let mut seeds = Vec::new();
    for round in end["rounds"].as_array().expect("rounds") {
        let commitment = round["seed_commitment"].as_str().expect("a commitment").to_owned();
        assert_eq!(round["contributions"]["given"], json!(["player", "player", "player", "player"]), "{round}");
        let mut round_seeds = HashSet::new();
        let mut results = Vec::new();
        for table in round["tables"].as_array().expect("tables") {
            let record = verified_record(&server, table["table"].as_str().expect("an id")).await;
            assert_eq!(record["commitment"].as_str(), Some(commitment.as_str()), "told at every table");
            round_seeds.insert((record["seed"].clone(), record["contributions"].clone()));
            assert_eq!(record["contributions"].as_array().map(Vec::len), Some(4), "the round's four: {record}");
            // The derivation holds the round's contributions: one changed, the record does not verify.
            let mut changed = record.clone();
            changed["contributions"][3] = json!("00".repeat(32));
            let changed: romirami_engine::Record = serde_json::from_value(changed).expect("a record");
            assert!(changed.verify().is_err(), "a changed contribution is refused");
            results.push(table.clone());
        }
        assert_eq!(round_seeds.len(), 1, "one deal a round, from one list of contributions");
        seeds.extend(round_seeds);
        // Matchpoints: two tables, so at each seat one player is compared with the other: points are
        // 1, ½ or 0, and the two players of a seat share 1.
        for seat in 0..2 {
            let both: f64 = results.iter().map(|t| t["points"][seat].as_f64().expect("points")).sum();
            assert_eq!(both, 1.0, "{results:?}");
        }
    }
    assert_eq!(seeds.len(), 2, "a new deal each round");
    server.shutdown().await;
}

#[tokio::test]
async fn tournaments_refuse_what_cannot_be() {
    let server = TestServer::start(config()).await;
    let http = server.http();
    let (_guest, _, guest_token) = common::guest(&server.url, "Not Kept").await;
    let (status, answer) =
        post(&http, "/api/tournaments", &guest_token, Some(swiss(4, 2, false))).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (403, Some("name_not_kept")), "{answer}");
    let token = director(&server, "Careful Director").await;
    for bad in [
        json!({ "game": "romi-rami", "format": "swiss", "seats": 9, "rounds": 3, "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 8 }),
        json!({ "game": "chess", "format": "swiss", "seats": 2, "rounds": 3, "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 8 }),
        json!({ "game": "romi-rami", "format": "swiss", "seats": 2, "minutes": 3, "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 8 }),
        json!({ "game": "romi-rami", "format": "swiss", "seats": 2, "rounds": 0, "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 8 }),
        json!({ "game": "romi-rami", "format": "swiss", "seats": 2, "rounds": 3, "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "tomorrow", "max_players": 8 }),
    ] {
        let (status, answer) = post(&http, "/api/tournaments", &token, Some(bad.clone())).await.expect("posts");
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("bad_tournament")), "{bad}: {answer}");
    }
    let id = create(&server, &token, swiss(2, 1, false)).await;
    let (_a, _, a) = common::guest(&server.url, "Player A").await;
    join(&http, id, &a).await.expect("joins");
    let path = format!("/api/tournaments/{id}/join");
    let (status, answer) = post(&http, &path, &a, None).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("already_joined")), "{answer}");
    let withdraw = format!("/api/tournaments/{id}/withdraw");
    let (_b, _, b) = common::guest(&server.url, "Player B").await;
    let (status, answer) = post(&http, &withdraw, &b, None).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("not_joined")), "{answer}");
    // B fills it: it starts, and takes nobody more.
    join(&http, id, &b).await.expect("joins");
    let (_c, _, c) = common::guest(&server.url, "Player C").await;
    let (status, answer) = post(&http, &path, &c, None).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("tournament_closed")), "{answer}");
    // No duplicate round deals here: a contribution is refused, as is one that is not 64 hex digits.
    let contribute = format!("/api/tournaments/{id}/contribute");
    let (status, answer) =
        post(&http, &contribute, &a, Some(json!({ "value": "ab".repeat(32) }))).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("not_dealing")), "{answer}");
    let (status, answer) =
        post(&http, &contribute, &a, Some(json!({ "value": "AB".repeat(32) }))).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("bad_contribution")), "{answer}");
    let missing = format!("/api/tournaments/{}/join", uuid::Uuid::new_v4());
    let (status, answer) = post(&http, &missing, &c, None).await.expect("posts");
    assert_eq!((status, answer["error"]["code"].as_str()), (404, Some("not_found")), "{answer}");
    let listed = http_get(&format!("{http}/api/tournaments?state=running"), "application/json").await;
    let listed: Value = serde_json::from_str(&listed.body).expect("JSON");
    assert!(listed["tournaments"].as_array().expect("a list").iter().any(|t| t["id"] == json!(id.to_string())));
    // The view shows no secret and no seed.
    let text = serde_json::to_string(&view(&server, id).await).expect("JSON");
    assert!(!text.contains("secret") && !text.contains("\"seed\""), "{text}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_tournament_goes_on_after_a_restart_mid_round_with_the_same_tables_even_one_never_started() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    let open = |listener| {
        let url = url.clone();
        async move {
            let store = romirami_server::store::Store::connect(&url).await.expect("opens");
            TestServer::start_with(listener, config(), store).await
        }
    };
    let server = open(tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port")).await;
    let token = director(&server, "Restart Director").await;
    let id = create(&server, &token, swiss(4, 2, false)).await;
    let mut players = Vec::new();
    for i in 0..4 {
        let (_client, me, token) = common::guest(&server.url, &format!("Restart {i}")).await;
        join(&server.http(), id, &token).await.expect("joins");
        players.push((me, token));
    }
    // Round 1 is paired and its tables opened; nobody has played when the server stops.
    let before = view(&server, id).await;
    assert_eq!(before["state"], "running");
    let first_tables: Vec<Value> = before["rounds"][0]["tables"].as_array().expect("tables").clone();
    assert_eq!(first_tables.len(), 2);
    server.shutdown().await;
    // The second table as if its node had stopped between storing it and starting its game: its runner
    // starts it after the restart (a server restores no tournament table that waits).
    let unstarted = first_tables[1]["table"].as_str().expect("an id").to_owned();
    let pool = sqlx::SqlitePool::connect(&url).await.expect("the database opens");
    for statement in ["DELETE FROM actions WHERE table_id = ?1", "DELETE FROM games WHERE table_id = ?1"] {
        sqlx::query(statement).bind(&unstarted).execute(&pool).await.expect("deleted");
    }
    pool.close().await;

    let server = open(tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port")).await;
    let mut bots = Vec::new();
    for (me, token) in players {
        let (mut client, _) = romirami_client::Client::returning(&server.url, &token).await.expect("welcomed back");
        bots.push(tokio::spawn(async move {
            play_tournament(&mut client, PlayerId(me.id.0), id, "romi-rami").await.expect("plays the tournament")
        }));
    }
    for bot in bots {
        tokio::time::timeout(Duration::from_secs(120), bot).await.expect("in time").expect("no panic");
    }
    let end = view(&server, id).await;
    assert_eq!(end["state"], "finished", "{end}");
    let rounds = end["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 2, "no round paired twice");
    let ids: Vec<&Value> = rounds[0]["tables"].as_array().expect("tables").iter().map(|t| &t["table"]).collect();
    assert_eq!(ids, first_tables.iter().map(|t| &t["table"]).collect::<Vec<_>>(), "round 1's own tables, played");
    for round in rounds {
        for table in round["tables"].as_array().expect("tables") {
            verified_record(&server, table["table"].as_str().expect("an id")).await;
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_duplicate_round_shows_nothing_of_its_games_until_every_table_of_it_finished() {
    let server = TestServer::start(config()).await;
    let http = server.http();
    let token = director(&server, "Sealing Director").await;
    let id = create(&server, &token, swiss(4, 1, true)).await;
    let mut players = Vec::new();
    for i in 0..4 {
        let (client, me, token) = common::guest(&server.url, &format!("Sealed {i}")).await;
        join(&http, id, &token).await.expect("joins");
        players.push((client, me));
    }
    let started = view(&server, id).await;
    let tables = started["rounds"][0]["tables"].as_array().expect("tables").clone();
    let (first, second) =
        (tables[0]["table"].as_str().expect("id").to_owned(), tables[1]["table"].as_str().expect("id").to_owned());
    let seats_of = |t: &Value| strings(&t["seats"]);
    let (at_first, at_second): (Vec<_>, Vec<_>) =
        players.into_iter().partition(|(_, me)| seats_of(&tables[0]).contains(&me.id.0.to_string()));
    let spawn = |group| play_all(group, id);
    // The first table plays; the second waits for its players.
    let playing = spawn(at_first);
    let mut finished = false;
    for _ in 0..600 {
        let now = view(&server, id).await;
        if now["rounds"][0]["tables"][0].get("places").is_some() {
            finished = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(finished, "the first table finishes");
    for path in
        [format!("/api/games/{first}"), format!("/api/games/{first}/record"), format!("/api/games/{first}/replay")]
    {
        let answer = http_get(&format!("{http}{path}"), "application/json").await;
        assert_eq!(answer.status, 409, "{path}: {}", answer.body);
        assert!(answer.body.contains("deal_in_play"), "{}", answer.body);
    }
    let list = http_get(&format!("{http}/api/games"), "application/json").await;
    assert!(!list.body.contains(&first), "the list leaves it out: {}", list.body);
    // Nobody watches the second table while its deal is played.
    let (mut watcher, _, _) = common::guest(&server.url, "Curious Watcher").await;
    let table = romirami_protocol::TableId(uuid::Uuid::parse_str(&second).expect("a UUID"));
    watcher.send_json(&json!({ "type": "watch", "table": second })).await.expect("sends");
    let refused: Value = watcher.recv_as(Duration::from_secs(10)).await.expect("an answer");
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["table"], json!(table.0.to_string()));
    // The second table plays: the round is over, and everything is shown.
    let mut everyone = playing;
    everyone.extend(spawn(at_second));
    for bot in everyone {
        tokio::time::timeout(Duration::from_secs(120), bot).await.expect("in time").expect("no panic");
    }
    assert_eq!(view(&server, id).await["state"], "finished");
    verified_record(&server, &first).await;
    verified_record(&server, &second).await;
    server.shutdown().await;
}

#[tokio::test]
async fn an_arena_of_bots_runs_to_the_end_of_its_window() {
    // An arena's minute lasts a second here: a window of three "minutes" is three seconds.
    let server = TestServer::start(Config { tournament_minute: Duration::from_secs(1), ..config() }).await;
    let token = director(&server, "Arena Director").await;
    let body = json!({
        "game": "romi-rami", "format": "arena", "seats": 2, "minutes": 3,
        "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 4
    });
    let id = create(&server, &token, body).await;
    let end = play_out(&server, id, 4, "Arena").await;
    assert_eq!(end["state"], "finished", "{end}");
    assert_eq!(end["format"], "arena");
    let started = end["starts_at"].as_u64().expect("a start");
    assert_eq!(end["ends_at"].as_u64(), Some(started + 3_000));
    let tables: Vec<&Value> = end["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .flat_map(|r| r["tables"].as_array().expect("tables"))
        .collect();
    assert!(!tables.is_empty());
    assert!(tables.iter().all(|t| t.get("places").is_some()), "every game finished");
    // A game's points add up to 1 at a table of two: the standings hold every game.
    let total: f64 =
        end["standings"].as_array().expect("standings").iter().map(|s| s["points"].as_f64().expect("points")).sum();
    assert_eq!(total, tables.len() as f64, "{end}");
    let games: u64 =
        end["standings"].as_array().expect("standings").iter().map(|s| s["games"].as_u64().expect("games")).sum();
    assert_eq!(games, 2 * tables.len() as u64);
    server.shutdown().await;
}

#[tokio::test]
async fn a_player_who_never_comes_is_played_by_the_bot_and_withdrawn_after_two_games() {
    let server = TestServer::start(config()).await;
    let http = server.http();
    let token = director(&server, "Absence Director").await;
    let body = json!({
        "game": "romi-rami", "format": "swiss", "seats": 2, "rounds": 3,
        "clock": { "turn_ms": 1_000, "reserve_ms": 0 }, "start": "when_full", "max_players": 4
    });
    let id = create(&server, &token, body).await;
    // The first to join never comes to a table.
    let (_away, away, away_token) = common::guest(&server.url, "Away Alma").await;
    join(&http, id, &away_token).await.expect("joins");
    let end = play_out(&server, id, 3, "Present").await;
    assert_eq!(end["state"], "finished", "{end}");
    let away_id = json!(away.id.0.to_string());
    let status =
        end["players"].as_array().expect("players").iter().find(|p| p["id"] == away_id).expect("listed")["status"]
            .clone();
    assert_eq!(status, "absent", "{end}");
    let rounds = end["rounds"].as_array().expect("rounds");
    let seated = |round: &Value| {
        round["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .any(|t| t["seats"].as_array().expect("seats").contains(&away_id))
    };
    assert!(seated(&rounds[0]) && seated(&rounds[1]), "played by the bot in rounds 1 and 2");
    assert!(!seated(&rounds[2]), "withdrawn before round 3");
    assert_eq!(rounds[2]["byes"].as_array().map(Vec::len), Some(1), "three players left: a table and a bye");
    let line = end["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .find(|s| s["player"] == away_id)
        .expect("in the standings");
    assert_eq!(line["games"], 2);
    server.shutdown().await;
}

/// The next `tournament` view `client` receives in which `done` holds.
async fn followed_until(client: &mut romirami_client::Client, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let msg: Value = client.recv_as(left).await.expect("the tournament's news in time");
        if msg["type"] == "tournament" && done(&msg["tournament"]) {
            return msg["tournament"].clone();
        }
    }
}

#[tokio::test]
async fn in_a_cluster_any_node_answers_for_a_tournament_that_one_node_directs() {
    use crate::cluster_support::{cluster_name, nats_url, node};
    let (Some(nats), Some(db)) = (nats_url().await, common::PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(5)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(5)).await;
    // Created on a, so a directs it; everyone else is on b.
    let token = director(&a, "Cluster Director").await;
    let id = create(&a, &token, swiss(4, 1, true)).await;
    let (mut follower, _, _) = common::guest(&b.url, "Cluster Follower").await;
    follower.send_json(&json!({ "type": "tournament_subscribe", "tournament": id.to_string() })).await.expect("sends");
    followed_until(&mut follower, |view| view["state"] == "waiting").await;
    let mut players = Vec::new();
    for i in 0..4 {
        let (client, me, token) = common::guest(&b.url, &format!("Cluster Entrant {i}")).await;
        join(&b.http(), id, &token).await.expect("joined through b");
        if i == 0 {
            // The director's refusal crosses back as it was given.
            let (status, answer) =
                post(&b.http(), &format!("/api/tournaments/{id}/join"), &token, None).await.expect("posts");
            assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("already_joined")), "{answer}");
        }
        players.push((client, me));
    }
    // b's follower sees the round a paired.
    let running = followed_until(&mut follower, |view| view["state"] == "running").await;
    let tables = running["rounds"][0]["tables"].as_array().expect("tables").clone();
    assert_eq!(tables.len(), 2, "{running}");
    let first = tables[0]["table"].as_str().expect("an id").to_owned();
    let (at_first, at_second): (Vec<_>, Vec<_>) =
        players.into_iter().partition(|(_, me)| strings(&tables[0]["seats"]).contains(&me.id.0.to_string()));
    let spawn = |group| play_all(group, id);
    // The first table plays through b; b keeps its game sealed while the round's other table waits.
    let mut everyone = spawn(at_first);
    followed_until(&mut follower, |view| view["rounds"][0]["tables"][0].get("places").is_some()).await;
    let sealed = http_get(&format!("{}/api/games/{first}", b.http()), "application/json").await;
    assert_eq!(sealed.status, 409, "b seals a's duplicate game: {}", sealed.body);
    assert!(sealed.body.contains("deal_in_play"), "{}", sealed.body);
    everyone.extend(spawn(at_second));
    for bot in everyone {
        tokio::time::timeout(Duration::from_secs(120), bot).await.expect("in time").expect("no panic");
    }
    followed_until(&mut follower, |view| view["state"] == "finished").await;
    verified_record(&b, &first).await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_large_tournament_is_told_live_by_its_leaders_and_counts_and_whole_at_its_end() {
    // Every view counts as large here.
    let server = TestServer::start(Config { tournament_live_view_bytes: 1, ..config() }).await;
    let token = director(&server, "Partial Director").await;
    let id = create(&server, &token, swiss(4, 1, false)).await;
    let (mut follower, _, _) = common::guest(&server.url, "Partial Follower").await;
    follower.send_json(&json!({ "type": "tournament_subscribe", "tournament": id.to_string() })).await.expect("sends");
    let first = followed_until(&mut follower, |_| true).await;
    assert!(first.get("partial").is_none(), "the view on subscribing is whole: {first}");
    let mut players = Vec::new();
    for i in 0..4 {
        let (client, me, token) = common::guest(&server.url, &format!("Partial {i}")).await;
        join(&server.http(), id, &token).await.expect("joins");
        players.push(tokio::spawn(async move {
            let mut client = client;
            play_tournament(&mut client, PlayerId(me.id.0), id, "romi-rami").await.expect("plays")
        }));
    }
    let running = followed_until(&mut follower, |view| view["state"] == "running").await;
    assert_eq!(running["partial"], true, "{running}");
    assert_eq!(running["players_total"], 4, "{running}");
    assert!(running["players"].as_array().expect("players").len() <= 4, "{running}");
    let round = &running["rounds"][0];
    assert_eq!((round["in_play"].as_u64(), round["finished"].as_u64()), (Some(2), Some(0)), "{running}");
    assert_eq!(round["tables"], json!([]), "no table is listed: {running}");
    for player in players {
        tokio::time::timeout(Duration::from_secs(120), player).await.expect("in time").expect("no panic");
    }
    let end = followed_until(&mut follower, |view| view["state"] == "finished").await;
    assert!(end.get("partial").is_none(), "the end is told whole: {end}");
    assert_eq!(end["rounds"][0]["tables"].as_array().map(Vec::len), Some(2), "{end}");
    assert_eq!(end["standings"].as_array().map(Vec::len), Some(4), "{end}");
}
