//! The server's bot pool: where the bots' decisions are made, away from the tables' tasks, so that a
//! thinking bot never delays a table, a join, a chat line or a clock.
//!
//! A decision runs on tokio's blocking threads, at most [`Config::bot_threads`](crate::config::Config)
//! at once (a semaphore: the others wait their turn without holding a thread), and stops after
//! [`Config::bot_think_time`](crate::config::Config) however many playouts are left: the `strong` bot
//! then plays the best move it has found. Its answer goes back to its table's task, which feeds it to
//! the core; a table that closed meanwhile just never reads it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc};
use tracing::error;

use super::core::{BotTurn, Thought};

/// The bounded pool of bot thinking.
#[derive(Clone, Debug)]
pub(crate) struct BotPool {
    permits: Arc<Semaphore>,
    think_time: Duration,
}

impl BotPool {
    /// A pool of `threads` decisions at once (at least one), each stopped after `think_time`.
    pub(crate) fn new(threads: usize, think_time: Duration) -> BotPool {
        BotPool { permits: Arc::new(Semaphore::new(threads.max(1))), think_time }
    }

    /// Has `turn` decided when a thread is free, and sends the answer to `back`.
    pub(crate) fn think(&self, turn: BotTurn, back: mpsc::UnboundedSender<Thought>) {
        let (permits, think_time) = (Arc::clone(&self.permits), self.think_time);
        tokio::spawn(async move {
            // The semaphore is never closed.
            let Ok(_permit) = permits.acquire_owned().await else { return };
            let failed = turn.unthought();
            let level = turn.level();
            let thought = tokio::task::spawn_blocking(move || {
                let started = Instant::now();
                let stop = move || started.elapsed() >= think_time;
                let thought = turn.think(Some(&stop));
                crate::metrics::bot_thought(level, started.elapsed());
                thought
            })
            .await
            .unwrap_or_else(|panicked| {
                // A bot that panics harms no table: its table is told that no move came, and tries again.
                error!(%panicked, %level, "the bot failed to decide a move");
                failed
            });
            // A table that closed meanwhile has dropped its receiver.
            let _ = back.send(thought);
        });
    }
}
