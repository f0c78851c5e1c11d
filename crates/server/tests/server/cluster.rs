//! Several nodes, one site: server nodes on one PostgreSQL database that meet on NATS (the machine's, at
//! `NATS_URL` or 127.0.0.1:4222; with `CI=true` both must be there). Each test names a cluster of its own,
//! so tests sharing the NATS server do not see each other's tables.
//!
//! What is shown here: any node, any table (players connected to different nodes play a whole game at one
//! table while a spectator on a third node watches, and play again, the rematch answered and joined through
//! the forwarding node); one lobby (a public table of one node is listed live by
//! every node's lobby and `/api/tables`, and unlisted when it closes); and a cluster on SQLite refused with a
//! clear error; and a sign-out on one node ends the token on the others. Failover is cluster_failover.rs.

use crate::cluster_support;
use crate::common;

use std::time::Duration;

use cluster_support::{cluster_name, nats_url, node, node_with};
use common::{Follower, PgDatabase, create_table, guest, quick_close, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_server::AppState;
use romirami_server::cluster::{ClusterConfig, ClusterError};
use romirami_server::config::Config;
use romirami_server::protocol::{Role, SpectatorPolicy, TableId};
use romirami_server::server::OpenError;
use romirami_server::store::Store;

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
    // The players' own contributions make the deal: the table waits for them (Bruno's through b).
    let wait = |config: &mut Config| config.contribution_wait = Duration::from_secs(30);
    let a = node_with(&nats, &name, "a", &db.url, Duration::from_secs(5), wait).await;
    let b = node_with(&nats, &name, "b", &db.url, Duration::from_secs(5), wait).await;
    let c = node(&nats, &name, "c", &db.url, Duration::from_secs(5)).await;

    // Ana hosts on a; Bruno joins from b with the invite link; Cleo watches from c.
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, invite) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    let (mut bruno, _, _) = guest(&b.url, "Bruno").await;
    send(&mut bruno, ClientMsg::Join { table: table.id, invite: Some(invite), since: None }).await;
    let mut ana = Follower::new(ana, table.id, 0);
    let mut bruno = Follower::new(bruno, table.id, 0);
    // Both read at once: each client sends its contribution to the deal as it reads the table asking for it.
    tokio::join!(ana.until(|f| f.to_act.is_some()), bruno.until(|f| f.to_act.is_some()));
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
    // Both players' own contributions, Bruno's sent through b, dealt the game.
    let mut attempts = 0;
    let record = loop {
        attempts += 1;
        assert!(attempts < 200, "the record is served");
        let answer =
            common::http_get(&format!("{}/api/games/{}/record", b.http(), table.id.0), "application/json").await;
        if answer.status == 200 {
            break serde_json::from_str::<serde_json::Value>(&answer.body).expect("JSON");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let sent = [ana.client.contribution(table.id), bruno.client.contribution(table.id)];
    let contributions: Vec<Option<&str>> =
        record["contributions"].as_array().expect("contributions").iter().map(|v| v.as_str()).collect();
    assert_eq!(contributions, sent, "each seat's own contribution, in seat order");

    // They play again, Bruno answering through b; b forwards his commands to the new table on a too.
    send(&mut ana.client, ClientMsg::Rematch { table: table.id, accept: true }).await;
    send(&mut bruno.client, ClientMsg::Rematch { table: table.id, accept: true }).await;
    let started = |msg: &ServerMsg| match msg {
        ServerMsg::RematchStarted { rematch, .. } => Some(*rematch),
        _ => None,
    };
    let next = ana.client.wait_for(started).await.expect("the rematch starts");
    assert_eq!(bruno.client.wait_for(started).await.expect("Bruno, on b, is told"), next);
    send(&mut bruno.client, ClientMsg::Join { table: next, invite: None, since: None }).await;
    let role = bruno
        .client
        .wait_for(|msg| match msg {
            ServerMsg::Table { table, role, .. } if table.id == next => Some(*role),
            _ => None,
        })
        .await
        .expect("Bruno sits at the rematch through b");
    assert_eq!(role, Role::Seat(romirami_game::Seat(1)));

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

/// `method url` with a bearer token: the status.
async fn status_of(method: &'static str, url: String, token: String) -> u16 {
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let auth = format!("Bearer {token}");
        let answer = match method {
            "POST" => agent.post(&url).header("Authorization", &auth).send_empty(),
            _ => agent.get(&url).header("Authorization", &auth).call(),
        };
        answer.unwrap_or_else(|e| panic!("{method} {url}: {e}")).status().as_u16()
    })
    .await
    .expect("the request thread")
}

/// Issue 40: a token ended on one node is ended on every node. Ana's connection on b and b's memory of her
/// token (from her hello there) both go when she signs out everywhere through a.
#[tokio::test]
async fn signing_out_on_one_node_signs_out_on_the_others() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(5)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(5)).await;
    let (_ana, _, token) = guest(&a.url, "Ana").await;
    let (mut on_b, _) = Client::returning(&b.url, &token).await.expect("welcomed on b");
    let me_on_b = format!("{}/api/players/me", b.http());
    assert_eq!(status_of("GET", me_on_b.clone(), token.clone()).await, 200);

    let everywhere = format!("{}/api/sign-out-everywhere", a.http());
    assert_eq!(status_of("POST", everywhere, token.clone()).await, 204);
    common::expect_error(&mut on_b, None, romirami_server::protocol::ErrorCode::SignedOut).await;
    assert!(common::closed(&mut on_b).await.is_some(), "b closes her connection");
    assert_eq!(status_of("GET", me_on_b, token.clone()).await, 401, "b forgot her token");
    assert!(Client::returning(&b.url, &token).await.is_err(), "the token says hello to nobody on b");

    a.shutdown().await;
    b.shutdown().await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_cluster_on_sqlite_is_refused() {
    let Some(nats) = nats_url().await else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("one.db").display())).await.expect("open");
    let config = Config { cluster: Some(ClusterConfig::new(nats, None)), ..quick_close() };
    let refused = AppState::open(config, store).await.map(|_| ());
    assert!(matches!(refused, Err(OpenError::Cluster(ClusterError::NeedsPostgres))), "{refused:?}");
    let message = refused.expect_err("refused").to_string();
    assert!(message.contains("PostgreSQL"), "{message}");
}
