//! Wrong passwords, counted per name and per client address, and the locks they earn
//! ([`SignInLimits`]).
//!
//! An attempt is counted when it starts, before its password is hashed ([`Attempts::begin`]), and settled
//! when the hash is checked ([`Attempts::failed`] or [`Attempts::succeeded`], or [`Attempts::abandoned`]):
//! attempts in flight count as failures to come, so a burst of concurrent guesses checks no more passwords
//! than the same guesses one after another would.
//!
//! Sans-I/O: every call takes the current instant, so the windows are tested without waiting.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::time::Duration;

use tokio::time::Instant;

use crate::config::SignInLimits;

/// Names or addresses tracked before the forgotten ones are pruned.
const PRUNE_AT: usize = 4096;

/// The wrong passwords of one name or one address, and its attempts being checked.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    /// Attempts begun and not yet settled.
    in_flight: u32,
    last: Instant,
    locked_until: Option<Instant>,
}

/// Failures by key (a name's key, or an address), with what counts as free.
#[derive(Debug)]
struct Window<K> {
    failures: HashMap<K, Failures>,
}

impl<K: Hash + Eq> Window<K> {
    fn new() -> Window<K> {
        Window { failures: HashMap::new() }
    }

    /// How long `key` is still locked at `now`; zero when it is not.
    fn locked_for(&mut self, key: &K, now: Instant, limits: &SignInLimits) -> Duration {
        let Some(failures) = self.failures.get(key) else { return Duration::ZERO };
        if now.saturating_duration_since(failures.last) >= limits.forget_after && failures.in_flight == 0 {
            self.failures.remove(key);
            return Duration::ZERO;
        }
        failures.locked_until.map_or(Duration::ZERO, |until| until.saturating_duration_since(now))
    }

    /// Whether one more attempt for `key` may start besides those in flight: all of them failing must
    /// not go past the lock the last free failure's successor earns. Within the free failures, as many as
    /// are left (and the one that would lock); beyond them, one at a time.
    fn has_room(&self, key: &K, free: u32) -> bool {
        self.failures.get(key).is_none_or(|f| f.in_flight < (free + 1).saturating_sub(f.count).max(1))
    }

    /// One more attempt for `key` is in flight.
    fn begin(&mut self, key: K, now: Instant) {
        let failures =
            self.failures.entry(key).or_insert(Failures { count: 0, in_flight: 0, last: now, locked_until: None });
        failures.in_flight += 1;
    }

    /// An attempt for `key` is settled (then counted as failed, or forgotten).
    fn settle(&mut self, key: &K) {
        if let Some(failures) = self.failures.get_mut(key) {
            failures.in_flight = failures.in_flight.saturating_sub(1);
        }
    }

    /// Counts a wrong password for `key`: beyond `free` of them, each locks it for twice as long as
    /// the one before, from [`SignInLimits::first_lock`] up to [`SignInLimits::max_lock`].
    fn failed(&mut self, key: K, free: u32, now: Instant, limits: &SignInLimits) {
        if self.failures.len() >= PRUNE_AT {
            self.failures.retain(|_, f| f.in_flight > 0 || now.saturating_duration_since(f.last) < limits.forget_after);
        }
        let failures =
            self.failures.entry(key).or_insert(Failures { count: 0, in_flight: 0, last: now, locked_until: None });
        if now.saturating_duration_since(failures.last) >= limits.forget_after {
            *failures = Failures { count: 0, in_flight: failures.in_flight, last: now, locked_until: None };
        }
        failures.count = failures.count.saturating_add(1);
        failures.last = now;
        if let Some(beyond) = failures.count.checked_sub(free).and_then(|n| n.checked_sub(1)) {
            // 2^beyond, without overflowing: beyond 20 doublings every lock is the longest anyway.
            let lock = limits.first_lock.saturating_mul(1 << beyond.min(20)).min(limits.max_lock);
            failures.locked_until = Some(now + lock);
        }
    }

    fn forget(&mut self, key: &K) {
        if let Some(failures) = self.failures.get_mut(key) {
            *failures = Failures { count: 0, locked_until: None, ..*failures };
        }
    }
}

/// The wrong passwords of every name and address lately.
#[derive(Debug)]
pub(crate) struct Attempts {
    limits: SignInLimits,
    names: Window<String>,
    addresses: Window<IpAddr>,
}

impl Attempts {
    pub(crate) fn new(limits: SignInLimits) -> Attempts {
        Attempts { limits, names: Window::new(), addresses: Window::new() }
    }

    /// Starts a sign-in with the name whose key is `name` from `address` (`None` for an address the limits
    /// spare) at `now`: `Err` with how long to wait when the name or the address is locked, or when the
    /// attempts in flight, should they all fail, would lock it (then a second). Once begun, the attempt
    /// must be settled: [`Attempts::failed`], [`Attempts::succeeded`] or [`Attempts::abandoned`].
    pub(crate) fn begin(&mut self, name: &str, address: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        let by_name = self.names.locked_for(&name.to_owned(), now, &self.limits);
        let by_address = address.map_or(Duration::ZERO, |a| self.addresses.locked_for(&a, now, &self.limits));
        let wait = by_name.max(by_address);
        if wait > Duration::ZERO {
            return Err(wait);
        }
        let name_room = self.names.has_room(&name.to_owned(), self.limits.free_failures_per_name);
        let address_room = address.is_none_or(|a| self.addresses.has_room(&a, self.limits.free_failures_per_address));
        if !name_room || !address_room {
            return Err(Duration::from_secs(1));
        }
        self.names.begin(name.to_owned(), now);
        if let Some(address) = address {
            self.addresses.begin(address, now);
        }
        Ok(())
    }

    /// A begun attempt for the name whose key is `name`, from `address`, had a wrong password.
    pub(crate) fn failed(&mut self, name: &str, address: Option<IpAddr>, now: Instant) {
        self.abandoned(name, address);
        self.names.failed(name.to_owned(), self.limits.free_failures_per_name, now, &self.limits);
        if let Some(address) = address {
            self.addresses.failed(address, self.limits.free_failures_per_address, now, &self.limits);
        }
    }

    /// A begun attempt had the right password for the name whose key is `name`: its failures are cleared.
    /// The address's stay, so that signing in to one's own name between guesses at others does not clear
    /// them.
    pub(crate) fn succeeded(&mut self, name: &str, address: Option<IpAddr>) {
        self.abandoned(name, address);
        self.names.forget(&name.to_owned());
    }

    /// A begun attempt ended without its password checked (the server failed, or its client went).
    pub(crate) fn abandoned(&mut self, name: &str, address: Option<IpAddr>) {
        self.names.settle(&name.to_owned());
        if let Some(address) = address {
            self.addresses.settle(&address);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> SignInLimits {
        SignInLimits {
            free_failures_per_name: 2,
            free_failures_per_address: 4,
            first_lock: Duration::from_secs(1),
            max_lock: Duration::from_secs(8),
            forget_after: Duration::from_secs(60),
            concurrent_hashes: 1,
        }
    }

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("an address"))
    }

    /// Whether an attempt may begin, without making one.
    fn probe(attempts: &mut Attempts, name: &str, address: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        let begun = attempts.begin(name, address, now);
        if begun.is_ok() {
            attempts.abandoned(name, address);
        }
        begun
    }

    #[test]
    fn a_burst_checks_no_more_passwords_than_the_same_guesses_one_by_one() {
        // Issue 40: 60 concurrent wrong guesses for one name were all checked (5 are free).
        let mut attempts = Attempts::new(limits());
        let now = Instant::now();
        let begun = (0..60).filter(|n| attempts.begin("ana", ip(&format!("192.0.2.{n}")), now).is_ok()).count();
        assert_eq!(begun, 3, "the two free failures and the one that locks");
        for n in 0..3 {
            attempts.failed("ana", ip(&format!("192.0.2.{n}")), now);
        }
        assert!(probe(&mut attempts, "ana", ip("192.0.2.99"), now).is_err(), "locked");
        // The same for one address guessing many names (4 are free).
        let begun = (0..60).filter(|n| attempts.begin(&format!("name{n}"), ip("198.51.100.7"), now).is_ok()).count();
        assert_eq!(begun, 5, "the address's four free failures and the one that locks");
        // Beyond its free failures a name is tried one attempt at a time once its lock ends.
        let later = now + Duration::from_secs(1);
        assert_eq!(attempts.begin("ana", None, later), Ok(()));
        assert!(attempts.begin("ana", None, later).is_err(), "one at a time");
        attempts.succeeded("ana", None);
        assert_eq!(probe(&mut attempts, "ana", None, later), Ok(()), "a right password clears the name");
    }

    #[test]
    fn a_name_is_locked_after_its_free_failures_for_longer_each_time() {
        let mut attempts = Attempts::new(limits());
        let start = Instant::now();
        let secs = |s: u64| start + Duration::from_secs(s);
        // Each from another address: only the name's window counts.
        attempts.failed("ana", ip("192.0.2.1"), start);
        attempts.failed("ana", ip("192.0.2.2"), start);
        assert_eq!(probe(&mut attempts, "ana", ip("192.0.2.3"), start), Ok(()), "two are free");
        attempts.failed("ana", ip("192.0.2.3"), start);
        assert_eq!(probe(&mut attempts, "ana", ip("192.0.2.4"), start), Err(Duration::from_secs(1)));
        assert_eq!(probe(&mut attempts, "ben", ip("192.0.2.4"), start), Ok(()), "another name is not locked");
        assert_eq!(probe(&mut attempts, "ana", ip("192.0.2.4"), secs(1)), Ok(()), "the lock runs out");
        attempts.failed("ana", None, secs(1));
        assert_eq!(probe(&mut attempts, "ana", None, secs(1)), Err(Duration::from_secs(2)), "twice as long");
        for at in 3..10 {
            attempts.failed("ana", None, secs(at));
        }
        assert_eq!(probe(&mut attempts, "ana", None, secs(9)), Err(Duration::from_secs(8)), "at most the longest");
        // A right password clears the name.
        attempts.succeeded("ana", None);
        assert_eq!(probe(&mut attempts, "ana", None, secs(9)), Ok(()));
    }

    #[test]
    fn an_address_is_locked_after_its_free_failures_whatever_the_names() {
        let mut attempts = Attempts::new(limits());
        let now = Instant::now();
        for name in ["a", "b", "c", "d", "e"] {
            attempts.failed(name, ip("192.0.2.9"), now);
        }
        assert_eq!(probe(&mut attempts, "f", ip("192.0.2.9"), now), Err(Duration::from_secs(1)));
        assert_eq!(probe(&mut attempts, "f", ip("192.0.2.10"), now), Ok(()), "another address is not locked");
        assert_eq!(probe(&mut attempts, "f", None, now), Ok(()), "a spared address is not counted");
        // Signing in to a name does not clear the address.
        attempts.succeeded("f", None);
        assert_eq!(probe(&mut attempts, "f", ip("192.0.2.9"), now), Err(Duration::from_secs(1)));
    }

    #[test]
    fn failures_are_forgotten_after_a_quiet_while() {
        let mut attempts = Attempts::new(limits());
        let start = Instant::now();
        for _ in 0..3 {
            attempts.failed("ana", ip("192.0.2.1"), start);
        }
        let later = start + Duration::from_secs(60);
        assert_eq!(probe(&mut attempts, "ana", ip("192.0.2.1"), later), Ok(()));
        // Counting starts again from nothing: two more are free.
        attempts.failed("ana", ip("192.0.2.1"), later);
        attempts.failed("ana", ip("192.0.2.1"), later);
        assert_eq!(probe(&mut attempts, "ana", ip("192.0.2.1"), later), Ok(()));
    }

    #[test]
    fn many_names_are_pruned_once_forgotten() {
        let mut attempts = Attempts::new(limits());
        let start = Instant::now();
        for n in 0..PRUNE_AT {
            attempts.failed(&n.to_string(), None, start);
        }
        attempts.failed("late", None, start + Duration::from_secs(61));
        assert_eq!(attempts.names.failures.len(), 1, "only the late one is kept");
    }
}
