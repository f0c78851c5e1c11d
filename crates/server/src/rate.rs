//! A token bucket: the server's per-connection rate limit and strike counter (a client paces itself
//! under the limit the server announces with a bucket of its own, in `romirami-client`).

use tokio::time::Instant;

/// `level` tokens, refilled at `rate` per second up to `capacity`; it starts full.
#[derive(Debug)]
pub(crate) struct TokenBucket {
    level: f64,
    capacity: f64,
    rate: f64,
    at: Instant,
}

impl TokenBucket {
    pub(crate) fn new(capacity: f64, rate: f64) -> TokenBucket {
        TokenBucket { level: capacity, capacity, rate, at: Instant::now() }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.level = (self.level + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.capacity);
        self.at = now;
    }

    /// Takes one token; false (and nothing taken) when there is none.
    pub(crate) fn take(&mut self) -> bool {
        self.refill();
        if self.level >= 1.0 {
            self.level -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket has refilled to its capacity (it then holds nothing a fresh one would not).
    pub(crate) fn is_full(&mut self) -> bool {
        self.refill();
        self.level >= self.capacity
    }
}
