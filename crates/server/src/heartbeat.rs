//! The server's heartbeat: one timer for the pings of every connection, and the shutdown signal.
//!
//! Every connection pings its client once per ping interval. With a timer per connection, each idle
//! connection would hold a timer (a boxed `Sleep` and an `Interval`, about 150 bytes) and its own
//! entry in the runtime's timer wheel. Instead one task beats [`PHASES`] times per interval and each
//! beat wakes the connections of one phase (a connection's phase is its number modulo [`PHASES`]): so
//! each connection still hears one beat per interval, and the pings of many connections go out spread
//! over the interval rather than all at once. The same channels carry the shutdown, so that a
//! connection waits on one thing for both.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::MissedTickBehavior;

use crate::table::ConnId;

/// How many groups the connections' pings are spread over.
pub(crate) const PHASES: usize = 16;

/// What a connection hears from the heartbeat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Beat {
    /// Whether the server is shutting down (then the connection closes instead of pinging).
    pub(crate) shutting_down: bool,
    /// How many times this phase has beaten.
    count: u64,
}

/// The beating side: one channel per phase.
#[derive(Debug)]
pub(crate) struct Heartbeat {
    phases: Vec<watch::Sender<Beat>>,
}

impl Heartbeat {
    /// A heartbeat whose every phase beats once per `interval`, driven by a task on the current
    /// runtime that ends when the heartbeat is dropped.
    pub(crate) fn start(interval: Duration) -> Arc<Heartbeat> {
        let heartbeat =
            Arc::new(Heartbeat { phases: (0..PHASES).map(|_| watch::channel(Beat::default()).0).collect() });
        let weak = Arc::downgrade(&heartbeat);
        let step = (interval / PHASES as u32).max(Duration::from_millis(1));
        tokio::spawn(beat(weak, step));
        heartbeat
    }

    /// The beats of connection `conn`'s phase.
    pub(crate) fn subscribe(&self, conn: ConnId) -> watch::Receiver<Beat> {
        self.phases[(conn.0 % PHASES as u64) as usize].subscribe()
    }

    /// Tells every connection that the server is shutting down.
    pub(crate) fn shut_down(&self) {
        for phase in &self.phases {
            phase.send_modify(|beat| beat.shutting_down = true);
        }
    }

    /// Whether the server is shutting down.
    pub(crate) fn shutting_down(&self) -> bool {
        self.phases.first().is_some_and(|phase| phase.borrow().shutting_down)
    }
}

/// Beats one phase every `step`, in turn, while the heartbeat is alive.
async fn beat(heartbeat: Weak<Heartbeat>, step: Duration) {
    let mut ticks = tokio::time::interval(step);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    // The first tick completes at once: connections hear their first beat one step or more after
    // they open, not at once.
    ticks.tick().await;
    for phase in (0..PHASES).cycle() {
        ticks.tick().await;
        let Some(heartbeat) = heartbeat.upgrade() else { return };
        heartbeat.phases[phase].send_modify(|beat| beat.count += 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn each_connection_hears_one_beat_per_interval_and_the_shutdown() {
        let heartbeat = Heartbeat::start(Duration::from_secs(16));
        let mut first = heartbeat.subscribe(ConnId(0));
        let mut other = heartbeat.subscribe(ConnId(5));
        let start = tokio::time::Instant::now();
        first.changed().await.expect("beating");
        assert_eq!(start.elapsed(), Duration::from_secs(1), "phase 0 beats one step in");
        other.changed().await.expect("beating");
        assert_eq!(start.elapsed(), Duration::from_secs(6), "phase 5 beats five steps later");
        first.changed().await.expect("beating");
        assert_eq!(start.elapsed(), Duration::from_secs(17), "and again one interval later");
        assert!(!first.borrow_and_update().shutting_down && !heartbeat.shutting_down());
        heartbeat.shut_down();
        other.changed().await.expect("told");
        assert!(other.borrow_and_update().shutting_down && heartbeat.shutting_down());
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_hears_when_the_heartbeat_is_gone() {
        let heartbeat = Heartbeat::start(Duration::from_secs(16));
        let mut beats = heartbeat.subscribe(ConnId(1));
        drop(heartbeat);
        assert!(beats.changed().await.is_err());
        // The beating task sees it at its next step and ends.
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
}
