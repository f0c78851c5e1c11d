//! Group commit for every write other than actions: guests, tables, seats, the start and the finish of
//! games, each written durably before its caller goes on.
//!
//! Like the actions' [`Committer`](super::Committer), one task takes every write that is waiting (up to
//! a batch size), writes them in one transaction ([`Store::write`]: one statement per kind of write on
//! PostgreSQL) and answers every waiter; while a transaction is in flight the next writes queue up.
//! Setting up thousands of tables at once, or finishing thousands of games, then costs a few durable
//! commits instead of one (or two) per write.
//!
//! Unlike the actions' batches, a batch of writes does not fail as a whole for one bad write: a finish
//! whose game is missing or already finished is told so and the others are written; any other write the
//! database refuses makes each write of that batch go again in a transaction of its own, so that only
//! the bad one fails. Only when the database is unavailable does every waiter of the batch get the error
//! (then nothing of the batch was written, or, if the connection broke while committing, possibly all
//! of it).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use romirami_game::commitment::ShuffleProof;
use time::OffsetDateTime;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::{FinishedGame, GamePlayer, Store, StoreError, TableRow, Write};
use crate::protocol::{PlayerId, PlayerInfo, TableId};

/// One submission: the write, and where its outcome goes.
type Job = (Write, oneshot::Sender<Result<(), StoreError>>);

/// A handle to the group-commit task of writes other than actions; cheap to clone. The task ends once
/// every handle is dropped and what was submitted is written.
#[derive(Clone, Debug)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
    stats: Arc<Counters>,
}

#[derive(Debug, Default)]
struct Counters {
    batches: AtomicU64,
    writes: AtomicU64,
    failed_writes: AtomicU64,
}

/// What the writer has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Batches written (each one transaction, or one per write after a refusal).
    pub batches: u64,
    /// Writes that succeeded.
    pub writes: u64,
    /// Writes that failed (their submitters got the error).
    pub failed_writes: u64,
}

impl Writer {
    /// Starts the group-commit task on the current tokio runtime. `queue` bounds the writes waiting (a
    /// submitter waits for room beyond it), `max_batch` the writes of one transaction; both are at
    /// least 1.
    pub fn spawn(store: Store, queue: usize, max_batch: usize) -> (Writer, JoinHandle<()>) {
        let (jobs, receiver) = mpsc::channel(queue.max(1));
        let stats = Arc::new(Counters::default());
        let task = tokio::spawn(run(store, receiver, max_batch.max(1), Arc::clone(&stats)));
        (Writer { jobs, stats }, task)
    }

    async fn submit(&self, write: Write) -> Result<(), StoreError> {
        let (answer, outcome) = oneshot::channel();
        self.jobs.send((write, answer)).await.map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }

    /// Stores a player, or renames one already stored ([`Store::save_player`]).
    ///
    /// # Errors
    /// When the write fails, or [`StoreError::Unavailable`] when the writer has stopped.
    pub async fn save_player(&self, player: &PlayerInfo, token_hash: &[u8; 32]) -> Result<(), StoreError> {
        self.submit(Write::player(player, token_hash)).await
    }

    /// Stores a new table and who sits where at it: `seats[i]` is seat `i`'s player.
    ///
    /// # Errors
    /// When the write fails (then neither the table nor its seats are stored), e.g. the host is not a
    /// stored player; [`StoreError::Unavailable`] when the writer has stopped.
    pub async fn create_table(&self, table: &TableRow, seats: &[Option<PlayerId>]) -> Result<(), StoreError> {
        self.submit(Write::Table { table: table.clone(), seats: seats.to_vec() }).await
    }

    /// Replaces who sits where at a table that waits for its game ([`Store::set_seats`]).
    ///
    /// # Errors
    /// When the write fails, or [`StoreError::Unavailable`] when the writer has stopped.
    pub async fn set_seats(&self, table: TableId, seats: &[Option<(PlayerId, bool)>]) -> Result<(), StoreError> {
        self.submit(Write::Seats { table, seats: seats.to_vec() }).await
    }

    /// Stores the start of a table's game dealt with `shuffle` ([`Store::start_dealt_game`]).
    ///
    /// # Errors
    /// When the write fails, or [`StoreError::Unavailable`] when the writer has stopped.
    pub async fn start_game(
        &self,
        table: TableId,
        shuffle: &ShuffleProof,
        players: &[GamePlayer],
        started_at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        self.submit(Write::start(table, shuffle, players, started_at)).await
    }

    /// Stores the end of a table's game: its record and a result per seat ([`Store::finish_game`]).
    /// The record's head is read here, by the caller's task.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when the game was not started, [`StoreError::Other`] when it already
    /// finished or the record or the outcome does not fit it, [`StoreError::Unavailable`] when the
    /// database or the writer is.
    pub async fn finish_game(&self, table: TableId, finished: FinishedGame) -> Result<(), StoreError> {
        self.submit(Write::finish(table, finished)?).await
    }

    /// What the writer has done so far.
    pub fn stats(&self) -> WriterStats {
        WriterStats {
            batches: self.stats.batches.load(Ordering::Relaxed),
            writes: self.stats.writes.load(Ordering::Relaxed),
            failed_writes: self.stats.failed_writes.load(Ordering::Relaxed),
        }
    }
}

fn stopped() -> StoreError {
    StoreError::Unavailable("the writer has stopped".into())
}

async fn run(store: Store, mut receiver: mpsc::Receiver<Job>, max_batch: usize, stats: Arc<Counters>) {
    let mut jobs: Vec<Job> = Vec::with_capacity(max_batch);
    let mut writes: Vec<Write> = Vec::with_capacity(max_batch);
    let mut answers = Vec::with_capacity(max_batch);
    // `recv_many` waits for one submission, then takes every one already waiting, up to `max_batch`;
    // it returns 0 once every handle is dropped and the queue is empty.
    while receiver.recv_many(&mut jobs, max_batch).await > 0 {
        for (write, answer) in jobs.drain(..) {
            writes.push(write);
            answers.push(answer);
        }
        let outcomes = store.write(&writes).await;
        stats.batches.fetch_add(1, Ordering::Relaxed);
        let failed = outcomes.iter().filter(|o| o.is_err()).count() as u64;
        stats.failed_writes.fetch_add(failed, Ordering::Relaxed);
        stats.writes.fetch_add(outcomes.len() as u64 - failed, Ordering::Relaxed);
        if let Some(Err(error)) = outcomes.iter().find(|o| o.is_err()) {
            tracing::warn!(writes = writes.len(), failed, %error, "writes of a batch failed");
        }
        writes.clear();
        for (answer, outcome) in answers.drain(..).zip(outcomes) {
            // A submitter that stopped waiting does not need the answer.
            let _ = answer.send(outcome);
        }
    }
}
