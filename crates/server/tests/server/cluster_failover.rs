//! A node that dies, is cut off or loses its lease: its tables live on elsewhere, and it acknowledges nothing
//! more. Server nodes on one PostgreSQL database meet on NATS (as in cluster.rs). Shown here: one owner per
//! table (a node restores only the tables whose lease it can take); fencing (a node whose lease was taken
//! cannot acknowledge another action: refused, not written, and the table closes there); takeover (a table
//! whose lease ran out is adopted by another node, where its player resumes by event number); a node whose
//! lease renewal finds the lease gone closes the table and sends its players on; and a partition
//! (a node whose NATS connection is cut stops renewing, its table is taken over, and every action it
//! acknowledged is in the game's record); and a node that says hello again under its id (killed and restarted
//! before it was missed): the players at its tables on other nodes are told to join them again.

use crate::cluster_support;
use crate::common;

use std::time::Duration;

use cluster_support::{cluster_name, nats_url, node};
use common::{Follower, PgDatabase, Proxy, create_table, guest, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::{Action, Seat};
use romirami_server::protocol::{ErrorCode, SpectatorPolicy, TableId};
use romirami_server::store::Store;

/// Ends the lease of `table` now, as if its node had died (the row is the one a takeover looks at).
async fn expire(store: &Store, table: TableId) {
    let Store::Postgres(pg) = store else { unreachable!("a cluster is on PostgreSQL") };
    sqlx::query("UPDATE table_leases SET expires_at = now() - interval '1 second' WHERE table_id = $1")
        .bind(table.0)
        .execute(pg.pool())
        .await
        .expect("expire the lease");
}

/// Waits until `server` runs `table`.
async fn runs(server: &common::TestServer, table: TableId) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while server.state.lobby.table(table).is_none() {
        assert!(tokio::time::Instant::now() < deadline, "the table is taken over within a few seconds");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_node_restores_only_the_tables_it_can_lease_and_a_lost_lease_acknowledges_nothing() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(30)).await;
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, _) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    send(&mut ana, ClientMsg::AddBot { table: table.id, level: romirami_game::Level::Normal }).await;
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
    expire(&b.state.store, table.id).await;
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
async fn a_node_whose_renewal_finds_the_lease_gone_closes_the_table_there_without_waiting_for_a_write() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_millis(600)).await;
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, _) = create_table(&mut ana, 2, false, SpectatorPolicy::Link).await;
    send(&mut ana, ClientMsg::AddBot { table: table.id, level: romirami_game::Level::Normal }).await;
    // The game waits for Ana (no clock): nothing is written at the table until she acts.
    ana.wait_for(|msg| matches!(msg, ServerMsg::YourTurn { .. }).then_some(())).await.expect("her turn");

    // Another node gets the table (a's lease ran out while a was paused, say). a writes nothing more, so no
    // fenced write tells it; its next renewal does, and the table closes there and sends Ana on at once,
    // rather than showing her a game that moves on elsewhere.
    expire(&a.state.store, table.id).await;
    let taken = a.state.store.acquire_lease(table.id, "c", Duration::from_secs(30)).await.expect("acquire");
    assert!(taken.is_some(), "the expired lease is granted to another node");
    let told = tokio::time::timeout(
        Duration::from_secs(10),
        ana.wait_for(|msg| match msg {
            ServerMsg::Error { code: ErrorCode::TableMoved, table: Some(t), .. } if *t == table.id => Some(()),
            _ => None,
        }),
    )
    .await;
    assert!(matches!(told, Ok(Ok(()))), "Ana is told the table moved: {told:?}");
    assert!(a.state.lobby.table(table.id).is_none(), "the table closed on the node that lost it");

    a.shutdown().await;
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
    send(&mut ana.client, ClientMsg::AddBot { table: table.id, level: romirami_game::Level::Normal }).await;
    ana.until(|f| f.turn.is_some() && f.seat.is_some()).await;
    let legal = ana.turn.clone().expect("her turn");
    ana.act(legal[0]).await;
    ana.until(|f| !f.acks.is_empty()).await;
    let acknowledged = ana.acks[0].1;

    // a is gone for the cluster (its lease runs out, as when it is killed): b takes the table over from the
    // action log, with Ana's acknowledged action in it.
    expire(&b.state.store, table.id).await;
    runs(&b, table.id).await;
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
async fn a_node_cut_off_from_nats_lets_its_table_go_and_no_acknowledged_action_is_lost() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    // a meets the cluster through a proxy that the test cuts; b is connected directly.
    let proxy = Proxy::start(nats.trim_start_matches("nats://").to_owned()).await;
    let a = node(&format!("nats://{}", proxy.addr), &name, "a", &db.url, Duration::from_millis(900)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_millis(900)).await;
    let (ana, _, token) = guest(&a.url, "Ana").await;
    let mut ana = Follower::new(ana, TableId(uuid::Uuid::nil()), 0);
    let (table, _) = create_table(&mut ana.client, 2, false, SpectatorPolicy::Link).await;
    ana.table = table.id;
    send(&mut ana.client, ClientMsg::AddBot { table: table.id, level: romirami_game::Level::Normal }).await;
    ana.until(|f| f.turn.is_some()).await;

    // a loses NATS. Ana plays on at a, a move every 100 ms, while a still holds the lease; then a stops
    // renewing, its lease runs out, and its next append is fenced: refused, never acknowledged.
    proxy.cut();
    // The end comes as a refusal of Ana's move, or as the table's news that it moves (when the bot's move was
    // the one fenced).
    let mut acknowledged = Vec::new();
    let mut legal = ana.turn.take();
    loop {
        let turn = match legal.take() {
            Some(turn) => Some(turn),
            None => ana
                .client
                .wait_for(|msg| match msg {
                    ServerMsg::YourTurn { legal, .. } => Some(Some(legal.clone())),
                    ServerMsg::GameOver { .. } => panic!("the game ended before a let the table go"),
                    ServerMsg::Error { code: ErrorCode::TableMoved, .. } => Some(None),
                    ServerMsg::Error { code, message, .. } => panic!("refused as {code:?}: {message}"),
                    _ => None,
                })
                .await
                .expect("Ana's turn, or news that the table moves"),
        };
        let Some(legal) = turn else { break };
        tokio::time::sleep(Duration::from_millis(100)).await;
        let action = legal.iter().copied().find(|a| *a != Action::TakeBack).expect("a move");
        let id = ana.act(action).await;
        let refused = ana
            .client
            .wait_for(|msg| match msg {
                ServerMsg::Ack { id: acked, .. } if *acked == id => Some(None),
                ServerMsg::Error { id: Some(failed), code, .. } if *failed == id => Some(Some(*code)),
                _ => None,
            })
            .await
            .expect("an answer");
        match refused {
            None => acknowledged.push(action),
            Some(ErrorCode::Unavailable | ErrorCode::TableMoved) => break,
            Some(other) => panic!("refused as {other:?}"),
        }
    }
    runs(&b, table.id).await;

    // Ana comes back on b: every move a acknowledged is in the game b took over, and she plays it out.
    let (again, _) = Client::returning(&b.url, &token).await.expect("Ana is known on b");
    let mut again = Follower::new(again, table.id, 0);
    send(&mut again.client, ClientMsg::Join { table: table.id, invite: None, since: Some(0) }).await;
    again.until(|f| f.next > 0).await;
    // Each acknowledged move's first event is in the log, in order.
    let mut expected = acknowledged.iter().map(|action| common::first_event_of(Seat(0), *action, true)).peekable();
    for event in &again.events {
        if expected.peek() == Some(&event.event) {
            expected.next();
        }
    }
    assert!(expected.peek().is_none(), "every move a acknowledged ({}) is in the game b took over", acknowledged.len());
    again.play_to_end().await;

    a.shutdown().await;
    b.shutdown().await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_node_that_says_hello_again_sends_the_players_at_its_tables_to_join_them_again() {
    let (Some(nats), Some(db)) = (nats_url().await, PgDatabase::create().await) else { return };
    let name = cluster_name();
    let a = node(&nats, &name, "a", &db.url, Duration::from_secs(30)).await;
    let b = node(&nats, &name, "b", &db.url, Duration::from_secs(30)).await;
    // Ana hosts on a; Bruno plays from b, so his connection is a member there only through a's forwarding.
    let (mut ana, _, _) = guest(&a.url, "Ana").await;
    let (table, invite) = create_table(&mut ana, 2, false, SpectatorPolicy::Link).await;
    let (mut bruno, _, _) = guest(&b.url, "Bruno").await;
    send(&mut bruno, ClientMsg::Join { table: table.id, invite: Some(invite), since: None }).await;
    let mut bruno = Follower::new(bruno, table.id, 0);
    bruno.until(|f| f.to_act.is_some()).await;

    // A node says hello under a's id, as a killed a restarted under its id does before b misses it: the a
    // that ran the table is gone for b, whose players there join again (the new process has no member of
    // theirs), rather than wait for messages that never come.
    let again = node(&nats, &name, "a", &db.url, Duration::from_secs(30)).await;
    let moved = bruno
        .client
        .wait_for(|msg| match msg {
            ServerMsg::Error { code: ErrorCode::TableMoved, table: Some(t), .. } if *t == table.id => Some(()),
            _ => None,
        })
        .await;
    assert!(moved.is_ok(), "Bruno is told that his table moved");

    again.shutdown().await;
    a.shutdown().await;
    b.shutdown().await;
    db.drop_database().await;
}
