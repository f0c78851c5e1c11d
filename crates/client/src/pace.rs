//! Pacing under the rate limit the server announces in its welcome: a token bucket whose sends wait for
//! a token instead of being refused (the server's own bucket refuses, see `romirami-server`'s `rate`).

use std::time::Duration;

use tokio::time::Instant;

/// `level` tokens, refilled at `rate` per second up to `capacity`; it starts full.
#[derive(Debug)]
pub(crate) struct Pace {
    level: f64,
    capacity: f64,
    rate: f64,
    at: Instant,
}

impl Pace {
    pub(crate) fn new(capacity: f64, rate: f64) -> Pace {
        Pace { level: capacity, capacity, rate, at: Instant::now() }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.level = (self.level + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.capacity);
        self.at = now;
    }

    /// Takes one token, first waiting for it to refill when there is none.
    pub(crate) async fn wait(&mut self) {
        self.refill();
        if self.level < 1.0 && self.rate > 0.0 {
            tokio::time::sleep(Duration::from_secs_f64((1.0 - self.level) / self.rate)).await;
            self.refill();
            self.level = self.level.max(1.0);
        }
        self.level -= 1.0;
    }
}
