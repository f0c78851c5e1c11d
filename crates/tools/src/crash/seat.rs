//! The harness's bots: one per seat, each with its own connection, playing its seat across the server's
//! lives and keeping what the server acknowledged to it in each.
//!
//! With several nodes a seat's connection is to one node, chosen by the harness; when that node dies the
//! bot connects to the next live one and joins again with `since`. When the table itself moves (its node
//! died or lost its lease: `table_moved`, or `no_such_table` / `unavailable` while no node has adopted it
//! yet) the bot joins it again on the same connection, a little later, until the table is back or
//! [`MOVE_LIMIT`] has passed.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use romirami_client::bots::choose_json;
use romirami_client::{Client, ClientError};
use romirami_game::Seat;
use romirami_protocol::{ClientMsg, ErrorCode, Role, ServerMsg, SpectatorPolicy, TableId, TableState};
use serde_json::Value;
use tokio::sync::watch;

use super::CrashError;

/// The server's messages with every game's payloads as JSON, so that one bot plays any game.
type Msg = ServerMsg<Value, Value, Vec<Value>, Value>;

/// The longest a seat waits for its table to come back after it moved before the run fails.
pub(super) const MOVE_LIMIT: Duration = Duration::from_secs(30);
/// The pause before joining a table again that was not found, or moved.
const MOVE_RETRY: Duration = Duration::from_millis(150);
/// How long a join may stay unanswered before it is sent again (it may have gone to a node that died).
const JOIN_PATIENCE: Duration = Duration::from_secs(2);

/// How many of the last messages a bot keeps, to say what it saw when it fails.
const RECENT: usize = 12;

/// The live nodes' WebSocket URLs, by node: `None` while a node is down.
pub(super) type NodeUrls = watch::Receiver<Vec<Option<String>>>;

/// One life of a seat as its bot saw it — from a (re)join until its connection broke or its table moved:
/// what was acknowledged, and what was sent and never answered.
#[derive(Clone, Debug, Default)]
pub(super) struct Life {
    pub acknowledged: Vec<Value>,
    pub unanswered: Option<Value>,
}

/// When things happened to a seat, for the failover figures.
#[derive(Clone, Debug, Default)]
pub(super) struct Timeline {
    /// When each message bringing the seat's game forward arrived (events, a full table, the end).
    pub events: Vec<Instant>,
    /// When each of the seat's actions was acknowledged.
    pub acks: Vec<Instant>,
    /// When each connection was made, and to which node.
    pub connections: Vec<(Instant, usize)>,
}

/// A seat's bot across the server's lives.
pub(super) struct SeatBot {
    token: String,
    pub game: &'static str,
    pub options: Option<Value>,
    pub table: TableId,
    pub seat: Seat,
    pub lives: Vec<Life>,
    /// The result the server showed this seat in `game_over`.
    pub result: Option<Value>,
    pub timeline: Timeline,
    /// The number of the table's events the bot has seen (for `since`), once it knows it.
    since: Option<usize>,
    /// Whether the table may move between nodes (a cluster): then `no_such_table` means "not adopted yet".
    cluster: bool,
    /// The last messages the bot had, to say what it saw when it fails.
    recent: std::collections::VecDeque<String>,
}

/// How one life of a seat's connection ended.
enum LifeEnd {
    /// The game is over.
    Over,
    /// The connection failed: the node died (or is dying).
    Lost,
}

async fn send(client: &mut Client, msg: &ClientMsg<Value>) -> Result<(), ClientError> {
    client.send_json(&serde_json::to_value(msg).map_err(|e| ClientError::Unreadable(e.to_string()))?).await
}

impl SeatBot {
    /// Plays the seat across restarts until its game is over. `first` is the connection the seat was
    /// opened on, and its node.
    pub(super) async fn run(
        mut self,
        mut nodes: NodeUrls,
        acknowledged: Arc<AtomicUsize>,
        first: (usize, Client),
    ) -> Result<SeatBot, CrashError> {
        let (mut node, client) = first;
        let mut first = Some(client);
        loop {
            let rejoin = first.is_none();
            let mut client = match first.take() {
                Some(client) => client,
                None => {
                    let (index, client) = connect(&mut nodes, node + 1, &self.token).await?;
                    node = index;
                    client
                }
            };
            self.timeline.connections.push((Instant::now(), node));
            self.lives.push(Life::default());
            match self.play_life(&mut client, rejoin, &acknowledged).await? {
                LifeEnd::Over => return Ok(self),
                // Give the harness a moment to mark the node down (or bring it back).
                LifeEnd::Lost => {
                    if tokio::time::timeout(Duration::from_millis(200), nodes.changed()).await.is_ok_and(|r| r.is_err())
                    {
                        return Err(CrashError::Bot("the harness stopped".into()));
                    }
                }
            }
        }
    }

    /// Ends the current life with `unanswered` as its action sent and never answered.
    fn end_life(&mut self, unanswered: Option<Value>) {
        if let Some(life) = self.lives.last_mut() {
            life.unanswered = unanswered;
        }
    }

    fn lost(&mut self, unanswered: Option<Value>) -> LifeEnd {
        self.end_life(unanswered);
        LifeEnd::Lost
    }

    /// Joins the table again: with `since` on a cluster (the catch-up a moving table's players use), with
    /// the full table on a single server, as the harness always did there.
    async fn join(&self, client: &mut Client) -> Result<(), ClientError> {
        let since = if self.cluster { self.since } else { None };
        send(client, &ClientMsg::Join { table: self.table, invite: None, since }).await
    }

    async fn play_life(
        &mut self,
        client: &mut Client,
        rejoin: bool,
        acknowledged: &AtomicUsize,
    ) -> Result<LifeEnd, CrashError> {
        let table = self.table;
        // Since when the table has been away (moved, not found), and when the last join went out unanswered.
        let mut away: Option<Instant> = None;
        let mut joining: Option<Instant> = None;
        if rejoin {
            if self.join(client).await.is_err() {
                return Ok(LifeEnd::Lost);
            }
            joining = Some(Instant::now());
        }
        let mut next_id = 1_000_000 * self.lives.len() as u64;
        let mut pending: Option<(u64, Value)> = None;
        loop {
            let patience = if joining.is_some() { JOIN_PATIENCE } else { Duration::from_secs(60) };
            let msg: Msg = match client.recv_as(patience).await {
                Ok(msg) => msg,
                Err(ClientError::Timeout(_)) if joining.is_some() => {
                    self.still_away(away.get_or_insert_with(Instant::now))?;
                    if self.join(client).await.is_err() {
                        return Ok(self.lost(None));
                    }
                    joining = Some(Instant::now());
                    continue;
                }
                Err(ClientError::Timeout(_)) => {
                    return Err(CrashError::Bot(format!(
                        "{} of {table} waited 60 s; its last messages: {:?}",
                        self.seat, self.recent
                    )));
                }
                Err(ClientError::Unreadable(text)) => return Err(CrashError::Bot(format!("unreadable: {text}"))),
                Err(_) => return Ok(self.lost(pending.map(|(_, action)| action))),
            };
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            let mut line = format!("{msg:?}");
            line.truncate(160);
            self.recent.push_back(format!("life {}: {line}", self.lives.len()));
            if answers_join(&msg, table) {
                joining = None;
                away = None;
            }
            match msg {
                // A turn offered while an action is unanswered is stale (a join sent twice is answered twice):
                // the answer comes first, and a new `your_turn` after it if the seat is still to act.
                ServerMsg::YourTurn { table: t, legal } if t == table && pending.is_none() => {
                    let action = choose_json(self.game, &legal)
                        .ok_or_else(|| CrashError::Bot("no legal action offered".into()))?;
                    next_id += 1;
                    pending = Some((next_id, action.clone()));
                    if send(client, &ClientMsg::Act { table, id: next_id, action: action.clone() }).await.is_err() {
                        return Ok(self.lost(Some(action)));
                    }
                }
                ServerMsg::Ack { table: t, id, .. } if t == table => match pending.take() {
                    Some((sent, action)) if sent == id => {
                        if let Some(life) = self.lives.last_mut() {
                            life.acknowledged.push(action);
                        }
                        self.timeline.acks.push(Instant::now());
                        acknowledged.fetch_add(1, Ordering::Relaxed);
                    }
                    other => return Err(CrashError::Bot(format!("an ack for {id} while waiting for {other:?}"))),
                },
                ServerMsg::Events { table: t, events } if t == table => {
                    if let Some(last) = events.last() {
                        self.since = Some(last.n + 1);
                        self.timeline.events.push(Instant::now());
                    }
                }
                ServerMsg::GameOver { table: t, result } if t == table => {
                    self.timeline.events.push(Instant::now());
                    self.result = Some(result);
                    return Ok(LifeEnd::Over);
                }
                ServerMsg::Table { table: summary, role, view } if summary.id == table => {
                    // Seats are given in the order the joins arrive: the server says which is ours.
                    if let Role::Seat(seat) = role {
                        self.seat = seat;
                    }
                    if summary.state == TableState::Finished {
                        return Ok(LifeEnd::Over);
                    }
                    let count = view.as_ref().and_then(|v| v.get("event_count")).and_then(Value::as_u64);
                    if let Some(count) = count {
                        self.since = usize::try_from(count).ok();
                        self.timeline.events.push(Instant::now());
                    }
                }
                // A finished game is not brought back by a restart: it is over.
                ServerMsg::Error { code: ErrorCode::NoSuchTable, table: Some(t), .. }
                    if t == table && !self.cluster =>
                {
                    return Ok(LifeEnd::Over);
                }
                // The table is between nodes: what was sent and not answered may be in or out (a life ends),
                // and the seat joins again, on this connection, until the table is back.
                ServerMsg::Error {
                    code: code @ (ErrorCode::TableMoved | ErrorCode::NoSuchTable | ErrorCode::Unavailable),
                    table: Some(t),
                    ..
                } if t == table && self.cluster => {
                    let since = *away.get_or_insert_with(Instant::now);
                    self.still_away(&since)?;
                    if joining.is_none() || pending.is_some() || code == ErrorCode::TableMoved {
                        self.end_life(pending.take().map(|(_, action)| action));
                        self.lives.push(Life::default());
                        next_id = 1_000_000 * self.lives.len() as u64;
                    }
                    tokio::time::sleep(MOVE_RETRY).await;
                    if self.join(client).await.is_err() {
                        return Ok(LifeEnd::Lost);
                    }
                    joining = Some(Instant::now());
                }
                ServerMsg::Error { code, message, .. } => {
                    return Err(CrashError::Bot(format!(
                        "{} of {table}: {code:?}: {message}; its last messages: {:?}",
                        self.seat, self.recent
                    )));
                }
                _ => {}
            }
        }
    }

    /// Fails when the table has been away longer than [`MOVE_LIMIT`].
    fn still_away(&self, since: &Instant) -> Result<(), CrashError> {
        if since.elapsed() > MOVE_LIMIT {
            return Err(CrashError::Bot(format!(
                "{} of {}: the table did not come back on any node within {MOVE_LIMIT:?}; its last messages: {:?}",
                self.seat, self.table, self.recent
            )));
        }
        Ok(())
    }
}

/// Whether `msg` shows that a join of `table` was answered: the table is back.
fn answers_join(msg: &Msg, table: TableId) -> bool {
    match msg {
        ServerMsg::Table { table: summary, .. } => summary.id == table,
        ServerMsg::Events { table: t, .. } | ServerMsg::YourTurn { table: t, .. } => *t == table,
        _ => false,
    }
}

/// Connects with `token` to the first live node from `from` on (in turn, wrapping), waiting for one when
/// none answers.
async fn connect(nodes: &mut NodeUrls, from: usize, token: &str) -> Result<(usize, Client), CrashError> {
    loop {
        let urls = nodes.borrow_and_update().clone();
        for k in 0..urls.len() {
            let index = (from + k) % urls.len();
            if let Some(url) = &urls[index]
                && let Ok((client, _)) = Client::returning(url, token).await
            {
                return Ok((index, client));
            }
        }
        if tokio::time::timeout(Duration::from_millis(200), nodes.changed()).await.is_ok_and(|r| r.is_err()) {
            return Err(CrashError::Bot("the harness stopped".into()));
        }
    }
}

/// Seats the bots of one table of `game` with `options`: seat `i` connects to `urls[i]` (a node's index
/// and URL); the host creates the table, the others join by its invite. Returns each seat's bot and its
/// connection once the game has started.
pub(super) async fn open_table(
    urls: &[(usize, String)],
    game: &'static str,
    options: Option<Value>,
    name: &str,
    cluster: bool,
) -> Result<Vec<(SeatBot, (usize, Client))>, CrashError> {
    let bot_error = |e: ClientError| CrashError::Bot(e.to_string());
    let players = u8::try_from(urls.len()).map_err(|_| CrashError::Bot("too many seats".into()))?;
    let mut seats = Vec::new();
    for (seat, (node, url)) in urls.iter().enumerate() {
        let (client, _, token) = Client::guest(url, &format!("{name}-{seat}")).await.map_err(bot_error)?;
        seats.push((token, *node, client));
    }
    let host = &mut seats[0].2;
    let create = ClientMsg::CreateTable {
        seats: players,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: None,
        game: Some(game.to_owned()),
        options: options.clone(),
        rated: None,
    };
    send(host, &create).await.map_err(bot_error)?;
    let (table, invite) = loop {
        match host.recv_as::<Msg>(Duration::from_secs(10)).await.map_err(bot_error)? {
            ServerMsg::TableCreated { table, invite } => break (table.id, invite),
            ServerMsg::Error { message, .. } => return Err(CrashError::Bot(message)),
            _ => {}
        }
    };
    // One join at a time, each answered; the last one starts the game, which is stored by then: a kill
    // from here on finds the game in the store.
    for (_, _, client) in &mut seats[1..] {
        send(client, &ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await.map_err(bot_error)?;
        loop {
            match client.recv_as::<Msg>(Duration::from_secs(10)).await.map_err(bot_error)? {
                ServerMsg::Table { table: summary, .. } if summary.id == table => break,
                ServerMsg::Error { message, .. } => return Err(CrashError::Bot(message)),
                _ => {}
            }
        }
    }
    Ok((0u8..)
        .zip(seats)
        .map(|(seat, (token, node, client))| {
            let bot = SeatBot {
                token,
                game,
                options: options.clone(),
                table,
                seat: Seat(seat),
                lives: Vec::new(),
                result: None,
                timeline: Timeline::default(),
                since: None,
                cluster,
                recent: std::collections::VecDeque::new(),
            };
            (bot, (node, client))
        })
        .collect())
}
