//! The load generator against a test server, with small numbers: it plays whole games, holds idle
//! connections, measures the echo baseline, runs several worker processes, and the server's metrics
//! count what happened. No figure is checked here: `bench/run.sh` takes them.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{TestServer, fast};
use romirami_server::config::Config;
use romirami_tools::load::{self, Aggregate, Snapshot, Spread, WorkerPlan, Workload};
use serde_json::json;
use tokio::sync::mpsc;

fn plan(workload: Workload, servers: Vec<SocketAddr>, path: &str, seconds: f64) -> WorkerPlan {
    plan_of_games(workload, servers, path, seconds, 0)
}

/// A plan that plays on past `seconds` until `games` games ended.
fn plan_of_games(workload: Workload, servers: Vec<SocketAddr>, path: &str, seconds: f64, games: u64) -> WorkerPlan {
    WorkerPlan {
        index: 0,
        workload,
        servers,
        spread: Spread::Tables,
        path: path.to_owned(),
        source: None,
        duration_s: seconds,
        min_games: games,
        ramp_concurrency: 8,
    }
}

/// Runs `plan` in this process and adds up what it reported.
async fn run(plan: WorkerPlan) -> Aggregate {
    let (sender, mut snapshots) = mpsc::channel::<Snapshot>(16);
    let worker = tokio::spawn(load::run_worker(plan, sender, tokio::sync::watch::channel(true).1));
    let mut aggregate = Aggregate::new(1);
    while let Some(snapshot) = snapshots.recv().await {
        aggregate.add(0, &snapshot, 1.0);
    }
    worker.await.expect("the worker ran").expect("the worker succeeded");
    assert!(aggregate.all_done(), "the last snapshot says done");
    aggregate
}

fn assert_clean(aggregate: &Aggregate) {
    let run = &aggregate.run;
    assert_eq!(
        (run.counts.errors, run.counts.disconnects, run.counts.connect_failures),
        (0, 0, 0),
        "no errors, disconnects or failed connections: {:?}",
        aggregate.first_error
    );
}

/// `GET /metrics` of the server at `addr`.
fn metrics(addr: SocketAddr) -> String {
    ureq::get(&format!("http://{addr}/metrics"))
        .call()
        .expect("the metrics are served")
        .body_mut()
        .read_to_string()
        .expect("the metrics are text")
}

/// The value of the first sample named exactly `name` (with its labels).
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} is not in:\n{text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_of_bots_play_whole_games_and_every_action_reaches_every_seat() {
    let server = TestServer::start(fast()).await;
    let workload = Workload::Play {
        tables: 3,
        players: 4,
        interval_ms: 0,
        game: "romi-rami".into(),
        options: None,
        strong_bot_tables: 0,
    };
    let aggregate = run(plan(workload, vec![server.addr], "/ws", 1.5)).await;
    assert_clean(&aggregate);
    assert_eq!(aggregate.peak_connections, 12, "3 tables of 4 seats");
    assert_eq!(aggregate.peak_tables, 3);
    let run = &aggregate.run;
    assert!(run.counts.actions > 0, "actions were played");
    assert_eq!(run.latency.len(), run.counts.actions, "every action has its latency");
    assert!(run.counts.frames_received > run.counts.actions * 4, "each action reaches all four seats");
    assert!(aggregate.window.counts.actions > 0 && aggregate.window_seconds > 0.0, "the measured window saw actions");

    let text = tokio::task::spawn_blocking(move || metrics(server.addr)).await.expect("fetched");
    assert!(sample(&text, "romirami_actions_total") >= run.counts.actions as f64);
    assert!(sample(&text, "romirami_action_seconds_count") >= run.counts.actions as f64);
    assert!(sample(&text, "romirami_db_commit_seconds_count") >= 1.0, "actions were committed");
    assert!(sample(&text, "romirami_connections_opened_total") >= 12.0);
    assert!(sample(&text, "romirami_frames_received_total") >= run.counts.actions as f64);
    sample(&text, "romirami_tables{state=\"playing\"}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_of_the_rummy_family_play_whole_matches() {
    // No pause between rounds: the bots do not need to see the results.
    let server = TestServer::start(Config { round_pause: Duration::ZERO, ..fast() }).await;
    // Rommi to a target of 1 and one Rami round are short matches: the worker plays on until one ended,
    // however slow the machine; a Rumino match runs to one player left, a few hundred actions, and is only
    // played for the time given.
    for (game, options, whole) in [
        ("rommi", json!({ "target": 1 }), true),
        ("rami", json!({ "match_end": { "rounds": 1 } }), true),
        ("rumino", json!({ "max_rebuys": 0 }), false),
    ] {
        let workload = Workload::Play {
            tables: 2,
            players: 3,
            interval_ms: 0,
            game: game.into(),
            options: Some(options),
            strong_bot_tables: 0,
        };
        let plan = plan_of_games(workload, vec![server.addr], "/ws", 1.5, u64::from(whole));
        let aggregate = tokio::time::timeout(Duration::from_secs(120), run(plan)).await.expect("a match ends");
        assert_clean(&aggregate);
        assert_eq!(aggregate.peak_tables, 2, "{game}");
        let run = &aggregate.run;
        assert!(run.counts.actions > 0, "{game}: actions were played");
        assert!(!whole || run.counts.games >= 1, "{game}: a whole match was played: {:?}", run.counts);
        assert_eq!(run.latency.len(), run.counts.actions, "{game}: every action has its latency");
        assert!(run.counts.frames_received > run.counts.actions * 3, "{game}: each action reaches all three seats");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_with_the_servers_strong_bots_are_measured_apart() {
    // Two tables of people and one where a person plays two strong bots, which think on the server.
    let server = TestServer::start(Config { bot_delay: Duration::ZERO, ..fast() }).await;
    let workload = Workload::Play {
        tables: 3,
        players: 3,
        interval_ms: 0,
        game: "romi-rami".into(),
        options: None,
        strong_bot_tables: 1,
    };
    let aggregate = run(plan_of_games(workload, vec![server.addr], "/ws", 1.5, 1)).await;
    assert_clean(&aggregate);
    assert_eq!(aggregate.peak_connections, 2 * 3 + 1, "the bots' table has one connection");
    let run = &aggregate.run;
    assert!(!run.bot_table_latency.is_empty(), "the person at the bots' table played");
    assert!(!run.latency.is_empty(), "the other tables played");
    assert_eq!(run.latency.len() + run.bot_table_latency.len(), run.counts.actions, "every action counted once");
    let text = tokio::task::spawn_blocking(move || metrics(server.addr)).await.expect("fetched");
    assert!(sample(&text, "romirami_bot_think_seconds_count{level=\"strong\"}") >= 1.0, "the strong bots thought");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_held_until_the_end() {
    let server = TestServer::start(fast()).await;
    let workload = Workload::Idle { connections: 20, hello: true };
    let aggregate = run(plan(workload, vec![server.addr], "/ws", 0.5)).await;
    assert_clean(&aggregate);
    assert_eq!(aggregate.peak_connections, 20);
    assert_eq!(aggregate.connections(), 0, "every connection closed at the end");
    assert_eq!(aggregate.run.counts.actions, 0);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_echo_baseline_answers_every_frame() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("bound");
    let echo = tokio::spawn(load::echo::serve(listener, 1024));
    let workload = Workload::Echo { connections: 4, payload_bytes: 200, interval_ms: 0 };
    let aggregate = run(plan(workload, vec![addr], "/", 0.5)).await;
    assert_clean(&aggregate);
    assert_eq!(aggregate.peak_connections, 4);
    assert!(aggregate.run.counts.actions > 0);
    let in_flight = aggregate.run.counts.frames_sent - aggregate.run.counts.frames_received;
    assert!(in_flight <= 4, "every frame came back, but for one per connection at the stop: {in_flight}");
    echo.abort();
}

#[test]
fn the_command_runs_several_worker_processes_and_writes_its_report() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let report = dir.path().join("report.json");
    let status = common::romirami()
        .args([
            "load",
            "--echo",
            "--connections",
            "4",
            "--processes",
            "2",
            "--interval-ms",
            "0",
            "--duration",
            "2",
            // Stands for the database: every process of this name (the tool's own among them) is counted.
            "--database-command",
            "romirami",
            "--json",
        ])
        .arg(&report)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("romirami load runs");
    assert!(status.success());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("the report is written")).expect("JSON");
    assert_eq!(report["mode"], "echo");
    assert_eq!(report["processes"], 2);
    assert_eq!(report["connections"], 4);
    assert_eq!(report["errors"], 0);
    assert!(report["actions_per_second"].as_f64().expect("a number") > 0.0);
    assert!(report["server_bytes_per_connection"].as_f64().is_some(), "the echo server's memory is read");
    for group in ["server_cpu", "load_cpu", "database_cpu"] {
        let cpu = &report[group];
        for field in ["cores", "us_per_action", "us_per_frame"] {
            assert!(cpu[field].as_f64().is_some_and(|value| value > 0.0), "{group}.{field}: {cpu}");
        }
        let (action, frame) =
            (cpu["us_per_action"].as_f64().unwrap_or(0.0), cpu["us_per_frame"].as_f64().unwrap_or(0.0));
        assert!(action > frame, "a round trip is two frames: {cpu}");
    }
}
