//! `romirami crash`: the crash harness of [`crate::crash`] from the command line.

use anyhow::Context;

use crate::crash::{
    ClusterOptions, CrashOptions, CrashReport, TournamentCrashOptions, TournamentCrashReport, every_game, run,
    run_tournament,
};

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
    /// Plays a Swiss tournament of two-player tables of `--game` instead (created and joined over REST),
    /// every other kill hitting the node that directs it; checks its rounds, tables and records.
    #[arg(long)]
    pub tournament: bool,
    /// The tournament's players (even), with `--tournament`.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub players: u64,
    /// The tournament's Swiss rounds, with `--tournament`.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub rounds: u32,
}

/// What a crash run found: games at tables, or a tournament.
#[derive(Debug)]
pub enum CrashOutcome {
    /// Games at tables.
    Tables(CrashReport),
    /// A tournament.
    Tournament(TournamentCrashReport),
}

impl std::fmt::Display for CrashOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CrashOutcome::Tables(report) => report.fmt(f),
            CrashOutcome::Tournament(report) => report.fmt(f),
        }
    }
}

/// Runs the harness against this very binary as the server.
///
/// # Errors
/// When the server cannot be run, a bot fails or a check does not hold.
pub fn run_crash(args: &CrashArgs) -> anyhow::Result<CrashOutcome> {
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
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    if args.tournament {
        let game = match games.as_slice() {
            [game] => *game,
            _ => anyhow::bail!("--tournament plays one game: give --game"),
        };
        let options = TournamentCrashOptions {
            binary,
            database_url,
            nodes,
            cluster,
            game,
            players: usize::try_from(args.players).unwrap_or(usize::MAX),
            rounds: args.rounds,
            kills: args.kills,
            seed: args.seed,
        };
        return Ok(CrashOutcome::Tournament(runtime.block_on(run_tournament(&options))?));
    }
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
    Ok(CrashOutcome::Tables(runtime.block_on(run(&options))?))
}
