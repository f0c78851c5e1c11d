//! The server processes a crash run kills and starts again: one `romirami serve`, or the nodes of a
//! cluster that meet on NATS over one PostgreSQL database.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

use super::CrashError;
use super::seat::NodeUrls;

/// How the nodes of a cluster meet.
#[derive(Clone, Debug)]
pub struct ClusterOptions {
    /// The NATS server, `nats://HOST:PORT`.
    pub nats_url: String,
    /// The cluster's name: fresh for each run, so that runs sharing a NATS server never meet.
    pub name: String,
    /// The nodes' lease length: a dead node's tables wait this long before another node takes them.
    pub lease: Duration,
}

/// The `ROMIRAMI_*` settings of this process's environment, which a `romirami` started by a harness or a
/// test must not inherit: its arguments alone say how it runs.
pub fn inherited_settings() -> impl Iterator<Item = std::ffi::OsString> {
    std::env::vars_os().map(|(name, _)| name).filter(|name| name.to_string_lossy().starts_with("ROMIRAMI_"))
}

/// A running server process.
struct ServerProcess {
    child: Child,
    url: String,
}

impl ServerProcess {
    async fn start(binary: &Path, database_url: &str, cluster: &[String]) -> Result<ServerProcess, CrashError> {
        let mut command = Command::new(binary);
        // The server is set up by these arguments alone, not by `ROMIRAMI_*` settings of the harness's
        // own environment (a cluster to join, say).
        for name in inherited_settings() {
            command.env_remove(name);
        }
        let mut child = command
            .args(["serve", "--listen", "127.0.0.1:0", "--database-url", database_url])
            // Bots need no pause between rounds to see their results, and play faster than people: the
            // clients pace their messages to the rate the server announces.
            .args(["--round-pause-ms", "0", "--messages-per-second", "1000", "--message-burst", "1000"])
            .args(cluster)
            // Warnings only, unless `ROMIRAMI_CRASH_RUST_LOG` asks for more (to see what a failed run did).
            .env("RUST_LOG", std::env::var("ROMIRAMI_CRASH_RUST_LOG").unwrap_or_else(|_| "warn".into()))
            .stdout(Stdio::piped())
            .stderr(server_log())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| CrashError::Server(e.to_string()))?;
        let stdout = child.stdout.take().ok_or_else(|| CrashError::Server("no standard output".into()))?;
        let mut lines = BufReader::new(stdout).lines();
        let first = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
            .await
            .map_err(|_| CrashError::Server("the server did not start within 60 s".into()))?
            .map_err(|e| CrashError::Server(e.to_string()))?
            .ok_or_else(|| CrashError::Server("the server exited at start-up".into()))?;
        let address = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| CrashError::Server(format!("no address in {first:?}")))?;
        // Keep reading standard output so the server never blocks on it.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(ServerProcess { url: format!("ws://{address}/ws"), child })
    }

    /// SIGKILL: no graceful path.
    async fn kill(mut self) -> Result<(), CrashError> {
        self.child.kill().await.map_err(|e| CrashError::Server(e.to_string()))
    }
}

/// Where the servers' log goes: the file `ROMIRAMI_CRASH_LOG` names (appended to), else nowhere.
fn server_log() -> Stdio {
    std::env::var_os("ROMIRAMI_CRASH_LOG")
        .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok())
        .map_or_else(Stdio::null, Stdio::from)
}

/// How a killed node came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Restart {
    /// Under its id: it takes its tables back as it starts, without waiting for their leases to run out.
    SameId,
    /// Under a new id (as a new machine would): its old tables wait for their leases to run out, and any
    /// node takes them over.
    NewId,
}

/// The server processes of a run, and the live nodes' URLs as the bots see them.
pub(super) struct Nodes {
    binary: PathBuf,
    database_url: String,
    cluster: Option<ClusterOptions>,
    processes: Vec<Option<ServerProcess>>,
    /// Each node's id, and how many times it took a new one.
    ids: Vec<(String, usize)>,
    urls: watch::Sender<Vec<Option<String>>>,
    /// More arguments for every node.
    extra: Vec<String>,
}

impl Nodes {
    /// Starts `count` nodes (one plain server without `cluster`).
    pub(super) async fn start(
        binary: &Path,
        database_url: &str,
        cluster: Option<ClusterOptions>,
        count: usize,
    ) -> Result<Nodes, CrashError> {
        Nodes::start_with(binary, database_url, cluster, count, Vec::new()).await
    }

    /// Starts `count` nodes, each with the arguments `extra` besides.
    pub(super) async fn start_with(
        binary: &Path,
        database_url: &str,
        cluster: Option<ClusterOptions>,
        count: usize,
        extra: Vec<String>,
    ) -> Result<Nodes, CrashError> {
        let (urls, _) = watch::channel(vec![None; count]);
        let mut nodes = Nodes {
            binary: binary.to_owned(),
            database_url: database_url.to_owned(),
            cluster,
            processes: (0..count).map(|_| None).collect(),
            ids: (0..count).map(|n| (format!("n{n}"), 0)).collect(),
            urls,
            extra,
        };
        for node in 0..count {
            nodes.start_node(node).await?;
        }
        Ok(nodes)
    }

    async fn start_node(&mut self, node: usize) -> Result<(), CrashError> {
        let mut args = match &self.cluster {
            Some(cluster) => vec![
                "--cluster".into(),
                cluster.nats_url.clone(),
                "--cluster-name".into(),
                cluster.name.clone(),
                "--node-id".into(),
                self.id(node).to_owned(),
                "--lease-ms".into(),
                cluster.lease.as_millis().to_string(),
            ],
            None => Vec::new(),
        };
        args.extend(self.extra.iter().cloned());
        let process = ServerProcess::start(&self.binary, &self.database_url, &args).await?;
        let url = process.url.clone();
        self.processes[node] = Some(process);
        self.urls.send_modify(|urls| urls[node] = Some(url));
        Ok(())
    }

    /// How many nodes there are.
    pub(super) fn count(&self) -> usize {
        self.processes.len()
    }

    /// The id node `node` runs under now.
    pub(super) fn id(&self, node: usize) -> &str {
        &self.ids[node].0
    }

    /// The live nodes' URLs, for the bots.
    pub(super) fn urls(&self) -> NodeUrls {
        self.urls.subscribe()
    }

    /// The URL of node `node`, when it is up.
    pub(super) fn url(&self, node: usize) -> Option<String> {
        self.processes[node].as_ref().map(|p| p.url.clone())
    }

    /// Kills node `node` with SIGKILL (marked down first, so that no bot picks it meanwhile).
    pub(super) async fn kill(&mut self, node: usize) -> Result<(), CrashError> {
        self.urls.send_modify(|urls| urls[node] = None);
        match self.processes[node].take() {
            Some(process) => process.kill().await,
            None => Ok(()),
        }
    }

    /// Starts node `node` again, as `restart` says.
    pub(super) async fn restart(&mut self, node: usize, restart: Restart) -> Result<(), CrashError> {
        if restart == Restart::NewId {
            let generation = self.ids[node].1 + 1;
            self.ids[node] = (format!("n{node}.{generation}"), generation);
        }
        self.start_node(node).await
    }

    /// Kills every node.
    pub(super) async fn stop(mut self) -> Result<(), CrashError> {
        for node in 0..self.count() {
            self.kill(node).await?;
        }
        Ok(())
    }
}
