//! Spectators over real WebSockets: they see every public event, in order and once, and no secret (§6);
//! the host's policy decides who may watch.

use crate::common;
use std::time::Duration;

use common::{
    Bystander, Follower, TestServer, create_table, expect_error, expect_table, fast, guest, quick_close, recv, send,
};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_engine::{Action, Cards, Phase, Seat, VisibleEvent};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, Role, SpectatorPolicy};
use serde_json::Value;
use tokio::sync::oneshot;

/// Every object key in `value`, except inside a `result` (the game's result is public once it is over).
fn keys_outside_results(value: &Value, keys: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                keys.push(key.clone());
                if key != "result" {
                    keys_outside_results(inner, keys);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| keys_outside_results(item, keys)),
        _ => {}
    }
}

/// Every `drew` and `discarded` event object anywhere in `value`.
fn hand_events<'a>(value: &'a Value, found: &mut Vec<&'a serde_json::Map<String, Value>>) {
    match value {
        Value::Object(map) => {
            if matches!(map.get("type").and_then(Value::as_str), Some("drew" | "discarded")) {
                found.push(map);
            }
            map.values().for_each(|inner| hand_events(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|item| hand_events(item, found)),
        _ => {}
    }
}

/// A spectator whose every frame is recorded.
async fn spectator(url: &str, name: &str) -> Client {
    let (mut client, _, _) = guest(url, name).await;
    client.recorded = Some(Vec::new());
    client
}

/// Reads until the game's last event and its result came.
async fn follow_to_the_end(follower: &mut Follower) {
    follower.until(|f| f.result.is_some()).await;
    assert!(matches!(follower.events.last().map(|e| &e.event), Some(VisibleEvent::GameOver { .. })));
}

/// Three spectators of a bot game, arriving before the start, from event 0 in the middle, and for the
/// state in the middle, see every event once and in order, the seats' events but for the cards drawn
/// and discarded, and no hand, suit bonus pile or private score: every frame they receive is searched.
/// (`suit_bonus` and `total` do appear inside the game's `result`, which §6 reveals to all at the end.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_every_public_event_once_and_no_secret() {
    let server = TestServer::start(fast()).await;
    let url = server.url.clone();
    let mut seats = Vec::new();
    for name in ["Ana", "Ben", "Cat"] {
        let (mut client, _, _) = guest(&url, name).await;
        client.recorded = Some(Vec::new());
        seats.push(client);
    }
    let (table, _) = create_table(&mut seats[0], 3, true, SpectatorPolicy::Everyone).await;
    let table = table.id;

    // The first spectator watches before the start.
    let mut early = Follower::new(spectator(&url, "Early").await, table, 0);
    send(&mut early.client, ClientMsg::Watch { table, invite: None, since: None }).await;
    let (_, role, view) = expect_table(&mut early.client, table).await;
    assert_eq!((role, view.is_none()), (Role::Spectator, true), "nothing to view before the start");

    for client in &mut seats[1..] {
        send(client, ClientMsg::Join { table, invite: None, since: None }).await;
    }
    early.until(|f| !f.views.is_empty()).await;
    assert_eq!(early.views[0].event_count, 1, "the game starts with one event, whose state the view shows");

    // The seats play; the first one stops at its eleventh turn until told to go on, so that spectators
    // can arrive in the middle of the game while it waits.
    let (paused, on_pause) = oneshot::channel::<()>();
    let (go, on_go) = oneshot::channel::<()>();
    let mut pause = Some((paused, on_go));
    let mut tasks = Vec::new();
    for client in seats {
        let mut follower = Follower::new(client, table, 0);
        if let Some((paused, on_go)) = pause.take() {
            let (mut paused, mut on_go) = (Some(paused), Some(on_go));
            tasks.push(tokio::spawn(async move {
                let mut played = 0;
                loop {
                    match follower.recv().await {
                        ServerMsg::YourTurn { legal, .. } => {
                            if played == 10 {
                                paused.take().expect("pauses once").send(()).expect("the test waits");
                                on_go.take().expect("pauses once").await.expect("the test says go");
                            }
                            played += 1;
                            follower.act(choose(&legal).expect("a legal action")).await;
                        }
                        ServerMsg::GameOver { .. } => return follower,
                        ServerMsg::Error { code, message, .. } => panic!("refused: {code:?}: {message}"),
                        _ => {}
                    }
                }
            }));
        } else {
            tasks.push(tokio::spawn(async move {
                follower.play_to_end().await;
                follower
            }));
        }
    }
    on_pause.await.expect("the first seat pauses");

    // The game waits for seat 0 now. One spectator asks for every event from the first, another for the
    // state of the game.
    let mut from_zero = Follower::new(spectator(&url, "Zero").await, table, 0);
    send(&mut from_zero.client, ClientMsg::Watch { table, invite: None, since: Some(0) }).await;
    let mut midway = Follower::new(spectator(&url, "Midway").await, table, 0);
    send(&mut midway.client, ClientMsg::Watch { table, invite: None, since: None }).await;
    let caught_up = match from_zero.recv().await {
        ServerMsg::Events { events, .. } => events.len(),
        other => panic!("a catch-up from event 0 is a list of events, not {other:?}"),
    };
    midway.until(|f| !f.views.is_empty()).await;
    let paused_at = midway.views[0].event_count;
    assert_eq!(caught_up, paused_at, "the catch-up holds every event so far");
    assert!(matches!(midway.views[0].phase, Phase::Playing { seat: Seat(0), .. }), "the game waits for seat 0");
    go.send(()).expect("the first seat waits");

    let mut players = Vec::new();
    for task in tasks {
        players.push(task.await.expect("a seat plays to the end"));
    }
    for watcher in [&mut early, &mut from_zero, &mut midway] {
        follow_to_the_end(watcher).await;
    }
    let total = players[0].next;
    let result = players[0].result.clone().expect("a result");
    assert!(total > paused_at);
    for player in &players {
        assert_eq!((player.next, player.result.as_ref()), (total, Some(&result)), "every seat saw the same game");
    }

    // Every event, in order and once: from 0 for the spectator who asked for it, after their view for
    // the others.
    let numbers = |f: &Follower| f.events.iter().map(|e| e.n).collect::<Vec<_>>();
    assert_eq!(numbers(&from_zero), (0..total).collect::<Vec<_>>());
    assert_eq!(numbers(&early), (1..total).collect::<Vec<_>>());
    assert_eq!(numbers(&midway), (paused_at..total).collect::<Vec<_>>());
    assert!(from_zero.views.is_empty(), "a short catch-up needs no view");
    for watcher in [&early, &from_zero, &midway] {
        assert_eq!(watcher.result.as_ref(), Some(&result));
    }

    // A spectator's events are the seats' events, with the cards of draws and discards left out.
    for (theirs, ours) in players[0].events.iter().zip(&from_zero.events[1..]) {
        assert_eq!(theirs.n, ours.n);
        match (&theirs.event, &ours.event) {
            (
                VisibleEvent::Drew { seat: s1, count: c1, .. },
                VisibleEvent::Drew { seat: s2, count: c2, cards: None },
            )
            | (
                VisibleEvent::Discarded { seat: s1, count: c1, .. },
                VisibleEvent::Discarded { seat: s2, count: c2, cards: None },
            ) => assert_eq!((s1, c1), (s2, c2)),
            (theirs, ours) => assert_eq!(theirs, ours),
        }
    }

    // Each seat sees its own drawn and discarded cards and nobody else's; its view holds its hand, its
    // suit bonus and its own total, and no other seat's.
    let mut hidden: Vec<Value> = Vec::new();
    for player in &players {
        let own = player.seat.expect("seated");
        for event in &player.events {
            match event.event {
                VisibleEvent::Drew { seat, cards, .. } | VisibleEvent::Discarded { seat, cards, .. } => {
                    assert_eq!(cards.is_some(), seat == own, "event {}: {:?}", event.n, event.event);
                    if let Some(cards) = cards {
                        hidden.push(serde_json::to_value(cards).expect("cards serialize"));
                    }
                }
                _ => {}
            }
        }
        for view in &player.views {
            assert!(view.hand.is_some() && view.suit_bonus.is_some());
            for seat in &view.seats {
                let shown = seat.seat == own || matches!(view.phase, Phase::Over { .. });
                assert_eq!(seat.score.suit_bonus.is_some(), shown);
                assert_eq!(seat.score.total.is_some(), shown);
            }
        }
    }
    let mut seats: Vec<_> = players.iter().map(|p| p.seat).collect();
    seats.sort();
    assert_eq!(seats, [Some(Seat(0)), Some(Seat(1)), Some(Seat(2))]);
    assert!(!hidden.is_empty(), "cards were drawn, so there is something to hide");

    // Search every frame a spectator received.
    for watcher in [&early, &from_zero, &midway] {
        let frames = watcher.client.recorded.as_ref().expect("recorded");
        assert!(frames.len() > 10);
        for frame in frames {
            let value: Value = serde_json::from_str(frame).expect("frames are JSON");
            let mut keys = Vec::new();
            keys_outside_results(&value, &mut keys);
            for secret in ["hand", "suit_bonus", "total"] {
                assert!(!keys.iter().any(|k| k == secret), "a spectator got {secret:?}: {frame}");
            }
            let mut events = Vec::new();
            hand_events(&value, &mut events);
            for event in events {
                assert!(event.get("count").is_some(), "{frame}");
                if let Some(cards) = event.get("cards") {
                    panic!("a spectator saw drawn or discarded cards {cards}: {frame}");
                }
            }
        }
        // The cards the seats drew never show up as a spectator's drawn or discarded cards.
        for frame in frames {
            let value: Value = serde_json::from_str(frame).expect("frames are JSON");
            let mut events = Vec::new();
            hand_events(&value, &mut events);
            for event in events {
                assert!(!hidden.iter().any(|cards| event.get("cards") == Some(cards)), "{frame}");
            }
        }
    }
    server.shutdown().await;
}

/// Watching is allowed or refused by the table's privacy and spectator policy; each refusal leaves
/// another table's game undisturbed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_decides_who_may_watch() {
    let server = TestServer::start(Config { contribution_wait: Duration::ZERO, ..quick_close() }).await;
    let mut calm = Bystander::new(&server.url).await;
    let (mut host, _, _) = guest(&server.url, "Host").await;
    let (mut fan, _, _) = guest(&server.url, "Fan").await;

    // (public, policy, without the invite, with it)
    let ok = None;
    let cases = [
        (true, SpectatorPolicy::Everyone, ok, ok),
        (true, SpectatorPolicy::Link, Some(ErrorCode::SpectatingNotAllowed), ok),
        (true, SpectatorPolicy::Nobody, Some(ErrorCode::SpectatingNotAllowed), Some(ErrorCode::SpectatingNotAllowed)),
        (false, SpectatorPolicy::Everyone, Some(ErrorCode::NoSuchTable), ok),
        (false, SpectatorPolicy::Link, Some(ErrorCode::NoSuchTable), ok),
        (false, SpectatorPolicy::Nobody, Some(ErrorCode::NoSuchTable), Some(ErrorCode::SpectatingNotAllowed)),
    ];
    for (public, policy, without, with) in cases {
        let (summary, invite) = create_table(&mut host, 2, public, policy).await;
        let table = summary.id;
        for (key, expected) in [(None, without), (Some(invite.clone()), with)] {
            send(&mut fan, ClientMsg::Watch { table, invite: key.clone(), since: None }).await;
            match expected {
                Some(code) => {
                    expect_error(&mut fan, Some(table), code).await;
                }
                None => {
                    let (summary, role, _) = expect_table(&mut fan, table).await;
                    assert_eq!((role, summary.spectator_count), (Role::Spectator, 1), "{public} {policy:?} {key:?}");
                    send(&mut fan, ClientMsg::Leave { table }).await;
                    assert_eq!(recv(&mut fan).await, ServerMsg::Left { table });
                }
            }
            calm.play_one().await;
        }
        send(&mut host, ClientMsg::Leave { table }).await;
        host.wait_for(|msg| matches!(msg, ServerMsg::Left { table: t } if *t == table).then_some(()))
            .await
            .expect("left");
    }

    // A spectator cannot play, and cannot leave twice.
    let (mut player, _, _) = guest(&server.url, "Player").await;
    let (summary, _) = create_table(&mut host, 2, true, SpectatorPolicy::Everyone).await;
    let table = summary.id;
    send(&mut player, ClientMsg::Join { table, invite: None, since: None }).await;
    expect_table(&mut player, table).await;
    send(&mut fan, ClientMsg::Watch { table, invite: None, since: None }).await;
    let (_, _, view) = expect_table(&mut fan, table).await;
    assert!(view.is_some(), "the game started when the second seat filled");
    send(&mut fan, ClientMsg::Act { table, id: 7, action: Action::Take { cards: Cards::EMPTY } }).await;
    match recv(&mut fan).await {
        ServerMsg::Error { table: Some(t), id: Some(7), code: ErrorCode::NotSeated, .. } if t == table => {}
        other => panic!("a spectator's action is refused as not seated, not {other:?}"),
    }
    calm.play_one().await;
    send(&mut fan, ClientMsg::Leave { table }).await;
    assert_eq!(recv(&mut fan).await, ServerMsg::Left { table });
    send(&mut fan, ClientMsg::Leave { table }).await;
    expect_error(&mut fan, Some(table), ErrorCode::NotSeated).await;
    calm.play_one().await;
    assert!(calm.moves >= 14);
    server.shutdown().await;
}
