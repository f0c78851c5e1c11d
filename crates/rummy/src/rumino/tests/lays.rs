//! Lays (§3), ruminos (§3.4) and deadwood (§4), checked against a brute force that knows nothing of the
//! engine's search: every partition of the hand, every card a joker could stand for.

use proptest::prelude::*;

use crate::cards::{Card, Rank, Suit};
use crate::melds::{MeldRules, forms_group};
use crate::rumino::lays::find_rumino;
use crate::rumino::tests::support::cards;
use crate::rumino::{best_grouping, card_value, deadwood, is_lay, is_rumino};

/// Whether naturals only are a set (one rank) or a straight flush (one suit, consecutive positions with
/// each ace at 1 or at 14, tried both ways).
fn brute_natural_group(naturals: &[Card]) -> bool {
    let ranks: Vec<u8> = naturals.iter().map(|c| c.rank().expect("natural").number()).collect();
    if ranks.iter().all(|&r| r == ranks[0]) {
        return true;
    }
    if naturals.iter().any(|c| c.suit() != naturals[0].suit()) {
        return false;
    }
    let aces: Vec<usize> = (0..ranks.len()).filter(|&i| ranks[i] == 1).collect();
    (0..1u32 << aces.len()).any(|high| {
        let mut positions = ranks.clone();
        for (bit, &i) in aces.iter().enumerate() {
            if high & (1 << bit) != 0 {
                positions[i] = 14;
            }
        }
        positions.sort_unstable();
        positions.windows(2).all(|w| w[1] == w[0] + 1)
    })
}

/// A group of `len` cards with at most one joker, the joker tried as each of the 52 naturals.
fn brute_group(group: &[Card], len: usize) -> bool {
    let jokers = group.iter().filter(|c| c.is_joker()).count();
    if group.len() != len || jokers > 1 {
        return false;
    }
    let naturals: Vec<Card> = group.iter().copied().filter(|c| !c.is_joker()).collect();
    if jokers == 0 {
        return brute_natural_group(&naturals);
    }
    Card::naturals().any(|stand_in| {
        let mut all = naturals.clone();
        all.push(stand_in);
        brute_natural_group(&all)
    })
}

fn brute_lay(group: &[Card]) -> bool {
    brute_group(group, 3) || brute_group(group, 4)
}

/// The lowest deadwood over every way of putting the first card in deadwood or in a lay with 2 or 3 of
/// the others, and the rest the same way.
fn brute_deadwood(hand: &[Card]) -> u32 {
    let Some((&first, rest)) = hand.split_first() else { return 0 };
    let mut best = card_value(first) + brute_deadwood(rest);
    for mask in 0u32..1 << rest.len() {
        if !(2..=3).contains(&mask.count_ones()) {
            continue;
        }
        let mut lay = vec![first];
        let mut left = Vec::new();
        for (i, &card) in rest.iter().enumerate() {
            if mask & (1 << i) != 0 { lay.push(card) } else { left.push(card) }
        }
        if brute_lay(&lay) {
            best = best.min(brute_deadwood(&left));
        }
    }
    best
}

/// A card near `base`: ranks in a window of 4 and two suits, so that lays are common; a joker at times.
fn near_card(base: u8) -> impl Strategy<Value = Card> {
    (0u8..12, 0u8..4, 0usize..2).prop_map(move |(offset, rank, suit)| {
        if offset >= 10 {
            Card::JOKER
        } else {
            let rank = (base + rank + offset % 2 * 9).clamp(1, 13);
            Card::new(Rank::new(rank).expect("1 to 13"), [Suit::Hearts, Suit::Spades][suit])
        }
    })
}

/// A hand of `sizes` cards that the 108-card deck can hold (each natural at most twice, 4 jokers).
fn hand(sizes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Card>> {
    (1u8..=13, sizes).prop_flat_map(|(base, n)| proptest::collection::vec(near_card(base), n)).prop_filter(
        "the deck holds each natural twice and 4 jokers",
        |hand| {
            hand.iter().all(|c| {
                let copies = hand.iter().filter(|d| *d == c).count();
                copies <= if c.is_joker() { 4 } else { 2 }
            })
        },
    )
}

/// Seven cards close to a rumino: a straight flush of 7 (ace high at 14) or 7 of one rank, each card
/// at times a joker or a stray card.
fn near_rumino() -> impl Strategy<Value = Vec<Card>> {
    let card = (0u8..20, 1u8..=13, 0usize..4);
    (any::<bool>(), 1u8..=8, 0usize..4, proptest::collection::vec(card, 7)).prop_map(|(run, base, suit, noise)| {
        noise
            .into_iter()
            .enumerate()
            .map(|(i, (roll, stray_rank, stray_suit))| {
                let (rank, suit) = match roll {
                    0..=1 => return Card::JOKER,
                    2 => (stray_rank, stray_suit),
                    _ if run => ((base + i as u8 - 1) % 13 + 1, suit),
                    _ => (base, i % 4),
                };
                Card::new(Rank::new(rank).expect("1 to 13"), Suit::ALL[suit])
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// §4: the engine's lowest deadwood is the brute force's, and its grouping reaches it with real lays.
    #[test]
    fn rumino_s4_deadwood_is_the_brute_force_minimum(hand in hand(0..=8)) {
        let expected = brute_deadwood(&hand);
        prop_assert_eq!(deadwood(&hand), expected);
        let grouping = best_grouping(&hand);
        prop_assert_eq!(grouping.deadwood, expected);
        prop_assert!(grouping.lays.iter().all(|lay| brute_lay(lay)));
        prop_assert_eq!(grouping.deadwood_cards.iter().map(|&c| card_value(c)).sum::<u32>(), expected);
        let mut regrouped: Vec<Card> = grouping.lays.concat();
        regrouped.extend(&grouping.deadwood_cards);
        regrouped.sort();
        let mut sorted = hand.clone();
        sorted.sort();
        prop_assert_eq!(regrouped, sorted);
    }

    /// §3: a lay is what the brute force calls one.
    #[test]
    fn rumino_s3_lays_are_the_brute_force_lays(group in hand(3..=4)) {
        prop_assert_eq!(is_lay(&group), brute_lay(&group));
        // The crate's shared meld check, with Rumino's rules, agrees.
        prop_assert_eq!(is_lay(&group), forms_group(&group, &MeldRules::RUMINO_LAY));
    }

    /// §3.4: a rumino is what the brute force calls one.
    #[test]
    fn rumino_s3_4_ruminos_are_the_brute_force_ruminos(group in prop_oneof![hand(7..=7), near_rumino()]) {
        prop_assert_eq!(is_rumino(&group), brute_group(&group, 7));
        prop_assert_eq!(is_rumino(&group), forms_group(&group, &MeldRules::RUMINO_SEVEN));
    }
}

/// The generators reach what the properties are about: hands with lays, gin hands, ruminos.
#[test]
fn the_generators_reach_lays_gins_and_ruminos() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut grouped, mut gins, mut ruminos) = (0, 0, 0);
    for _ in 0..2000 {
        let h = hand(7..=7).new_tree(&mut runner).expect("a hand").current();
        grouped += usize::from(deadwood(&h) < h.iter().map(|&c| card_value(c)).sum::<u32>());
        gins += usize::from(deadwood(&h) == 0);
        let r = near_rumino().new_tree(&mut runner).expect("a hand").current();
        ruminos += usize::from(is_rumino(&r));
    }
    assert!(grouped > 500 && gins > 5 && ruminos > 200, "{grouped} {gins} {ruminos}");
}

#[test]
fn rumino_s3_1_sets_may_repeat_suits() {
    assert!(is_lay(&cards("7h 7h 7s")), "§11.5: 7h 7h 7s is a lay");
    assert!(is_lay(&cards("7h 7s 7d 7c")));
    assert!(is_lay(&cards("7h 7s X")));
    assert!(!is_lay(&cards("7h 7s")), "a lay holds 3 or 4 cards");
    assert!(!is_lay(&cards("7h 7s 7d 7c 7h")), "a lay holds 3 or 4 cards");
}

#[test]
fn rumino_s11_6_straight_flushes_with_aces_low_or_high_no_wrap() {
    assert!(is_lay(&cards("Jh Qh Kh Ah")), "J-Q-K-A");
    assert!(is_lay(&cards("Ah 2h 3h")), "A-2-3");
    assert!(is_lay(&cards("Qh Kh Ah")));
    assert!(!is_lay(&cards("Kh Ah 2h")), "K-A-2 does not wrap around");
    assert!(!is_lay(&cards("Kh X 2h")), "K-?-2 does not wrap around either");
    assert!(!is_lay(&cards("7h 8h 9s")), "one suit");
    assert!(!is_lay(&cards("7h 7h 8h")), "each position once");
    assert!(is_lay(&cards("7h X 9h")), "a joker fills a gap");
    assert!(is_lay(&cards("Qh Kh X")), "a joker extends an end");
    assert_eq!(deadwood(&cards("Ah 5s 9c")), 1 + 5 + 9, "an ace in deadwood is worth 1");
}

#[test]
fn rumino_s11_5_a_lay_holds_at_most_one_joker() {
    assert!(!is_lay(&cards("7h X X")), "a lay with two jokers is not a lay");
    assert!(!is_lay(&cards("7h 8h X X")));
    // 7h 8h X X: one joker makes 7h-8h-X a lay, the other is deadwood worth 10.
    assert_eq!(deadwood(&cards("7h 8h X X")), 10);
}

#[test]
fn rumino_s4_card_values() {
    let values: Vec<u32> = cards("Ah 2h 9c 10d Js Qh Kc X").into_iter().map(card_value).collect();
    assert_eq!(values, vec![1, 2, 9, 10, 10, 10, 10, 10]);
    assert_eq!(deadwood(&cards("Ah 5s 9c Kd X")), 1 + 5 + 9 + 10 + 10, "a hand without a lay counts every card");
}

#[test]
fn rumino_s11_4_the_best_grouping_wins() {
    let hand = cards("7h 8h 9h 9s 9d 9c Kd");
    assert_eq!(deadwood(&hand), 10, "7h-8h-9h and 9s-9d-9c leave Kd");
    let grouping = best_grouping(&hand);
    assert_eq!(grouping.deadwood_cards, cards("Kd"));
    // The set of four 9s would leave 7h 8h Kd: 25.
    assert_eq!(deadwood(&cards("7h 8h Kd")), 25);
}

#[test]
fn rumino_s4_gin_hand_is_a_4_and_a_3() {
    assert_eq!(deadwood(&cards("5h 6h 7h 8h Qs Qd Qc")), 0, "§11.3: 4 + 3");
    assert_eq!(deadwood(&cards("5h 6h 7h Qs Qd Qc 2c")), 2, "§11.3: 3 + 3 + one card is not gin");
}

#[test]
fn rumino_s3_4_ruminos() {
    assert!(is_rumino(&cards("3s 4s 5s 6s 7s 8s 9s")));
    assert!(is_rumino(&cards("8s 9s 10s Js Qs Ks As")), "ace high");
    assert!(is_rumino(&cards("As 2s 3s 4s 5s 6s 7s")), "ace low");
    assert!(!is_rumino(&cards("Ks As 2s 3s 4s 5s 6s")), "no wrap-around");
    assert!(is_rumino(&cards("9h 9h 9s 9s 9d 9d 9c")), "7 of one rank");
    assert!(is_rumino(&cards("9h 9h 9s 9s 9d X 9c")), "§11.8: one joker");
    assert!(is_rumino(&cards("3s 4s X 6s 7s 8s 9s")), "§11.8: one joker");
    assert!(!is_rumino(&cards("3s 4s X 6s 7s X 9s")), "§11.8: not with two jokers");
    assert!(!is_rumino(&cards("9h 9h 9s 9s X X 9c")), "§11.8: not with two jokers");
    // Seven of eight: the rumino leaves out the odd card.
    assert_eq!(find_rumino(&cards("Kd 3s 4s 5s 6s 7s 8s 9s"), None), Some(cards("3s 4s 5s 6s 7s 8s 9s")));
    assert_eq!(find_rumino(&cards("Kd 3s 4s 5s 6s 7s 8s 9s"), Some(cards("Kd")[0])), None);
}
