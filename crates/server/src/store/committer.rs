//! Group commit: the actions of many tables, written in few transactions.
//!
//! Each table hands its accepted action to the [`Committer`] and waits for the answer before it
//! acknowledges the action. One task takes everything that is waiting (up to a batch size), appends it
//! in one transaction ([`Store::append_actions`]), then answers every waiter with the outcome. While
//! transactions are in flight (two on PostgreSQL, which flushes concurrent commits together; one on
//! SQLite) the next submissions queue up, so the busier the server, the larger the batches: the cost
//! of a durable commit (an fsync) is shared instead of paid per action.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::{ActionRow, Appended, Store, StoreError, retry};

/// One submission: the row, and where its outcome goes.
type Job = (ActionRow, oneshot::Sender<Result<(), StoreError>>);

/// A handle to the group-commit task; cheap to clone. The task ends once every handle is dropped and
/// what was submitted is committed.
#[derive(Clone, Debug)]
pub struct Committer {
    jobs: mpsc::Sender<Job>,
    stats: Arc<Counters>,
}

#[derive(Debug, Default)]
struct Counters {
    transactions: AtomicU64,
    rows: AtomicU64,
    failed_rows: AtomicU64,
}

/// What the committer has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitterStats {
    /// Transactions tried, committed or not.
    pub transactions: u64,
    /// Rows committed.
    pub rows: u64,
    /// Rows whose transaction failed (their submitters got the error).
    pub failed_rows: u64,
}

impl Committer {
    /// Starts the group-commit task on the current tokio runtime. `queue` bounds the submissions
    /// waiting (a submitter waits for room beyond it), `max_batch` the rows of one transaction; both
    /// are at least 1.
    pub fn spawn(store: Store, queue: usize, max_batch: usize) -> (Committer, JoinHandle<()>) {
        let (jobs, receiver) = mpsc::channel(queue.max(1));
        let stats = Arc::new(Counters::default());
        let task = tokio::spawn(run(store, receiver, max_batch.max(1), Arc::clone(&stats)));
        (Committer { jobs, stats }, task)
    }

    /// Appends `row` to its game's log, durably, together with whatever else is waiting.
    ///
    /// # Errors
    /// The error of the transaction the row was in (then the row was not written), or
    /// [`StoreError::Unavailable`] when the committer has stopped.
    pub async fn commit(&self, row: ActionRow) -> Result<(), StoreError> {
        let (answer, outcome) = oneshot::channel();
        self.jobs.send((row, answer)).await.map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }

    /// What the committer has done so far.
    pub fn stats(&self) -> CommitterStats {
        CommitterStats {
            transactions: self.stats.transactions.load(Ordering::Relaxed),
            rows: self.stats.rows.load(Ordering::Relaxed),
            failed_rows: self.stats.failed_rows.load(Ordering::Relaxed),
        }
    }
}

fn stopped() -> StoreError {
    StoreError::Unavailable("the committer has stopped".into())
}

async fn run(store: Store, mut receiver: mpsc::Receiver<Job>, max_batch: usize, stats: Arc<Counters>) {
    // A batch need not wait for the one before it to be durable where the database flushes concurrent
    // commits together.
    let in_flight = store.commits_in_flight();
    let mut commits = FuturesUnordered::new();
    let mut receiving = true;
    while receiving || !commits.is_empty() {
        tokio::select! {
            // `recv_many` waits for one submission, then takes every one already waiting, up to
            // `max_batch`; it returns 0 once every handle is dropped and the queue is empty.
            jobs = receive(&mut receiver, max_batch), if receiving && commits.len() < in_flight => match jobs {
                Some(jobs) => commits.push(commit(&store, jobs, &stats)),
                None => receiving = false,
            },
            Some(()) = commits.next(), if !commits.is_empty() => {}
        }
    }
}

async fn receive(receiver: &mut mpsc::Receiver<Job>, max_batch: usize) -> Option<Vec<Job>> {
    let mut jobs = Vec::new();
    (receiver.recv_many(&mut jobs, max_batch).await > 0).then_some(jobs)
}

/// Appends one batch in one transaction and answers each of its submitters. When the database refuses
/// the batch (one row's number is taken, say) rather than being unavailable, each row goes again in a
/// transaction of its own ([`retry`]), so that one table's bad row does not fail the others' actions. A
/// row refused by its fence (its table's lease is another node's now) fails alone.
async fn commit(store: &Store, jobs: Vec<Job>, stats: &Counters) {
    let rows: Vec<ActionRow> = jobs.iter().map(|(row, _)| row.clone()).collect();
    let outcomes = retry::batch_then_each_alone(&rows, "actions", &Appender { store, stats }).await;
    for ((_, answer), outcome) in jobs.into_iter().zip(outcomes) {
        // A submitter that stopped waiting does not need the answer.
        let _ = answer.send(outcome);
    }
}

/// Each row's outcome in a committed batch: written, or refused by its fence.
fn per_row(rows: &[ActionRow], appended: &Appended) -> Vec<Result<(), StoreError>> {
    (0..rows.len())
        .map(|i| match appended.fenced.contains(&i) {
            false => Ok(()),
            true => Err(StoreError::Fenced(format!("action {} of table {}", rows[i].seq, rows[i].table))),
        })
        .collect()
}

/// Appends batches of actions, counting each transaction.
struct Appender<'a> {
    store: &'a Store,
    stats: &'a Counters,
}

impl retry::Transact<ActionRow> for Appender<'_> {
    /// One transaction: appends `rows`, counting it; each row is written or refused by its fence.
    async fn transact(&self, rows: &[ActionRow]) -> retry::Outcomes {
        let began = std::time::Instant::now();
        let outcome = self.store.append_actions(rows).await;
        crate::metrics::commit(began, rows.len(), outcome.is_ok());
        let stats = self.stats;
        stats.transactions.fetch_add(1, Ordering::Relaxed);
        let written = outcome.as_ref().map_or(0, |appended| rows.len() - appended.fenced.len());
        stats.rows.fetch_add(written as u64, Ordering::Relaxed);
        stats.failed_rows.fetch_add((rows.len() - written) as u64, Ordering::Relaxed);
        if let Err(error) = &outcome {
            tracing::error!(rows = rows.len(), %error, "actions were not committed");
        }
        outcome.map(|appended| per_row(rows, &appended))
    }
}
