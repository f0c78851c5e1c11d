//! Totals, elimination, rebuys and the end of the match (§9) and what each person sees (§10), with §11
//! items 11 to 14.

use crate::cards::DeckSpec;
use crate::rumino::tests::support::{card, deck, seats, stacked};
use crate::rumino::{HandEnd, Rebought, RuminoAction, RuminoEvent, RuminoIllegal, RuminoMatch, RuminoOptions};
use crate::seat::{MatchEnd, Seat, Viewer};

/// Deadwood 3: a knock that ends the hand.
const KNOCK3: &str = "5h 6h 7h Qs Qd Qc 3c";
/// Deadwood 0: a knock that is a gin.
const GIN: &str = "5h 6h 7h 8h Qs Qd Qc";
/// Deadwood 10: two sets and Qh.
const TEN: &str = "Kh Kd Ks 9s 9c 9d Qh";
/// Deadwood 40: no lay.
const FORTY: &str = "Ac Jd 10s 4c 4h 5d 6s";

fn play(game: &mut RuminoMatch, seat: u8, action: RuminoAction) {
    game.apply(Seat(seat), &action).unwrap_or_else(|e| panic!("{action:?} by seat {seat}: {e}"));
}

/// A 3-player match, seat 2 dealing hand 1 (seat 0 plays first), hand 1 dealt from `hands`, later hands
/// from the unshuffled deck (which deals no rumino), with `totals` set before the first turn.
fn three(options: RuminoOptions, hands: [&str; 3], totals: [i64; 3]) -> RuminoMatch {
    let first = deck(&seats(&[0, 1, 2]), &hands, "Kc", "2d");
    let later = vec![DeckSpec::DOUBLE.cards(); 4];
    let mut game = stacked(3, Seat(2), options, [vec![first], later].concat(), Vec::new());
    game.totals = totals.to_vec();
    game
}

#[test]
fn rumino_s11_11_exactly_100_stays_101_is_out_and_a_rebuy_takes_the_highest_total_in() {
    assert_eq!(crate::rumino::deadwood(&crate::rumino::tests::support::cards(TEN)), 10);
    assert_eq!(crate::rumino::deadwood(&crate::rumino::tests::support::cards(FORTY)), 40);
    let mut game = three(RuminoOptions::default(), [KNOCK3, TEN, FORTY], [60, 90, 90]);
    play(&mut game, 0, RuminoAction::Knock);
    let result = game.hand_logs()[0].result.clone().expect("scored");
    assert_eq!(result.totals, vec![63, 100, 130], "before rebuys");
    assert_eq!(result.eliminated, vec![Seat(2)], "100 stays in, above 100 is out");
    assert!(game.is_in(Seat(1)) && !game.is_in(Seat(2)));
    assert_eq!(game.to_act(), Some(Seat(2)), "the eliminated player chooses");
    assert_eq!(game.apply(Seat(0), &RuminoAction::Draw).map_err(|e| e.code()), Err("not_your_turn"));
    assert_eq!(game.apply(Seat(2), &RuminoAction::Draw).map_err(|e| e.code()), Err("rebuy_pending"));
    play(&mut game, 2, RuminoAction::Rebuy { rebuy: true });
    assert_eq!(game.totals(), &[63, 100, 100], "the highest total still in");
    assert_eq!(game.rebuy_counts(), &[0, 0, 1]);
    assert_eq!(
        game.hand_logs()[0].result.as_ref().map(|r| r.rebuys.clone()),
        Some(vec![Rebought { seat: Seat(2), total: 100 }])
    );
    // §11.14: a player who rebought is dealt in again.
    assert_eq!(game.hand_logs()[1].seats, seats(&[0, 1, 2]));
    assert_eq!(game.hand(Seat(2)).len(), 7);
    assert_eq!(game.hand_logs()[1].dealer, Seat(0));
    assert_eq!(game.apply(Seat(1), &RuminoAction::Rebuy { rebuy: true }), Err(RuminoIllegal::NoRebuyNow));
}

#[test]
fn rumino_s11_11_max_rebuys_reached_means_no_rebuy_and_s11_14_the_deal_passes_over() {
    let mut game = three(RuminoOptions::default(), [KNOCK3, FORTY, TEN], [60, 90, 90]);
    game.rebuy_counts[1] = 1;
    play(&mut game, 0, RuminoAction::Knock);
    assert_eq!(game.hand_logs().len(), 2, "no choice to wait for: the next hand is dealt");
    assert!(!game.is_in(Seat(1)));
    let next = &game.hand_logs()[1];
    assert_eq!(next.seats, seats(&[0, 2]), "the deal passes over the eliminated player");
    assert_eq!(next.dealer, Seat(0));
    assert!(game.hand(Seat(1)).is_empty());
    assert_eq!(game.to_act(), Some(Seat(2)), "the next player after the dealer, over seat 1");

    // Declining is a choice too: the player stays out.
    let mut declined = three(RuminoOptions::default(), [KNOCK3, FORTY, TEN], [60, 90, 90]);
    play(&mut declined, 0, RuminoAction::Knock);
    play(&mut declined, 1, RuminoAction::Rebuy { rebuy: false });
    assert_eq!(declined.hand_logs()[1].seats, seats(&[0, 2]));
    assert_eq!(declined.hand_logs()[0].result.as_ref().map(|r| r.rebuys.len()), Some(0));
}

#[test]
fn rumino_s11_11_a_heads_up_elimination_ends_the_match() {
    let first = deck(&seats(&[0, 1]), &[KNOCK3, FORTY], "Kc", "2d");
    let mut game = stacked(2, Seat(1), RuminoOptions { max_rebuys: 5 }, vec![first], Vec::new());
    game.totals = vec![0, 70];
    play(&mut game, 0, RuminoAction::Knock);
    let outcome = game.outcome().expect("one player left");
    assert_eq!((outcome.ended_by, outcome.winners.clone()), (MatchEnd::LastPlayer, vec![Seat(0)]));
    assert_eq!(game.hand_logs()[0].result.as_ref().map(|r| r.eliminated.clone()), Some(vec![Seat(1)]));
}

#[test]
fn rumino_s11_12_everybody_above_100_the_lowest_total_wins() {
    let mut game = three(RuminoOptions::default(), [KNOCK3, TEN, FORTY], [98, 95, 70]);
    play(&mut game, 0, RuminoAction::Knock);
    let outcome = game.outcome().expect("nobody left");
    assert_eq!((outcome.ended_by, outcome.winners.clone()), (MatchEnd::AllEliminated, vec![Seat(0)]));
    assert_eq!(game.totals(), &[101, 105, 110]);
    // A tie shares the win.
    let mut tie = three(RuminoOptions::default(), [KNOCK3, TEN, FORTY], [100, 93, 70]);
    play(&mut tie, 0, RuminoAction::Knock);
    assert_eq!(tie.outcome().expect("nobody left").winners, seats(&[0, 1]));
}

/// Two players; in each hand in `gins` seat 0 knocks with a gin hand, in the others with deadwood 3.
/// Seat 1 plays first in even hands: it draws and discards the card it drew.
pub(crate) fn gins_in(gins: [bool; 4]) -> RuminoMatch {
    let decks = gins
        .iter()
        .enumerate()
        .map(|(i, &gin)| {
            let mine = if gin { GIN } else { KNOCK3 };
            // Hand i + 1's dealer alternates 1, 0, 1, 0: its deal starts with the other seat.
            let order = if i % 2 == 0 { seats(&[0, 1]) } else { seats(&[1, 0]) };
            let hands = if i % 2 == 0 { [mine, "2c 3d 5s 9h 9d 9c Ac"] } else { ["2c 3d 5s 9h 9d 9c Ac", mine] };
            deck(&order, &hands, "Kc", "2s")
        })
        .chain([DeckSpec::DOUBLE.cards()])
        .collect();
    let mut game = stacked(2, Seat(1), RuminoOptions::default(), decks, Vec::new());
    for hand in 0..4 {
        if game.is_over() {
            break;
        }
        if hand % 2 == 1 {
            play(&mut game, 1, RuminoAction::Draw);
            play(&mut game, 1, RuminoAction::Discard { card: card("2s"), gin: false });
        }
        play(&mut game, 0, RuminoAction::Knock);
    }
    game
}

#[test]
fn rumino_s11_13_gins_in_hands_1_2_3_win_and_s11_2_a_knock_at_0_counts() {
    let game = gins_in([true, true, true, true]);
    let outcome = game.outcome().expect("three gins");
    assert_eq!((outcome.ended_by, outcome.winners.clone()), (MatchEnd::ThreeGins, vec![Seat(0)]));
    assert_eq!(game.hand_logs().len(), 3);
    assert!(game.hand_logs().iter().all(|h| h.result.as_ref().map(|r| r.ended_by) == Some(HandEnd::Gin)));
    assert_eq!(game.hand_logs()[2].result.as_ref().map(|r| r.eliminated.len()), Some(0));

    let later = gins_in([false, true, true, true]);
    assert!(!later.is_over(), "gins in hands 2, 3 and 4 do not end the match");
    assert_eq!(later.hand_logs().len(), 5);
}

#[test]
fn rumino_s10_views_show_own_cards_only_until_the_hand_ends() {
    let mut game = three(RuminoOptions::default(), [KNOCK3, TEN, FORTY], [0, 0, 0]);
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.decks.is_none());
    assert_eq!(spectator.seats.iter().map(|s| s.hand_size).collect::<Vec<_>>(), vec![7, 7, 7]);
    assert_eq!(game.view(Viewer::Seat(Seat(1))).hand, Some(crate::rumino::tests::support::cards(TEN)));
    play(&mut game, 0, RuminoAction::Draw);
    let drawn = card("2d");
    for (viewer, sees) in [(Viewer::Seat(Seat(0)), true), (Viewer::Seat(Seat(1)), false), (Viewer::Spectator, false)] {
        let events: Vec<RuminoEvent> = game.events_for(viewer, 0).map(|(_, e)| e).collect();
        let seen = events.iter().any(|e| matches!(e, RuminoEvent::Drew { card: Some(c), .. } if *c == drawn));
        assert_eq!(seen, sees, "{viewer:?}");
        let json = serde_json::to_string(&game.view(viewer)).expect("views serialize");
        if viewer != Viewer::Seat(Seat(0)) {
            assert!(!json.contains("\"2d\""), "{viewer:?} must not see the drawn 2d: {json}");
        }
    }
    play(&mut game, 0, RuminoAction::Discard { card: drawn, gin: false });
    play(&mut game, 1, RuminoAction::Take);
    assert_eq!(game.view(Viewer::Spectator).taken, Some(drawn), "the card taken is public");
    play(&mut game, 1, RuminoAction::Discard { card: card("Kh"), gin: false });
    play(&mut game, 2, RuminoAction::Draw);
    play(&mut game, 2, RuminoAction::Discard { card: card("Ac"), gin: false });
    play(&mut game, 0, RuminoAction::Knock);
    let shown = game.view(Viewer::Spectator).last_end.expect("the knock shows every hand");
    assert_eq!(shown.hands.len(), 3);
    assert_eq!(shown.hands[0].deadwood, 3);
    game.abandon();
    let over = game.view(Viewer::Spectator);
    assert_eq!(over.outcome.map(|o| o.ended_by), Some(MatchEnd::Abandoned));
    assert_eq!(over.decks.map(|d| d.len()), Some(2), "every deck is revealed once the match is over");
}
