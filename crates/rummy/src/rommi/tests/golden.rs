//! Golden records: bot-played matches whose records are kept in `crates/rummy/golden/`. A change of the
//! engine that changes what a seed plays, or how a record is written, shows here. Set `UPDATE_GOLDEN=1` to
//! write them anew (and review the difference). Also: records that break a rule are refused with it.

use std::path::PathBuf;

use crate::cards::RummyRng;
use crate::record::{self, LogEntry, RecordError, RecordMeta, RummyRecord};

use super::super::{RommiMatch, RommiOptions, Scoring, Variant, bot};

const CASES: [(&str, usize, u64); 4] =
    [("rommi_basic_2p", 2, 1), ("rommi_500_3p", 3, 2), ("rommi_negative_4p", 4, 3), ("rommi_restricted_3p", 3, 4)];

fn options(name: &str) -> RommiOptions {
    match name {
        "rommi_500_3p" => RommiOptions { target: 200, ..RommiOptions::for_variant(Variant::FiveHundred) },
        "rommi_negative_4p" => {
            RommiOptions { scoring: Scoring::Negative, simple_scoring: true, ..RommiOptions::default() }
        }
        "rommi_restricted_3p" => {
            RommiOptions { meld_restriction: true, ..RommiOptions::for_variant(Variant::FiveHundred) }
        }
        _ => RommiOptions::default(),
    }
}

/// A match played to its end by bots, one generator for all seats.
pub(super) fn bot_match(players: usize, seed: u64, options: RommiOptions) -> RommiMatch {
    let mut m = RommiMatch::new(players, seed, options).expect("a valid table");
    let mut rng = RummyRng::from_seed(seed);
    for _ in 0..20_000 {
        let Some(seat) = m.to_act() else { return m };
        let action = bot::choose(&m, seat, &mut rng).expect("the seat to act has an action");
        m.apply(seat, &action).unwrap_or_else(|e| panic!("the bot's {action:?} was refused: {e}"));
    }
    panic!("bots did not finish a match in 20,000 actions");
}

fn meta(players: usize) -> RecordMeta {
    RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00Z".into(),
        names: (0..players).map(|i| ["Ana", "Bo", "Cy", "Di"][i].to_owned()).collect(),
        shuffle: None,
    }
}

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden").join(format!("{name}.json"))
}

#[test]
fn golden_records_replay_and_are_what_the_seeds_play() {
    for (name, players, seed) in CASES {
        let m = bot_match(players, seed, options(name));
        let json = serde_json::to_string_pretty(&m.record(meta(players)).expect("over")).expect("serializable") + "\n";
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            crate::record::write_golden(&path(name), &json);
        }
        let stored = std::fs::read_to_string(path(name)).expect("the golden record exists (UPDATE_GOLDEN=1 writes it)");
        assert_eq!(stored, json, "{name}: the seed no longer plays the stored match");
        let verified = record::verify(&record::parse(&stored).expect("well formed")).expect("replays");
        assert_eq!(Some(verified.result), m.result());
    }
}

fn golden(name: &str) -> RummyRecord {
    let json = std::fs::read_to_string(path(name)).expect("the golden record exists");
    record::parse(&json).expect("well formed")
}

fn rule_error(record: &RummyRecord) -> String {
    match record::verify(record) {
        Err(RecordError::Rule { at, rule }) => format!("{at}{rule}"),
        other => panic!("expected a rule break, got {other:?}"),
    }
}

#[test]
fn a_record_that_breaks_a_rule_is_refused_with_it() {
    let good = golden("rommi_basic_2p");

    let mut wrong_draw = good.clone();
    let log = &mut wrong_draw.rounds[0].log;
    let i = log.iter().position(|e| matches!(e, LogEntry::Draw { .. })).expect("a draw");
    let LogEntry::Draw { seat, card } = log[i].clone() else { unreachable!() };
    let other = good.rounds[0].deck[0];
    assert_ne!(other, card);
    log[i] = LogEntry::Draw { seat, card: other };
    assert!(rule_error(&wrong_draw).contains(&format!("round 1, entry {i}: rommi §6.1 a")));

    let mut no_out = good.clone();
    let (k, round) = no_out
        .rounds
        .iter_mut()
        .enumerate()
        .find(|(_, r)| r.log.last().is_some_and(|e| matches!(e, LogEntry::Out { .. })))
        .expect("an out");
    round.log.pop();
    assert!(rule_error(&no_out).contains(&format!("round {}", k + 1)) && rule_error(&no_out).contains("`out`"));

    let mut dealer = good.clone();
    if dealer.rounds.len() > 1 {
        dealer.rounds[1].dealer = dealer.rounds[0].dealer;
        assert!(rule_error(&dealer).contains("rommi §5.1"));
    }

    let mut deck = good.clone();
    deck.rounds[0].deck[1] = deck.rounds[0].deck[0];
    assert!(rule_error(&deck).contains("rommi §1"));

    let mut totals = good.clone();
    totals.result.totals[0] += 1;
    assert!(rule_error(&totals).contains("rommi §10"));

    let mut score = good.clone();
    if let Some(record::RoundResult::Rommi(r)) = &mut score.rounds[0].result {
        r.scores[0].hand += 1;
    }
    assert!(rule_error(&score).contains("rommi §9"));

    let mut cut = good.clone();
    cut.rounds.pop();
    assert!(rule_error(&cut).contains("stops before its end"));

    let mut options = good.clone();
    options.options["target"] = serde_json::json!(0);
    assert!(rule_error(&options).contains("rommi §2"));
}

#[test]
fn malformed_records_are_told_apart() {
    let json = std::fs::read_to_string(path("rommi_basic_2p")).expect("exists");
    let mut value: serde_json::Value = serde_json::from_str(&json).expect("json");
    value["rounds"][0]["note"] = serde_json::json!("hi");
    let err = record::parse(&value.to_string()).expect_err("an unknown key");
    assert_eq!(err.code(), "malformed");
    let mut value: serde_json::Value = serde_json::from_str(&json).expect("json");
    value["started_at"] = serde_json::json!("yesterday");
    assert_eq!(record::parse(&value.to_string()).map(drop).map_err(|e| e.code()), Err("malformed"));
    assert_eq!(record::parse("{").map(drop).map_err(|e| e.code()), Err("malformed"));
}

#[test]
fn an_abandoned_match_exports_and_replays() {
    let mut m = RommiMatch::new(3, 77, RommiOptions::default()).expect("valid");
    let mut rng = RummyRng::from_seed(3);
    for _ in 0..25 {
        let seat = m.to_act().expect("in play");
        let action = bot::choose(&m, seat, &mut rng).expect("an action");
        m.apply(seat, &action).expect("legal");
    }
    assert!(m.record(meta(3)).is_err(), "a match in play does not export");
    m.abandon();
    let exported = m.record(meta(3)).expect("an abandoned match exports");
    assert!(exported.rounds.last().is_some_and(|r| r.result.is_none()));
    let verified = record::verify(&exported).expect("replays");
    assert_eq!(verified.result.ended_by, crate::seat::MatchEnd::Abandoned);
}
