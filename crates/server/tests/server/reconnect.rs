//! Coming back to a seat: a player whose connection drops in the middle of a game returns with its token
//! and gets exactly what it missed, or the whole state; and one seat can be played from two
//! connections at once.

use crate::common;

use common::{Follower, TestServer, create_table, expect_table, fast, first_event_of, guest, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_engine::{Action, Seat, Viewer, VisibleEvent};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, Presence, PresenceChange, Role, SpectatorPolicy, TableId};

/// Connects again with `token`, asks for `table` from `since`, and returns the connection.
async fn come_back(url: &str, token: &str, table: TableId, since: Option<usize>) -> Client {
    let (mut client, _) = Client::returning(url, token).await.expect("the token is welcomed");
    send(&mut client, ClientMsg::Join { table, invite: None, since }).await;
    client
}

/// The same event as seen by two seats: equal, but for the cards of another seat's draws and discards.
fn same_event(mine: &VisibleEvent, theirs: &VisibleEvent, me: Seat) {
    match (mine, theirs) {
        (
            VisibleEvent::Drew { seat, count, cards },
            VisibleEvent::Drew { seat: their_seat, count: their_count, cards: their_cards },
        )
        | (
            VisibleEvent::Discarded { seat, count, cards },
            VisibleEvent::Discarded { seat: their_seat, count: their_count, cards: their_cards },
        ) => {
            assert_eq!((seat, count), (their_seat, their_count));
            assert_eq!(cards.is_some(), *seat == me);
            assert_eq!(their_cards.is_some(), *seat != me);
            if let (Some(cards), Some(theirs)) = (cards, their_cards) {
                assert_eq!(cards, theirs);
            }
        }
        _ => assert_eq!(mine, theirs),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_drops_mid_game_catches_up_and_plays_on() {
    let catch_up_limit = 40;
    let server = TestServer::start(Config { catch_up_limit, ..fast() }).await;
    let url = server.url.clone();
    let (mut first, ana, token) = guest(&url, "Ana").await;
    let (mut ben, _, _) = guest(&url, "Ben").await;
    let (table, invite) = create_table(&mut first, 2, false, SpectatorPolicy::Link).await;
    let table = table.id;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    let mut ben = Follower::new(ben, table, 0);
    let ben = tokio::spawn(async move {
        ben.play_to_end().await;
        ben
    });

    // Ana plays until she passes with more events behind her than a catch-up may hold, then her
    // connection drops before she sees what her pass did.
    let mut first = Follower::new(first, table, 0);
    let seen = loop {
        first.until(|f| f.turn.is_some()).await;
        let action = choose(first.turn.as_ref().expect("a turn")).expect("a legal action");
        let seen = first.next;
        first.act(action).await;
        if action == Action::Pass && seen > catch_up_limit + 10 {
            break seen;
        }
    };
    drop(first);

    // Back with `since`: exactly the events she missed, from her pass on.
    let (mut client, who) = Client::returning(&url, &token).await.expect("the token is welcomed");
    assert_eq!(who, ana, "the token names the same player");
    send(&mut client, ClientMsg::Join { table, invite: None, since: Some(seen) }).await;
    let mut second = Follower::new(client, table, seen);
    match second.recv().await {
        ServerMsg::Events { events, .. } => {
            assert_eq!(events.first().map(|e| (e.n, &e.event)), Some((seen, &VisibleEvent::Passed { seat: Seat(0) })));
            assert!(events.len() <= catch_up_limit);
        }
        other => panic!("a short catch-up is a list of events, not {other:?}"),
    }
    let missed = second.events.clone();
    drop(second);

    // From too far behind, from a number the table has not reached, or without `since`: the whole
    // state, as her seat may see it.
    let mut last_count = seen + 1;
    let mut last = None;
    for since in [Some(0), Some(1_000_000), None] {
        let mut client = come_back(&url, &token, table, since).await;
        let (summary, role, view) = expect_table(&mut client, table).await;
        let view = view.expect("a game in progress is shown");
        assert_eq!((role, view.viewer), (Role::Seat(Seat(0)), Viewer::Seat(Seat(0))), "{since:?}");
        assert_eq!(summary.seats[0].as_ref().map(|p| p.id), Some(ana.id));
        assert!(view.hand.is_some() && view.suit_bonus.is_some());
        assert!(view.event_count >= last_count, "the view is the current state");
        last_count = view.event_count;
        let mut follower = Follower::new(client, table, 0);
        follower.observe(&ServerMsg::Table { table: summary, role, view: Some(view) });
        last = Some(follower);
    }

    // The last connection plays to the end.
    let mut last = last.expect("a connection");
    let result = last.play_to_end().await;
    let ben = ben.await.expect("Ben plays to the end");
    assert_eq!(ben.result.as_ref(), Some(&result), "both seats saw the same game end");
    assert_eq!(last.next, ben.next);

    // Ben was told each time Ana's seat lost its last connection and got one again (a connection may
    // close after the next one joined: then her seat never was without one, and nothing is told).
    let expected =
        [(Seat(0), Presence::Away, PresenceChange::Disconnected), (Seat(0), Presence::Here, PresenceChange::Back)];
    for (n, change) in ben.presence.iter().enumerate() {
        assert_eq!(*change, expected[n % 2], "presence alternates away and back: {:?}", ben.presence);
    }
    assert!(ben.presence.len() % 2 == 0, "Ana's last connection is here at the end: {:?}", ben.presence);

    // What she missed is what Ben saw, as her seat sees it.
    for event in &missed {
        let his = ben.events.iter().find(|e| e.n == event.n).expect("Ben saw every event");
        same_event(&event.event, &his.event, Seat(0));
    }

    // An action after the end is refused as such (the rematch offer that follows the end aside).
    send(&mut last.client, ClientMsg::Act { table, id: 99, action: Action::Pass }).await;
    let answer = last.client.wait_for(|msg| (!matches!(msg, ServerMsg::Rematch { .. })).then(|| msg.clone())).await;
    match answer.expect("an answer") {
        ServerMsg::Error { id: Some(99), code: ErrorCode::GameOver, .. } => {}
        other => panic!("an action after the end is refused with game_over, not {other:?}"),
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_seat_can_be_played_from_two_connections() {
    let server = TestServer::start(fast()).await;
    let url = server.url.clone();
    let (mut first, ana, token) = guest(&url, "Ana").await;
    let (mut ben, _, _) = guest(&url, "Ben").await;
    let (table, invite) = create_table(&mut first, 2, false, SpectatorPolicy::Link).await;
    let table = table.id;
    let mut first = Follower::new(first, table, 0);
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    first.until(|f| f.to_act.is_some()).await;

    let (client, who) = Client::returning(&url, &token).await.expect("the token is welcomed");
    assert_eq!(who, ana);
    let mut second = Follower::new(client, table, 0);
    send(&mut second.client, ClientMsg::Join { table, invite: None, since: None }).await;
    second.until(|f| f.to_act.is_some()).await;
    assert_eq!((second.seat, second.next), (Some(Seat(0)), first.next), "the second connection sits in the same seat");
    second.next_id = 1000;

    let mut ben = Follower::new(ben, table, 0);
    let ben = tokio::spawn(async move {
        ben.play_to_end().await;
        ben
    });

    // Ana's turns are played from one connection and then the other; each sees what the other did.
    let mut second = Some(second);
    let mut turns = 0;
    let mut played = [0, 0];
    let mut overlap = Vec::new();
    loop {
        first.until(|f| f.turn.is_some() || f.result.is_some()).await;
        if let Some(second) = &mut second {
            second.until(|f| f.turn.is_some() || f.result.is_some()).await;
            assert_eq!((second.next, &second.turn), (first.next, &first.turn), "both connections are at one point");
        }
        if first.result.is_some() {
            break;
        }
        let use_second = second.is_some() && turns % 2 == 1;
        let (actor, other) = match &mut second {
            Some(second) if use_second => (second, Some(&mut first)),
            Some(second) => (&mut first, Some(second)),
            None => (&mut first, None),
        };
        let action = choose(actor.turn.as_ref().expect("a turn")).expect("a legal action");
        let at = actor.next;
        let id = actor.act(action).await;
        actor.until(|f| f.acks.iter().any(|(acked, _)| *acked == id)).await;
        if let Some(other) = other {
            other.until(|f| f.next > at).await;
            let seen = other.events.iter().find(|e| e.n == at).map(|e| &e.event);
            assert_eq!(seen, Some(&first_event_of(Seat(0), action, true)), "the other connection sees the action");
        }
        played[usize::from(use_second)] += 1;
        turns += 1;
        if turns == 12 {
            // Closing one connection leaves the other playing.
            let second = second.take().expect("two connections");
            overlap.clone_from(&second.events);
            let acks: Vec<u64> = second.acks.iter().map(|(id, _)| *id).collect();
            assert_eq!(acks, (1000..1000 + played[1]).collect::<Vec<u64>>(), "each connection gets its own acks");
            second.client.close().await.expect("closes");
        }
    }
    let acks: Vec<u64> = first.acks.iter().map(|(id, _)| *id).collect();
    assert_eq!(acks, (1..=played[0]).collect::<Vec<u64>>(), "each connection gets its own acks");
    assert!(played[1] > 0 && played[0] > played[1]);

    let ben = ben.await.expect("Ben plays to the end");
    assert_eq!(ben.result, first.result);
    assert!(ben.presence.is_empty(), "Ana's seat always had a connection: {:?}", ben.presence);
    assert_eq!(ben.next, first.next);
    assert!(!overlap.is_empty());
    for event in &overlap {
        let mine = first.events.iter().find(|e| e.n == event.n).expect("the first connection saw it too");
        assert_eq!(mine, event, "both connections of a seat see the same events");
    }
    server.shutdown().await;
}
