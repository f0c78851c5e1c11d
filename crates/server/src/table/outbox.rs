//! A connection's outbox: the bounded queue of messages waiting to be written to its socket.
//!
//! Tables never wait on a connection: they `try_send`, and a full queue means the client is too slow
//! to keep up, so the outbox raises its `too_slow` flag, which the connection's loop turns into a
//! close. A slow client therefore never makes the server hold more than the queue's length for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{Notify, mpsc};

use crate::protocol::ServerMsg;

/// A connection's number, unique while the server runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

/// Something to write to a socket.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A text message.
    Text(Utf8Bytes),
}

/// The sending side of a connection's outbox.
#[derive(Clone, Debug)]
pub struct Outbox {
    queue: mpsc::Sender<Outgoing>,
    too_slow: Arc<TooSlow>,
}

/// Raised when a message did not fit in the queue.
#[derive(Debug, Default)]
pub struct TooSlow {
    raised: AtomicBool,
    notify: Notify,
}

impl TooSlow {
    /// Waits until the flag is raised.
    pub async fn raised(&self) {
        loop {
            let notified = self.notify.notified();
            if self.raised.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }
}

impl Outbox {
    /// A new outbox holding at most `capacity` messages, with its receiving side and slow flag.
    pub fn new(capacity: usize) -> (Outbox, mpsc::Receiver<Outgoing>, Arc<TooSlow>) {
        let (queue, receiver) = mpsc::channel(capacity);
        let too_slow = Arc::new(TooSlow::default());
        (Outbox { queue, too_slow: too_slow.clone() }, receiver, too_slow)
    }

    /// Queues a message; false when the queue is full (the connection is then flagged too slow) or the
    /// connection is gone.
    pub fn send(&self, message: Outgoing) -> bool {
        match self.queue.try_send(message) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.too_slow.raised.store(true, Ordering::Release);
                self.too_slow.notify.notify_waiters();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Serializes and queues a message, as [`Outbox::send`].
    pub fn send_msg(&self, message: &ServerMsg) -> bool {
        self.send(Outgoing::Text(message.to_json().into()))
    }
}
