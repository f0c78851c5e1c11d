//! The server's metrics, served at `GET /metrics` in the Prometheus text format.
//!
//! The metrics are process-wide (one registry, [`REGISTRY`]): a server is one process, and the hooks sit
//! in places (a table's task, the committer, each connection) that would otherwise all need a handle
//! passed down. Several servers in one process (the tests) therefore add up into the same figures.
//!
//! | metric | kind | what it counts |
//! |---|---|---|
//! | `romirami_connections` | gauge | open WebSocket connections |
//! | `romirami_connections_opened_total` | counter | connections upgraded since the start |
//! | `romirami_tables{state}` | gauge | live tables, by `waiting`, `playing`, `finished` |
//! | `romirami_actions_total` | counter | actions applied (`rate()` of it is actions/s) |
//! | `romirami_action_seconds` | histogram | from an action reaching its table to its ack being queued, durable commit included |
//! | `romirami_bot_think_seconds{level}` | histogram | one decision of the server's bot, by level, on the bot pool (waiting for a thread not included) |
//! | `romirami_db_commit_seconds` | histogram | one group-commit transaction of actions |
//! | `romirami_db_committed_rows_total` | counter | action rows committed |
//! | `romirami_frames_received_total`, `romirami_frames_sent_total` | counter | WebSocket data frames |
//! | `romirami_rejected_messages_total{reason}` | counter | errors sent to clients by their code, and connections closed by the server by why |
//! | `romirami_cluster_owned_tables` | gauge | tables whose lease this node holds (a cluster's node) |
//! | `romirami_cluster_lease_renewals_total`, `romirami_cluster_leases_lost_total` | counter | leases renewed, and lost (not renewable) |
//! | `romirami_cluster_takeovers_total` | counter | tables taken over from nodes whose leases ran out |
//! | `romirami_cluster_forwarded_total{way}` | counter | table commands forwarded to other nodes (`commands_out`) and run for them (`commands_in`), messages sent to other nodes' connections (`messages_out`) and delivered to this node's (`messages_in`) |
//! | `romirami_cluster_nats_rtt_seconds` | histogram | a round trip to the NATS server, measured at every lease renewal |
//! | `romirami_tournament_pairing_seconds` | histogram | one step of a tournament's director that seated players (a Swiss round paired, an arena's free players seated), storing excluded |
//! | `romirami_pushes_total{outcome}` | counter | Web Push attempts by outcome: `delivered`, `gone` (the endpoint was forgotten), `retried`, `failed` (given up), `dropped` (the queue was full) |
//! | `process_*` | | the process's resident memory, CPU time and open files (Linux) |

use std::sync::LazyLock;
use std::time::Instant;

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
    TextEncoder,
};

use crate::protocol::{ErrorCode, TableState};

/// The registry every metric of this module is in, with the process collector.
pub static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let registry = Registry::new();
    #[cfg(target_os = "linux")]
    {
        // The collector reads /proc/self; failing to register it only loses the process_* metrics.
        let _ = registry.register(Box::new(prometheus::process_collector::ProcessCollector::for_self()));
    }
    registry
});

/// Registers a metric with [`REGISTRY`]. Every name and label here is a constant that Prometheus
/// accepts, so this fails only on a programming mistake, which the tests catch.
fn register<M: prometheus::core::Collector + Clone + 'static>(metric: M) -> M {
    if let Err(error) = REGISTRY.register(Box::new(metric.clone())) {
        tracing::error!(%error, "a metric could not be registered");
    }
    metric
}

/// Buckets for latencies: 50 µs to 2.5 s.
const LATENCY_BUCKETS: &[f64] =
    &[0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

fn histogram(name: &str, help: &str) -> Histogram {
    let histogram = Histogram::with_opts(HistogramOpts::new(name, help).buckets(LATENCY_BUCKETS.to_vec()));
    // The options are constants (a valid name, increasing buckets): this cannot fail.
    register(histogram.expect("constant histogram options are valid"))
}

fn counter(name: &str, help: &str) -> IntCounter {
    register(IntCounter::new(name, help).expect("constant counter options are valid"))
}

static CONNECTIONS: LazyLock<IntGauge> = LazyLock::new(|| {
    register(
        IntGauge::new("romirami_connections", "Open WebSocket connections.").expect("constant gauge options are valid"),
    )
});
static CONNECTIONS_OPENED: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_connections_opened_total", "WebSocket connections upgraded."));
static TABLES: LazyLock<IntGaugeVec> = LazyLock::new(|| {
    register(
        IntGaugeVec::new(Opts::new("romirami_tables", "Live tables by state."), &["state"])
            .expect("constant gauge options are valid"),
    )
});
static ACTIONS: LazyLock<IntCounter> = LazyLock::new(|| counter("romirami_actions_total", "Actions applied."));
static ACTION_SECONDS: LazyLock<Histogram> = LazyLock::new(|| {
    histogram("romirami_action_seconds", "From an action reaching its table to its ack, durable commit included.")
});
static BOT_THINK_SECONDS: LazyLock<HistogramVec> = LazyLock::new(|| {
    let opts = HistogramOpts::new("romirami_bot_think_seconds", "One decision of the server's bot, by level.")
        .buckets(LATENCY_BUCKETS.to_vec());
    register(HistogramVec::new(opts, &["level"]).expect("constant histogram options are valid"))
});
static PAIRING_SECONDS: LazyLock<Histogram> = LazyLock::new(|| {
    histogram("romirami_tournament_pairing_seconds", "One step of a tournament's director that seated players.")
});
static PUSHES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register(
        IntCounterVec::new(Opts::new("romirami_pushes_total", "Web Push attempts by outcome."), &["outcome"])
            .expect("constant counter options are valid"),
    )
});
static COMMIT_SECONDS: LazyLock<Histogram> =
    LazyLock::new(|| histogram("romirami_db_commit_seconds", "One group-commit transaction of actions."));
static COMMITTED_ROWS: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_db_committed_rows_total", "Action rows committed."));
static FRAMES_RECEIVED: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_frames_received_total", "WebSocket data frames received."));
static FRAMES_SENT: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_frames_sent_total", "WebSocket data frames sent."));
static REJECTED: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register(
        IntCounterVec::new(
            Opts::new("romirami_rejected_messages_total", "Errors sent to clients, and closes, by reason."),
            &["reason"],
        )
        .expect("constant counter options are valid"),
    )
});

static OWNED_TABLES: LazyLock<IntGauge> = LazyLock::new(|| {
    register(
        IntGauge::new("romirami_cluster_owned_tables", "Tables whose lease this node holds.")
            .expect("constant gauge options are valid"),
    )
});
static LEASE_RENEWALS: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_cluster_lease_renewals_total", "Table leases renewed."));
static TAKEOVERS: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_cluster_takeovers_total", "Tables taken over from nodes whose leases ran out."));
static FORWARDED: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register(
        IntCounterVec::new(
            Opts::new("romirami_cluster_forwarded_total", "Table commands and messages crossing nodes, by way."),
            &["way"],
        )
        .expect("constant counter options are valid"),
    )
});
static NATS_RTT: LazyLock<Histogram> =
    LazyLock::new(|| histogram("romirami_cluster_nats_rtt_seconds", "A round trip to the NATS server."));
static LEASES_LOST: LazyLock<IntCounter> =
    LazyLock::new(|| counter("romirami_cluster_leases_lost_total", "Table leases that could not be renewed."));

/// Creates every metric, so that a scrape lists them all from the start (at zero).
pub fn init() {
    LazyLock::force(&CONNECTIONS);
    LazyLock::force(&CONNECTIONS_OPENED);
    for state in [TableState::Waiting, TableState::Playing, TableState::Finished] {
        TABLES.with_label_values(&[state_label(state)]);
    }
    LazyLock::force(&ACTIONS);
    LazyLock::force(&ACTION_SECONDS);
    for level in romirami_game::Level::ALL {
        BOT_THINK_SECONDS.with_label_values(&[level.name()]);
    }
    LazyLock::force(&COMMIT_SECONDS);
    LazyLock::force(&COMMITTED_ROWS);
    LazyLock::force(&FRAMES_RECEIVED);
    LazyLock::force(&FRAMES_SENT);
    LazyLock::force(&REJECTED);
    LazyLock::force(&OWNED_TABLES);
    LazyLock::force(&LEASE_RENEWALS);
    LazyLock::force(&LEASES_LOST);
    LazyLock::force(&TAKEOVERS);
    for way in ["commands_out", "commands_in", "messages_out", "messages_in"] {
        FORWARDED.with_label_values(&[way]);
    }
    LazyLock::force(&NATS_RTT);
}

/// Everything in the registry, in the Prometheus text format.
pub fn render() -> String {
    init();
    let mut text = Vec::new();
    // Encoding into a Vec fails only for malformed metric families, which this module does not make.
    if let Err(error) = TextEncoder::new().encode(&REGISTRY.gather(), &mut text) {
        tracing::error!(%error, "the metrics could not be encoded");
    }
    String::from_utf8(text).unwrap_or_default()
}

/// Counts an open connection until the guard is dropped.
#[derive(Debug)]
pub struct ConnectionMetric(());

impl ConnectionMetric {
    /// A connection opened.
    pub fn open() -> ConnectionMetric {
        CONNECTIONS.inc();
        CONNECTIONS_OPENED.inc();
        ConnectionMetric(())
    }
}

impl Drop for ConnectionMetric {
    fn drop(&mut self) {
        CONNECTIONS.dec();
    }
}

fn state_label(state: TableState) -> &'static str {
    match state {
        TableState::Waiting => "waiting",
        TableState::Playing => "playing",
        TableState::Finished => "finished",
    }
}

/// A table moved from state `from` to state `to`; `None` is "not there" (opened, or closed).
pub fn table_state(from: Option<TableState>, to: Option<TableState>) {
    if let Some(from) = from {
        TABLES.with_label_values(&[state_label(from)]).dec();
    }
    if let Some(to) = to {
        TABLES.with_label_values(&[state_label(to)]).inc();
    }
}

/// An action that reached its table at `since` was applied and acknowledged.
pub fn action_applied(since: Instant) {
    ACTIONS.inc();
    ACTION_SECONDS.observe(since.elapsed().as_secs_f64());
}

/// The server's bot of `level` took `took` to decide a move.
pub fn bot_thought(level: romirami_game::Level, took: std::time::Duration) {
    BOT_THINK_SECONDS.with_label_values(&[level.name()]).observe(took.as_secs_f64());
}

/// A group-commit transaction of `rows` rows that began at `since` ended (`ok` when it committed).
pub fn commit(since: Instant, rows: usize, ok: bool) {
    COMMIT_SECONDS.observe(since.elapsed().as_secs_f64());
    if ok {
        COMMITTED_ROWS.inc_by(rows as u64);
    }
}

/// A round of lease renewals kept `renewed` leases and lost `lost`; the node now holds `owned`.
pub fn lease_renewals(renewed: usize, lost: usize, owned: usize) {
    LEASE_RENEWALS.inc_by(renewed as u64);
    LEASES_LOST.inc_by(lost as u64);
    OWNED_TABLES.set(i64::try_from(owned).unwrap_or(i64::MAX));
}

/// A table command or message crossed nodes: `way` is `commands_out`, `commands_in`, `messages_out` or
/// `messages_in`.
pub fn forwarded(way: &'static str) {
    FORWARDED.with_label_values(&[way]).inc();
}

/// A round trip to the NATS server took `since.elapsed()`.
pub fn nats_round_trip(since: Instant) {
    NATS_RTT.observe(since.elapsed().as_secs_f64());
}

/// A tournament's director took `took` for a step that seated players.
pub fn tournament_pairing(took: std::time::Duration) {
    PAIRING_SECONDS.observe(took.as_secs_f64());
}

/// A Web Push attempt ended with `outcome` (`delivered`, `gone`, `retried`, `failed`, `dropped`).
pub fn push(outcome: &'static str) {
    PUSHES.with_label_values(&[outcome]).inc();
}

/// This node took over `count` tables.
pub fn takeovers(count: usize) {
    TAKEOVERS.inc_by(count as u64);
}

/// A data frame was received.
pub fn frame_received() {
    FRAMES_RECEIVED.inc();
}

/// Data frames were sent.
pub fn frames_sent(count: u64) {
    FRAMES_SENT.inc_by(count);
}

/// An error with this code was sent to a client.
pub fn rejected(code: ErrorCode) {
    let label = serde_json::to_value(code).ok().and_then(|v| v.as_str().map(str::to_owned));
    REJECTED.with_label_values(&[label.as_deref().unwrap_or("unknown")]).inc();
}

/// The server closed a connection, for `reason` (a constant label such as `too_slow`).
pub fn closed(reason: &'static str) {
    REJECTED.with_label_values(&[reason]).inc();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_listed_in_the_text_format() {
        let _connection = ConnectionMetric::open();
        table_state(None, Some(TableState::Waiting));
        action_applied(Instant::now());
        commit(Instant::now(), 3, true);
        rejected(ErrorCode::NotYourTurn);
        closed("too_slow");
        let text = render();
        for name in [
            "romirami_connections ",
            "romirami_connections_opened_total ",
            "romirami_tables{state=\"waiting\"}",
            "romirami_tables{state=\"playing\"}",
            "romirami_actions_total ",
            "romirami_action_seconds_bucket{le=\"0.005\"}",
            "romirami_db_commit_seconds_count ",
            "romirami_db_committed_rows_total ",
            "romirami_frames_sent_total ",
            "romirami_rejected_messages_total{reason=\"not_your_turn\"}",
            "romirami_rejected_messages_total{reason=\"too_slow\"}",
        ] {
            assert!(text.contains(name), "{name} is missing from:\n{text}");
        }
        #[cfg(target_os = "linux")]
        assert!(text.contains("process_resident_memory_bytes "), "{text}");
    }
}
