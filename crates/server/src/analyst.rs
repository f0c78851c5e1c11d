//! The analyses of finished games (`GET /api/games/{id}/analysis?seat=N`, docs/analysis.md): computed on
//! request, one at a time per node, on a bounded queue, and kept in the store once done so that a second
//! request costs nothing.
//!
//! An analysis replays the game's record and has the strong bot judge each of the seat's decisions from
//! the seat's view ([`romirami_game::analysis`]); it takes seconds to a minute of one core, on a blocking
//! thread of its own, so that it never holds up a table. A request for an analysis that is neither kept
//! nor under way puts it on the queue; a full queue refuses it (the API answers 429 with the time the
//! queue needs to drain). While it waits or runs, requests see its state and progress.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use romirami_game::{AnalysisSettings, Games, Seat};
use tokio::sync::mpsc;
use tracing::{info, warn};

use crate::protocol::TableId;
use crate::store::Store;

/// Where an analysis stands, when it is not kept yet.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// Waiting its turn.
    Queued,
    /// Being computed: `done` decisions judged of `total`.
    Running {
        /// Decisions judged so far.
        done: usize,
        /// Decisions to judge.
        total: usize,
    },
    /// It could not be made (the record does not replay, the store failed); the next request tries
    /// again.
    Failed(String),
}

/// Why an analysis could not be queued.
#[derive(Debug, PartialEq, Eq)]
pub struct QueueFull {
    /// About how long until the queue has room.
    pub retry_after: Duration,
}

type Key = (TableId, Seat);

/// How many replays are computed at once.
pub const REPLAYS_AT_ONCE: usize = 2;

/// This node's analyst: its queue, and the state of each analysis queued or running.
#[derive(Debug)]
pub struct Analyst {
    queue: mpsc::Sender<Job>,
    jobs: Arc<Mutex<HashMap<Key, Progress>>>,
    /// How long the last analysis took, to tell a refused caller when to come back.
    last_took: Arc<Mutex<Duration>>,
    /// Replays (`GET /api/games/{id}/replay`) computed at once: each takes up to a few hundred
    /// milliseconds of one core.
    replays: tokio::sync::Semaphore,
}

/// One analysis to make: the game, its name and the seat.
#[derive(Debug)]
struct Job {
    game: TableId,
    name: String,
    seat: Seat,
}

impl Analyst {
    /// Starts the analyst on the current runtime: at most `queue` analyses wait, each of `settings`'s
    /// playouts per decision, over the games of `games`.
    pub fn start(store: Store, games: Games, settings: AnalysisSettings, queue: usize) -> Arc<Analyst> {
        let (analyst, receiver) = Analyst::new(queue);
        let analyst = Arc::new(analyst);
        tokio::spawn(work(receiver, store, games, settings, analyst.jobs.clone(), analyst.last_took.clone()));
        analyst
    }

    /// An analyst whose queue holds `queue` analyses, and the queue's other end for its worker.
    fn new(queue: usize) -> (Analyst, mpsc::Receiver<Job>) {
        let (sender, receiver) = mpsc::channel(queue.max(1));
        let analyst = Analyst {
            queue: sender,
            jobs: Arc::default(),
            last_took: Arc::new(Mutex::new(Duration::from_secs(30))),
            replays: tokio::sync::Semaphore::new(REPLAYS_AT_ONCE),
        };
        (analyst, receiver)
    }

    /// A turn to compute a replay: at most [`REPLAYS_AT_ONCE`] at once, the others wait.
    pub async fn replay_permit(&self) -> Option<tokio::sync::SemaphorePermit<'_>> {
        self.replays.acquire().await.ok()
    }

    /// Where the analysis of `seat` in `game` stands, when it is queued, running or failed; a failure is
    /// told once, then forgotten.
    pub fn progress(&self, game: TableId, seat: Seat) -> Option<Progress> {
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        match jobs.get(&(game, seat)) {
            Some(Progress::Failed(_)) => jobs.remove(&(game, seat)),
            other => other.cloned(),
        }
    }

    /// Queues the analysis of `seat` in `game` (a game of `name`), unless it is queued or running already.
    ///
    /// # Errors
    /// [`QueueFull`] when the queue is full.
    pub fn request(&self, game: TableId, name: &str, seat: Seat) -> Result<Progress, QueueFull> {
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(progress) = jobs.get(&(game, seat)).filter(|p| !matches!(p, Progress::Failed(_))) {
            return Ok(progress.clone());
        }
        match self.queue.try_send(Job { game, name: name.to_owned(), seat }) {
            Ok(()) => {
                jobs.insert((game, seat), Progress::Queued);
                Ok(Progress::Queued)
            }
            Err(_) => {
                let each = *self.last_took.lock().unwrap_or_else(PoisonError::into_inner);
                let waiting = u32::try_from(self.queue.max_capacity()).unwrap_or(u32::MAX);
                Err(QueueFull {
                    retry_after: (each * waiting).clamp(Duration::from_secs(1), Duration::from_secs(3600)),
                })
            }
        }
    }
}

/// The analyst's loop: one analysis at a time, on a blocking thread, kept in the store once done.
async fn work(
    mut receiver: mpsc::Receiver<Job>,
    store: Store,
    games: Games,
    settings: AnalysisSettings,
    jobs: Arc<Mutex<HashMap<Key, Progress>>>,
    last_took: Arc<Mutex<Duration>>,
) {
    while let Some(job) = receiver.recv().await {
        let key = (job.game, job.seat);
        let set = {
            let jobs = jobs.clone();
            move |progress: Progress| {
                jobs.lock().unwrap_or_else(PoisonError::into_inner).insert(key, progress);
            }
        };
        let started = Instant::now();
        let outcome = analyse(&store, &games, &job, settings, set.clone()).await;
        *last_took.lock().unwrap_or_else(PoisonError::into_inner) = started.elapsed();
        match outcome {
            Ok(()) => {
                info!(game = %job.game, seat = job.seat.0, took_ms = started.elapsed().as_millis() as u64, "analysed");
                jobs.lock().unwrap_or_else(PoisonError::into_inner).remove(&key);
            }
            Err(error) => {
                warn!(game = %job.game, seat = job.seat.0, %error, "the analysis failed");
                set(Progress::Failed(error));
            }
        }
    }
}

/// Makes one analysis and keeps it.
async fn analyse(
    store: &Store,
    games: &Games,
    job: &Job,
    settings: AnalysisSettings,
    set: impl Fn(Progress) + Send + Clone + 'static,
) -> Result<(), String> {
    let kind = games.get(&job.name).ok_or_else(|| format!("this server does not know the game {}", job.name))?.clone();
    let seat = job.seat;
    if store.analysis(job.game, seat).await.map_err(|e| e.to_string())?.is_some() {
        return Ok(()); // made while it waited (asked again just as it was kept, or by another node)
    }
    let record = store.record(job.game).await.map_err(|e| e.to_string())?;
    // Each analysis draws its own worlds: the game's id seeds them, so that asking again after a failure
    // or on another node gives the same analysis.
    let settings = AnalysisSettings { seed: settings.seed ^ job.game.0.as_u64_pair().0, ..settings };
    let analysis = tokio::task::spawn_blocking(move || {
        kind.analyse(&record, seat, &settings, &mut |done, total| set(Progress::Running { done, total }))
    })
    .await
    .map_err(|e| format!("the analysis stopped: {e}"))??;
    store.put_analysis(job.game, seat, &analysis).await.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_refuses_and_says_when_to_come_back() {
        let (analyst, _worker) = Analyst::new(1);
        let (a, b) = (TableId(uuid::Uuid::new_v4()), TableId(uuid::Uuid::new_v4()));
        assert_eq!(analyst.request(a, "rommi", Seat(0)), Ok(Progress::Queued));
        // Asked again, it is the same analysis: not queued twice.
        assert_eq!(analyst.request(a, "rommi", Seat(0)), Ok(Progress::Queued));
        assert_eq!(analyst.progress(a, Seat(0)), Some(Progress::Queued));
        let full = analyst.request(b, "rommi", Seat(0)).expect_err("the queue holds one");
        assert!(full.retry_after >= Duration::from_secs(1), "{full:?}");
        assert_eq!(analyst.progress(b, Seat(0)), None, "a refused analysis is not under way");
        assert_eq!(analyst.progress(a, Seat(1)), None, "another seat is another analysis");
    }
}
