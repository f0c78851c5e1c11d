//! The crash harness: bot games against a real `romirami serve` process that is killed with SIGKILL at
//! random moments and started again on the same database, until every game is finished. Any game the
//! server seats can be played, or all of them in turn ([`GAMES`]).
//!
//! Each seat is played by its own bot client, which keeps, for each life of the server, the actions the
//! server acknowledged to it and the one it had sent without an answer when the server died. Once every
//! game is over, the harness reads each game's record from the database and checks that:
//! - the record replays through the game's rules (its `replay`, which checks every step and the result);
//! - the result the seats were shown in `game_over` is the record's;
//! - the seats' acknowledged actions, played in turn from the record's seed, make exactly the stored game,
//!   event for event, with each life's unanswered action in or out: no acknowledged action is lost and
//!   none is applied twice (the module `check`).
//!
//! `romirami crash` runs it from the command line (the benchmark script uses 200 kills); the test suite
//! runs it with fewer.

mod check;
mod seat;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

use romirami_protocol::TableId;
use romirami_server::store::{Store, StoreError};

use seat::{SeatBot, open_table};

/// The games the harness plays (`--game mix` plays them in turn), each with the table options it
/// gives them: short matches (one Rommi round or so, two Rami rounds, Rumino without rebuys), so that
/// a run finishes many games of each, and rounds end and begin across kills.
pub const GAMES: [(&str, Option<&str>); 4] = [
    ("romi-rami", None),
    ("rommi", Some(r#"{"target": 1}"#)),
    ("rami", Some(r#"{"match_end": {"rounds": 2}}"#)),
    ("rumino", Some(r#"{"max_rebuys": 0}"#)),
];

/// The table options the harness gives `game`.
fn table_options(game: &str) -> Option<Value> {
    GAMES
        .iter()
        .find(|(name, _)| *name == game)
        .and_then(|(_, options)| options.map(|o| serde_json::from_str(o).unwrap_or(json!({}))))
}

/// What a crash run does.
#[derive(Clone, Debug)]
pub struct CrashOptions {
    /// The `romirami` binary to run as the server.
    pub binary: PathBuf,
    /// The server's database (`sqlite://...` or `postgres://...`), fresh or not.
    pub database_url: String,
    /// How many times to kill the server.
    pub kills: usize,
    /// How many games to play at once: tables of 2, 3 and 4 players in turn.
    pub tables: usize,
    /// The games to play, tables of each in turn: names of [`GAMES`].
    pub games: Vec<&'static str>,
    /// The fewest and most actions acknowledged between two kills (chosen at random in between).
    pub actions_between_kills: (usize, usize),
    /// Seeds the choice of the moments to kill.
    pub seed: u64,
}

/// What a crash run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrashReport {
    /// Games played to their end.
    pub games: usize,
    /// Of those, how many of each game.
    pub by_game: BTreeMap<&'static str, usize>,
    /// Times the server was killed.
    pub kills: usize,
    /// Actions acknowledged to the bots.
    pub acknowledged: usize,
    /// Actions in the games' records, each checked against what the bots were told.
    pub checked: usize,
    /// Actions sent just before a kill and never answered that turned out to be stored.
    pub unanswered_stored: usize,
    /// Actions sent just before a kill and never answered that were not stored (so not played).
    pub unanswered_dropped: usize,
    /// The longest time from a kill until the new server listened with every game restored.
    pub slowest_restart: Duration,
}

impl std::fmt::Display for CrashReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games finished ({}) across {} kills (SIGKILL); {} actions acknowledged, {} actions in the \
             records checked, none lost or doubled; {} unanswered actions were stored, {} were not; slowest \
             restart {:?}",
            self.games,
            self.by_game.iter().map(|(game, n)| format!("{game} {n}")).collect::<Vec<_>>().join(", "),
            self.kills,
            self.acknowledged,
            self.checked,
            self.unanswered_stored,
            self.unanswered_dropped,
            self.slowest_restart
        )
    }
}

/// Why a crash run failed.
#[derive(Debug, thiserror::Error)]
pub enum CrashError {
    /// The server process could not be run.
    #[error("the server could not be run: {0}")]
    Server(String),
    /// A client failed in a way a restart does not explain.
    #[error("a bot failed: {0}")]
    Bot(String),
    /// The database could not be read.
    #[error("the database could not be read: {0}")]
    Store(#[from] StoreError),
    /// What the harness checks does not hold.
    #[error("check failed: {0}")]
    Check(String),
}

/// A running server process.
struct ServerProcess {
    child: Child,
    url: String,
}

impl ServerProcess {
    async fn start(binary: &Path, database_url: &str) -> Result<ServerProcess, CrashError> {
        let mut child = Command::new(binary)
            .args(["serve", "--listen", "127.0.0.1:0", "--database-url", database_url])
            // Bots need no pause between rounds to see their results, and play faster than people: the
            // clients pace their messages to the rate the server announces.
            .args(["--round-pause-ms", "0", "--messages-per-second", "1000", "--message-burst", "1000"])
            .env("RUST_LOG", "warn")
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

/// Where the server's log goes: the file `ROMIRAMI_CRASH_LOG` names (appended to), else nowhere.
fn server_log() -> Stdio {
    std::env::var_os("ROMIRAMI_CRASH_LOG")
        .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok())
        .map_or_else(Stdio::null, Stdio::from)
}

/// Runs the harness: opens `tables` games, kills the server `kills` times while they are played,
/// then checks every game's record. See the module documentation.
///
/// # Errors
/// When the server cannot be run, a bot fails, or a check does not hold.
pub async fn run(options: &CrashOptions) -> Result<CrashReport, CrashError> {
    if let Some(unknown) = options.games.iter().find(|g| !GAMES.iter().any(|(name, _)| name == *g)) {
        return Err(CrashError::Check(format!("no game called {unknown}")));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut server = ServerProcess::start(&options.binary, &options.database_url).await?;
    let (publish, subscription) = watch::channel(Some(server.url.clone()));
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    let mut opened = 0;
    let mut report = CrashReport::default();
    let (fewest, most) = options.actions_between_kills;
    loop {
        // Games that end before every kill is done are followed by new ones.
        if tasks.iter().all(|t: &tokio::task::JoinHandle<_>| t.is_finished()) {
            for _ in 0..options.tables.max(1) {
                let players = 2 + (opened % 3) as u8;
                let game = options.games[opened % options.games.len().max(1)];
                let name = format!("crash{opened}");
                for (bot, client) in open_table(&server.url, game, table_options(game), players, &name).await? {
                    tasks.push(tokio::spawn(bot.run(subscription.clone(), acknowledged.clone(), Some(client))));
                }
                opened += 1;
            }
        }
        if report.kills == options.kills {
            break;
        }
        let span = most.saturating_sub(fewest) as u64 + 1;
        let target = acknowledged.load(Ordering::Relaxed) + fewest + (rng.next_u64() % span) as usize;
        while acknowledged.load(Ordering::Relaxed) < target && !tasks.iter().all(|t| t.is_finished()) {
            tokio::time::sleep(Duration::from_micros(200 + rng.next_u64() % 800)).await;
        }
        if tasks.iter().all(|t| t.is_finished()) {
            continue;
        }
        publish.send_replace(None);
        server.kill().await?;
        report.kills += 1;
        let start = std::time::Instant::now();
        server = ServerProcess::start(&options.binary, &options.database_url).await?;
        report.slowest_restart = report.slowest_restart.max(start.elapsed());
        publish.send_replace(Some(server.url.clone()));
    }
    let mut bots = Vec::new();
    for task in tasks {
        bots.push(task.await.map_err(|e| CrashError::Bot(e.to_string()))??);
    }
    drop(publish);
    report.acknowledged = acknowledged.load(Ordering::Relaxed);

    // Every game is over: check its record against what its seats were told.
    let store = Store::connect(&options.database_url).await?;
    let registry = romirami_server::games();
    let mut tables: Vec<TableId> = bots.iter().map(|bot| bot.table).collect();
    tables.dedup();
    for table in tables {
        let mut seats: Vec<&SeatBot> = bots.iter().filter(|bot| bot.table == table).collect();
        seats.sort_by_key(|bot| bot.seat);
        let Some(first) = seats.first() else { continue };
        let kind = registry.get(first.game).ok_or_else(|| CrashError::Check(format!("no game {}", first.game)))?;
        let record = wait_for_record(&store, table).await?;
        let lives: Vec<&[seat::Life]> = seats.iter().map(|bot| bot.lives.as_slice()).collect();
        let checked = check::check(kind.as_ref(), first.options.as_ref(), &record, &lives)
            .map_err(|e| CrashError::Check(format!("{} game {table}: {e}", first.game)))?;
        for bot in &seats {
            if bot.result.is_some() && bot.result != checked.result {
                return Err(CrashError::Check(format!("{} of {table} was shown another result", bot.seat)));
            }
        }
        report.games += 1;
        *report.by_game.entry(first.game).or_default() += 1;
        report.checked += checked.actions;
        report.unanswered_stored += checked.unanswered_stored;
        report.unanswered_dropped +=
            seats.iter().flat_map(|bot| &bot.lives).filter(|life| life.unanswered.is_some()).count()
                - checked.unanswered_stored;
    }
    store.close().await;
    server.kill().await?;
    Ok(report)
}

/// The record of a finished game, which the server stores right after the game ends.
async fn wait_for_record(store: &Store, table: TableId) -> Result<String, CrashError> {
    for _ in 0..200 {
        match store.record(table).await {
            Ok(record) => return Ok(record),
            Err(StoreError::NotFound) => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(error) => return Err(error.into()),
        }
    }
    Err(CrashError::Check(format!("game {table} was not stored as finished within 10 s")))
}
