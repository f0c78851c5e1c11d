//! Hostile clients beside healthy games. Bot tables play complete games twice: once on a quiet server,
//! once while many hostile connections send thousands of bad messages: malformed JSON, frames over the
//! size limit, binary frames, text frames that are not UTF-8, floods, acts out of turn, acts replayed
//! after their ack, and acts, starts, kicks, joins and watches at the healthy tables they have no place
//! at. The server must stay up, answer each offender with the documented error or close code, and let
//! every healthy game finish with the result its stored record replays to. The healthy tables' action
//! latency (act sent to ack received) is printed for both runs; only generous timeouts bound it.

use crate::common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{RawWs, TestServer, http_get, latency_line, quick_close};
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_client::{Client, ClientError};
use romirami_engine::bot::choose;
use romirami_engine::{Action, GameResult, Record};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, PROTOCOL_VERSION, SpectatorPolicy, TableId};
use tokio::task::JoinSet;

/// Healthy bots never send faster than this on one connection (the server allows 50 a second).
const HEALTHY_GAP: Duration = Duration::from_millis(25);

/// The limits of this test's server: the defaults with a rate of 50 messages a second (bursts of 100),
/// so that healthy bots playing at full speed stay below it while floods do not.
fn config() -> Config {
    Config { messages_per_second: 50.0, message_burst: 100.0, ..quick_close() }
}

/// What the hostile connections did and got, by kind of attack.
#[derive(Default, Debug)]
struct Tally {
    /// Connections opened.
    connections: u64,
    /// Frames sent.
    sent: u64,
    /// Errors received, by code.
    rejects: BTreeMap<String, u64>,
    /// How connections ended: a close code, or `dropped` for an end without a close frame.
    closes: BTreeMap<String, u64>,
    /// Anything that should not have happened.
    problems: Vec<String>,
}

type Tallies = Arc<Mutex<BTreeMap<&'static str, Tally>>>;

fn tally<R>(tallies: &Tallies, attack: &'static str, f: impl FnOnce(&mut Tally) -> R) -> R {
    let mut all = tallies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    f(all.entry(attack).or_default())
}

fn code_name(code: ErrorCode) -> String {
    serde_json::to_value(code).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// A greeted client without the client library's own pacing: the test paces healthy bots itself, so
/// that the time it measures is the server's.
async fn unpaced_guest(url: &str, name: &str) -> Client {
    let mut client = Client::connect(url).await.expect("connects");
    client
        .send(&ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: None, name: Some(name.into()) })
        .await
        .expect("sent");
    match client.recv().await.expect("an answer") {
        ServerMsg::Welcome { .. } => client,
        other => panic!("expected a welcome, got {other:?}"),
    }
}

/// One healthy game, as its players saw it.
struct HealthyGame {
    table: TableId,
    result: GameResult,
    actions: usize,
    latencies: Vec<Duration>,
}

/// Plays one seat with the bots' choice, pacing itself, timing each act to its ack.
async fn healthy_seat(mut client: Client, table: TableId) -> (GameResult, usize, Vec<Duration>) {
    let mut latencies = Vec::new();
    let mut pending: Option<(u64, Instant)> = None;
    let mut last_send = Instant::now() - HEALTHY_GAP;
    let mut next_id = 0;
    loop {
        match client.recv_within(Duration::from_secs(60)).await.expect("the healthy game goes on") {
            ServerMsg::YourTurn { table: t, legal } if t == table => {
                let action = choose(&legal).expect("a legal action");
                tokio::time::sleep_until((last_send + HEALTHY_GAP).into()).await;
                next_id += 1;
                last_send = Instant::now();
                pending = Some((next_id, last_send));
                client.send(&ClientMsg::Act { table, id: next_id, action }).await.expect("sent");
            }
            ServerMsg::Ack { id, .. } => {
                let (sent_id, at) = pending.take().expect("an ack answers an act");
                assert_eq!(id, sent_id);
                latencies.push(at.elapsed());
            }
            ServerMsg::GameOver { table: t, result } if t == table => {
                client.close().await.ok();
                return (result, next_id as usize, latencies);
            }
            ServerMsg::Error { code, message, .. } => panic!("a healthy action was refused: {code:?}: {message}"),
            _ => {}
        }
    }
}

/// Plays a whole healthy game of `players` bots at a private table whose id goes into `tables`.
async fn healthy_game(url: String, players: u8, tables: Arc<Mutex<Vec<TableId>>>) -> HealthyGame {
    let mut clients = Vec::new();
    for seat in 0..players {
        clients.push(unpaced_guest(&url, &format!("Healthy {seat}")).await);
    }
    clients[0]
        .send(&ClientMsg::CreateTable {
            seats: players,
            public: false,
            spectators: SpectatorPolicy::Link,
            clock: None,
            game: None,
            options: None,
            rated: None,
        })
        .await
        .expect("sent");
    let (table, invite) = clients[0]
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, invite } => Some((table.id, invite.clone())),
            ServerMsg::Error { message, .. } => panic!("a healthy table was refused: {message}"),
            _ => None,
        })
        .await
        .expect("created");
    tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(table);
    for client in &mut clients[1..] {
        client.send(&ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await.expect("sent");
    }
    let seats: Vec<_> = clients.into_iter().map(|client| tokio::spawn(healthy_seat(client, table))).collect();
    let mut result = None;
    let mut actions = 0;
    let mut latencies = Vec::new();
    for seat in seats {
        let (seen, acted, times) = seat.await.expect("a healthy seat");
        assert!(result.as_ref().is_none_or(|r| *r == seen), "every seat sees the same result");
        result = Some(seen);
        actions += acted;
        latencies.extend(times);
    }
    HealthyGame { table, result: result.expect("a seat"), actions, latencies }
}

/// Plays `counts.len()` healthy games at once; returns them and how long they took.
async fn healthy_round(url: &str, counts: &[u8], tables: &Arc<Mutex<Vec<TableId>>>) -> (Vec<HealthyGame>, Duration) {
    let start = Instant::now();
    let games: Vec<_> =
        counts.iter().map(|&players| tokio::spawn(healthy_game(url.to_owned(), players, tables.clone()))).collect();
    let mut done = Vec::new();
    for game in games {
        done.push(tokio::time::timeout(Duration::from_secs(120), game).await.expect("in time").expect("played"));
    }
    (done, start.elapsed())
}

/// Checks a healthy game against its stored record: the record replays to the result the players saw
/// and holds exactly the actions they had acknowledged.
async fn check_record(http: &str, game: &HealthyGame) {
    let url = format!("{http}/api/games/{}/record", game.table);
    let mut last = None;
    for _ in 0..500 {
        let answer = http_get(&url, "application/json").await;
        if answer.status == 200 {
            let record: Record = serde_json::from_str(&answer.body).expect("a record");
            let replayed =
                record.verify().unwrap_or_else(|e| panic!("the record of {} breaks a rule: {e}", game.table));
            assert_eq!(replayed.result().as_ref(), Some(&game.result), "the stored game ended as its players saw");
            let actions = record.log.iter().filter(|entry| entry.action().is_some()).count();
            assert_eq!(actions, game.actions, "the record holds exactly the acknowledged actions");
            return;
        }
        last = Some(answer);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the record of {} was not stored: {last:?}", game.table);
}

/// Reads what a raw connection was sent until the server closed it; counts the errors and the close.
async fn finish_raw(ws: RawWs, tallies: &Tallies, attack: &'static str, expected_close: u16) {
    let frames = ws.read_to_end().await;
    let close = frames.last().and_then(common::Frame::close).map(|(code, _)| code);
    tally(tallies, attack, |t| {
        for frame in frames.iter().filter_map(common::Frame::text) {
            match serde_json::from_str::<ServerMsg>(frame) {
                Ok(ServerMsg::Error { code, .. }) => *t.rejects.entry(code_name(code)).or_default() += 1,
                Ok(ServerMsg::Welcome { .. }) => {}
                other => t.problems.push(format!("{attack}: unexpected {other:?}")),
            }
        }
        let ended = close.map_or_else(|| "dropped".to_owned(), |code| code.to_string());
        if close != Some(expected_close) {
            t.problems.push(format!("{attack}: ended with {ended}, not {expected_close}"));
        }
        *t.closes.entry(ended).or_default() += 1;
    });
}

async fn raw_greeted(addr: std::net::SocketAddr, name: &str) -> RawWs {
    let mut ws = RawWs::connect(addr, None).await;
    ws.send_text(&format!(r#"{{"type":"hello","protocol":1,"name":"{name}"}}"#)).await;
    ws
}

/// Floods of frames that cannot be read: each connection sends bad frames as fast as it can until the
/// server closes it (1008), `rounds` connections one after the other.
async fn flood(
    addr: std::net::SocketAddr,
    tallies: Tallies,
    attack: &'static str,
    rounds: usize,
    frame: fn(usize) -> (u8, Vec<u8>),
) {
    for round in 0..rounds {
        let mut ws = raw_greeted(addr, "Flood").await;
        let mut sent = 1;
        for i in 0..400 {
            let (opcode, payload) = frame(round * 400 + i);
            if !ws.try_send_frame(opcode, &payload).await {
                break;
            }
            sent += 1;
        }
        tally(&tallies, attack, |t| {
            t.connections += 1;
            t.sent += sent;
        });
        finish_raw(ws, &tallies, attack, 1008).await;
    }
}

fn garbage(i: usize) -> (u8, Vec<u8>) {
    let texts = [
        "{",
        "not json",
        r#"{"type":"teleport"}"#,
        r#"{"type":"act"}"#,
        r#"{"type":"join","table":"nope"}"#,
        r#"{"type":"create_table","seats":"four"}"#,
        "[]",
        "null",
        r#"{"type":"act","table":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11","id":-1,"action":{"type":"pass"}}"#,
    ];
    (1, texts[i % texts.len()].as_bytes().to_vec())
}

fn binary(i: usize) -> (u8, Vec<u8>) {
    (2, vec![u8::try_from(i % 251).unwrap_or(0); 1 + i % 64])
}

/// Each connection sends one frame over the size limit: closed with 1009.
async fn oversized(addr: std::net::SocketAddr, tallies: Tallies, rounds: usize) {
    for round in 0..rounds {
        let mut ws = raw_greeted(addr, "Big").await;
        let size = 4097 + round * 97 % 20_000;
        let text = format!(r#"{{"type":"lobby_subscribe","pad":"{}"}}"#, "x".repeat(size));
        let sent = ws.try_send_frame(1, text.as_bytes()).await;
        tally(&tallies, "oversized frames", |t| {
            t.connections += 1;
            t.sent += 1 + u64::from(sent);
        });
        finish_raw(ws, &tallies, "oversized frames", 1009).await;
    }
}

/// Each connection sends one text frame that is not UTF-8. The protocol does not document what follows;
/// RFC 6455 asks for a close with 1007. Whatever happens is counted, and the connection must end.
async fn bad_utf8(addr: std::net::SocketAddr, tallies: Tallies, rounds: usize) {
    for _ in 0..rounds {
        let mut ws = raw_greeted(addr, "Bytes").await;
        let sent = ws.try_send_frame(1, b"{\"type\":\"hello\xff\xfe\"}").await;
        tally(&tallies, "invalid UTF-8", |t| {
            t.connections += 1;
            t.sent += 1 + u64::from(sent);
        });
        let frames = tokio::time::timeout(Duration::from_secs(10), ws.read_to_end()).await.expect("the server ends it");
        let close = frames.last().and_then(common::Frame::close).map(|(code, _)| code);
        tally(&tallies, "invalid UTF-8", |t| {
            for msg in RawWs::messages(&frames) {
                if let ServerMsg::Error { code, .. } = msg {
                    *t.rejects.entry(code_name(code)).or_default() += 1;
                }
            }
            let ended = close.map_or_else(|| "dropped".to_owned(), |code| code.to_string());
            *t.closes.entry(ended).or_default() += 1;
        });
    }
}

/// A greeted, paced client that keeps asking for what it may not do at the healthy tables: act, start,
/// kick, take a seat or watch without the key, leave. Each request gets exactly one error.
async fn intruder(url: String, tallies: Tallies, tables: Arc<Mutex<Vec<TableId>>>, stop: Arc<AtomicBool>) {
    const ATTACK: &str = "intruder at healthy tables";
    let (mut client, _, _) = Client::guest(&url, "Intruder").await.expect("welcomed");
    tally(&tallies, ATTACK, |t| t.connections += 1);
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let known = tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        let Some(&table) = known.get(n as usize % known.len().max(1)) else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        n += 1;
        let (request, allowed): (ClientMsg, &[ErrorCode]) = match n % 6 {
            0 => (ClientMsg::Act { table, id: n, action: Action::Pass }, &[ErrorCode::NotSeated]),
            1 => (ClientMsg::Start { table }, &[ErrorCode::NotHost]),
            2 => (ClientMsg::Kick { table, seat: romirami_engine::Seat(1) }, &[ErrorCode::NotHost]),
            3 => (ClientMsg::Join { table, invite: None, since: None }, &[ErrorCode::NoSuchTable]),
            4 => (ClientMsg::Watch { table, invite: None, since: None }, &[ErrorCode::NoSuchTable]),
            _ => (ClientMsg::Leave { table }, &[ErrorCode::NotSeated]),
        };
        let answer = match client.send(&request).await {
            Ok(()) => client.recv().await,
            Err(error) => Err(error),
        };
        let answer = match answer {
            Ok(answer) => answer,
            // A command for a table that has closed (a healthy game that finished meanwhile) is a strike:
            // how many the intruder collects before its connection is closed for them depends on how
            // many games finish while it runs, so that close is one of its documented answers. It comes
            // back as a new guest.
            Err(ClientError::Closed(Some((1008, reason)))) if reason == "too many bad messages" => {
                tally(&tallies, ATTACK, |t| *t.closes.entry("1008".into()).or_default() += 1);
                client = Client::guest(&url, "Intruder").await.expect("welcomed again").0;
                tally(&tallies, ATTACK, |t| t.connections += 1);
                continue;
            }
            Err(error) => {
                tally(&tallies, ATTACK, |t| t.problems.push(format!("intruder: {request:?} failed: {error}")));
                return;
            }
        };
        tally(&tallies, ATTACK, |t| {
            t.sent += 1;
            match answer {
                // A finished table that closed meanwhile is gone for everyone.
                ServerMsg::Error { code, .. } if allowed.contains(&code) || code == ErrorCode::NoSuchTable => {
                    *t.rejects.entry(code_name(code)).or_default() += 1;
                }
                other => t.problems.push(format!("intruder: {request:?} got {other:?}")),
            }
        });
    }
}

/// Raw connections that flood the healthy tables with acts as fast as they can: rate limited, then
/// closed (1008).
async fn act_flood(addr: std::net::SocketAddr, tallies: Tallies, tables: Arc<Mutex<Vec<TableId>>>, rounds: usize) {
    for round in 0..rounds {
        let known = tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        let mut ws = raw_greeted(addr, "Act flood").await;
        let mut sent = 1;
        for i in 0..400usize {
            let table = known.get((round + i) % known.len().max(1)).map_or_else(|| "x".to_owned(), |t| t.to_string());
            let text = format!(r#"{{"type":"act","table":"{table}","id":{i},"action":{{"type":"pass"}}}}"#);
            if !ws.try_send_frame(1, text.as_bytes()).await {
                break;
            }
            sent += 1;
        }
        tally(&tallies, "act flood at healthy tables", |t| {
            t.connections += 1;
            t.sent += sent;
        });
        finish_raw(ws, &tallies, "act flood at healthy tables", 1008).await;
    }
}

/// A player of the cheats' table, following whose turn it is.
struct Cheat {
    client: Client,
    turn: Option<Vec<Action>>,
    over: bool,
}

impl Cheat {
    async fn next(&mut self) -> ServerMsg {
        let msg = self.client.recv().await.expect("a message");
        match &msg {
            ServerMsg::YourTurn { legal, .. } => self.turn = Some(legal.clone()),
            ServerMsg::Events { .. } => self.turn = None,
            ServerMsg::GameOver { .. } => self.over = true,
            _ => {}
        }
        msg
    }

    /// The answer to the act `id`: its ack, or its error's code.
    async fn answer(&mut self, id: u64) -> Result<(), ErrorCode> {
        loop {
            match self.next().await {
                ServerMsg::Ack { id: got, .. } if got == id => return Ok(()),
                ServerMsg::Error { id: Some(got), code, .. } if got == id => return Err(code),
                _ => {}
            }
        }
    }
}

/// A table of two cheats: the player to act replays each acknowledged act (same id, same action), and
/// the other plays the same action out of turn first. Every replay and every out-of-turn act must be
/// refused; the legal moves go on until the game ends or the attack stops.
async fn cheats(url: String, tallies: Tallies, stop: Arc<AtomicBool>) {
    let attack = "replays and acts out of turn";
    let (mut a, _, _) = Client::guest(&url, "Cheat A").await.expect("welcomed");
    let (mut b, _, _) = Client::guest(&url, "Cheat B").await.expect("welcomed");
    a.send(&ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: None,
        game: None,
        options: None,
        rated: None,
    })
    .await
    .expect("sent");
    let (table, invite) = a
        .wait_for(|m| match m {
            ServerMsg::TableCreated { table, invite } => Some((table.id, invite.clone())),
            _ => None,
        })
        .await
        .expect("created");
    b.send(&ClientMsg::Join { table, invite: Some(invite), since: None }).await.expect("sent");
    tally(&tallies, attack, |t| t.connections += 2);
    let mut players = [a, b].map(|client| Cheat { client, turn: None, over: false });
    let mut id = 0u64;
    while !stop.load(Ordering::Relaxed) && !players.iter().any(|p| p.over) {
        let Some(actor) = players.iter().position(|p| p.turn.is_some()) else {
            for player in &mut players {
                let _ = tokio::time::timeout(Duration::from_millis(20), player.next()).await;
            }
            continue;
        };
        let action = players[actor].turn.as_deref().and_then(choose).expect("a legal action");
        id += 1;
        let other = 1 - actor;
        players[other].client.send(&ClientMsg::Act { table, id, action }).await.expect("sent");
        let out_of_turn = players[other].answer(id).await;
        id += 1;
        let played = id;
        players[actor].client.send(&ClientMsg::Act { table, id: played, action }).await.expect("sent");
        let legal = players[actor].answer(played).await;
        players[actor].client.send(&ClientMsg::Act { table, id: played, action }).await.expect("sent");
        let replay = players[actor].answer(played).await;
        tally(&tallies, attack, |t| {
            t.sent += 3;
            for code in [out_of_turn, replay].into_iter().filter_map(Result::err) {
                *t.rejects.entry(code_name(code)).or_default() += 1;
            }
            if out_of_turn != Err(ErrorCode::NotYourTurn) {
                t.problems.push(format!("an act out of turn got {out_of_turn:?}"));
            }
            if legal.is_err() {
                t.problems.push(format!("a legal act was refused: {legal:?}"));
            }
            if !matches!(replay, Err(ErrorCode::IllegalAction | ErrorCode::NotYourTurn | ErrorCode::GameOver)) {
                t.problems.push(format!("a replayed act got {replay:?}"));
            }
        });
    }
}

/// Error lines logged while a test runs (by any test's server), printed when it ends, or fails.
struct ShownAtTheEnd(romirami_testlog::Everything);

impl Drop for ShownAtTheEnd {
    fn drop(&mut self) {
        let errors = self.0.text();
        if !errors.is_empty() {
            eprintln!("error lines logged meanwhile:\n{errors}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_clients_cannot_harm_healthy_games() {
    // The servers' errors show in the test's output: a failure here usually has its cause among them.
    let _errors = ShownAtTheEnd(romirami_testlog::Everything::start(tracing::Level::ERROR));
    let started = Instant::now();
    let server = TestServer::start(config()).await;
    let (url, addr, http) = (server.url.clone(), server.addr, server.http());
    let counts = [2, 3, 4, 2];
    let tables = Arc::new(Mutex::new(Vec::new()));

    // Quiet: the healthy games alone.
    let (quiet, quiet_time) = healthy_round(&url, &counts, &tables).await;

    // Under attack.
    tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
    let tallies: Tallies = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let mut attacks = JoinSet::new();
    for _ in 0..3 {
        attacks.spawn(flood(addr, tallies.clone(), "malformed JSON", 12, garbage));
        attacks.spawn(flood(addr, tallies.clone(), "binary frames", 6, binary));
        attacks.spawn(oversized(addr, tallies.clone(), 10));
        attacks.spawn(bad_utf8(addr, tallies.clone(), 5));
        attacks.spawn(act_flood(addr, tallies.clone(), tables.clone(), 8));
        attacks.spawn(intruder(url.clone(), tallies.clone(), tables.clone(), stop.clone()));
    }
    attacks.spawn(cheats(url.clone(), tallies.clone(), stop.clone()));
    attacks.spawn(cheats(url.clone(), tallies.clone(), stop.clone()));
    let (attacked, attacked_time) = healthy_round(&url, &counts, &tables).await;
    stop.store(true, Ordering::Relaxed);
    while let Some(done) = tokio::time::timeout(Duration::from_secs(60), attacks.join_next()).await.expect("in time") {
        done.expect("an attack task");
    }

    let mut quiet_latency: Vec<Duration> = quiet.iter().flat_map(|g| g.latencies.iter().copied()).collect();
    let mut attacked_latency: Vec<Duration> = attacked.iter().flat_map(|g| g.latencies.iter().copied()).collect();
    println!("healthy games {counts:?}, act to ack:");
    println!(
        "  quiet:        {} games in {:.1} s, {}",
        quiet.len(),
        quiet_time.as_secs_f64(),
        latency_line(&mut quiet_latency)
    );
    println!(
        "  under attack: {} games in {:.1} s, {}",
        attacked.len(),
        attacked_time.as_secs_f64(),
        latency_line(&mut attacked_latency)
    );
    let tallies = Arc::try_unwrap(tallies).expect("the attacks are over").into_inner().expect("not poisoned");
    let (mut sent, mut connections) = (0, 0);
    let mut rejects: BTreeMap<String, u64> = BTreeMap::new();
    let mut closes: BTreeMap<String, u64> = BTreeMap::new();
    let mut problems = Vec::new();
    for (attack, t) in &tallies {
        println!(
            "  {attack}: {} connections, {} frames sent, rejects {:?}, ended {:?}",
            t.connections, t.sent, t.rejects, t.closes
        );
        sent += t.sent;
        connections += t.connections;
        for (code, n) in &t.rejects {
            *rejects.entry(code.clone()).or_default() += n;
        }
        for (code, n) in &t.closes {
            *closes.entry(code.clone()).or_default() += n;
        }
        problems.extend(t.problems.iter().cloned());
    }
    println!("  total: {connections} hostile connections, {sent} frames, rejects {rejects:?}, closes {closes:?}");
    let health = http_get(&format!("{http}/api/health"), "application/json").await;
    assert_eq!(health.status, 200, "the server is healthy after the attack: {}", health.body);
    // Every healthy game finished as its record says, quiet or not.
    for game in quiet.iter().chain(&attacked) {
        check_record(&http, game).await;
    }
    println!("  whole test {:.1} s", started.elapsed().as_secs_f64());
    assert!(problems.is_empty(), "offenders were not answered as documented:\n{}", problems.join("\n"));
    assert!(sent >= 2000, "thousands of hostile frames: {sent}");
    let utf8 = &tallies["invalid UTF-8"];
    assert_eq!(utf8.closes.values().sum::<u64>(), utf8.connections, "every bad UTF-8 connection ended");
    server.shutdown().await;
}
