//! Rumino records (record format): golden records that must not change, and records broken on purpose,
//! each refused at the right place, as malformed or with the rule it breaks.

use crate::cards::Card;
use crate::record::{self, LogEntry, RoundResult, RummyRecord};
use crate::rumino::tests::properties::{meta, play_match};
use crate::rumino::tests::support::{card, deck, seats, stacked};
use crate::rumino::{RuminoAction, RuminoMatch, RuminoOptions};
use crate::seat::{MatchEnd, Seat};

/// A finished 3-player bot match with rebuys.
fn finished() -> RummyRecord {
    let game = (0..50)
        .map(|seed| play_match(3, RuminoOptions { max_rebuys: 2 }, seed, 0, None))
        .find(|g| {
            g.rebuy_counts().iter().sum::<u32>() > 0 && g.outcome().map(|o| o.ended_by) == Some(MatchEnd::LastPlayer)
        })
        .expect("a bot match with a rebuy");
    game.record(meta(3)).expect("over")
}

/// A 2-player match of random moves, abandoned after 400 actions, past its first reshuffle.
fn abandoned() -> RummyRecord {
    let game = play_match(2, RuminoOptions::default(), 11, 100, Some(400));
    let record = game.record(meta(2)).expect("abandoned");
    assert!(record.rounds.iter().any(|r| r.log.iter().any(|e| matches!(e, LogEntry::Reshuffle { .. }))));
    record
}

/// The record after `change`, which must be refused with `code` and a message holding `says`.
fn refused(mut record: RummyRecord, change: impl FnOnce(&mut RummyRecord), code: &str, says: &str) {
    assert!(record::verify(&record).is_ok(), "the record is valid before the change");
    change(&mut record);
    let error = record::verify(&record).expect_err("the changed record is refused");
    assert_eq!(error.code(), code, "{error}");
    assert!(error.to_string().contains(says), "`{error}` should say `{says}`");
}

fn first_index(record: &RummyRecord, round: usize, pick: impl Fn(&LogEntry) -> bool) -> usize {
    record.rounds[round].log.iter().position(pick).expect("the entry is there")
}

#[test]
fn rumino_records_with_bad_options_or_tables_are_refused() {
    refused(
        finished(),
        |r| r.options = serde_json::json!({ "max_rebuys": 1, "stake": 5 }),
        "malformed",
        "rumino options",
    );
    refused(finished(), |r| r.options = serde_json::json!({}), "malformed", "max_rebuys");
    refused(finished(), |r| r.options = serde_json::json!({ "max_rebuys": -1 }), "malformed", "rumino options");
    refused(
        finished(),
        |r| {
            for i in 3..7 {
                r.players.push(crate::record::RecordPlayer { seat: Seat(i), name: String::new() });
            }
            r.result.totals.extend([0; 4]);
        },
        "rule",
        "rumino §1",
    );
}

#[test]
fn rumino_records_breaking_the_deal_are_refused() {
    refused(finished(), |r| r.rounds[1].dealer = Seat((r.rounds[1].dealer.0 + 1) % 3), "rule", "rumino §5 step 1");
    refused(finished(), |r| r.rounds[0].deck[5] = r.rounds[0].deck[6], "rule", "rumino §1");
    refused(finished(), |r| r.rounds[0].number = 2, "rule", "numbered");
}

#[test]
fn rumino_records_breaking_a_turn_are_refused() {
    refused(
        finished(),
        |r| {
            let k = first_index(r, 0, |e| matches!(e, LogEntry::Draw { .. }));
            let LogEntry::Draw { card, .. } = &mut r.rounds[0].log[k] else { unreachable!() };
            *card = if *card == Card::JOKER { "2c".parse().expect("code") } else { Card::JOKER };
        },
        "rule",
        "rumino §6 b",
    );
    refused(
        finished(),
        |r| {
            let k = first_index(r, 0, |e| matches!(e, LogEntry::Take { .. } | LogEntry::Draw { .. }));
            let seat = r.rounds[0].log[k].seat().expect("a seat");
            r.rounds[0].log[k] = LogEntry::Take { seat, cards: vec![Card::JOKER, Card::JOKER] };
        },
        "rule",
        "rumino §6 c",
    );
    refused(
        finished(),
        |r| {
            let k = first_index(r, 0, |e| matches!(e, LogEntry::Discard { .. }));
            let seat = r.rounds[0].log[k].seat().expect("a seat");
            r.rounds[0].log[k] = LogEntry::Out { seat };
        },
        "rule",
        "not a Rumino entry",
    );
    refused(
        finished(),
        |r| {
            let k = first_index(r, 0, |e| matches!(e, LogEntry::Discard { .. }));
            let LogEntry::Discard { seat, .. } = r.rounds[0].log[k] else { unreachable!() };
            r.rounds[0].log.insert(k, LogEntry::Knock { seat });
        },
        "rule",
        "rumino §6",
    );
}

#[test]
fn rumino_records_breaking_reshuffles_are_refused() {
    let dropped = |r: &mut RummyRecord| {
        let round = r.rounds.iter().position(|x| x.log.iter().any(|e| matches!(e, LogEntry::Reshuffle { .. })));
        let round = round.expect("a reshuffle");
        let k = first_index(r, round, |e| matches!(e, LogEntry::Reshuffle { .. }));
        r.rounds[round].log.remove(k);
    };
    refused(abandoned(), dropped, "rule", "a reshuffle comes first");
    refused(
        abandoned(),
        |r| {
            for round in &mut r.rounds {
                for entry in &mut round.log {
                    if let LogEntry::Reshuffle { stock } = entry {
                        stock[0] = Card::JOKER;
                        stock[1] = Card::JOKER;
                        return;
                    }
                }
            }
        },
        "rule",
        "rumino §6",
    );
}

#[test]
fn rumino_records_with_wrong_results_are_refused() {
    refused(
        finished(),
        |r| {
            let Some(RoundResult::Rumino(result)) = &mut r.rounds[0].result else { panic!("a Rumino result") };
            result.totals[0] += 1;
        },
        "rule",
        "rumino §7, §9",
    );
    refused(
        finished(),
        |r| {
            let round = r
                .rounds
                .iter()
                .position(|x| matches!(&x.result, Some(RoundResult::Rumino(res)) if !res.rebuys.is_empty()));
            let Some(RoundResult::Rumino(result)) = &mut r.rounds[round.expect("a rebuy")].result else {
                unreachable!()
            };
            result.rebuys.clear();
        },
        "rule",
        // The record's choice is then "stay out", which the next hand's dealer or seats contradict.
        "rumino §",
    );
    refused(finished(), |r| r.result.ended_by = MatchEnd::AllEliminated, "rule", "rumino §9");
    refused(finished(), |r| r.result.ended_by = MatchEnd::Abandoned, "rule", "not abandoned");
    refused(finished(), |r| r.result.rebuy_counts = None, "rule", "rebuy counts");
    refused(finished(), |r| r.rounds[0].result = None, "rule", "full result");
    refused(
        finished(),
        |r| {
            let last = r.rounds.len() - 1;
            r.rounds.remove(last);
        },
        "rule",
        "not over",
    );
}

#[test]
fn rumino_records_must_write_ruminos_where_they_are_found() {
    let hands = ["9s 2c 5d Jh Ks 3h Jd", "3s 4s 5s 6s 7s 8s Kd", "9h 9h 9d 9d 9c 9c Kh"];
    let deck = deck(&seats(&[0, 1, 2]), &hands, "Kc", "2h");
    let mut game = stacked(3, Seat(2), RuminoOptions::default(), vec![deck], Vec::new());
    game.apply(Seat(0), &RuminoAction::Draw).expect("legal");
    game.apply(Seat(0), &RuminoAction::Discard { card: card("9s"), gin: false }).expect("legal");
    let record = game.record(meta(3)).expect("a claimed rumino ends the match");
    refused(
        record.clone(),
        |r| {
            r.rounds[0].log.pop();
        },
        "rule",
        "rumino §6, §8",
    );
    refused(
        record.clone(),
        |r| {
            let Some(LogEntry::Rumino { seat, .. }) = r.rounds[0].log.last_mut() else { panic!("a rumino") };
            *seat = Seat(2);
        },
        "rule",
        "rumino §8",
    );
    refused(
        record,
        |r| {
            let Some(LogEntry::Rumino { cards, .. }) = r.rounds[0].log.last_mut() else { panic!("a rumino") };
            cards[0] = "10s".parse().expect("code");
        },
        "rule",
        "rumino §3.4",
    );
}

/// Matches whose records are kept in `crates/rummy/golden/` (`UPDATE_GOLDEN=1` rewrites them): if one
/// changes, seeds no longer give the matches they gave.
fn golden_matches() -> Vec<(&'static str, RuminoMatch)> {
    let hands = ["9s 2c 5d Jh Ks 3h Jd", "3s 4s 5s 6s 7s 8s Kd", "9h 9h 9d 9d 9c 9c Kh"];
    let claim_deck = deck(&seats(&[0, 1, 2]), &hands, "Kc", "2h");
    let mut claimed = stacked(3, Seat(2), RuminoOptions::default(), vec![claim_deck], Vec::new());
    claimed.apply(Seat(0), &RuminoAction::Draw).expect("legal");
    claimed.apply(Seat(0), &RuminoAction::Discard { card: card("9s"), gin: false }).expect("legal");
    vec![
        ("rumino_2p_bots.json", play_match(2, RuminoOptions::default(), 2026, 0, None)),
        ("rumino_4p_mixed.json", play_match(4, RuminoOptions { max_rebuys: 2 }, 7, 15, None)),
        ("rumino_6p_bots.json", play_match(6, RuminoOptions { max_rebuys: 0 }, 42, 0, None)),
        ("rumino_claimed.json", claimed),
        ("rumino_three_gins.json", crate::rumino::tests::matches::gins_in([true; 4])),
    ]
}

#[test]
fn rumino_golden_records_are_unchanged_and_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    for (name, game) in golden_matches() {
        let record = game.record(meta(game.players())).expect("over");
        let json = serde_json::to_string_pretty(&record).expect("records serialize") + "\n";
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            record::write_golden(&path, &json);
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(golden == json, "{name} changed: the engine no longer plays this match as it did");
        let verified = record::verify(&record::parse(&golden).expect("golden records parse")).expect("and replay");
        assert_eq!(Some(verified.result), game.result());
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// A record changed at random is accepted or refused, never a panic; an accepted one replays to a
    /// result that the same check gives again.
    #[test]
    fn rumino_records_changed_at_random_never_panic(
        edits in proptest::collection::vec((0usize..4, proptest::prelude::any::<u16>(), proptest::prelude::any::<u16>(), 0u8..60), 1..4),
    ) {
        let golden = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/rumino_4p_mixed.json"))
            .expect("the golden record exists");
        let mut record = record::parse(&golden).expect("golden records parse");
        for (kind, a, b, code) in edits {
            let round = usize::from(a) % record.rounds.len();
            let log = &mut record.rounds[round].log;
            let (i, j) = (usize::from(b) % log.len().max(1), usize::from(a) % log.len().max(1));
            let some_card = Card::naturals().chain([Card::JOKER]).nth(usize::from(code) % 53).expect("53 kinds");
            match kind {
                0 if !log.is_empty() => { log.remove(i); }
                1 if !log.is_empty() => log.swap(i, j),
                2 => match log.get_mut(i) {
                    Some(LogEntry::Draw { card, .. } | LogEntry::Discard { card, .. }) => *card = some_card,
                    Some(LogEntry::Reshuffle { stock }) if !stock.is_empty() => stock[0] = some_card,
                    _ => record.rounds[round].deck[usize::from(b) % 108] = some_card,
                },
                _ => record.rounds[round].dealer = Seat(code % 6),
            }
        }
        if let Ok(verified) = record::verify(&record) {
            proptest::prop_assert_eq!(record::verify(&record).ok(), Some(verified));
        }
    }
}

#[test]
fn rumino_records_with_a_shuffle_proof_and_reshuffles_verify() {
    let game = play_match(2, RuminoOptions::default(), 11, 100, Some(400));
    let proof = romirami_game::ShuffleProof::new(11, [9; 32]);
    let record = game.record(record::RecordMeta { shuffle: Some(proof), ..meta(2) }).expect("abandoned");
    assert!(record.rounds.iter().any(|r| r.log.iter().any(|e| matches!(e, LogEntry::Reshuffle { .. }))));
    assert!(record::verify(&record).is_ok());
    // A reshuffle not from the seed: record/seed.rs.
}
