//! A seated player who sends `watch` for their own table is back at their seat, not a spectator.

use crate::common;

use common::TestServer;
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_server::protocol::{Role, SpectatorPolicy};

#[tokio::test]
async fn watching_ones_own_table_keeps_the_seat() {
    let server = TestServer::default().await;
    let (mut ana, _, ana_token) = Client::guest(&server.url, "Ana").await.expect("Ana connects");
    let (mut bo, _, _) = Client::guest(&server.url, "Bo").await.expect("Bo connects");
    ana.send(&ClientMsg::CreateTable {
        seats: 2,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        clock: None,
        game: None,
        options: None,
        rated: None,
    })
    .await
    .expect("sent");
    let table = ana
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, .. } => Some(table.id),
            _ => None,
        })
        .await
        .expect("the table is created");
    bo.send(&ClientMsg::Join { table, invite: None, since: None }).await.expect("sent");

    // Ana's second tab says `watch`: it gets her seat's view, with her hand.
    let (mut tab, _) = Client::returning(&server.url, &ana_token).await.expect("second tab");
    tab.send(&ClientMsg::Watch { table, invite: None, since: None }).await.expect("sent");
    let (role, has_hand) = tab
        .wait_for(|msg| match msg {
            ServerMsg::Table { role, view: Some(view), .. } => Some((*role, view.hand.is_some())),
            _ => None,
        })
        .await
        .expect("a table message");
    assert_eq!(role, Role::Seat(romirami_engine::Seat(0)));
    assert!(has_hand, "the seat's view holds its hand");
    server.shutdown().await;
}
