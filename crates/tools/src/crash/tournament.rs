//! The crash harness's tournament mode: a Swiss tournament of bot players, created and joined over REST
//! on real `romirami serve` processes, while nodes are killed with SIGKILL — on a cluster every other kill
//! hits the node directing the tournament, so that another node takes it over from the store.
//!
//! Each player is a [`TournamentPlayer`] on a node in turn; when its connection breaks it connects to a
//! live node again and goes on (a game it was playing is joined again; one the bot finished for it
//! meanwhile is over). At the end it checks that:
//! - the tournament finished with every round it was to have, every player seated exactly once a round
//!   and no two players meeting twice (8 players and 3 rounds of two always allow it);
//! - the tables the store holds for the tournament are exactly those of its rounds: none opened twice,
//!   none lost;
//! - every game's record replays through the game's rules;
//! - each player played (or had the bot finish) exactly the tables that seat it.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use romirami_client::tournament::{TournamentPlayer, http_base, post};
use romirami_client::{Client, ClientError};
use romirami_protocol::{PlayerId, TableId};
use romirami_server::store::Store;
use serde_json::{Value, json};
use uuid::Uuid;

use super::nodes::{Nodes, Restart};
use super::seat::NodeUrls;
use super::{ClusterOptions, CrashError, wait_for_record};

/// The longest a run may take before it fails.
const DEADLINE: Duration = Duration::from_secs(600);
/// The pause before a player whose connection broke connects again.
const RECONNECT_PAUSE: Duration = Duration::from_millis(100);

/// What a tournament crash run does.
#[derive(Clone, Debug)]
pub struct TournamentCrashOptions {
    /// The `romirami` binary to run as the server.
    pub binary: PathBuf,
    /// The server's database: PostgreSQL for a cluster.
    pub database_url: String,
    /// How many server nodes to run.
    pub nodes: usize,
    /// How the nodes meet, when there are several.
    pub cluster: Option<ClusterOptions>,
    /// The game (two-player tables).
    pub game: &'static str,
    /// Players (even: tables of two, no byes).
    pub players: usize,
    /// Swiss rounds.
    pub rounds: u32,
    /// How many times to kill a node.
    pub kills: usize,
    /// Seeds the moments of the kills and the nodes killed.
    pub seed: u64,
}

/// What a tournament crash run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentCrashReport {
    /// Server nodes run.
    pub nodes: usize,
    /// Players.
    pub players: usize,
    /// Rounds played.
    pub rounds: usize,
    /// Games played, each record replayed.
    pub games: usize,
    /// Times a node was killed.
    pub kills: usize,
    /// Of those, how many hit the node directing the tournament.
    pub director_kills: usize,
    /// How many times a node came back under a new id.
    pub new_ids: usize,
    /// How long the run took.
    pub wall: Duration,
}

impl std::fmt::Display for TournamentCrashReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a Swiss of {} players over {} rounds finished on {} node(s) across {} kills (SIGKILL; {} of the \
             directing node, {} back under a new id): {} games, each record replayed, every player seated once a \
             round, no pair twice, no table opened twice; wall time {:.1} s",
            self.players,
            self.rounds,
            self.nodes,
            self.kills,
            self.director_kills,
            self.new_ids,
            self.games,
            self.wall.as_secs_f64()
        )
    }
}

fn bot_error(context: &str) -> impl Fn(ClientError) -> CrashError + '_ {
    move |error| CrashError::Bot(format!("{context}: {error}"))
}

/// Runs a tournament under kills. See the module documentation.
///
/// # Errors
/// When a server cannot be run, a request is refused, the tournament does not finish in time, or a check
/// does not hold.
pub async fn run_tournament(options: &TournamentCrashOptions) -> Result<TournamentCrashReport, CrashError> {
    if options.players < 2 || options.players % 2 == 1 {
        return Err(CrashError::Check("a tournament crash run needs an even number of players".into()));
    }
    if options.nodes > 1 && (options.cluster.is_none() || !options.database_url.starts_with("postgres")) {
        return Err(CrashError::Check("several nodes need a cluster (NATS) and PostgreSQL".into()));
    }
    let began = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    // A short pause between rounds, so that kills fall in rounds and between them.
    let extra = vec!["--tournament-round-pause-ms".to_owned(), "300".to_owned()];
    let mut nodes =
        Nodes::start_with(&options.binary, &options.database_url, options.cluster.clone(), options.nodes, extra)
            .await?;
    let store = Store::connect(&options.database_url).await?;
    let url = |nodes: &Nodes, n: usize| nodes.url(n).ok_or_else(|| CrashError::Server(format!("node {n} is down")));
    let id = create(&url(&nodes, 0)?, options).await?;
    let mut players = Vec::new();
    for i in 0..options.players {
        let at = url(&nodes, i % nodes.count())?;
        let (client, me, token) =
            Client::guest(&at, &format!("Crash Player {i}")).await.map_err(bot_error("sign-in"))?;
        // Joined over another node than its own, so that requests cross the cluster.
        let http = http_base(&url(&nodes, (i + 1) % nodes.count())?);
        let (status, answer) =
            post(&http, &format!("/api/tournaments/{id}/join"), &token, None).await.map_err(bot_error("join"))?;
        if status != 200 {
            return Err(CrashError::Check(format!("player {i} could not join: {status} {answer}")));
        }
        let player = TournamentPlayer::new(PlayerId(me.id.0), id, options.game);
        players.push(tokio::spawn(play(player, client, token, nodes.urls(), i)));
    }
    let mut report =
        TournamentCrashReport { nodes: options.nodes, players: options.players, ..TournamentCrashReport::default() };
    while report.kills < options.kills && !players.iter().all(tokio::task::JoinHandle::is_finished) {
        tokio::time::sleep(Duration::from_millis(300 + rng.next_u64() % 1200)).await;
        if began.elapsed() > DEADLINE {
            return Err(CrashError::Check(format!("the tournament did not finish within {DEADLINE:?}")));
        }
        // A single server directs everything; a cluster's director holds the tournament's lease.
        let director = match nodes.count() {
            1 => Some(0),
            _ => {
                let lease = store.lease(TableId(id)).await.ok().flatten().map(|lease| lease.fence.node);
                lease.and_then(|node| (0..nodes.count()).find(|&n| nodes.id(n) == node))
            }
        };
        let node = match director {
            Some(node) if report.kills % 2 == 0 => node,
            _ => (rng.next_u64() % nodes.count() as u64) as usize,
        };
        report.director_kills += usize::from(director == Some(node));
        nodes.kill(node).await?;
        let restart = if options.nodes > 1 && rng.next_u64() % 2 == 1 { Restart::NewId } else { Restart::SameId };
        report.new_ids += usize::from(restart == Restart::NewId);
        nodes.restart(node, restart).await?;
        report.kills += 1;
        eprintln!(
            "tournament kill {}/{}: node {node}{}",
            report.kills,
            options.kills,
            match director == Some(node) {
                true => " (directing)",
                false => "",
            }
        );
    }
    let mut finished = Vec::new();
    for player in players {
        let left = DEADLINE.saturating_sub(began.elapsed());
        let done = tokio::time::timeout(left, player)
            .await
            .map_err(|_| CrashError::Check(format!("the tournament did not finish within {DEADLINE:?}")))?;
        finished.push(done.map_err(|e| CrashError::Bot(e.to_string()))??);
    }
    check(&store, id, options, &finished, &mut report).await?;
    store.close().await;
    nodes.stop().await?;
    report.wall = began.elapsed();
    Ok(report)
}

/// Creates the tournament with a kept name's token, over node `url`.
async fn create(url: &str, options: &TournamentCrashOptions) -> Result<Uuid, CrashError> {
    let (client, _, token) = Client::guest(url, "Crash Director").await.map_err(bot_error("sign-in"))?;
    drop(client);
    let http = http_base(url);
    let password = json!({ "password": "the crash harness's password" });
    let (status, answer) =
        post(&http, "/api/players/claim", &token, Some(password)).await.map_err(bot_error("claim"))?;
    if status != 200 {
        return Err(CrashError::Check(format!("the director's name was not kept: {status} {answer}")));
    }
    let body = json!({
        "game": options.game, "format": "swiss", "seats": 2, "rounds": options.rounds,
        "clock": { "turn_ms": 20_000, "reserve_ms": 0 }, "start": "when_full",
        "max_players": options.players, "rated": false
    });
    let (status, answer) = post(&http, "/api/tournaments", &token, Some(body)).await.map_err(bot_error("create"))?;
    answer["id"]
        .as_str()
        .and_then(|id| Uuid::parse_str(id).ok())
        .filter(|_| status == 201)
        .ok_or_else(|| CrashError::Check(format!("the tournament was not created: {status} {answer}")))
}

/// What one player came to: the tables it played and the tournament's last view.
struct Finished {
    me: PlayerId,
    tables: Vec<TableId>,
    view: Value,
}

/// Plays the tournament as `player`, over a live node again whenever the connection breaks.
async fn play(
    mut player: TournamentPlayer,
    mut client: Client,
    token: String,
    urls: NodeUrls,
    number: usize,
) -> Result<Finished, CrashError> {
    let mut attempt = number;
    loop {
        match player.play(&mut client).await {
            Ok(done) => {
                return Ok(Finished { me: player.me(), tables: player.tables().to_vec(), view: done.last_view });
            }
            // A killed node, a table moving between nodes, a tournament between directors: again, elsewhere.
            Err(error) => loop {
                eprintln!("tournament player {number}: {error}; connecting again");
                tokio::time::sleep(RECONNECT_PAUSE).await;
                attempt += 1;
                let live: Vec<String> = urls.borrow().iter().flatten().cloned().collect();
                let Some(url) = live.get(attempt % live.len().max(1)) else { continue };
                if let Ok((again, _)) = Client::returning(url, &token).await {
                    client = again;
                    break;
                }
            },
        }
    }
}

/// The checks of the module documentation.
async fn check(
    store: &Store,
    id: Uuid,
    options: &TournamentCrashOptions,
    finished: &[Finished],
    report: &mut TournamentCrashReport,
) -> Result<(), CrashError> {
    let fail = |what: String| Err(CrashError::Check(what));
    let view = &finished.first().ok_or_else(|| CrashError::Check("no players".into()))?.view;
    let rounds = view["rounds"].as_array().cloned().unwrap_or_default();
    if view["state"] != "finished" || rounds.len() != options.rounds as usize {
        return fail(format!("the tournament ended as {} after {} rounds", view["state"], rounds.len()));
    }
    let everyone: BTreeSet<String> = finished.iter().map(|f| f.me.0.to_string()).collect();
    let (mut pairs, mut planned) = (HashSet::new(), Vec::new());
    for round in &rounds {
        let mut seated = Vec::new();
        for table in round["tables"].as_array().into_iter().flatten() {
            let seats: Vec<String> =
                table["seats"].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect();
            let mut pair = seats.clone();
            pair.sort();
            if !pairs.insert(pair.clone()) {
                return fail(format!("{pair:?} met twice"));
            }
            seated.extend(seats);
            let table = table["table"].as_str().and_then(|t| Uuid::parse_str(t).ok()).map(TableId);
            planned.push(table.ok_or_else(|| CrashError::Check(format!("a table without an id in {round}")))?);
        }
        let once: BTreeSet<String> = seated.iter().cloned().collect();
        if once != everyone || seated.len() != everyone.len() {
            return fail(format!("round {} did not seat every player once: {seated:?}", round["n"]));
        }
    }
    let stored = store.tournament_tables(id).await?;
    let (stored_set, planned_set): (BTreeSet<_>, BTreeSet<_>) =
        (stored.iter().map(|t| t.0).collect(), planned.iter().map(|t| t.0).collect());
    if stored.len() != planned.len() || stored_set != planned_set {
        return fail(format!("the store holds {} tables for {} planned", stored.len(), planned.len()));
    }
    let games = romirami_server::games();
    let kind = games.get(options.game).ok_or_else(|| CrashError::Check(format!("no game {}", options.game)))?;
    for table in &planned {
        let record = wait_for_record(store, *table).await?;
        kind.replay(&record)
            .map_err(|e| CrashError::Check(format!("game {table}: the record does not replay: {e}")))?;
    }
    for player in finished {
        let me = player.me.0.to_string();
        let theirs: BTreeSet<Uuid> = rounds
            .iter()
            .flat_map(|round| round["tables"].as_array().cloned().unwrap_or_default())
            .filter(|table| table["seats"].as_array().is_some_and(|seats| seats.contains(&json!(me))))
            .filter_map(|table| table["table"].as_str().and_then(|t| Uuid::parse_str(t).ok()))
            .collect();
        let played: BTreeSet<Uuid> = player.tables.iter().map(|t| t.0).collect();
        if played != theirs {
            return fail(format!("player {me} played {} of its {} tables", played.len(), theirs.len()));
        }
    }
    report.rounds = rounds.len();
    report.games = planned.len();
    Ok(())
}
