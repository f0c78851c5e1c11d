//! The deal (§5), the turn (§6), knock and gin scoring (§7) and ruminos (§8), with §11 items 1 to 3 and
//! 7 to 10.

use crate::cards::RummyRng;
use crate::rumino::game::Source;
use crate::rumino::tests::support::{card, cards, deck, seats, stacked};
use crate::rumino::{HandEnd, RuminoAction, RuminoEntry, RuminoIllegal, RuminoMatch, RuminoOptions};
use crate::seat::{MatchEnd, Seat};

const JUNK_A: &str = "2c 5d 9h Ks 3h 7s Jd";
const JUNK_B: &str = "4c 8d Qh 2s 6h 10s Ac";

/// Two players, seat 1 deals, so seat 0 plays first (§5 step 4).
fn heads_up(hand0: &str, hand1: &str, upcard: &str, stock: &str) -> RuminoMatch {
    let deck = deck(&seats(&[0, 1]), &[hand0, hand1], upcard, stock);
    stacked(2, Seat(1), RuminoOptions::default(), vec![deck], Vec::new())
}

fn play(game: &mut RuminoMatch, seat: u8, action: RuminoAction) {
    game.apply(Seat(seat), &action).unwrap_or_else(|e| panic!("{action:?} by seat {seat}: {e}"));
}

fn discard(code: &str, gin: bool) -> RuminoAction {
    RuminoAction::Discard { card: card(code), gin }
}

#[test]
fn rumino_s5_the_deal() {
    let game = heads_up(JUNK_A, JUNK_B, "Kc", "3d");
    assert_eq!(game.hand(Seat(0)), cards(JUNK_A).as_slice(), "the first card goes to the next player after the dealer");
    assert_eq!(game.hand(Seat(1)), cards(JUNK_B).as_slice());
    assert_eq!(game.discard, cards("Kc"), "the upcard starts the discard pile");
    assert_eq!(game.stock.len(), 108 - 14 - 1);
    assert_eq!(game.stock.last(), Some(&card("3d")), "the rest is the stock, top first");
    assert_eq!(game.to_act(), Some(Seat(0)), "the first player is the next player after the dealer");
    let log = &game.hand_logs()[0];
    assert_eq!((log.number, log.dealer, log.seats.clone()), (1, Seat(1), seats(&[0, 1])));
    // Hand 1's dealer is drawn from the seed, the same for the same seed.
    let dealers: Vec<Seat> = (0..40)
        .map(|seed| RuminoMatch::new(4, seed, RuminoOptions::default()).expect("4").hand_logs()[0].dealer)
        .collect();
    assert!(dealers.iter().any(|&d| d != dealers[0]), "random dealers");
    assert_eq!(RuminoMatch::new(4, 9, RuminoOptions::default()).expect("4").hand_logs()[0].dealer, dealers[9]);
    assert!(RuminoMatch::new(1, 0, RuminoOptions::default()).is_err());
    assert!(RuminoMatch::new(7, 0, RuminoOptions::default()).is_err());
}

#[test]
fn rumino_s6_a_turn_draw_take_discard() {
    let mut game = heads_up(JUNK_A, JUNK_B, "Kc", "3d");
    assert_eq!(game.apply(Seat(1), &RuminoAction::Draw).map_err(|e| e.code()), Err("not_your_turn"));
    assert_eq!(game.apply(Seat(0), &discard("2c", false)).map_err(|e| e.code()), Err("must_draw_first"));
    play(&mut game, 0, RuminoAction::Draw);
    assert_eq!(game.hand(Seat(0)).len(), 8);
    assert_eq!(game.apply(Seat(0), &RuminoAction::Take), Err(RuminoIllegal::AlreadyDrew));
    assert_eq!(game.apply(Seat(0), &discard("Qs", false)).map_err(|e| e.code()), Err("not_in_hand"));
    play(&mut game, 0, discard("3d", false));
    assert_eq!(game.to_act(), Some(Seat(1)));
    play(&mut game, 1, RuminoAction::Take);
    assert_eq!(game.hand(Seat(1)).last(), Some(&card("3d")), "the take is the top of the discard pile");
    assert_eq!(game.discard, cards("Kc"));
    play(&mut game, 1, discard("Ac", false));
    assert_eq!(
        game.hand_logs()[0].log,
        vec![
            RuminoEntry::Draw { seat: Seat(0), card: card("3d") },
            RuminoEntry::Discard { seat: Seat(0), card: card("3d"), gin: false },
            RuminoEntry::Take { seat: Seat(1), card: card("3d") },
            RuminoEntry::Discard { seat: Seat(1), card: card("Ac"), gin: false },
        ]
    );
}

#[test]
fn rumino_s11_1_knock_at_7_not_at_8_nor_after_drawing() {
    let mut game = heads_up("5h 6h 7h Qs Qd Qc 7c", JUNK_B, "Kc", "3d");
    assert_eq!(game.check(Seat(0), &RuminoAction::Knock), Ok(()), "deadwood 7 may knock");
    let mut eight = heads_up("5h 6h 7h Qs Qd Qc 8c", JUNK_B, "Kc", "3d");
    let refusal = eight.apply(Seat(0), &RuminoAction::Knock).expect_err("deadwood 8 may not knock");
    assert_eq!(refusal, RuminoIllegal::KnockTooHigh { deadwood: 8 });
    assert_eq!(refusal.to_string(), "rumino §6 a: your deadwood is 8; a knock needs 7 or less");
    play(&mut game, 0, RuminoAction::Draw);
    assert_eq!(game.apply(Seat(0), &RuminoAction::Knock), Err(RuminoIllegal::AlreadyDrew), "no knock after drawing");
}

#[test]
fn rumino_s7_a_knock_scores_every_deadwood() {
    let mut game = heads_up("5h 6h 7h Qs Qd Qc 7c", JUNK_B, "Kc", "3d");
    play(&mut game, 0, RuminoAction::Knock);
    let result = game.hand_logs()[0].result.clone().expect("the knock ends the hand");
    assert_eq!((result.ended_by, result.by), (HandEnd::Knock, Seat(0)));
    let junk_b: i64 = 4 + 8 + 10 + 2 + 6 + 10 + 1;
    assert_eq!(result.scores.iter().map(|s| s.score).collect::<Vec<_>>(), vec![7, junk_b]);
    assert_eq!(game.totals(), &[7, junk_b]);
    assert_eq!(game.hand_logs().len(), 2, "the next hand is dealt");
    assert_eq!(game.hand_logs()[1].dealer, Seat(0), "the deal passes to the next player");
}

#[test]
fn rumino_s11_2_knock_with_deadwood_0_is_gin() {
    let mut game = heads_up("5h 6h 7h 8h Qs Qd Qc", JUNK_B, "Kc", "3d");
    play(&mut game, 0, RuminoAction::Knock);
    let result = game.hand_logs()[0].result.clone().expect("the knock ends the hand");
    assert_eq!(result.ended_by, HandEnd::Gin);
    assert_eq!(result.scores[0].score, -10);
    assert_eq!(game.totals()[0], -10);
}

#[test]
fn rumino_s11_3_gin_with_4_and_3_not_3_3_1() {
    let mut game = heads_up("5h 6h 7h 8h Qs Qd 2c", JUNK_B, "Kc", "Qc");
    play(&mut game, 0, RuminoAction::Draw);
    assert!(game.legal_summary(Seat(0)).gin_discards.contains(&card("2c")));
    play(&mut game, 0, discard("2c", true));
    let result = game.hand_logs()[0].result.clone().expect("gin ends the hand");
    assert_eq!((result.ended_by, result.scores[0].score, result.scores[1].score), (HandEnd::Gin, -10, 41));
    assert!(matches!(game.hand_logs()[0].log.last(), Some(RuminoEntry::Discard { gin: true, .. })));

    let mut three_three_one = heads_up("5h 6h 7h Qs Qd Qc 2c", JUNK_B, "Kc", "3d");
    play(&mut three_three_one, 0, RuminoAction::Draw);
    let refusal = three_three_one.apply(Seat(0), &discard("3d", true)).expect_err("3 + 3 + 1 is no gin");
    assert_eq!(refusal, RuminoIllegal::NotGin { deadwood: 2 });
    assert!(refusal.to_string().starts_with("rumino §6 step 2"));
    play(&mut three_three_one, 0, discard("3d", false));
    assert!(three_three_one.hand_logs()[0].result.is_none(), "gin is never compulsory, and this is none");
}

#[test]
fn rumino_s11_7_the_taken_code_may_not_be_discarded() {
    let mut game = heads_up("Kd 5h 9h Ks 3h 7s Jd", JUNK_B, "Kd", "3d");
    play(&mut game, 0, RuminoAction::Take);
    let refusal = game.apply(Seat(0), &discard("Kd", false)).expect_err("the taken code stays");
    assert_eq!(refusal, RuminoIllegal::TakenCard { card: card("Kd") });
    assert!(refusal.to_string().starts_with("rumino §6 c"), "{refusal}");
    assert!(!game.legal_summary(Seat(0)).discardable.contains(&card("Kd")), "neither copy of the code");
    play(&mut game, 0, discard("Ks", false));
}

#[test]
fn rumino_s11_8_rumino_after_a_draw_wins_the_match() {
    let mut game = heads_up("3s 4s 5s 6s 7s 8s Kd", JUNK_B, "Kc", "9s");
    play(&mut game, 0, RuminoAction::Draw);
    assert!(game.is_over());
    let outcome = game.outcome().expect("over");
    assert_eq!((outcome.ended_by, outcome.winners.clone()), (MatchEnd::Rumino, vec![Seat(0)]));
    let hand = &game.hand_logs()[0];
    assert_eq!(
        hand.log.last(),
        Some(&RuminoEntry::Rumino { seat: Seat(0), cards: cards("3s 4s 5s 6s 7s 8s 9s"), claim: None })
    );
    let result = hand.result.clone().expect("the hand ends");
    assert_eq!((result.ended_by, result.scores.len()), (HandEnd::Rumino, 0), "a rumino is not scored");
    assert_eq!(game.totals(), &[0, 0]);
}

#[test]
fn rumino_s11_8_dealt_ruminos_one_joker_yes_two_no() {
    // Both dealt a rumino (one with a joker): the first in turn order from the first player wins (§8 step 1).
    let game = heads_up("3s 4s 5s 6s 7s 8s 9s", "9h 9h 9d 9d 9c X 9c", "Kc", "3d");
    let mut second = heads_up(JUNK_A, "9s 9s 9d 9d 9c X 9c", "Kc", "3d");
    assert_eq!(game.outcome().expect("over").winners, vec![Seat(0)]);
    assert_eq!(second.outcome().expect("a rumino with one joker").winners, vec![Seat(1)]);
    assert!(matches!(second.hand_logs()[0].log.as_slice(), [RuminoEntry::Rumino { claim: None, .. }]));
    assert_eq!(second.apply(Seat(0), &RuminoAction::Draw), Err(RuminoIllegal::MatchOver));
    let mut two_jokers = heads_up("3s 4s X 6s 7s X Kd", JUNK_B, "Kc", "9s");
    assert!(!two_jokers.is_over());
    play(&mut two_jokers, 0, RuminoAction::Draw);
    assert!(!two_jokers.is_over(), "no rumino with two jokers");
}

#[test]
fn rumino_s11_9_a_discard_completing_two_ruminos_goes_to_the_first_after_the_discarder() {
    let hands = ["9s 2c 5d Jh Ks 3h Jd", "3s 4s 5s 6s 7s 8s Kd", "9h 9h 9d 9d 9c 9c Kh"];
    let new = |stock: &str| {
        let deck = deck(&seats(&[0, 1, 2]), &hands, "Kc", stock);
        stacked(3, Seat(2), RuminoOptions::default(), vec![deck], Vec::new())
    };
    let mut game = new("2h");
    play(&mut game, 0, RuminoAction::Draw);
    assert!(game.reveals_hidden(&discard("9s", false)), "a discard that is claimed shows a rumino");
    assert!(!game.reveals_hidden(&discard("2h", false)));
    play(&mut game, 0, discard("9s", false));
    assert_eq!(game.outcome().expect("claimed").winners, vec![Seat(1)]);
    assert_eq!(
        game.hand_logs()[0].log.last(),
        Some(&RuminoEntry::Rumino { seat: Seat(1), cards: cards("3s 4s 5s 6s 7s 8s 9s"), claim: Some(card("9s")) })
    );
    assert_eq!(game.discard, cards("Kc"), "the claimed discard left the pile");

    // No claim on a discard that declares gin: seat 0 holds Jc Jd Jh and 2h 3h 4h 5h after drawing.
    let gin_hands = ["9s Jc Jd Jh 2h 3h 4h", hands[1], hands[2]];
    let deck = deck(&seats(&[0, 1, 2]), &gin_hands, "Kc", "5h");
    let mut gin = stacked(3, Seat(2), RuminoOptions::default(), vec![deck], Vec::new());
    play(&mut gin, 0, RuminoAction::Draw);
    play(&mut gin, 0, discard("9s", true));
    assert!(!gin.is_over(), "the gin stands and the match goes on");
    assert_eq!(gin.hand_logs()[0].result.as_ref().map(|r| r.ended_by), Some(HandEnd::Gin));
}

#[test]
fn rumino_s8_no_claim_on_the_upcard() {
    // Seat 1 would complete a rumino with the upcard 9s; only discards can be claimed.
    let game = heads_up(JUNK_A, "3s 4s 5s 6s 7s 8s Kd", "9s", "3d");
    assert!(!game.is_over());
}

#[test]
fn rumino_s11_10_the_reshuffle_keeps_the_top_discard_apart() {
    let mut game = heads_up(JUNK_A, JUNK_B, "Kc", "");
    game.source = Source::Random(RummyRng::from_seed(5));
    let mut turns = 0;
    let mut pile_before = Vec::new();
    while !game.hand_logs()[0].log.iter().any(|e| matches!(e, RuminoEntry::Reshuffle { .. })) {
        let seat = game.to_act().expect("junk hands never end the hand").0;
        play(&mut game, seat, RuminoAction::Draw);
        let drawn = *game.hand(Seat(seat)).last().expect("8 cards");
        pile_before = game.discard.clone();
        pile_before.push(drawn);
        play(&mut game, seat, RuminoAction::Discard { card: drawn, gin: false });
        turns += 1;
    }
    assert_eq!(turns, 93, "108 - 14 dealt - the upcard");
    let Some(RuminoEntry::Reshuffle { stock }) = game.hand_logs()[0].log.last().cloned() else {
        panic!("the reshuffle is written at the start of the turn, before the turn's action")
    };
    let top = pile_before.last().copied();
    assert_eq!(game.discard, top.into_iter().collect::<Vec<_>>(), "the top card stays, alone");
    let (mut sorted, mut rest) = (stock.clone(), pile_before[..pile_before.len() - 1].to_vec());
    sorted.sort();
    rest.sort();
    assert_eq!(sorted, rest, "the new stock is the rest of the discard pile");
    assert_eq!(game.stock.len(), 93);
    assert_eq!(game.stock.last(), stock.first(), "the record lists the new stock top first");
}

#[test]
fn rumino_s6_the_reshuffle_comes_first_whatever_the_turn_then_is_a_knock_included() {
    let mut game = heads_up(JUNK_A, "5h 6h 7h Qs Qd Qc 3c", "Kc", "");
    game.source = Source::Random(RummyRng::from_seed(8));
    while !matches!(game.hand_logs()[0].log.last(), Some(RuminoEntry::Reshuffle { .. })) {
        let seat = game.to_act().expect("the hand goes on").0;
        play(&mut game, seat, RuminoAction::Draw);
        let drawn = *game.hand(Seat(seat)).last().expect("8 cards");
        play(&mut game, seat, RuminoAction::Discard { card: drawn, gin: false });
    }
    assert_eq!(game.to_act(), Some(Seat(1)), "93 turns: seat 1 starts the 94th");
    play(&mut game, 1, RuminoAction::Knock);
    let log = &game.hand_logs()[0].log;
    assert!(matches!(log[log.len() - 2..], [RuminoEntry::Reshuffle { .. }, RuminoEntry::Knock { .. }]));
}

#[test]
fn rumino_s1_the_deck_the_table_and_the_next_player() {
    let game = RuminoMatch::new(6, 3, RuminoOptions::default()).expect("6 players");
    let deck = &game.hand_logs()[0].deck;
    assert!(crate::cards::DeckSpec::DOUBLE.is_deck(deck), "108 cards: every natural twice and 4 jokers");
    let mut game = game;
    game.is_in[2] = false;
    game.is_in[3] = false;
    assert_eq!(game.next_in(Seat(1)), Seat(4), "the next player skips the players out");
    assert_eq!(game.next_in(Seat(5)), Seat(0), "and wraps around");
    assert_eq!(game.order_after(Seat(5)), seats(&[0, 1, 4, 5]));
    // A rematch: hand 1's dealer is the previous winner.
    let rematch = RuminoMatch::with_dealer(3, 1, RuminoOptions::default(), Some(Seat(2))).expect("a rematch");
    assert_eq!(rematch.hand_logs()[0].dealer, Seat(2));
    assert!(RuminoMatch::with_dealer(3, 1, RuminoOptions::default(), Some(Seat(3))).is_err());
}

#[test]
fn rumino_s8_step_2_a_take_can_complete_a_rumino_even_with_the_upcard() {
    // The upcard cannot be claimed out of turn, but the first player may take it in their turn.
    let mut game = heads_up("3s 4s 5s 6s 7s 8s Kd", JUNK_B, "9s", "3d");
    assert!(!game.is_over());
    assert!(game.reveals_hidden(&RuminoAction::Take) && game.reveals_hidden(&RuminoAction::Draw));
    play(&mut game, 0, RuminoAction::Take);
    assert_eq!(game.outcome().map(|o| o.winners.clone()), Some(vec![Seat(0)]));
    assert_eq!(
        game.hand_logs()[0].log,
        vec![
            RuminoEntry::Take { seat: Seat(0), card: card("9s") },
            RuminoEntry::Rumino { seat: Seat(0), cards: cards("3s 4s 5s 6s 7s 8s 9s"), claim: None },
        ]
    );
}
