//! The load generator behind `romirami load`: measures a running server the way its operators see it.
//!
//! A run is one [`Workload`] carried out by one or more *workers*. A worker opens its share of the
//! connections (from its own loopback source address, so that many workers do not run out of
//! ephemeral ports), holds them or plays games on them for the run's duration, and reports a
//! [`Snapshot`] every second: connections held, tables playing, and what happened in that second
//! (actions, frames, errors, disconnects, the latency of every action). One process holds at most
//! as many connections as its open-file limit allows, so a large run starts several worker processes
//! of the same binary ([`spawn_worker`]) and adds up their snapshots ([`Aggregate`]).
//!
//! The workloads:
//! - [`Workload::Play`]: tables of bot players play complete games of one game (Romi Rami, or Rommi, Rami
//!   or Rumino with their options) at a chosen pace (one action per table every interval); the latency of an action runs from sending it to the moment the last
//!   seat has received the events it caused.
//! - [`Workload::Idle`]: connections that say hello and then only answer pings.
//! - [`Workload::Echo`]: the baseline. Each connection sends a text frame and waits for it to come back,
//!   against [`echo::serve`], a bare tokio-tungstenite echo server: what a WebSocket server does at all
//!   on this machine, measured with the same connection code.
//!
//! [`persist`] measures the store alone: finished games and single actions committed to a database.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

pub mod conn;
pub mod cpu;
pub mod echo;
mod idle;
pub mod persist;
mod play;
mod worker;

pub use worker::{REPORT_EVERY, run_worker, spawn_worker};

/// What the connections of a run do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Workload {
    /// Tables of bots playing complete games, one after another.
    Play {
        /// Tables to keep playing.
        tables: usize,
        /// Seats per table, within the game's range.
        players: u8,
        /// One action per table every this many milliseconds; 0 plays as fast as the server answers.
        interval_ms: u64,
        /// The game, by its name in the protocol (`romi-rami`, `rommi`, `rami`, `rumino`).
        #[serde(default = "romi_rami")]
        game: String,
        /// The game's table options; the rule book's defaults when none are given.
        #[serde(default)]
        options: Option<serde_json::Value>,
        /// Of the tables, how many seat one connection and give the other seats to the server's strong
        /// bot, whose thinking runs on the server beside the other tables; their actions' latency is
        /// counted apart.
        #[serde(default)]
        strong_bot_tables: usize,
    },
    /// Connections that say hello and then only answer pings.
    Idle {
        /// Connections to hold.
        connections: usize,
        /// Whether to say hello (not to an echo server, which would only echo it).
        hello: bool,
    },
    /// Round trips of one text frame, against an echo server.
    Echo {
        /// Connections, each with one frame in flight.
        connections: usize,
        /// The size of each frame, in bytes.
        payload_bytes: usize,
        /// A pause between round trips on one connection, in milliseconds; 0 for none.
        interval_ms: u64,
    },
}

/// How the seats of one table are spread over several servers (the nodes of a cluster).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    /// Every seat of a table on the same server; the tables in turn over the servers.
    #[default]
    Tables,
    /// The seats of each table in turn over the servers, so that a table's players sit on different
    /// nodes and its messages cross between them (seat `s` of table `n` on server `n + s`).
    Seats,
}

fn romi_rami() -> String {
    romirami_protocol::ROMI_RAMI.to_owned()
}

impl Workload {
    /// The connections this workload opens.
    pub fn connections(&self) -> usize {
        match self {
            Workload::Play { tables, players, strong_bot_tables, .. } => {
                let bot_tables = (*strong_bot_tables).min(*tables);
                (tables - bot_tables) * usize::from(*players) + bot_tables
            }
            Workload::Idle { connections, .. } | Workload::Echo { connections, .. } => *connections,
        }
    }

    /// The same workload with only `part` of its tables or connections (at least one).
    pub fn share(&self, part: usize) -> Workload {
        let part = part.max(1);
        match self.clone() {
            Workload::Play { tables, players, interval_ms, game, options, strong_bot_tables } => {
                // Each worker takes its share of the bots' tables, rounded up.
                let strong_bot_tables = (strong_bot_tables * part).div_ceil(tables.max(1)).min(part);
                Workload::Play { tables: part, players, interval_ms, game, options, strong_bot_tables }
            }
            Workload::Idle { hello, .. } => Workload::Idle { connections: part, hello },
            Workload::Echo { payload_bytes, interval_ms, .. } => {
                Workload::Echo { connections: part, payload_bytes, interval_ms }
            }
        }
    }

    /// How many units (tables or connections) the workload has.
    pub fn units(&self) -> usize {
        match self {
            Workload::Play { tables, .. } => *tables,
            Workload::Idle { connections, .. } | Workload::Echo { connections, .. } => *connections,
        }
    }
}

/// What one worker does: a workload against some servers, for a time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkerPlan {
    /// The worker's number, which its players' names carry.
    pub index: usize,
    /// What the worker's connections do: play, stay idle, or echo.
    pub workload: Workload,
    /// The servers' addresses; tables and connections are spread over them in turn.
    pub servers: Vec<SocketAddr>,
    /// How a table's seats are spread over the servers.
    #[serde(default)]
    pub spread: Spread,
    /// The WebSocket path on each server, like `/ws`.
    pub path: String,
    /// The local address to connect from (its port is chosen by the system), if any.
    pub source: Option<IpAddr>,
    /// How long to hold or play once every connection is up, in seconds.
    pub duration_s: f64,
    /// Play on past `duration_s` until this many games have ended (0: stop at `duration_s`), so that a
    /// run on a slow or loaded machine still sees whole games.
    #[serde(default)]
    pub min_games: u64,
    /// How many connections may be in their handshake at once.
    pub ramp_concurrency: usize,
}

impl WorkerPlan {
    /// The server that seat `seat` of table `n` connects to.
    pub fn seat_server(&self, n: usize, seat: usize) -> SocketAddr {
        let turn = match self.spread {
            Spread::Tables => n,
            Spread::Seats => n + seat,
        };
        self.servers[turn % self.servers.len()]
    }
}

/// What a worker reports every second. Counts are for the second just past, except the gauges
/// (`connections`, `tables`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Snapshot {
    /// Every connection and table is set up (or failed to be): the measured part has begun.
    pub ready: bool,
    /// The worker is done; this is its last snapshot.
    pub done: bool,
    /// Connections open now.
    pub connections: u64,
    /// Tables playing now.
    pub tables: u64,
    /// What was counted in this second.
    #[serde(flatten)]
    pub counts: Counts,
    /// The latency of each action, in microseconds, as `(value, count)` pairs.
    pub latency_us: Vec<(u64, u64)>,
    /// The same, of the actions at the tables with the server's strong bots.
    #[serde(default)]
    pub bot_table_latency_us: Vec<(u64, u64)>,
    /// The first error seen in this second, to show what went wrong.
    pub first_error: Option<String>,
}

/// A latency histogram: 1 µs to 10 minutes, three significant digits.
pub fn new_histogram() -> Histogram<u64> {
    // The bounds are constants that hdrhistogram accepts.
    Histogram::new_with_bounds(1, 600_000_000, 3).expect("constant histogram bounds are valid")
}

/// The counters a worker's tasks share; the reporter takes what accumulated each second.
#[derive(Debug)]
pub(crate) struct Counters {
    pub(crate) connections: AtomicU64,
    pub(crate) tables: AtomicU64,
    pub(crate) actions: AtomicU64,
    pub(crate) games: AtomicU64,
    pub(crate) frames_sent: AtomicU64,
    pub(crate) frames_received: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) disconnects: AtomicU64,
    pub(crate) connect_failures: AtomicU64,
    /// The local ports of this worker's source address.
    pub(crate) ports: conn::Ports,
    /// Units (tables or connections) whose set-up is over, successfully or not.
    pub(crate) set_up: AtomicUsize,
    latency: Mutex<Histogram<u64>>,
    bot_table_latency: Mutex<Histogram<u64>>,
    first_error: Mutex<Option<String>>,
}

impl Default for Counters {
    fn default() -> Counters {
        Counters {
            connections: AtomicU64::new(0),
            tables: AtomicU64::new(0),
            actions: AtomicU64::new(0),
            games: AtomicU64::new(0),
            frames_sent: AtomicU64::new(0),
            frames_received: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            disconnects: AtomicU64::new(0),
            connect_failures: AtomicU64::new(0),
            ports: conn::Ports::default(),
            set_up: AtomicUsize::new(0),
            latency: Mutex::new(new_histogram()),
            bot_table_latency: Mutex::new(new_histogram()),
            first_error: Mutex::new(None),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain numbers behind; carry on with them.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Counters {
    pub(crate) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// One action done, `latency` after it was sent, at a table with strong bots or not.
    pub(crate) fn action(&self, latency: Duration, at_bot_table: bool) {
        Counters::add(&self.actions, 1);
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX).max(1);
        // Values above the histogram's bound are saturated rather than lost.
        let histogram = if at_bot_table { &self.bot_table_latency } else { &self.latency };
        lock(histogram).saturating_record(micros);
    }

    pub(crate) fn error(&self, what: impl FnOnce() -> String) {
        Counters::add(&self.errors, 1);
        let mut first = lock(&self.first_error);
        if first.is_none() {
            *first = Some(what());
        }
    }

    /// What accumulated since the last call, and the gauges now.
    pub(crate) fn take(&self, ready: bool, done: bool) -> Snapshot {
        let take = |counter: &AtomicU64| counter.swap(0, Ordering::Relaxed);
        let latency = std::mem::replace(&mut *lock(&self.latency), new_histogram());
        let bot_table_latency = std::mem::replace(&mut *lock(&self.bot_table_latency), new_histogram());
        let pairs =
            |h: &Histogram<u64>| h.iter_recorded().map(|v| (v.value_iterated_to(), v.count_at_value())).collect();
        Snapshot {
            ready,
            done,
            connections: self.connections.load(Ordering::Relaxed),
            tables: self.tables.load(Ordering::Relaxed),
            counts: Counts {
                actions: take(&self.actions),
                games: take(&self.games),
                frames_sent: take(&self.frames_sent),
                frames_received: take(&self.frames_received),
                errors: take(&self.errors),
                disconnects: take(&self.disconnects),
                connect_failures: take(&self.connect_failures),
            },
            latency_us: pairs(&latency),
            bot_table_latency_us: pairs(&bot_table_latency),
            first_error: lock(&self.first_error).take(),
        }
    }
}

/// Snapshots of every worker added up: the live figures, and the totals of the measured window (from
/// the moment every worker is ready until the first one is done).
#[derive(Debug)]
pub struct Aggregate {
    workers: Vec<WorkerState>,
    /// Seconds in the measured window.
    pub window_seconds: f64,
    /// Totals of the measured window.
    pub window: Totals,
    /// Totals of the whole run (set-up included).
    pub run: Totals,
    /// The most connections held at once.
    pub peak_connections: u64,
    /// The most tables playing at once.
    pub peak_tables: u64,
    /// The first error of the run, if any.
    pub first_error: Option<String>,
}

impl Snapshot {
    /// The last snapshot of a worker that failed: done, with one error saying why.
    pub fn failed(reason: String) -> Snapshot {
        Snapshot {
            done: true,
            counts: Counts { errors: 1, ..Counts::default() },
            first_error: Some(reason),
            ..Snapshot::default()
        }
    }
}

/// The counters a snapshot carries and totals add up.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Counts {
    /// Actions (round trips, for the echo workload) completed.
    pub actions: u64,
    /// Games finished.
    pub games: u64,
    /// WebSocket data frames sent.
    pub frames_sent: u64,
    /// WebSocket data frames received.
    pub frames_received: u64,
    /// Errors: refusals from the server, unexpected answers, timeouts.
    pub errors: u64,
    /// Connections the server closed or lost while they should have stayed open.
    pub disconnects: u64,
    /// Connections that could not be opened.
    pub connect_failures: u64,
}

impl Counts {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Counts) {
        self.actions += other.actions;
        self.games += other.games;
        self.frames_sent += other.frames_sent;
        self.frames_received += other.frames_received;
        self.errors += other.errors;
        self.disconnects += other.disconnects;
        self.connect_failures += other.connect_failures;
    }

    /// Data frames sent and received.
    pub fn frames(&self) -> u64 {
        self.frames_sent + self.frames_received
    }
}

#[derive(Clone, Debug, Default)]
struct WorkerState {
    ready: bool,
    done: bool,
    connections: u64,
    tables: u64,
}

/// Sums over a span of snapshots.
#[derive(Debug)]
pub struct Totals {
    /// The events counted over the span, added up.
    pub counts: Counts,
    /// Action latency in microseconds.
    pub latency: Histogram<u64>,
    /// The same, at the tables with the server's strong bots.
    pub bot_table_latency: Histogram<u64>,
}

impl Default for Totals {
    fn default() -> Totals {
        Totals { counts: Counts::default(), latency: new_histogram(), bot_table_latency: new_histogram() }
    }
}

impl Totals {
    /// Adds what a snapshot counted.
    pub fn add_snapshot(&mut self, snapshot: &Snapshot) {
        self.counts.add(&snapshot.counts);
        for &(value, count) in &snapshot.latency_us {
            let _ = self.latency.record_n(value.max(1), count);
        }
        for &(value, count) in &snapshot.bot_table_latency_us {
            let _ = self.bot_table_latency.record_n(value.max(1), count);
        }
    }

    /// The latency at quantile `q` (0 to 1), in milliseconds.
    pub fn latency_ms(&self, q: f64) -> f64 {
        self.latency.value_at_quantile(q) as f64 / 1000.0
    }

    /// The largest latency, in milliseconds.
    pub fn max_latency_ms(&self) -> f64 {
        self.latency.max() as f64 / 1000.0
    }
}

impl Aggregate {
    /// An aggregate of `workers` workers.
    pub fn new(workers: usize) -> Aggregate {
        Aggregate {
            workers: vec![WorkerState::default(); workers],
            window_seconds: 0.0,
            window: Totals::default(),
            run: Totals::default(),
            peak_connections: 0,
            peak_tables: 0,
            first_error: None,
        }
    }

    /// Whether the measured window is open: every worker ready, none done.
    pub fn measuring(&self) -> bool {
        self.workers.iter().all(|w| w.ready && !w.done)
    }

    /// Whether every worker has set up its units (or ended).
    pub fn all_ready(&self) -> bool {
        self.workers.iter().all(|w| w.ready || w.done)
    }

    /// Whether every worker is done.
    pub fn all_done(&self) -> bool {
        self.workers.iter().all(|w| w.done)
    }

    /// Connections held now, over all workers.
    pub fn connections(&self) -> u64 {
        self.workers.iter().map(|w| w.connections).sum()
    }

    /// Tables playing now, over all workers.
    pub fn tables(&self) -> u64 {
        self.workers.iter().map(|w| w.tables).sum()
    }

    /// Adds worker `index`'s snapshot; `seconds` is the span it covers, for the window.
    pub fn add(&mut self, index: usize, snapshot: &Snapshot, seconds: f64) {
        if let Some(worker) = self.workers.get_mut(index) {
            worker.ready |= snapshot.ready;
            worker.done |= snapshot.done;
            worker.connections = snapshot.connections;
            worker.tables = snapshot.tables;
        }
        // A snapshot is in the window when its worker was ready for the whole second it covers (a
        // worker marks ready only the seconds after the one in which it got ready) and every other
        // worker is ready too. The window's length is the seconds so counted, shared among the workers.
        if snapshot.ready && !snapshot.done && self.measuring() {
            self.window.add_snapshot(snapshot);
            self.window_seconds += seconds / self.workers.len() as f64;
        }
        self.run.add_snapshot(snapshot);
        self.peak_connections = self.peak_connections.max(self.connections());
        self.peak_tables = self.peak_tables.max(self.tables());
        if self.first_error.is_none() {
            self.first_error.clone_from(&snapshot.first_error);
        }
    }
}

/// Raises this process's soft limit on open files to its hard limit; returns the limit now.
///
/// # Errors
/// When the system refuses.
pub fn raise_open_files_limit() -> std::io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

/// The resident memory of process `pid`, in bytes, from `/proc/PID/status` (Linux).
pub fn resident_bytes(pid: u32) -> Option<u64> {
    let kib = cpu::process(pid)?.status().ok()?.vmrss?;
    Some(kib * 1024)
}

/// Counts a unit's set-up as over when dropped, however it ended.
pub(crate) struct SetUp(pub(crate) Arc<Counters>);

impl Drop for SetUp {
    fn drop(&mut self) {
        self.0.set_up.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_go_to_one_server_or_to_the_servers_in_turn() {
        let servers: Vec<SocketAddr> = (0..3).map(|i| SocketAddr::from(([127, 0, 0, 1], 9000 + i))).collect();
        let workload = Workload::Play {
            tables: 4,
            players: 4,
            interval_ms: 0,
            game: romi_rami(),
            options: None,
            strong_bot_tables: 0,
        };
        let mut plan = WorkerPlan {
            index: 0,
            workload,
            servers: servers.clone(),
            spread: Spread::Tables,
            path: "/ws".into(),
            source: None,
            duration_s: 1.0,
            min_games: 0,
            ramp_concurrency: 1,
        };
        let seats = |plan: &WorkerPlan, n: usize| (0..4).map(|seat| plan.seat_server(n, seat)).collect::<Vec<_>>();
        assert_eq!(seats(&plan, 1), vec![servers[1]; 4], "a table's seats on its server");
        assert_eq!(seats(&plan, 3), vec![servers[0]; 4], "tables in turn");
        plan.spread = Spread::Seats;
        assert_eq!(seats(&plan, 1), vec![servers[1], servers[2], servers[0], servers[1]], "seats in turn");
    }
}
