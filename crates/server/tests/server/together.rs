//! Being at a table together, over real connections and a real store: the others see a player go away
//! and come back; the players' chat and the spectators' stay apart during the game; the history comes
//! with a reload, to a late spectator and after a restart of the server; chat never reaches the REST API.

use crate::common;

use std::time::Duration;

use common::{Follower, TestServer, create_table, fast, guest, http_get, recv, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::Seat;
use romirami_server::config::Config;
use romirami_server::protocol::{
    CHAT_HISTORY, ChatChannel, ChatLine, ErrorCode, PlayerId, PlayerInfo, Presence, PresenceChange, SpectatorPolicy,
    TableId,
};
use romirami_server::store::{ChatRow, Store, TableRow};
use tokio::net::TcpListener;
use uuid::Uuid;

/// The next chat message (new lines or a history) `client` receives about `table`, skipping the rest.
async fn next_chat(client: &mut Client, table: TableId) -> (bool, Vec<ChatLine>) {
    loop {
        match recv(client).await {
            ServerMsg::Chat { table: t, lines } if t == table => return (false, lines),
            ServerMsg::ChatHistory { table: t, lines } if t == table => return (true, lines),
            ServerMsg::Error { code, message, .. } => panic!("refused: {code:?} {message}"),
            _ => {}
        }
    }
}

fn texts(lines: &[ChatLine]) -> Vec<&str> {
    lines.iter().map(|line| line.text.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_and_chat_between_players_and_spectators_and_across_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    // The first server's tables live on in this process after its shutdown: no bot or abandonment may
    // move the game on while the second one runs.
    let config = Config { abandon_after: Duration::from_secs(600), ..fast() };
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config.clone(), Store::connect(&url).await.expect("opens")).await;
    let (mut ana, _, ana_token) = guest(&server.url, "Ana").await;
    let (mut ben, _, ben_token) = guest(&server.url, "Ben").await;
    let (mut cleo, _, _) = guest(&server.url, "Cleo").await;
    let (summary, invite) = create_table(&mut ana, 2, false, SpectatorPolicy::Link).await;
    let table = summary.id;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    send(&mut cleo, ClientMsg::Watch { table, invite: Some(invite.clone()), since: None }).await;
    let mut ana = Follower::new(ana, table, 0);
    ana.until(|f| f.to_act.is_some()).await;

    // Ben's connection drops: Ana is told he is away; he comes back and she is told that too.
    ben.close().await.expect("closes");
    ana.until(|f| !f.presence.is_empty()).await;
    assert_eq!(ana.presence, vec![(Seat(1), Presence::Away, PresenceChange::Disconnected)]);
    let (mut ben, _) = Client::returning(&server.url, &ben_token).await.expect("welcomed back");
    send(&mut ben, ClientMsg::Join { table, invite: None, since: None }).await;
    ana.until(|f| f.presence.len() == 2).await;
    assert_eq!(ana.presence[1], (Seat(1), Presence::Here, PresenceChange::Back));

    // The players talk; the spectator's words stay with the spectators while the game is on.
    send(&mut ben, ClientMsg::Chat { table, text: "good  luck <b>Ana</b>".into() }).await;
    let (_, lines) = next_chat(&mut ben, table).await;
    assert_eq!(texts(&lines), ["good luck <b>Ana</b>"], "runs of spaces are one; markup is text");
    assert_eq!(lines[0].channel, ChatChannel::Players);
    send(&mut cleo, ClientMsg::Chat { table, text: "Ben has the jokers".into() }).await;
    assert_eq!(texts(&next_chat(&mut cleo, table).await.1), ["good luck <b>Ana</b>"]);
    assert_eq!(texts(&next_chat(&mut cleo, table).await.1), ["Ben has the jokers"]);
    send(&mut ana.client, ClientMsg::Chat { table, text: "thanks".into() }).await;
    let (_, lines) = next_chat(&mut ana.client, table).await;
    assert_eq!(texts(&lines), ["good luck <b>Ana</b>"], "Ana never reads the spectators' chat during the game");
    assert_eq!(texts(&next_chat(&mut ana.client, table).await.1), ["thanks"]);
    send(&mut ana.client, ClientMsg::Chat { table, text: "bidi \u{202E}olleh".into() }).await;
    match recv(&mut ana.client).await {
        ServerMsg::Error { code: ErrorCode::BadChat, .. } => {}
        other => panic!("a bidi override is refused, not {other:?}"),
    }

    // A late spectator reads both chats; a player who reloads reads the players'.
    let (mut dora, _, _) = guest(&server.url, "Dora").await;
    send(&mut dora, ClientMsg::Watch { table, invite: Some(invite.clone()), since: None }).await;
    let (history, lines) = next_chat(&mut dora, table).await;
    assert!(history);
    assert_eq!(texts(&lines), ["good luck <b>Ana</b>", "Ben has the jokers", "thanks"]);
    server.shutdown().await;

    // A new server on the same database: the chat is back with the table.
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config, Store::connect(&url).await.expect("opens")).await;
    let (mut back, _) = Client::returning(&server.url, &ana_token).await.expect("welcomed back");
    send(&mut back, ClientMsg::Join { table, invite: None, since: None }).await;
    let (history, lines) = next_chat(&mut back, table).await;
    assert!(history);
    assert_eq!(texts(&lines), ["good luck <b>Ana</b>", "thanks"]);
    // Numbered in the players' chat alone: no gap tells Ana that a spectator spoke between (issue 40).
    assert_eq!(lines.iter().map(|line| line.n).collect::<Vec<_>>(), [0, 1]);

    // The REST API serves nothing of it.
    let live = http_get(&format!("{}/api/tables", server.http()), "application/json").await;
    assert!(!live.body.contains("thanks") && !live.body.contains("jokers"), "{}", live.body);
    server.shutdown().await;
}

/// The chat as the store keeps it: each table's own, in order, the last [`CHAT_HISTORY`] only, with the
/// writer's name and the chat it was in.
async fn chat_story(store: &Store) {
    let ana = PlayerInfo { id: PlayerId(Uuid::new_v4()), name: "Ana".into() };
    store.save_player(&ana, &[7; 32]).await.expect("the host is stored");
    let mut tables = Vec::new();
    for _ in 0..2 {
        let table = TableId(Uuid::new_v4());
        let row = TableRow {
            id: table,
            game: "romi-rami".into(),
            host: ana.id,
            seats: 2,
            public: false,
            spectators: SpectatorPolicy::Link,
            created_at: time::OffsetDateTime::now_utc(),
            invite: "key".into(),
            clock: None,
            options: "{}".into(),
            rated: true,
            tournament: None,
        };
        store.create_table(&row).await.expect("the table is stored");
        tables.push(table);
    }
    let line = |n: u64| ChatLine {
        n,
        from: ana.clone(),
        channel: if n % 2 == 0 { ChatChannel::Players } else { ChatChannel::Spectators },
        text: format!("message {n} — «ok»"),
    };
    for n in 0..CHAT_HISTORY as u64 + 5 {
        store.append_chat(&ChatRow { table: tables[0], line: line(n) }, None).await.expect("stored");
    }
    store.append_chat(&ChatRow { table: tables[1], line: line(0) }, None).await.expect("stored");
    let kept = store.chat(tables[0]).await.expect("read back");
    assert_eq!(kept, (5..CHAT_HISTORY as u64 + 5).map(line).collect::<Vec<_>>());
    assert_eq!(store.chat(tables[1]).await.expect("read back"), vec![line(0)]);
    // Each chat numbers its own lines (issue 40): the spectators' line 0 is kept beside the players' line 0, and
    // both are read back in the order they were said.
    let spectators_first = ChatLine { channel: ChatChannel::Spectators, text: "psst".into(), ..line(0) };
    store.append_chat(&ChatRow { table: tables[1], line: spectators_first.clone() }, None).await.expect("stored apart");
    assert_eq!(store.chat(tables[1]).await.expect("read back"), vec![line(0), spectators_first]);
    let taken = store.append_chat(&ChatRow { table: tables[1], line: line(0) }, None).await;
    assert!(taken.is_err(), "a number is taken once");
    assert!(store.chat(TableId(Uuid::new_v4())).await.expect("read").is_empty());
}

#[tokio::test]
async fn the_chat_in_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("chat.db").display())).await.expect("opens");
    chat_story(&store).await;
}

#[tokio::test]
async fn the_chat_in_postgres() {
    let Some(database) = common::PgDatabase::create().await else { return };
    let store = Store::connect(&database.url).await.expect("connect and migrate");
    chat_story(&store).await;
    store.close().await;
    database.drop_database().await;
}
