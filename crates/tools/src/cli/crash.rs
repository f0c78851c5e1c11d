//! `romirami crash`: the crash harness of [`crate::crash`] from the command line.

use anyhow::Context;

use crate::crash::{ClusterOptions, CrashOptions, CrashReport, every_game, run};

/// The arguments of `romirami crash`.
#[derive(Clone, Debug, clap::Args)]
pub struct CrashArgs {
    /// How many times to kill a server node.
    #[arg(long, default_value_t = 20)]
    pub kills: usize,
    /// How many server nodes to run: 1, a plain server; more, a cluster on PostgreSQL and NATS whose bots
    /// are spread over the nodes, a random one of which is killed each time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub nodes: u64,
    /// The NATS server the nodes of a cluster meet on (with `--nodes` above 1).
    #[arg(long, env = "NATS_URL", default_value = "nats://127.0.0.1:4222")]
    pub cluster: String,
    /// The nodes' lease length in milliseconds (with `--nodes` above 1): a dead node's tables wait this
    /// long before another node takes them over.
    #[arg(long, default_value_t = 1500, value_parser = clap::value_parser!(u64).range(300..=60_000))]
    pub lease_ms: u64,
    /// How many games to play at once (tables of 2, 3 and 4 players in turn).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub tables: u64,
    /// The database the server uses; a temporary SQLite file when left out (a cluster needs PostgreSQL).
    #[arg(long)]
    pub database_url: Option<String>,
    /// The game to play, by its name (romi-rami, rommi, rami, rumino), or mix: every game in turn.
    #[arg(long, default_value = "romi-rami")]
    pub game: String,
    /// Seeds the moments of the kills.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the harness against this very binary as the server.
///
/// # Errors
/// When the server cannot be run, a bot fails or a check does not hold.
pub fn run_crash(args: &CrashArgs) -> anyhow::Result<CrashReport> {
    let binary = std::env::current_exe().context("finding the romirami binary")?;
    let dir = tempfile::tempdir().context("creating a temporary directory")?;
    let database_url =
        args.database_url.clone().unwrap_or_else(|| format!("sqlite://{}", dir.path().join("crash.db").display()));
    let games: Vec<&'static str> = match args.game.as_str() {
        "mix" => every_game(),
        game => vec![
            every_game()
                .into_iter()
                .find(|name| *name == game)
                .with_context(|| format!("--game: no game called {game} ({} or mix)", every_game().join(", ")))?,
        ],
    };
    let nodes = usize::try_from(args.nodes).unwrap_or(usize::MAX);
    if nodes > 1 && !database_url.starts_with("postgres") {
        anyhow::bail!(
            "--nodes {nodes}: the nodes of a cluster share one PostgreSQL database: give --database-url postgres://..."
        );
    }
    // A fresh cluster name for each run, so that runs sharing a NATS server never meet.
    let cluster = (nodes > 1).then(|| ClusterOptions {
        nats_url: args.cluster.clone(),
        name: format!("crash-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
        lease: std::time::Duration::from_millis(args.lease_ms),
    });
    let options = CrashOptions {
        nodes,
        cluster,
        games,
        binary,
        database_url,
        kills: args.kills,
        tables: usize::try_from(args.tables).unwrap_or(usize::MAX),
        actions_between_kills: (5, 60),
        seed: args.seed,
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    Ok(runtime.block_on(run(&options))?)
}
