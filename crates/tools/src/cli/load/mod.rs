//! `romirami load`: the load generator. Plays games, holds idle connections, or measures the echo
//! baseline or the store, and reports what it measured (see [`crate::load`]).
//!
//! The report goes to standard output (and, with `--json`, to a file); the live progress line goes to
//! standard error.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, watch};

use crate::load::cpu::{CpuUse, CpuWatch};
use crate::load::{self, Aggregate, Snapshot, Spread, WorkerPlan, Workload};

mod report;
mod store;

pub use report::{LoadReport, Percentiles};
use report::{per_connection, percentiles, print_report};

/// Connections one process keeps below its open-file limit, for its other files.
const SPARE_FILES: u64 = 100;

/// The arguments of `romirami load`.
#[derive(Clone, Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("mode").args(["idle", "echo", "persist"]).multiple(true)))]
pub struct LoadArgs {
    /// The servers' WebSocket addresses (ws://HOST:PORT/ws); tables and connections are spread over
    /// them. May be given more than once, or comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub server: Vec<String>,
    /// How each table's seats are spread over several servers: `tables` puts a table's seats on one
    /// server, `seats` puts them on the servers in turn (the nodes of a cluster, so that every table's
    /// messages cross between nodes).
    #[arg(long, value_enum, default_value_t = Spread::Tables)]
    pub spread: Spread,
    /// Hold connections that only say hello and answer pings, instead of playing.
    #[arg(long)]
    pub idle: bool,
    /// With --idle: do not say hello (a new guest is a durable write to the server's database), only
    /// hold the WebSocket open.
    #[arg(long, requires = "idle")]
    pub no_hello: bool,
    /// The baseline: start bare tokio-tungstenite echo servers and measure round trips of one frame per
    /// connection on them (with --idle: hold idle connections on them).
    #[arg(long, conflicts_with = "server")]
    pub echo: bool,
    /// Echo servers to start with --echo (each holds at most its open-file limit of connections).
    #[arg(long, default_value_t = 1)]
    pub echo_servers: usize,
    /// The echo servers' read buffer, in bytes (the game server's is `serve --read-buffer-bytes`, 256 by
    /// default: give the same to compare the memory of idle connections).
    #[arg(long, default_value_t = 1024)]
    pub echo_read_buffer_bytes: usize,
    /// Connections to open (with --idle or --echo).
    #[arg(long, default_value_t = 1000)]
    pub connections: usize,
    /// Tables to keep playing.
    #[arg(long, default_value_t = 100)]
    pub tables: usize,
    /// Seats per table, within the game's range (2 to 4 for Romi Rami and Rommi, 5 for Rami, 6 for
    /// Rumino).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
    /// The game the tables play: romi-rami, rommi, rami or rumino.
    #[arg(long, default_value = "romi-rami")]
    pub game: String,
    /// The game's table options as JSON (a rummy game's target or rounds); the rule book's defaults
    /// when left out.
    #[arg(long)]
    pub options: Option<String>,
    /// One action per table (per connection with --echo) every this many milliseconds; 0 for as fast
    /// as the server answers.
    #[arg(long, default_value_t = 2000)]
    pub interval_ms: u64,
    /// Of the tables, how many seat one connection and give their other seats to the server's strong
    /// bot (`add_bot` with `strong`): the latency of their actions is reported apart from the others',
    /// side by side, to see that thinking bots delay no other table. Start the server with
    /// `--bot-delay-ms 0` for bots that think without a pause.
    #[arg(long, default_value_t = 0)]
    pub strong_bot_tables: usize,
    /// The size of each echoed frame, in bytes.
    #[arg(long, default_value_t = 256)]
    pub payload_bytes: usize,
    /// Seconds to hold or play once every connection is up.
    #[arg(long, default_value_t = 10.0)]
    pub duration: f64,
    /// Worker processes; by default as many as the connections need under this process's open-file
    /// limit.
    #[arg(long)]
    pub processes: Option<usize>,
    /// The source address of the first worker; worker i connects from this address plus i (loopback
    /// addresses 127.0.0.0/8 all work on Linux), so that each has its own ephemeral ports. Default:
    /// 127.0.0.2 when there are several workers, the system's choice for one.
    #[arg(long)]
    pub source_ip: Option<Ipv4Addr>,
    /// Connections in their handshake at once, per worker.
    #[arg(long, default_value_t = 64)]
    pub ramp_concurrency: usize,
    /// A server process (on this machine) whose resident memory to report per connection. May be given
    /// more than once.
    #[arg(long)]
    pub server_pid: Vec<u32>,
    /// Also report the CPU time of every process of this name on this machine (the database server's:
    /// `postgres`), per action and per frame.
    #[arg(long, value_name = "NAME")]
    pub database_command: Option<String>,
    /// Also report the CPU time of this process (a cluster's NATS server), per action and per frame.
    /// May be given more than once.
    #[arg(long, value_name = "PID")]
    pub broker_pid: Vec<u32>,
    /// Also write the report as JSON to this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// Measure the store at this database URL instead of a server: finished games and single actions.
    #[arg(long, value_name = "DATABASE_URL")]
    pub persist: Option<String>,
    /// Games to store (with --persist).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// Tasks storing games at once (with --persist).
    #[arg(long, default_value_t = 16)]
    pub concurrency: usize,
    /// The most actions in one group commit (with --persist).
    #[arg(long, default_value_t = 1024)]
    pub max_batch: usize,
    /// Run one worker's plan and print its snapshots as JSON lines (used by the tool itself).
    #[arg(long, hide = true)]
    pub worker: Option<String>,
    /// Run only an echo server on this address, printing `listening on ADDR` (used by --echo).
    #[arg(long, value_name = "ADDR")]
    pub echo_server: Option<SocketAddr>,
}

/// Runs `romirami load`.
///
/// # Errors
/// When the arguments do not make sense, a server or the database cannot be reached, or a worker
/// cannot be started.
pub fn run_load(args: &LoadArgs) -> anyhow::Result<()> {
    let open_files = load::raise_open_files_limit().unwrap_or(1024);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    if let Some(plan) = &args.worker {
        let plan: WorkerPlan = serde_json::from_str(plan).context("reading the worker's plan")?;
        return runtime.block_on(worker_main(plan));
    }
    if let Some(address) = args.echo_server {
        return runtime.block_on(async {
            let listener =
                tokio::net::TcpListener::bind(address).await.with_context(|| format!("binding {address}"))?;
            println!("listening on {}", listener.local_addr()?);
            std::io::stdout().flush()?;
            Ok(load::echo::serve(listener, args.echo_read_buffer_bytes).await?)
        });
    }
    if let Some(url) = &args.persist {
        return runtime.block_on(store::run_persist(args, url));
    }
    runtime.block_on(run_network(args, open_files))
}

async fn worker_main(plan: WorkerPlan) -> anyhow::Result<()> {
    let (sender, mut snapshots) = mpsc::channel(16);
    // The parent's line on standard input (or its end) says that every worker is set up.
    let (all_ready_sender, all_ready) = watch::channel(false);
    tokio::task::spawn_blocking(move || {
        let _ = std::io::stdin().read_line(&mut String::new());
        all_ready_sender.send_replace(true);
    });
    let worker = tokio::spawn(load::run_worker(plan, sender, all_ready));
    let mut stdout = std::io::stdout();
    while let Some(snapshot) = snapshots.recv().await {
        writeln!(stdout, "{}", serde_json::to_string(&snapshot)?)?;
        stdout.flush()?;
    }
    worker.await.context("the worker failed")?
}

/// The address of a server given as ws://HOST:PORT/PATH, http://..., or HOST:PORT.
fn parse_server(server: &str) -> anyhow::Result<(SocketAddr, String)> {
    let url = super::bots::websocket_url(server);
    let rest = url.strip_prefix("ws://").with_context(|| format!("{server}: only ws:// servers can be loaded"))?;
    let (host, path) = rest.split_once('/').map_or((rest, "/ws".to_owned()), |(h, p)| (h, format!("/{p}")));
    let address = std::net::ToSocketAddrs::to_socket_addrs(host)
        .with_context(|| format!("resolving {host}"))?
        .next()
        .with_context(|| format!("{host} has no address"))?;
    Ok((address, path))
}

/// Starts an echo server process with a read buffer of `read_buffer` bytes; returns it and its address.
async fn start_echo_server(read_buffer: usize) -> anyhow::Result<(Child, SocketAddr)> {
    let exe = std::env::current_exe().context("finding this program")?;
    let mut child = Command::new(exe)
        .args(["load", "--echo-server", "127.0.0.1:0", "--echo-read-buffer-bytes", &read_buffer.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .context("starting an echo server")?;
    let stdout = child.stdout.take().context("the echo server's output")?;
    let line = BufReader::new(stdout).lines().next_line().await?.context("the echo server said nothing")?;
    let address = line.strip_prefix("listening on ").context("the echo server's address")?.parse()?;
    Ok((child, address))
}

async fn run_network(args: &LoadArgs, open_files: u64) -> anyhow::Result<()> {
    let mut echo_children = Vec::new();
    let (servers, path) = if args.echo {
        let mut servers = Vec::new();
        for _ in 0..args.echo_servers.max(1) {
            let (child, address) = start_echo_server(args.echo_read_buffer_bytes).await?;
            echo_children.push(child);
            servers.push(address);
        }
        (servers, "/".to_owned())
    } else {
        if args.server.is_empty() {
            bail!("name the server to load with --server (or measure the baseline with --echo)");
        }
        let parsed = args.server.iter().map(|s| parse_server(s)).collect::<anyhow::Result<Vec<_>>>()?;
        let path = parsed[0].1.clone();
        (parsed.into_iter().map(|(a, _)| a).collect(), path)
    };
    let mut pids = args.server_pid.clone();
    pids.extend(echo_children.iter().filter_map(Child::id));
    let workload = match (args.echo, args.idle) {
        (_, true) => Workload::Idle { connections: args.connections, hello: !args.echo && !args.no_hello },
        (true, false) => Workload::Echo {
            connections: args.connections,
            payload_bytes: args.payload_bytes,
            interval_ms: args.interval_ms,
        },
        (false, false) => {
            let options: Option<serde_json::Value> =
                args.options.as_deref().map(serde_json::from_str).transpose().context("--options is not JSON")?;
            // Refuse here what every table would be refused: an unknown game, options or a table size
            // it does not take.
            let games = romirami_server::games();
            let kind = games.get(&args.game).with_context(|| {
                format!("--game: no game called {} ({})", args.game, games.names().collect::<Vec<_>>().join(", "))
            })?;
            kind.options(options.as_ref(), usize::from(args.players)).map_err(|e| anyhow::anyhow!("{e}"))?;
            Workload::Play {
                tables: args.tables,
                players: args.players,
                interval_ms: args.interval_ms,
                game: args.game.clone(),
                options,
                strong_bot_tables: args.strong_bot_tables.min(args.tables),
            }
        }
    };
    let mode = match (args.echo, args.idle) {
        (true, true) => "echo-idle",
        (true, false) => "echo",
        (false, true) => "idle",
        (false, false) => "play",
    };
    let per_process = open_files.saturating_sub(SPARE_FILES).max(1) as usize;
    let processes = args.processes.unwrap_or_else(|| workload.connections().div_ceil(per_process)).max(1);
    let units = workload.units();
    if processes > units {
        bail!("{processes} worker processes for {units} tables or connections: use fewer processes");
    }
    let source_base = args.source_ip.or((processes > 1).then_some(Ipv4Addr::new(127, 0, 0, 2)));
    let plans: Vec<WorkerPlan> = (0..processes)
        .map(|index| WorkerPlan {
            index,
            workload: workload.share(units / processes + usize::from(index < units % processes)),
            servers: servers.clone(),
            spread: args.spread,
            path: path.clone(),
            source: source_base.map(|base| IpAddr::V4(Ipv4Addr::from(u32::from(base) + index as u32))),
            duration_s: args.duration,
            min_games: 0,
            ramp_concurrency: args.ramp_concurrency,
        })
        .collect();
    let rss = |pids: &[u32]| pids.iter().filter_map(|&pid| load::resident_bytes(pid)).sum::<u64>();
    let rss_before = rss(&pids);
    let (sender, mut snapshots) = mpsc::channel::<(usize, Snapshot)>(1024);
    let mut children = Vec::new();
    if processes == 1 {
        let (inner, mut inner_snapshots) = mpsc::channel(16);
        let plan = plans[0].clone();
        tokio::spawn(async move {
            // One worker: it is all there is to be ready.
            let worker = tokio::spawn(load::run_worker(plan, inner, watch::channel(true).1));
            while let Some(snapshot) = inner_snapshots.recv().await {
                if sender.send((0, snapshot)).await.is_err() {
                    break;
                }
            }
            if let Ok(Err(error)) = worker.await {
                let failed = Snapshot::failed(error.to_string());
                let _ = sender.send((0, failed)).await;
            }
        });
    } else {
        for (index, plan) in plans.iter().enumerate() {
            children.push(load::spawn_worker(index, plan, sender.clone())?);
        }
        drop(sender);
    }
    let load_pids = std::iter::once(std::process::id()).chain(children.iter().filter_map(Child::id)).collect();
    let mut cpu =
        CpuWatch::new(pids.clone(), load_pids, args.database_command.clone()).with_broker(args.broker_pid.clone());
    let progress = ProgressBar::new_spinner();
    progress.set_style(
        ProgressStyle::with_template("{elapsed:>4} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let mut aggregate = Aggregate::new(processes);
    let mut second = load::Totals::default();
    let mut rss_at_peak = rss_before;
    let mut peak = 0;
    let mut last_line = Instant::now();
    let mut waiting_for_all = children.iter_mut().filter_map(|child| child.stdin.take()).collect::<Vec<_>>();
    while let Some((index, snapshot)) = snapshots.recv().await {
        aggregate.add(index, &snapshot, load::REPORT_EVERY.as_secs_f64());
        if aggregate.measuring() {
            cpu.start();
        } else {
            cpu.stop();
        }
        if aggregate.all_ready() && !waiting_for_all.is_empty() {
            // Every worker is set up: their measured time starts now, together.
            for mut stdin in waiting_for_all.drain(..) {
                let _ = stdin.write_all(b"go\n").await;
                let _ = stdin.flush().await;
            }
        }
        second.add_snapshot(&snapshot);
        if aggregate.connections() >= peak && aggregate.connections() > 0 {
            peak = aggregate.connections();
            rss_at_peak = rss(&pids);
        }
        if last_line.elapsed() >= Duration::from_millis(950) {
            let seconds = last_line.elapsed().as_secs_f64();
            last_line = Instant::now();
            let per_conn = per_connection(rss(&pids), rss_before, aggregate.connections());
            let line = format!(
                "{} conns {} tables {} | {:.0} actions/s, {:.0} frames/s | latency ms p50 {:.2} p95 {:.2} p99 {:.2} max {:.2} | errors {} disconnects {} | server {:.0} B/conn",
                if aggregate.measuring() { "measuring" } else { "setting up" },
                aggregate.connections(),
                aggregate.tables(),
                second.counts.actions as f64 / seconds,
                second.counts.frames() as f64 / seconds,
                second.latency_ms(0.5),
                second.latency_ms(0.95),
                second.latency_ms(0.99),
                second.max_latency_ms(),
                aggregate.run.counts.errors,
                aggregate.run.counts.disconnects,
                per_conn,
            );
            if progress.is_hidden() {
                eprintln!("{line}");
            } else {
                progress.set_message(line);
                progress.tick();
            }
            second = load::Totals::default();
        }
        if aggregate.all_done() {
            break;
        }
    }
    progress.finish_and_clear();
    cpu.stop();
    for mut child in children {
        let _ = child.wait().await;
    }
    for mut child in echo_children {
        let _ = child.kill().await;
    }
    let window = &aggregate.window;
    let seconds = aggregate.window_seconds.max(1e-9);
    let (actions_per_second, frames_per_second) =
        (window.counts.actions as f64 / seconds, window.counts.frames() as f64 / seconds);
    let cores = cpu.cores();
    let cpu_use = |cores: f64| CpuUse::at_rates(cores, actions_per_second, frames_per_second);
    let report = LoadReport {
        mode: mode.to_owned(),
        servers: servers.iter().map(ToString::to_string).collect(),
        spread: args.spread,
        processes,
        window_seconds: aggregate.window_seconds,
        connections: aggregate.peak_connections,
        tables: aggregate.peak_tables,
        actions_per_second,
        games_per_second: window.counts.games as f64 / seconds,
        frames_per_second,
        latency_ms: Percentiles {
            p50: window.latency_ms(0.5),
            p95: window.latency_ms(0.95),
            p99: window.latency_ms(0.99),
            max: window.max_latency_ms(),
        },
        bot_table_latency_ms: (!window.bot_table_latency.is_empty()).then(|| percentiles(&window.bot_table_latency)),
        errors: aggregate.run.counts.errors,
        disconnects: aggregate.run.counts.disconnects,
        connect_failures: aggregate.run.counts.connect_failures,
        first_error: aggregate.first_error.clone(),
        server_rss_before: rss_before,
        server_rss_at_peak: rss_at_peak,
        server_bytes_per_connection: per_connection(rss_at_peak, rss_before, aggregate.peak_connections),
        server_cpu: cores.as_ref().and_then(|cores| cores.servers).map(cpu_use),
        each_server_cpu: cores
            .as_ref()
            .map_or_else(Vec::new, |cores| cores.each_server.iter().map(|&one| cpu_use(one)).collect()),
        load_cpu: cores.as_ref().map(|cores| cpu_use(cores.load)),
        database_cpu: cores.as_ref().and_then(|cores| cores.database).map(cpu_use),
        broker_cpu: cores.as_ref().and_then(|cores| cores.broker).map(cpu_use),
    };
    print_report(&report, !pids.is_empty());
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
