//! Lobby spam and bad names beside healthy games. Spammers from a few addresses open connection after
//! connection, each a new guest creating public tables as fast as the server answers; other clients
//! send names that hide or reorder characters or pass for the server's bots. Each must get its error
//! code (`too_many_connections` and a 1008 close, `too_many_guests`, `too_many_tables`, `server_full`,
//! `bad_name`), the live tables must stay within the server's bound, and the healthy games, from an
//! address the limits spare, must go on. Their act-to-ack times are printed beside a quiet game's.

use crate::common;
use crate::healthy;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{TestServer, quick_close};
use futures_util::{SinkExt, StreamExt};
use healthy::{HealthyTable, compare};
use romirami_client::romi_rami::ServerMsg;
use romirami_server::config::Config;
use romirami_server::protocol::ErrorCode;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

/// Healthy games per phase; their tables are opened before the attack, which may fill the server.
const GAMES: usize = 3;
const HEALTHY: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
const LIVE_TABLES: usize = 40;

fn config() -> Config {
    Config {
        messages_per_second: 50.0,
        message_burst: 100.0,
        max_connections_per_address: 8,
        guests_per_address_per_minute: 6.0,
        max_live_tables: LIVE_TABLES,
        // The healthy players connect from 127.0.0.1; the spammers from other loopback addresses.
        exempt_loopback: false,
        exempt_addresses: vec![HEALTHY],
        ..quick_close()
    }
}

fn spammer_address(n: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (n % 4) as u8))
}

/// The error codes and closes one attack got.
type Tally = BTreeMap<String, usize>;

fn note(tally: &mut Tally, what: impl Into<String>) {
    *tally.entry(what.into()).or_default() += 1;
}

fn code(code: ErrorCode) -> String {
    serde_json::to_value(code).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// A WebSocket from the loopback address `from`.
async fn connect_from(server: SocketAddr, from: IpAddr) -> WebSocketStream<TcpStream> {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket.bind(SocketAddr::new(from, 0)).expect("a loopback source address");
    let stream = socket.connect(server).await.expect("connects");
    let (ws, _) = tokio_tungstenite::client_async(format!("ws://{server}/ws"), stream).await.expect("upgraded");
    ws
}

/// The next protocol message, or the close as `close CODE REASON` (`ended` without one).
async fn next(ws: &mut WebSocketStream<TcpStream>) -> Result<ServerMsg, String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => return Ok(serde_json::from_str(&text).expect("a message")),
            Ok(Some(Ok(Message::Close(Some(frame))))) => {
                return Err(format!("close {} {}", u16::from(frame.code), frame.reason));
            }
            Ok(Some(Ok(_))) => {}
            Ok(_) => return Err("ended".into()),
            Err(_) => return Err("no answer in 10 s".into()),
        }
    }
}

async fn send(ws: &mut WebSocketStream<TcpStream>, text: String) -> bool {
    ws.send(Message::text(text)).await.is_ok()
}

/// Opens [`GAMES`] healthy tables: before any attack, which may fill the server.
async fn healthy_tables(url: &str) -> Vec<HealthyTable> {
    let mut tables = Vec::new();
    for _ in 0..GAMES {
        tables.push(HealthyTable::open(url).await);
    }
    tables
}

/// Plays `tables` one after another while `attack` runs until they are done.
async fn beside_healthy<F>(
    tables: Vec<HealthyTable>,
    attack: impl FnOnce(Arc<AtomicBool>) -> F,
) -> (Vec<Duration>, Tally)
where
    F: std::future::Future<Output = Tally> + Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    let attack = tokio::spawn(attack(stop.clone()));
    let mut latencies = Vec::new();
    for table in tables {
        latencies.extend(tokio::time::timeout(Duration::from_secs(120), table.play()).await.expect("the game ends"));
    }
    stop.store(true, Ordering::Relaxed);
    let tally = tokio::time::timeout(Duration::from_secs(60), attack).await.expect("the attack stops").expect("ran");
    (latencies, tally)
}

/// New guests, one connection each, held open, creating public tables until refused; from four
/// addresses in turn, until `stop`.
async fn lobby_spam(server: SocketAddr, stop: Arc<AtomicBool>) -> Tally {
    let mut tally = Tally::new();
    let mut held = Vec::new();
    let mut n = 0;
    // At least 10 connections from each address, however slow the machine: enough to meet every limit.
    while n < 40 || !stop.load(Ordering::Relaxed) {
        let mut ws = connect_from(server, spammer_address(n)).await;
        n += 1;
        send(&mut ws, r#"{"type":"hello","protocol":1,"name":"Spammer"}"#.into()).await;
        match next(&mut ws).await {
            Ok(ServerMsg::Welcome { .. }) => note(&mut tally, "welcome"),
            Ok(ServerMsg::Error { code: ErrorCode::TooManyConnections, .. }) => {
                note(&mut tally, "too_many_connections");
                note(&mut tally, next(&mut ws).await.err().unwrap_or_else(|| "a message after the refusal".into()));
                continue;
            }
            Ok(ServerMsg::Error { code: error, .. }) => {
                // Refused as a guest, the connection stays open and counts for its address.
                note(&mut tally, code(error));
                held.push(ws);
                continue;
            }
            other => panic!("a spammer's hello got {other:?}"),
        }
        for _ in 0..6 {
            let create = r#"{"type":"create_table","seats":4,"public":true}"#;
            send(&mut ws, create.into()).await;
            loop {
                match next(&mut ws).await {
                    Ok(ServerMsg::TableCreated { .. }) => break note(&mut tally, "table_created"),
                    Ok(ServerMsg::Error { code: error, .. }) => break note(&mut tally, code(error)),
                    Ok(_) => {}
                    Err(ended) => panic!("a spammer's connection ended: {ended}"),
                }
            }
        }
        held.push(ws);
    }
    tally
}

/// Names that hide or reorder characters or pass for the server's bots, each on its own hello, from
/// connection after connection until `stop`.
async fn bad_names(server: SocketAddr, stop: Arc<AtomicBool>) -> Tally {
    let names = [r"\u200b", r"\u202eevil", r"\udb40\udc01tag", r"\ue000x", "Bot 1", "bot 3", r"a\u2028b", "  "];
    let mut tally = Tally::new();
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        let mut ws = connect_from(server, spammer_address(n)).await;
        n += 1;
        for name in names {
            send(&mut ws, format!(r#"{{"type":"hello","protocol":1,"name":"{name}"}}"#)).await;
            match next(&mut ws).await {
                Ok(ServerMsg::Error { code: error, .. }) => note(&mut tally, code(error)),
                other => panic!("the name {name} got {other:?}"),
            }
        }
        ws.close(None).await.ok();
    }
    tally
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_spam_and_bad_names_get_their_codes_beside_healthy_games() {
    let server = TestServer::start(config()).await;
    let (url, addr) = (server.url.clone(), server.addr);
    let (quiet, spammed, named) = (healthy_tables(&url).await, healthy_tables(&url).await, healthy_tables(&url).await);
    let (mut quiet, _) = beside_healthy(quiet, |_| async { Tally::new() }).await;
    println!("{}", compare("quiet", &mut quiet.clone(), &mut quiet));

    let (mut latencies, spam) = beside_healthy(spammed, move |stop| lobby_spam(addr, stop)).await;
    println!("{}", compare("lobby spam", &mut quiet, &mut latencies));
    println!("    {spam:?}; live tables {} of at most {LIVE_TABLES}", server.state.lobby.table_count());
    // Four addresses of 8 connections each; every further connection was refused and closed.
    assert_eq!(spam.get("welcome").copied().unwrap_or(0) + spam.get("too_many_guests").copied().unwrap_or(0), 32);
    assert_eq!(spam.get("too_many_connections"), spam.get("close 1008 too many connections"), "{spam:?}");
    assert!(spam.get("too_many_connections").is_some_and(|&n| n > 0), "{spam:?}");
    assert!(spam.get("too_many_guests").is_some_and(|&n| n > 0), "6 guests a minute per address: {spam:?}");
    assert!(spam.get("too_many_tables").is_some_and(|&n| n > 0), "{spam:?}");
    assert!(spam.get("server_full").is_some_and(|&n| n > 0), "{spam:?}");
    assert!(server.state.lobby.table_count() <= LIVE_TABLES, "the live tables stay within the bound");
    let unexpected: Vec<_> = spam
        .keys()
        .filter(|key| {
            ![
                "welcome",
                "table_created",
                "too_many_connections",
                "close 1008 too many connections",
                "too_many_guests",
                "too_many_tables",
                "server_full",
            ]
            .contains(&key.as_str())
        })
        .collect();
    assert!(unexpected.is_empty(), "{spam:?}");

    let (mut latencies, names) = beside_healthy(named, move |stop| bad_names(addr, stop)).await;
    println!("{}", compare("bad names", &mut quiet, &mut latencies));
    println!("    {names:?}");
    assert_eq!(names.keys().collect::<Vec<_>>(), ["bad_name"], "every bad name gets bad_name: {names:?}");
    server.shutdown().await;
}
