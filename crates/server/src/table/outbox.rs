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
        if let ServerMsg::Error { code, .. } = message {
            crate::metrics::rejected(*code);
        }
        self.send(Outgoing::Text(message.to_json().into()))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures_util::FutureExt;

    use super::*;

    fn text(s: &str) -> Outgoing {
        Outgoing::Text(s.to_owned().into())
    }

    #[test]
    fn a_message_that_does_not_fit_flags_the_connection_too_slow() {
        let (outbox, mut queue, too_slow) = Outbox::new(2);
        assert!(outbox.send(text("1")) && outbox.send_msg(&ServerMsg::Lobby { tables: Vec::new() }));
        assert!(too_slow.raised().now_or_never().is_none(), "not flagged while everything fits");
        assert!(!outbox.send(text("3")), "a third message does not fit");
        assert!(too_slow.raised().now_or_never().is_some(), "flagged");
        // What was queued stays queued, in order; the flag stays up once there is room again.
        let Some(Outgoing::Text(first)) = queue.try_recv().ok() else { panic!("the first message is queued") };
        assert_eq!(first.as_str(), "1");
        let Some(Outgoing::Text(second)) = queue.try_recv().ok() else { panic!("the second message is queued") };
        assert_eq!(second.as_str(), r#"{"type":"lobby","tables":[]}"#);
        assert!(queue.try_recv().is_err(), "the third was not queued");
        assert!(outbox.send(text("4")));
        assert!(too_slow.raised().now_or_never().is_some(), "still flagged");
    }

    #[test]
    fn a_closed_connection_refuses_without_being_flagged() {
        let (outbox, queue, too_slow) = Outbox::new(1);
        drop(queue);
        assert!(!outbox.send(text("1")));
        assert!(too_slow.raised().now_or_never().is_none());
    }

    #[tokio::test]
    async fn a_connection_waiting_on_the_flag_wakes_when_it_is_raised() {
        let (outbox, _queue, too_slow) = Outbox::new(1);
        let waiting = tokio::spawn(async move { too_slow.raised().await });
        tokio::task::yield_now().await;
        assert!(outbox.send(text("1")));
        assert!(!waiting.is_finished());
        assert!(!outbox.send(text("2")));
        tokio::time::timeout(Duration::from_secs(10), waiting)
            .await
            .expect("the waiting connection wakes")
            .expect("the task ran");
    }
}
