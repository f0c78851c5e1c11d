//! The store under load, without the network: how many finished games, and how many single actions,
//! a database commits per second.
//!
//! - *Games*: `concurrency` tasks store whole games with the server's own calls, in three timed steps.
//!   First each table's set-up, through a [`Writer`] as the server does it: a guest per seat (as at
//!   `hello`), the table with its host seated, each other player's seat, the start of the game. Then
//!   every action of each game (one batch per game). Then the finish of each game through the same
//!   [`Writer`] as the table's (its record and a result per seat, group-committed with the other
//!   games finishing at the same time), which is what "a finished game committed" costs once its
//!   actions are stored. A game's actions are those of a real game, played beforehand by the engine's
//!   random player, so the rows have their real sizes.
//! - *Actions*: `tables` tasks each append one action at a time through the [`Committer`], waiting for
//!   each to be durable before the next, as a table acknowledges an action only once it is committed;
//!   the committer groups what waits into one transaction.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use romirami_engine::{Game, RandomPlayer, RecordMeta, Seat, ShuffleProof};
use romirami_game::{Outcome, TableGame};
use time::OffsetDateTime;
use tokio::task::JoinSet;
use uuid::Uuid;

use super::new_histogram;
use romirami_protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::{ActionRow, Committer, FinishedGame, GamePlayer, Store, StoreError, TableRow, Writer};

/// What the games benchmark measured.
#[derive(Debug)]
pub struct GamesReport {
    /// Games stored.
    pub games: u64,
    /// Action rows stored with them.
    pub actions: u64,
    /// Seconds it took to set every table up: guests, table, seats, start.
    pub setup_seconds: f64,
    /// Durable writes that took (each the server's write for one step of a table's set-up).
    pub setup_writes: u64,
    /// Transactions (durable commits) those writes took, grouped by the writer.
    pub setup_transactions: u64,
    /// Seconds it took then to store every game's actions.
    pub play_seconds: f64,
    /// Seconds it took then to finish every game (record and results).
    pub finish_seconds: f64,
    /// Time to finish one game, in microseconds.
    pub latency_us: Histogram<u64>,
}

/// What the actions benchmark measured.
#[derive(Debug)]
pub struct ActionsReport {
    /// Actions committed.
    pub actions: u64,
    /// Transactions they took.
    pub transactions: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// From submitting one action to its commit, in microseconds.
    pub latency_us: Histogram<u64>,
}

/// A finished game, to be stored again and again under new ids.
struct Played {
    seed: u64,
    /// Each action with its JSON text, as a table stores it.
    actions: Vec<(Seat, String)>,
    game: Game,
    outcome: Outcome,
}

fn play(players: usize, seed: u64) -> Option<Played> {
    let mut game = Game::new(players, seed).ok()?;
    let mut bot = RandomPlayer::new(seed ^ 0x5eed);
    let mut actions = Vec::new();
    while let Some(seat) = game.to_act() {
        let action = bot.choose(&game)?;
        game.apply(seat, &action).ok()?;
        actions.push((seat, serde_json::to_string(&action).ok()?));
    }
    let outcome = TableGame::outcome(&game)?;
    Some(Played { seed, actions, game, outcome })
}

fn players(count: usize) -> Vec<PlayerInfo> {
    (0..count).map(|i| PlayerInfo { id: PlayerId(Uuid::new_v4()), name: format!("bench{i}") }).collect()
}

/// The token hash stored for a benchmark player: derived from the id, so that it is unique.
fn token_hash_of(player: &PlayerInfo) -> [u8; 32] {
    let mut hash = [0u8; 32];
    hash[..16].copy_from_slice(player.id.0.as_bytes());
    hash
}

async fn save_players(store: &Store, players: &[PlayerInfo]) -> Result<(), StoreError> {
    for player in players {
        store.save_player(player, &token_hash_of(player)).await?;
    }
    Ok(())
}

fn seated(players: &[PlayerInfo]) -> Vec<GamePlayer> {
    players
        .iter()
        .zip(0u8..)
        .map(|(p, seat)| GamePlayer { seat: Seat(seat), id: p.id, name: p.name.clone(), bot: false })
        .collect()
}

fn new_table_row(host: PlayerId, seats: usize) -> TableRow {
    let id = TableId(Uuid::new_v4());
    TableRow {
        game: romirami_server::protocol::ROMI_RAMI.into(),
        id,
        host,
        seats: seats as u8,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        created_at: OffsetDateTime::now_utc(),
        invite: id.0.simple().to_string(),
        clock: None,
        options: "{}".into(),
        rated: true,
        tournament: None,
    }
}

async fn new_table(store: &Store, host: PlayerId, seats: usize) -> Result<TableId, StoreError> {
    let row = new_table_row(host, seats);
    store.create_table(&row).await?;
    Ok(row.id)
}

/// Sets a table up as the server does, each step written durably before the next: a guest per seat,
/// the table with its host seated, the other players' seats one by one, the start of the game.
/// Returns the table and how many writes it took.
async fn set_up(writer: &Writer, players: &[PlayerInfo], seed: u64) -> Result<(TableId, u64), StoreError> {
    let mut writes = 0;
    for player in players {
        writer.save_player(player, &token_hash_of(player)).await?;
        writes += 1;
    }
    let row = new_table_row(players[0].id, players.len());
    let mut seats = vec![None; players.len()];
    seats[0] = Some((players[0].id, false));
    writer.create_table(&row, &[Some(players[0].id)]).await?;
    writes += 1;
    for (seat, player) in players.iter().enumerate().skip(1) {
        seats[seat] = Some((player.id, false));
        writer.set_seats(row.id, &seats).await?;
        writes += 1;
    }
    writer.start_game(row.id, &ShuffleProof::new(seed, SALT), &seated(players), OffsetDateTime::now_utc()).await?;
    Ok((row.id, writes + 1))
}

/// The salt each start writes, as the server's starts write one (its value matters to no check here).
const SALT: [u8; 32] = [0x5a; 32];

/// The finished game as a table hands it to the store: its record written as JSON, and its outcome.
fn finished_for(played: &Played, table: TableId, players: &[PlayerInfo], at: OffsetDateTime) -> Option<FinishedGame> {
    let names = players.iter().map(|p| p.name.clone()).collect();
    let record =
        played.game.record(RecordMeta { id: table.0, started_at: at, finished_at: at, names, shuffle: None }).ok()?;
    Some(FinishedGame { record: serde_json::to_string(&record).ok()?, outcome: played.outcome.clone() })
}

/// Stores `games` complete games of `seats` players with `concurrency` tasks: first each table's
/// set-up, then each game's actions, then each game's finish, each step timed on its own.
///
/// # Errors
/// The first write that failed.
pub async fn games(store: &Store, games: u64, seats: usize, concurrency: usize) -> Result<GamesReport, StoreError> {
    if !(2..=4).contains(&seats) {
        return Err(StoreError::Other(format!("a game has 2 to 4 players, not {seats}")));
    }
    // A few dozen different games, each stored many times under new ids.
    let played: Arc<Vec<Played>> = Arc::new((0..32).filter_map(|seed| play(seats, 1000 + seed)).collect());
    if played.is_empty() {
        return Err(StoreError::Other("the engine could not play a game".into()));
    }
    // The server's writer, with its default queue and batch size.
    let defaults = romirami_server::config::Config::default();
    let (writer, writer_task) = Writer::spawn(store.clone(), defaults.write_queue, defaults.write_batch);
    let setup_writes = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let (tables, _) = in_parallel(games, concurrency, {
        let (writer, played, setup_writes) = (writer.clone(), played.clone(), setup_writes.clone());
        move |n| {
            let (writer, played, setup_writes) = (writer.clone(), played.clone(), setup_writes.clone());
            async move {
                let game = &played[n as usize % played.len()];
                let players = players(seats);
                let (table, writes) = set_up(&writer, &players, game.seed).await?;
                setup_writes.fetch_add(writes, Ordering::Relaxed);
                Ok((table, players))
            }
        }
    })
    .await?;
    let setup_seconds = start.elapsed().as_secs_f64();
    let setup_transactions = writer.stats().batches;
    let tables = Arc::new(tables);
    let actions = Arc::new(AtomicU64::new(0));
    let playing = Instant::now();
    in_parallel(games, concurrency, {
        let (store, played, tables, actions) = (store.clone(), played.clone(), tables.clone(), actions.clone());
        move |n| {
            let (store, played, tables, actions) = (store.clone(), played.clone(), tables.clone(), actions.clone());
            async move {
                let game = &played[n as usize % played.len()];
                let table = tables[n as usize].0;
                let rows: Vec<ActionRow> = game
                    .actions
                    .iter()
                    .zip(0u32..)
                    .map(|((seat, action), seq)| ActionRow {
                        table,
                        seq,
                        seat: *seat,
                        action: action.clone(),
                        by_bot: false,
                        reserve_ms: None,
                        fence: None,
                    })
                    .collect();
                store.append_actions(&rows).await?;
                actions.fetch_add(rows.len() as u64, Ordering::Relaxed);
                Ok(())
            }
        }
    })
    .await?;
    let play_seconds = playing.elapsed().as_secs_f64();
    let finishing = Instant::now();
    let (_, latency_us) = in_parallel(games, concurrency, {
        let (writer, played, tables) = (writer.clone(), played.clone(), tables.clone());
        move |n| {
            let (writer, played, tables) = (writer.clone(), played.clone(), tables.clone());
            async move {
                let game = &played[n as usize % played.len()];
                let (table, players) = &tables[n as usize];
                let finished = finished_for(game, *table, players, OffsetDateTime::now_utc())
                    .ok_or_else(|| StoreError::Other("a finished game has no record".into()))?;
                writer.finish_game(*table, finished).await
            }
        }
    })
    .await?;
    let finish_seconds = finishing.elapsed().as_secs_f64();
    drop(writer);
    let _ = writer_task.await;
    Ok(GamesReport {
        games,
        actions: actions.load(Ordering::Relaxed),
        setup_seconds,
        setup_writes: setup_writes.load(Ordering::Relaxed),
        setup_transactions,
        play_seconds,
        finish_seconds,
        latency_us,
    })
}

/// Runs `job(0)` to `job(count - 1)`, `concurrency` at a time; returns what each returned, in order,
/// and how long each took (microseconds).
async fn in_parallel<F, Fut, T>(count: u64, concurrency: usize, job: F) -> Result<(Vec<T>, Histogram<u64>), StoreError>
where
    F: Fn(u64) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Result<T, StoreError>> + Send,
    T: Send + 'static,
{
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks = JoinSet::new();
    for _ in 0..concurrency.max(1) {
        let (next, job) = (next.clone(), job.clone());
        tasks.spawn(async move {
            let mut latency = new_histogram();
            let mut done = Vec::new();
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= count {
                    return Ok::<_, StoreError>((done, latency));
                }
                let one = Instant::now();
                done.push((n, job(n).await?));
                latency.saturating_record(one.elapsed().as_micros() as u64);
            }
        });
    }
    let mut results = Vec::new();
    let mut latency = new_histogram();
    while let Some(joined) = tasks.join_next().await {
        let (done, histogram) = joined.map_err(|e| StoreError::Other(format!("a task failed: {e}")))??;
        results.extend(done);
        let _ = latency.add(histogram);
    }
    results.sort_by_key(|(n, _)| *n);
    Ok((results.into_iter().map(|(_, done)| done).collect(), latency))
}

/// Commits single actions of `tables` games through a [`Committer`] for `duration`.
///
/// # Errors
/// The first write that failed.
pub async fn actions(
    store: &Store,
    tables: usize,
    duration: Duration,
    max_batch: usize,
) -> Result<ActionsReport, StoreError> {
    let players = Arc::new(players(4));
    save_players(store, &players).await?;
    let played = Arc::new(play(4, 7).ok_or_else(|| StoreError::Other("the engine could not play a game".into()))?);
    // First every table and its game, then the timed part.
    let mut setting_up = JoinSet::new();
    for _ in 0..tables.max(1) {
        let (store, players, played) = (store.clone(), players.clone(), played.clone());
        setting_up.spawn(async move {
            let table = new_table(&store, players[0].id, 4).await?;
            store.start_game(table, played.seed, Some(SALT), &seated(&players), OffsetDateTime::now_utc()).await?;
            Ok::<_, StoreError>(table)
        });
    }
    let mut ids = Vec::new();
    while let Some(joined) = setting_up.join_next().await {
        ids.push(joined.map_err(|e| StoreError::Other(format!("a task failed: {e}")))??);
    }
    let (committer, task) = Committer::spawn(store.clone(), tables.max(1), max_batch);
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = JoinSet::new();
    for table in ids {
        let (played, committer) = (played.clone(), committer.clone());
        tasks.spawn(async move {
            let mut latency = new_histogram();
            let mut count = 0u64;
            for ((seat, action), seq) in played.actions.iter().cycle().zip(0u32..) {
                if Instant::now() >= deadline {
                    break;
                }
                let one = Instant::now();
                let row = ActionRow {
                    table,
                    seq,
                    seat: *seat,
                    action: action.clone(),
                    by_bot: false,
                    reserve_ms: None,
                    fence: None,
                };
                committer.commit(row).await?;
                latency.saturating_record(one.elapsed().as_micros() as u64);
                count += 1;
            }
            Ok::<_, StoreError>((latency, count))
        });
    }
    let before = committer.stats();
    let mut latency_us = new_histogram();
    let mut total = 0;
    while let Some(joined) = tasks.join_next().await {
        let (histogram, count) = joined.map_err(|e| StoreError::Other(format!("a task failed: {e}")))??;
        let _ = latency_us.add(histogram);
        total += count;
    }
    let seconds = start.elapsed().as_secs_f64();
    let stats = committer.stats();
    drop(committer);
    let _ = task.await;
    Ok(ActionsReport { actions: total, transactions: stats.transactions - before.transactions, seconds, latency_us })
}
