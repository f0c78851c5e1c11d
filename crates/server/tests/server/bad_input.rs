//! Every kind of bad input gets its stable error code (or, for what cannot be answered, a close code),
//! and none of it disturbs anyone else: a game at another table is played a move after each one.

use crate::common;
use std::time::Duration;

use common::{
    Bystander, Frame, RawWs, TestServer, closed, create_table, expect_error, expect_table, guest, quick_close, recv,
    send,
};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::{Action, Cards, Phase, Seat};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, PROTOCOL_VERSION, SpectatorPolicy, TableId};
use tokio_tungstenite::tungstenite::Message;

/// Sends a text frame as it is.
async fn send_text(client: &mut Client, text: &str) {
    client.send_raw(Message::text(text.to_owned())).await.expect("the frame is sent");
}

/// Sends a text frame and expects an error with `code` about no table; returns its sentence.
async fn refused(client: &mut Client, text: &str, code: ErrorCode) -> String {
    send_text(client, text).await;
    expect_error(client, None, code).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_frames_and_bad_greetings_get_their_error_codes() {
    let config = quick_close();
    let server = TestServer::start(config.clone()).await;
    let mut calm = Bystander::new(&server.url).await;

    // Before hello.
    let mut client = Client::connect(&server.url).await.expect("connects");
    refused(&mut client, r#"{"type":"lobby_subscribe"}"#, ErrorCode::HelloFirst).await;
    calm.play_one().await;
    refused(&mut client, "not json", ErrorCode::Malformed).await;
    calm.play_one().await;
    let message = refused(&mut client, r#"{"type":"teleport"}"#, ErrorCode::Malformed).await;
    assert!(message.contains("teleport"), "the sentence says what is wrong: {message}");
    calm.play_one().await;
    refused(&mut client, r#"{"type":"hello","protocol":1,"name":"Ana","admin":true}"#, ErrorCode::Malformed).await;
    calm.play_one().await;
    client.send_raw(Message::binary(b"\x00\x01".to_vec())).await.expect("sent");
    expect_error(&mut client, None, ErrorCode::Binary).await;
    calm.play_one().await;
    let message =
        refused(&mut client, r#"{"type":"hello","protocol":2,"name":"Ana"}"#, ErrorCode::UnsupportedProtocol).await;
    assert!(message.contains(&PROTOCOL_VERSION.to_string()), "{message}");
    calm.play_one().await;
    refused(
        &mut client,
        &format!(r#"{{"type":"hello","protocol":1,"token":"{}"}}"#, "ab".repeat(32)),
        ErrorCode::BadToken,
    )
    .await;
    calm.play_one().await;
    for name in [r#""name":"""#, r#""name":"   ""#, &format!(r#""name":"{}""#, "x".repeat(25)), r#""name":"a\nb""#, ""]
    {
        let hello = format!(r#"{{"type":"hello","protocol":1{}{name}}}"#, if name.is_empty() { "" } else { "," });
        refused(&mut client, &hello, ErrorCode::BadName).await;
        calm.play_one().await;
    }
    // Hidden, reordering and tag characters; names that read as the server's bots (on a connection of
    // their own, within its allowance of bad messages).
    let mut namer = Client::connect(&server.url).await.expect("connects");
    for name in [r"\u200b", r"\u202eevil", r"\udb40\udc01tag", r"\ue000", "Bot 1", "bot 3", "BOT 2"] {
        let message =
            refused(&mut namer, &format!(r#"{{"type":"hello","protocol":1,"name":"{name}"}}"#), ErrorCode::BadName)
                .await;
        assert!(!message.is_empty());
        calm.play_one().await;
    }
    send_text(&mut namer, r#"{"type":"hello","protocol":1,"name":"<img src=x onerror=a()>"}"#).await;
    match recv(&mut namer).await {
        ServerMsg::Welcome { player, .. } => assert_eq!(player.name, "<img src=x onerror=a()>", "markup is text"),
        other => panic!("expected a welcome, got {other:?}"),
    }

    // None of that closed the connection: a good hello still works, once.
    send_text(&mut client, &format!(r#"{{"type":"hello","protocol":1,"name":"  {}  "}}"#, "x".repeat(24))).await;
    match recv(&mut client).await {
        ServerMsg::Welcome { protocol, player, token: Some(token), limits } => {
            assert_eq!((protocol, player.name.len(), token.len()), (PROTOCOL_VERSION, 24, 64), "the name is trimmed");
            assert_eq!(limits.max_message_bytes, config.max_message_bytes);
            assert_eq!(
                (limits.messages_per_second, limits.message_burst),
                (config.messages_per_second, config.message_burst)
            );
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
    refused(&mut client, r#"{"type":"hello","protocol":1,"name":"Again"}"#, ErrorCode::AlreadyGreeted).await;
    calm.play_one().await;

    // After hello: frames that are not messages of the protocol.
    let table = TableId(uuid::Uuid::new_v4());
    refused(&mut client, r#"{"type":"join","table":"not-an-id"}"#, ErrorCode::Malformed).await;
    // An action goes to its table's game, which reads it: at no table, whatever it says, there is none.
    send_text(&mut client, &format!(r#"{{"type":"act","table":"{table}","id":1,"action":{{"type":"fold"}}}}"#)).await;
    expect_error(&mut client, Some(table), ErrorCode::NoSuchTable).await;
    refused(&mut client, r#"{"type":"create_table","seats":"four"}"#, ErrorCode::Malformed).await;
    client.send_raw(Message::binary(b"{}".to_vec())).await.expect("sent");
    expect_error(&mut client, None, ErrorCode::Binary).await;
    calm.play_one().await;

    // A frame of exactly the largest size is read; one byte more closes the connection (1009).
    let fits = format!("{:<width$}", r#"{"type":"lobby_subscribe"}"#, width = config.max_message_bytes);
    assert_eq!(fits.len(), config.max_message_bytes);
    send_text(&mut client, &fits).await;
    assert!(matches!(recv(&mut client).await, ServerMsg::Lobby { .. }), "a frame at the limit is served");
    calm.play_one().await;
    send_text(&mut client, &format!("{fits} ")).await;
    assert_eq!(closed(&mut client).await.map(|(code, _)| code), Some(1009), "a frame over the limit closes with 1009");
    calm.play_one().await;

    // A client that keeps sending bad frames is closed (1008) after `max_strikes` of them; every error
    // is delivered before the close. A flood of 400 at once, past the frame budget too, still gets them
    // and the close frame: the server reads what the flood sent after its close before closing its socket,
    // so that the client sees no reset.
    let mut noisy = RawWs::connect(server.addr, None).await;
    noisy.send_text(r#"{"type":"hello","protocol":1,"name":"Noisy"}"#).await;
    let strikes = config.max_strikes as usize + 1;
    for _ in 0..400 {
        noisy.send_text("{").await;
    }
    let frames = noisy.read_to_clean_end().await;
    let messages = RawWs::messages(&frames);
    assert!(matches!(messages[0], ServerMsg::Welcome { .. }));
    assert_eq!(messages.len(), 1 + strikes, "{messages:?}");
    assert!(messages[1..].iter().all(|m| matches!(m, ServerMsg::Error { code: ErrorCode::Malformed, .. })));
    assert_eq!(frames.last().and_then(Frame::close), Some((1008, "too many bad messages".to_owned())));
    calm.play_one().await;
    assert!(calm.moves >= 17);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_that_break_table_rules_get_their_error_codes() {
    let server = TestServer::start(Config { contribution_wait: Duration::ZERO, ..quick_close() }).await;
    let url = &server.url;
    let mut calm = Bystander::new(url).await;
    let (mut mal, _, _) = guest(url, "Mal").await;
    let (mut acc, _, _) = guest(url, "Acc").await;

    for seats in [0, 1, 5] {
        send(
            &mut mal,
            ClientMsg::CreateTable {
                seats,
                public: false,
                spectators: SpectatorPolicy::Nobody,
                clock: None,
                game: None,
                options: None,
                rated: None,
            },
        )
        .await;
        expect_error(&mut mal, None, ErrorCode::BadOptions).await;
    }
    // A game the server does not host.
    let chess = ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: None,
        game: Some("chess".into()),
        options: None,
        rated: None,
    };
    send(&mut mal, chess).await;
    expect_error(&mut mal, None, ErrorCode::BadOptions).await;
    calm.play_one().await;
    let (summary, invite) = create_table(&mut mal, 3, false, SpectatorPolicy::Nobody).await;
    let table = summary.id;
    expect_table(&mut mal, table).await;
    send(&mut mal, ClientMsg::Start { table }).await;
    expect_error(&mut mal, Some(table), ErrorCode::NotEnoughPlayers).await;
    send(&mut mal, ClientMsg::Act { table, id: 1, action: Action::Pass }).await;
    expect_error(&mut mal, Some(table), ErrorCode::NotStarted).await;
    calm.play_one().await;

    send(&mut acc, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    expect_table(&mut acc, table).await;
    expect_table(&mut mal, table).await;
    send(&mut acc, ClientMsg::Start { table }).await;
    expect_error(&mut acc, Some(table), ErrorCode::NotHost).await;
    send(&mut acc, ClientMsg::Kick { table, seat: Seat(0) }).await;
    expect_error(&mut acc, Some(table), ErrorCode::NotHost).await;
    calm.play_one().await;

    // Mal starts with two of three seats filled.
    send(&mut mal, ClientMsg::Start { table }).await;
    let (_, _, view) = expect_table(&mut mal, table).await;
    let view = view.expect("the game started");
    expect_table(&mut acc, table).await;
    let Phase::Playing { seat: to_act, .. } = view.phase else { panic!("the game is on") };
    let (actor, other) = if to_act == Seat(0) { (&mut mal, &mut acc) } else { (&mut acc, &mut mal) };
    let legal = match recv(actor).await {
        ServerMsg::YourTurn { legal, .. } => legal,
        other => panic!("expected the turn, got {other:?}"),
    };

    // Out of turn, and against the rules: each refused with the action's id and, for a rule, its section.
    send(other, ClientMsg::Act { table, id: 7, action: legal[0] }).await;
    match recv(other).await {
        ServerMsg::Error { table: Some(t), id: Some(7), code: ErrorCode::NotYourTurn, message } if t == table => {
            assert!(message.contains("§3"), "{message}");
        }
        msg => panic!("expected not_your_turn, got {msg:?}"),
    }
    calm.play_one().await;
    for (id, action) in [(8, Action::Take { cards: Cards::EMPTY }), (9, Action::Pass), (10, Action::TakeBack)] {
        send(actor, ClientMsg::Act { table, id, action }).await;
        match recv(actor).await {
            ServerMsg::Error { table: Some(t), id: Some(got), code: ErrorCode::IllegalAction, message }
                if t == table =>
            {
                assert_eq!(got, id);
                assert!(message.contains('§'), "an illegal action names its rule: {message}");
            }
            msg => panic!("expected illegal_action for {action:?}, got {msg:?}"),
        }
        calm.play_one().await;
    }
    // What is not an action of the table's game: refused as malformed, with the action's id.
    for (id, action) in
        [(12, r#"{"type":"take","cards":["zz"]}"#), (13, r#"{"type":"fold"}"#), (14, r#"{"type":"pass","x":1}"#)]
    {
        send_text(actor, &format!(r#"{{"type":"act","table":"{table}","id":{id},"action":{action}}}"#)).await;
        match recv(actor).await {
            ServerMsg::Error { table: Some(t), id: Some(got), code: ErrorCode::Malformed, .. } if t == table => {
                assert_eq!(got, id);
            }
            msg => panic!("expected malformed for {action}, got {msg:?}"),
        }
    }
    // The refusals changed nothing: the legal action offered first is still accepted.
    send(actor, ClientMsg::Act { table, id: 11, action: legal[0] }).await;
    let events = actor
        .wait_for(|msg| match msg {
            ServerMsg::Ack { id: 11, events, .. } => Some(*events),
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            _ => None,
        })
        .await
        .expect("acknowledged");
    assert!(events > view.event_count, "the action made events");

    // Nobody else sits down at a started table.
    let (mut late, _, _) = guest(url, "Late").await;
    send(&mut late, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    expect_error(&mut late, Some(table), ErrorCode::AlreadyStarted).await;
    calm.play_one().await;

    // At a table where Late is not seated: the bystanders' own.
    let theirs = calm.table;
    let attempts = [
        (ClientMsg::Act { table: theirs, id: 3, action: Action::Pass }, ErrorCode::NotSeated),
        (ClientMsg::Start { table: theirs }, ErrorCode::NotHost),
        (ClientMsg::Kick { table: theirs, seat: Seat(1) }, ErrorCode::NotHost),
        (ClientMsg::Leave { table: theirs }, ErrorCode::NotSeated),
        (ClientMsg::Join { table: theirs, invite: None, since: None }, ErrorCode::NoSuchTable),
        (ClientMsg::Join { table: theirs, invite: Some(calm.invite.clone()), since: None }, ErrorCode::AlreadyStarted),
        (
            ClientMsg::Watch { table: theirs, invite: Some(calm.invite.clone()), since: None },
            ErrorCode::SpectatingNotAllowed,
        ),
        (ClientMsg::Watch { table: TableId(uuid::Uuid::new_v4()), invite: None, since: None }, ErrorCode::NoSuchTable),
    ];
    for (request, code) in attempts {
        let about = request.table();
        send(&mut late, request).await;
        match recv(&mut late).await {
            ServerMsg::Error { table, code: got, .. } => assert_eq!((table, got), (about, code)),
            other => panic!("expected {code:?}, got {other:?}"),
        }
        calm.play_one().await;
    }
    assert!(calm.moves >= 16);
    server.shutdown().await;
}
