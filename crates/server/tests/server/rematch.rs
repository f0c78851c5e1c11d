//! Playing again, over real connections and a real store (SQLite always, PostgreSQL when `DATABASE_URL`
//! names one): two players finish a game watched by a spectator, both say yes, and all three go on at
//! the new table, with the same seats and options and the same invite link; the old table's id leads
//! there, also after a restart, when the new game is an ordinary table brought back from the store. A
//! decline closes the offer for everyone. (The timeout, bots and stand-ins: `table/core/tests/rematch.rs`,
//! in fake time; who may answer: `authorization.rs`.)

use crate::common;

use std::time::Duration;

use common::{TestServer, guest, recv, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::Seat;
use romirami_server::config::Config;
use romirami_server::protocol::{Clock, ErrorCode, RematchEnd, Role, SpectatorPolicy, TableId, TableSummary};
use romirami_server::store::Store;
use tokio::net::TcpListener;

/// Every player runs out of time at once: the bot finishes the game for them, quickly, while they stay.
const QUICK: Clock = Clock { turn_ms: 100, reserve_ms: 0 };

fn config() -> Config {
    Config { bot_delay: Duration::from_millis(1), round_pause: Duration::ZERO, ..common::fast() }
}

/// The next rematch message `client` receives about `table`, skipping the rest.
async fn next_rematch(client: &mut Client, table: TableId) -> ServerMsg {
    client
        .wait_for(|msg| match msg {
            ServerMsg::Rematch { table: t, .. }
            | ServerMsg::RematchClosed { table: t, .. }
            | ServerMsg::RematchStarted { table: t, .. }
                if *t == table =>
            {
                Some(msg.clone())
            }
            ServerMsg::Error { code, message, .. } => panic!("refused: {code:?} {message}"),
            _ => None,
        })
        .await
        .expect("a rematch message")
}

/// The table `client` is shown of `table`, and its role there.
async fn table_of(client: &mut Client, table: TableId) -> (TableSummary, Role) {
    client
        .wait_for(|msg| match msg {
            ServerMsg::Table { table: summary, role, .. } if summary.id == table => Some((summary.clone(), *role)),
            ServerMsg::Error { code, message, .. } => panic!("refused: {code:?} {message}"),
            _ => None,
        })
        .await
        .expect("the table")
}

/// Ana hosts a private table with the quick clock, Ben joins and Cleo watches with the link; the
/// game is played to its end and everyone has the rematch offer. Returns the three, the table and
/// its invite key, and the players' tokens.
async fn finished_game(url: &str) -> ([Client; 3], TableId, String, [String; 2]) {
    let (mut ana, _, ana_token) = guest(url, "Ana").await;
    let (mut ben, _, ben_token) = guest(url, "Ben").await;
    let (mut cleo, _, _) = guest(url, "Cleo").await;
    let (table, invite) = common::create_casual_pair(&mut ana, SpectatorPolicy::Link, Some(QUICK)).await;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    send(&mut cleo, ClientMsg::Watch { table, invite: Some(invite.clone()), since: None }).await;
    for client in [&mut ana, &mut ben, &mut cleo] {
        match next_rematch(client, table).await {
            ServerMsg::Rematch { accepted, remaining_ms, .. } => {
                assert_eq!(accepted, vec![false, false], "both players are asked");
                assert!(remaining_ms <= 60_000);
            }
            other => panic!("the offer, not {other:?}"),
        }
    }
    ([ana, ben, cleo], table, invite, [ana_token, ben_token])
}

async fn everyone_says_yes_and_plays_again(server: TestServer, url: &str) {
    let ([mut ana, mut ben, mut cleo], table, invite, [ana_token, _]) = finished_game(&server.url).await;
    send(&mut ana, ClientMsg::Rematch { table, accept: true }).await;
    for client in [&mut ana, &mut ben, &mut cleo] {
        assert!(
            matches!(next_rematch(client, table).await, ServerMsg::Rematch { accepted, .. } if accepted == [true, false])
        );
    }
    send(&mut ben, ClientMsg::Rematch { table, accept: true }).await;
    let mut next = None;
    for client in [&mut ana, &mut ben, &mut cleo] {
        match next_rematch(client, table).await {
            ServerMsg::RematchStarted { rematch, .. } => assert_eq!(*next.get_or_insert(rematch), rematch),
            other => panic!("the rematch starts, not {other:?}"),
        }
    }
    let next = next.expect("a new table");
    assert_ne!(next, table, "a new game has a table of its own");
    send(&mut ana, ClientMsg::Join { table: next, invite: Some(invite.clone()), since: None }).await;
    send(&mut ben, ClientMsg::Join { table: next, invite: Some(invite.clone()), since: None }).await;
    send(&mut cleo, ClientMsg::Watch { table: next, invite: Some(invite.clone()), since: None }).await;
    let (summary, role) = table_of(&mut ana, next).await;
    assert_eq!(role, Role::Seat(Seat(0)));
    assert_eq!(table_of(&mut ben, next).await.1, Role::Seat(Seat(1)));
    assert_eq!(table_of(&mut cleo, next).await.1, Role::Spectator, "the spectator follows with the link");
    let names: Vec<_> = summary.seats.iter().flatten().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ana", "Ben"]);
    assert_eq!(
        (summary.game.as_str(), summary.public, summary.spectators, summary.clock, summary.rated),
        ("romi-rami", false, SpectatorPolicy::Link, Some(QUICK), false),
        "the same options"
    );
    assert!(summary.shuffle.is_some(), "its game has started");

    // Someone with the old link is led to the new table; without it, the private table shows nothing.
    let (mut dora, _, _) = guest(&server.url, "Dora").await;
    send(&mut dora, ClientMsg::Watch { table, invite: Some(invite.clone()), since: None }).await;
    assert_eq!(next_rematch(&mut dora, table).await, ServerMsg::RematchStarted { table, rematch: next });
    send(&mut dora, ClientMsg::Watch { table, invite: None, since: None }).await;
    match recv(&mut dora).await {
        ServerMsg::Error { code: ErrorCode::NoSuchTable, .. } => {}
        other => panic!("no such table, not {other:?}"),
    }
    server.shutdown().await;

    // After a restart the old id still leads there (from the store), and the new game is back.
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config(), Store::connect(url).await.expect("opens")).await;
    let (mut ana, _) = Client::returning(&server.url, &ana_token).await.expect("welcomed back");
    send(&mut ana, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    assert_eq!(next_rematch(&mut ana, table).await, ServerMsg::RematchStarted { table, rematch: next });
    send(&mut ana, ClientMsg::Join { table: next, invite: Some(invite), since: None }).await;
    let (summary, role) = table_of(&mut ana, next).await;
    assert_eq!(role, Role::Seat(Seat(0)));
    assert_ne!(summary.state, romirami_server::protocol::TableState::Waiting, "the rematch's game came back");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everyone_says_yes_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config(), Store::connect(&url).await.expect("opens")).await;
    everyone_says_yes_and_plays_again(server, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everyone_says_yes_on_postgres() {
    let Some(db) = common::PgDatabase::create().await else { return };
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config(), Store::connect(&db.url).await.expect("opens")).await;
    everyone_says_yes_and_plays_again(server, &db.url).await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_players_answer_and_a_decline_closes_the_offer_for_everyone() {
    let server = TestServer::start(config()).await;
    let ([mut ana, mut ben, mut cleo], table, _, _) = finished_game(&server.url).await;
    // The spectator, a stranger and the player of another table are refused, and change nothing.
    let (mut dora, _, _) = guest(&server.url, "Dora").await;
    let (mut eve, _, _) = guest(&server.url, "Eve").await;
    send(
        &mut eve,
        ClientMsg::CreateTable {
            seats: 2,
            public: true,
            spectators: SpectatorPolicy::Everyone,
            clock: None,
            game: None,
            options: None,
            rated: None,
        },
    )
    .await;
    eve.wait_for(|msg| matches!(msg, ServerMsg::Table { .. }).then_some(())).await.expect("Eve sits at her table");
    for (client, accept) in [(&mut cleo, true), (&mut dora, true), (&mut eve, false)] {
        send(client, ClientMsg::Rematch { table, accept }).await;
        match recv(client).await {
            ServerMsg::Error { code: ErrorCode::NotSeated, table: Some(t), .. } if t == table => {}
            other => panic!("only the players answer, not {other:?}"),
        }
    }
    send(&mut ana, ClientMsg::Rematch { table, accept: true }).await;
    for client in [&mut ana, &mut ben, &mut cleo] {
        let offer = next_rematch(client, table).await;
        assert!(matches!(&offer, ServerMsg::Rematch { accepted, .. } if *accepted == [true, false]), "{offer:?}");
    }
    send(&mut ben, ClientMsg::Rematch { table, accept: false }).await;
    let closed = ServerMsg::RematchClosed { table, reason: RematchEnd::Declined, seat: Some(Seat(1)) };
    for client in [&mut ana, &mut ben, &mut cleo] {
        assert_eq!(next_rematch(client, table).await, closed);
    }
    send(&mut ana, ClientMsg::Rematch { table, accept: true }).await;
    match recv(&mut ana).await {
        ServerMsg::Error { code: ErrorCode::NoRematch, .. } => {}
        other => panic!("no offer is open, not {other:?}"),
    }
    server.shutdown().await;
}
