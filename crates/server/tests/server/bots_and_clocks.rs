//! Players who stop playing: bot seats chosen by the host, turn clocks, the bot standing in for a player
//! who ran out of time or left until they come back, games abandoned when every player is gone, and
//! clocks and the commitment to the seed kept across a restart.

use crate::common;

use std::time::Duration;

use common::{Follower, TestServer, create_table, fast, guest, http_get, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_game::Level;
use romirami_server::config::Config;
use romirami_server::protocol::{Clock, ErrorCode, Role, SpectatorPolicy, TableId, TableSummary};
use romirami_server::store::Store;
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// Fast bots and a short wait before abandoning, for tests.
fn quick() -> Config {
    Config { bot_delay: Duration::ZERO, abandon_after: Duration::from_millis(300), ..fast() }
}

async fn create_clocked(client: &mut Client, seats: u8, clock: Clock) -> (TableSummary, String) {
    send(
        client,
        ClientMsg::CreateTable {
            seats,
            public: false,
            spectators: SpectatorPolicy::Link,
            clock: Some(clock),
            game: None,
            options: None,
            rated: None,
        },
    )
    .await;
    client
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, invite } => Some((table.clone(), invite.clone())),
            _ => None,
        })
        .await
        .expect("the table is created")
}

/// Reads until a `table` message for `table` whose summary satisfies `done`.
async fn summary_where(client: &mut Client, table: TableId, done: impl Fn(&TableSummary) -> bool) -> TableSummary {
    client
        .wait_for(|msg| match msg {
            ServerMsg::Table { table: summary, .. } if summary.id == table && done(summary) => Some(summary.clone()),
            _ => None,
        })
        .await
        .expect("the table changes")
}

/// The finished game as the REST API shows it, once stored.
async fn stored_game(server: &TestServer, table: TableId) -> Value {
    let url = format!("{}/api/games/{table}", server.http());
    for _ in 0..500 {
        let answer = http_get(&url, "application/json").await;
        if answer.status == 200 {
            return answer.json();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {table} was not stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_fills_seats_with_bots_and_plays_against_them() {
    let server = TestServer::start(quick()).await;
    let (mut ana, _, _) = guest(&server.url, "Ana").await;
    let (mut ben, _, _) = guest(&server.url, "Ben").await;
    let (summary, _) = create_table(&mut ana, 3, false, SpectatorPolicy::Link).await;
    let table = summary.id;
    // Only the host adds bots, and only to a free seat before the start.
    send(&mut ben, ClientMsg::AddBot { table, level: romirami_game::Level::Normal }).await;
    assert!(matches!(
        ben.recv().await.expect("an answer"),
        ServerMsg::Error { code: ErrorCode::NoSuchTable | ErrorCode::NotHost, .. }
    ));
    send(&mut ana, ClientMsg::AddBot { table, level: Level::Strong }).await;
    let waiting = summary_where(&mut ana, table, |s| s.seats.iter().flatten().count() == 2).await;
    assert_eq!(waiting.bots, [false, true, false]);
    assert_eq!(waiting.levels, [None, Some(Level::Strong), None]);
    assert_eq!(waiting.seats[1].as_ref().map(|p| p.name.as_str()), Some("Bot · strong"));
    assert!(waiting.rated, "the host's bots count for the ratings");
    // The last seat filled starts the game; a bot of a level left out is `normal`.
    ana.send_json(&json!({ "type": "add_bot", "table": table })).await.expect("sent");
    let (playing, events) = ana
        .wait_for(|msg| match msg {
            ServerMsg::Table { table: summary, view: Some(view), .. } if summary.id == table => {
                Some((summary.clone(), view.event_count))
            }
            _ => None,
        })
        .await
        .expect("the game starts");
    assert_eq!(playing.bots, [false, true, true]);
    assert_eq!(playing.levels, [None, Some(Level::Strong), Some(Level::Normal)]);
    let mut ana = Follower::new(ana, table, events);
    let result = ana.play_to_end().await;
    send(&mut ana.client, ClientMsg::AddBot { table, level: romirami_game::Level::Normal }).await;
    let late = ana
        .client
        .wait_for(|msg| match msg {
            ServerMsg::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
        .expect("an answer");
    assert_eq!(late, ErrorCode::AlreadyStarted);
    let game = stored_game(&server, table).await;
    assert_eq!(game["players"][0]["bot"], false);
    assert_eq!((&game["players"][1]["bot"], &game["players"][1]["level"]), (&Value::Bool(true), &json!("strong")));
    assert_eq!((&game["players"][2]["bot"], &game["players"][2]["name"]), (&Value::Bool(true), &json!("Bot · normal")));
    assert_eq!(game["players"][0].get("level"), None, "a person has no level");
    assert_eq!((&game["rated"], &game["unrated_because"]), (&Value::Bool(true), &Value::Null), "{game}");
    // Each level is a player of its own with a rating in the game.
    let strong = romirami_server::bots::id(Level::Strong).0;
    let ratings = http_get(&format!("{}/api/players/{strong}/ratings", server.http()), "application/json").await.json();
    assert_eq!(ratings["ratings"][0]["game"], "romi-rami", "{ratings}");
    assert_eq!(ratings["ratings"][0]["games"], 1, "{ratings}");
    let bot_actions: Vec<u64> =
        game["bot_actions"].as_array().expect("bot_actions").iter().filter_map(Value::as_u64).collect();
    assert_eq!(bot_actions[0], 0, "Ana played every move herself");
    assert!(bot_actions[1] > 0 && bot_actions[2] > 0, "{bot_actions:?}");
    assert_eq!(game["scores"][0]["total"], result.scores[0].total);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_out_of_time_is_played_by_the_bot_until_they_come_back() {
    let server = TestServer::start(quick()).await;
    let (mut ana, _, ana_token) = guest(&server.url, "Ana").await;
    let (mut ben, _, ben_token) = guest(&server.url, "Ben").await;
    let clock = Clock { turn_ms: 300, reserve_ms: 200 };
    let (summary, invite) = create_clocked(&mut ana, 2, clock).await;
    let table = summary.id;
    assert_eq!(summary.clock, Some(clock), "everyone sees the clock");
    // The clocks start with the game, after this join: from here, the time is out after 500 ms at the
    // earliest, however long this test waits to be run.
    let started = std::time::Instant::now();
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    // The game starts with the clocks, and the view says who acts first: that player sleeps.
    let mut first = None;
    let mut clocks = None;
    while first.is_none() || clocks.is_none() {
        match ben.recv().await.expect("a message") {
            ServerMsg::Table { view: Some(view), .. } => {
                if let romirami_engine::Phase::Playing { seat, .. } = view.phase {
                    first = Some(seat);
                }
            }
            ServerMsg::Clocks { reserves_ms, .. } => clocks = Some(reserves_ms),
            _ => {}
        }
    }
    assert_eq!(clocks, Some(vec![200, 200]));
    let sleeper_seat = first.expect("a first player");
    let (mut sleeper, sleeper_token, other, other_token) =
        if sleeper_seat.0 == 0 { (ana, ana_token, ben, ben_token) } else { (ben, ben_token, ana, ana_token) };
    // After 300 + 200 ms the bot plays the sleeper's seat, and the table says so.
    let taken = summary_where(&mut sleeper, table, |s| s.bots.get(usize::from(sleeper_seat.0)) == Some(&true)).await;
    assert!(started.elapsed() >= Duration::from_millis(250), "not before the time is out: {taken:?}");
    // While the bot plays the seat, the player's own moves are refused.
    send(&mut sleeper, ClientMsg::Act { table, id: 1, action: romirami_engine::Action::Pass }).await;
    let refused = sleeper
        .wait_for(|msg| match msg {
            ServerMsg::Error { code, id: Some(1), .. } => Some(*code),
            _ => None,
        })
        .await
        .expect("an answer");
    assert!(matches!(refused, ErrorCode::NotYourTurn | ErrorCode::GameOver), "{refused:?}");
    // The sleeper comes back on a new connection; the other player follows the game afresh too.
    sleeper.close().await.ok();
    other.close().await.ok();
    let mut players = Vec::new();
    for token in [&sleeper_token, &other_token] {
        let (client, _) = Client::returning(&server.url, token).await.expect("welcomed back");
        let mut follower = Follower::new(client, table, 0);
        send(&mut follower.client, ClientMsg::Join { table, invite: None, since: None }).await;
        follower.until(|f| f.seat.is_some()).await;
        players.push(follower);
    }
    let mut other = players.pop().expect("two players");
    let mut sleeper = players.pop().expect("two players");
    assert_eq!(sleeper.seat, Some(sleeper_seat));
    // Both play on (the other may run out of time too: the bot then plays for them, and the game ends).
    let (sleeper_result, other_result) = tokio::join!(sleeper.play_to_end(), other.play_to_end());
    assert_eq!(sleeper_result, other_result);
    assert!(!sleeper.acks.is_empty(), "the seat was theirs again at their next turn");
    let game = stored_game(&server, table).await;
    let bot_actions: Vec<u64> =
        game["bot_actions"].as_array().expect("bot_actions").iter().filter_map(Value::as_u64).collect();
    let seat = usize::from(sleeper_seat.0);
    assert!(bot_actions[seat] > 0, "the bot's moves for the sleeper are recorded: {bot_actions:?}");
    assert_eq!(game["players"][seat]["bot"], false, "the seat was not a bot's");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_every_player_left_is_abandoned_and_stored() {
    let server = TestServer::start(quick()).await;
    let (mut ana, _, _) = guest(&server.url, "Ana").await;
    let (mut ben, _, _) = guest(&server.url, "Ben").await;
    let (mut cy, _, _) = guest(&server.url, "Cy").await;
    let (summary, invite) = create_table(&mut ana, 2, false, SpectatorPolicy::Link).await;
    let table = summary.id;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
    summary_where(&mut ben, table, |s| s.state == romirami_server::protocol::TableState::Playing).await;
    send(&mut cy, ClientMsg::Watch { table, invite: Some(invite), since: None }).await;
    summary_where(&mut cy, table, |_| true).await;
    // Ana leaves: the bot plays for her and Ben plays on.
    send(&mut ana, ClientMsg::Leave { table }).await;
    let stood_in = summary_where(&mut ben, table, |s| s.bots.iter().any(|b| *b)).await;
    assert_eq!(stood_in.bots.iter().filter(|b| **b).count(), 1);
    // Ben leaves too: nobody is left, the game is abandoned, the spectator is told, and it is stored.
    send(&mut ben, ClientMsg::Leave { table }).await;
    let over = cy
        .wait_for(|msg| match msg {
            ServerMsg::GameOver { result, .. } => Some(result.clone()),
            _ => None,
        })
        .await
        .expect("the game ends");
    assert_eq!(over.ended_by, romirami_engine::EndReason::Abandoned);
    let game = stored_game(&server, table).await;
    assert_eq!(game["ended_by"], "abandoned");
    assert_eq!(game["unrated_because"], "abandoned", "{game}");
    // Once nobody is at it, the table is answered from the store: still over, as abandoned.
    send(&mut cy, ClientMsg::Leave { table }).await;
    send(&mut ana, ClientMsg::Join { table, invite: None, since: None }).await;
    let reopened = ana
        .wait_for(|msg| match msg {
            ServerMsg::Table { table: summary, view: Some(view), .. }
                if summary.state == romirami_server::protocol::TableState::Finished =>
            {
                Some(view.result.as_ref().map(|r| r.ended_by))
            }
            _ => None,
        })
        .await
        .expect("the finished table");
    assert_eq!(reopened, Some(romirami_engine::EndReason::Abandoned), "the view holds the abandoned result");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_nobody_is_connected_to_is_abandoned_after_a_while() {
    let server = TestServer::start(quick()).await;
    let (mut ana, _, _) = guest(&server.url, "Ana").await;
    let (mut ben, _, _) = guest(&server.url, "Ben").await;
    let (summary, invite) = create_table(&mut ana, 2, false, SpectatorPolicy::Link).await;
    let table = summary.id;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    summary_where(&mut ben, table, |s| s.state == romirami_server::protocol::TableState::Playing).await;
    // Both connections drop (no `leave`, no clock): after `abandon_after` the game ends as abandoned.
    ana.close().await.ok();
    ben.close().await.ok();
    let game = stored_game(&server, table).await;
    assert_eq!(game["ended_by"], "abandoned");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_reserves_and_the_shuffle_commitment_survive_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    // The first server's tables live on in this process after its shutdown: they must not abandon the
    // game while the second server runs.
    let config = Config { bot_delay: Duration::ZERO, ..fast() };
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config.clone(), Store::connect(&url).await.expect("opens")).await;
    let (mut ana, _, ana_token) = guest(&server.url, "Ana").await;
    let (ben, _, ben_token) = guest(&server.url, "Ben").await;
    let clock = Clock { turn_ms: 100, reserve_ms: 60_000 };
    let (summary, invite) = create_clocked(&mut ana, 2, clock).await;
    let table = summary.id;
    let mut ben = Follower::new(ben, table, 0);
    send(&mut ben.client, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    let mut ana = Follower::new(ana, table, 0);
    // The turn's clock starts after this instant, and stops before the action's acknowledgement.
    let before_the_start = std::time::Instant::now();
    // Whoever is first takes 400 ms over one action: 300 ms of their reserve are spent.
    let (first, first_token) = loop {
        tokio::select! {
            _ = ana.recv() => if ana.turn.is_some() { break (&mut ana, &ana_token) },
            _ = ben.recv() => if ben.turn.is_some() { break (&mut ben, &ben_token) },
        }
    };
    let seat = first.seat.expect("seated");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let legal = first.turn.take().expect("a turn");
    let id = first.act(romirami_engine::bot::choose(&legal).expect("a move")).await;
    first.until(|f| f.acks.iter().any(|(acked, _)| *acked == id)).await;
    // The most the turn can have lasted, as this test saw it (the machine may have kept it waiting).
    let longest_turn = before_the_start.elapsed().as_millis();
    let first_token = first_token.clone();
    let commitment = first.shuffle.clone().expect("the commitment to the seed, told at the start");
    server.shutdown().await;

    // A new server on the same database: the table's clock and the reserve are back.
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config, Store::connect(&url).await.expect("opens")).await;
    let (mut back, _) = Client::returning(&server.url, &first_token).await.expect("welcomed back");
    send(&mut back, ClientMsg::Join { table, invite: None, since: None }).await;
    let mut clock_seen = None;
    let mut reserves = None;
    while clock_seen.is_none() || reserves.is_none() {
        match back.recv().await.expect("a message") {
            ServerMsg::Table { table: summary, role, .. } if summary.id == table => {
                assert_eq!(role, Role::Seat(seat));
                clock_seen = summary.clock;
                // The salt came back with the game: the same commitment is told.
                assert_eq!(summary.shuffle.as_ref(), Some(&commitment));
            }
            ServerMsg::Clocks { reserves_ms, .. } => reserves = Some(reserves_ms),
            _ => {}
        }
    }
    assert_eq!(clock_seen, Some(clock));
    let reserves = reserves.expect("clocks");
    let spent = 60_000 - reserves[usize::from(seat.0)];
    // At least the 400 ms slept less the 100 ms of the turn (a little less: the turn began before this
    // test heard of it); at most what the turn can have lasted, less its 100 ms (a millisecond of
    // rounding more).
    let most = longest_turn.saturating_sub(100) + 1;
    assert!(
        spent >= 250 && u128::from(spent) <= most,
        "about 300 ms of the reserve are spent (at most {most} ms), not {spent} ms: {reserves:?}"
    );
    server.shutdown().await;
}
