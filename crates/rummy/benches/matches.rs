//! Complete matches per second, per game of the rummy family, on one thread.
//!
//! `cargo bench -p romirami-rummy --bench matches` (pin it with `taskset -c 0` for a per-core figure).
//! Each group plays one complete match per iteration from a fresh seed, or replays one record:
//! - `rumino_bot_match/players/N`: a Rumino match played to its end by [`rumino::bot::choose`] for every
//!   seat (a uniformly random player never knocks, so its matches do not end);
//! - `rumino_verify/players/N`: `record::verify` of such a match's record, the work `romirami verify` does;
//! - `rumino_deadwood`: the lowest deadwood (rumino §4) of one 8-card hand, the search every turn runs;
//! - `rami_bot_match/players/N`: a Rami 51 match of the default length (one round per player) played to its
//!   end by [`rami::bot::choose`] for every seat;
//! - `rami_verify/players/N`: `record::verify` of such a match's record;
//! - `rommi_bot_match/VARIANT/N`: a Rommi match with the variant's default options (`basic`: positive
//!   scoring to 100; `500`: meld-hand scoring to 500) played to its end by [`rommi::bot::choose`] for every
//!   seat, N players;
//! - `rommi_verify/VARIANT/N`: `record::verify` of such a match's record.

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use romirami_rummy::rami::{self, RamiMatch, RamiOptions};
use romirami_rummy::record::{self, RecordMeta, RummyRecord};
use romirami_rummy::rommi::{self, RommiMatch, RommiOptions, Variant};
use romirami_rummy::rumino::{self, RuminoMatch, RuminoOptions};
use romirami_rummy::{DeckSpec, RummyRng};

fn bot_match(players: usize, seed: u64) -> RuminoMatch {
    let mut game = RuminoMatch::new(players, seed, RuminoOptions::default()).expect("2 to 6 players");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while let Some(seat) = game.to_act() {
        let action = rumino::bot::choose(&game, seat, &mut rng);
        game.apply(seat, &action).expect("the bot plays legal actions");
    }
    game
}

fn record_of(game: &RuminoMatch) -> RummyRecord {
    let meta = RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00Z".into(),
        names: vec![String::new(); game.players()],
        shuffle: None,
    };
    game.record(meta).expect("a finished match exports")
}

fn rumino(c: &mut Criterion) {
    let mut group = c.benchmark_group("rumino_bot_match");
    group.throughput(Throughput::Elements(1));
    for players in [2, 4, 6] {
        let mut seed = 0u64;
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, &players| {
            b.iter(|| {
                seed += 1;
                black_box(bot_match(players, seed))
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("rumino_verify");
    group.throughput(Throughput::Elements(1));
    for players in [2, 4, 6] {
        let records: Vec<RummyRecord> = (0..32).map(|seed| record_of(&bot_match(players, seed))).collect();
        let mut next = 0;
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, _| {
            b.iter(|| {
                next = (next + 1) % records.len();
                black_box(record::verify(&records[next]).expect("records replay"))
            });
        });
    }
    group.finish();

    let hands: Vec<Vec<_>> =
        (0..256).map(|seed| DeckSpec::DOUBLE.shuffled(&mut RummyRng::from_seed(seed))[..8].to_vec()).collect();
    let mut next = 0;
    c.bench_function("rumino_deadwood", |b| {
        b.iter(|| {
            next = (next + 1) % hands.len();
            black_box(rumino::deadwood(&hands[next]))
        });
    });
}

fn rami_bot_match(players: usize, seed: u64) -> RamiMatch {
    let mut game = RamiMatch::new(players, seed, RamiOptions::defaults(players)).expect("2 to 5 players");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while let Some(seat) = game.to_act() {
        let action = rami::bot::choose(&game, seat, &mut rng).expect("the seat to act has an action");
        game.apply(seat, &action).expect("the bot plays legal actions");
    }
    game
}

fn rami(c: &mut Criterion) {
    let meta = |players| RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00Z".into(),
        names: vec![String::new(); players],
        shuffle: None,
    };
    let mut group = c.benchmark_group("rami_bot_match");
    group.throughput(Throughput::Elements(1));
    for players in [2, 3, 5] {
        let mut seed = 0u64;
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, &players| {
            b.iter(|| {
                seed += 1;
                black_box(rami_bot_match(players, seed))
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("rami_verify");
    group.throughput(Throughput::Elements(1));
    for players in [2, 3, 5] {
        let records: Vec<RummyRecord> = (0..32)
            .map(|seed| rami_bot_match(players, seed).record(meta(players)).expect("a finished match exports"))
            .collect();
        let mut next = 0;
        group.bench_with_input(BenchmarkId::new("players", players), &players, |b, _| {
            b.iter(|| {
                next = (next + 1) % records.len();
                black_box(record::verify(&records[next]).expect("records replay"))
            });
        });
    }
    group.finish();
}

fn rommi_bot_match(players: usize, seed: u64, variant: Variant) -> RommiMatch {
    let mut game = RommiMatch::new(players, seed, RommiOptions::for_variant(variant)).expect("2 to 4 players");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while let Some(seat) = game.to_act() {
        let action = rommi::bot::choose(&game, seat, &mut rng).expect("the seat to act has an action");
        game.apply(seat, &action).expect("the bot plays legal actions");
    }
    game
}

fn rommi(c: &mut Criterion) {
    let meta = |players| RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00Z".into(),
        names: vec![String::new(); players],
        shuffle: None,
    };
    let variants = [("basic", Variant::Basic), ("500", Variant::FiveHundred)];
    let mut group = c.benchmark_group("rommi_bot_match");
    group.throughput(Throughput::Elements(1));
    for (name, variant) in variants {
        for players in [2, 3, 4] {
            let mut seed = 0u64;
            group.bench_with_input(BenchmarkId::new(name, players), &players, |b, &players| {
                b.iter(|| {
                    seed += 1;
                    black_box(rommi_bot_match(players, seed, variant))
                });
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("rommi_verify");
    group.throughput(Throughput::Elements(1));
    for (name, variant) in variants {
        for players in [2, 4] {
            let records: Vec<RummyRecord> = (0..32)
                .map(|seed| rommi_bot_match(players, seed, variant).record(meta(players)).expect("over"))
                .collect();
            let mut next = 0;
            group.bench_with_input(BenchmarkId::new(name, players), &players, |b, _| {
                b.iter(|| {
                    next = (next + 1) % records.len();
                    black_box(record::verify(&records[next]).expect("records replay"))
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, rumino, rami, rommi);
criterion_main!(benches);
