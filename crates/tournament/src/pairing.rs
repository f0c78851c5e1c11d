//! Forming tables (docs/tournaments.md, "Pairing").
//!
//! **Swiss**: the active players in the order of the standings; when they do not fill whole tables, the
//! lowest placed who had the fewest byes sit out (a bye each). The others are seated top down: the best
//! placed player not yet seated with the next ones below who have not met them nor each other; a search
//! goes back when a later table cannot be formed without a repeat, so that no two players meet twice
//! where it can be avoided. When it cannot be (or the search runs out of its bounded steps), tables are
//! formed top down with the fewest repeats at each.
//!
//! **Arena**: the free players in the order of the standings, seated top down in groups of a table's
//! size, each group preferring players who were not at each other's last table. A group that would
//! repeat a last table forms only once all of it waited [`REPEAT_WAIT_MS`] (a pair of quick finishers is
//! not seated together again and again while others are about to be free).

use std::collections::HashSet;

use crate::spec::Millis;
use crate::state::PlayerKey;

/// How many steps the Swiss search may take before it settles for the fewest repeats.
const SEARCH_STEPS: usize = 20_000;

/// How long the players of an arena group that repeats a last table wait before it forms.
pub const REPEAT_WAIT_MS: Millis = 15_000;

/// Who met whom: unordered pairs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Met(HashSet<(PlayerKey, PlayerKey)>);

impl Met {
    /// Everyone at `table` met everyone else at it.
    pub(crate) fn add_table(&mut self, table: &[PlayerKey]) {
        for (i, a) in table.iter().enumerate() {
            for b in &table[i + 1..] {
                self.0.insert(Met::key(*a, *b));
            }
        }
    }

    /// Whether `a` and `b` met.
    pub(crate) fn met(&self, a: PlayerKey, b: PlayerKey) -> bool {
        self.0.contains(&Met::key(a, b))
    }

    fn key(a: PlayerKey, b: PlayerKey) -> (PlayerKey, PlayerKey) {
        if a < b { (a, b) } else { (b, a) }
    }

    /// How many pairs of `group` met already.
    fn repeats(&self, group: &[PlayerKey]) -> usize {
        group.iter().enumerate().map(|(i, a)| group[i + 1..].iter().filter(|b| self.met(*a, **b)).count()).sum()
    }
}

/// A Swiss round: the tables (each in seat order before rotation) and the byes, from the active players
/// in the order of the standings and how many byes each had.
pub(crate) fn swiss(
    ranked: &[PlayerKey],
    seats: usize,
    met: &Met,
    byes_had: impl Fn(PlayerKey) -> u32,
) -> (Vec<Vec<PlayerKey>>, Vec<PlayerKey>) {
    let seats = seats.max(2);
    let bye_count = ranked.len() % seats;
    // The lowest placed among those with the fewest byes.
    let mut by_bye: Vec<(u32, usize)> = ranked.iter().enumerate().map(|(rank, p)| (byes_had(*p), rank)).collect();
    by_bye.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let out: HashSet<usize> = by_bye.iter().take(bye_count).map(|(_, rank)| *rank).collect();
    let mut byes: Vec<PlayerKey> = out.iter().map(|rank| ranked[*rank]).collect();
    byes.sort_by_key(|p| ranked.iter().position(|q| q == p));
    let playing: Vec<PlayerKey> =
        ranked.iter().enumerate().filter(|(rank, _)| !out.contains(rank)).map(|(_, p)| *p).collect();
    let mut steps = 0;
    let tables = search(&playing, seats, met, &mut steps).unwrap_or_else(|| fewest_repeats(&playing, seats, met));
    (tables, byes)
}

/// What a completed group is handed to: the rest of the search, given the steps taken so far.
type Then<'a> = dyn FnMut(&[PlayerKey], &mut usize) -> Option<Vec<Vec<PlayerKey>>> + 'a;

/// Tables with no repeat, top down, going back where a later table cannot be formed; `None` when there
/// are none (or the steps ran out).
fn search(rest: &[PlayerKey], seats: usize, met: &Met, steps: &mut usize) -> Option<Vec<Vec<PlayerKey>>> {
    let Some((&first, others)) = rest.split_first() else { return Some(Vec::new()) };
    let mut group = vec![first];
    choose(others, 0, seats, met, &mut group, steps, &mut |group, steps| {
        let left: Vec<PlayerKey> = rest.iter().filter(|p| !group.contains(p)).copied().collect();
        let mut tables = search(&left, seats, met, steps)?;
        tables.insert(0, group.to_vec());
        Some(tables)
    })
}

/// Completes `group` to `seats` players from `candidates[from..]` (in order) who met none of it, and
/// hands each completion to `then` until one succeeds.
fn choose(
    candidates: &[PlayerKey],
    from: usize,
    seats: usize,
    met: &Met,
    group: &mut Vec<PlayerKey>,
    steps: &mut usize,
    then: &mut Then<'_>,
) -> Option<Vec<Vec<PlayerKey>>> {
    if group.len() == seats {
        return then(group, steps);
    }
    for (i, &candidate) in candidates.iter().enumerate().skip(from) {
        *steps += 1;
        if *steps > SEARCH_STEPS {
            return None;
        }
        if group.iter().any(|member| met.met(*member, candidate)) {
            continue;
        }
        group.push(candidate);
        let found = choose(candidates, i + 1, seats, met, group, steps, then);
        group.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Tables top down, each the best placed player left with those below who add the fewest repeats.
fn fewest_repeats(playing: &[PlayerKey], seats: usize, met: &Met) -> Vec<Vec<PlayerKey>> {
    let mut left: Vec<PlayerKey> = playing.to_vec();
    let mut tables = Vec::new();
    while left.len() >= seats {
        let mut group = vec![left.remove(0)];
        while group.len() < seats {
            let best = (0..left.len())
                .min_by_key(|&i| {
                    let mut with = group.clone();
                    with.push(left[i]);
                    (met.repeats(&with), i)
                })
                .unwrap_or(0);
            group.push(left.remove(best));
        }
        tables.push(group);
    }
    tables
}

/// An arena's new tables from the free players in the order of the standings, each with when it became
/// free and who was at its last table; players left over wait.
pub(crate) fn arena(free: &[(PlayerKey, Millis, Vec<PlayerKey>)], seats: usize, now: Millis) -> Vec<Vec<PlayerKey>> {
    let seats = seats.max(2);
    let mut left: Vec<&(PlayerKey, Millis, Vec<PlayerKey>)> = free.iter().collect();
    let mut tables = Vec::new();
    while left.len() >= seats {
        let first = left.remove(0);
        let mut group = vec![first];
        while group.len() < seats {
            let fresh = left.iter().position(|c| group.iter().all(|m| !m.2.contains(&c.0) && !c.2.contains(&m.0)));
            group.push(left.remove(fresh.unwrap_or(0)));
        }
        let repeats = group.iter().any(|m| group.iter().any(|o| m.2.contains(&o.0)));
        let waited = group.iter().all(|m| now.saturating_sub(m.1) >= REPEAT_WAIT_MS);
        if repeats && !waited {
            // Not yet: the others are tried without this group's first player.
            left.extend(group.into_iter().skip(1));
            left.sort_by_key(|c| free.iter().position(|f| f.0 == c.0));
            continue;
        }
        tables.push(group.iter().map(|m| m.0).collect());
    }
    tables
}
