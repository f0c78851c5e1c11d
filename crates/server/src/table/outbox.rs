//! A connection's outbox: the bounded queue of messages waiting to be written to its socket.
//!
//! Tables never wait on a connection: they `send`, and a full queue means the client is too slow
//! to keep up, so the outbox raises its `too_slow` flag, which the connection's loop turns into a
//! close. A slow client therefore never makes the server hold more than the queue's length for it.
//!
//! The queue is a `VecDeque` behind a mutex, allocated when a message arrives and released when the
//! connection has written everything: an idle connection's outbox is one small allocation (about
//! 120 bytes) instead of a channel that keeps a block of slots for its whole life.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use axum::extract::ws::Utf8Bytes;
use futures_util::task::AtomicWaker;

use crate::wire::ServerMsg;

/// A connection's number, unique while the server runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

/// Something to write to a socket.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A text message.
    Text(Utf8Bytes),
}

/// What the sending sides, the receiving side and the slow flag share.
#[derive(Debug)]
struct Shared {
    queue: Mutex<VecDeque<Outgoing>>,
    capacity: usize,
    /// Live [`Outbox`] handles; the receiver sees the end of the queue when the last one is dropped.
    senders: AtomicUsize,
    /// The receiving side is gone: nothing is queued any more.
    closed: AtomicBool,
    too_slow: AtomicBool,
    /// The connection's task waiting for a message.
    receiver: AtomicWaker,
    /// The connection's task waiting for the slow flag.
    too_slow_waiter: AtomicWaker,
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, VecDeque<Outgoing>> {
        // A panic while the lock was held leaves a queue that is still a valid queue.
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The sending side of a connection's outbox.
#[derive(Debug)]
pub struct Outbox(Arc<Shared>);

/// The receiving side of a connection's outbox, read by the connection's task only.
#[derive(Debug)]
pub struct OutboxQueue(Arc<Shared>);

/// Raised when a message did not fit in the queue.
#[derive(Debug)]
pub struct TooSlow(Arc<Shared>);

/// Why [`OutboxQueue::try_recv`] has no message.
#[derive(Debug, PartialEq, Eq)]
pub enum TryRecvError {
    /// Nothing is queued now.
    Empty,
    /// Nothing is queued and every sending side is gone.
    Disconnected,
}

impl TooSlow {
    /// Waits until the flag is raised.
    pub async fn raised(&self) {
        poll_fn(|cx| {
            self.0.too_slow_waiter.register(cx.waker());
            if self.0.too_slow.load(Ordering::Acquire) { Poll::Ready(()) } else { Poll::Pending }
        })
        .await;
    }
}

impl Outbox {
    /// A new outbox holding at most `capacity` messages, with its receiving side and slow flag.
    pub fn new(capacity: usize) -> (Outbox, OutboxQueue, TooSlow) {
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            capacity,
            senders: AtomicUsize::new(1),
            closed: AtomicBool::new(false),
            too_slow: AtomicBool::new(false),
            receiver: AtomicWaker::new(),
            too_slow_waiter: AtomicWaker::new(),
        });
        (Outbox(shared.clone()), OutboxQueue(shared.clone()), TooSlow(shared))
    }

    /// Queues a message; false when the queue is full (the connection is then flagged too slow) or the
    /// connection is gone.
    pub fn send(&self, message: Outgoing) -> bool {
        let shared = &self.0;
        {
            let mut queue = shared.queue();
            // Checked under the lock: the receiver empties the queue under it when it goes away.
            if shared.closed.load(Ordering::Acquire) {
                return false;
            }
            if queue.len() >= shared.capacity {
                drop(queue);
                shared.too_slow.store(true, Ordering::Release);
                shared.too_slow_waiter.wake();
                return false;
            }
            queue.push_back(message);
        }
        shared.receiver.wake();
        true
    }

    /// Serializes and queues a message, as [`Outbox::send`].
    pub fn send_msg(&self, message: &ServerMsg) -> bool {
        if let ServerMsg::Error { code, .. } = message {
            crate::metrics::rejected(*code);
        }
        self.send(Outgoing::Text(message.to_json().into()))
    }
}

impl Clone for Outbox {
    fn clone(&self) -> Outbox {
        self.0.senders.fetch_add(1, Ordering::Relaxed);
        Outbox(self.0.clone())
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        if self.0.senders.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.receiver.wake();
        }
    }
}

impl OutboxQueue {
    /// The next message, waiting for one; `None` once the queue is empty and every sending side is gone.
    pub async fn recv(&mut self) -> Option<Outgoing> {
        poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// The next message, waiting for one; `None` once the queue is empty and every sending side is gone.
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<Outgoing>> {
        match self.try_recv() {
            Ok(message) => return Poll::Ready(Some(message)),
            Err(TryRecvError::Disconnected) => return Poll::Ready(None),
            Err(TryRecvError::Empty) => {}
        }
        self.0.receiver.register(cx.waker());
        // Again, for a message queued before the waker was registered.
        match self.try_recv() {
            Ok(message) => Poll::Ready(Some(message)),
            Err(TryRecvError::Disconnected) => Poll::Ready(None),
            Err(TryRecvError::Empty) => Poll::Pending,
        }
    }

    /// The next message if one is queued.
    ///
    /// # Errors
    /// When nothing is queued; [`TryRecvError::Disconnected`] when nothing ever will be.
    pub fn try_recv(&mut self) -> Result<Outgoing, TryRecvError> {
        let mut queue = self.0.queue();
        match queue.pop_front() {
            Some(message) => {
                if queue.is_empty() {
                    // Written everything: give the room back, an idle connection keeps none.
                    *queue = VecDeque::new();
                }
                Ok(message)
            }
            None if self.0.senders.load(Ordering::Acquire) == 0 => Err(TryRecvError::Disconnected),
            None => Err(TryRecvError::Empty),
        }
    }
}

impl Drop for OutboxQueue {
    fn drop(&mut self) {
        let mut queue = self.0.queue();
        self.0.closed.store(true, Ordering::Release);
        *queue = VecDeque::new();
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

    #[test]
    fn an_emptied_queue_gives_its_room_back() {
        let (outbox, mut queue, _too_slow) = Outbox::new(8);
        assert_eq!(queue.0.queue().capacity(), 0, "a new outbox holds no room for messages");
        assert!(outbox.send(text("1")) && outbox.send(text("2")));
        assert!(queue.0.queue().capacity() >= 2);
        assert!(queue.try_recv().is_ok());
        assert!(queue.0.queue().capacity() >= 1, "room is kept while a message waits");
        assert!(queue.try_recv().is_ok());
        assert_eq!(queue.0.queue().capacity(), 0, "written everything: the room is given back");
        assert_eq!(queue.try_recv().err(), Some(TryRecvError::Empty));
    }

    #[tokio::test]
    async fn the_receiver_wakes_for_a_message_and_sees_the_end_when_every_sender_is_gone() {
        let (outbox, mut queue, _too_slow) = Outbox::new(4);
        let table = outbox.clone();
        let reading = tokio::spawn(async move {
            let mut read = Vec::new();
            while let Some(Outgoing::Text(text)) = queue.recv().await {
                read.push(text.as_str().to_owned());
            }
            read
        });
        tokio::task::yield_now().await;
        assert!(table.send(text("1")));
        tokio::task::yield_now().await;
        assert!(outbox.send(text("2")));
        drop(outbox);
        tokio::task::yield_now().await;
        assert!(!reading.is_finished(), "one sender is left");
        assert!(table.send(text("3")));
        drop(table);
        let read = tokio::time::timeout(Duration::from_secs(10), reading)
            .await
            .expect("the receiver sees the end")
            .expect("the task ran");
        assert_eq!(read, ["1", "2", "3"]);
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
