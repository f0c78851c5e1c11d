//! Each count and each decoded position held to the list it stands for.

use super::*;
use crate::player::RandomPlayer;

#[test]
fn discards_are_counted_and_found_as_listed() {
    let mut rng = crate::random::GameRng::from_seed(8);
    let deck: Vec<Card> = Cards::full_deck().iter().collect();
    for round in 0..3000 {
        // Hands of 0 to 16 cards; every other one drawn from few kinds, so that copies repeat.
        let few = round % 2 == 0;
        let hand: Cards =
            (0..rng.below(17)).map(|_| if few { deck[rng.below(14)] } else { deck[rng.below(deck.len())] }).collect();
        let sorted: Vec<Card> = hand.iter().collect();
        for size in 0..SUB_MULTISET_SIZES {
            let mut listed = Vec::new();
            for_each_sub_multiset(&sorted, size, &mut |cards| listed.push(cards));
            let multisets = SubMultisets::new(&hand, size).expect("a size it works for");
            assert_eq!(multisets.count(), listed.len(), "{hand:?} {size}");
            for (n, cards) in listed.iter().enumerate() {
                assert_eq!(multisets.nth(n), *cards, "{hand:?} {size} {n}");
            }
        }
        assert!(SubMultisets::new(&hand, SUB_MULTISET_SIZES).is_none());
    }
}

#[test]
fn the_split_table_counts_and_finds_what_is_listed() {
    for group in 0..4096 {
        for quota in 0..=8 {
            let mut listed = 0;
            for_each_split(held(group), quota, |split| {
                assert_eq!(nth_split(split_table(), group, quota, listed), split);
                listed += 1;
                true
            });
            assert_eq!(usize::from(split_table()[group][usize::from(quota)]), listed, "group {group:o} quota {quota}");
        }
    }
}

/// The takes as the first version listed them, card by card over the sorted market: the order
/// `legal_takes` keeps.
fn takes_card_by_card(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> Vec<Action> {
    let mut cards: Vec<Card> = market.iter().flatten().copied().collect();
    cards.sort_unstable();
    let mut actions = Vec::new();
    let one = |card: Card| Cards::EMPTY.with(card);
    for i in 0..cards.len() {
        if i > 0 && cards[i] == cards[i - 1] {
            continue;
        }
        let a = cards[i];
        actions.push(Action::Take { cards: one(a) });
        for j in i + 1..cards.len() {
            if j > i + 1 && cards[j] == cards[j - 1] {
                continue;
            }
            let b = cards[j];
            let (same_number, same_suit) = (a.number() == b.number(), a.suit() == b.suit());
            if !same_number && !same_suit {
                continue;
            }
            let pair = one(a).with(b);
            actions.push(Action::Take { cards: pair });
            for k in j + 1..cards.len() {
                if k > j + 1 && cards[k] == cards[k - 1] {
                    continue;
                }
                let c = cards[k];
                if (same_number && c.number() == a.number()) || (same_suit && c.suit() == a.suit()) {
                    actions.push(Action::Take { cards: pair.with(c) });
                }
            }
        }
    }
    actions
}

#[test]
fn kinds_in_counts_the_bits_of_every_set_of_kinds() {
    for set in 0..1u32 << 20 {
        assert_eq!(kinds_in(set), set.count_ones() as usize, "{set:#x}");
    }
}

#[test]
fn takes_are_counted_and_found_as_listed() {
    let mut rng = crate::random::GameRng::from_seed(5);
    let deck: Vec<Card> = Cards::full_deck().iter().collect();
    for round in 0..20_000 {
        // Markets of 0 to 6 cards; every fourth one drawn from few kinds, so that copies repeat.
        let few = round % 4 == 0;
        let market: [Option<Card>; NUMBER_MARKET_SLOTS] = std::array::from_fn(|_| {
            (rng.below(7) > 0).then(|| if few { deck[rng.below(12)] } else { deck[rng.below(deck.len())] })
        });
        let mut listed = Vec::new();
        legal_takes(&market, &mut listed);
        assert_eq!(listed, takes_card_by_card(&market), "{market:?}");
        let kinds = market_kinds(&market);
        assert_eq!(take_count(kinds), listed.len(), "{market:?}");
        let (table_kinds, table_count) = market_takes(&market);
        assert_eq!(table_count, listed.len(), "{market:?}");
        let sets = |k: MarketKinds| (k.present, k.pairs, k.triples);
        assert_eq!(sets(table_kinds), sets(kinds), "{market:?}");
        for (at, action) in listed.iter().enumerate() {
            assert_eq!(take_at(kinds, at).map(|cards| Action::Take { cards }), Some(*action));
        }
        assert_eq!(take_at(kinds, listed.len()), None);
    }
}

#[test]
fn the_action_at_an_index_is_the_listed_one() {
    let mut checked = 0;
    for seed in 0..150 {
        let mut game = Game::new(2 + (seed % 3) as usize, seed).expect("2 to 4 players");
        let mut player = RandomPlayer::new(seed);
        let mut buffer = Vec::new();
        let mut memos = [StepMemo::default(), StepMemo::default()];
        while let Some(seat) = game.to_act() {
            let every = game.legal_actions(seat);
            let moves: Vec<Action> = every.iter().copied().filter(|action| *action != Action::TakeBack).collect();
            for (take_backs, listed) in [(true, &every), (false, &moves)] {
                let memo = &mut memos[usize::from(take_backs)];
                for (index, action) in listed.iter().enumerate() {
                    let mut asked = None;
                    let at = game.legal_action_at(seat, &mut buffer, &mut StepMemo::default(), take_backs, |count| {
                        asked = Some(count);
                        index
                    });
                    assert_eq!(asked, Some(listed.len()), "the count is the list's length");
                    assert_eq!(at, Some(*action));
                    // The memo kept over the whole game, as the random player keeps it, gives the same.
                    let kept = game.legal_action_at(seat, &mut buffer, memo, take_backs, |count| {
                        assert_eq!(count, listed.len());
                        index
                    });
                    assert_eq!(kept, Some(*action));
                    checked += 1;
                }
                let other = Seat((seat.0 + 1) % game.players() as u8);
                assert_eq!(game.legal_action_at(other, &mut buffer, memo, take_backs, |_| 0), None);
            }
            let action = player.choose(&game).expect("the game goes on");
            game.apply(seat, &action).expect("chosen actions are legal");
        }
    }
    assert!(checked > 20_000, "{checked}");
}
