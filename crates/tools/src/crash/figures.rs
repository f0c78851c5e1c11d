//! The failover figures of a crash run, from the kills and what each seat's bot saw and when:
//!
//! - **time to resume**: for each kill and each table the killed node owned, the time from the SIGKILL to
//!   the first action acknowledged at that table afterwards (a table whose game had no action after the
//!   kill is not counted);
//! - **the gap a player sees**: for each kill and each seat it touched (its table was the dead node's, or
//!   its connection was to the dead node), the pause between the last message bringing the seat's game
//!   forward before the kill and the first one after it.

use std::time::{Duration, Instant};

use romirami_protocol::TableId;

use super::seat::{SeatBot, Timeline};

/// One kill: when, which node, and the tables that node owned then.
#[derive(Clone, Debug)]
pub(super) struct Kill {
    pub at: Instant,
    pub node: usize,
    pub tables: Vec<TableId>,
}

/// The failover figures of a run (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Failover {
    /// Dead nodes' tables that resumed (one per table and kill).
    pub resumed: usize,
    /// The median time from a kill to the first action acknowledged at one of the dead node's tables.
    pub resume_median: Duration,
    /// Its 99th percentile.
    pub resume_p99: Duration,
    /// Its longest.
    pub resume_max: Duration,
    /// Seats a kill touched (one per seat and kill).
    pub gaps: usize,
    /// The 99th percentile of the pause such a seat saw in its game across the kill.
    pub gap_p99: Duration,
    /// The longest such pause.
    pub gap_max: Duration,
}

impl std::fmt::Display for Failover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "time to resume a dead node's table ({} tables): median {}, p99 {}, max {}; gap a player sees ({} \
             seats): p99 {}, max {}",
            self.resumed,
            ms(self.resume_median),
            ms(self.resume_p99),
            ms(self.resume_max),
            self.gaps,
            ms(self.gap_p99),
            ms(self.gap_max)
        )
    }
}

fn ms(duration: Duration) -> String {
    format!("{} ms", duration.as_millis())
}

/// The figures of `kills`, from the bots' timelines.
pub(super) fn failover(kills: &[Kill], bots: &[SeatBot]) -> Failover {
    let mut resume = Vec::new();
    let mut gaps = Vec::new();
    for kill in kills {
        for table in &kill.tables {
            let first = bots
                .iter()
                .filter(|bot| bot.table == *table)
                .filter_map(|bot| bot.timeline.acks.iter().find(|at| **at > kill.at))
                .min();
            if let Some(first) = first {
                resume.push(*first - kill.at);
            }
        }
        for bot in bots {
            if kill.tables.contains(&bot.table) || node_at(&bot.timeline, kill.at) == Some(kill.node) {
                gaps.extend(gap_across(&bot.timeline.events, kill.at));
            }
        }
    }
    resume.sort_unstable();
    gaps.sort_unstable();
    Failover {
        resumed: resume.len(),
        resume_median: percentile(&resume, 0.5),
        resume_p99: percentile(&resume, 0.99),
        resume_max: resume.last().copied().unwrap_or_default(),
        gaps: gaps.len(),
        gap_p99: percentile(&gaps, 0.99),
        gap_max: gaps.last().copied().unwrap_or_default(),
    }
}

/// The node a seat was connected to at `at`.
fn node_at(timeline: &Timeline, at: Instant) -> Option<usize> {
    timeline.connections.iter().take_while(|(since, _)| *since <= at).last().map(|(_, node)| *node)
}

/// The pause between the last of `events` before `at` and the first after it, when there are both.
fn gap_across(events: &[Instant], at: Instant) -> Option<Duration> {
    let after = events.partition_point(|event| *event <= at);
    Some(*events.get(after)? - *events.get(after.checked_sub(1)?)?)
}

/// The `q` quantile of `sorted` (nearest rank), zero for none.
fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a rank among a few thousand samples"
    )]
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let samples: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&samples, 0.5), Duration::from_millis(50));
        assert_eq!(percentile(&samples, 0.99), Duration::from_millis(99));
        assert_eq!(percentile(&samples[..1], 0.99), Duration::from_millis(1));
        assert_eq!(percentile(&[], 0.5), Duration::ZERO);
    }

    #[test]
    fn the_gap_across_a_kill_is_between_the_events_either_side() {
        let start = Instant::now();
        let events: Vec<Instant> = [0, 10, 20, 500, 510].iter().map(|ms| start + Duration::from_millis(*ms)).collect();
        assert_eq!(gap_across(&events, start + Duration::from_millis(25)), Some(Duration::from_millis(480)));
        assert_eq!(gap_across(&events, start + Duration::from_millis(20)), Some(Duration::from_millis(480)));
        assert_eq!(gap_across(&events, start + Duration::from_millis(600)), None, "nothing after the kill");
        let timeline = Timeline {
            events,
            acks: Vec::new(),
            connections: vec![(start, 2), (start + Duration::from_millis(300), 0)],
        };
        assert_eq!(node_at(&timeline, start + Duration::from_millis(100)), Some(2));
        assert_eq!(node_at(&timeline, start + Duration::from_millis(300)), Some(0));
    }
}
