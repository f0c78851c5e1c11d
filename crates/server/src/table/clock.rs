//! A table's turn clock: each turn gets the table's time per turn; a seat that takes longer spends its
//! reserve, which lasts the whole game; a seat that runs out of both is out of time (the table then
//! hands it to the bot).
//!
//! The clock only measures; the table decides when a turn starts ([`TurnClock::turn_to`]) and whether
//! the seat was played by its player (only then is the overrun charged to the reserve).

use romirami_engine::Seat;
use tokio::time::{Duration, Instant};

use crate::protocol::Clock;

/// The running clock of one game.
#[derive(Clone, Debug)]
pub(super) struct TurnClock {
    clock: Clock,
    /// Each seat's reserve, in milliseconds, not counting the running turn.
    reserves: Vec<u64>,
    /// The seat whose turn runs, and since when.
    turn: Option<(Seat, Instant)>,
}

impl TurnClock {
    /// A clock for a game of `seats` seats, each with its reserve (the table's full reserve when
    /// `None`). No turn runs yet.
    pub(super) fn new(clock: Clock, reserves: Vec<Option<u64>>) -> TurnClock {
        let reserves = reserves.into_iter().map(|r| r.unwrap_or(clock.reserve_ms).min(clock.reserve_ms)).collect();
        TurnClock { clock, reserves, turn: None }
    }

    /// Makes `to_act` the seat whose turn runs. When that changes, the turn that ends is charged to its
    /// seat's reserve if `charge` says the seat's player played it, and the new turn starts at `now`.
    /// Returns whether a new turn started.
    pub(super) fn turn_to(&mut self, to_act: Option<Seat>, now: Instant, charge: impl Fn(Seat) -> bool) -> bool {
        let running = self.turn.map(|(seat, _)| seat);
        if running == to_act {
            return false;
        }
        if let Some((seat, _)) = self.turn {
            if charge(seat) {
                let left = self.reserve_at(seat, now);
                if let Some(reserve) = self.reserves.get_mut(seat.index()) {
                    *reserve = left;
                }
            }
        }
        self.turn = to_act.map(|seat| (seat, now));
        true
    }

    /// Lets the running turn start at `at` instead (after the pause between two rounds).
    pub(super) fn start_turn_at(&mut self, at: Instant) {
        if let Some((_, since)) = &mut self.turn {
            *since = (*since).max(at);
        }
    }

    /// When the running turn started.
    pub(super) fn turn_since(&self) -> Option<Instant> {
        self.turn.map(|(_, since)| since)
    }

    /// Lets the running turn have started at `at`, earlier or later (a table woken from its sleep: its turn
    /// ran on while it slept).
    pub(super) fn resume_turn_since(&mut self, at: Instant) {
        if let Some((_, since)) = &mut self.turn {
            *since = at;
        }
    }

    /// What `seat` has left of its reserve at `now`, counting the running turn's overrun.
    pub(super) fn reserve_at(&self, seat: Seat, now: Instant) -> u64 {
        let reserve = self.reserves.get(seat.index()).copied().unwrap_or(0);
        match self.turn {
            Some((running, since)) if running == seat => {
                let overrun = millis(now.saturating_duration_since(since)).saturating_sub(self.clock.turn_ms);
                reserve.saturating_sub(overrun)
            }
            _ => reserve,
        }
    }

    /// When the running turn's seat is out of time.
    pub(super) fn deadline(&self) -> Option<(Seat, Instant)> {
        let (seat, since) = self.turn?;
        let reserve = self.reserves.get(seat.index()).copied().unwrap_or(0);
        Some((seat, since + Duration::from_millis(self.clock.turn_ms.saturating_add(reserve))))
    }

    /// `seat` ran out of time: its reserve is spent.
    pub(super) fn run_out(&mut self, seat: Seat) {
        if let Some(reserve) = self.reserves.get_mut(seat.index()) {
            *reserve = 0;
        }
    }

    /// The seat to act, what is left of its turn, and every seat's reserve, at `now`.
    pub(super) fn snapshot(&self, now: Instant) -> (Option<Seat>, u64, Vec<u64>) {
        let seat = self.turn.map(|(seat, _)| seat);
        let turn_left = self
            .turn
            .map_or(0, |(_, since)| self.clock.turn_ms.saturating_sub(millis(now.saturating_duration_since(since))));
        let reserves = (0..self.reserves.len()).map(|i| self.reserve_at(Seat(i as u8), now)).collect();
        (seat, turn_left, reserves)
    }
}

/// `duration` in whole milliseconds, as messages carry times (saturating; no duration here comes near).
pub(super) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOCK: Clock = Clock { turn_ms: 1000, reserve_ms: 5000 };

    #[test]
    fn a_turn_spends_the_reserve_only_beyond_its_time() {
        let start = Instant::now();
        let mut clock = TurnClock::new(CLOCK, vec![None, Some(2000)]);
        assert!(clock.turn_to(Some(Seat(0)), start, |_| true));
        assert!(!clock.turn_to(Some(Seat(0)), start + Duration::from_millis(500), |_| true), "the same turn");
        assert_eq!(clock.reserve_at(Seat(0), start + Duration::from_millis(900)), 5000);
        assert_eq!(clock.reserve_at(Seat(0), start + Duration::from_millis(1500)), 4500);
        assert_eq!(clock.deadline(), Some((Seat(0), start + Duration::from_millis(6000))));
        // Seat 0 plays 1.5 s: 0.5 s of its reserve is gone; seat 1 starts with 2 s of reserve.
        assert!(clock.turn_to(Some(Seat(1)), start + Duration::from_millis(1500), |_| true));
        assert_eq!(clock.snapshot(start + Duration::from_millis(1700)), (Some(Seat(1)), 800, vec![4500, 2000]));
        assert_eq!(clock.deadline(), Some((Seat(1), start + Duration::from_millis(4500))));
        // A turn the bot played is not charged.
        assert!(clock.turn_to(Some(Seat(0)), start + Duration::from_millis(9000), |_| false));
        assert_eq!(clock.reserve_at(Seat(1), start + Duration::from_millis(9000)), 2000);
        clock.run_out(Seat(0));
        assert_eq!(clock.deadline(), Some((Seat(0), start + Duration::from_millis(10_000))));
        assert!(clock.turn_to(None, start + Duration::from_millis(9500), |_| true));
        assert_eq!(clock.snapshot(start), (None, 0, vec![0, 2000]));
    }
}
