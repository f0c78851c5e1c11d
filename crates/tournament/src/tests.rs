//! The director's rules with a fake time: Swiss, arena, duplicate, byes, absences, restarts.

use std::collections::HashSet;

use proptest::prelude::*;

use crate::{
    Director, Effect, Format, OpenTable, Phase, PlayerKey, Refusal, SeatResult, Spec, Start, Status, place_points,
};

fn player(n: u128) -> PlayerKey {
    uuid::Uuid::from_u128(n + 1)
}

fn swiss(rounds: u32, seats: u8, max: u32, duplicate: bool) -> Spec {
    Spec {
        format: Format::Swiss { rounds },
        seats,
        duplicate,
        max_players: max,
        start: Start::WhenFull,
        round_pause_ms: 10_000,
        minute_ms: crate::MINUTE_MS,
        deal_wait_ms: 0,
    }
}

fn opened(effects: &[Effect]) -> Vec<OpenTable> {
    effects.iter().filter_map(|e| if let Effect::Open(t) = e { Some(t.clone()) } else { None }).collect()
}

/// A result where seat order is the finishing order: seat 0 first.
fn in_seat_order(seats: usize) -> Vec<SeatResult> {
    (0..seats).map(|i| SeatResult { place: i as u8 + 1, margin: 10 - i as i64, absent: false }).collect()
}

/// Fills `director` with `n` players (starting it when full) and returns the first round's tables.
fn fill(director: &mut Director, n: u128, now: u64) -> Vec<OpenTable> {
    let mut tables = Vec::new();
    for i in 0..n {
        tables.extend(opened(&director.join(player(i), &format!("P{i}"), now).expect("joins")));
    }
    tables
}

#[test]
fn a_swiss_of_eight_over_three_rounds_seats_everyone_once_a_round_and_no_pair_twice() {
    let mut director = Director::new(swiss(3, 2, 8, false), [1; 32]);
    let mut now = 1_000;
    let mut tables = fill(&mut director, 8, now);
    let mut pairs = HashSet::new();
    for round in 1..=3 {
        assert_eq!(tables.len(), 4, "round {round}");
        let seated: HashSet<PlayerKey> = tables.iter().flat_map(|t| t.seats.clone()).collect();
        assert_eq!(seated.len(), 8, "everyone once in round {round}");
        for table in &tables {
            assert_eq!(table.round, round);
            let (a, b) = (table.seats[0].min(table.seats[1]), table.seats[0].max(table.seats[1]));
            assert!(pairs.insert((a, b)), "{a} and {b} met twice");
        }
        let mut next = Vec::new();
        for table in &tables {
            now += 100;
            next.extend(director.finished(table.table, &in_seat_order(2), now).expect("fits"));
        }
        if round < 3 {
            assert_eq!(director.next_round_at, Some(now + 10_000), "the countdown");
            assert!(opened(&director.tick(now + 9_999)).is_empty(), "not before the countdown ends");
            now += 10_000;
            tables = opened(&director.tick(now));
        }
    }
    assert_eq!(director.phase, Phase::Finished);
    // The standings follow the points: a win 1, a loss 0; 3 wins are first.
    let standings = director.standings();
    let points: Vec<f64> = standings.iter().map(|s| s.points).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    assert_eq!(points.iter().sum::<f64>(), 12.0, "one point per game");
    assert_eq!(points[0], 3.0);
    assert!(standings.iter().all(|s| s.games == 3));
}

#[test]
fn odd_numbers_give_a_bye_to_the_lowest_placed_who_had_none_and_it_scores_a_win() {
    let mut director = Director::new(swiss(3, 2, 7, false), [2; 32]);
    let mut now = 0;
    // Before the first round everyone has 0 points: the last to join is the lowest placed.
    let mut lowest = player(6);
    let mut tables = fill(&mut director, 7, now);
    let mut bye_takers = Vec::new();
    for _ in 0..3 {
        assert_eq!(tables.len(), 3);
        let round = director.rounds.last().expect("a round").clone();
        assert_eq!(round.byes, vec![lowest], "the lowest placed among those without a bye");
        bye_takers.push(lowest);
        for table in &tables {
            now += 1;
            director.finished(table.table, &in_seat_order(2), now).expect("fits");
        }
        let standings = director.standings();
        lowest = standings.iter().rev().map(|s| s.player).find(|p| !bye_takers.contains(p)).expect("someone");
        now += 10_000;
        tables = opened(&director.tick(now));
    }
    let standings = director.standings();
    for taker in bye_takers {
        let line = standings.iter().find(|s| s.player == taker).expect("listed");
        assert_eq!(line.games, 2, "a bye is not a game");
        assert!(line.points >= 1.0, "a bye scores 1");
    }
}

#[test]
fn four_seat_tables_leave_byes_when_numbers_do_not_divide() {
    let mut director = Director::new(swiss(2, 4, 10, false), [3; 32]);
    let tables = fill(&mut director, 10, 0);
    assert_eq!(tables.len(), 2);
    assert!(tables.iter().all(|t| t.seats.len() == 4));
    assert_eq!(director.rounds[0].byes.len(), 2);
}

#[test]
fn a_duplicate_round_deals_the_same_at_every_table_and_scores_by_matchpoints() {
    let mut director = Director::new(swiss(2, 2, 6, true), [4; 32]);
    let tables = fill(&mut director, 6, 0);
    let deal = tables[0].deal.clone().expect("a deal");
    assert!(tables.iter().all(|t| t.deal.as_ref() == Some(&deal)), "one deal a round");
    assert_eq!(deal.contributions.len(), 6, "the server drew every player's contribution (no wait)");
    // Seat 0 wins by 30, 10 and loses by 5: matchpoints at seat 0 are 1, ½, 0.
    let margins = [30, 10, -5];
    for (table, margin) in tables.iter().zip(margins) {
        let first = if margin > 0 { 1 } else { 2 };
        let results = [
            SeatResult { place: first, margin, absent: false },
            SeatResult { place: 3 - first, margin: -margin, absent: false },
        ];
        director.finished(table.table, &results, 1).expect("fits");
    }
    let points_of = |p: PlayerKey| director.standings().iter().find(|s| s.player == p).expect("listed").points;
    assert_eq!(points_of(tables[0].seats[0]), 1.0);
    assert_eq!(points_of(tables[1].seats[0]), 0.5);
    assert_eq!(points_of(tables[2].seats[0]), 0.0);
    assert_eq!(points_of(tables[2].seats[1]), 1.0, "the seat-1 player who won with seat 1's cards");
    let view = director.view();
    assert_eq!(view.rounds[0].seed_commitment.as_deref(), Some(deal.commitment().as_str()));
    let text = serde_json::to_string(&view).expect("JSON");
    assert!(!text.contains(&deal.seed.to_string()), "the view holds no seed");
    // The next round has a new deal.
    let next = opened(&director.tick(20_000));
    assert!(next.iter().all(|t| t.deal.is_some() && t.deal.as_ref() != Some(&deal)));
}

#[test]
fn a_duplicate_round_opens_its_tables_once_every_player_contributed_to_its_deal() {
    let spec = Spec { deal_wait_ms: 3_000, ..swiss(2, 2, 4, true) };
    let mut director = Director::new(spec, [9; 32]);
    assert!(fill(&mut director, 4, 0).is_empty(), "no table before the deal is made");
    let dealing = director.rounds[0].dealing.clone().expect("the deal is being made");
    assert_eq!(dealing.players.len(), 4);
    assert_eq!(director.view().rounds[0].contributions.as_ref().map(|c| c.given.clone()), Some(vec!["waiting"; 4]));
    assert!(director.view().rounds[0].tables.is_empty(), "no table is shown before it opens");
    // The sweep of a runner finds nothing to open meanwhile.
    assert!(director.open_tables().all(|(_, t)| director.plan_of(t.id).is_none()));
    let value = |i: u8| [i; 32];
    for (i, player) in dealing.players.iter().take(3).enumerate() {
        let effects = director.contribute(*player, &value(i as u8)).expect("taken");
        assert_eq!(effects, vec![Effect::Changed]);
    }
    assert_eq!(director.contribute(dealing.players[0], &value(7)), Err(Refusal::AlreadyContributed));
    assert_eq!(director.contribute(player(99), &value(7)), Err(Refusal::NotDealing));
    let text = serde_json::to_string(&director.view()).expect("JSON");
    assert!(!text.contains(&hex::encode(value(1))), "no value given is shown before the deal is made");
    // The last one makes the deal: every table opens with it, its seed derived from the four in order.
    let tables = opened(&director.contribute(dealing.players[3], &value(3)).expect("taken"));
    assert_eq!(tables.len(), 2);
    let deal = tables[0].deal.clone().expect("a deal");
    assert!(tables.iter().all(|t| t.deal.as_ref() == Some(&deal)));
    assert_eq!(deal.contributions, (0..4).map(value).collect::<Vec<_>>());
    let proof = deal.proof();
    assert_eq!(proof.seed(), romirami_game::commitment::derive_seed(deal.seed, &deal.salt, &deal.contributions));
    assert_eq!(director.view().rounds[0].contributions.as_ref().map(|c| c.given.clone()), Some(vec!["player"; 4]));
    assert_eq!(director.contribute(dealing.players[0], &value(8)), Err(Refusal::NotDealing), "dealt");
    // A stored director reads back as it was.
    let back: Director = serde_json::from_str(&serde_json::to_string(&director).expect("JSON")).expect("reads");
    assert_eq!(back, director);

    // The next round: one player gives, the wait runs out, the server draws the other three.
    for table in &tables {
        director.finished(table.table, &in_seat_order(2), 1_000).expect("fits");
    }
    assert!(opened(&director.tick(11_000)).is_empty(), "the second round's deal is being made");
    let second = director.rounds[1].dealing.clone().expect("dealing");
    director.contribute(second.players[2], &value(5)).expect("taken");
    assert!(opened(&director.tick(13_999)).is_empty(), "still waiting");
    let tables = opened(&director.tick(14_000));
    assert_eq!(tables.len(), 2, "open at the end of the wait");
    let deal = tables[0].deal.clone().expect("a deal");
    assert_eq!(deal.contributions[2], value(5));
    assert_eq!(
        director.view().rounds[1].contributions.as_ref().map(|c| c.given.clone()),
        Some(vec!["server", "server", "player", "server"])
    );
}

#[test]
fn joins_and_withdrawals_before_the_start_and_their_refusals() {
    let mut director = Director::new(swiss(1, 2, 3, false), [5; 32]);
    director.join(player(0), "A", 0).expect("joins");
    assert_eq!(director.join(player(0), "A", 0), Err(Refusal::AlreadyIn));
    director.withdraw(player(0)).expect("withdraws");
    assert!(director.players.is_empty());
    assert_eq!(director.withdraw(player(0)), Err(Refusal::NotIn));
    fill(&mut director, 3, 0);
    assert_eq!(director.phase, Phase::Running, "full: started");
    assert_eq!(director.join(player(9), "Z", 0), Err(Refusal::Closed));
    assert_eq!(director.pause(player(0), true, 0), Err(Refusal::NotArena));
}

#[test]
fn a_start_at_a_time_with_too_few_players_ends_without_a_table() {
    let spec = Spec { start: Start::At(5_000), ..swiss(3, 4, 8, false) };
    let mut director = Director::new(spec, [6; 32]);
    fill(&mut director, 3, 0);
    assert!(director.tick(4_999).is_empty());
    assert_eq!(director.tick(5_000), vec![Effect::Changed]);
    assert_eq!(director.phase, Phase::Finished);
    assert!(director.rounds.is_empty());
}

#[test]
fn a_player_absent_twice_in_a_row_is_withdrawn_and_seated_no_more() {
    let mut director = Director::new(swiss(3, 2, 4, false), [7; 32]);
    let mut tables = fill(&mut director, 4, 0);
    let absent = tables[0].seats[0];
    for round in 0..2 {
        for table in &tables {
            let mut results = in_seat_order(2);
            for (seat, result) in table.seats.iter().zip(results.iter_mut()) {
                result.absent = *seat == absent;
            }
            director.finished(table.table, &results, 1).expect("fits");
        }
        tables = opened(&director.tick(100_000 * (round + 1)));
    }
    let entrant = director.players.iter().find(|e| e.id == absent).expect("listed");
    assert_eq!(entrant.status, Status::Absent);
    // Round 3 seats the three others: one table and a bye.
    assert!(tables.iter().all(|t| !t.seats.contains(&absent)));
    assert_eq!(director.rounds[2].byes.len(), 1);
    assert!(!director.rounds[2].byes.contains(&absent));
}

fn arena(minutes: u32, seats: u8) -> Spec {
    Spec {
        format: Format::Arena { minutes },
        seats,
        duplicate: false,
        max_players: 100,
        start: Start::At(0),
        round_pause_ms: 0,
        minute_ms: crate::MINUTE_MS,
        deal_wait_ms: 0,
    }
}

#[test]
fn an_arena_seats_free_players_by_score_until_its_window_closes() {
    let mut director = Director::new(arena(10, 2), [8; 32]);
    fill(&mut director, 4, 0);
    let first = opened(&director.tick(0));
    assert_eq!(first.len(), 2);
    // One table finishes: its two players are free, but they just met and nobody else is: they wait.
    director.finished(first[0].table, &in_seat_order(2), 1_000).expect("fits");
    assert!(opened(&director.tick(2_000)).is_empty(), "no immediate rematch while others may soon be free");
    // The other table finishes: winners together, losers together.
    let effects = director.finished(first[1].table, &in_seat_order(2), 3_000).expect("fits");
    let second = opened(&effects);
    assert_eq!(second.len(), 2);
    let winners: HashSet<PlayerKey> = first.iter().map(|t| t.seats[0]).collect();
    assert!(second.iter().any(|t| t.seats.iter().all(|p| winners.contains(p))), "{second:?}");
    // A player pauses: not seated; a late joiner is.
    director.pause(second[0].seats[0], true, 4_000).expect("pauses");
    director.join(player(50), "Late", 4_000).expect("an arena takes late joins");
    let mut third = Vec::new();
    for table in &second {
        third.extend(opened(&director.finished(table.table, &in_seat_order(2), 5_000).expect("fits")));
    }
    third.extend(opened(&director.tick(5_000)));
    let seated: Vec<PlayerKey> = third.iter().flat_map(|t| t.seats.clone()).collect();
    assert!(!seated.contains(&second[0].seats[0]), "paused");
    assert!(seated.contains(&player(50)), "the late joiner plays");
    // The window closes at 10 minutes: no new table; the end when the last game finished.
    let end = 600_000;
    for table in &third {
        director.finished(table.table, &in_seat_order(2), end).expect("fits");
    }
    assert!(opened(&director.tick(end)).is_empty());
    assert_eq!(director.phase, Phase::Finished);
    assert_eq!(director.join(player(60), "Too late", end), Err(Refusal::Closed));
}

#[test]
fn a_stored_director_reads_back_and_plans_the_same_tables() {
    let mut director = Director::new(swiss(3, 2, 6, true), [9; 32]);
    let tables = fill(&mut director, 6, 0);
    let stored = serde_json::to_string(&director).expect("JSON");
    let mut back: Director = serde_json::from_str(&stored).expect("reads");
    assert_eq!(back, director);
    assert_eq!(back.plan_of(tables[1].table), Some(tables[1].clone()));
    // The same inputs give the same next round (ids and deal) to the director and its copy.
    for director in [&mut director, &mut back] {
        for table in &tables {
            director.finished(table.table, &in_seat_order(2), 5).expect("fits");
        }
    }
    assert_eq!(director.tick(20_000), back.tick(20_000));
    // A second report of a table changes nothing; a report of the wrong size is refused.
    assert_eq!(director.finished(tables[0].table, &in_seat_order(2), 6), Ok(Vec::new()));
    let open = director.open_tables().next().map(|(_, t)| t.id).expect("an open table");
    assert_eq!(director.finished(open, &in_seat_order(3), 6), Err(Refusal::BadResult(3)));
}

#[test]
fn results_read_their_direction_from_the_places() {
    // Higher is better: seat 1 (40) first.
    let high = SeatResult::of_game(&[2, 1], &[10, 40], &[false, true]);
    assert_eq!((high[0].margin, high[1].margin), (-30, 30));
    assert!(high[1].absent);
    // Penalty points: seat 0 (5) first.
    let low = SeatResult::of_game(&[1, 2, 3], &[5, 20, 50], &[false; 3]);
    assert!(low[0].margin > 0 && low[2].margin < 0, "{low:?}");
    // All level: nothing to tell.
    assert!(SeatResult::of_game(&[1, 1], &[7, 7], &[false; 2]).iter().all(|r| r.margin == 0));
}

#[test]
fn place_points_share_a_tie() {
    let results = |places: &[u8]| -> Vec<SeatResult> {
        places.iter().map(|&place| SeatResult { place, margin: 0, absent: false }).collect()
    };
    assert_eq!(place_points(&results(&[1, 2])), vec![1.0, 0.0]);
    assert_eq!(place_points(&results(&[1, 1])), vec![0.5, 0.5]);
    let four = place_points(&results(&[1, 2, 2, 4]));
    assert_eq!(four, vec![1.0, 0.5, 0.5, 0.0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any Swiss: every active player is at one table or has a bye each round, tables are full, the
    /// rounds are as many as planned, and no pair meets twice when there are enough players for it.
    #[test]
    fn every_swiss_seats_each_player_once_a_round(n in 2u128..40, seats in 2u8..=4, rounds in 1u32..6, order in any::<u64>()) {
        prop_assume!(n >= u128::from(seats));
        let mut director = Director::new(swiss(rounds, seats, n as u32, false), [order as u8; 32]);
        let mut tables = fill(&mut director, n, 0);
        let mut now = 0;
        let mut pairs = HashSet::new();
        let mut repeats = 0;
        for round in 1..=rounds {
            let current = director.rounds.last().expect("a round").clone();
            prop_assert_eq!(current.n, round);
            let mut seen: Vec<PlayerKey> = current.byes.clone();
            for table in &tables {
                prop_assert_eq!(table.seats.len(), usize::from(seats));
                seen.extend(table.seats.iter().copied());
                for (i, a) in table.seats.iter().enumerate() {
                    for b in &table.seats[i + 1..] {
                        if !pairs.insert((*a.min(b), *a.max(b))) { repeats += 1; }
                    }
                }
            }
            seen.sort();
            let before = seen.len();
            seen.dedup();
            prop_assert_eq!(before, seen.len(), "someone twice in round {}", round);
            prop_assert_eq!(seen.len() as u128, n);
            for (k, table) in tables.iter().enumerate() {
                // Finishing orders vary with the table and the case.
                let mut results = in_seat_order(usize::from(seats));
                results.rotate_left((k + order as usize + round as usize) % usize::from(seats));
                now += 1;
                director.finished(table.table, &results, now).expect("fits");
            }
            now += 10_000;
            tables = opened(&director.tick(now));
        }
        prop_assert_eq!(director.phase, Phase::Finished);
        // Two-player Swiss of at least 2^rounds players never needs a repeat.
        if seats == 2 && n >= 1 << rounds {
            prop_assert_eq!(repeats, 0);
        }
    }
}
