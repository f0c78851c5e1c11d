//! The searches as they were before `candidates.rs` (each meld checked by the shared rules, a `Vec` per
//! candidate; a search for the best opening, then one for any): the reference that the faster ones must
//! match exactly, candidate for candidate and opening for opening, on random hands. The strong bot plays
//! out with the normal bot, so any difference would change its decisions.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::super::actions::MeldCards;
use super::super::candidates;
use super::super::cardkit::Hand;
use super::super::melds::{RULES, is_pure_run, meld_value, position_value};
use super::super::options::Opening;
use super::super::search::{self, OpeningGoal, Want, run_card};
use crate::cards::{Card, DeckSpec, RummyRng, Suit};
use crate::melds::{JokerFor, Meld, MeldId};
use crate::seat::Seat;

/// A meld a hand can make, with what the opening rule needs to know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Candidate {
    meld: MeldCards,
    /// Its value in a meld (rami §4).
    value: u32,
    /// A run without a joker (rami §6).
    pure_run: bool,
}

/// The most a card can be worth in a meld (rami §4): an upper bound for pruning.
fn best_value(card: Card) -> u32 {
    match card.rank() {
        None => 11,
        Some(rank) if rank.is_ace() => 11,
        Some(rank) => position_value(rank.number()),
    }
}

/// Checks `cards` as a new meld and lists it.
fn push_meld(out: &mut Vec<Candidate>, cards: Vec<Card>, joker: Option<JokerFor>) {
    if let Ok(meld) = Meld::new(MeldId(0), Seat(0), &cards, joker, RULES) {
        out.push(Candidate {
            value: meld_value(&meld),
            pure_run: is_pure_run(&meld),
            meld: MeldCards { cards, joker },
        });
    }
}

/// Every meld `hand` can make: each set of 3 or 4 suits of a rank (with a joker for one of them or
/// not), each run over each stretch of positions (all naturals, or a joker in one position).
fn candidate_melds(hand: &Hand) -> Vec<Candidate> {
    let joker = hand.count(Card::JOKER) > 0;
    let mut out = Vec::new();
    for rank in 1..=13u8 {
        let present: Vec<Card> =
            Suit::ALL.iter().map(|&suit| run_card(suit, rank)).filter(|&card| hand.count(card) > 0).collect();
        for mask in 1u32..(1 << present.len()) {
            let chosen: Vec<Card> =
                present.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &c)| c).collect();
            if chosen.len() >= 3 {
                push_meld(&mut out, chosen.clone(), None);
            }
            if joker && (2..=3).contains(&chosen.len()) {
                let rank = chosen[0].rank().map(JokerFor::Rank);
                push_meld(&mut out, [chosen, vec![Card::JOKER]].concat(), rank);
            }
        }
    }
    for suit in Suit::ALL {
        let aces = hand.count(run_card(suit, 1));
        for low in 1..=12u8 {
            let mut gap: Option<u8> = None;
            for high in low..=14u8 {
                let available = match (low, high) {
                    (1, 14) => aces >= 2,
                    _ => hand.count(run_card(suit, high)) > 0,
                };
                if !available {
                    if gap.is_some() || !joker {
                        break;
                    }
                    gap = Some(high);
                }
                if high - low < 2 {
                    continue;
                }
                let naturals = |except: u8| -> Vec<Card> {
                    (low..=high).filter(|&p| p != except).map(|p| run_card(suit, p)).collect()
                };
                let with_joker = |at: u8| {
                    let mut cards = naturals(at);
                    cards.push(Card::JOKER);
                    (cards, Some(JokerFor::Card(run_card(suit, at))))
                };
                match gap {
                    Some(at) => {
                        let (cards, stated) = with_joker(at);
                        push_meld(&mut out, cards, stated);
                    }
                    None => {
                        push_meld(&mut out, naturals(0), None);
                        if joker {
                            for at in low..=high {
                                let (cards, stated) = with_joker(at);
                                push_meld(&mut out, cards, stated);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Nodes a search for the best opening visits at most: the bot's choice only, never legality.
const BEST_NODE_LIMIT: usize = 40_000;

/// How many reference searches stopped at the node limit (the test asserts some do).
static LIMITED: AtomicUsize = AtomicUsize::new(0);

struct Dfs<'a> {
    candidates: &'a [Candidate],
    /// Whether a pure run is among the candidates from each index on (one more entry, `false`, at the end).
    pure_from: Vec<bool>,
    /// Whether a candidate holding the `must` card is among the candidates from each index on.
    must_from: Vec<bool>,
    goal: OpeningGoal,
    best: bool,
    must_before: u8,
    found: Option<((usize, u32), Vec<usize>)>,
    nodes: usize,
}

impl Dfs<'_> {
    /// Explores openings of `chosen` and later candidates; true to stop the whole search.
    fn go(&mut self, start: usize, left: &mut Hand, chosen: &mut Vec<usize>, state: (u32, bool, usize, u32)) -> bool {
        let (value, pure, used, bound) = state;
        self.nodes += 1;
        let must_ok = self.goal.must.is_none_or(|card| left.count(card) < self.must_before);
        let pure_ok = pure || !self.goal.opening.needs_pure_run();
        if value >= self.goal.opening.threshold() && pure_ok && must_ok && used <= self.goal.max_cards {
            if !self.best {
                self.found = Some(((used, value), chosen.clone()));
                return true;
            }
            if self.found.as_ref().is_none_or(|(key, _)| (used, value) > *key) {
                self.found = Some(((used, value), chosen.clone()));
            }
        }
        if self.best && self.nodes > BEST_NODE_LIMIT {
            LIMITED.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        // Even every card left laid at its best value would not reach the threshold; or what the
        // opening still needs (a pure run, the taken card) is in no candidate left.
        if value + bound < self.goal.opening.threshold()
            || (!pure_ok && !self.pure_from[start])
            || (!must_ok && !self.must_from[start])
        {
            return false;
        }
        for i in start..self.candidates.len() {
            let candidate = &self.candidates[i];
            let cards = &candidate.meld.cards;
            if used + cards.len() > self.goal.max_cards || !left.contains_all(cards) {
                continue;
            }
            left.remove_all(cards);
            chosen.push(i);
            let laid: u32 = cards.iter().map(|&c| best_value(c)).sum();
            let next = (value + candidate.value, pure || candidate.pure_run, used + cards.len(), bound - laid);
            let stop = self.go(i, left, chosen, next);
            chosen.pop();
            for &card in cards {
                left.add(card);
            }
            if stop {
                return true;
            }
        }
        false
    }
}

/// An opening from `hand` that meets `goal`: any one, or (with `best`) the one laying the most cards,
/// then the most points, found within a bounded search.
fn find_opening(hand: &Hand, goal: OpeningGoal, best: bool) -> Option<Vec<MeldCards>> {
    let mut candidates = candidate_melds(hand);
    // Pure runs first, then the most valuable: the first openings tried are the likeliest to qualify.
    candidates.sort_by_key(|c| (!c.pure_run, std::cmp::Reverse(c.value)));
    let suffix = |test: &dyn Fn(&Candidate) -> bool| -> Vec<bool> {
        let mut flags = vec![false; candidates.len() + 1];
        for i in (0..candidates.len()).rev() {
            flags[i] = flags[i + 1] || test(&candidates[i]);
        }
        flags
    };
    let pure_from = suffix(&|c| c.pure_run);
    let must_from = suffix(&|c| goal.must.is_some_and(|card| c.meld.contains(card)));
    let mut dfs = Dfs {
        candidates: &candidates,
        pure_from,
        must_from,
        goal,
        best,
        must_before: goal.must.map_or(0, |card| hand.count(card)),
        found: None,
        nodes: 0,
    };
    let bound = hand.cards().iter().map(|&c| best_value(c)).sum();
    dfs.go(0, &mut hand.clone(), &mut Vec::new(), (0, false, 0, bound));
    let (_, chosen) = dfs.found?;
    Some(chosen.into_iter().map(|i| candidates[i].meld.clone()).collect())
}

/// A hand of up to 16 cards of the double deck: from the whole deck, or from one or two suits (long
/// runs, aces at both ends), a whole suit and a few more (a run from the ace to the king), or both
/// copies of a stretch.
fn random_hand(rng: &mut RummyRng) -> Hand {
    let mut pool: Vec<Card> = DeckSpec::DOUBLE.cards();
    let suit = |rng: &mut RummyRng| Suit::ALL[rng.below(4)];
    match rng.below(5) {
        0 => {}
        4 => {
            // Both copies of a stretch of one suit, and jokers: hundreds of overlapping runs, searches
            // long enough to reach the node limit.
            let (all, low) = (suit(rng), 1 + rng.below(7) as u8);
            let stretch = (low..low + 7).map(|p| run_card(all, p));
            let jokers = std::iter::repeat_n(Card::JOKER, rng.below(3));
            return Hand::from_cards(&stretch.clone().chain(stretch).chain(jokers).collect::<Vec<_>>());
        }
        1 => {
            let only = suit(rng);
            pool.retain(|c| c.suit().is_none_or(|s| s == only));
        }
        2 => {
            let (a, b) = (suit(rng), suit(rng));
            pool.retain(|c| c.suit().is_none_or(|s| s == a || s == b));
        }
        _ => {
            let all = suit(rng);
            let mut hand: Vec<Card> = (1..=13).map(|p| run_card(all, p)).collect();
            for _ in 0..rng.below(3) {
                hand.push(pool[rng.below(pool.len())]);
            }
            return Hand::from_cards(&hand);
        }
    }
    rng.shuffle(&mut pool);
    Hand::from_cards(&pool[..1 + rng.below(16)])
}

#[test]
fn candidates_and_openings_match_the_reference() {
    let mut rng = RummyRng::from_seed(2026);
    let mut openings = 0;
    for _ in 0..1_500 {
        let hand = random_hand(&mut rng);
        let fast: Vec<Candidate> = candidates::candidate_melds(&hand)
            .iter()
            .map(|c| Candidate { meld: c.meld(), value: c.value, pure_run: c.pure_run })
            .collect();
        assert_eq!(fast, candidate_melds(&hand), "{hand:?}");
        let cards = hand.cards();
        for opening in [Opening::Rami51, Opening::Rami30] {
            for must in [None, cards.first().copied(), cards.last().copied()] {
                for max_cards in [hand.len().saturating_sub(1), hand.len().saturating_sub(4)] {
                    let goal = OpeningGoal { opening, must, max_cards };
                    let any = find_opening(&hand, goal, false);
                    let best = find_opening(&hand, goal, true);
                    openings += usize::from(any.is_some());
                    assert_eq!(search::find_opening(&hand, goal, Want::Any), any, "{hand:?} {goal:?}");
                    assert_eq!(search::find_opening(&hand, goal, Want::Best), best, "{hand:?} {goal:?}");
                    let either = best.or_else(|| find_opening(&hand, goal, false));
                    assert_eq!(search::find_opening(&hand, goal, Want::BestOrAny), either, "{hand:?} {goal:?}");
                }
            }
        }
    }
    assert!(openings > 500, "the hands open often enough to test the openings: {openings}");
    let limited = LIMITED.load(Ordering::Relaxed);
    assert!(limited > 3, "some searches for the best opening stop at the node limit: {limited}");
}
