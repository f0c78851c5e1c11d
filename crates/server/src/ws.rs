//! One WebSocket connection: its loop, its limits, and the dispatch of its messages.
//!
//! The loop selects over the socket, the connection's outbox (what tables and the lobby send it), its
//! slow flag, and the server's heartbeat (time to ping, or the server's shutdown). It parses each text
//! frame once into a [`ClientMsg`] and hands table requests to the table's task; it holds no game state
//! and applies no rule. Bad input gets an error with a stable code; a client that keeps sending it, floods, or reads
//! too slowly is closed with a close code that says why.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, watch};
use tokio::time::{Instant, timeout};
use tracing::{debug, warn};

use crate::AppState;
use crate::heartbeat::Beat;
use crate::players::clean_name;
use crate::protocol::{
    ClientMsg, ErrorCode, Limits, PROTOCOL_VERSION, PlayerInfo, ServerMsg, TableId, parse_client_msg,
};
use crate::rate::TokenBucket;
use crate::server::ConnectionGuard;
use crate::table::{
    self, ConnId, Outbox, OutboxQueue, Outgoing, Sender, TableCommand, TableHandle, TableOptions, TooSlow,
};

/// How long a closing connection waits for the client to answer its close frame.
const CLOSE_LINGER: Duration = Duration::from_secs(1);

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
    player: Option<PlayerInfo>,
    outbox: Outbox,
    tables: HashMap<TableId, TableHandle>,
    lobby: Option<broadcast::Receiver<Utf8Bytes>>,
    rate: TokenBucket,
    strikes: TokenBucket,
}

/// What a connection's loop works on.
struct Session {
    conn: Connection,
    sink: SplitSink<WebSocket, Message>,
    stream: SplitStream<WebSocket>,
    queue: OutboxQueue,
    too_slow: TooSlow,
    heartbeat: watch::Receiver<Beat>,
}

/// Sets up one upgraded connection; the future runs it to its end. `open` is held until then.
///
/// What the connection keeps is built here and moved into the future once, where the loop works on it
/// in place: an `async fn` taking the socket and the server's state would keep their room for its whole
/// life beside the values they were moved into, in every idle connection's task.
pub(crate) fn serve(
    socket: WebSocket,
    state: AppState,
    id: ConnId,
    open: ConnectionGuard,
) -> impl Future<Output = ()> + Send + 'static {
    let counted = crate::metrics::ConnectionMetric::open();
    let config = state.config.clone();
    let (outbox, queue, too_slow) = Outbox::new(config.outgoing_queue);
    let heartbeat = state.heartbeat.subscribe(id);
    let (sink, stream) = socket.split();
    let conn = Connection {
        id,
        player: None,
        outbox,
        tables: HashMap::new(),
        lobby: None,
        rate: TokenBucket::new(config.message_burst, config.messages_per_second),
        strikes: TokenBucket::new(config.max_strikes, 1.0 / config.strike_decay.as_secs_f64()),
        state,
    };
    let mut session = Session { conn, sink, stream, queue, too_slow, heartbeat };
    async move {
        run(&mut session).await;
        drop(counted);
        drop(open);
    }
}

/// Runs one connection to its end.
async fn run(session: &mut Session) {
    let Session { conn, sink, stream, queue, too_slow, heartbeat } = session;
    let id = conn.id;
    let config = conn.state.config.clone();
    let mut last_heard = Instant::now();
    let close: Option<Close> = loop {
        tokio::select! {
            incoming = stream.next() => {
                let Some(incoming) = incoming else { break None };
                last_heard = Instant::now();
                if matches!(incoming, Ok(Message::Text(_) | Message::Binary(_))) {
                    crate::metrics::frame_received();
                }
                // Tungstenite reads a message up to `server::READ_WHOLE_BYTES` to its end, so that refusing an
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
                        if !matches!(timeout(config.write_timeout, sink.flush()).await, Ok(Ok(()))) {
                            break None;
                        }
                    }
                    Ok(Message::Pong(_)) => {}
                    Ok(Message::Close(_)) => {
                        // The same for the close reply.
                        let _ = timeout(config.write_timeout, sink.flush()).await;
                        break None;
                    }
                    Err(error) => {
                        debug!(conn = id.0, %error, "websocket read failed");
                        use tokio_tungstenite::tungstenite::Error as WsError;
                        break match error.into_inner().downcast_ref::<WsError>() {
                            Some(WsError::Capacity(_)) => {
                                Some(Close { code: close_code::SIZE, reason: "message too large", flush: true })
                            }
                            Some(WsError::Utf8(_)) => {
                                Some(Close { code: close_code::INVALID, reason: "text frame is not UTF-8", flush: true })
                            }
                            _ => None,
                        };
                    }
                }
            }
            Some(outgoing) = queue.recv() => {
                match timeout(config.write_timeout, write_queued(sink, outgoing, queue)).await {
                    Ok(Ok(frames)) => crate::metrics::frames_sent(frames),
                    _ => break None,
                }
            }
            Some(update) = recv_lobby(&mut conn.lobby) => {
                match update {
                    Ok(text) => conn.outbox.send(Outgoing::Text(text)),
                    Err(broadcast::error::RecvError::Lagged(_)) => conn.subscribe_lobby(),
                    Err(broadcast::error::RecvError::Closed) => { conn.lobby = None; true }
                };
            }
            () = too_slow.raised() => {
                break Some(Close { code: close_code::POLICY, reason: "too slow to keep up", flush: false });
            }
            beat = heartbeat.changed() => {
                if beat.is_err() || heartbeat.borrow_and_update().shutting_down {
                    break Some(Close { code: close_code::AWAY, reason: "server shutting down", flush: true });
                }
                if last_heard.elapsed() >= config.idle_timeout {
                    break Some(Close { code: close_code::AWAY, reason: "no answer to ping", flush: false });
                }
                if timeout(config.write_timeout, sink.send(Message::Ping(Default::default()))).await.is_err() {
                    break None;
                }
            }
        }
    };
    let closing = close.is_some();
    if let Some(Close { code, reason, flush }) = close {
        debug!(conn = id.0, code, reason, "closing connection");
        crate::metrics::closed(reason);
        let frame = CloseFrame { code, reason: reason.into() };
        let _ = timeout(config.write_timeout, async {
            if flush {
                while let Ok(Outgoing::Text(text)) = queue.try_recv() {
                    sink.feed(Message::Text(text)).await?;
                }
            }
            sink.send(Message::Close(Some(frame))).await
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
        let _ = timeout(CLOSE_LINGER, async { while let Some(Ok(_)) = stream.next().await {} }).await;
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
async fn write_queued(
    sink: &mut SplitSink<WebSocket, Message>,
    first: Outgoing,
    queue: &mut OutboxQueue,
) -> Result<u64, axum::Error> {
    let Outgoing::Text(text) = first;
    let (mut frames, mut bytes) = (1, text.len());
    sink.feed(Message::Text(text)).await?;
    while frames < BATCH_FRAMES && bytes < BATCH_BYTES {
        let Ok(Outgoing::Text(text)) = queue.try_recv() else { break };
        (frames, bytes) = (frames + 1, bytes + text.len());
        sink.feed(Message::Text(text)).await?;
    }
    sink.flush().await?;
    Ok(frames as u64)
}

async fn recv_lobby(
    lobby: &mut Option<broadcast::Receiver<Utf8Bytes>>,
) -> Option<Result<Utf8Bytes, broadcast::error::RecvError>> {
    match lobby {
        Some(receiver) => Some(receiver.recv().await),
        None => std::future::pending().await,
    }
}

impl Connection {
    fn send(&self, message: ServerMsg) {
        self.outbox.send_msg(&message);
    }

    /// Counts a bad message; the connection closes when they come too often.
    fn strike(&mut self, message: ServerMsg) -> Result<(), Close> {
        self.send(message);
        if self.strikes.take() {
            Ok(())
        } else {
            Err(Close { code: close_code::POLICY, reason: "too many bad messages", flush: true })
        }
    }

    fn subscribe_lobby(&mut self) -> bool {
        let (list, receiver) = self.state.lobby.subscribe();
        self.lobby = Some(receiver);
        self.outbox.send_msg(&list)
    }

    async fn on_text(&mut self, text: &str) -> Result<(), Close> {
        if !self.rate.take() {
            return self.strike(ServerMsg::error(None, None, ErrorCode::RateLimited, "too many messages; slow down"));
        }
        let msg = match parse_client_msg(text) {
            Ok(msg) => msg,
            Err(reason) => return self.strike(ServerMsg::error(None, None, ErrorCode::Malformed, reason)),
        };
        let Some(player) = self.player.clone() else {
            return self.hello(msg).await;
        };
        let from = Sender { conn: self.id, player: player.clone(), out: self.outbox.clone() };
        match msg {
            ClientMsg::Hello { .. } => {
                self.strike(ServerMsg::error(None, None, ErrorCode::AlreadyGreeted, "you already said hello"))
            }
            ClientMsg::LobbySubscribe => {
                self.subscribe_lobby();
                Ok(())
            }
            ClientMsg::LobbyUnsubscribe => {
                self.lobby = None;
                Ok(())
            }
            ClientMsg::CreateTable { seats, public, spectators, clock } => {
                let options = TableOptions { seats, public, spectators, clock };
                // Boxed: creating a table waits on the store, and that future is the largest here; inline,
                // every message's (boxed) handling would carry its room, hellos and moves included.
                match Box::pin(table::create(options, player, &self.state.services())).await {
                    Ok(created) => {
                        self.tables.insert(created.handle.id, created.handle.clone());
                        self.send(ServerMsg::TableCreated { table: created.summary, invite: created.invite.clone() });
                        created
                            .handle
                            .send(TableCommand::Join { from, invite: Some(created.invite), since: None })
                            .await;
                        Ok(())
                    }
                    Err((ErrorCode::Unavailable, message)) => {
                        self.send(ServerMsg::error(None, None, ErrorCode::Unavailable, message));
                        Ok(())
                    }
                    Err((code, message)) => self.strike(ServerMsg::error(None, None, code, message)),
                }
            }
            ClientMsg::Join { table, invite, since } => {
                self.forward(table, None, TableCommand::Join { from, invite, since }).await
            }
            ClientMsg::Watch { table, invite, since } => {
                self.forward(table, None, TableCommand::Watch { from, invite, since }).await
            }
            ClientMsg::Leave { table } => {
                let result = self.forward(table, None, TableCommand::Leave { from }).await;
                self.tables.remove(&table);
                result
            }
            ClientMsg::Start { table } => self.forward(table, None, TableCommand::Start { from }).await,
            ClientMsg::Kick { table, seat } => self.forward(table, None, TableCommand::Kick { from, seat }).await,
            ClientMsg::AddBot { table } => self.forward(table, None, TableCommand::AddBot { from }).await,
            ClientMsg::Act { table, id, action } => {
                self.forward(table, Some(id), TableCommand::Act { from, id, action }).await
            }
        }
    }

    async fn hello(&mut self, msg: ClientMsg) -> Result<(), Close> {
        let ClientMsg::Hello { protocol, token, name } = msg else {
            return self.strike(ServerMsg::error(None, None, ErrorCode::HelloFirst, "say hello first"));
        };
        if protocol != PROTOCOL_VERSION {
            return self.strike(ServerMsg::error(
                None,
                None,
                ErrorCode::UnsupportedProtocol,
                format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
            ));
        }
        let outcome = match (token, name) {
            (Some(token), _) => match self.state.players.authenticate(&token).await {
                Ok(Some(player)) => Ok((player, None)),
                Ok(None) => {
                    return self.strike(ServerMsg::error(
                        None,
                        None,
                        ErrorCode::BadToken,
                        "that token is not known here",
                    ));
                }
                Err(error) => Err(error),
            },
            (None, Some(name)) => match clean_name(&name) {
                Ok(name) => self.state.players.create_guest(name).await.map(|(player, token)| (player, Some(token))),
                Err(reason) => return self.strike(ServerMsg::error(None, None, ErrorCode::BadName, reason)),
            },
            (None, None) => {
                return self.strike(ServerMsg::error(
                    None,
                    None,
                    ErrorCode::BadName,
                    "send a token, or a name for a new guest",
                ));
            }
        };
        let (player, new_token) = match outcome {
            Ok(found) => found,
            Err(error) => {
                warn!(%error, "a hello could not be answered from the store");
                self.send(ServerMsg::error(
                    None,
                    None,
                    ErrorCode::Unavailable,
                    "the server cannot reach its database; try again in a moment",
                ));
                return Ok(());
            }
        };
        let config = &self.state.config;
        let limits = Limits {
            max_message_bytes: config.max_message_bytes,
            messages_per_second: config.messages_per_second,
            message_burst: config.message_burst,
        };
        self.send(ServerMsg::Welcome { protocol: PROTOCOL_VERSION, player: player.clone(), token: new_token, limits });
        self.player = Some(player);
        Ok(())
    }

    /// Hands a request to its table, remembering the table so the connection can detach from it.
    async fn forward(&mut self, table: TableId, id: Option<u64>, command: TableCommand) -> Result<(), Close> {
        let handle = match self.tables.get(&table) {
            Some(handle) => handle.clone(),
            None => match self.state.lobby.table(table) {
                Some(handle) => handle,
                None => {
                    return self.strike(ServerMsg::error(
                        Some(table),
                        id,
                        ErrorCode::NoSuchTable,
                        "there is no such table",
                    ));
                }
            },
        };
        let joins = matches!(command, TableCommand::Join { .. } | TableCommand::Watch { .. });
        if handle.send(command).await {
            if joins {
                self.tables.insert(table, handle);
            }
        } else {
            warn!(%table, "a table's task is gone");
            self.tables.remove(&table);
            self.send(ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table"));
        }
        Ok(())
    }
}
