//! Golden records: bot-played Rami matches whose records are kept in `crates/rummy/golden/`. A change
//! of the engine that changes what a seed plays, or how a record is written, shows here; set
//! `UPDATE_GOLDEN=1` to write them anew (and review the difference). Then records that break a rule
//! are refused with the rule they break.

use std::path::PathBuf;

use super::support::*;
use crate::rami::{MatchEnd, Opening, RamiOptions};
use crate::record::{self, LogEntry, RecordError, RoundResult, RummyRecord};

/// Name, players, opening, rounds, seed: a rami sec, an exchange and a reshuffle in the first; an
/// exchange and a reshuffle in Rami 30 in the second; two rounds (the dealer moves on) in the third.
const CASES: [(&str, usize, Opening, u32, u64); 3] = [
    ("rami_51_5p", 5, Opening::Rami51, 1, 4),
    ("rami_30_4p", 4, Opening::Rami30, 1, 41),
    ("rami_51_2p", 2, Opening::Rami51, 2, 1),
];

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden").join(format!("{name}.json"))
}

#[test]
fn golden_records_replay_and_are_what_the_seeds_play() {
    for (name, players, opening, rounds, seed) in CASES {
        let options = RamiOptions { opening, match_end: MatchEnd::Rounds(rounds) };
        let mut game = new_match(players, seed, options);
        play_out(&mut game, seed);
        let record = game.record(meta(players)).expect("over");
        let json = serde_json::to_string_pretty(&record).expect("serializable") + "\n";
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            crate::record::write_golden(&path(name), &json);
        }
        let stored = std::fs::read_to_string(path(name)).expect("the golden record exists (UPDATE_GOLDEN=1 writes it)");
        assert_eq!(stored, json, "{name}: the seed no longer plays the stored match");
        let verified = record::verify(&record::parse(&stored).expect("well formed")).expect("replays");
        assert_eq!(Some(verified.result), game.result());
    }
}

fn golden(name: &str) -> RummyRecord {
    record::parse(&std::fs::read_to_string(path(name)).expect("the golden record exists")).expect("well formed")
}

/// The rule break `record` is refused with, as `round r, entry k: rami §…`.
fn broken(record: &RummyRecord) -> String {
    match record::verify(record) {
        Err(RecordError::Rule { at, rule }) => format!("{at}{rule}"),
        other => panic!("expected a rule break, got {other:?}"),
    }
}

fn position(record: &RummyRecord, round: usize, wanted: impl Fn(&LogEntry) -> bool) -> usize {
    record.rounds[round].log.iter().position(wanted).expect("the golden record has such an entry")
}

#[test]
fn a_record_that_breaks_a_rule_is_refused_with_it() {
    let five = golden("rami_51_5p");

    let mut draw = five.clone();
    let i = position(&draw, 0, |e| matches!(e, LogEntry::Draw { .. }));
    if let LogEntry::Draw { card, .. } = &mut draw.rounds[0].log[i] {
        *card = if card.is_joker() { card_of("2c") } else { crate::cards::Card::JOKER };
    }
    assert!(broken(&draw).starts_with(&format!("round 1, entry {i}: rami §7.1 a: the top card of the stock is")));

    let mut out = five.clone();
    let last = out.rounds[0].log.pop();
    assert!(matches!(last, Some(LogEntry::Out { .. })));
    assert!(broken(&out).contains("rami §7.4") && broken(&out).contains("`out` is due here"));

    let mut reshuffle = five.clone();
    let i = position(&reshuffle, 0, |e| matches!(e, LogEntry::Reshuffle { .. }));
    if let LogEntry::Reshuffle { stock } = &mut reshuffle.rounds[0].log[i] {
        stock[0] = if stock[0].is_joker() { card_of("2c") } else { crate::cards::Card::JOKER };
    }
    assert_eq!(
        broken(&reshuffle),
        format!(
            "round 1, entry {i}: rami §8: the reshuffle is not a permutation of the discard pile under its top card"
        )
    );
    let mut missing = five.clone();
    missing.rounds[0].log.remove(i);
    assert!(broken(&missing).starts_with(&format!("round 1, entry {i}: rami §8: the stock is empty")));

    let mut deck = five.clone();
    let cards = &mut deck.rounds[0].deck;
    let other = cards.iter().position(|c| *c != cards[0]).expect("a deck holds different cards");
    cards[other] = cards[0];
    assert!(broken(&deck).contains("rami §1"));

    let mut totals = five.clone();
    totals.result.totals[0] += 1;
    assert!(broken(&totals).contains("rami §10"));

    let mut penalty = five.clone();
    if let Some(RoundResult::Rami(result)) = &mut penalty.rounds[0].result {
        result.scores[1].penalty += 1;
    }
    assert!(broken(&penalty).starts_with("round 1: rami §9"));

    let mut entry = five.clone();
    entry.rounds[0].log.insert(3, LogEntry::Knock { seat: crate::seat::Seat(0) });
    assert_eq!(broken(&entry), "round 1, entry 3: record: `knock` is not a Rami entry");

    let mut options = five.clone();
    options.options = serde_json::json!({ "opening": 51, "match_end": { "rounds": 1 }, "jokers": 2 });
    assert!(broken(&options).starts_with("match: rami §2"));

    let thirty = golden("rami_30_4p");
    let mut stricter = thirty.clone();
    stricter.options = serde_json::json!({ "opening": 51, "match_end": { "rounds": 1 } });
    assert!(broken(&stricter).contains(": rami §6"), "{}", broken(&stricter));

    let two = golden("rami_51_2p");
    let mut dealer = two.clone();
    dealer.rounds[1].dealer = dealer.rounds[0].dealer;
    assert!(broken(&dealer).starts_with("round 2: rami §5 step 1"));
    let mut short = two.clone();
    short.rounds.pop();
    assert!(broken(&short).contains("rami §10: the match stops before its end"));
    let mut abandoned = short.clone();
    abandoned.result.ended_by = crate::seat::MatchEnd::Abandoned;
    abandoned.result.totals = abandoned.rounds[0]
        .result
        .as_ref()
        .map(|r| match r {
            RoundResult::Rami(r) => r.totals.clone(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    abandoned.result.winners = crate::rami::winners(&abandoned.result.totals);
    assert!(record::verify(&abandoned).is_ok(), "an abandoned match may stop between rounds");
    let mut longer = two.clone();
    let mut extra = two.rounds[1].clone();
    extra.number = 3;
    longer.rounds.push(extra);
    assert!(broken(&longer).starts_with("round 3: rami §10: the match ended after round 2"));

    let malformed =
        std::fs::read_to_string(path("rami_51_2p")).expect("exists").replacen("\"out\": true", "\"out\": false", 1);
    assert!(matches!(record::parse(&malformed), Err(RecordError::Malformed(_))));
}

fn card_of(code: &str) -> crate::cards::Card {
    card(code)
}
