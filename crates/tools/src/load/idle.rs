//! Idle connections, and the echo round trips of the baseline: one task per connection.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use super::conn::{Ws, connect, message_type};
use super::{Counters, SetUp, WorkerPlan};
use romirami_protocol::{ClientMsg, PROTOCOL_VERSION};

/// How long a hello may wait for its welcome.
const HELLO_TIMEOUT: Duration = Duration::from_secs(60);

/// Opens connection `n` to `server`, says hello when asked, then reads (and so answers pings) until the
/// run stops.
pub(crate) async fn idle_connection(
    plan: Arc<WorkerPlan>,
    server: SocketAddr,
    n: usize,
    hello: bool,
    ramp: Arc<Semaphore>,
    counters: Arc<Counters>,
    mut stop: watch::Receiver<bool>,
) {
    let set_up = SetUp(counters.clone());
    let Some(mut ws) = open(&plan, server, &ramp, &counters).await else { return };
    if hello {
        let name = format!("idle{}-{n}", plan.index);
        if let Err(error) = say_hello(&mut ws, &name, &counters).await {
            counters.error(|| format!("hello: {error}"));
            return;
        }
    }
    Counters::add(&counters.connections, 1);
    drop(set_up);
    loop {
        tokio::select! {
            frame = ws.next() => match frame {
                Some(Ok(Message::Text(_) | Message::Binary(_))) => Counters::add(&counters.frames_received, 1),
                Some(Ok(Message::Close(_)) | Err(_)) | None => {
                    if !*stop.borrow() {
                        Counters::add(&counters.disconnects, 1);
                    }
                    break;
                }
                Some(Ok(_)) => {}
            },
            _ = stop.changed() => {
                let _ = ws.close(None).await;
                break;
            }
        }
    }
    counters.connections.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
}

/// Opens a connection under the ramp's limit on handshakes in flight; counts a failure.
pub(crate) async fn open(plan: &WorkerPlan, server: SocketAddr, ramp: &Semaphore, counters: &Counters) -> Option<Ws> {
    // The semaphore is never closed.
    let _permit = ramp.acquire().await.ok()?;
    match connect(server, &plan.path, plan.source, &counters.ports).await {
        Ok(ws) => Some(ws),
        Err(error) => {
            Counters::add(&counters.connect_failures, 1);
            counters.error(|| format!("connecting to {server}: {error}"));
            None
        }
    }
}

/// Says hello as a new guest and waits for the welcome.
pub(crate) async fn say_hello(ws: &mut Ws, name: &str, counters: &Counters) -> Result<(), String> {
    let hello: ClientMsg<serde_json::Value> =
        ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: None, name: Some(name.to_owned()) };
    let text = serde_json::to_string(&hello).map_err(|e| e.to_string())?;
    ws.send(Message::text(text)).await.map_err(|e| e.to_string())?;
    Counters::add(&counters.frames_sent, 1);
    let welcome = async {
        while let Some(frame) = ws.next().await {
            match frame.map_err(|e| e.to_string())? {
                Message::Text(text) => {
                    Counters::add(&counters.frames_received, 1);
                    return match message_type(&text) {
                        "welcome" => Ok(()),
                        _ => Err(format!("answered hello with {text}")),
                    };
                }
                Message::Close(frame) => return Err(format!("closed: {frame:?}")),
                _ => {}
            }
        }
        Err("closed".to_owned())
    };
    tokio::time::timeout(HELLO_TIMEOUT, welcome).await.map_err(|_| "no welcome in time".to_owned())?
}

/// Connection `n` of the baseline: sends a frame of `payload_bytes`, waits for its echo, and again,
/// every `interval` (or at once) until the run stops.
#[allow(clippy::too_many_arguments, reason = "one task's whole context, passed once")]
pub(crate) async fn echo_connection(
    plan: Arc<WorkerPlan>,
    server: SocketAddr,
    payload_bytes: usize,
    interval: Duration,
    ramp: Arc<Semaphore>,
    counters: Arc<Counters>,
    ready: watch::Receiver<bool>,
    mut stop: watch::Receiver<bool>,
) {
    let set_up = SetUp(counters.clone());
    let Some(mut ws) = open(&plan, server, &ramp, &counters).await else { return };
    Counters::add(&counters.connections, 1);
    drop(set_up);
    // Round trips start together, once every connection is open.
    let mut ready = ready;
    if ready.wait_for(|r| *r).await.is_err() {
        return;
    }
    // Shaped like a server message, so that the frames are of the size the server sends.
    let payload: String = format!(r#"{{"type":"echo","pad":"{}"}}"#, "x".repeat(payload_bytes.saturating_sub(24)));
    let mut next = Instant::now();
    'run: loop {
        if !interval.is_zero() {
            next += interval;
            tokio::select! {
                () = tokio::time::sleep_until(next) => {}
                _ = stop.changed() => break,
            }
        }
        let sent = Instant::now();
        if ws.send(Message::text(payload.clone())).await.is_err() {
            Counters::add(&counters.disconnects, 1);
            break;
        }
        Counters::add(&counters.frames_sent, 1);
        loop {
            tokio::select! {
                frame = ws.next() => match frame {
                    Some(Ok(Message::Text(_))) => {
                        Counters::add(&counters.frames_received, 1);
                        counters.action(sent.elapsed(), false);
                        break;
                    }
                    Some(Ok(Message::Close(_)) | Err(_)) | None => {
                        if !*stop.borrow() {
                            Counters::add(&counters.disconnects, 1);
                        }
                        break 'run;
                    }
                    Some(Ok(_)) => {}
                },
                _ = stop.changed() => break 'run,
            }
        }
        if *stop.borrow() {
            break;
        }
    }
    let _ = ws.close(None).await;
    counters.connections.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
}
