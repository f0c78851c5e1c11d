//! Tables before their game: joining by invite link or by id, the host's kick and start, leaving, and the
//! seats closing up when a game starts with a free seat between players.

use crate::common;

use common::{Follower, TestServer, create_table, expect_error, expect_table, fast, guest, recv, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::Seat;
use romirami_server::protocol::{ErrorCode, Role, SpectatorPolicy, TableId, TableState, TableSummary};

/// Reads `table` messages until one shows a summary for which `done` holds; returns it.
async fn table_where(client: &mut Client, table: TableId, done: impl Fn(&TableSummary) -> bool) -> TableSummary {
    client
        .wait_for(|msg| match msg {
            ServerMsg::Table { table: summary, .. } if summary.id == table && done(summary) => Some(summary.clone()),
            _ => None,
        })
        .await
        .expect("the table comes to that")
}

/// Who sits where, by name.
fn names(summary: &TableSummary) -> Vec<Option<&str>> {
    summary.seats.iter().map(|seat| seat.as_ref().map(|p| p.name.as_str())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_table_is_joined_only_with_its_invite_and_a_public_one_by_id() {
    let server = TestServer::start(fast()).await;
    let (mut host, _, _) = guest(&server.url, "Host").await;
    let (mut friend, friend_info, _) = guest(&server.url, "Friend").await;

    let (private, invite) = create_table(&mut host, 3, false, SpectatorPolicy::Link).await;
    assert_eq!(private.game, "romi-rami", "a table names the game it seats");
    let table = private.id;
    assert_eq!((private.state, private.public), (TableState::Waiting, false));
    assert_eq!(invite.len(), 32, "the invite key is a fresh random id");

    // Without the key, or with a wrong one, a private table does not exist; the answer is word for word
    // the one for a table that never existed.
    let nowhere = TableId(uuid::Uuid::new_v4());
    send(&mut friend, ClientMsg::Join { table: nowhere, invite: None, since: None }).await;
    let never = expect_error(&mut friend, Some(nowhere), ErrorCode::NoSuchTable).await;
    for key in [None, Some("0".repeat(32)), Some(invite.to_uppercase())] {
        send(&mut friend, ClientMsg::Join { table, invite: key, since: None }).await;
        assert_eq!(expect_error(&mut friend, Some(table), ErrorCode::NoSuchTable).await, never);
    }
    send(&mut friend, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    let (summary, role, view) = expect_table(&mut friend, table).await;
    assert_eq!((role, view.is_none()), (Role::Seat(Seat(1)), true));
    assert_eq!(names(&summary), [Some("Host"), Some("Friend"), None]);
    let seen_by_host = table_where(&mut host, table, |s| s.seats[1].is_some()).await;
    assert_eq!(seen_by_host.seats[1].as_ref(), Some(&friend_info));

    // Joining again from the same seat changes nothing.
    send(&mut friend, ClientMsg::Join { table, invite: None, since: None }).await;
    let (again, role, _) = expect_table(&mut friend, table).await;
    assert_eq!((role, names(&again)), (Role::Seat(Seat(1)), vec![Some("Host"), Some("Friend"), None]));

    // A public table needs no key.
    let (public, _) = create_table(&mut host, 2, true, SpectatorPolicy::Everyone).await;
    let (mut stranger, _, _) = guest(&server.url, "Stranger").await;
    send(&mut stranger, ClientMsg::Join { table: public.id, invite: None, since: None }).await;
    let (summary, role, view) = expect_table(&mut stranger, public.id).await;
    assert_eq!((role, summary.state), (Role::Seat(Seat(1)), TableState::Playing), "the last seat starts the game");
    assert!(view.is_some());

    // A full table has started: nobody else sits down.
    let (mut late, _, _) = guest(&server.url, "Late").await;
    send(&mut late, ClientMsg::Join { table: public.id, invite: None, since: None }).await;
    expect_error(&mut late, Some(public.id), ErrorCode::AlreadyStarted).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_kicks_and_starts_players_leave_and_the_seats_close_up() {
    let server = TestServer::start(fast()).await;
    let url = &server.url;
    let (mut ana, _, _) = guest(url, "Ana").await;
    let (mut ben, ben_info, _) = guest(url, "Ben").await;
    let (mut cat, _, _) = guest(url, "Cat").await;
    let (summary, _) = create_table(&mut ana, 4, true, SpectatorPolicy::Everyone).await;
    let table = summary.id;
    for client in [&mut ben, &mut cat] {
        send(client, ClientMsg::Join { table, invite: None, since: None }).await;
        expect_table(client, table).await;
    }
    for client in [&mut ana, &mut ben] {
        let summary = table_where(client, table, |s| s.seats[2].is_some()).await;
        assert_eq!(names(&summary), [Some("Ana"), Some("Ben"), Some("Cat"), None]);
    }

    // Only the host kicks or starts; the host cannot kick itself or an empty seat.
    send(&mut ben, ClientMsg::Kick { table, seat: Seat(2) }).await;
    expect_error(&mut ben, Some(table), ErrorCode::NotHost).await;
    send(&mut ben, ClientMsg::Start { table }).await;
    expect_error(&mut ben, Some(table), ErrorCode::NotHost).await;
    send(&mut ana, ClientMsg::Kick { table, seat: Seat(0) }).await;
    expect_error(&mut ana, Some(table), ErrorCode::BadOptions).await;
    send(&mut ana, ClientMsg::Kick { table, seat: Seat(3) }).await;
    expect_error(&mut ana, Some(table), ErrorCode::NotSeated).await;

    // The host kicks Ben: he is told, the others see his seat free.
    send(&mut ana, ClientMsg::Kick { table, seat: Seat(1) }).await;
    assert_eq!(recv(&mut ben).await, ServerMsg::Left { table });
    for client in [&mut ana, &mut cat] {
        let (summary, _, _) = expect_table(client, table).await;
        assert_eq!(names(&summary), [Some("Ana"), None, Some("Cat"), None]);
    }
    // A kicked player may come back to the first free seat.
    send(&mut ben, ClientMsg::Join { table, invite: None, since: None }).await;
    let (summary, role, _) = expect_table(&mut ben, table).await;
    assert_eq!((role, names(&summary)), (Role::Seat(Seat(1)), vec![Some("Ana"), Some("Ben"), Some("Cat"), None]));

    // Cat leaves; then the host leaves, and the table passes to Ben.
    send(&mut cat, ClientMsg::Leave { table }).await;
    let summary = table_where(&mut cat, table, |s| s.seats[1].is_some()).await;
    assert_eq!(names(&summary), [Some("Ana"), Some("Ben"), Some("Cat"), None], "Cat saw Ben come back");
    assert_eq!(recv(&mut cat).await, ServerMsg::Left { table });
    send(&mut ana, ClientMsg::Leave { table }).await;
    ana.wait_for(|msg| (*msg == ServerMsg::Left { table }).then_some(())).await.expect("Ana is told");
    let summary = table_where(&mut ben, table, |s| s.seats[0].is_none()).await;
    assert_eq!((summary.host, names(&summary)), (ben_info.id, vec![None, Some("Ben"), None, None]));

    // The former host has no say any more; the new host cannot start alone.
    send(&mut ana, ClientMsg::Start { table }).await;
    expect_error(&mut ana, Some(table), ErrorCode::NotHost).await;
    send(&mut ben, ClientMsg::Start { table }).await;
    expect_error(&mut ben, Some(table), ErrorCode::NotEnoughPlayers).await;

    // Cat comes back to seat 0 and Dan takes seat 2, leaving seat 3 free: the game starts with three,
    // seated in order without the gap.
    let (mut dan, _, _) = guest(url, "Dan").await;
    for client in [&mut cat, &mut dan] {
        send(client, ClientMsg::Join { table, invite: None, since: None }).await;
        expect_table(client, table).await;
    }
    let summary = table_where(&mut ben, table, |s| s.seats[2].is_some()).await;
    assert_eq!(names(&summary), [Some("Cat"), Some("Ben"), Some("Dan"), None]);
    send(&mut ben, ClientMsg::Start { table }).await;
    let mut players = Vec::new();
    for (client, seat) in [(cat, 0), (ben, 1), (dan, 2)] {
        let mut follower = Follower::new(client, table, 0);
        follower.until(|f| !f.views.is_empty()).await;
        let view = &follower.views[0];
        assert_eq!((follower.seat, view.seats.len()), (Some(Seat(seat)), 3));
        players.push(follower);
    }

    // Seats no longer change once the game is on.
    let (mut eve, _, _) = guest(url, "Eve").await;
    send(&mut eve, ClientMsg::Join { table, invite: None, since: None }).await;
    expect_error(&mut eve, Some(table), ErrorCode::AlreadyStarted).await;
    for request in [ClientMsg::Kick { table, seat: Seat(2) }, ClientMsg::Start { table }] {
        let ben = &mut players[1];
        send(&mut ben.client, request).await;
        loop {
            if let ServerMsg::Error { code, .. } = ben.recv().await {
                assert_eq!(code, ErrorCode::AlreadyStarted);
                break;
            }
        }
    }

    // And the three play it to the end.
    let tasks: Vec<_> =
        players.into_iter().map(|mut player| tokio::spawn(async move { player.play_to_end().await })).collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.expect("a seat plays to the end"));
    }
    assert_eq!(results[0].scores.len(), 3);
    assert!(results.iter().all(|r| *r == results[0]));
    server.shutdown().await;
}
