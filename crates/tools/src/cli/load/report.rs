//! What `romirami load` measured: the report it prints and writes with `--json`.

use crate::load::Spread;
use crate::load::cpu::CpuUse;
use serde::Serialize;

/// What a run measured, as written with `--json`.
#[derive(Debug, Default, Serialize)]
pub struct LoadReport {
    /// `play`, `idle`, `echo` or `echo-idle`.
    pub mode: String,
    /// The servers' addresses.
    pub servers: Vec<String>,
    /// How each table's seats were spread over the servers.
    pub spread: Spread,
    /// Worker processes.
    pub processes: usize,
    /// Seconds measured (every connection up).
    pub window_seconds: f64,
    /// The most connections held at once.
    pub connections: u64,
    /// The most tables playing at once.
    pub tables: u64,
    /// Actions (round trips, for echo) per second in the window.
    pub actions_per_second: f64,
    /// Games finished per second in the window.
    pub games_per_second: f64,
    /// Data frames per second in the window, both ways.
    pub frames_per_second: f64,
    /// Action latency percentiles, milliseconds (at the tables without the server's bots).
    pub latency_ms: Percentiles,
    /// The same at the tables with the server's strong bots, when there were any (`--strong-bot-tables`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_table_latency_ms: Option<Percentiles>,
    /// Errors during the whole run.
    pub errors: u64,
    /// Connections lost during the whole run.
    pub disconnects: u64,
    /// Connections that could not be opened.
    pub connect_failures: u64,
    /// The first error, if any.
    pub first_error: Option<String>,
    /// The servers' resident memory before the run, bytes.
    pub server_rss_before: u64,
    /// The servers' resident memory with the most connections open, bytes.
    pub server_rss_at_peak: u64,
    /// What each connection added to the servers' resident memory, bytes.
    pub server_bytes_per_connection: f64,
    /// The CPU the servers (or the echo servers) used in the window, when their processes are known.
    pub server_cpu: Option<CpuUse>,
    /// The CPU each server process used in the window, in the order of `--server-pid`.
    pub each_server_cpu: Vec<CpuUse>,
    /// The CPU the load generator's own processes used in the window.
    pub load_cpu: Option<CpuUse>,
    /// The CPU the processes named by `--database-command` used in the window.
    pub database_cpu: Option<CpuUse>,
    /// The CPU the processes given by `--broker-pid` used in the window.
    pub broker_cpu: Option<CpuUse>,
}

/// Latency percentiles, in milliseconds.
#[derive(Debug, Default, Serialize)]
pub struct Percentiles {
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// The largest.
    pub max: f64,
}

/// The percentiles of a histogram of microseconds, in milliseconds.
pub(super) fn percentiles(histogram: &hdrhistogram::Histogram<u64>) -> Percentiles {
    let ms = |q: f64| histogram.value_at_quantile(q) as f64 / 1000.0;
    Percentiles { p50: ms(0.5), p95: ms(0.95), p99: ms(0.99), max: histogram.max() as f64 / 1000.0 }
}

/// What each connection added to the servers' resident memory, bytes.
pub(super) fn per_connection(rss: u64, before: u64, connections: u64) -> f64 {
    if connections == 0 { 0.0 } else { rss.saturating_sub(before) as f64 / connections as f64 }
}

/// Prints the report, with the servers' memory when their processes are known.
pub(super) fn print_report(report: &LoadReport, with_memory: bool) {
    let spread = if report.servers.len() > 1 && report.spread == Spread::Seats { ", seats spread" } else { "" };
    println!(
        "mode {} against {} server(s){spread}, {} worker process(es)",
        report.mode,
        report.servers.len(),
        report.processes
    );
    println!(
        "measured for {:.1} s with {} connections, {} tables",
        report.window_seconds, report.connections, report.tables
    );
    println!(
        "{:.0} actions/s, {:.1} games/s, {:.0} frames/s",
        report.actions_per_second, report.games_per_second, report.frames_per_second
    );
    let l = &report.latency_ms;
    println!("latency ms: p50 {:.3} p95 {:.3} p99 {:.3} max {:.3}", l.p50, l.p95, l.p99, l.max);
    if let Some(b) = &report.bot_table_latency_ms {
        println!(
            "  at the tables with strong bots: p50 {:.3} p95 {:.3} p99 {:.3} max {:.3}",
            b.p50, b.p95, b.p99, b.max
        );
    }
    println!(
        "errors {}, disconnects {}, connect failures {}",
        report.errors, report.disconnects, report.connect_failures
    );
    if let Some(error) = &report.first_error {
        println!("first error: {error}");
    }
    if with_memory {
        println!(
            "server memory: {:.1} MiB before, {:.1} MiB at the peak: {:.0} bytes per connection",
            report.server_rss_before as f64 / 1048576.0,
            report.server_rss_at_peak as f64 / 1048576.0,
            report.server_bytes_per_connection
        );
    }
    let each = if report.each_server_cpu.len() > 1 { &report.each_server_cpu[..] } else { &[] };
    let uses = [("server", report.server_cpu.as_ref())]
        .into_iter()
        .chain(each.iter().map(|cpu| ("  one server", Some(cpu))))
        .chain([
            ("load generator", report.load_cpu.as_ref()),
            ("database", report.database_cpu.as_ref()),
            ("message broker", report.broker_cpu.as_ref()),
        ]);
    for (name, cpu) in uses {
        if let Some(cpu) = cpu {
            println!(
                "{name} CPU: {:.2} cores, {:.1} µs an action, {:.2} µs a frame",
                cpu.cores, cpu.us_per_action, cpu.us_per_frame
            );
        }
    }
}
