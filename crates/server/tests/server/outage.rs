//! A database outage in the middle of a game. The server talks to PostgreSQL through a TCP proxy written
//! here, which can cut every proxied connection (and turn new ones away) and later let them through
//! again. While it is cut, actions are refused with `unavailable` and never acknowledged, the server
//! stays up and its health endpoint says 503 `unavailable`; once it is restored the game plays on to
//! its end, and its stored record holds exactly the actions that were acknowledged. Another table
//! plays before and after, untouched. Needs PostgreSQL (`DATABASE_URL`, mandatory in CI); skipped
//! without it.

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{Bystander, Follower, PgDatabase, Proxy, TestServer, create_table, fast, guest, http_get, send};
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_engine::{Action, Record, Seat};
use romirami_server::protocol::{ErrorCode, SpectatorPolicy, TableId};
use romirami_server::store::{ActionRow, Store};
use tokio::net::TcpListener;

/// `url` with its host and port replaced by `addr`; and the host and port it named.
fn through(url: &str, addr: SocketAddr) -> (String, String) {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let (user, host) = authority.rsplit_once('@').map_or(("", authority), |(u, h)| (u, h));
    let upstream = if host.contains(':') { host.to_owned() } else { format!("{host}:5432") };
    let user = if user.is_empty() { String::new() } else { format!("{user}@") };
    (format!("{scheme}://{user}{addr}{tail}"), upstream)
}

/// A 2-player game played a move at a time, which remembers every acknowledged action.
struct Duo {
    table: TableId,
    players: [Follower; 2],
    acked: Vec<(Seat, Action)>,
}

impl Duo {
    async fn new(url: &str) -> Duo {
        let (mut host, _, _) = guest(url, "Ana").await;
        let (mut other, _, _) = guest(url, "Ben").await;
        let (table, invite) = create_table(&mut host, 2, false, SpectatorPolicy::Nobody).await;
        let table = table.id;
        send(&mut other, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
        let mut players = [Follower::new(host, table, 0), Follower::new(other, table, 0)];
        for player in &mut players {
            player.until(|p| p.to_act.is_some()).await;
        }
        Duo { table, players, acked: Vec::new() }
    }

    fn over(&self) -> bool {
        self.players[0].to_act.is_none()
    }

    /// Plays the bots' choice for the seat to act; returns the refusal's code if it was refused.
    async fn step(&mut self) -> Result<(), ErrorCode> {
        let seat = self.players[0].to_act.expect("the game is on");
        let [a, b] = &mut self.players;
        let (actor, other) = if seat == Seat(0) { (a, b) } else { (b, a) };
        actor.until(|p| p.turn.is_some()).await;
        let legal = actor.turn.clone().expect("a turn");
        let action = choose(&legal).expect("a legal action");
        let id = actor.act(action).await;
        let outcome = loop {
            match actor.recv().await {
                ServerMsg::Ack { id: got, .. } if got == id => break Ok(()),
                ServerMsg::Error { id: Some(got), code, .. } if got == id => break Err(code),
                _ => {}
            }
        };
        if let Err(code) = outcome {
            // A refused action is not followed by a new `your_turn`: the last one still holds.
            actor.turn = Some(legal);
            return Err(code);
        }
        self.acked.push((seat, action));
        let count = actor.acks.last().map(|(_, count)| *count).expect("acked");
        other.until(|p| p.next == count).await;
        if self.over() {
            for player in &mut self.players {
                player.until(|p| p.result.is_some()).await;
            }
        }
        Ok(())
    }
}

async fn health(http: &str) -> (u16, String) {
    let answer = http_get(&format!("{http}/api/health"), "application/json").await;
    let status = answer.json()["status"].as_str().unwrap_or_default().to_owned();
    (answer.status, status)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_refuses_actions_and_loses_nothing() {
    let Some(database) = PgDatabase::create().await else { return };
    let started = Instant::now();
    let proxy_listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let (_, upstream) = through(&database.url, proxy_listener.local_addr().expect("bound"));
    drop(proxy_listener);
    let proxy = Proxy::start(upstream).await;
    let (proxied, _) = through(&database.url, proxy.addr);
    let store = Store::connect(&proxied).await.expect("PostgreSQL answers through the proxy");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, fast(), store).await;
    let http = server.http();

    let mut game = Duo::new(&server.url).await;
    let mut other = Bystander::new(&server.url).await;
    for _ in 0..10 {
        game.step().await.expect("played before the outage");
    }
    for _ in 0..3 {
        other.play_one().await;
    }
    let acked_before = game.acked.len();

    // The database goes away.
    proxy.cut();
    let cut_at = Instant::now();
    let mut refused = 0;
    for attempt in 0..3 {
        match game.step().await {
            Err(ErrorCode::Unavailable) => refused += 1,
            other => panic!("attempt {attempt} during the outage: expected unavailable, got {other:?}"),
        }
    }
    assert_eq!(game.acked.len(), acked_before, "nothing was acknowledged during the outage");
    let (status, said) = health(&http).await;
    assert_eq!((status, said.as_str()), (503, "unavailable"), "the health endpoint tells the outage");
    let outage_answers = cut_at.elapsed();

    // It comes back: the pool notices within a few tries.
    proxy.restore();
    let restored_at = Instant::now();
    let mut polls = 0;
    while health(&http).await.0 != 200 {
        polls += 1;
        assert!(polls < 100, "the server did not see the database come back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut retries = 0;
    while !game.over() {
        match game.step().await {
            Ok(()) => {}
            Err(ErrorCode::Unavailable) if retries < 50 => {
                retries += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(code) => panic!("after the outage an action got {code:?}"),
        }
    }
    let back_after = restored_at.elapsed();
    for _ in 0..5 {
        other.play_one().await;
    }

    // The stored record holds exactly the acknowledged actions, in order.
    let url = format!("{http}/api/games/{}/record", game.table);
    let mut record = None;
    for _ in 0..200 {
        let answer = http_get(&url, "application/json").await;
        if answer.status == 200 {
            record = Some(serde_json::from_str::<Record>(&answer.body).expect("a record"));
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let record = record.expect("the finished game's record is stored");
    let stored: Vec<(Seat, Action)> = record.log.iter().filter_map(|entry| entry.action()).collect();
    assert_eq!(stored, game.acked, "the record holds exactly the acknowledged actions");
    let replayed = record.verify().expect("the record replays");
    assert_eq!(replayed.result(), game.players[0].result, "the stored result is the one the players saw");

    println!(
        "outage: {} actions acknowledged ({acked_before} before the cut), {refused} refused as unavailable in {:.2} s \
         (health 503 included), database seen back after {polls} health polls, {retries} retries; game over {:.2} s \
         after the restore; other table {} moves; {} proxied connections; whole test {:.1} s",
        game.acked.len(),
        outage_answers.as_secs_f64(),
        back_after.as_secs_f64(),
        other.moves,
        proxy.accepted.load(std::sync::atomic::Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    server.shutdown().await;
    database.drop_database().await;
}

/// A server killed while a commit was on its way can leave a row that its database commits after the
/// next server read the log back at its restart: a row nobody acknowledged, under the number the
/// restored table gives its next action. That action is still played and acknowledged, the stale row
/// is cleared, and another table's actions are not refused with it.
async fn a_stale_row_does_not_refuse_the_next_action(server: &TestServer) {
    let mut game = Duo::new(&server.url).await;
    let mut other = Bystander::new(&server.url).await;
    for _ in 0..6 {
        game.step().await.expect("played");
    }
    // The row a killed server sent: the number of the next action, and an action nobody acknowledged.
    let (stale_seat, stale_action) = game.acked[0];
    let stale = ActionRow {
        table: game.table,
        seq: u32::try_from(game.acked.len()).expect("a few actions"),
        seat: stale_seat,
        action: serde_json::to_string(&stale_action).expect("an action writes"),
        by_bot: true,
        reserve_ms: None,
        fence: None,
    };
    server.state.store.append_actions(&[stale]).await.expect("the stale row is written");
    let moves_before = other.moves;
    for _ in 0..4 {
        game.step().await.expect("the action after the stale row is played");
        other.play_one().await;
    }
    assert_eq!(other.moves, moves_before + 4, "the other table played on");
    let stored = server.state.store.unfinished_games().await.expect("the unfinished games");
    let log = &stored.iter().find(|g| g.table.id == game.table).expect("the game is stored").actions;
    let log: Vec<(Seat, Action)> =
        log.iter().map(|a| (a.seat, serde_json::from_str(&a.action).expect("an action"))).collect();
    assert_eq!(log, game.acked, "the log holds exactly the acknowledged actions");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_row_is_cleared_on_sqlite() {
    let server = TestServer::start(fast()).await;
    a_stale_row_does_not_refuse_the_next_action(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_row_is_cleared_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    let store = Store::connect(&database.url).await.expect("PostgreSQL answers");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, fast(), store).await;
    a_stale_row_does_not_refuse_the_next_action(&server).await;
    server.shutdown().await;
    database.drop_database().await;
}

#[test]
fn urls_are_rewritten_to_go_through_the_proxy() {
    let addr: SocketAddr = "127.0.0.1:4000".parse().expect("an address");
    assert_eq!(
        through("postgres://postgres@127.0.0.1:5432/db?sslmode=disable", addr),
        ("postgres://postgres@127.0.0.1:4000/db?sslmode=disable".to_owned(), "127.0.0.1:5432".to_owned())
    );
    assert_eq!(
        through("postgresql://db.example/x", addr),
        ("postgresql://127.0.0.1:4000/x".to_owned(), "db.example:5432".to_owned())
    );
}
