//! Tables that wait for their game survive a restart with their seats, like games in play do; one whose
//! seated players do not come back closes after a grace and leaves the lobby.

use crate::common;

use std::time::Duration;

use common::{TestServer, create_table, expect_table, fast, guest, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_server::config::Config;
use romirami_server::protocol::{Role, SpectatorPolicy, TableState};
use romirami_server::store::Store;
use tokio::net::TcpListener;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_table_comes_back_after_a_restart_with_its_seats() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    let config = fast();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config.clone(), Store::connect(&url).await.expect("opens")).await;
    let (mut ana, ana_info, ana_token) = guest(&server.url, "Ana").await;
    let (mut bo, _, bo_token) = guest(&server.url, "Bo").await;
    let (summary, invite) = create_table(&mut ana, 4, true, SpectatorPolicy::Everyone).await;
    let table = summary.id;
    expect_table(&mut ana, table).await;
    send(&mut ana, ClientMsg::AddBot { table, level: romirami_game::Level::Normal }).await;
    let (with_bot, _, _) = expect_table(&mut ana, table).await;
    assert_eq!(with_bot.bots, vec![false, true, false, false]);
    send(&mut bo, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    // Bo's join was acknowledged by the table message that seats him.
    let (seated, role, _) = expect_table(&mut bo, table).await;
    assert_eq!(role, Role::Seat(romirami_engine::Seat(2)));
    assert_eq!(seated.bots, vec![false, true, false, false]);
    server.shutdown().await;

    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config, Store::connect(&url).await.expect("opens")).await;
    let listed: Vec<_> = server.state.lobby.public_tables();
    assert!(listed.iter().any(|t| t.id == table && t.state == TableState::Waiting), "{listed:?}");
    let (mut bo, _) = Client::returning(&server.url, &bo_token).await.expect("welcomed back");
    send(&mut bo, ClientMsg::Join { table, invite: None, since: None }).await;
    let (back, role, _) = expect_table(&mut bo, table).await;
    assert_eq!(role, Role::Seat(romirami_engine::Seat(2)), "Bo has his seat back");
    assert_eq!(back.host, ana_info.id);
    assert_eq!(back.bots, vec![false, true, false, false], "the host's bot is still a bot");
    assert_eq!(back.seats.iter().flatten().count(), 3);
    // The host comes back and starts the game with the three seated.
    let (mut ana, _) = Client::returning(&server.url, &ana_token).await.expect("welcomed back");
    send(&mut ana, ClientMsg::Join { table, invite: None, since: None }).await;
    expect_table(&mut ana, table).await;
    send(&mut ana, ClientMsg::Start { table }).await;
    ana.wait_for(|msg| match msg {
        ServerMsg::Table { table: t, .. } if t.id == table && t.state == TableState::Playing => Some(()),
        _ => None,
    })
    .await
    .expect("the game starts");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_table_whose_players_are_gone_closes_after_a_grace() {
    let config = Config { waiting_table_grace: Duration::from_millis(300), ..fast() };
    let server = TestServer::start(config).await;
    let (mut ana, _, _) = guest(&server.url, "Ana").await;
    let (mut watcher, _, _) = guest(&server.url, "Lobby").await;
    send(&mut watcher, ClientMsg::LobbySubscribe).await;
    // Subscribed before the table opens: else a busy server could open and close it before the watcher
    // is listening, and the watcher would wait for a removal it was never going to hear.
    watcher.wait_for(|msg| matches!(msg, ServerMsg::Lobby { .. }).then_some(())).await.expect("the lobby");
    let (summary, _) = create_table(&mut ana, 2, true, SpectatorPolicy::Everyone).await;
    // Her connection goes at once, while the table may not have seated her connection yet.
    drop(ana);
    watcher
        .wait_for(|msg| matches!(msg, ServerMsg::LobbyTableRemoved { table } if *table == summary.id).then_some(()))
        .await
        .expect("the table leaves the lobby");
    assert!(server.state.lobby.table(summary.id).is_none(), "the table is closed");
    server.shutdown().await;
}
