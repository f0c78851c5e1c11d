//! Finished tables keep nothing in memory once nobody is at them: when the result is stored and the last
//! member has gone the table's task ends, and a later `join` or `watch` reads the finished game from the
//! store under the same rules as the live table.

use crate::common;

use common::{Follower, TestServer, create_table, expect_error, expect_table, fast, guest, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::Seat;
use romirami_server::protocol::{ErrorCode, Role, SpectatorPolicy, TableId, TableState};

/// Plays a two-player game at a new table to its end; returns the table, its invite, and the players.
async fn finished_game(url: &str, public: bool, spectators: SpectatorPolicy) -> (TableId, String, Client, Client) {
    let (mut ana, _, _) = guest(url, "Ana").await;
    let (mut bo, _, _) = guest(url, "Bo").await;
    let (summary, invite) = create_table(&mut ana, 2, public, spectators).await;
    let table = summary.id;
    send(&mut bo, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    let (mut ana, mut bo) = (Follower::new(ana, table, 0), Follower::new(bo, table, 0));
    let (a, b) = tokio::join!(ana.play_to_end(), bo.play_to_end());
    assert_eq!(a, b, "both players see the same result");
    (table, invite, ana.client, bo.client)
}

/// Waits until the table's task has ended (its result is stored).
async fn closed(server: &TestServer, table: TableId) {
    for _ in 0..500 {
        if server.state.lobby.table(table).is_none() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the finished table's task did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_table_is_read_back_from_the_store_by_its_players_and_spectators() {
    let server = TestServer::start(fast()).await;
    let (table, _, mut ana, bo) = finished_game(&server.url, true, SpectatorPolicy::Everyone).await;
    // The table stays while its players are at it; Ana leaves, Bo's connection drops.
    assert!(server.state.lobby.table(table).is_some(), "the players are still at the finished table");
    send(&mut ana, ClientMsg::Leave { table }).await;
    ana.wait_for(|msg| (*msg == ServerMsg::Left { table }).then_some(())).await.expect("left");
    drop(bo);
    closed(&server, table).await;
    // A player coming back sees their seat and the final view; a spectator sees the spectators' view.
    send(&mut ana, ClientMsg::Join { table, invite: None, since: None }).await;
    let (summary, role, view) = expect_table(&mut ana, table).await;
    assert_eq!(summary.state, TableState::Finished);
    assert_eq!(role, Role::Seat(Seat(0)));
    let view = view.expect("the final view");
    assert!(view.result.is_some(), "the final view holds the result");
    let (mut cleo, _, _) = guest(&server.url, "Cleo").await;
    send(&mut cleo, ClientMsg::Watch { table, invite: None, since: None }).await;
    let (summary, role, _) = expect_table(&mut cleo, table).await;
    assert_eq!((summary.state, role), (TableState::Finished, Role::Spectator));
    assert_eq!(summary.seats.iter().flatten().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Ana", "Bo"]);
    // Someone new cannot sit down at it.
    send(&mut cleo, ClientMsg::Join { table, invite: None, since: None }).await;
    expect_error(&mut cleo, Some(table), ErrorCode::AlreadyStarted).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_private_table_keeps_its_rules() {
    let server = TestServer::start(fast()).await;
    let (table, invite, ana, bo) = finished_game(&server.url, false, SpectatorPolicy::Link).await;
    drop((ana, bo));
    closed(&server, table).await;
    let (mut eve, _, _) = guest(&server.url, "Eve").await;
    // Without the link a private table does not admit to exist; with it, one may watch.
    send(&mut eve, ClientMsg::Watch { table, invite: None, since: None }).await;
    expect_error(&mut eve, Some(table), ErrorCode::NoSuchTable).await;
    send(&mut eve, ClientMsg::Watch { table, invite: Some(invite), since: None }).await;
    let (_, role, view) = expect_table(&mut eve, table).await;
    assert_eq!(role, Role::Spectator);
    let view = view.expect("the final view");
    assert!(view.hand.is_none(), "a spectator holds no hand");
    assert!(view.result.is_some(), "the final view holds the result");
    server.shutdown().await;
}
