//! How long the director takes to pair a round of a large tournament (issue 38's "time to pair a round"):
//! a Swiss round of 1,000 players after four rounds (tables of 2 and of 4), and an arena's step when a game
//! of a 1,000-player arena ends (its result, the standings, and the free players seated again).
//!
//!     cargo bench -p romirami-tournament --bench pairing

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use romirami_tournament::{Director, Effect, Format, MINUTE_MS, SeatResult, Spec, Start};

const PLAYERS: u128 = 1_000;

fn player(n: u128) -> uuid::Uuid {
    uuid::Uuid::from_u128(n + 1)
}

/// Results in seat order, rotated by `k` so that finishing orders vary.
fn results(seats: usize, k: usize) -> Vec<SeatResult> {
    let mut results: Vec<SeatResult> =
        (0..seats).map(|i| SeatResult { place: i as u8 + 1, margin: 10 - i as i64, absent: false }).collect();
    results.rotate_left(k % seats);
    results
}

fn open_tables(effects: &[Effect]) -> Vec<(uuid::Uuid, usize)> {
    effects.iter().filter_map(|e| if let Effect::Open(t) = e { Some((t.table, t.seats.len())) } else { None }).collect()
}

/// A Swiss of 1,000 players with `seats` at a table, after `rounds` finished rounds, its countdown over.
fn swiss_after(seats: u8, rounds: u32) -> (Director, u64) {
    let spec = Spec {
        format: Format::Swiss { rounds: rounds + 1 },
        seats,
        duplicate: false,
        max_players: PLAYERS as u32,
        start: Start::WhenFull,
        round_pause_ms: 0,
        minute_ms: MINUTE_MS,
        deal_wait_ms: 0,
    };
    let mut director = Director::new(spec, [1; 32]);
    let mut tables = Vec::new();
    for i in 0..PLAYERS {
        tables.extend(open_tables(&director.join(player(i), &format!("P{i}"), 0).expect("joins")));
    }
    let mut now = 0;
    for round in 0..rounds {
        for (k, (table, size)) in tables.iter().enumerate() {
            now += 1;
            director.finished(*table, &results(*size, k), now).expect("fits");
        }
        if round + 1 < rounds {
            now += 1;
            tables = open_tables(&director.tick(now));
        }
    }
    // The last round finished: the next tick pairs the next one.
    (director, now)
}

fn swiss(c: &mut Criterion) {
    for seats in [2u8, 4] {
        let (director, now) = swiss_after(seats, 4);
        c.bench_function(&format!("swiss: pair round 5 of {PLAYERS} players, tables of {seats}"), |b| {
            b.iter_batched(
                || director.clone(),
                |mut d| {
                    let effects = d.tick(now + 1);
                    assert!(!open_tables(&effects).is_empty());
                    effects
                },
                BatchSize::LargeInput,
            );
        });
    }
}

fn arena(c: &mut Criterion) {
    let spec = Spec {
        format: Format::Arena { minutes: 60 },
        seats: 2,
        duplicate: false,
        max_players: PLAYERS as u32,
        start: Start::At(0),
        round_pause_ms: 0,
        minute_ms: MINUTE_MS,
        deal_wait_ms: 0,
    };
    let mut director = Director::new(spec, [2; 32]);
    for i in 0..PLAYERS {
        director.join(player(i), &format!("P{i}"), 0).expect("joins");
    }
    // Ten games each: every table finishes, and the free players are seated again.
    let mut now = 0;
    let mut tables = open_tables(&director.tick(now));
    for _ in 0..10 {
        let mut next = Vec::new();
        for (k, (table, size)) in tables.iter().enumerate() {
            now += 20;
            next.extend(open_tables(&director.finished(*table, &results(*size, k), now).expect("fits")));
        }
        now += 20_000;
        next.extend(open_tables(&director.tick(now)));
        tables = next;
    }
    let (table, size) = tables[0];
    c.bench_function(&format!("arena: a game of {PLAYERS} players ends, after 10 games each"), |b| {
        b.iter_batched(
            || director.clone(),
            |mut d| d.finished(table, &results(size, 0), now + 1).expect("fits"),
            BatchSize::LargeInput,
        );
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = swiss, arena
}
criterion_main!(benches);
