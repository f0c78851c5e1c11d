//! One WebSocket connection: its loop, its limits, and the dispatch of its messages.
//!
//! The loop selects over the socket, the connection's outbox (what tables and the lobby send it), its
//! slow flag, and the server's heartbeat (time to ping, or the server's shutdown). It parses each text
//! frame once into a [`ClientMsg`](crate::wire::ClientMsg) and hands table requests to the table's task; it holds no game state
//! and applies no rule. Bad input gets an error with a stable code; a client that keeps sending it, floods, or reads
//! too slowly is closed with a close code that says why.

mod dispatch;

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;

use axum::extract::ws::{Utf8Bytes, close_code};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt;
use tokio::sync::{broadcast, watch};
use tokio::time::{Instant, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes as WsText};
use tracing::debug;

use crate::addresses::AddressSlot;
use crate::frames::{FrameLimit, FrameMeter};
use crate::heartbeat::Beat;
use crate::protocol::{ErrorCode, PlayerInfo, TableId};
use crate::rate::TokenBucket;
use crate::state::AppState;
use crate::state::ConnectionGuard;
use crate::table::{ConnId, Outbox, OutboxQueue, Outgoing, TableCommand, TableHandle, TooSlow};
use crate::wire::ServerMsg;

/// An upgraded connection's WebSocket, every frame the client sends counted by [`FrameMeter`].
pub type Socket = WebSocketStream<FrameMeter<TokioIo<hyper::upgrade::Upgraded>>>;

/// Why the server closes a connection.
#[derive(Debug)]
struct Close {
    code: u16,
    reason: &'static str,
    /// Whether what was queued before the close (the error that led to it, say) is written first; not
    /// for a client that is not reading.
    flush: bool,
}

/// A connection's state.
struct Connection {
    id: ConnId,
    state: AppState,
    /// The client's address (for its guest allowance).
    address: IpAddr,
    player: Option<PlayerInfo>,
    /// The hash of the token the player said hello with (or was given), and the sign-outs to check it at.
    token_hash: Option<[u8; 32]>,
    sign_outs: Option<watch::Receiver<u64>>,
    outbox: Outbox,
    tables: HashMap<TableId, TableHandle>,
    lobby: Option<broadcast::Receiver<Utf8Bytes>>,
    /// The tournament this connection follows, and its changes.
    tournament: Option<(uuid::Uuid, broadcast::Receiver<crate::tournament::Follow>)>,
    rate: TokenBucket,
    strikes: TokenBucket,
}

/// What a connection's loop works on.
struct Session {
    conn: Connection,
    socket: Socket,
    queue: OutboxQueue,
    too_slow: TooSlow,
    heartbeat: watch::Receiver<Beat>,
}

/// Sets up one upgraded connection from the client at `address`; the future runs it to its end. `open`
/// and `slot` (its place among the address's connections) are held until then.
///
/// What the connection keeps is built here and moved into the future once, where the loop works on it
/// in place: an `async fn` taking the socket and the server's state would keep their room for its whole
/// life beside the values they were moved into, in every idle connection's task.
pub(crate) fn serve(
    socket: Socket,
    state: AppState,
    id: ConnId,
    open: ConnectionGuard,
    address: IpAddr,
    slot: Option<AddressSlot>,
) -> impl Future<Output = ()> + Send + 'static {
    let counted = crate::metrics::ConnectionMetric::open();
    let config = state.config.clone();
    let (outbox, queue, too_slow) = Outbox::new(config.outgoing_queue);
    let heartbeat = state.heartbeat.subscribe(id);
    let conn = Connection {
        id,
        address,
        player: None,
        token_hash: None,
        sign_outs: None,
        outbox,
        tables: HashMap::new(),
        lobby: None,
        tournament: None,
        rate: TokenBucket::new(config.message_burst, config.messages_per_second),
        strikes: TokenBucket::new(config.max_strikes, 1.0 / config.strike_decay.as_secs_f64()),
        state,
    };
    let mut session = Session { conn, socket, queue, too_slow, heartbeat };
    async move {
        run(&mut session).await;
        drop(counted);
        drop(slot);
        drop(open);
    }
}

/// A queued text as a frame to write. The queue holds axum's text type, which tungstenite's is made
/// from by a check of its (already valid) UTF-8: cheap beside the JSON that made it.
fn frame(text: Utf8Bytes) -> Message {
    Message::Text(WsText::try_from(bytes::Bytes::from(text)).unwrap_or_default())
}

/// Runs one connection to its end.
async fn run(session: &mut Session) {
    let Session { conn, socket, queue, too_slow, heartbeat } = session;
    let id = conn.id;
    let config = conn.state.config.clone();
    let mut last_heard = Instant::now();
    // Whether a ping went out since the client was last heard: a connection is closed for not answering
    // only once it was asked (a server held up past the idle timeout has asked nothing yet).
    let mut pinged_since_heard = false;
    let close: Option<Close> = loop {
        tokio::select! {
            incoming = socket.next() => {
                let Some(incoming) = incoming else { break None };
                last_heard = Instant::now();
                pinged_since_heard = false;
                if matches!(incoming, Ok(Message::Text(_) | Message::Binary(_))) {
                    crate::metrics::frame_received();
                }
                // Tungstenite reads a message up to `upgrade::READ_WHOLE_BYTES` to its end, so that refusing an
                // oversized one here leaves nothing unread and the client receives the close.
                let length = match &incoming {
                    Ok(Message::Text(text)) => text.len(),
                    Ok(Message::Binary(data)) => data.len(),
                    _ => 0,
                };
                if length > config.max_message_bytes {
                    break Some(Close { code: close_code::SIZE, reason: "message too large", flush: true });
                }
                match incoming {
                    Ok(Message::Text(text)) => {
                        // Boxed: handling a message can wait on the database, and that future is
                        // large; inline, every idle connection would carry its room (kilobytes).
                        if let Err(close) = Box::pin(conn.on_text(&text)).await {
                            break Some(close);
                        }
                    }
                    Ok(Message::Binary(_)) => {
                        conn.send(ServerMsg::error(None, None, ErrorCode::Binary, "send JSON text frames, not binary"));
                        if !conn.strikes.take() {
                            break Some(Close { code: close_code::POLICY, reason: "too many bad messages", flush: true });
                        }
                    }
                    Ok(Message::Ping(_)) => {
                        // Tungstenite queued the pong in the write buffer; it goes out with a flush.
                        if !matches!(timeout(config.write_timeout, socket.flush()).await, Ok(Ok(()))) {
                            break None;
                        }
                    }
                    Ok(Message::Pong(_) | Message::Frame(_)) => {}
                    Ok(Message::Close(_)) => {
                        // The same for the close reply.
                        let _ = timeout(config.write_timeout, socket.flush()).await;
                        break None;
                    }
                    Err(error) => {
                        debug!(conn = id.0, %error, "websocket read failed");
                        break match error {
                            WsError::Capacity(_) => {
                                Some(Close { code: close_code::SIZE, reason: "message too large", flush: true })
                            }
                            WsError::Utf8(_) => {
                                Some(Close { code: close_code::INVALID, reason: "text frame is not UTF-8", flush: true })
                            }
                            WsError::Io(error) => FrameLimit::of(&error)
                                .map(|limit| Close { code: close_code::POLICY, reason: limit.0, flush: true }),
                            _ => None,
                        };
                    }
                }
            }
            Some(outgoing) = queue.recv() => {
                match timeout(config.write_timeout, write_queued(socket, outgoing, queue)).await {
                    Ok(Ok(frames)) => crate::metrics::frames_sent(frames),
                    _ => break None,
                }
            }
            Some(update) = recv_tournament(&mut conn.tournament) => {
                match update {
                    Ok(crate::tournament::Follow::View(text)) => { conn.outbox.send(Outgoing::Text(text)); }
                    Ok(crate::tournament::Follow::Table { seats, text }) => {
                        if conn.player.as_ref().is_some_and(|me| seats.contains(&me.id)) {
                            conn.outbox.send(Outgoing::Text(text));
                        }
                    }
                    // Fallen behind: the view now says everything but a table's call, which the view shows too.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        if let Some((id, _)) = conn.tournament.take() {
                            Box::pin(conn.follow_tournament(id)).await;
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => conn.tournament = None,
                }
            }
            Some(update) = recv_lobby(&mut conn.lobby) => {
                match update {
                    Ok(text) => conn.outbox.send(Outgoing::Text(text)),
                    Err(broadcast::error::RecvError::Lagged(_)) => conn.subscribe_lobby(),
                    Err(broadcast::error::RecvError::Closed) => { conn.lobby = None; true }
                };
            }
            () = sign_out_heard(&mut conn.sign_outs) => {
                let live = match conn.token_hash {
                    Some(hash) => conn.state.players.still_signed_in(&hash).await,
                    None => true,
                };
                if !live {
                    conn.send(ServerMsg::error(None, None, ErrorCode::SignedOut, "you signed out; sign in again to play"));
                    break Some(Close { code: close_code::POLICY, reason: "signed out", flush: true });
                }
                let ban = conn.player.as_ref().and_then(|player| conn.state.moderation.ban_of(player.id));
                if let Some(ban) = ban {
                    conn.send(ServerMsg::error(None, None, ErrorCode::Banned, ban.sentence()));
                    break Some(Close { code: close_code::POLICY, reason: "banned", flush: true });
                }
            }
            () = too_slow.raised() => {
                break Some(Close { code: close_code::POLICY, reason: "too slow to keep up", flush: false });
            }
            beat = heartbeat.changed() => {
                if beat.is_err() || heartbeat.borrow_and_update().shutting_down {
                    break Some(Close { code: close_code::AWAY, reason: "server shutting down", flush: true });
                }
                if pinged_since_heard && last_heard.elapsed() >= config.idle_timeout {
                    break Some(Close { code: close_code::AWAY, reason: "no answer to ping", flush: false });
                }
                socket.get_mut().pinged();
                if timeout(config.write_timeout, socket.send(Message::Ping(Default::default()))).await.is_err() {
                    break None;
                }
                pinged_since_heard = true;
            }
        }
    };
    let closing = close.is_some();
    if let Some(Close { code, reason, flush }) = close {
        debug!(conn = id.0, code, reason, "closing connection");
        crate::metrics::closed(reason);
        let close = CloseFrame { code: code.into(), reason: reason.into() };
        let _ = timeout(config.write_timeout, async {
            if flush {
                while let Ok(Outgoing::Text(text)) = queue.try_recv() {
                    socket.feed(frame(text)).await?;
                }
            }
            socket.send(Message::Close(Some(close))).await
        })
        .await;
    }
    for (_, table) in conn.tables.drain() {
        // Boxed: inline, this wait at the end would add its room to every idle connection's task.
        Box::pin(table.send(TableCommand::Detach { conn: id })).await;
    }
    if closing {
        // Closing a socket that has unread input resets the connection, which can discard what is still
        // on its way out, close frame included: read on, ignoring it all, until the client answers the
        // close or a moment has passed.
        let _ = timeout(config.close_linger, async {
            if !socket.get_ref().refused() {
                while let Some(Ok(_)) = socket.next().await {}
            }
            // Tungstenite reads no more after a refused read, and what a flood sent after its close may
            // still go over the frame budget here: then the frame meter drains what comes, and a read
            // ends only with the client's input.
            if socket.get_ref().refused() {
                let _ = socket.get_mut().read(&mut [0u8; 1]).await;
            }
        })
        .await;
    }
}

/// The most frames written to a socket with one flush: what is already queued for a connection goes out
/// in one `send`, not one each.
const BATCH_FRAMES: usize = 64;
/// The bytes after which a batch takes no more frames; also the socket's write buffer target.
pub(crate) const BATCH_BYTES: usize = 64 * 1024;

/// Writes `first` and what else is already queued (up to a batch), then flushes them together. Returns
/// how many frames were written. Tungstenite holds fed frames in its write buffer until the flush (and
/// an automatic pong or close reply waiting there goes out with it).
async fn write_queued(socket: &mut Socket, first: Outgoing, queue: &mut OutboxQueue) -> Result<u64, WsError> {
    let Outgoing::Text(text) = first;
    let (mut frames, mut bytes) = (1, text.len());
    socket.feed(frame(text)).await?;
    while frames < BATCH_FRAMES && bytes < BATCH_BYTES {
        let Ok(Outgoing::Text(text)) = queue.try_recv() else { break };
        (frames, bytes) = (frames + 1, bytes + text.len());
        socket.feed(frame(text)).await?;
    }
    socket.flush().await?;
    Ok(frames as u64)
}

/// Returns when a sign-out was heard (this connection then checks its token), or never before `hello`.
async fn sign_out_heard(sign_outs: &mut Option<watch::Receiver<u64>>) {
    let heard = match sign_outs {
        Some(receiver) => receiver.changed().await.is_ok(),
        None => false,
    };
    // The sender lives as long as the server's players: an error cannot come while the connection does.
    if !heard {
        std::future::pending::<()>().await;
    }
}

async fn recv_lobby(
    lobby: &mut Option<broadcast::Receiver<Utf8Bytes>>,
) -> Option<Result<Utf8Bytes, broadcast::error::RecvError>> {
    match lobby {
        Some(receiver) => Some(receiver.recv().await),
        None => std::future::pending().await,
    }
}

/// The next change of the followed tournament, or never without one.
async fn recv_tournament(
    tournament: &mut Option<(uuid::Uuid, broadcast::Receiver<crate::tournament::Follow>)>,
) -> Option<Result<crate::tournament::Follow, broadcast::error::RecvError>> {
    match tournament {
        Some((_, receiver)) => Some(receiver.recv().await),
        None => std::future::pending().await,
    }
}
