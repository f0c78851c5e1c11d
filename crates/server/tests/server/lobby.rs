//! The lobby: a subscriber gets the public tables once, then every change as it happens, without asking
//! again; private and finished tables are never listed.

use crate::common;

use common::{Follower, TestServer, create_table, expect_error, expect_table, fast, guest, recv, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_server::protocol::{ErrorCode, SpectatorPolicy, TableId, TableState, TableSummary};

/// The next message, which must be a `lobby_table`.
async fn lobby_table(client: &mut Client) -> TableSummary {
    match recv(client).await {
        ServerMsg::LobbyTable { table } => table,
        other => panic!("expected a lobby update, got {other:?}"),
    }
}

/// Who sits where, by name.
fn names(summary: &TableSummary) -> Vec<Option<&str>> {
    summary.seats.iter().map(|seat| seat.as_ref().map(|p| p.name.as_str())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_follows_a_public_table_from_opening_to_its_end() {
    let server = TestServer::start(fast()).await;
    let url = &server.url;
    let (mut lobby, _, _) = guest(url, "Lobby").await;
    send(&mut lobby, ClientMsg::LobbySubscribe).await;
    assert_eq!(recv(&mut lobby).await, ServerMsg::Lobby { tables: Vec::new() });

    // It opens.
    let (mut ana, _, _) = guest(url, "Ana").await;
    let (created, _) = create_table(&mut ana, 3, true, SpectatorPolicy::Everyone).await;
    let table = created.id;
    let opened = lobby_table(&mut lobby).await;
    assert_eq!(opened, created);
    assert_eq!(
        (opened.state, names(&opened), opened.spectator_count),
        (TableState::Waiting, vec![Some("Ana"), None, None], 0)
    );

    // A private table is never listed: the next update is the public table's.
    let (mut hidden_host, _, _) = guest(url, "Hidden").await;
    let (private, _) = create_table(&mut hidden_host, 2, false, SpectatorPolicy::Everyone).await;
    let (mut ben, _, _) = guest(url, "Ben").await;
    send(&mut ben, ClientMsg::Join { table, invite: None, since: None }).await;
    let update = lobby_table(&mut lobby).await;
    assert_eq!((update.id, names(&update)), (table, vec![Some("Ana"), Some("Ben"), None]));

    // A spectator arrives.
    let (watcher, _, _) = guest(url, "Watcher").await;
    let mut watcher = Follower::new(watcher, table, 0);
    send(&mut watcher.client, ClientMsg::Watch { table, invite: None, since: None }).await;
    let update = lobby_table(&mut lobby).await;
    assert_eq!((update.id, update.spectator_count), (table, 1));

    // It fills, which starts it.
    let (mut cat, _, _) = guest(url, "Cat").await;
    send(&mut cat, ClientMsg::Join { table, invite: None, since: None }).await;
    let update = lobby_table(&mut lobby).await;
    assert_eq!((update.id, update.state), (table, TableState::Playing));
    assert_eq!(names(&update), [Some("Ana"), Some("Ben"), Some("Cat")]);

    // A second subscriber gets the list as it stands.
    let (mut late, _, _) = guest(url, "Late").await;
    send(&mut late, ClientMsg::LobbySubscribe).await;
    assert_eq!(recv(&mut late).await, ServerMsg::Lobby { tables: vec![update.clone()] });
    assert!(update.id != private.id);

    // It is played to the end: the next update removes it, for both subscribers.
    let tasks: Vec<_> = [ana, ben, cat]
        .into_iter()
        .map(|client| {
            let mut player = Follower::new(client, table, 0);
            tokio::spawn(async move { player.play_to_end().await })
        })
        .collect();
    for task in tasks {
        task.await.expect("a seat plays to the end");
    }
    watcher.until(|f| f.result.is_some()).await;
    for subscriber in [&mut lobby, &mut late] {
        assert_eq!(recv(subscriber).await, ServerMsg::LobbyTableRemoved { table });
    }

    // Unsubscribed, a client hears nothing more; subscribed again, it gets the list first.
    send(&mut lobby, ClientMsg::LobbyUnsubscribe).await;
    let nowhere = TableId(uuid::Uuid::new_v4());
    send(&mut lobby, ClientMsg::Join { table: nowhere, invite: None, since: None }).await;
    expect_error(&mut lobby, Some(nowhere), ErrorCode::NoSuchTable).await;
    let (mut dan, _, _) = guest(url, "Dan").await;
    let (second, _) = create_table(&mut dan, 2, true, SpectatorPolicy::Everyone).await;
    assert_eq!(lobby_table(&mut late).await, second, "a subscriber sees it open");
    send(&mut lobby, ClientMsg::LobbySubscribe).await;
    assert_eq!(recv(&mut lobby).await, ServerMsg::Lobby { tables: vec![second.clone()] });

    // A table whose last player leaves before the start closes, and leaves the lobby.
    expect_table(&mut dan, second.id).await;
    send(&mut dan, ClientMsg::Leave { table: second.id }).await;
    assert_eq!(recv(&mut dan).await, ServerMsg::Left { table: second.id });
    for subscriber in [&mut lobby, &mut late] {
        // Its last change (no one seated) may come just before.
        loop {
            match recv(subscriber).await {
                ServerMsg::LobbyTableRemoved { table } if table == second.id => break,
                ServerMsg::LobbyTable { table } if table.id == second.id && table.seats.iter().all(Option::is_none) => {
                }
                other => panic!("expected the table to leave the lobby, got {other:?}"),
            }
        }
    }
    send(&mut dan, ClientMsg::Join { table: second.id, invite: None, since: None }).await;
    expect_error(&mut dan, Some(second.id), ErrorCode::NoSuchTable).await;
    server.shutdown().await;
}
