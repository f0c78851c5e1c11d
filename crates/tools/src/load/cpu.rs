//! The CPU time the processes of a run use while it is measured: the servers, the load generator
//! itself, and the database. Read from `/proc` (Linux), so that a report can say what one action (or
//! round trip) and one frame cost each of them. On a machine whose cores they all share, the rate a
//! run reaches depends on every one of them; the server's own time per frame, set beside the echo
//! server's, says how the server itself compares, whatever its neighbours took.

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;

/// CPU seconds (user and system) that the processes `pids` have used so far. A process that is gone
/// counts nothing.
pub fn cpu_seconds(pids: &[u32]) -> f64 {
    pids.iter().filter_map(|&pid| process(pid)).map(|p| seconds_of(&p)).sum()
}

/// Process `pid` in `/proc`, if it is there.
pub(super) fn process(pid: u32) -> Option<procfs::process::Process> {
    procfs::process::Process::new(i32::try_from(pid).ok()?).ok()
}

/// CPU seconds that each process named `command` (its `comm`, as `ps -o comm` shows it) has used so far,
/// by process id: the database server's processes, say.
fn cpu_seconds_by_process(command: &str) -> BTreeMap<i32, f64> {
    let Ok(processes) = procfs::process::all_processes() else { return BTreeMap::new() };
    processes
        .filter_map(Result::ok)
        .filter_map(|process| {
            let stat = process.stat().ok()?;
            (stat.comm == command).then(|| (process.pid, ticks_to_seconds(stat.utime + stat.stime)))
        })
        .collect()
}

/// What the processes of `after` used since `before`: a process that started between the two counts
/// from nothing, and one that ended counts nothing, so that processes coming and going (a database's
/// short-lived workers) never make the sum go down.
fn used_since(before: &BTreeMap<i32, f64>, after: &BTreeMap<i32, f64>) -> f64 {
    after.iter().map(|(pid, &now)| (now - before.get(pid).copied().unwrap_or(0.0)).max(0.0)).sum()
}

fn ticks_to_seconds(ticks: u64) -> f64 {
    ticks as f64 / procfs::ticks_per_second() as f64
}

fn seconds_of(process: &procfs::process::Process) -> f64 {
    process.stat().map_or(0.0, |stat| ticks_to_seconds(stat.utime + stat.stime))
}

/// What one group of processes used in the measured window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CpuUse {
    /// Cores in use on average (1.0 is one core all the time).
    pub cores: f64,
    /// CPU microseconds per action (per round trip, for echo); 0 without actions.
    pub us_per_action: f64,
    /// CPU microseconds per data frame (both ways, as the load generator counts them); 0 without
    /// frames.
    pub us_per_frame: f64,
}

impl CpuUse {
    /// The use of `cores` cores at `actions` and `frames` per second.
    pub fn at_rates(cores: f64, actions_per_second: f64, frames_per_second: f64) -> CpuUse {
        let per = |rate: f64| if rate > 0.0 { cores * 1e6 / rate } else { 0.0 };
        CpuUse { cores, us_per_action: per(actions_per_second), us_per_frame: per(frames_per_second) }
    }
}

/// The groups of processes whose CPU time a run follows.
#[derive(Debug)]
pub struct CpuWatch {
    servers: Vec<u32>,
    load: Vec<u32>,
    database: Option<String>,
    broker: Vec<u32>,
    start: Option<(Instant, Sample)>,
    end: Option<(Instant, Sample)>,
}

/// CPU seconds used so far by each group: one entry per server, then the load generator, the database
/// and the message broker.
#[derive(Clone, Debug)]
struct Sample {
    servers: Vec<f64>,
    load: f64,
    /// Each of the database's processes.
    database: BTreeMap<i32, f64>,
    broker: f64,
}

/// The cores each group used in a window: servers, load generator, database, message broker.
#[derive(Clone, Debug, PartialEq)]
pub struct Cores {
    /// The servers' processes together (none given: `None`).
    pub servers: Option<f64>,
    /// Each server process, in the order given.
    pub each_server: Vec<f64>,
    /// The load generator's processes.
    pub load: f64,
    /// The database's processes (no command named: `None`).
    pub database: Option<f64>,
    /// The message broker's processes (the NATS server of a cluster; none given: `None`).
    pub broker: Option<f64>,
}

impl CpuWatch {
    /// Follows `servers`, the load generator's own `load` processes, and every process named
    /// `database`.
    pub fn new(servers: Vec<u32>, load: Vec<u32>, database: Option<String>) -> CpuWatch {
        CpuWatch { servers, load, database, broker: Vec::new(), start: None, end: None }
    }

    /// Also follows the message broker's processes `broker` (the NATS server between a cluster's nodes).
    pub fn with_broker(mut self, broker: Vec<u32>) -> CpuWatch {
        self.broker = broker;
        self
    }

    fn sample(&self) -> (Instant, Sample) {
        let database = self.database.as_deref().map(cpu_seconds_by_process).unwrap_or_default();
        // Each process is read once a sample: one named in two groups (a load generator that is also the
        // server) counts the same in both, though a clock tick may pass between two readings.
        let mut read: BTreeMap<u32, f64> = BTreeMap::new();
        let mut seconds = |pids: &[u32]| -> f64 {
            pids.iter().map(|&pid| *read.entry(pid).or_insert_with(|| cpu_seconds(&[pid]))).sum()
        };
        let servers = self.servers.iter().map(|&pid| seconds(&[pid])).collect();
        let sample = Sample { servers, load: seconds(&self.load), database, broker: seconds(&self.broker) };
        (Instant::now(), sample)
    }

    /// Opens the window (once).
    pub fn start(&mut self) {
        if self.start.is_none() {
            self.start = Some(self.sample());
        }
    }

    /// Closes the window (once, and only an open one).
    pub fn stop(&mut self) {
        if self.start.is_some() && self.end.is_none() {
            self.end = Some(self.sample());
        }
    }

    /// The cores used between the window's start and its end; `None` before both.
    pub fn cores(&self) -> Option<Cores> {
        let ((from, before), (to, after)) = (self.start.as_ref()?, self.end.as_ref()?);
        let seconds = to.duration_since(*from).as_secs_f64();
        if seconds <= 0.0 {
            return None;
        }
        let used = |before: f64, after: f64| (after - before).max(0.0) / seconds;
        let each_server: Vec<f64> =
            before.servers.iter().zip(&after.servers).map(|(&before, &after)| used(before, after)).collect();
        Some(Cores {
            servers: (!self.servers.is_empty()).then(|| each_server.iter().sum()),
            each_server,
            load: used(before.load, after.load),
            database: self.database.as_ref().map(|_| used_since(&before.database, &after.database) / seconds),
            broker: (!self.broker.is_empty()).then(|| used(before.broker, after.broker)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Works on this thread until the process `pid` has used `seconds` more CPU time than it had.
    fn spin(pid: u32, seconds: f64) -> u64 {
        let start = cpu_seconds(&[pid]);
        let mut x = 1u64;
        while cpu_seconds(&[pid]) - start < seconds {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        x
    }

    #[test]
    fn the_watch_sees_this_process_work() {
        // The window lasts until the process used 0.3 s of CPU, however long the tests beside this one
        // and the machine's load make that take: it sees some work, and never more than every core.
        let me = std::process::id();
        let mut watch = CpuWatch::new(vec![me], vec![me], None);
        assert_eq!(watch.cores(), None, "no window yet");
        watch.start();
        spin(me, 0.3);
        watch.stop();
        let cores = watch.cores().expect("a closed window");
        let servers = cores.servers.expect("a server was named");
        // `/proc` counts in clock ticks, so a short window may see a few ticks more than it lasted.
        let most = std::thread::available_parallelism().map_or(64.0, |n| n.get() as f64) * 1.25;
        assert!(servers > 0.0 && servers <= most, "{cores:?}");
        assert_eq!(cores.servers, Some(cores.load));
        assert_eq!(cores.each_server, vec![servers]);
        assert_eq!(cores.database, None);
        assert_eq!(cores.broker, None);
    }

    #[test]
    fn processes_that_come_and_go_never_count_less_than_nothing() {
        let before = BTreeMap::from([(1, 5.0), (2, 7.0)]);
        // 1 worked 1 s, 2 ended, 3 started and worked 0.5 s.
        let after = BTreeMap::from([(1, 6.0), (3, 0.5)]);
        assert_eq!(used_since(&before, &after), 1.5);
        assert_eq!(used_since(&after, &after), 0.0);
    }

    #[test]
    fn a_command_is_found_by_its_name_and_a_missing_one_counts_nothing() {
        spin(std::process::id(), 0.05);
        let me = procfs::process::Process::myself().expect("/proc").stat().expect("stat").comm;
        assert!(cpu_seconds_by_process(&me).values().sum::<f64>() > 0.0, "{me}");
        assert!(cpu_seconds_by_process("no-such-command-here").is_empty());
        assert_eq!(cpu_seconds(&[u32::MAX]), 0.0);
    }

    #[test]
    fn use_per_action_and_frame() {
        let cpu = CpuUse::at_rates(0.5, 1000.0, 5000.0);
        assert_eq!(cpu, CpuUse { cores: 0.5, us_per_action: 500.0, us_per_frame: 100.0 });
        assert_eq!(CpuUse::at_rates(0.5, 0.0, 0.0).us_per_action, 0.0);
    }
}
