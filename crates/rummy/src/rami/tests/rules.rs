//! One test per section of rami.md (the §12 edge cases are in `edge_cases.rs`, §2 in `options.rs`).

use super::support::*;
use crate::cards::{Card, DeckSpec, RummyRng};
use crate::rami::{RamiAction, RamiEvent, RamiMatch, RamiOptions, penalty_value, score_round};
use crate::seat::{Seat, Viewer};

use RamiAction::{Discard, Draw, LayOff, Meld, Open, Take};

/// §1: 108 cards (every natural twice, 4 jokers) in every round; 2 to 5 players.
#[test]
fn section_1_material_and_players() {
    for players in [0, 1, 6] {
        assert!(RamiMatch::new(players, 1, RamiOptions::defaults(players)).is_err());
    }
    let game = new_match(5, 3, rami51(5));
    assert!(DeckSpec::DOUBLE.is_deck(&game.round.deck));
    let held: usize = game.round.hands.iter().map(|h| h.len()).sum();
    assert_eq!(held + game.round.stock.len() + game.round.discard.len(), 108);
}

/// §3.1, §3.2: sets of 3 or 4 suits of a rank; runs of one suit on consecutive positions.
#[test]
fn section_3_1_and_3_2_sets_and_runs() {
    use crate::rami::is_valid_meld;
    assert_eq!(is_valid_meld(&cards("7c 7d 7h 7s"), None), Ok(28));
    assert!(is_valid_meld(&cards("7c 7d"), None).is_err());
    assert!(is_valid_meld(&cards("7c 7d 8h"), None).is_err());
    assert_eq!(is_valid_meld(&cards("4s 5s 6s 7s"), None), Ok(22));
    assert!(is_valid_meld(&cards("4s 5s 7s"), None).is_err());
    assert!(is_valid_meld(&cards("4s 5s 6h"), None).is_err());
}

/// §3.3: a joker's card is stated; in a 3-card set with a joker, a natural laid off is of a missing suit.
#[test]
fn section_3_3_jokers() {
    use crate::rami::is_valid_meld;
    assert_eq!(is_valid_meld(&cards("5h 6h X"), None).map_err(|e| e.rule()), Err("§3.3"));
    let wrong = meld("5h 6h X", Some("7c"));
    assert_eq!(is_valid_meld(&wrong.cards, wrong.joker).map_err(|e| e.rule()), Err("§3.3"));
    let stray = meld("5h 6h 7h", Some("8h"));
    assert_eq!(is_valid_meld(&stray.cards, stray.joker).map_err(|e| e.rule()), Err("§3.3"));
    let mut game = table(rami51(2), &["9c 9s 2d 3d", "4d"], "5s", "9s");
    game.round.opened[0] = true;
    let set = put_meld(&mut game, 1, "9s 9h X", Some("9"));
    ok(&mut game, 0, Draw);
    refused(&mut game, 0, LayOff { id: set, cards: cards("9s"), joker: None }, "rami §3.1");
    ok(&mut game, 0, LayOff { id: set, cards: cards("9c"), joker: None });
    assert_eq!(game.round.melds[0].exchange_card(), Some(card("9d")));
}

/// §3.4: positions are fixed when laid: a joker keeps its position, the exchanged card takes it.
#[test]
fn section_3_4_positions_are_fixed() {
    let mut game = table(rami51(2), &["Jc 9c 8c 2d 3d 4d", "4h"], "5s", "9s");
    game.round.opened[0] = true;
    let run = put_meld(&mut game, 1, "Qc X Ac", Some("Kc"));
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, LayOff { id: run, cards: cards("Jc"), joker: None });
    let positions: Vec<(Card, Option<u8>)> = game.round.melds[0].cards.iter().map(|p| (p.card, p.position)).collect();
    assert_eq!(
        positions,
        vec![(card("Jc"), Some(11)), (card("Qc"), Some(12)), (Card::JOKER, Some(13)), (card("Ac"), Some(14))]
    );
}

/// §3.5: meld ids count up in the round; a set grows to 4 at most, a run never beyond 1 or 14.
#[test]
fn section_3_5_ids_and_lay_offs() {
    let mut game = table(rami51(2), &["10h Jh Qh 7c 7d 7s 2c 3c 4c Kh Ah 9d", "4d"], "5s", "9s");
    let theirs = put_meld(&mut game, 1, "Js Qs Ks As", None);
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, Open(vec![meld("10h Jh Qh", None), meld("7c 7d 7s", None)]));
    ok(&mut game, 0, Meld(meld("2c 3c 4c", None)));
    let ids: Vec<u32> = game.round.melds.iter().map(|m| m.id.0).collect();
    assert_eq!(ids, vec![1, 2, 3, 4]);
    let owners: Vec<Seat> = game.round.melds.iter().map(|m| m.owner).collect();
    assert_eq!(owners, vec![Seat(1), Seat(0), Seat(0), Seat(0)]);
    ok(&mut game, 0, LayOff { id: crate::melds::MeldId(2), cards: cards("Kh Ah"), joker: None });
    refused(&mut game, 0, LayOff { id: theirs, cards: cards("9s"), joker: None }, "rami §");
    refused(
        &mut game,
        0,
        LayOff { id: crate::melds::MeldId(9), cards: cards("9d"), joker: None },
        "rami §3.5: there is no meld 9",
    );
}

/// §4: values in hand at the end: ace 11, J Q K 10, joker 20, others their number.
#[test]
fn section_4_card_values() {
    let values: Vec<u32> = cards("Ah 2h 9c 10d Jc Qs Kh X").into_iter().map(penalty_value).collect();
    assert_eq!(values, vec![11, 2, 9, 10, 10, 10, 10, 20]);
}

/// §5: a random first dealer, then the next seat; 14 cards each, dealt one at a time from the seat after
/// the dealer; one card face up; the seat after the dealer starts.
#[test]
fn section_5_the_deal() {
    for (players, seed) in [(2, 4), (3, 9), (5, 11)] {
        let game = new_match(players, seed, rami51(players));
        let mut rng = RummyRng::from_seed(seed);
        let dealer = Seat(rng.below(players) as u8);
        assert_eq!(game.round.dealer, dealer);
        assert_eq!(game.round.deck, DeckSpec::DOUBLE.shuffled(&mut rng));
        for seat in Seat::all(players) {
            let offset = (seat.index() + players - dealer.index() - 1) % players;
            let mut dealt: Vec<Card> = game.round.deck.iter().skip(offset).step_by(players).take(14).copied().collect();
            dealt.sort();
            assert_eq!(hand_of(&game, seat.0), dealt);
        }
        assert_eq!(game.round.discard, vec![game.round.deck[14 * players]]);
        assert_eq!(game.round.stock.len(), 108 - 14 * players - 1);
        assert_eq!(game.to_act(), Some(dealer.next(players)));
        let mut game = game;
        while game.round.number == 1 {
            let seat = game.to_act().expect("round 1 goes on");
            let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(1);
            let action = crate::rami::bot::choose(&game, seat, &mut rng).expect("the bot acts");
            ok(&mut game, seat.0, action);
        }
        if !game.is_over() {
            assert_eq!(game.round.dealer, dealer.next(players));
        }
    }
}

/// §6: only the opening's melds count, and the player may go on playing in the same turn.
#[test]
fn section_6_the_opening() {
    let mut game = table(rami51(2), &["10h Jh Qh 2c 3c 4c Kd Ks 9d", "4d"], "5s", "Kc");
    put_meld(&mut game, 1, "Jc Qc Kc", None);
    ok(&mut game, 0, Draw);
    refused(
        &mut game,
        0,
        Open(vec![meld("10h Jh Qh", None), meld("2c 3c 4c", None)]),
        "rami §6: the opening is 39 points, 51 needed",
    );
    refused(&mut game, 0, Meld(meld("Kc Kd Ks", None)), "rami §6: until you have opened");
    ok(&mut game, 0, Open(vec![meld("10h Jh Qh", None), meld("2c 3c 4c", None), meld("Kc Kd Ks", None)]));
    refused(&mut game, 0, Open(vec![meld("10h Jh Qh", None)]), "rami §6: you have already opened");
    ok(&mut game, 0, Discard(card("9d")));
}

/// §7.1: exactly one draw, before any play.
#[test]
fn section_7_1_the_draw() {
    let mut game = table(rami51(2), &["10h Jh Qh 2c", "4d"], "5s", "Kc 9h");
    refused(&mut game, 0, Discard(card("2c")), "rami §7.1: the turn starts with a draw");
    refused(&mut game, 1, Draw, "rami §5: it is seat 0's turn");
    ok(&mut game, 0, Draw);
    refused(&mut game, 0, Draw, "rami §7.1: you have drawn");
    refused(&mut game, 0, Take, "rami §7.1: you have drawn");
    assert_eq!(hand_of(&game, 0).len(), 5);
    assert!(game.reveals_hidden(&Draw) && !game.reveals_hidden(&Take));
}

/// §7.2: plays one at a time in any order once opened; cards must be in hand.
#[test]
fn section_7_2_plays() {
    let mut game = table(rami51(2), &["2c 3c 4c 5c 9d", "4d"], "5s", "Kc");
    game.round.opened[0] = true;
    ok(&mut game, 0, Draw);
    refused(&mut game, 0, Meld(meld("6c 7c 8c", None)), "rami §7.2: 6c 7c 8c are not all in your hand");
    ok(&mut game, 0, Meld(meld("2c 3c 4c", None)));
    ok(&mut game, 0, LayOff { id: crate::melds::MeldId(1), cards: cards("5c"), joker: None });
    assert_eq!(hand_of(&game, 0), cards("Kc 9d"));
}

/// §7.3: a joker is taken from a run by its stated card, which takes its position; the exchange is
/// refused when no meld or lay-off with a joker could follow, leaving a card in hand.
#[test]
fn section_7_3_joker_exchange_from_a_run() {
    let mut game = table(rami51(2), &["Qc 5h 6h 2s", "4d"], "5s", "9d");
    game.round.opened[0] = true;
    let run = put_meld(&mut game, 1, "Jc X Kc", Some("Qc"));
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, RamiAction::Exchange { id: run, card: card("Qc") });
    let positions: Vec<(Card, Option<u8>)> = game.round.melds[0].cards.iter().map(|p| (p.card, p.position)).collect();
    assert_eq!(positions, vec![(card("Jc"), Some(11)), (card("Qc"), Some(12)), (card("Kc"), Some(13))]);
    assert!(hand_of(&game, 0).contains(&Card::JOKER));
    let exchanged = game.events_for(Viewer::Spectator, 0).any(|(_, e)| matches!(e, RamiEvent::Exchanged { .. }));
    assert!(exchanged);
    // The joker may go back on the same meld, now without one.
    ok(
        &mut game,
        0,
        LayOff { id: run, cards: cards("X"), joker: Some(serde_json::from_str("\"Ac\"").expect("a code")) },
    );

    let mut game = table(rami51(2), &["8c 2d", "4d"], "5s", "Kh");
    game.round.opened[0] = true;
    let full = put_meld(&mut game, 1, "8s 8h 8d X", Some("8"));
    ok(&mut game, 0, Draw);
    let dead_end = RamiAction::Exchange { id: full, card: card("8c") };
    refused(&mut game, 0, dead_end, "rami §7.3: after this exchange no meld or lay-off with a joker");
}

/// §7.4: the discard ends the turn; an empty hand goes out and ends the round.
#[test]
fn section_7_4_discard_and_going_out() {
    let mut game = table(rami51(2), &["9d 8d", "4d 2s"], "5s", "Kc 3h");
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, Discard(card("Kc")));
    assert_eq!(game.to_act(), Some(Seat(1)));
    assert_eq!(game.round.discard.last(), Some(&card("Kc")));
    let mut game = table(rami51(2), &["9d", "4d 2s"], "5s", "9c");
    game.round.opened[0] = true;
    let run = put_meld(&mut game, 1, "6c 7c 8c", None);
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, LayOff { id: run, cards: cards("9c"), joker: None });
    ok(&mut game, 0, Discard(card("9d")));
    let result = game.finished[0].result.clone().expect("the round ended");
    assert_eq!(result.out, Some(Seat(0)));
    assert!(matches!(game.finished[0].log.last(), Some(crate::record::LogEntry::Out { seat: Seat(0) })));
}

/// §7.5: "carte" is announced when a hand drops to one card.
#[test]
fn section_7_5_carte() {
    let mut game = table(rami51(2), &["9d 2s", "4d 2c"], "5s", "Ac");
    game.round.opened[0] = true;
    let run = put_meld(&mut game, 1, "Jc Qc Kc", None);
    ok(&mut game, 0, Draw);
    ok(&mut game, 0, LayOff { id: run, cards: cards("Ac"), joker: None });
    assert!(!game.view(Viewer::Spectator).carte[0]);
    ok(&mut game, 0, Discard(card("2s")));
    assert!(game.view(Viewer::Spectator).carte[0]);
    let announced = game.events_for(Viewer::Spectator, 0).any(|(_, e)| e == RamiEvent::Carte { seat: Seat(0) });
    assert!(announced);
}

/// §8: with the bots, stocks run out and are reshuffled in play (5 players leave the smallest stock);
/// each reshuffle is recorded and replays.
#[test]
fn section_8_reshuffles_in_play() {
    let found = (0..400).find_map(|seed| {
        let mut game = new_match(5, seed, RamiOptions { match_end: crate::rami::MatchEnd::Rounds(2), ..rami51(5) });
        play_out(&mut game, seed);
        (game.tally()["reshuffles"] > 0).then_some(game)
    });
    let game = found.expect("a stock ran out in 800 rounds of 5 players");
    assert!(round_trip(&game).tally["reshuffles"] > 0);
}

/// §9: the base penalty is the hand's value once opened, 100 otherwise; the one who went out scores 0.
#[test]
fn section_9_penalties() {
    let hands = [cards(""), cards("Ah X 5c"), cards("2c")];
    let result = score_round(&hands, &[true, true, false], Some((Seat(0), false, false)), &[5, 6, 7]);
    let penalties: Vec<u32> = result.scores.iter().map(|s| s.penalty).collect();
    assert_eq!(penalties, vec![0, 36, 100]);
    assert_eq!(result.totals, vec![5, 42, 107]);
    assert_eq!(result.scores[2].hand, 2);
}

/// §10: totals add up round by round; the lowest total wins.
#[test]
fn section_10_match_totals() {
    let mut game = new_match(4, 21, rami30(4));
    play_out(&mut game, 21);
    let mut totals = vec![0i64; 4];
    for round in game.rounds() {
        let result = round.result.clone().expect("every round ended");
        for score in &result.scores {
            totals[score.seat.index()] += i64::from(score.penalty);
        }
        assert_eq!(result.totals, totals);
    }
    let result = game.result().expect("over");
    let lowest = totals.iter().min().copied();
    assert!(result.winners.iter().all(|s| Some(totals[s.index()]) == lowest));
}

/// §11: views and events show each player their own hand only; the stock's order reaches nobody; a
/// spectator sees the public information.
#[test]
fn section_11_what_each_person_sees() {
    let mut game = new_match(3, 8, rami51(3));
    let seat = game.to_act().expect("a turn");
    ok(&mut game, seat.0, Draw);
    let drawn = game.round.log.last().cloned();
    let Some(crate::record::LogEntry::Draw { card: drawn, .. }) = drawn else { panic!("a draw") };
    let for_drawer = game.events_for(Viewer::Seat(seat), 0).last().map(|(_, e)| e);
    assert_eq!(for_drawer, Some(RamiEvent::Drew { seat, card: Some(drawn) }));
    for viewer in [Viewer::Spectator, Viewer::Seat(seat.next(3))] {
        let event = game.events_for(viewer, 0).last().map(|(_, e)| e);
        assert_eq!(event, Some(RamiEvent::Drew { seat, card: None }));
    }
    assert_eq!(game.view(Viewer::Spectator).hand, None);
    assert_eq!(game.view(Viewer::Seat(seat)).hand, Some(hand_of(&game, seat.0)));
    // Hidden facts changed (another hand, the stock's order): the views do not change.
    let mut other = game.clone();
    let next = seat.next(3).index();
    let (a, b) = (other.round.hands[next].cards(), other.round.stock.split_off(other.round.stock.len() - 15));
    other.round.hands[next] = super::super::cardkit::Hand::from_cards(&b[..14]);
    other.round.stock.extend(a.into_iter().chain(b[14..].iter().copied()));
    other.round.stock.reverse();
    for viewer in [Viewer::Spectator, Viewer::Seat(seat)] {
        assert_eq!(serde_json::to_string(&game.view(viewer)).ok(), serde_json::to_string(&other.view(viewer)).ok());
    }
}
