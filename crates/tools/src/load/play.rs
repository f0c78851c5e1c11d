//! Tables of bots: one task drives each table, with one reader task per seat that stamps every frame
//! as it arrives, so that the latency of an action does not include the driver's own delays.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use super::conn::{Ws, message_type};
use super::idle::{open, say_hello};
use super::{Counters, SetUp, WorkerPlan};
use romirami_client::bots::choose_json;
use romirami_protocol::{ClientMsg, ServerMsg, SpectatorPolicy, TableId};
use serde_json::Value;

/// How long the driver waits for any answer before it counts the table as stuck.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// What a seat received, as far as the driver cares.
#[derive(Debug)]
enum Kind {
    Created(TableId, String),
    Events,
    YourTurn(Vec<Value>),
    Ack,
    GameOver,
    Error(String),
    /// The table's deal waits for this seat's contribution.
    Contribute(TableId),
    Closed,
    Other,
}

/// A frame of one seat, stamped when it arrived.
#[derive(Debug)]
struct Frame {
    seat: usize,
    kind: Kind,
    at: Instant,
}

fn classify(text: &str) -> Kind {
    match message_type(text) {
        "events" => Kind::Events,
        "ack" => Kind::Ack,
        "game_over" => Kind::GameOver,
        // Read with every game's payloads as JSON, so that one driver plays any game.
        "your_turn" | "table_created" | "error" => {
            match serde_json::from_str::<ServerMsg<Value, Value, Vec<Value>, Value>>(text) {
                Ok(ServerMsg::YourTurn { legal, .. }) => Kind::YourTurn(legal),
                Ok(ServerMsg::TableCreated { table, invite }) => Kind::Created(table.id, invite),
                Ok(ServerMsg::Error { code, message, .. }) => Kind::Error(format!("{code:?}: {message}")),
                Ok(_) | Err(_) => Kind::Error(format!("unreadable: {text}")),
            }
        }
        "table" if text.contains("\"contributions\"") && text.contains("\"waiting\"") => asked_to_contribute(text),
        _ => Kind::Other,
    }
}

/// A `table` whose deal waits for the recipient's seat: `Contribute`, as a browser would answer it.
fn asked_to_contribute(text: &str) -> Kind {
    let Ok(msg) = serde_json::from_str::<Value>(text) else { return Kind::Other };
    let seat = msg["role"]["seat"].as_u64().and_then(|seat| usize::try_from(seat).ok());
    let waiting = seat.is_some_and(|seat| msg["table"]["contributions"]["seats"].get(seat) == Some(&"waiting".into()));
    match serde_json::from_value::<TableId>(msg["table"]["id"].clone()) {
        Ok(table) if waiting => Kind::Contribute(table),
        _ => Kind::Other,
    }
}

async fn read_seat(
    seat: usize,
    mut stream: SplitStream<Ws>,
    frames: mpsc::UnboundedSender<Frame>,
    counters: Arc<Counters>,
) {
    while let Some(frame) = stream.next().await {
        match frame {
            Ok(Message::Text(text)) => {
                let at = Instant::now();
                Counters::add(&counters.frames_received, 1);
                if frames.send(Frame { seat, kind: classify(&text), at }).is_err() {
                    return;
                }
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    let _ = frames.send(Frame { seat, kind: Kind::Closed, at: Instant::now() });
}

/// Why a table stopped.
enum Stop {
    /// The run is over.
    Stopped,
    /// Something went wrong (already counted).
    Failed,
}

/// What a table plays.
#[derive(Clone, Debug)]
pub(crate) struct Game {
    /// The game's name in the protocol.
    pub name: String,
    /// Its table options, if any.
    pub options: Option<Value>,
    /// How many seats the server's strong bot plays (given to it after the table is created), beside
    /// the connections' seats.
    pub bots: usize,
}

/// One table: its seats' connections, and the frames they receive.
struct Driver {
    plan: Arc<WorkerPlan>,
    game: Game,
    sinks: Vec<SplitSink<Ws, Message>>,
    frames: mpsc::UnboundedReceiver<Frame>,
    counters: Arc<Counters>,
    stop: watch::Receiver<bool>,
    interval: Duration,
    next_action: Instant,
    /// The seat to act and what it may do, once the server said so.
    turn: Option<(usize, Vec<Value>)>,
    /// Seats told that this game is over.
    over: usize,
    next_id: u64,
    /// The seats that sent their contribution to the current table's deal (once each: every change of
    /// the deal is sent as a `table` that still says `waiting` for the others).
    contributed: Vec<(usize, TableId)>,
}

/// Runs table `n`, each seat connected to its server of `servers`, until the run stops: connects its
/// seats, then plays one game after another.
#[allow(clippy::too_many_arguments, reason = "one task's whole context, passed once")]
pub(crate) async fn table(
    plan: Arc<WorkerPlan>,
    servers: Vec<SocketAddr>,
    n: usize,
    game: Game,
    interval: Duration,
    ramp: Arc<Semaphore>,
    counters: Arc<Counters>,
    stop: watch::Receiver<bool>,
) {
    let set_up = SetUp(counters.clone());
    let (sender, frames) = mpsc::unbounded_channel();
    let mut sinks = Vec::new();
    for (seat, &server) in servers.iter().enumerate() {
        let Some(mut ws) = open(&plan, server, &ramp, &counters).await else { return };
        if let Err(error) = say_hello(&mut ws, &format!("b{}-{n}-{seat}", plan.index), &counters).await {
            counters.error(|| format!("hello: {error}"));
            return;
        }
        let (sink, stream) = ws.split();
        sinks.push(sink);
        tokio::spawn(read_seat(seat, stream, sender.clone(), counters.clone()));
        Counters::add(&counters.connections, 1);
    }
    drop(sender);
    let mut driver = Driver {
        plan,
        game,
        sinks,
        frames,
        counters: counters.clone(),
        stop,
        interval,
        next_action: Instant::now(),
        turn: None,
        over: 0,
        next_id: 0,
        contributed: Vec::new(),
    };
    let mut set_up = Some(set_up);
    // Games follow one another until the run stops or one fails (the failure is already counted).
    while driver.game(&mut set_up).await.is_ok() {
        Counters::add(&counters.games, 1);
    }
    if set_up.is_none() {
        counters.tables.fetch_sub(1, Ordering::Relaxed);
    }
    // Closing the seats' connections ends their reader tasks.
    for mut sink in driver.sinks.drain(..) {
        let _ = sink.close().await;
        counters.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Driver {
    async fn send(&mut self, seat: usize, msg: &ClientMsg<Value>) -> Result<(), Stop> {
        let text = serde_json::to_string(msg).map_err(|e| self.fail(format!("encoding: {e}")))?;
        match self.sinks[seat].send(Message::text(text)).await {
            Ok(()) => {
                Counters::add(&self.counters.frames_sent, 1);
                Ok(())
            }
            Err(error) => Err(self.disconnect(format!("sending: {error}"))),
        }
    }

    fn fail(&self, what: String) -> Stop {
        if *self.stop.borrow() {
            return Stop::Stopped;
        }
        self.counters.error(|| what);
        Stop::Failed
    }

    fn disconnect(&self, what: String) -> Stop {
        if *self.stop.borrow() {
            return Stop::Stopped;
        }
        Counters::add(&self.counters.disconnects, 1);
        self.counters.error(|| what);
        Stop::Failed
    }

    /// The next frame of any seat; refusals, closes and silence end the table.
    async fn next(&mut self) -> Result<Frame, Stop> {
        let frame = tokio::select! {
            frame = tokio::time::timeout(ANSWER_TIMEOUT, self.frames.recv()) => frame,
            _ = self.stop.changed() => return Err(Stop::Stopped),
        };
        match frame {
            Err(_) => Err(self.fail(format!("no answer in {ANSWER_TIMEOUT:?}"))),
            Ok(None) => Err(self.disconnect("every seat closed".into())),
            Ok(Some(Frame { kind: Kind::Closed, seat, .. })) => {
                Err(self.disconnect(format!("seat {seat}'s connection closed")))
            }
            Ok(Some(Frame { kind: Kind::Error(error), seat, .. })) => Err(self.fail(format!("seat {seat}: {error}"))),
            Ok(Some(frame)) => {
                match frame.kind {
                    Kind::GameOver => self.over += 1,
                    Kind::Contribute(table) if !self.contributed.contains(&(frame.seat, table)) => {
                        self.contributed.retain(|(_, t)| *t == table);
                        self.contributed.push((frame.seat, table));
                        let mut value = [0u8; 32];
                        getrandom::fill(&mut value).map_err(|e| self.fail(format!("randomness: {e}")))?;
                        self.send(frame.seat, &ClientMsg::Contribute { table, value: hex::encode(value) }).await?;
                    }
                    _ => {}
                }
                Ok(frame)
            }
        }
    }

    /// Plays one game at a new private table. The first game of the table ends its set-up.
    async fn game(&mut self, set_up: &mut Option<SetUp>) -> Result<(), Stop> {
        let seats = self.sinks.len();
        self.send(
            0,
            &ClientMsg::CreateTable {
                seats: (seats + self.game.bots) as u8,
                public: false,
                spectators: SpectatorPolicy::Nobody,
                clock: None,
                game: Some(self.game.name.clone()),
                options: self.game.options.clone(),
                rated: None,
            },
        )
        .await?;
        let (table, invite) = loop {
            if let Frame { seat: 0, kind: Kind::Created(table, invite), .. } = self.next().await? {
                break (table, invite);
            }
        };
        for seat in 1..seats {
            self.send(seat, &ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await?;
        }
        for _ in 0..self.game.bots {
            self.send(0, &ClientMsg::AddBot { table, level: romirami_game::Level::Strong }).await?;
        }
        self.turn = None;
        self.over = 0;
        if self.wait_for_turn().await? && set_up.take().is_some() {
            Counters::add(&self.counters.tables, 1);
            // Tables start their pace at random points of the interval, so that they do not act in step.
            let phase = self.interval.mul_f64(f64::from(rand_phase(self.plan.index, table)));
            self.next_action = Instant::now() + phase;
        }
        while self.turn.is_some() {
            self.act(table).await?;
            if self.turn.is_none() && !self.wait_for_turn().await? {
                break;
            }
        }
        // Every seat gets its game_over; wait for them all, so that none is taken for the next game's.
        while self.over < seats {
            self.next().await?;
        }
        for seat in 0..seats {
            self.send(seat, &ClientMsg::Leave { table }).await?;
        }
        Ok(())
    }

    /// Reads until a seat is told to act (true) or the game is over (false).
    async fn wait_for_turn(&mut self) -> Result<bool, Stop> {
        loop {
            if self.turn.is_some() {
                return Ok(true);
            }
            if self.over > 0 {
                return Ok(false);
            }
            match self.next().await? {
                Frame { kind: Kind::YourTurn(legal), seat, .. } => self.turn = Some((seat, legal)),
                _ if self.over > 0 => return Ok(false),
                _ => {}
            }
        }
    }

    /// Plays the seat to act's move when its time comes, and waits until every seat has its events.
    async fn act(&mut self, table: TableId) -> Result<(), Stop> {
        if !self.interval.is_zero() {
            tokio::select! {
                () = tokio::time::sleep_until(self.next_action) => {}
                _ = self.stop.changed() => return Err(Stop::Stopped),
            }
            // A table that fell behind its pace does not rush to catch up.
            self.next_action = (self.next_action + self.interval).max(Instant::now());
        }
        if *self.stop.borrow() {
            return Err(Stop::Stopped);
        }
        let Some((seat, legal)) = self.turn.take() else { return Ok(()) };
        let Some(action) = choose_json(&self.game.name, &legal) else {
            return Err(self.fail("no legal action offered".into()));
        };
        self.next_id += 1;
        let id = self.next_id;
        let sent = Instant::now();
        self.send(seat, &ClientMsg::Act { table, id, action }).await?;
        let mut seen = vec![false; self.sinks.len()];
        let mut waiting = seen.len();
        let mut last = sent;
        let mut acked = false;
        while waiting > 0 || !acked {
            match self.next().await? {
                Frame { kind: Kind::Events, seat: s, at } if !seen[s] => {
                    seen[s] = true;
                    waiting -= 1;
                    last = last.max(at);
                }
                Frame { kind: Kind::Ack, seat: s, .. } if s == seat => acked = true,
                Frame { kind: Kind::YourTurn(legal), seat: s, .. } => self.turn = Some((s, legal)),
                _ => {}
            }
        }
        self.counters.action(last.duration_since(sent), self.game.bots > 0);
        Ok(())
    }
}

/// A number in [0, 1) that differs from table to table.
fn rand_phase(worker: usize, table: TableId) -> f32 {
    let bits = table.0.as_u128() as u64 ^ (worker as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (bits >> 40) as f32 / (1u64 << 24) as f32
}
