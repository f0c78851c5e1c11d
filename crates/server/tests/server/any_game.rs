//! Any game sits at the table: "pile", a toy game that only this test knows (`support/pile.rs`), is
//! registered with one line and played end to end through the real server — created with options,
//! listed, joined, watched, played, refused, finished, stored and served over REST — with the table
//! core, the store, the WebSocket layer and the REST handlers unchanged. Its hidden card per seat
//! never reaches the other seat or a spectator before the end.

use crate::common;
use crate::pile;

use common::{TestServer, fast, http_get, http_get_stored};
use futures_util::{SinkExt, StreamExt};
use pile::{Pile, PileAction, PileEvent, PileRecord, PileView};
use romirami_game::{Seat, TableGame};
use romirami_server::protocol::{ErrorCode, Role, TableState};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// The protocol's messages with pile's payloads.
type PileMsg = romirami_server::protocol::ServerMsg<Box<PileView>, PileEvent, Vec<PileAction>, Vec<i64>>;

/// A WebSocket client that reads pile's messages, keeping every text it received.
struct Player {
    socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    texts: Vec<String>,
}

impl Player {
    async fn guest(url: &str, name: &str) -> Player {
        let (socket, _) = tokio_tungstenite::connect_async(url).await.expect("connects");
        let mut player = Player { socket, texts: Vec::new() };
        player.send(json!({ "type": "hello", "protocol": 1, "name": name })).await;
        assert!(matches!(player.recv().await, PileMsg::Welcome { .. }));
        player
    }

    async fn send(&mut self, msg: serde_json::Value) {
        self.socket.send(Message::text(msg.to_string())).await.expect("sent");
    }

    async fn recv(&mut self) -> PileMsg {
        loop {
            let frame = tokio::time::timeout(std::time::Duration::from_secs(10), self.socket.next())
                .await
                .expect("a message in time")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(text) = frame {
                self.texts.push(text.to_string());
                return serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            }
        }
    }

    async fn wait_for<T>(&mut self, mut pick: impl FnMut(&PileMsg) -> Option<T>) -> T {
        loop {
            let msg = self.recv().await;
            if let Some(found) = pick(&msg) {
                return found;
            }
        }
    }
}

/// Every card `viewer` could see of `seat` in `msg` before the end.
fn cards_of(seat: Seat, msg: &PileMsg) -> Vec<Option<u8>> {
    match msg {
        PileMsg::Table { view: Some(view), .. } => vec![view.cards[seat.index()]],
        PileMsg::Events { events, .. } => events
            .iter()
            .filter_map(|e| match &e.event {
                PileEvent::Dealt { seat: dealt, card } if *dealt == seat => Some(*card),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[tokio::test]
async fn a_game_the_server_never_heard_of_is_played_watched_stored_and_served() {
    let mut config = fast();
    config.games = config.games.with::<Pile>();
    let server = TestServer::start(config).await;
    let mut ana = Player::guest(&server.url, "Ana").await;
    let mut bruno = Player::guest(&server.url, "Bruno").await;
    let mut cleo = Player::guest(&server.url, "Cleo").await;

    // Options are checked by the game.
    let create = |options| {
        json!({ "type": "create_table", "seats": 2, "public": true, "spectators": "everyone",
                "game": "pile", "options": options })
    };
    ana.send(create(json!({ "pile": 500 }))).await;
    let refused = ana.wait_for(|m| matches!(m, PileMsg::Error { .. }).then(|| m.clone())).await;
    assert!(matches!(refused, PileMsg::Error { code: ErrorCode::BadOptions, .. }), "{refused:?}");
    ana.send(json!({ "type": "create_table", "seats": 3, "game": "pile" })).await;
    let refused = ana.wait_for(|m| matches!(m, PileMsg::Error { .. }).then(|| m.clone())).await;
    assert!(matches!(refused, PileMsg::Error { code: ErrorCode::BadOptions, .. }), "pile seats 2: {refused:?}");

    ana.send(create(json!({ "pile": 9 }))).await;
    let table = ana
        .wait_for(|m| match m {
            PileMsg::TableCreated { table, .. } => Some(table.clone()),
            _ => None,
        })
        .await;
    assert_eq!(table.game, "pile");
    let listed = http_get(&format!("{}/api/tables", server.http()), "application/json").await;
    assert!(listed.body.contains(r#""game":"pile""#), "the REST listing names the game: {}", listed.body);

    bruno.send(json!({ "type": "join", "table": table.id })).await;
    cleo.send(json!({ "type": "watch", "table": table.id })).await;
    let role = cleo
        .wait_for(|m| match m {
            PileMsg::Table { role, .. } => Some(*role),
            _ => None,
        })
        .await;
    assert_eq!(role, Role::Spectator);

    // A Romi Rami action is not pile's, and pile refuses an illegal take by its rules.
    let mut players = [ana, bruno];
    let first = players[0]
        .wait_for(|m| match m {
            PileMsg::YourTurn { legal, .. } => Some(legal.clone()),
            _ => None,
        })
        .await;
    assert_eq!(first, [1, 2, 3].map(|count| PileAction::Take { count }));
    players[0].send(json!({ "type": "act", "table": table.id, "id": 1, "action": { "type": "pass" } })).await;
    let refused = players[0].wait_for(|m| matches!(m, PileMsg::Error { .. }).then(|| m.clone())).await;
    assert!(matches!(refused, PileMsg::Error { code: ErrorCode::Malformed, id: Some(1), .. }), "{refused:?}");
    let take_five = json!({ "type": "act", "table": table.id, "id": 2, "action": { "type": "take", "count": 5 } });
    players[0].send(take_five).await;
    let refused = players[0].wait_for(|m| matches!(m, PileMsg::Error { .. }).then(|| m.clone())).await;
    assert!(matches!(refused, PileMsg::Error { code: ErrorCode::IllegalAction, id: Some(2), .. }), "{refused:?}");

    // Play it out: each takes 2 while they can.
    let mut to_act = 0;
    let mut id = 10;
    let result = loop {
        id += 1;
        let count = 2;
        let act = json!({ "type": "act", "table": table.id, "id": id, "action": { "type": "take", "count": count } });
        players[to_act].send(act).await;
        let over = players[to_act]
            .wait_for(|m| match m {
                PileMsg::Ack { .. } => Some(None),
                PileMsg::GameOver { result, .. } => Some(Some(result.clone())),
                PileMsg::Error { message, .. } => panic!("refused: {message}"),
                _ => None,
            })
            .await;
        if let Some(result) = over {
            break result;
        }
        to_act = 1 - to_act;
        let other = &mut players[to_act];
        let ended = other
            .wait_for(|m| match m {
                PileMsg::YourTurn { legal, .. } => Some((legal.len() < 2).then_some(None)),
                PileMsg::GameOver { result, .. } => Some(Some(Some(result.clone()))),
                _ => None,
            })
            .await;
        match ended {
            Some(Some(result)) => break result,
            Some(None) => {
                // One counter left: take it.
                id += 1;
                let act =
                    json!({ "type": "act", "table": table.id, "id": id, "action": { "type": "take", "count": 1 } });
                other.send(act).await;
                break other
                    .wait_for(|m| match m {
                        PileMsg::GameOver { result, .. } => Some(result.clone()),
                        _ => None,
                    })
                    .await;
            }
            None => {}
        }
    };
    assert_eq!(result.len(), 2);
    let [mut ana, mut bruno] = players;
    cleo.wait_for(|m| matches!(m, PileMsg::GameOver { .. }).then_some(())).await;

    // Each seat saw its own card, never the other's, and the spectator neither, until the end.
    for (viewer, own) in [(&ana, Some(Seat(0))), (&bruno, Some(Seat(1))), (&cleo, None)] {
        let before_end = viewer.texts.iter().take_while(|t| !t.contains(r#""type":"over""#));
        for text in before_end {
            let msg: PileMsg = serde_json::from_str(text).expect("parses");
            for seat in [Seat(0), Seat(1)] {
                for card in cards_of(seat, &msg) {
                    assert_eq!(card.is_some(), own == Some(seat), "{seat}'s card as {own:?} saw it: {text}");
                }
            }
        }
    }

    // Stored, and served over REST as any game is.
    let game_url = format!("{}/api/games/{}", server.http(), table.id);
    let stored = http_get_stored(&game_url).await;
    assert_eq!(stored.status, 200, "{}", stored.body);
    let game: serde_json::Value = serde_json::from_str(&stored.body).expect("JSON");
    assert_eq!(game["game"], "pile");
    let record = http_get(&format!("{game_url}/record"), "application/json").await;
    let record: PileRecord = serde_json::from_str(&record.body).expect("pile's record");
    let replayed = <Pile as TableGame>::replay(&record).expect("the record replays");
    assert_eq!(TableGame::result(&replayed), Some(result.clone()), "the record gives the same result");
    let games = http_get(&format!("{}/api/games?game=pile", server.http()), "application/json").await;
    assert!(games.body.contains(&table.id.to_string()), "{}", games.body);

    // Once everyone has left, the finished table is answered from the store, every card shown.
    for player in [&mut ana, &mut bruno] {
        player.send(json!({ "type": "leave", "table": table.id })).await;
    }
    drop(cleo);
    let mut late = Player::guest(&server.url, "Dora").await;
    late.send(json!({ "type": "watch", "table": table.id })).await;
    let (state, view) = late
        .wait_for(|m| match m {
            PileMsg::Table { table, view, .. } => Some((table.state, view.clone())),
            _ => None,
        })
        .await;
    assert_eq!(state, TableState::Finished);
    assert!(view.expect("a view").cards.iter().all(Option::is_some), "the end shows every card");
    server.shutdown().await;
}

/// The bots of `romirami bots --game NAME` (the client's, which know a game other than Romi Rami only by
/// the legal actions the server lists) play a whole match of a game registered with one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clients_bots_play_a_game_registered_with_one_line() {
    let mut config = fast();
    config.games = config.games.with::<Pile>();
    let server = TestServer::start(config).await;
    let played =
        romirami_client::family::play_match(&server.url, "pile", Some(json!({ "pile": 10 })), 2, "pile player ")
            .await
            .expect("the bots play pile to its end");
    assert!(played.actions >= 4, "10 counters take at least 4 takes of 3: {}", played.actions);
    assert_eq!(played.result.as_array().map(Vec::len), Some(2), "a score a seat: {}", played.result);
    server.shutdown().await;
}
