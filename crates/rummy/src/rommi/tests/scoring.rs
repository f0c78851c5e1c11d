//! Rommi's round scores (rommi §9) and the end of the match (§10): items 8 to 11 of rommi §12.

use crate::record::{RommiRoundResult, RoundResult};
use crate::seat::{MatchEnd, Seat};

use super::super::options::{RommiOptions, Scoring, Variant};
use super::super::{RommiAction, RommiMatch};
use super::support::{act, cs, lay_off, meld, table};

fn result(m: &RommiMatch, round: usize) -> RommiRoundResult {
    match &m.rounds[round].result {
        Some(RoundResult::Rommi(r)) => r.clone(),
        other => panic!("round {round} has no Rommi result: {other:?}"),
    }
}

/// Ends the round on an empty stock with these hands (seat 0 ends it).
fn end_on_empty_stock(m: &mut RommiMatch, hands: &[&str]) {
    m.round.stock.clear();
    for (i, hand) in hands.iter().enumerate() {
        m.round.hands[i] = cs(hand);
    }
    act(m, 0, RommiAction::EndRound);
}

/// Rommi §9.1: the player who goes out scores the sum of the other hands; the others score 0.
#[test]
fn rommi_9_1_positive_going_out() {
    let mut m = table(RommiOptions::default(), &["5h 6h 7h 8h Kc Kd Ks", "2c 3d 4s Qh 9c Jd 10s", ""], "Ac", "9h");
    let third = m.round.hands[2].clone();
    act(&mut m, 0, RommiAction::Draw);
    act(&mut m, 0, meld("5h 6h 7h 8h 9h"));
    act(&mut m, 0, meld("Kc Kd Ks"));
    let r = result(&m, 0);
    let others = 2 + 3 + 4 + 10 + 9 + 10 + 10 + super::super::hand_value(&m.options, &third);
    assert_eq!(r.scores.iter().map(|s| s.score).collect::<Vec<_>>(), [i64::from(others), 0, 0]);
    assert_eq!(r.totals, [i64::from(others), 0, 0]);
}

/// Rommi §12.8: an empty-stock end with two players tied for the lowest hand splits the pot, rounded down.
#[test]
fn rommi_12_8_a_split_pot_is_rounded_down() {
    let mut m = table(RommiOptions::default(), &["", "", ""], "2c", "");
    end_on_empty_stock(&mut m, &["Kc", "4d 6d", "Qh Js 5c"]);
    let r = result(&m, 0);
    assert_eq!(r.scores.iter().map(|s| s.hand).collect::<Vec<_>>(), [10, 10, 25]);
    // Pot: (10-10) + (10-10) + (25-10) = 15; two winners get 7 each.
    assert_eq!(r.scores.iter().map(|s| s.score).collect::<Vec<_>>(), [7, 7, 0]);
}

/// Rommi §12.9 and §9.2: a lay-off on an opponent's meld scores for the player who laid it off; a round
/// score may be below 0; both ends of a round score alike.
#[test]
fn rommi_12_9_meld_hand_scores_the_layer() {
    let options = RommiOptions::for_variant(Variant::FiveHundred);
    assert_eq!(options.scoring, Scoring::MeldHand);
    let mut m = table(options, &["5h 6h 7h Kc 2d 3s 9s", "8h Qd Qs Jc Jd 10c 10s"], "4c", "Ac Ad");
    act(&mut m, 0, RommiAction::Draw);
    act(&mut m, 0, meld("5h 6h 7h"));
    act(&mut m, 0, super::support::discard("Ac"));
    act(&mut m, 1, RommiAction::Draw);
    act(&mut m, 1, lay_off(1, "8h"));
    act(&mut m, 1, super::support::discard("Ad"));
    m.round.stock.clear();
    let hand0 = super::super::hand_value(&m.options, &m.round.hands[0]);
    act(&mut m, 0, RommiAction::EndRound);
    let r = result(&m, 0);
    assert_eq!((r.scores[0].melded, r.scores[1].melded), (18, 8));
    assert_eq!(r.scores[0].score, 18 - i64::from(hand0));
    assert_eq!(r.scores[1].score, 8 - i64::from(r.scores[1].hand));
    assert!(r.scores[1].score < 0);
}

/// Rommi §12.10 and §9.3: negative scoring gives the player who went out 0; the match ends at the target
/// and the lowest total wins.
#[test]
fn rommi_12_10_negative_scoring_and_its_winner() {
    let options = RommiOptions { scoring: Scoring::Negative, ..RommiOptions::default() };
    let mut m = table(options, &["5h 6h 7h 8h Kc Kd Ks", "Qc Qd 10s Jh 9c 9d 8s", "2c 3c 4d 2s 3s 4h 5s"], "Ac", "9h");
    m.totals = vec![95, 50, 70];
    act(&mut m, 0, RommiAction::Draw);
    act(&mut m, 0, meld("5h 6h 7h 8h 9h"));
    act(&mut m, 0, meld("Kc Kd Ks"));
    let r = result(&m, 0);
    assert_eq!(r.scores.iter().map(|s| s.score).collect::<Vec<_>>(), [0, 66, 23]);
    assert_eq!(r.totals, [95, 116, 93]);
    let end = m.result().expect("a total reached 100");
    assert_eq!((end.ended_by, end.winners, end.places), (MatchEnd::Target, vec![Seat(2)], vec![2, 3, 1]));
    assert_eq!(m.to_act(), None);
    assert_eq!(m.rounds.len(), 1, "no round is dealt after the end");
}

/// Rommi §12.11 and §10: two players pass the target in the same round; the higher total wins, and equal
/// totals share the win.
#[test]
fn rommi_12_11_two_pass_the_target() {
    let hands = ["Kc", "Kd", "Qh Qs Qd Jc Jd"];
    let mut m = table(RommiOptions::default(), &["", "", ""], "2c", "");
    m.totals = vec![90, 95, 0];
    end_on_empty_stock(&mut m, &hands);
    let end = m.result().expect("over");
    assert_eq!(end.totals, [110, 115, 0]);
    assert_eq!(end.winners, [Seat(1)]);

    let mut tied = table(RommiOptions::default(), &["", "", ""], "2c", "");
    tied.totals = vec![95, 95, 0];
    end_on_empty_stock(&mut tied, &hands);
    let end = tied.result().expect("over");
    assert_eq!((end.winners, end.places), (vec![Seat(0), Seat(1)], vec![1, 1, 3]));
}

/// Rommi §10: below the target the next round is dealt; there is no limit on rounds.
#[test]
fn rommi_10_below_the_target_the_match_goes_on() {
    let mut m = table(RommiOptions::default(), &["", "", ""], "2c", "");
    end_on_empty_stock(&mut m, &["Kc", "4d 6d", "Qh Js 5c"]);
    assert!(!m.is_over());
    assert_eq!(m.rounds.len(), 2);
    assert_eq!(m.totals(), [7, 7, 0]);
}
