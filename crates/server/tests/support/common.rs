//! What the server's integration tests share: a real server on a free port, clients that follow a table
//! and check the numbering of its events, a game played one move at a time beside other tests, and a
//! raw WebSocket for clients that must not answer pings.

use std::net::SocketAddr;

use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, NumberedEvent, ServerMsg};
use romirami_engine::bot::choose;
use romirami_engine::{Action, GameResult, Phase, Seat, View, VisibleEvent};
use romirami_server::config::Config;
use romirami_server::protocol::{
    ErrorCode, PlayerInfo, Presence, PresenceChange, Role, SpectatorPolicy, TableId, TableSummary,
};
use romirami_server::store::Store;
use romirami_server::{AppState, run};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process on 127.0.0.1 and a free port.
pub(crate) struct TestServer {
    /// `ws://127.0.0.1:PORT/ws`
    pub(crate) url: String,
    /// `127.0.0.1:PORT`
    pub(crate) addr: SocketAddr,
    /// The state it serves, to look inside.
    pub(crate) state: AppState,
    /// The folder of its SQLite database, removed with the server.
    pub(crate) dir: Option<tempfile::TempDir>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    /// Starts a server with `config`.
    pub(crate) async fn start(config: Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        TestServer::start_on(listener, config).await
    }

    /// Starts a server with `config` on `listener`, with a fresh SQLite database of its own.
    pub(crate) async fn start_on(listener: TcpListener, config: Config) -> TestServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("games.db").display());
        let store = Store::connect(&url).await.expect("the database opens");
        let mut server = TestServer::start_with(listener, config, store).await;
        server.dir = Some(dir);
        server
    }

    /// Starts a server with `config` on `listener` over `store`.
    pub(crate) async fn start_with(listener: TcpListener, config: Config, store: Store) -> TestServer {
        let addr = listener.local_addr().expect("bound");
        let url = format!("ws://{addr}/ws");
        let state = AppState::open(config, store).await.expect("the server state opens");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(listener, state.clone(), async {
            stopped.await.ok();
        }));
        TestServer { url, addr, state, dir: None, stop: Some(stop), task: Some(task) }
    }

    /// Starts a server with `config` on a fresh PostgreSQL database of its own (`DATABASE_URL`; `None` without
    /// one, outside CI): the server, its store (for a test to look into) and the database, for
    /// [`TestServer::stop_on_postgres`].
    pub(crate) async fn start_on_postgres(config: Config) -> Option<(TestServer, Store, PgDatabase)> {
        let database = PgDatabase::create().await?;
        let store = Store::connect(&database.url).await.expect("the database opens");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let server = TestServer::start_with(listener, config, store.clone()).await;
        Some((server, store, database))
    }

    /// Stops a server [`TestServer::start_on_postgres`] started, and drops its database.
    pub(crate) async fn stop_on_postgres(self, store: Store, database: PgDatabase) {
        self.shutdown().await;
        store.close().await;
        database.drop_database().await;
    }

    /// `http://127.0.0.1:PORT`
    pub(crate) fn http(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Starts a server with the default limits.
    pub(crate) async fn default() -> TestServer {
        TestServer::start(quick_close()).await
    }

    /// Shuts the server down gracefully and waits until every connection is closed.
    pub(crate) async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            stop.send(()).ok();
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("server ran");
        }
    }
}

/// The default limits, but with a rate limit that whole bot games at full speed stay far below: for
/// tests that are not about the rate limit.
pub(crate) fn fast() -> Config {
    Config {
        messages_per_second: 5000.0,
        message_burst: 5000.0,
        frames_per_second: 10_000.0,
        frame_burst: 10_000.0,
        // The server draws every seat's contribution to a deal at once; `shuffle_proof.rs` and the
        // core's `dealing` tests wait for the players' own.
        contribution_wait: std::time::Duration::ZERO,
        ..quick_close()
    }
}

/// The default limits, but a closing connection waits a tenth of a second for its client's answer: a
/// test's clients are usually still open, and not reading, when its server shuts down, and the default
/// second would be added to every test.
pub(crate) fn quick_close() -> Config {
    Config { close_linger: std::time::Duration::from_millis(100), ..Config::default() }
}

/// A new guest on the server at `url`.
pub(crate) async fn guest(url: &str, name: &str) -> (Client, PlayerInfo, String) {
    Client::guest(url, name).await.expect("a guest is welcomed")
}

/// Sends `msg`.
pub(crate) async fn send(client: &mut Client, msg: ClientMsg) {
    client.send(&msg).await.expect("the message is sent");
}

/// The next message, which must come.
pub(crate) async fn recv(client: &mut Client) -> ServerMsg {
    client.recv().await.expect("a message from the server")
}

/// Opens a table hosted by `client`; returns its summary and invite key. The host's `table` message is
/// left unread.
pub(crate) async fn create_table(
    client: &mut Client,
    seats: u8,
    public: bool,
    spectators: SpectatorPolicy,
) -> (TableSummary, String) {
    let create =
        ClientMsg::CreateTable { seats, public, spectators, clock: None, game: None, options: None, rated: None };
    create_table_with(client, create).await
}

/// Opens a private, casual table of two Romi Rami seats hosted by `client`, with `clock`; returns its id and
/// invite key. The host's `table` message is left unread.
pub(crate) async fn create_casual_pair(
    client: &mut Client,
    spectators: SpectatorPolicy,
    clock: Option<romirami_server::protocol::Clock>,
) -> (TableId, String) {
    let create = ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators,
        clock,
        game: None,
        options: None,
        rated: Some(false),
    };
    let (table, invite) = create_table_with(client, create).await;
    (table.id, invite)
}

/// Sends `create` (a `create_table`) from `client`; returns the table's summary and invite key.
async fn create_table_with(client: &mut Client, create: ClientMsg) -> (TableSummary, String) {
    send(client, create).await;
    client
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, invite } => Some((table.clone(), invite.clone())),
            ServerMsg::Error { code, message, .. } => panic!("the table was not created: {code:?}: {message}"),
            _ => None,
        })
        .await
        .expect("the table is created")
}

/// The next message, which must be an error with `code` about `table`; returns its sentence.
pub(crate) async fn expect_error(client: &mut Client, table: Option<TableId>, code: ErrorCode) -> String {
    match recv(client).await {
        ServerMsg::Error { table: about, code: got, message, .. } => {
            assert_eq!((got, about), (code, table), "wrong error: {message}");
            message
        }
        other => panic!("expected a {code:?} error, got {other:?}"),
    }
}

/// The next message, which must be the `table` message for `table`; returns the role and view.
pub(crate) async fn expect_table(client: &mut Client, table: TableId) -> (TableSummary, Role, Option<Box<View>>) {
    match recv(client).await {
        ServerMsg::Table { table: summary, role, view } if summary.id == table => (summary, role, view),
        other => panic!("expected the table, got {other:?}"),
    }
}

/// Waits until the connection is closed; returns the close code and reason the server sent, if any.
pub(crate) async fn closed(client: &mut Client) -> Option<(u16, String)> {
    loop {
        match client.recv().await {
            Ok(_) => {}
            Err(romirami_client::ClientError::Closed(frame)) => return frame,
            Err(other) => panic!("expected a close, got {other}"),
        }
    }
}

/// The event an action of `seat` produces first, as `seat` itself (`own`) or anyone else sees it.
pub(crate) fn first_event_of(seat: Seat, action: Action, own: bool) -> VisibleEvent {
    match action {
        Action::Take { cards } => VisibleEvent::Took { seat, cards },
        Action::Complete { contract, cards, star } => VisibleEvent::Completed { seat, contract, cards, star },
        Action::Pass => VisibleEvent::Passed { seat },
        Action::Discard { cards } => VisibleEvent::Discarded { seat, count: cards.len(), cards: own.then_some(cards) },
        Action::TakeBack => panic!("bots never take back"),
    }
}

/// A connection at one table, followed message by message. It checks what every client relies on:
/// events come numbered from where the client stands, each once, in order.
pub(crate) struct Follower {
    /// The connection.
    pub(crate) client: Client,
    /// The table.
    pub(crate) table: TableId,
    /// The seat, once known from a `table` message; `None` for a spectator.
    pub(crate) seat: Option<Seat>,
    /// How many of the table's events the client has: the number the next event must have.
    pub(crate) next: usize,
    /// Every event received in `events` messages.
    pub(crate) events: Vec<NumberedEvent>,
    /// Every `table` message's view.
    pub(crate) views: Vec<View>,
    /// The legal actions of a `your_turn` that no event has made stale yet.
    pub(crate) turn: Option<Vec<Action>>,
    /// The seat to act, as the last view or event said.
    pub(crate) to_act: Option<Seat>,
    /// The result, once `game_over` came.
    pub(crate) result: Option<GameResult>,
    /// Every `ack`: the action's id and the event count it reported.
    pub(crate) acks: Vec<(u64, usize)>,
    /// The id the next action gets.
    pub(crate) next_id: u64,
    /// The commitment to the game's seed, as the last `table` message that had one told it.
    pub(crate) shuffle: Option<String>,
    /// Every `presence` message: whose seat, where its player is now, and why.
    pub(crate) presence: Vec<(Seat, Presence, PresenceChange)>,
}

impl Follower {
    /// Follows `table` on `client`, which has `next` events so far.
    pub(crate) fn new(client: Client, table: TableId, next: usize) -> Follower {
        Follower {
            client,
            table,
            seat: None,
            next,
            events: Vec::new(),
            views: Vec::new(),
            turn: None,
            to_act: None,
            result: None,
            acks: Vec::new(),
            next_id: 1,
            shuffle: None,
            presence: Vec::new(),
        }
    }

    /// Takes in one message.
    pub(crate) fn observe(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Events { table, events } if *table == self.table => {
                for event in events {
                    assert_eq!(event.n, self.next, "events come in order, each once: {events:?}");
                    self.next += 1;
                    match event.event {
                        VisibleEvent::ToAct { seat, .. } => self.to_act = Some(seat),
                        VisibleEvent::GameOver { .. } => self.to_act = None,
                        _ => {}
                    }
                    self.events.push(event.clone());
                }
                self.turn = None;
            }
            ServerMsg::Table { table, role, view } if table.id == self.table => {
                if table.shuffle.is_some() {
                    self.shuffle.clone_from(&table.shuffle);
                }
                self.seat = match role {
                    Role::Seat(seat) => Some(*seat),
                    Role::Spectator => None,
                };
                if let Some(view) = view {
                    self.next = view.event_count;
                    self.to_act = match view.phase {
                        Phase::Playing { seat, .. } => Some(seat),
                        Phase::Over { .. } => None,
                    };
                    self.views.push((**view).clone());
                }
                self.turn = None;
            }
            ServerMsg::YourTurn { table, legal } if *table == self.table => self.turn = Some(legal.clone()),
            ServerMsg::GameOver { table, result } if *table == self.table => self.result = Some(result.clone()),
            ServerMsg::Ack { table, id, events } if *table == self.table => self.acks.push((*id, *events)),
            ServerMsg::Presence { table, seat, presence, change } if *table == self.table => {
                self.presence.push((*seat, *presence, *change));
            }
            _ => {}
        }
    }

    /// The next message, taken in.
    pub(crate) async fn recv(&mut self) -> ServerMsg {
        let msg = recv(&mut self.client).await;
        self.observe(&msg);
        msg
    }

    /// Reads until `done` holds.
    pub(crate) async fn until(&mut self, mut done: impl FnMut(&Follower) -> bool) {
        while !done(self) {
            self.recv().await;
        }
    }

    /// Sends `action` with the next id; returns the id.
    pub(crate) async fn act(&mut self, action: Action) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.turn = None;
        send(&mut self.client, ClientMsg::Act { table: self.table, id, action }).await;
        id
    }

    /// Plays the bots' choice on every turn, from a turn already received if any, until the game is
    /// over; refused actions fail the test.
    pub(crate) async fn play_to_end(&mut self) -> GameResult {
        if let Some(legal) = self.turn.take() {
            self.act(choose(&legal).expect("a legal action is offered")).await;
        }
        loop {
            match self.recv().await {
                ServerMsg::YourTurn { table, legal } if table == self.table => {
                    let action = choose(&legal).expect("a legal action is offered");
                    self.act(action).await;
                }
                ServerMsg::Error { code, message, .. } => panic!("an action was refused: {code:?}: {message}"),
                ServerMsg::GameOver { table, result } if table == self.table => return result,
                _ => {}
            }
        }
    }
}

/// A 2-player game at its own private table, played one move at a time by the test: it shows that
/// other connections keep playing normally while a test misbehaves beside them.
pub(crate) struct Bystander {
    url: String,
    /// The table.
    pub(crate) table: TableId,
    /// Its invite key.
    pub(crate) invite: String,
    /// Seats 0 and 1.
    players: [Follower; 2],
    /// Moves played, over every game.
    pub(crate) moves: usize,
    /// Games finished.
    pub(crate) games: usize,
}

impl Bystander {
    /// Starts a game on the server at `url`.
    pub(crate) async fn new(url: &str) -> Bystander {
        let (mut host, _, _) = guest(url, "Calm host").await;
        let (mut other, _, _) = guest(url, "Calm guest").await;
        let (table, invite) = create_table(&mut host, 2, false, SpectatorPolicy::Nobody).await;
        let table = table.id;
        send(&mut other, ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await;
        let mut players = [Follower::new(host, table, 0), Follower::new(other, table, 0)];
        for player in &mut players {
            player.until(|p| p.to_act.is_some()).await;
        }
        assert_eq!((players[0].seat, players[1].seat), (Some(Seat(0)), Some(Seat(1))));
        Bystander { url: url.to_owned(), table, invite, players, moves: 0, games: 0 }
    }

    /// Plays one move and checks that it was acknowledged and seen by both seats; starts a new game
    /// when this one is over.
    pub(crate) async fn play_one(&mut self) {
        let seat = self.players[0].to_act.expect("the game waits for a seat");
        let (actor, other) = match seat {
            Seat(0) => {
                let [a, b] = &mut self.players;
                (a, b)
            }
            _ => {
                let [a, b] = &mut self.players;
                (b, a)
            }
        };
        actor.until(|p| p.turn.is_some()).await;
        let legal = actor.turn.clone().expect("a turn");
        let action = choose(&legal).expect("a legal action is offered");
        let first = actor.next;
        let id = actor.act(action).await;
        actor.until(|p| p.acks.last().is_some_and(|(acked, _)| *acked == id)).await;
        let count = actor.acks.last().map(|(_, count)| *count).expect("acked");
        assert_eq!(actor.next, count, "the ack counts the events sent before it");
        other.until(|p| p.next == count).await;
        assert_eq!(
            other.events.iter().find(|e| e.n == first).map(|e| &e.event),
            Some(&first_event_of(seat, action, false))
        );
        self.moves += 1;
        if self.players[0].to_act.is_none() {
            for player in &mut self.players {
                player.until(|p| p.result.is_some()).await;
            }
            let games = self.games + 1;
            let moves = self.moves;
            *self = Bystander::new(&self.url).await;
            self.games = games;
            self.moves = moves;
        }
    }
}

/// One frame read off a raw WebSocket.
#[derive(Debug)]
pub(crate) struct Frame {
    /// 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    pub(crate) opcode: u8,
    /// The payload.
    pub(crate) payload: Vec<u8>,
}

impl Frame {
    /// The close code and reason of a close frame.
    pub(crate) fn close(&self) -> Option<(u16, String)> {
        (self.opcode == 8 && self.payload.len() >= 2).then(|| {
            let code = u16::from_be_bytes([self.payload[0], self.payload[1]]);
            (code, String::from_utf8_lossy(&self.payload[2..]).into_owned())
        })
    }

    /// The text of a text frame.
    pub(crate) fn text(&self) -> Option<&str> {
        (self.opcode == 1).then(|| std::str::from_utf8(&self.payload).expect("text frames are UTF-8"))
    }
}

/// A WebSocket client written by hand over TCP: it reads only when told to, so it never answers a ping
/// (nor writes anything the server has not asked for, which after a close would make the server's side
/// reset the connection), and its receive buffer can be made small.
pub(crate) struct RawWs {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl RawWs {
    /// Connects to `addr` and upgrades to a WebSocket; with `receive_buffer`, the socket's receive
    /// buffer is set to that size first.
    pub(crate) async fn connect(addr: SocketAddr, receive_buffer: Option<u32>) -> RawWs {
        let socket = TcpSocket::new_v4().expect("a socket");
        if let Some(size) = receive_buffer {
            socket.set_recv_buffer_size(size).expect("a receive buffer size");
        }
        let mut stream = socket.connect(addr).await.expect("connects");
        let request = format!(
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.expect("the upgrade request is sent");
        let mut buffer = Vec::new();
        let end = loop {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let mut chunk = [0u8; 1024];
            let read = stream.read(&mut chunk).await.expect("the upgrade response");
            assert!(read > 0, "the server closed during the upgrade");
            buffer.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
        assert!(head.starts_with("HTTP/1.1 101"), "the upgrade was refused: {head}");
        buffer.drain(..end);
        RawWs { stream, buffer }
    }

    /// Sends a text frame, masked as a client must.
    pub(crate) async fn send_text(&mut self, text: &str) {
        assert!(self.try_send_text(text).await, "the frame is sent");
    }

    /// Sends a text frame; false when the socket is closed.
    pub(crate) async fn try_send_text(&mut self, text: &str) -> bool {
        let payload = text.as_bytes();
        let mut frame = vec![0x81];
        match payload.len() {
            len @ 0..=125 => frame.push(0x80 | len as u8),
            len => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&u16::try_from(len).expect("a short frame").to_be_bytes());
            }
        }
        // The zero mask leaves the payload as it is.
        frame.extend_from_slice(&[0, 0, 0, 0]);
        frame.extend_from_slice(payload);
        self.stream.write_all(&frame).await.is_ok()
    }

    /// The JSON messages of `frames`, each parsed.
    pub(crate) fn messages(frames: &[Frame]) -> Vec<ServerMsg> {
        frames
            .iter()
            .filter_map(Frame::text)
            .map(|text| serde_json::from_str(text).expect("a message of the protocol"))
            .collect()
    }

    /// Reads until the server closes the connection; returns every frame it sent.
    pub(crate) async fn read_to_end(self) -> Vec<Frame> {
        self.read_until_closed(false).await
    }

    /// Reads until the server closes the connection, which it must do cleanly (its socket closed with
    /// nothing of the client's left unread, or the client would see a reset, which can discard what was
    /// still on its way, close frame included); returns every frame it sent.
    pub(crate) async fn read_to_clean_end(self) -> Vec<Frame> {
        self.read_until_closed(true).await
    }

    async fn read_until_closed(mut self, clean: bool) -> Vec<Frame> {
        let mut rest = Vec::new();
        // A reset after the last frame ends the stream as well as a clean close does, unless `clean`.
        let ended = self.stream.read_to_end(&mut rest).await;
        assert!(!clean || ended.is_ok(), "the server reset the connection: {ended:?}");
        self.buffer.extend_from_slice(&rest);
        let mut frames = Vec::new();
        let mut bytes = &self.buffer[..];
        while bytes.len() >= 2 {
            let opcode = bytes[0] & 0x0f;
            assert_eq!(bytes[1] & 0x80, 0, "the server does not mask its frames");
            let (len, header) = match bytes[1] & 0x7f {
                126 if bytes.len() >= 4 => (usize::from(u16::from_be_bytes([bytes[2], bytes[3]])), 4),
                127 if bytes.len() >= 10 => {
                    let mut len = [0u8; 8];
                    len.copy_from_slice(&bytes[2..10]);
                    (usize::try_from(u64::from_be_bytes(len)).expect("a frame that fits in memory"), 10)
                }
                126 | 127 => break,
                len => (usize::from(len), 2),
            };
            if bytes.len() < header + len {
                break;
            }
            frames.push(Frame { opcode, payload: bytes[header..header + len].to_vec() });
            bytes = &bytes[header + len..];
        }
        frames
    }
}

/// An answer to an HTTP request: status, content type and body.
#[derive(Debug)]
pub(crate) struct HttpAnswer {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) body: String,
}

impl HttpAnswer {
    /// The body as JSON.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The stable code of an error answer.
    pub(crate) fn error_code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or_else(|| panic!("not an API error: {}", self.body)).to_owned()
    }
}

/// GETs `url` until it answers 200 or 5 s have passed, and returns the last answer: a finished game's
/// result is stored in the background, after its `game_over`.
pub(crate) async fn http_get_stored(url: &str) -> HttpAnswer {
    let mut answer = http_get(url, "application/json").await;
    for _ in 0..50 {
        if answer.status == 200 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        answer = http_get(url, "application/json").await;
    }
    answer
}

/// `method url` (`GET`, `POST` or `DELETE`) with a bearer `token` and a JSON `body` when given, from a browser
/// that names itself "Test browser 2": the status and the body as JSON (`null` when empty), whatever the status.
pub(crate) async fn http_call(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value) {
    let (method, url, token) = (method.to_owned(), url.to_owned(), token.map(str::to_owned));
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let auth = token.map(|t| format!("Bearer {t}")).unwrap_or_default();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let with_body = |request: ureq::RequestBuilder<ureq::typestate::WithBody>| {
            request
                .header("Authorization", &auth)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Test browser 2")
                .send(body.as_bytes())
        };
        let answer = match method.as_str() {
            "GET" => agent.get(&url).header("Authorization", &auth).call(),
            "POST" => with_body(agent.post(&url)),
            "DELETE" => with_body(agent.delete(&url).force_send_body()),
            other => panic!("no method {other}"),
        };
        let mut answer = answer.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        let status = answer.status().as_u16();
        let text = answer.body_mut().read_to_string().unwrap_or_else(|e| panic!("reading {url}: {e}"));
        (status, if text.is_empty() { serde_json::Value::Null } else { serde_json::from_str(&text).expect("JSON") })
    })
    .await
    .expect("the request thread")
}

/// `GET url` with `accept` as the Accept header, whatever the status.
pub(crate) async fn http_get(url: &str, accept: &str) -> HttpAnswer {
    let (url, accept) = (url.to_owned(), accept.to_owned());
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut answer = agent.get(&url).header("Accept", &accept).call().unwrap_or_else(|e| panic!("GET {url}: {e}"));
        let status = answer.status().as_u16();
        let content_type =
            answer.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        let body = answer.body_mut().read_to_string().unwrap_or_else(|e| panic!("reading GET {url}: {e}"));
        HttpAnswer { status, content_type, body }
    })
    .await
    .expect("the request thread")
}

use crate::pg;
use crate::proxy;
#[allow(unused_imports, reason = "each test file uses a different part")]
pub(crate) use pg::PgDatabase;
#[allow(unused_imports, reason = "each test file uses a different part")]
pub(crate) use proxy::Proxy;

impl RawWs {
    /// Sends one frame with `opcode` (1 text, 2 binary) and `payload` exactly as given, masked with the
    /// zero mask: text that is not UTF-8, binary frames, frames over the size limit. False when the
    /// socket is closed.
    pub(crate) async fn try_send_frame(&mut self, opcode: u8, payload: &[u8]) -> bool {
        let mut frame = vec![0x80 | (opcode & 0x0f)];
        match payload.len() {
            len @ 0..=125 => frame.push(0x80 | len as u8),
            len => match u16::try_from(len) {
                Ok(len) => {
                    frame.push(0x80 | 126);
                    frame.extend_from_slice(&len.to_be_bytes());
                }
                Err(_) => {
                    frame.push(0x80 | 127);
                    frame.extend_from_slice(&(len as u64).to_be_bytes());
                }
            },
        }
        frame.extend_from_slice(&[0, 0, 0, 0]);
        frame.extend_from_slice(payload);
        self.stream.write_all(&frame).await.is_ok()
    }
}

/// The `p`-th percentile (0 to 100) of `samples`, which it sorts; zero for none.
pub(crate) fn percentile(samples: &mut [std::time::Duration], p: f64) -> std::time::Duration {
    if samples.is_empty() {
        return std::time::Duration::ZERO;
    }
    samples.sort_unstable();
    let rank = ((p / 100.0) * (samples.len() - 1) as f64).round() as usize;
    samples[rank.min(samples.len() - 1)]
}

/// `p50 / p99 / max` of `samples`, in milliseconds, for a test's printout.
pub(crate) fn latency_line(samples: &mut [std::time::Duration]) -> String {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let (p50, p99, max) = (percentile(samples, 50.0), percentile(samples, 99.0), percentile(samples, 100.0));
    format!("{} samples, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms", samples.len(), ms(p50), ms(p99), ms(max))
}
