//! Records changed at random — an entry removed, repeated, moved, or one of its cards, seats or numbers
//! changed — are accepted or refused by `verify`, never with a panic; a refusal names a rule of rami.md
//! or of the record format.

use proptest::prelude::*;

use crate::cards::Card;
use crate::record::{self, LogEntry, RecordError, RoundResult, RummyRecord};
use crate::seat::Seat;

fn golden(name: &str) -> RummyRecord {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden").join(format!("{name}.json"));
    record::parse(&std::fs::read_to_string(path).expect("the golden record exists")).expect("well formed")
}

/// Changes one card, seat or id of `entry`, chosen by `pick`.
fn change(entry: &mut LogEntry, pick: usize, card: Card) {
    match entry {
        LogEntry::Draw { card: c, .. } | LogEntry::Discard { card: c, .. } => *c = card,
        LogEntry::Take { cards, .. } | LogEntry::Reshuffle { stock: cards } => {
            if cards.is_empty() {
                cards.push(card);
            } else {
                let at = pick % cards.len();
                cards[at] = card;
            }
        }
        LogEntry::Open { melds, .. } => {
            let at = pick % melds.len().max(1);
            if let Some(meld) = melds.get_mut(at) {
                let at = pick % meld.cards.len().max(1);
                if let Some(c) = meld.cards.get_mut(at) {
                    *c = card;
                }
            }
        }
        LogEntry::Meld { meld, .. } | LogEntry::LayOff { lay_off: meld, .. } => {
            if pick % 3 == 0 {
                meld.id.0 = meld.id.0.wrapping_add(1);
            } else {
                let at = pick % meld.cards.len().max(1);
                if let Some(c) = meld.cards.get_mut(at) {
                    *c = card;
                }
            }
        }
        LogEntry::Exchange { card: c, id, .. } => {
            if pick % 2 == 0 {
                *c = card;
            } else {
                id.0 = id.0.wrapping_sub(1);
            }
        }
        LogEntry::Out { seat } | LogEntry::EndRound { seat } | LogEntry::Knock { seat } => *seat = Seat(pick as u8 % 6),
        LogEntry::Rumino { cards, .. } => cards.clear(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn changed_records_never_panic(which in 0usize..3, kind in 0usize..7, a in any::<usize>(), b in any::<usize>(), code in 0usize..53) {
        let mut record = golden(["rami_51_5p", "rami_30_4p", "rami_51_2p"][which]);
        let card = super::super::cardkit::card(code);
        let round = a % record.rounds.len();
        let log = &mut record.rounds[round].log;
        let (i, j) = (a % log.len(), b % log.len());
        match kind {
            0 => { log.remove(i); }
            1 => { let entry = log[i].clone(); log.insert(j, entry); }
            2 => log.swap(i, j),
            3 => change(&mut log[i], b, card),
            4 => {
                if let Some(LogEntry::Draw { seat, .. } | LogEntry::Discard { seat, .. }) = log.get_mut(i) {
                    *seat = Seat(b as u8 % 6);
                }
            }
            5 => {
                if let Some(RoundResult::Rami(result)) = &mut record.rounds[round].result {
                    let at = b % result.scores.len();
                    result.scores[at].penalty ^= 1;
                    result.multiplier = result.multiplier.wrapping_add(b as u8 % 2);
                }
            }
            _ => {
                let deck = &mut record.rounds[round].deck;
                let n = deck.len();
                deck.swap(i % n, j % n);
            }
        }
        match record::verify(&record) {
            Ok(_) | Err(RecordError::Malformed(_)) => {}
            Err(RecordError::Rule { rule, .. }) => prop_assert!(rule.starts_with("rami §") || rule.starts_with("record:"), "{rule}"),
            Err(other) => prop_assert!(false, "{other:?}"),
        }
    }
}
