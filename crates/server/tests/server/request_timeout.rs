//! A REST request that cannot be answered in time gets 408 after the request timeout, instead of
//! holding its connection for as long as the database takes: here PostgreSQL is reached through a
//! proxy that stops passing bytes on (the connections stay open, as over a network that hangs).

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{PgDatabase, TestServer, http_get, quick_close};
use romirami_server::config::Config;
use romirami_server::store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A TCP proxy to `upstream` that can hold every byte back (`stall`) without closing anything.
async fn stalling_proxy(upstream: String) -> (SocketAddr, watch::Sender<bool>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("bound");
    let (stalled, watching) = watch::channel(false);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(&upstream).await else { continue };
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = server.into_split();
            tokio::spawn(pipe(client_read, server_write, watching.clone()));
            tokio::spawn(pipe(server_read, client_write, watching.clone()));
        }
    });
    (addr, stalled)
}

/// Copies `from` to `to`, holding each read back while the proxy is stalled.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut stalled: watch::Receiver<bool>,
) {
    let mut buffer = [0u8; 8192];
    while let Ok(read @ 1..) = from.read(&mut buffer).await {
        if stalled.wait_for(|stalled| !*stalled).await.is_err() || to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}

/// `url` with its host and port replaced by `addr`, and the host and port it named.
fn through(url: &str, addr: SocketAddr) -> (String, String) {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let (user, host) = authority.rsplit_once('@').map_or(("", authority), |(u, h)| (u, h));
    let upstream = if host.contains(':') { host.to_owned() } else { format!("{host}:5432") };
    let user = if user.is_empty() { String::new() } else { format!("{user}@") };
    (format!("{scheme}://{user}{addr}{tail}"), upstream)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rest_request_past_its_time_gets_408() {
    let Some(database) = PgDatabase::create().await else { return };
    let (_, upstream) = through(&database.url, "127.0.0.1:1".parse().expect("an address"));
    let (proxy, stalled) = stalling_proxy(upstream).await;
    let (proxied, _) = through(&database.url, proxy);
    let store = Store::connect(&proxied).await.expect("PostgreSQL answers through the proxy");
    let config = Config { request_timeout: Duration::from_millis(500), ..quick_close() };
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config, store).await;
    let health = format!("{}/api/health", server.http());
    assert_eq!(http_get(&health, "application/json").await.status, 200);

    stalled.send_replace(true);
    let asked = Instant::now();
    let answer = http_get(&health, "application/json").await;
    let waited = asked.elapsed();
    println!("a health check on a hung database: {} after {waited:?}", answer.status);
    assert_eq!(answer.status, 408, "{}", answer.body);
    assert!(waited < Duration::from_secs(20), "answered at its time limit, not the database's: {waited:?}");

    // The database's answer comes later; the server answers again.
    stalled.send_replace(false);
    let mut status = 0;
    for _ in 0..100 {
        status = http_get(&health, "application/json").await.status;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 200);
    server.shutdown().await;
    database.drop_database().await;
}
