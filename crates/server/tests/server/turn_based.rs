//! Turn-based tables (docs/architecture.md, "Turn-based tables"), over real connections and a real store:
//! a game with a day a turn is played to a player's turn, whose device receives the push (signed with the
//! server's VAPID key, decrypted with the device's keys); once nobody is at the table it sleeps (no task,
//! out of the lobby, a row in the store), stays asleep through a restart, and wakes for the next move,
//! its clock having run on; a turn that ends while the table sleeps wakes it by itself, and the bot plays
//! for the player who did not come.

use crate::common;
use crate::push::{Device, check_vapid, config, post_json, public_key, push_service};

use std::time::Duration;

use common::{Follower, TestServer, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_server::config::Config;
use romirami_server::protocol::{Clock, SpectatorPolicy, TableId};
use romirami_server::store::{SleepRow, Store};
use tokio::net::TcpListener;

/// A day a turn, two of reserve: turn-based.
const DAILY: Clock = Clock::DAILY;

fn turn_based_config(service: &str) -> Config {
    Config { wake_interval: Duration::from_millis(50), ..config(service) }
}

async fn start(store: &str, service: &str) -> TestServer {
    let store = Store::connect(store).await.expect("the database opens");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    TestServer::start_with(listener, turn_based_config(service), store).await
}

/// Waits until `done` holds of the server (checked every 20 ms, for at most 10 s).
async fn until<F: std::future::Future<Output = bool>>(mut done: impl FnMut() -> F, what: &str) {
    for _ in 0..500 {
        if done().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never: {what}");
}

async fn my_tables(server: &TestServer, token: &str) -> serde_json::Value {
    let answer = reqwest::Client::new()
        .get(format!("{}/api/players/me/tables", server.http()))
        .bearer_auth(token)
        .send()
        .await
        .expect("answered");
    assert_eq!(answer.status(), 200);
    answer.json().await.expect("JSON")
}

async fn asleep(server: &TestServer, table: TableId) -> Option<SleepRow> {
    server.state.store.sleeping(table).await.expect("the store answers")
}

#[tokio::test]
async fn a_turn_based_game_pushes_its_turns_sleeps_when_nobody_is_there_and_wakes_for_the_next_move() {
    let (service, mut pushes) = push_service().await;
    let dir = tempfile::tempdir().expect("as the test set it up");
    let database = format!("sqlite://{}", dir.path().join("games.db").display());
    let server = start(&database, &service).await;
    let (mut ana, _, ana_token) = common::guest(&server.url, "Ana").await;
    let (mut ben, ben_info, ben_token) = common::guest(&server.url, "Ben").await;
    let device = Device::new(format!("{service}/push/ben-laptop"));
    let answer =
        post_json(&format!("{}/api/push/subscriptions", server.http()), &ben_token, &device.subscription("en")).await;
    assert_eq!(answer.status(), 201);

    let (table, invite) = common::create_casual_pair(&mut ana, SpectatorPolicy::Link, Some(DAILY)).await;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    let mut ana = Follower::new(ana, table, 0);
    let mut ben = Follower::new(ben, table, 0);

    // Ana plays her turns (if the first is hers) until it is Ben's: his laptop is told, although he is here.
    ben.until(|f| f.to_act.is_some()).await;
    while ben.to_act != ben.seat {
        if let Some(legal) = ana.turn.take() {
            ana.act(choose(&legal).expect("a legal action")).await;
        }
        tokio::select! {
            _ = ana.recv() => {}
            _ = ben.recv() => {}
        }
    }
    let push = tokio::time::timeout(Duration::from_secs(10), pushes.recv())
        .await
        .expect("a push comes")
        .expect("as the test set it up");
    assert_eq!(push.device, "push/ben-laptop");
    check_vapid(&push, &service, &public_key(&server).await);
    let payload = device.decrypt(&push.body);
    assert_eq!(payload["kind"], "turn");
    assert_eq!(payload["table"], table.0.to_string());
    assert_eq!(payload["title"], "Your turn");

    // Both go: the table sleeps, out of the lobby, its row saying whose turn it is and when it ends.
    drop(ana);
    drop(ben);
    until(|| async { asleep(&server, table).await.is_some() }, "the table sleeps").await;
    let row = asleep(&server, table).await.expect("as the test set it up");
    assert_eq!(row.players.len(), 2);
    assert!(row.players.contains(&ben_info.id));
    let ben_seat = row.to_act.expect("a turn runs");
    assert!(row.wake_at.is_some_and(|at| at > time::OffsetDateTime::now_utc() + time::Duration::days(2)));
    assert!(server.state.lobby.table(table).is_none(), "a sleeping table holds no task");

    // Each player's "my games" lists it, asleep: Ben's to play, with its turn's end.
    let ben_tables = my_tables(&server, &ben_token).await;
    assert_eq!(ben_tables["your_turn"], 1, "{ben_tables}");
    let listed = &ben_tables["tables"][0];
    assert_eq!(listed["table"], table.0.to_string());
    assert_eq!((listed["asleep"].as_bool(), listed["turn_based"].as_bool()), (Some(true), Some(true)));
    assert_eq!(listed["seat"].as_u64(), Some(u64::from(ben_seat.0)));
    assert!(listed["turn_ends_at"].is_string());
    let ana_tables = my_tables(&server, &ana_token).await;
    assert_eq!(
        (ana_tables["your_turn"].as_u64(), ana_tables["tables"][0]["your_turn"].as_bool()),
        (Some(0), Some(false))
    );
    let anonymous = reqwest::get(format!("{}/api/players/me/tables", server.http())).await.expect("answered");
    assert_eq!(anonymous.status(), 401);

    // A restart leaves it asleep.
    server.shutdown().await;
    let server = start(&database, &service).await;
    assert!(server.state.lobby.table(table).is_none(), "not brought back at the start");
    assert_eq!(asleep(&server, table).await, Some(row.clone()));

    // Ben comes back and moves: the table wakes, with his turn's clock as it ran.
    let (ben, _) = Client::returning(&server.url, &ben_token).await.expect("welcome back");
    let mut ben = Follower::new(ben, table, 0);
    send(&mut ben.client, ClientMsg::Join { table, invite: None, since: None }).await;
    ben.until(|f| f.turn.is_some()).await;
    assert_eq!(ben.seat, Some(ben_seat));
    assert!(asleep(&server, table).await.is_none(), "awake");
    assert!(server.state.lobby.table(table).is_some());
    let legal = ben.turn.take().expect("as the test set it up");
    let id = ben.act(choose(&legal).expect("a legal action")).await;
    ben.until(|f| f.acks.iter().any(|(acked, _)| *acked == id)).await;
    let listed = &my_tables(&server, &ben_token).await["tables"][0];
    assert_eq!(listed["asleep"].as_bool(), Some(false), "live again: {listed}");

    // He goes again; his turn ends while the table sleeps (as if days had passed): it wakes by itself and
    // the bot plays for him.
    drop(ben);
    until(|| async { asleep(&server, table).await.is_some() }, "the table sleeps again").await;
    let played =
        server.state.store.unfinished_games_among(&[table]).await.expect("as the test set it up")[0].actions.len();
    let row = asleep(&server, table).await.expect("as the test set it up");
    let long_ago = time::OffsetDateTime::now_utc() - time::Duration::days(4);
    let ended = SleepRow { turn_since: long_ago, wake_at: Some(long_ago + time::Duration::days(3)), ..row };
    server.state.store.put_sleeping(&ended).await.expect("as the test set it up");
    until(
        || async {
            let games = server.state.store.unfinished_games_among(&[table]).await.expect("as the test set it up");
            games.first().is_none_or(|game| game.actions.len() > played)
        },
        "the bot plays the turn that ran out",
    )
    .await;
    // Ana's turn comes (a day again), nobody is there: asleep once more, until her turn ends.
    until(
        || async {
            asleep(&server, table)
                .await
                .is_some_and(|row| row.wake_at.is_some_and(|at| at > long_ago + time::Duration::days(5)))
        },
        "the table sleeps until the next turn's end",
    )
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn in_a_cluster_a_sleeping_table_wakes_on_the_node_its_visitor_comes_to() {
    use crate::cluster_support::{cluster_name, nats_url, node};
    let (Some(nats), Some(db)) = (nats_url().await, common::PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(5)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(5)).await;

    // Ana, on a, plays a turn-based game against a bot until it is her turn, then closes the page.
    let (mut ana, _, token) = common::guest(&a.url, "Ana").await;
    let (table, _) = common::create_casual_pair(&mut ana, SpectatorPolicy::Nobody, Some(DAILY)).await;
    send(&mut ana, ClientMsg::AddBot { table, level: romirami_game::Level::Normal }).await;
    let mut follower = Follower::new(ana, table, 0);
    follower.until(|f| f.turn.is_some()).await;
    drop(follower);
    until(|| async { asleep(&a, table).await.is_some() && a.state.lobby.table(table).is_none() }, "asleep on a").await;

    // She comes back through b: b wakes the table (its lease is b's now) and she plays on.
    let (ana, _) = Client::returning(&b.url, &token).await.expect("welcome back");
    let mut ana = Follower::new(ana, table, 0);
    send(&mut ana.client, ClientMsg::Join { table, invite: None, since: None }).await;
    ana.until(|f| f.turn.is_some()).await;
    assert!(b.state.lobby.table(table).is_some(), "the table lives on b");
    assert!(a.state.lobby.table(table).is_none(), "and not on a");
    let lease = b.state.store.lease(table).await.expect("read").expect("a lease");
    assert_eq!(lease.fence.node, "b");
    // Node a lists it in her games too, live on b.
    let listed = my_tables(&a, &token).await;
    assert_eq!(listed["tables"][0]["table"], table.0.to_string(), "{listed}");
    assert_eq!(listed["tables"][0]["asleep"], false);
    let legal = ana.turn.take().expect("her turn");
    let id = ana.act(choose(&legal).expect("a legal action")).await;
    ana.until(|f| f.acks.iter().any(|(acked, _)| *acked == id)).await;
    drop(ana);
    for server in [a, b] {
        server.shutdown().await;
    }
    db.drop_database().await;
}

#[tokio::test]
async fn a_player_hosts_a_bounded_number_of_sleeping_tables() {
    let (service, _pushes) = push_service().await;
    let config = Config { max_sleeping_tables_per_player: 1, ..turn_based_config(&service) };
    let server = TestServer::start(config).await;
    let (ana, _, token) = common::guest(&server.url, "Ana").await;
    let create = ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: Some(DAILY),
        game: None,
        options: None,
        rated: Some(false),
    };
    let mut ana = Some(ana);
    for attempt in 0..2 {
        let client = ana.as_mut().expect("connected");
        send(client, create.clone()).await;
        let answer = client
            .wait_for(|msg| match msg {
                ServerMsg::TableCreated { table, .. } => Some(Ok(table.id)),
                ServerMsg::Error { code, .. } => Some(Err(*code)),
                _ => None,
            })
            .await
            .expect("an answer");
        if attempt == 0 {
            let table = answer.expect("the first table opens");
            // Ana goes: her waiting table sleeps.
            drop(ana.take());
            until(|| async { asleep(&server, table).await.is_some() }, "the first table sleeps").await;
            ana = Some(Client::returning(&server.url, &token).await.expect("welcome back").0);
        } else {
            assert_eq!(answer, Err(romirami_server::protocol::ErrorCode::TooManyTables));
        }
    }
    server.shutdown().await;
}
