//! The crash harness: bot games against real `romirami serve` processes that are killed with SIGKILL at
//! random moments and started again, until every game is finished. Any game the server seats can be
//! played, or all of them in turn ([`every_game`]).
//!
//! With one node (the default) the one server is killed and started again on the same database. With
//! several (`nodes` > 1, PostgreSQL and NATS) the nodes form a cluster: each seat's bot is connected to a
//! node in turn, so that most tables have players on several nodes; a random node is killed, and started
//! again under its id or under a new one, at random: the first takes its
//! tables back as it starts, the second leaves them to be taken over by any node when their leases run
//! out. The bots of a dead node connect to a live one, the bots of its tables on other nodes are told
//! that their table moved, and all join again with `since` until the table is back.
//!
//! Each seat is played by its own bot client, which keeps, for each life — from a join until its
//! connection broke or its table moved — the actions the server acknowledged to it and the one it had
//! sent without an answer when that life ended. Once every game is over, the harness reads each game's
//! record from the database and checks that:
//! - the record replays through the game's rules (its `replay`, which checks every step and the result);
//! - the result the seats were shown in `game_over` is the record's;
//! - the seats' acknowledged actions, played in turn from the record's seed, make exactly the stored game,
//!   event for event, with each life's unanswered action in or out: no acknowledged action is lost and
//!   none is applied twice (the module `check`).
//!
//! It also measures how quickly play resumes after each kill ([`Failover`]).
//!
//! `romirami crash` runs it from the command line (the benchmark script uses 200 kills); the test suite
//! runs it with fewer.

mod check;
mod figures;
mod nodes;
mod seat;
mod tournament;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use romirami_protocol::TableId;
use romirami_server::store::{Store, StoreError};

pub use figures::Failover;
use figures::Kill;
pub use nodes::{ClusterOptions, inherited_settings};
use nodes::{Nodes, Restart};
use seat::{SeatBot, open_table};
pub use tournament::{TournamentCrashOptions, TournamentCrashReport, run_tournament};

/// The table options the harness gives some games, for short matches (one Rommi round or so, two Rami
/// rounds, Rumino without rebuys), so that a run finishes many games of each and rounds end and begin
/// across kills. Any other game the server seats is played with its defaults.
pub const SHORT_MATCHES: [(&str, &str); 3] =
    [("rommi", r#"{"target": 1}"#), ("rami", r#"{"match_end": {"rounds": 2}}"#), ("rumino", r#"{"max_rebuys": 0}"#)];

/// The games the harness plays with `--game mix`: every game the server seats, in name order.
pub fn every_game() -> Vec<&'static str> {
    romirami_server::games().names().collect()
}

/// The table options the harness gives `game`.
fn table_options(game: &str) -> Option<Value> {
    SHORT_MATCHES
        .iter()
        .find(|(name, _)| *name == game)
        .map(|(_, options)| serde_json::from_str(options).unwrap_or(json!({})))
}

/// What a crash run does.
#[derive(Clone, Debug)]
pub struct CrashOptions {
    /// The `romirami` binary to run as the server.
    pub binary: PathBuf,
    /// The server's database (`sqlite://...` or `postgres://...`), fresh or not; PostgreSQL for a cluster.
    pub database_url: String,
    /// How many server nodes to run: one plain server, or a cluster of several (with `cluster`).
    pub nodes: usize,
    /// How the nodes meet, when there are several.
    pub cluster: Option<ClusterOptions>,
    /// How many times to kill a node.
    pub kills: usize,
    /// How many games to play at once: tables of 2, 3 and 4 players in turn.
    pub tables: usize,
    /// The games to play, tables of each in turn: names of games the server seats.
    pub games: Vec<&'static str>,
    /// The fewest and most actions acknowledged between two kills (chosen at random in between).
    pub actions_between_kills: (usize, usize),
    /// Seeds the choice of the moments to kill, of the node killed and of how it comes back.
    pub seed: u64,
}

/// What a crash run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrashReport {
    /// Server nodes run.
    pub nodes: usize,
    /// Games played to their end.
    pub games: usize,
    /// Of those, how many of each game.
    pub by_game: BTreeMap<&'static str, usize>,
    /// Times a node was killed.
    pub kills: usize,
    /// Of those, how many times the node came back under a new id (its tables taken over by any node).
    pub new_ids: usize,
    /// Actions acknowledged to the bots.
    pub acknowledged: usize,
    /// Actions in the games' records, each checked against what the bots were told.
    pub checked: usize,
    /// Actions sent just before a kill (or a move) and never answered that turned out to be stored.
    pub unanswered_stored: usize,
    /// Actions sent just before a kill (or a move) and never answered that were not stored (so not played).
    pub unanswered_dropped: usize,
    /// The longest time from a kill until the new server listened with every game restored.
    pub slowest_restart: Duration,
    /// How quickly play resumed after the kills.
    pub failover: Failover,
    /// How long the run took.
    pub wall: Duration,
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
        )?;
        if self.nodes > 1 {
            write!(
                f,
                "\n{} nodes, {} kills restarted the node under its id and {} under a new one; {}; wall time {:.1} s",
                self.nodes,
                self.kills - self.new_ids,
                self.new_ids,
                self.failover,
                self.wall.as_secs_f64()
            )?;
        }
        Ok(())
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

/// Runs the harness: opens `tables` games, kills a node `kills` times while they are played, then checks
/// every game's record. See the module documentation.
///
/// # Errors
/// When the options do not make a run, a server cannot be run, a bot fails, or a check does not hold.
pub async fn run(options: &CrashOptions) -> Result<CrashReport, CrashError> {
    let games = romirami_server::games();
    if let Some(unknown) = options.games.iter().find(|g| games.get(g).is_none()) {
        return Err(CrashError::Check(format!("no game called {unknown}")));
    }
    let cluster = match (options.nodes, &options.cluster) {
        (0, _) => return Err(CrashError::Check("a run needs one node at least".into())),
        (1, _) => None,
        (_, None) => return Err(CrashError::Check("several nodes need a cluster (NATS) to meet in".into())),
        (_, Some(_)) if !options.database_url.starts_with("postgres") => {
            return Err(CrashError::Check("several nodes need a PostgreSQL database (postgres://...)".into()));
        }
        (_, Some(cluster)) => Some(cluster.clone()),
    };
    let began = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut nodes = Nodes::start(&options.binary, &options.database_url, cluster, options.nodes).await?;
    // On a cluster the harness reads the leases (which node owns which table at a kill) as it goes; it reads
    // the records once every game is over.
    let leases = match options.nodes {
        1 => None,
        _ => Some(Store::connect(&options.database_url).await?),
    };
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let mut tasks: Vec<(TableId, JoinHandle<Result<SeatBot, CrashError>>)> = Vec::new();
    let (mut opened, mut seated) = (0, 0);
    let mut report = CrashReport { nodes: options.nodes, ..CrashReport::default() };
    let mut kills = Vec::new();
    let (fewest, most) = options.actions_between_kills;
    let all_over = |tasks: &[(TableId, JoinHandle<_>)]| tasks.iter().all(|(_, t)| t.is_finished());
    // The first bot to fail stops the run at once (the others would wait for its table).
    let failed: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
    let failure = || failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    loop {
        // Games that end before every kill is done are followed by new ones.
        if all_over(&tasks) {
            for _ in 0..options.tables.max(1) {
                let players = 2 + (opened % 3);
                let game = options.games[opened % options.games.len().max(1)];
                let name = format!("crash{opened}");
                // Each seat on the next node in turn, so that most tables have players on several nodes.
                let mut urls = Vec::new();
                for _ in 0..players {
                    let node = seated % nodes.count();
                    seated += 1;
                    let url = nodes.url(node).ok_or_else(|| CrashError::Server(format!("node {node} is down")))?;
                    urls.push((node, url));
                }
                let cluster = options.nodes > 1;
                for (bot, client) in open_table(&urls, game, table_options(game), &name, cluster).await? {
                    let (table, failed) = (bot.table, Arc::clone(&failed));
                    let play = bot.run(nodes.urls(), acknowledged.clone(), client);
                    tasks.push((
                        table,
                        tokio::spawn(async move {
                            let played = play.await;
                            if let Err(error) = &played {
                                let error = match error {
                                    CrashError::Bot(message) => message.clone(),
                                    other => other.to_string(),
                                };
                                failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get_or_insert(error);
                            }
                            played
                        }),
                    ));
                }
                opened += 1;
            }
        }
        if report.kills == options.kills {
            break;
        }
        let span = most.saturating_sub(fewest) as u64 + 1;
        let target = acknowledged.load(Ordering::Relaxed) + fewest + (rng.next_u64() % span) as usize;
        while acknowledged.load(Ordering::Relaxed) < target && !all_over(&tasks) && failure().is_none() {
            tokio::time::sleep(Duration::from_micros(200 + rng.next_u64() % 800)).await;
        }
        if let Some(error) = failure() {
            return Err(CrashError::Bot(error));
        }
        if all_over(&tasks) {
            continue;
        }
        let node = match nodes.count() {
            1 => 0,
            count => (rng.next_u64() % count as u64) as usize,
        };
        let id = nodes.id(node).to_owned();
        nodes.kill(node).await?;
        let at = Instant::now();
        report.kills += 1;
        let tables = owned_by(leases.as_ref(), &id, &tasks).await?;
        kills.push(Kill { at, node, tables });
        let restart = if options.nodes > 1 && rng.next_u64() % 2 == 1 { Restart::NewId } else { Restart::SameId };
        report.new_ids += usize::from(restart == Restart::NewId);
        nodes.restart(node, restart).await?;
        report.slowest_restart = report.slowest_restart.max(at.elapsed());
        if options.nodes > 1 {
            // Progress, on standard error: which node, and how long it took to come back.
            eprintln!(
                "kill {}/{} at {:.1} s: node {id} ({} tables), back as {} in {} ms; {} actions acknowledged",
                report.kills,
                options.kills,
                (at - began).as_secs_f64(),
                kills.last().map_or(0, |k: &Kill| k.tables.len()),
                nodes.id(node),
                at.elapsed().as_millis(),
                acknowledged.load(Ordering::Relaxed)
            );
        }
    }
    let mut bots = Vec::new();
    for (_, task) in tasks {
        bots.push(task.await.map_err(|e| CrashError::Bot(e.to_string()))??);
    }
    report.acknowledged = acknowledged.load(Ordering::Relaxed);
    report.failover = figures::failover(&kills, &bots);
    let store = match leases {
        Some(store) => store,
        None => Store::connect(&options.database_url).await?,
    };
    check_games(&store, &bots, &mut report).await?;
    store.close().await;
    nodes.stop().await?;
    report.wall = began.elapsed();
    Ok(report)
}

/// The tables in play that the node `id` owned when it was killed: every one with a single server; on a
/// cluster, those whose lease (read from `leases`) names it.
async fn owned_by(
    leases: Option<&Store>,
    id: &str,
    tasks: &[(TableId, JoinHandle<Result<SeatBot, CrashError>>)],
) -> Result<Vec<TableId>, CrashError> {
    let mut tables: Vec<TableId> = tasks.iter().filter(|(_, t)| !t.is_finished()).map(|(table, _)| *table).collect();
    tables.dedup();
    let Some(store) = leases else { return Ok(tables) };
    let mut owned = Vec::new();
    for table in tables {
        if store.lease(table).await?.is_some_and(|lease| lease.fence.node == id) {
            owned.push(table);
        }
    }
    Ok(owned)
}

/// Checks every game's record against what its seats were told (every game is over), adding up `report`.
async fn check_games(store: &Store, bots: &[SeatBot], report: &mut CrashReport) -> Result<(), CrashError> {
    let registry = romirami_server::games();
    let mut tables: Vec<TableId> = bots.iter().map(|bot| bot.table).collect();
    tables.dedup();
    for table in tables {
        let mut seats: Vec<&SeatBot> = bots.iter().filter(|bot| bot.table == table).collect();
        seats.sort_by_key(|bot| bot.seat);
        let Some(first) = seats.first() else { continue };
        let kind = registry.get(first.game).ok_or_else(|| CrashError::Check(format!("no game {}", first.game)))?;
        let record = wait_for_record(store, table).await?;
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
    Ok(())
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
