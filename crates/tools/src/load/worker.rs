//! A worker: carries out its share of a workload in this process, or in a child process of the same
//! binary (`romirami load --worker PLAN`) that prints a JSON [`Snapshot`] per line.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::Context;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;

use super::{Counters, Snapshot, WorkerPlan, Workload, idle, play};

/// How often a worker reports.
pub const REPORT_EVERY: Duration = Duration::from_secs(1);

/// Runs `plan` in this process, sending a snapshot every second and a last one marked `done`. The
/// measured `duration_s` starts once this worker's units are set up and `all_ready` is true: with
/// several workers, the parent sets it when every worker is set up, so that the slowest worker's set-up
/// does not eat the others' measured time. Past `duration_s`, it plays on until `min_games` games ended.
///
/// # Errors
/// When the plan names no server.
pub async fn run_worker(
    plan: WorkerPlan,
    snapshots: mpsc::Sender<Snapshot>,
    all_ready: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    anyhow::ensure!(!plan.servers.is_empty(), "no server to connect to");
    let plan = Arc::new(plan);
    let counters = Arc::new(Counters::default());
    let (stop_sender, stop) = watch::channel(false);
    let (ready_sender, ready) = watch::channel(false);
    let ramp = Arc::new(Semaphore::new(plan.ramp_concurrency.max(1)));
    let units = plan.workload.units();
    let mut tasks = JoinSet::new();
    for n in 0..units {
        let server = plan.servers[n % plan.servers.len()];
        let (plan, ramp, counters, stop) = (plan.clone(), ramp.clone(), counters.clone(), stop.clone());
        match plan.workload.clone() {
            Workload::Play { players, interval_ms, game, options, strong_bot_tables, .. } => {
                let interval = Duration::from_millis(interval_ms);
                // The first tables are the bots': one person, and the server's strong bots in the other seats.
                let bots = if n < strong_bot_tables { usize::from(players) - 1 } else { 0 };
                let game = play::Game { name: game, options, bots };
                let people = usize::from(players) - bots;
                let seats = (0..people).map(|seat| plan.seat_server(n, seat)).collect();
                tasks.spawn(play::table(plan, seats, n, game, interval, ramp, counters, stop));
            }
            Workload::Idle { hello, .. } => {
                tasks.spawn(idle::idle_connection(plan, server, n, hello, ramp, counters, stop));
            }
            Workload::Echo { payload_bytes, interval_ms, .. } => {
                let interval = Duration::from_millis(interval_ms);
                let ready = ready.clone();
                tasks.spawn(idle::echo_connection(plan, server, payload_bytes, interval, ramp, counters, ready, stop));
            }
        }
    }
    let mut ticker = tokio::time::interval(REPORT_EVERY);
    ticker.tick().await;
    let mut ready_at = None;
    let mut measured_from = None;
    // Games ended in the snapshots sent so far (each snapshot counts its own second's).
    let mut games = 0;
    loop {
        ticker.tick().await;
        let is_ready = counters.set_up.load(Ordering::Relaxed) >= units;
        if is_ready && ready_at.is_none() {
            ready_at = Some(tokio::time::Instant::now());
            ready_sender.send_replace(true);
            // The second in which the last unit got ready is not part of the measured window.
            let snapshot = counters.take(false, false);
            games += snapshot.counts.games;
            let _ = snapshots.send(snapshot).await;
            continue;
        }
        if ready_at.is_some() && measured_from.is_none() && *all_ready.borrow() {
            measured_from = Some(tokio::time::Instant::now());
        }
        let ended_games = games + counters.games.load(Ordering::Relaxed);
        let finished = measured_from.is_some_and(|at| at.elapsed().as_secs_f64() >= plan.duration_s)
            && ended_games >= plan.min_games;
        if finished {
            break;
        }
        let snapshot = counters.take(is_ready, false);
        games += snapshot.counts.games;
        if snapshots.send(snapshot).await.is_err() {
            break;
        }
    }
    // The last second before the stop is measured; what the stop itself causes is not.
    let last = counters.take(true, false);
    let _ = snapshots.send(last).await;
    stop_sender.send_replace(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), async { while tasks.join_next().await.is_some() {} }).await;
    tasks.abort_all();
    let _ = snapshots.send(counters.take(true, true)).await;
    Ok(())
}

/// Starts `plan` in a child process of this binary; its snapshots come in on `snapshots`, tagged
/// with `index`. The child's standard error is passed through.
///
/// # Errors
/// When the child cannot be started.
pub fn spawn_worker(
    index: usize,
    plan: &WorkerPlan,
    snapshots: mpsc::Sender<(usize, Snapshot)>,
) -> anyhow::Result<Child> {
    let exe = std::env::current_exe().context("finding this program")?;
    let plan_json = serde_json::to_string(plan)?;
    let mut child = Command::new(exe)
        .args(["load", "--worker", &plan_json])
        // The parent writes a line when every worker is set up (see `run_worker`).
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .context("starting a worker process")?;
    let stdout = child.stdout.take().context("the worker's output")?;
    tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        let mut done = false;
        while let Ok(Some(line)) = lines.next_line().await {
            if let Ok(snapshot) = serde_json::from_str::<Snapshot>(&line) {
                done |= snapshot.done;
                if snapshots.send((index, snapshot)).await.is_err() {
                    return;
                }
            }
        }
        if !done {
            // A worker that died still counts as done, so that the run ends.
            let last = Snapshot::failed(format!("worker {index} ended early"));
            let _ = snapshots.send((index, last)).await;
        }
    });
    Ok(child)
}
