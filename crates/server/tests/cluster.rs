//! Several nodes, one site: server nodes on one PostgreSQL database that meet on NATS (the machine's, at
//! `NATS_URL` or 127.0.0.1:4222; with `CI=true` both must be there). Each test names a cluster of its own,
//! so tests sharing the NATS server do not see each other's tables.
//!
//! What is shown here: any node, any table (players connected to different nodes play a whole game at one
//! table while a spectator on a third node watches); one lobby (a public table of one node is listed live by every node's lobby and
//! `/api/tables`, and unlisted when it closes); one owner per table (a node restores only the tables whose
//! lease it can take); fencing (a node whose lease was taken cannot acknowledge another action: the action
//! is refused, not written, and the table closes there); and a cluster on SQLite refused with a clear error.

mod common;

use std::time::Duration;

use common::{Follower, PgDatabase, TestServer, create_table, fast, guest, send};
use romirami_client::Client;
use romirami_server::AppState;
use romirami_server::cluster::{ClusterConfig, ClusterError};
use romirami_server::config::Config;
use romirami_server::protocol::{ClientMsg, ErrorCode, ServerMsg, SpectatorPolicy, TableId};
use romirami_server::server::OpenError;
use romirami_server::store::Store;
use tokio::net::TcpListener;

/// The NATS server the tests use, or `None` (outside CI) when none answers.
async fn nats_url() -> Option<String> {
    let url = std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    let address = url.trim_start_matches("nats://").to_owned();
    if tokio::net::TcpStream::connect(&address).await.is_ok() {
        return Some(url);
    }
    assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test the cluster: start nats-server -js");
    eprintln!("skipped: no NATS server at {url}");
    None
}

/// A node of the cluster `name` over the database at `database`.
async fn node(nats: &str, name: &str, node: &str, database: &str, lease: Duration) -> TestServer {
    let mut cluster = ClusterConfig::new(nats, Some(node.into()));
    cluster.name = name.into();
    cluster.lease_ttl = lease;
    let config = Config { cluster: Some(cluster), bot_delay: Duration::from_millis(10), ..fast() };
    let store = Store::connect(database).await.expect("the database opens");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    TestServer::start_with(listener, config, store).await
}

fn cluster_name() -> String {
    format!("test-{}", &uuid::Uuid::new_v4().simple().to_string()[..12])
}

/// Follows the lobby of the node at `url` until `done` holds for the listed tables.
async fn lobby_until(client: &mut Client, listed: &mut Vec<TableId>, done: impl Fn(&[TableId]) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done(listed) {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let msg = client.recv_within(left).await.unwrap_or_else(|e| panic!("the lobby says {listed:?}, then {e}"));
        match msg {
            ServerMsg::Lobby { tables } => *listed = tables.iter().map(|t| t.id).collect(),
            ServerMsg::LobbyTable { table } if !listed.contains(&table.id) => listed.push(table.id),
            ServerMsg::LobbyTableRemoved { table } => listed.retain(|t| *t != table),
            _ => {}
        }
    }
}

#[tokio::test]
async fn players_on_different_nodes_play_one_table_that_a_third_node_watches() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(5)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(5)).await;
    let c = node(&nats, &name, "c", &db.url, Duration::from_secs(5)).await;

    // Ana hosts on a; Bruno joins from b with the invite link; Cleo watches from c.
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, invite) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    let (mut bruno, _, _) = guest(&b.url, "Bruno").await;
    send(&mut bruno, ClientMsg::Join { table: table.id, invite: Some(invite), since: None }).await;
    let mut ana = Follower::new(ana, table.id, 0);
    let mut bruno = Follower::new(bruno, table.id, 0);
    ana.until(|f| f.to_act.is_some()).await;
    bruno.until(|f| f.to_act.is_some()).await;
    assert_eq!(bruno.seat, Some(romirami_game::Seat(1)), "Bruno, on b, sits at a's table");
    let (cleo, _, _) = guest(&c.url, "Cleo").await;
    let mut cleo = Follower::new(cleo, table.id, 0);
    send(&mut cleo.client, ClientMsg::Watch { table: table.id, invite: None, since: None }).await;
    cleo.until(|f| !f.views.is_empty()).await;
    assert!(cleo.views[0].hand.is_none(), "a spectator on another node sees no hand");
    for server in [&a, &b, &c] {
        let listed = common::http_get(&format!("{}/api/tables", server.http()), "application/json").await;
        assert!(listed.body.contains(&table.id.0.to_string()), "every node lists the table: {}", listed.body);
    }

    // They play to the end, each on their own node; everyone sees every event, once, in order.
    let (ana_result, bruno_result) = tokio::join!(ana.play_to_end(), bruno.play_to_end());
    assert_eq!(ana_result, bruno_result);
    cleo.until(|f| f.result.is_some()).await;
    assert_eq!(cleo.result.as_ref(), Some(&ana_result));
    assert_eq!((ana.next, bruno.next), (cleo.next, cleo.next), "every node's members have every event");
    assert!(!bruno.acks.is_empty(), "Bruno's actions were acknowledged through b");

    a.shutdown().await;
    b.shutdown().await;
    c.shutdown().await;
    db.drop_database().await;
}

#[tokio::test]
async fn every_node_lists_every_nodes_public_tables_live() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(5)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(5)).await;
    let (mut watcher, _, _) = guest(&b.url, "Wendy").await;
    send(&mut watcher, ClientMsg::LobbySubscribe).await;
    let mut listed = Vec::new();
    lobby_until(&mut watcher, &mut listed, |_| true).await;

    // A public table opened on a is listed on b, live and over REST; a private one is not.
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, _) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    let (_hidden, _) = create_table(&mut ana, 2, false, SpectatorPolicy::Link).await;
    lobby_until(&mut watcher, &mut listed, |l| l.contains(&table.id)).await;
    let rest = common::http_get(&format!("{}/api/tables", b.http()), "application/json").await;
    assert!(rest.body.contains(&table.id.0.to_string()), "b's /api/tables lists a's table: {}", rest.body);
    assert_eq!(listed, vec![table.id], "only the public table");
    let lease = b.state.store.lease(table.id).await.expect("read").expect("leased");
    assert_eq!(lease.fence.node, "a", "the node that opened the table owns it");

    // The host leaves her waiting table: it closes on a and leaves every lobby.
    send(&mut ana, ClientMsg::Leave { table: table.id }).await;
    lobby_until(&mut watcher, &mut listed, |l| !l.contains(&table.id)).await;

    a.shutdown().await;
    b.shutdown().await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_node_restores_only_the_tables_it_can_lease_and_a_lost_lease_acknowledges_nothing() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(30)).await;
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, _) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    send(&mut ana, ClientMsg::AddBot { table: table.id }).await;
    let legal = ana
        .wait_for(|msg| match msg {
            ServerMsg::YourTurn { legal, .. } => Some(legal.clone()),
            _ => None,
        })
        .await
        .expect("the game starts");

    // A second node starting on the same database leaves a's table alone: a's lease is current.
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(30)).await;
    assert!(b.state.lobby.table(table.id).is_none(), "b does not run a's table");
    assert!(a.state.lobby.table(table.id).is_some());

    // a's lease runs out and another node takes the table (as a takeover would); a does not know yet.
    sqlx::query("UPDATE table_leases SET expires_at = now() - interval '1 second' WHERE table_id = $1")
        .bind(table.id.0)
        .execute(match &b.state.store {
            Store::Postgres(pg) => pg.pool(),
            Store::Sqlite(_) => unreachable!("a cluster is on PostgreSQL"),
        })
        .await
        .expect("expire the lease");
    let taken = b.state.store.acquire_lease(table.id, "c", Duration::from_secs(30)).await.expect("acquire");
    assert!(taken.is_some(), "the expired lease is granted to another node");
    let before = b.state.store.unfinished_games().await.expect("read");
    let logged = |games: &[romirami_server::store::UnfinishedGame]| {
        games.iter().find(|g| g.table.id == table.id).map(|g| g.actions.len())
    };

    // Ana's next move reaches a, whose append is fenced: refused as unavailable, not written; the table
    // closes on a (its players find it wherever its new owner runs it).
    send(&mut ana, ClientMsg::Act { table: table.id, id: 1, action: legal[0] }).await;
    let refused = ana
        .wait_for(|msg| match msg {
            ServerMsg::Error { code, id: Some(1), .. } => Some(*code),
            ServerMsg::Ack { id: 1, .. } => Some(ErrorCode::Internal),
            _ => None,
        })
        .await
        .expect("an answer");
    assert_eq!(refused, ErrorCode::Unavailable, "a node without the lease acknowledges nothing");
    let after = b.state.store.unfinished_games().await.expect("read");
    assert_eq!(logged(&after), logged(&before), "nothing was written");
    for _ in 0..100 {
        if a.state.lobby.table(table.id).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(a.state.lobby.table(table.id).is_none(), "the table closed on the node that lost it");

    a.shutdown().await;
    b.shutdown().await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_table_whose_lease_runs_out_is_taken_over_and_its_player_resumes_on_another_node() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(30)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_millis(600)).await;
    let (ana, _, token) = guest(&a.url, "Ana").await;
    let mut ana = Follower::new(ana, TableId(uuid::Uuid::nil()), 0);
    let (table, _) = create_table(&mut ana.client, 2, false, SpectatorPolicy::Link).await;
    ana.table = table.id;
    send(&mut ana.client, ClientMsg::AddBot { table: table.id }).await;
    ana.until(|f| f.turn.is_some() && f.seat.is_some()).await;
    let legal = ana.turn.clone().expect("her turn");
    ana.act(legal[0]).await;
    ana.until(|f| !f.acks.is_empty()).await;
    let acknowledged = ana.acks[0].1;

    // a is gone for the cluster (its lease runs out, as when it is killed): b takes the table over from the
    // action log, with Ana's acknowledged action in it.
    sqlx::query("UPDATE table_leases SET expires_at = now() - interval '1 second' WHERE table_id = $1")
        .bind(table.id.0)
        .execute(match &b.state.store {
            Store::Postgres(pg) => pg.pool(),
            Store::Sqlite(_) => unreachable!("a cluster is on PostgreSQL"),
        })
        .await
        .expect("expire the lease");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while b.state.lobby.table(table.id).is_none() {
        assert!(tokio::time::Instant::now() < deadline, "b takes the table over within a few seconds");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(b.state.store.lease(table.id).await.expect("read").map(|l| l.fence.node).as_deref(), Some("b"));

    // Ana comes back on b and catches up by event number: nothing lost, nothing doubled; she plays on.
    let (again, _) = Client::returning(&b.url, &token).await.expect("Ana is known on b");
    let mut again = Follower::new(again, table.id, ana.next);
    send(&mut again.client, ClientMsg::Join { table: table.id, invite: None, since: Some(ana.next) }).await;
    again.until(|f| f.turn.is_some() || f.result.is_some()).await;
    assert!(again.next >= acknowledged, "the events up to her acknowledged action are there");
    let result = again.play_to_end().await;
    assert!(!result.scores.is_empty());

    a.shutdown().await;
    b.shutdown().await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_cluster_on_sqlite_is_refused() {
    let Some(nats) = nats_url().await else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("one.db").display())).await.expect("open");
    let config = Config { cluster: Some(ClusterConfig::new(nats, None)), ..Config::default() };
    let refused = AppState::open(config, store).await.map(|_| ());
    assert!(matches!(refused, Err(OpenError::Cluster(ClusterError::NeedsPostgres))), "{refused:?}");
    let message = refused.expect_err("refused").to_string();
    assert!(message.contains("PostgreSQL"), "{message}");
}
