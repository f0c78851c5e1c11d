//! The server's limits, each met by a real client: the message rate, the cap on tables a player hosts,
//! the idle timeout (on tokio's paused clock), a client too slow to read what it is sent, and the
//! graceful shutdown; and the answers to a client's ping and close.

use crate::common;

use std::time::Duration;

use common::{
    Bystander, Follower, RawWs, TestServer, closed, create_table, expect_error, expect_table, fast, guest, quick_close,
    recv, send,
};
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_client::{Client, ClientError};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, SpectatorPolicy, TableId};
use tokio::net::TcpSocket;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_rate_limited_then_closed_and_harms_nobody() {
    let config = quick_close();
    let server = TestServer::start(config.clone()).await;
    let mut calm = Bystander::new(&server.url).await;
    for _ in 0..3 {
        calm.play_one().await;
    }

    // Ten times the burst, as fast as the socket takes it; each message alone would be fine. (The
    // client is a raw one: it writes nothing but the flood, so the reset that follows the close of a
    // socket with unread input cannot cut its reading short.)
    let mut flood = RawWs::connect(server.addr, None).await;
    flood.send_text(r#"{"type":"hello","protocol":1,"name":"Flood"}"#).await;
    for _ in 0..10 * config.message_burst as usize {
        if !flood.try_send_text(r#"{"type":"lobby_unsubscribe"}"#).await {
            break;
        }
    }
    let frames = flood.read_to_end().await;
    let messages = RawWs::messages(&frames);
    assert!(matches!(messages[0], ServerMsg::Welcome { .. }));
    assert!(
        messages[1..].iter().all(|m| matches!(m, ServerMsg::Error { code: ErrorCode::RateLimited, .. })),
        "a flood gets rate_limited errors: {messages:?}"
    );
    assert_eq!(close_of(&frames).map(|(code, _)| code), Some(1008), "a flood is closed as a policy violation");
    // Each message over the rate is a strike; the connection closes at the first strike too many (or
    // the second, should one be forgiven while the flood is read).
    let strikes = config.max_strikes as usize + 1;
    let limited = messages.len() - 1;
    assert!((strikes..=strikes + 1).contains(&limited), "{limited} rate_limited errors");

    // Meanwhile and afterwards, the other table plays on.
    for _ in 0..5 {
        calm.play_one().await;
    }
    server.shutdown().await;
}

/// Creates a table and expects the cap to refuse it.
async fn refused_table(client: &mut Client) {
    send(
        client,
        ClientMsg::CreateTable {
            seats: 2,
            public: false,
            spectators: SpectatorPolicy::Everyone,
            clock: None,
            game: None,
            options: None,
            rated: None,
        },
    )
    .await;
    let code = client
        .wait_for(|msg| match msg {
            ServerMsg::Error { code, .. } => Some(*code),
            ServerMsg::TableCreated { .. } => panic!("a table over the cap was created"),
            _ => None,
        })
        .await
        .expect("refused");
    assert_eq!(code, ErrorCode::TooManyTables);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_hosts_at_most_the_allowed_number_of_open_tables() {
    let server = TestServer::start(Config { max_open_tables_per_player: 2, ..fast() }).await;
    let url = &server.url;
    let (mut host, _, _) = guest(url, "Host").await;
    let (mut lobby, _, _) = guest(url, "Lobby").await;
    send(&mut lobby, ClientMsg::LobbySubscribe).await;
    recv(&mut lobby).await;

    let (first, _) = create_table(&mut host, 2, true, SpectatorPolicy::Everyone).await;
    let (second, invite) = create_table(&mut host, 2, false, SpectatorPolicy::Everyone).await;
    refused_table(&mut host).await;

    // A table that closes before its start frees its place (once the lobby has seen it go).
    send(&mut host, ClientMsg::Leave { table: first.id }).await;
    lobby
        .wait_for(|msg| matches!(msg, ServerMsg::LobbyTableRemoved { table } if *table == first.id).then_some(()))
        .await
        .expect("the table closes");
    let (third, _) = create_table(&mut host, 3, true, SpectatorPolicy::Everyone).await;
    refused_table(&mut host).await;

    // Leaving a table to the next seated player frees it too; the heir hosts it now.
    let (mut heir, _, _) = guest(url, "Heir").await;
    send(&mut heir, ClientMsg::Join { table: third.id, invite: None, since: None }).await;
    expect_table(&mut heir, third.id).await;
    send(&mut host, ClientMsg::Leave { table: third.id }).await;
    host.wait_for(|msg| (*msg == ServerMsg::Left { table: third.id }).then_some(())).await.expect("left");
    create_table(&mut host, 2, false, SpectatorPolicy::Everyone).await;
    refused_table(&mut host).await;
    create_table(&mut heir, 2, false, SpectatorPolicy::Everyone).await;
    refused_table(&mut heir).await;

    // A finished game frees its place: the private table's game is played to the end.
    let (mut other, _, _) = guest(url, "Guest").await;
    send(&mut other, ClientMsg::Join { table: second.id, invite: Some(invite), since: None }).await;
    let tasks: Vec<_> = [host, other]
        .into_iter()
        .map(|client| {
            let mut player = Follower::new(client, second.id, 0);
            tokio::spawn(async move {
                player.play_to_end().await;
                player.client
            })
        })
        .collect();
    let mut clients = Vec::new();
    for task in tasks {
        clients.push(task.await.expect("a seat plays to the end"));
    }
    let host = &mut clients[0];
    create_table(host, 2, false, SpectatorPolicy::Everyone).await;
    refused_table(host).await;
    server.shutdown().await;
}

/// The close frame at the end of what a raw client received.
fn close_of(frames: &[common::Frame]) -> Option<(u16, String)> {
    frames.last().and_then(common::Frame::close)
}

/// Frames the server writes in batches still answer a client's ping and close: the pong carries the
/// ping's payload, and the close is answered with a close frame before the server hangs up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_ping_gets_its_pong_and_a_client_close_its_answer() {
    let server = TestServer::start(quick_close()).await;
    let mut raw = RawWs::connect(server.addr, None).await;
    assert!(raw.try_send_frame(9, b"are you there").await);
    assert!(raw.try_send_frame(8, &1000u16.to_be_bytes()).await);
    let frames = tokio::time::timeout(Duration::from_secs(10), raw.read_to_end()).await.expect("the server hangs up");
    let pongs: Vec<&[u8]> = frames.iter().filter(|f| f.opcode == 10).map(|f| &f.payload[..]).collect();
    assert_eq!(pongs, [&b"are you there"[..]]);
    assert_eq!(close_of(&frames).map(|(code, _)| code), Some(1000), "{frames:?}");
    server.shutdown().await;
}

/// A client read all along by a task of its own, so that it answers every ping however long the test is
/// kept from reading: what it receives comes in on `received`, and what is put on `outgoing` is sent.
struct AlwaysReading {
    received: mpsc::UnboundedReceiver<Result<ServerMsg, ClientError>>,
    outgoing: mpsc::UnboundedSender<ClientMsg>,
}

impl AlwaysReading {
    fn new(mut client: Client) -> AlwaysReading {
        let (received_sender, received) = mpsc::unbounded_channel();
        let (outgoing, mut to_send) = mpsc::unbounded_channel::<ClientMsg>();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    msg = client.recv_within(Duration::from_secs(3600)) => {
                        let closed = msg.is_err();
                        if received_sender.send(msg).is_err() || closed {
                            return;
                        }
                    }
                    msg = to_send.recv() => match msg {
                        Some(msg) => client.send(&msg).await.expect("sent"),
                        None => return,
                    },
                }
            }
        });
        AlwaysReading { received, outgoing }
    }

    /// The next message, waiting at most `limit` (`None`: nothing came).
    async fn recv_within(&mut self, limit: Duration) -> Option<Result<ServerMsg, ClientError>> {
        tokio::time::timeout(limit, self.received.recv()).await.ok().map(|msg| msg.expect("the reader runs"))
    }

    /// The spectator count of `table` in the next lobby update about it, waiting at most `limit` for
    /// each message.
    async fn spectators(&mut self, table: TableId, limit: Duration) -> usize {
        loop {
            match self.recv_within(limit).await.expect("a message in time").expect("the host stays connected") {
                ServerMsg::LobbyTable { table: summary } if summary.id == table => return summary.spectator_count,
                _ => {}
            }
        }
    }
}

/// The server pings every `ping_interval` and closes a connection it heard nothing from for
/// `idle_timeout`, while a client that reads (and so answers pings) stays.
///
/// This runs on the real clock, with timeouts of a fraction of a second: on tokio's paused clock the
/// runtime jumps to the next timer whenever it waits, socket I/O in flight included, so each request
/// to the server would wait for its next ping tick and the clients' own timeouts would fire. The host is
/// read by a task of its own all along, so that a test kept waiting by a busy machine cannot make it
/// miss a ping.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_answers_pings_is_closed_after_the_idle_timeout() {
    let config =
        Config { ping_interval: Duration::from_millis(100), idle_timeout: Duration::from_millis(400), ..quick_close() };
    let server = TestServer::start(config.clone()).await;
    let (mut host, _, _) = guest(&server.url, "Host").await;
    let (table, _) = create_table(&mut host, 2, true, SpectatorPolicy::Everyone).await;
    send(&mut host, ClientMsg::LobbySubscribe).await;
    host.wait_for(|msg| matches!(msg, ServerMsg::Lobby { .. }).then_some(())).await.expect("the lobby");
    let mut host = AlwaysReading::new(host);

    // The idle client says hello, watches the table, and never reads again.
    let mut idle = RawWs::connect(server.addr, None).await;
    idle.send_text(r#"{"type":"hello","protocol":1,"name":"Idle"}"#).await;
    let last_sent = Instant::now();
    idle.send_text(&format!(r#"{{"type":"watch","table":"{}"}}"#, table.id)).await;
    let limit = Duration::from_secs(10);
    assert_eq!(host.spectators(table.id, limit).await, 1);

    // The host sees the spectator go when the server closes the idle connection, not before
    // `idle_timeout`.
    assert_eq!(host.spectators(table.id, limit).await, 0);
    let waited = last_sent.elapsed();
    assert!(waited >= config.idle_timeout, "closed after only {waited:?}");
    // Meanwhile the host, which reads its socket all along and so answers every ping, is still served.
    let (frames, host_heard) = tokio::join!(idle.read_to_end(), host.recv_within(config.idle_timeout * 3));
    // Closed for not answering: it was asked (a busy machine may have let the idle time pass before a
    // second ping).
    assert!(frames.iter().any(|f| f.opcode == 9), "it was pinged: {frames:?}");
    assert_eq!(close_of(&frames), Some((1001, "no answer to ping".to_owned())));
    assert!(host_heard.is_none(), "nothing more was due to the host: {host_heard:?}");
    let create = ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators: SpectatorPolicy::Everyone,
        clock: None,
        game: None,
        options: None,
        rated: None,
    };
    host.outgoing.send(create).expect("the reader runs");
    loop {
        match host.recv_within(limit).await.expect("an answer in time").expect("the host stays connected") {
            ServerMsg::TableCreated { .. } => break,
            ServerMsg::Error { code, message, .. } => panic!("the table was not created: {code:?}: {message}"),
            _ => {}
        }
    }
    server.shutdown().await;
}

/// Reads until `done` holds for a message, or every game has ended; notes each game that ends.
async fn reader_waits(reader: &mut Client, ended: &mut Vec<TableId>, done: impl Fn(&ServerMsg) -> bool) {
    while ended.len() < 4 {
        let msg = recv(reader).await;
        if let ServerMsg::GameOver { table, .. } = msg {
            ended.push(table);
        }
        if done(&msg) {
            return;
        }
    }
}

/// A spectator that stops reading while games go on fills its socket, then its small outgoing queue,
/// and is disconnected as too slow (1008); the games and a spectator that reads are undisturbed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_too_slow_to_keep_up_is_disconnected_and_the_games_go_on() {
    // Small socket buffers on both sides (accepted sockets take the listener's send buffer) make the
    // socket fill after some dozens of messages, whatever the machine, where four games send each
    // spectator hundreds. The queue behind the socket holds 16: small, yet above what one action sends
    // one connection at once (events, ack and the next turn), so that the players, who read, keep up.
    let socket = TcpSocket::new_v4().expect("a socket");
    socket.set_send_buffer_size(4096).expect("a send buffer size");
    socket.bind("127.0.0.1:0".parse().expect("an address")).expect("bound");
    let listener = socket.listen(128).expect("listening");
    // A write to the full socket may wait longer than the games take, so that the client is closed for
    // falling behind (1008), not dropped for a stalled write.
    let config = Config { outgoing_queue: 16, write_timeout: Duration::from_secs(30), ..fast() };
    let server = TestServer::start_on(listener, config).await;
    let url = &server.url;

    let mut slow = RawWs::connect(server.addr, Some(4096)).await;
    slow.send_text(r#"{"type":"hello","protocol":1,"name":"Slow"}"#).await;
    let (mut reader, _, _) = guest(url, "Reader").await;

    // Four tables, each watched by both spectators from before its start.
    let mut tables = Vec::new();
    let mut starts = Vec::new();
    let mut ended = Vec::new();
    for game in 0..4 {
        let (mut host, _, _) = guest(url, &format!("Host {game}")).await;
        let (other, _, _) = guest(url, &format!("Guest {game}")).await;
        let (table, invite) = create_table(&mut host, 2, false, SpectatorPolicy::Link).await;
        let table = table.id;
        slow.send_text(&format!(r#"{{"type":"watch","table":"{table}","invite":"{invite}"}}"#)).await;
        send(&mut reader, ClientMsg::Watch { table, invite: Some(invite.clone()), since: None }).await;
        reader_waits(&mut reader, &mut ended, |msg| matches!(msg, ServerMsg::Table { table: t, .. } if t.id == table))
            .await;
        starts.push((table, invite, host, other));
        tables.push(table);
    }
    // The reader reads all along from now on, as a client that keeps up does.
    let reading = tokio::spawn(async move {
        reader_waits(&mut reader, &mut ended, |_| false).await;
        ended
    });
    let mut tasks = Vec::new();
    for (table, invite, host, mut other) in starts {
        send(&mut other, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
        for client in [host, other] {
            let mut player = Follower::new(client, table, 0);
            tasks.push(tokio::spawn(async move { player.play_to_end().await }));
        }
    }
    for task in tasks {
        task.await.expect("every game is played to the end");
    }
    // The reader saw all four games end.
    let mut ended = reading.await.expect("the reader reads to the end");
    ended.sort();
    tables.sort();
    assert_eq!(ended, tables);

    // The slow client reads at last: what fitted, then the close.
    let frames = tokio::time::timeout(Duration::from_secs(20), slow.read_to_end())
        .await
        .expect("the slow client was disconnected");
    assert_eq!(close_of(&frames), Some((1008, "too slow to keep up".to_owned())));
    let game_overs =
        frames.iter().filter_map(common::Frame::text).filter(|t| t.starts_with(r#"{"type":"game_over""#)).count();
    assert!(game_overs < tables.len(), "the slow client did not get everything");
    server.shutdown().await;
}

/// A graceful shutdown closes every connection with 1001 (going away), whatever it was doing, and
/// `run` returns once they are all closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_shutdown_tells_every_client_it_is_going_away() {
    let server = TestServer::start(fast()).await;
    let url = server.url.clone();
    let (mut ana, _, _) = guest(&url, "Ana").await;
    let (mut ben, _, _) = guest(&url, "Ben").await;
    let (table, _) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    send(&mut ben, ClientMsg::Join { table: table.id, invite: None, since: None }).await;
    let (mut fan, _, _) = guest(&url, "Fan").await;
    send(&mut fan, ClientMsg::Watch { table: table.id, invite: None, since: None }).await;
    expect_table(&mut fan, table.id).await;
    let (mut lobby, _, _) = guest(&url, "Lobby").await;
    send(&mut lobby, ClientMsg::LobbySubscribe).await;
    recv(&mut lobby).await;
    // One that never said hello (it has read an answer, so its socket is in use).
    let mut stranger = Client::connect(&url).await.expect("connects");
    stranger.send_raw(Message::text("{")).await.expect("sent");
    expect_error(&mut stranger, None, ErrorCode::Malformed).await;

    let clients = [ana, ben, fan, lobby, stranger];
    let ((), codes) = tokio::join!(server.shutdown(), async move {
        let mut codes = Vec::new();
        for mut client in clients {
            codes.push(closed(&mut client).await);
        }
        codes
    });
    let going_away = Some((1001, "server shutting down".to_owned()));
    assert_eq!(codes, vec![going_away; 5]);
    assert!(Client::connect(&url).await.is_err(), "nothing listens any more");
}

/// A client that sends far more frames at once than its budget allows (as a script gone wrong would,
/// with an ordinary WebSocket client that reads what it is sent) receives the replies that went before
/// the close, and the close itself (1008): not a reset that loses them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_flooding_messages_receives_its_replies_and_the_policy_close() {
    flood_and_read(Message::text(r#"{"type":"lobby_unsubscribe"}"#)).await;
}

/// The same with large messages: the client is still writing when the server closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_flooding_large_messages_receives_its_replies_and_the_policy_close() {
    let padding = "x".repeat(3000);
    flood_and_read(Message::text(format!(
        r#"{{"type":"chat","table":"00000000-0000-0000-0000-000000000000","text":"{padding}"}}"#
    )))
    .await;
}

/// The same with frames that are no messages (pings), over the budget of frames.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_flooding_pings_receives_the_policy_close() {
    flood_and_read(Message::Ping(Default::default())).await;
}

async fn flood_and_read(flood: Message) {
    use futures_util::{SinkExt, StreamExt};
    let server = TestServer::start(quick_close()).await;
    let (mut socket, _) = tokio_tungstenite::connect_async(&server.url).await.expect("connects");
    socket.send(Message::text(r#"{"type":"hello","protocol":1,"name":"Flood"}"#)).await.expect("sent");
    let welcome = socket.next().await.expect("a frame").expect("read");
    assert!(welcome.to_text().expect("text").contains("welcome"), "{welcome:?}");
    for _ in 0..400 {
        if socket.feed(flood.clone()).await.is_err() {
            break;
        }
    }
    let _ = socket.flush().await;
    let (mut errors, mut close, mut ending) = (0, None, None);
    while let Some(frame) = socket.next().await {
        match frame {
            Ok(Message::Text(text)) if text.contains("rate_limited") || text.contains("\"error\"") => errors += 1,
            Ok(Message::Close(frame)) => close = frame.map(|f| (u16::from(f.code), f.reason.to_string())),
            Ok(_) => {}
            Err(error) => {
                ending = Some(error.to_string());
                break;
            }
        }
    }
    assert_eq!(close.as_ref().map(|(code, _)| *code), Some(1008), "the close frame came: {close:?}, ended {ending:?}");
    if flood.is_text() {
        assert!(errors > 0, "the rate_limited errors before the close came ({errors}), ended {ending:?}");
    }
    server.shutdown().await;
}
