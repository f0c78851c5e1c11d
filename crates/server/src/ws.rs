//! One WebSocket connection: its loop, its limits, and the dispatch of its messages.
//!
//! The loop selects over the socket, the connection's outbox (what tables and the lobby send it), its
//! slow flag, and the server's heartbeat (time to ping, or the server's shutdown). It parses each text
//! frame once into a [`ClientMsg`] and hands table requests to the table's task; it holds no game state
//! and applies no rule. Bad input gets an error with a stable code; a client that keeps sending it, floods, or reads
//! too slowly is closed with a close code that says why.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::time::Duration;

use axum::extract::ws::{Utf8Bytes, close_code};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt;
use tokio::sync::{broadcast, watch};
use tokio::time::{Instant, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes as WsText};
use tracing::{debug, warn};

use crate::AppState;
use crate::addresses::AddressSlot;
use crate::frames::{FrameLimit, FrameMeter};
use crate::heartbeat::Beat;
use crate::players::clean_name;
use crate::protocol::{ErrorCode, Limits, PROTOCOL_VERSION, PlayerInfo, TableId, parse_client_msg_with};
use crate::rate::TokenBucket;
use crate::server::ConnectionGuard;
use crate::table::{
    self, ConnId, Outbox, OutboxQueue, Outgoing, Sender, TableCommand, TableHandle, TableOptions, TooSlow,
};
use crate::wire::{ClientMsg, ServerMsg};

/// How long a closing connection waits for the client to answer its close frame.
pub(crate) const CLOSE_LINGER: Duration = Duration::from_secs(1);

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
    outbox: Outbox,
    tables: HashMap<TableId, TableHandle>,
    lobby: Option<broadcast::Receiver<Utf8Bytes>>,
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
        outbox,
        tables: HashMap::new(),
        lobby: None,
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
    let close: Option<Close> = loop {
        tokio::select! {
            incoming = socket.next() => {
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
                socket.get_mut().pinged();
                if timeout(config.write_timeout, socket.send(Message::Ping(Default::default()))).await.is_err() {
                    break None;
                }
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
        let _ = timeout(CLOSE_LINGER, async {
            if socket.get_ref().refused() {
                // Tungstenite reads no more after the refused read: the frame meter drains what comes,
                // and a read ends only with the client's input.
                let _ = socket.get_mut().read(&mut [0u8; 1]).await;
            } else {
                while let Some(Ok(_)) = socket.next().await {}
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
        let msg: ClientMsg = match parse_client_msg_with(text) {
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
            ClientMsg::CreateTable { seats, public, spectators, clock, game, options, rated } => {
                let games = &self.state.config.games;
                let game = match table::GameChoice::choose(games, game.as_deref(), options.as_ref(), seats) {
                    Ok(game) => game,
                    Err(message) => return self.strike(ServerMsg::error(None, None, ErrorCode::BadOptions, message)),
                };
                // Checked before the table is made, so a burst of creates may pass it by a few: a bound on
                // memory, not an exact count.
                if self.state.lobby.table_count() >= self.state.config.max_live_tables {
                    self.send(ServerMsg::error(
                        None,
                        None,
                        ErrorCode::ServerFull,
                        "the server has as many tables as it can hold; join one, or try again later",
                    ));
                    return Ok(());
                }
                let options = TableOptions { seats, public, spectators, clock, rated: rated.unwrap_or(true) };
                // Boxed: creating a table waits on the store, and that future is the largest here; inline,
                // every message's (boxed) handling would carry its room, hellos and moves included.
                match Box::pin(table::create(options, game, player, &self.state.services())).await {
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
            ClientMsg::History { table, from: from_event } => {
                self.forward(table, None, TableCommand::History { from, from_event }).await
            }
            ClientMsg::Act { table, id, action } => {
                // Not an action of any game the server seats: a bad message, whatever the table. The
                // table's own game reads it again and says whether it is one of its own.
                if let Err(message) = self.state.config.games.reads_action(&action, crate::protocol::ROMI_RAMI) {
                    return self.strike(ServerMsg::error(None, None, ErrorCode::Malformed, message));
                }
                self.forward(table, Some(id), TableCommand::Act { from, id, action }).await
            }
            ClientMsg::Chat { table, text } => self.forward(table, None, TableCommand::Chat { from, text }).await,
            ClientMsg::Mute { table, player, muted } => {
                self.forward(table, None, TableCommand::Mute { from, player, muted }).await
            }
            ClientMsg::Rematch { table, accept } => {
                self.forward(table, None, TableCommand::Rematch { from, accept }).await
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
                Ok(name) => match self.state.names.is_kept(&name).await {
                    Ok(true) => {
                        // Not a bad message: the client asks its user for another name.
                        self.send(ServerMsg::error(
                            None,
                            None,
                            ErrorCode::NameTaken,
                            "another player keeps this name; choose another, or sign in if it is yours",
                        ));
                        return Ok(());
                    }
                    Ok(false) if !self.state.addresses.take_guest(self.address, &self.state.config) => {
                        self.send(ServerMsg::error(
                            None,
                            None,
                            ErrorCode::TooManyGuests,
                            "too many new players from your address; try again in a minute, or come back with your token",
                        ));
                        return Ok(());
                    }
                    Ok(false) => {
                        self.state.players.create_guest(name).await.map(|(player, token)| (player, Some(token)))
                    }
                    Err(error) => Err(error),
                },
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
        let mut handle = self.tables.get(&table).cloned().or_else(|| self.state.lobby.table(table));
        if let (None, Some(cluster)) = (&handle, &self.state.cluster) {
            // Another node's table: its commands go there (cluster/forward.rs).
            handle = cluster.forwarding.table(table).await;
        }
        let Some(handle) = handle else {
            if self.answer_from_store(table, &command).await {
                return Ok(());
            }
            return self.strike(ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table"));
        };
        let joins = matches!(command, TableCommand::Join { .. } | TableCommand::Watch { .. });
        // The command comes back when the table's task has ended (its game finished, say).
        match handle.send_or_return(command).await {
            Ok(()) => {
                if joins {
                    self.tables.insert(table, handle);
                }
            }
            Err(command) => {
                debug!(%table, "the table's task has ended");
                self.tables.remove(&table);
                if !self.answer_from_store(table, &command).await {
                    self.send(ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table"));
                }
            }
        }
        Ok(())
    }

    /// A `join` or `watch` of a table whose task has ended: a finished game is answered from the store.
    /// Returns whether it was.
    async fn answer_from_store(&self, table: TableId, command: &TableCommand) -> bool {
        match command {
            TableCommand::Join { from, invite, .. } => {
                table::finished::answer(
                    (&self.state.store, &self.state.config.games),
                    table,
                    from,
                    invite.as_deref(),
                    false,
                )
                .await
            }
            TableCommand::Watch { from, invite, .. } => {
                table::finished::answer(
                    (&self.state.store, &self.state.config.games),
                    table,
                    from,
                    invite.as_deref(),
                    true,
                )
                .await
            }
            _ => false,
        }
    }
}
