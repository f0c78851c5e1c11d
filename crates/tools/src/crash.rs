//! The crash harness: bot games against a real `romirami serve` process that is killed with SIGKILL at
//! random moments and started again on the same database, until every game is finished.
//!
//! Each seat is played by its own bot client, which keeps, for each life of the server, the actions the
//! server acknowledged to it and the one it had sent without an answer when the server died. Once every
//! game is over, the harness reads each game's record from the database and checks that:
//! - the record replays through the rules to the result the players were shown (`Record::verify`), so
//!   the game ended as it would have without the kills;
//! - each seat's moves in the record are exactly its acknowledged actions, in order, with at most the
//!   one unanswered action of each life in between: no acknowledged action is lost and none is applied
//!   twice.
//!
//! `romirami crash` runs it from the command line (the benchmark script uses 200 kills); the test suite
//! runs it with fewer.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use romirami_engine::{Action, GameResult, Seat};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

use romirami_client::{Client, ClientError};
use romirami_engine::bot::choose;
use romirami_protocol::{ClientMsg, ErrorCode, Role, ServerMsg, SpectatorPolicy, TableId, TableState};
use romirami_server::store::{Store, StoreError};

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
            "{} games finished across {} kills (SIGKILL); {} actions acknowledged, {} actions in the records \
             checked, none lost or doubled; {} unanswered actions were stored, {} were not; slowest restart {:?}",
            self.games,
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

/// One life of the server as a seat saw it: what was acknowledged, and what was sent and never answered.
#[derive(Clone, Debug, Default)]
struct Life {
    acknowledged: Vec<Action>,
    unanswered: Option<Action>,
}

/// A seat's bot across the server's lives.
struct SeatBot {
    token: String,
    table: TableId,
    seat: Seat,
    lives: Vec<Life>,
    result: Option<GameResult>,
}

/// How one life of a seat's connection ended.
enum LifeEnd {
    /// The game is over.
    Over,
    /// The connection failed: the server died (or is dying).
    Lost,
}

impl SeatBot {
    /// Plays the seat across restarts until its game is over.
    async fn run(
        mut self,
        mut server: watch::Receiver<Option<String>>,
        acknowledged: Arc<AtomicUsize>,
        mut first: Option<Client>,
    ) -> Result<SeatBot, CrashError> {
        loop {
            let url = server.borrow_and_update().clone();
            let Some(url) = url else {
                server.changed().await.map_err(|_| CrashError::Bot("the harness stopped".into()))?;
                continue;
            };
            self.lives.push(Life::default());
            let rejoin = first.is_none();
            let client = match first.take() {
                Some(client) => Ok(client),
                None => Client::returning(&url, &self.token).await.map(|(client, _)| client),
            };
            let end = match client {
                Ok(mut client) => self.play_life(&mut client, rejoin, &acknowledged).await?,
                Err(_) => LifeEnd::Lost,
            };
            match end {
                LifeEnd::Over => return Ok(self),
                LifeEnd::Lost => {
                    // Wait for the next server, unless this one is still up (then retry shortly).
                    if tokio::time::timeout(Duration::from_millis(200), server.changed())
                        .await
                        .is_ok_and(|r| r.is_err())
                    {
                        return Err(CrashError::Bot("the harness stopped".into()));
                    }
                }
            }
        }
    }

    async fn play_life(
        &mut self,
        client: &mut Client,
        rejoin: bool,
        acknowledged: &AtomicUsize,
    ) -> Result<LifeEnd, CrashError> {
        let table = self.table;
        if rejoin && client.send(&ClientMsg::Join { table, invite: None, since: None }).await.is_err() {
            return Ok(LifeEnd::Lost);
        }
        let mut next_id = 1_000_000 * self.lives.len() as u64;
        let mut pending: Option<(u64, Action)> = None;
        loop {
            let msg = match client.recv_within(Duration::from_secs(60)).await {
                Ok(msg) => msg,
                Err(ClientError::Timeout(_)) => {
                    return Err(CrashError::Bot(format!("{} of {table} waited 60 s", self.seat)));
                }
                Err(_) => {
                    if let Some(life) = self.lives.last_mut() {
                        life.unanswered = pending.map(|(_, action)| action);
                    }
                    return Ok(LifeEnd::Lost);
                }
            };
            match msg {
                ServerMsg::YourTurn { table: t, legal } if t == table => {
                    let action = choose(&legal).ok_or_else(|| CrashError::Bot("no legal action offered".into()))?;
                    next_id += 1;
                    pending = Some((next_id, action));
                    if client.send(&ClientMsg::Act { table, id: next_id, action }).await.is_err() {
                        if let Some(life) = self.lives.last_mut() {
                            life.unanswered = Some(action);
                        }
                        return Ok(LifeEnd::Lost);
                    }
                }
                ServerMsg::Ack { table: t, id, .. } if t == table => match pending.take() {
                    Some((sent, action)) if sent == id => {
                        if let Some(life) = self.lives.last_mut() {
                            life.acknowledged.push(action);
                        }
                        acknowledged.fetch_add(1, Ordering::Relaxed);
                    }
                    other => return Err(CrashError::Bot(format!("an ack for {id} while waiting for {other:?}"))),
                },
                ServerMsg::GameOver { table: t, result } if t == table => {
                    self.result = Some(result);
                    return Ok(LifeEnd::Over);
                }
                ServerMsg::Table { table: summary, view, role } if summary.id == table => {
                    // Seats are given in the order the joins arrive: the server says which is ours.
                    if let Role::Seat(seat) = role {
                        self.seat = seat;
                    }
                    if let Some(result) = view.and_then(|v| v.result) {
                        self.result = Some(result);
                        return Ok(LifeEnd::Over);
                    }
                    if summary.state == TableState::Finished {
                        return Ok(LifeEnd::Over);
                    }
                }
                // A finished game is not brought back by a restart: it is over.
                ServerMsg::Error { code: ErrorCode::NoSuchTable, table: Some(t), .. } if t == table => {
                    return Ok(LifeEnd::Over);
                }
                ServerMsg::Error { code, message, .. } => {
                    return Err(CrashError::Bot(format!("{} of {table}: {code:?}: {message}", self.seat)));
                }
                _ => {}
            }
        }
    }
}

/// Seats the bots of one table: the host creates it, the others join by its invite; returns each
/// seat's bot and its connection once the game has started.
async fn open_table(url: &str, players: u8, name: &str) -> Result<Vec<(SeatBot, Client)>, CrashError> {
    let bot_error = |e: ClientError| CrashError::Bot(e.to_string());
    let mut seats = Vec::new();
    for seat in 0..players {
        let (client, _, token) = Client::guest(url, &format!("{name}-{seat}")).await.map_err(bot_error)?;
        seats.push((token, client));
    }
    let host = &mut seats[0].1;
    host.send(&ClientMsg::CreateTable {
        seats: players,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: None,
        game: None,
        options: None,
    })
    .await
    .map_err(bot_error)?;
    let (table, invite) = host
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, invite } => Some(Ok((table.id, invite.clone()))),
            ServerMsg::Error { message, .. } => Some(Err(message.clone())),
            _ => None,
        })
        .await
        .map_err(bot_error)?
        .map_err(CrashError::Bot)?;
    // One join at a time, each answered; the last one starts the game, which is stored by then: a kill
    // from here on finds the game in the store.
    for (_, client) in &mut seats[1..] {
        client.send(&ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await.map_err(bot_error)?;
        client
            .wait_for(|msg| match msg {
                ServerMsg::Table { table: summary, .. } if summary.id == table => Some(Ok(())),
                ServerMsg::Error { message, .. } => Some(Err(message.clone())),
                _ => None,
            })
            .await
            .map_err(bot_error)?
            .map_err(CrashError::Bot)?;
    }
    Ok((0u8..)
        .zip(seats)
        .map(|(seat, (token, client))| {
            (SeatBot { token, table, seat: Seat(seat), lives: Vec::new(), result: None }, client)
        })
        .collect())
}

/// Whether `moves` (a seat's moves in the record) are its acknowledged actions life after life, each
/// life's unanswered action in or out; returns how many unanswered actions are in.
fn match_lives(moves: &[Action], lives: &[Life]) -> Option<usize> {
    let Some((life, rest)) = lives.split_first() else {
        return moves.is_empty().then_some(0);
    };
    let after = moves.strip_prefix(life.acknowledged.as_slice())?;
    if let Some(unanswered) = life.unanswered {
        if after.first() == Some(&unanswered) {
            if let Some(stored) = match_lives(&after[1..], rest) {
                return Some(stored + 1);
            }
        }
    }
    match_lives(after, rest)
}

/// Runs the harness: opens `tables` games, kills the server `kills` times while they are played,
/// then checks every game's record. See the module documentation.
///
/// # Errors
/// When the server cannot be run, a bot fails, or a check does not hold.
pub async fn run(options: &CrashOptions) -> Result<CrashReport, CrashError> {
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
                for (bot, client) in open_table(&server.url, players, &format!("crash{opened}")).await? {
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
    let mut tables: Vec<TableId> = bots.iter().map(|bot| bot.table).collect();
    tables.dedup();
    for table in tables {
        let record = wait_for_record(&store, table).await?;
        let game =
            record.verify().map_err(|e| CrashError::Check(format!("the record of {table} does not replay: {e}")))?;
        report.games += 1;
        for bot in bots.iter().filter(|bot| bot.table == table) {
            if let Some(result) = &bot.result {
                if result != &record.result {
                    return Err(CrashError::Check(format!("{} of {table} was shown another result", bot.seat)));
                }
            }
            let moves: Vec<Action> = record
                .log
                .iter()
                .filter_map(|entry| entry.action())
                .filter(|(s, _)| *s == bot.seat)
                .map(|(_, a)| a)
                .collect();
            report.checked += moves.len();
            let unanswered = bot.lives.iter().filter(|life| life.unanswered.is_some()).count();
            let stored = match_lives(&moves, &bot.lives).ok_or_else(|| {
                CrashError::Check(format!(
                    "{} of {table}: the record's {} moves are not the {} acknowledged ones: {moves:?} against {:?}",
                    bot.seat,
                    moves.len(),
                    bot.lives.iter().map(|l| l.acknowledged.len()).sum::<usize>(),
                    bot.lives
                ))
            })?;
            report.unanswered_stored += stored;
            report.unanswered_dropped += unanswered - stored;
        }
        drop(game);
    }
    store.close().await;
    server.kill().await?;
    Ok(report)
}

/// The record of a finished game, which the server stores right after the game ends.
async fn wait_for_record(store: &Store, table: TableId) -> Result<romirami_engine::Record, CrashError> {
    for _ in 0..200 {
        match store.record(table).await {
            Ok(record) => {
                return serde_json::from_str(&record)
                    .map_err(|e| CrashError::Check(format!("the record of game {table} does not parse: {e}")));
            }
            Err(StoreError::NotFound) => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(error) => return Err(error.into()),
        }
    }
    Err(CrashError::Check(format!("game {table} was not stored as finished within 10 s")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lives_match_the_moves_with_or_without_their_unanswered_action() {
        let (a, b, c) = (Action::Pass, Action::TakeBack, Action::Discard { cards: romirami_engine::Cards::EMPTY });
        let life = |acked: &[Action], unanswered: Option<Action>| Life { acknowledged: acked.to_vec(), unanswered };
        let lives = [life(&[a, b], Some(c)), life(&[a], None)];
        assert_eq!(match_lives(&[a, b, c, a], &lives), Some(1));
        assert_eq!(match_lives(&[a, b, a], &lives), Some(0));
        assert_eq!(match_lives(&[a, b], &lives), None, "an acknowledged action is missing");
        assert_eq!(match_lives(&[a, b, c, c, a], &lives), None, "an action is doubled");
        assert_eq!(match_lives(&[a, b, a, a], &lives), None, "an action nobody sent");
        // The unanswered action may equal the next life's first one.
        let same = [life(&[a], Some(b)), life(&[b], None)];
        assert_eq!(match_lives(&[a, b], &same), Some(0));
        assert_eq!(match_lives(&[a, b, b], &same), Some(1));
    }
}
