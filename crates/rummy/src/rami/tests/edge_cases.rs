//! rami §12, "Edge cases a test must cover": one test per item, named after it.

use super::support::*;
use crate::rami::{Opening, RamiAction, is_valid_meld, opening_value, winners};
use crate::seat::{MatchEnd, Seat};

use RamiAction::{Discard, Draw, Exchange, LayOff, Meld, Open, Take};

/// §12.1: Rami 51: exactly 51 with a jokerless run is accepted; 50 is refused; 51 or more without a
/// jokerless run (only sets, or a run holding the joker) is refused.
#[test]
fn item_1_rami_51_threshold_and_pure_run() {
    let mut game = table(rami51(2), &["10h Jh Qh 7c 7d 7s 2c", "3d"], "5s", "9s");
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, Open(vec![meld("10h Jh Qh", None), meld("7c 7d 7s", None)]));

    let mut game = table(rami51(2), &["9h 10h Jh 7c 7d 7s 2c", "3d"], "5s", "9s");
    ok(&mut game, 0, Draw);
    let fifty = Open(vec![meld("9h 10h Jh", None), meld("7c 7d 7s", None)]);
    refused(&mut game, 0, fifty, "rami §6: the opening is 50 points, 51 needed");

    let mut game = table(rami51(2), &["Kc Kd Ks Qc Qd Qh 10h X Qs 7c 7d 7s 2c", "3d"], "5s", "9s");
    ok(&mut game, 0, Draw);
    let sets = Open(vec![meld("Kc Kd Ks", None), meld("Qc Qd Qh", None)]);
    refused(&mut game, 0, sets, "rami §6: a Rami 51 opening includes a run");
    let joker_run = Open(vec![meld("10h X Qs", None), meld("7c 7d 7s", None)]);
    refused(&mut game, 0, joker_run, "rami §3");
    let mut game = table(rami51(2), &["10h X Qh 7c 7d 7s 2c", "3d"], "5s", "9s");
    ok(&mut game, 0, Draw);
    let joker_run = Open(vec![meld("10h X Qh", Some("Jh")), meld("7c 7d 7s", None)]);
    refused(&mut game, 0, joker_run, "rami §6: a Rami 51 opening includes a run");
}

/// §12.2: Rami 30: an opening of sets only, with a joker, worth exactly 30 is accepted.
#[test]
fn item_2_rami_30_sets_with_a_joker() {
    let mut game = table(rami30(2), &["4c 4d 4h 6c 6d X 2s", "3d"], "5s", "9s");
    ok(&mut game, 0, Draw);
    let opening = vec![meld("4c 4d 4h", None), meld("6c 6d X", Some("6"))];
    assert_eq!(opening_value(&opening, Opening::Rami30), Ok(30));
    ok(&mut game, 0, Open(opening));
    assert!(game.view(crate::seat::Viewer::Spectator).opened[0]);
}

/// §12.3: opening values: A-2-3 counts 6, Q-K-A 31, three aces 33, a joker counts as its card.
#[test]
fn item_3_opening_values() {
    assert_eq!(is_valid_meld(&cards("Ah 2h 3h"), None), Ok(6));
    assert_eq!(is_valid_meld(&cards("Qh Kh Ah"), None), Ok(31));
    assert_eq!(is_valid_meld(&cards("Ac Ad As"), None), Ok(33));
    let stated = meld("10h X Qh", Some("Jh"));
    assert_eq!(is_valid_meld(&stated.cards, stated.joker), Ok(30));
    let set = meld("9s 9h X", Some("9"));
    assert_eq!(is_valid_meld(&set.cards, set.joker), Ok(27));
    let ace_joker = meld("X 2h 3h", Some("Ah"));
    assert_eq!(is_valid_meld(&ace_joker.cards, ace_joker.joker), Ok(6));
}

/// §12.4: a set with two cards of one suit (the second deck's copy) is refused; so is a fifth card.
#[test]
fn item_4_set_suits_and_size() {
    assert_eq!(is_valid_meld(&cards("7c 7c 7d"), None).map_err(|e| e.rule()), Err("§3.1"));
    let mut game = table(rami51(2), &["7h 2c 3c", "4d"], "5s", "9s");
    game.round.opened[0] = true;
    let full = put_meld(&mut game, 1, "7c 7d 7s X", Some("7"));
    ok(&mut game, 0, Draw);
    refused(&mut game, 0, LayOff { id: full, cards: cards("7h"), joker: None }, "rami §3.1");
    let three = put_meld(&mut game, 1, "8c 8d 8s", None);
    refused(&mut game, 0, LayOff { id: three, cards: cards("7h"), joker: None }, "rami §3");
}

/// §12.5: a second joker in one meld, by meld or by lay-off, is refused.
#[test]
fn item_5_one_joker_per_meld() {
    assert_eq!(is_valid_meld(&cards("5h X X"), None).map_err(|e| e.rule()), Err("§3.3"));
    let mut game = table(rami51(2), &["X 5h 6h X 2c", "4d"], "5s", "9s");
    game.round.opened[0] = true;
    let with_joker = put_meld(&mut game, 1, "9c X Jc", Some("10c"));
    ok(&mut game, 0, Draw);
    refused(&mut game, 0, Meld(meld("5h 6h X X", Some("7h"))), "rami §3.3");
    refused(
        &mut game,
        0,
        LayOff { id: with_joker, cards: cards("X"), joker: Some(serde_json::from_str("\"Qc\"").expect("a code")) },
        "rami §3.3",
    );
}

/// §12.6: taking the discard and not playing it in the first play is refused; so is taking it with one
/// card in hand.
#[test]
fn item_6_the_taken_card_goes_first() {
    let mut game = table(rami51(2), &["6h 7h Kc Kd Ks 2c", "4d"], "5s 8h", "9s");
    game.round.opened[0] = true;
    ok(&mut game, 0, Take);
    refused(&mut game, 0, Meld(meld("Kc Kd Ks", None)), "rami §7.1 b: your first play this turn must put 8h");
    refused(&mut game, 0, Discard(card("2c")), "rami §7.1 b: your first play this turn must put 8h");
    ok(&mut game, 0, Meld(meld("6h 7h 8h", None)));
    ok(&mut game, 0, Meld(meld("Kc Kd Ks", None)));

    let mut game = table(rami51(2), &["8d", "4d"], "5s 8h", "9s");
    game.round.opened[0] = true;
    put_meld(&mut game, 1, "5h 6h 7h", None);
    refused(&mut game, 0, Take, "rami §7.1 b: with one card");
    let mut game = table(rami51(2), &["2c 9d Ks", "4d"], "5s 5h", "9s");
    refused(&mut game, 0, Take, "rami §7.1 b: 5h could not go on the table");
}

/// §12.7: joker exchange: from a 3-card set refused; from a 4-card set with the missing suit accepted;
/// before opening refused; with the wrong card refused; not followed by a play with a joker refused.
#[test]
fn item_7_joker_exchange() {
    let setup = |opened: bool| {
        let mut game = table(rami51(2), &["9c 9d 5h 6h 2s 3s", "4d"], "5s", "Kd");
        game.round.opened[0] = opened;
        let three = put_meld(&mut game, 1, "9s 9h X", Some("9"));
        let four = put_meld(&mut game, 1, "8s 8h 8d X", Some("8"));
        let run = put_meld(&mut game, 1, "Jc X Kc", Some("Qc"));
        ok(&mut game, 0, Draw);
        (game, three, four, run)
    };
    let (mut game, _, four, _) = setup(false);
    refused(&mut game, 0, Exchange { id: four, card: card("8c") }, "rami §6: until you have opened");
    let (mut game, three_set, _, _) = setup(true);
    refused(&mut game, 0, Exchange { id: three_set, card: card("9c") }, "rami §7.3");
    let (mut game, _, four, _) = setup(true);
    game.round.hands[0].add(card("8c"));
    refused(&mut game, 0, Exchange { id: four, card: card("9c") }, "rami §7.3: the joker stands for 8c");
    ok(&mut game, 0, Exchange { id: four, card: card("8c") });
    assert_eq!(game.view(crate::seat::Viewer::Spectator).owes, Some(crate::rami::Owes::JokerPlay));
    refused(&mut game, 0, Discard(card("2s")), "rami §7.3: after a joker exchange");
    refused(&mut game, 0, Meld(meld("Kd 9c 9d", None)), "rami §7.3: after a joker exchange");
    ok(&mut game, 0, Meld(meld("5h 6h X", Some("7h"))));
    ok(&mut game, 0, Discard(card("2s")));
}

/// §12.8: a play that would empty the hand is refused — the discard is mandatory, also for a rami sec.
#[test]
fn item_8_no_play_empties_the_hand() {
    let mut game = table(rami51(2), &["10h Jh Qh 7c 7d", "4d"], "5s", "7s");
    ok(&mut game, 0, Draw);
    let all = Open(vec![meld("10h Jh Qh", None), meld("7c 7d 7s", None)]);
    refused(&mut game, 0, all, "rami §7.2: no play may leave the hand empty");
}

/// §12.9: a rami sec doubles every penalty; one ending on a joker quadruples it (400 for a player who
/// never opened); going out on a joker without a rami sec doubles nothing.
#[test]
fn item_9_rami_sec_multipliers() {
    for (drawn, multiplier) in [("2c", 2), ("X", 4)] {
        let mut game = table(rami51(3), &["10h Jh Qh 7c 7d 7s", "4d 5d", "Kd"], "5s", drawn);
        game.round.opened[2] = true;
        ok(&mut game, 0, Draw);
        ok(&mut game, 0, Open(vec![meld("10h Jh Qh", None), meld("7c 7d 7s", None)]));
        ok(&mut game, 0, Discard(card(drawn)));
        let result = game.finished[0].result.clone().expect("the round ended");
        assert!(result.rami_sec);
        assert_eq!(result.multiplier, multiplier);
        let penalties: Vec<u32> = result.scores.iter().map(|s| s.penalty).collect();
        assert_eq!(penalties, vec![0, 100 * u32::from(multiplier), 10 * u32::from(multiplier)]);
    }
    let mut game = table(rami51(2), &["X", "4d 5d"], "5s", "5c");
    game.round.opened[0] = true;
    let run = put_meld(&mut game, 1, "2c 3c 4c", None);
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, LayOff { id: run, cards: cards("5c"), joker: None });
    ok(&mut game, 0, Discard(card("X")));
    let result = game.finished[0].result.clone().expect("the round ended");
    assert_eq!((result.rami_sec, result.multiplier, result.scores[1].penalty), (false, 1, 100));
}

/// §12.10: a 14-card run A to A is accepted; K-A-2 is refused; an ace laid off on a 2-to-K run takes
/// position 14.
#[test]
fn item_10_aces() {
    let full = cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah");
    assert_eq!(is_valid_meld(&full, None), Ok(1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30 + 11));
    assert_eq!(is_valid_meld(&cards("Kh Ah 2h"), None).map_err(|e| e.rule()), Err("§3.2"));
    let mut game = table(rami51(2), &["Ah 2c", "4d"], "5s", "9s");
    game.round.opened[0] = true;
    let run = put_meld(&mut game, 1, "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", None);
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, LayOff { id: run, cards: cards("Ah"), joker: None });
    assert_eq!(game.round.melds[0].ends(), Some((2, 14)));
}

/// §12.11: a lay-off on an opponent's meld in the very turn of one's opening.
#[test]
fn item_11_lay_off_on_an_opponent_in_the_opening_turn() {
    let mut game = table(rami51(2), &["10h Jh Qh 7c 7d 7s 8c 2d", "4d"], "5s", "9s");
    let theirs = put_meld(&mut game, 1, "5c 6c 7c", None);
    ok(&mut game, 0, Draw);
    refused(&mut game, 0, LayOff { id: theirs, cards: cards("8c"), joker: None }, "rami §6: until you have opened");
    ok(&mut game, 0, Open(vec![meld("10h Jh Qh", None), meld("7c 7d 7s", None)]));
    ok(&mut game, 0, LayOff { id: theirs, cards: cards("8c"), joker: None });
    assert_eq!(game.tally()["lay_offs_on_others"], 1);
}

/// §12.12: on an empty stock the reshuffle keeps the top discard apart; a blocked round scores everybody.
#[test]
fn item_12_empty_stock() {
    let mut game = table(rami51(2), &["Kc 2d", "4d 5d"], "2c 3c 9d", "4h");
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, Discard(card("Kc")));
    assert_eq!(game.round.discard, cards("Kc"));
    let Some(crate::record::LogEntry::Reshuffle { stock }) = game.round.log.last() else { panic!("a reshuffle") };
    let mut sorted = stock.clone();
    sorted.sort();
    assert_eq!(sorted, cards("2c 3c 9d"));
    assert_eq!(game.round.stock.len(), 3);
    let spectator = game.events_for(crate::seat::Viewer::Spectator, 0).last().map(|(_, e)| e);
    assert_eq!(spectator, Some(crate::rami::RamiEvent::Reshuffled { stock: 3 }));

    let mut game = table(rami51(3), &["Kc 2d", "X", "4d 5d 6d"], "9d", "");
    game.round.opened[0] = true;
    game.begin_turn(Seat(0));
    let result = game.finished[0].result.clone().expect("the round is over");
    assert_eq!(result.ended_by, crate::record::RoundEnd::Blocked);
    assert_eq!((result.out, result.rami_sec, result.multiplier), (None, false, 1));
    let penalties: Vec<u32> = result.scores.iter().map(|s| s.penalty).collect();
    assert_eq!(penalties, vec![12, 100, 100]);
}

/// §12.13: `rounds N` ends after round N; `limit P` after the round that reaches P; tied lowest totals
/// share the win.
#[test]
fn item_13_match_end() {
    for n in [1, 3] {
        let options = crate::rami::RamiOptions { match_end: crate::rami::MatchEnd::Rounds(n), ..rami51(3) };
        let mut game = new_match(3, 5, options);
        play_out(&mut game, 5);
        assert_eq!(game.rounds().count(), n as usize);
        assert_eq!(game.result().map(|r| r.ended_by), Some(MatchEnd::Rounds));
    }
    let options = crate::rami::RamiOptions { match_end: crate::rami::MatchEnd::Limit(150), ..rami51(3) };
    let mut game = new_match(3, 5, options);
    play_out(&mut game, 5);
    let totals: Vec<Vec<i64>> = game.rounds().map(|r| r.result.clone().expect("over").totals).collect();
    let (last, before) = totals.split_last().expect("rounds were played");
    assert!(last.iter().any(|&t| t >= 150));
    assert!(before.iter().all(|totals| totals.iter().all(|&t| t < 150)));
    assert_eq!(game.result().map(|r| r.ended_by), Some(MatchEnd::Limit));
    assert_eq!(winners(&[10, 5, 5]), vec![Seat(1), Seat(2)]);
    assert_eq!(crate::seat::places(&[10, 5, 5], crate::seat::Better::Lower, |_| true), vec![3, 1, 1]);
}
