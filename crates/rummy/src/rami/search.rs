//! The searches the rules need: which melds, lay-offs and openings a hand allows. Rami §7.1 b (may the
//! discard be taken?) and §7.3 (may this joker be exchanged?) ask whether a play *could* follow, and the
//! bot and the legal summary ask which plays there are.
//!
//! A hand holds at most 15 cards before a play, so the searches are exhaustive: every meld a hand can
//! make is listed ([`candidate_melds`]), and an opening is a choice of disjoint listed melds
//! ([`find_opening`]). Every lay-off is checked by the shared meld rules before it is offered, and every
//! listed meld is built as they would accept it (`candidates.rs`, held to them by a test), so a search
//! never proposes what `check` would refuse.

use crate::cards::{Card, Suit};
use crate::melds::{JokerFor, Meld, MeldKind};

use super::actions::MeldCards;
use super::cardkit::Hand;
use super::melds::{RULES, position_value};
use super::options::Opening;

pub(crate) use super::candidates::{Candidate, candidate_melds, run_card};

/// The most a card can be worth in a meld (rami §4): an upper bound for pruning.
fn best_value(card: Card) -> u32 {
    match card.rank() {
        None => 11,
        Some(rank) if rank.is_ace() => 11,
        Some(rank) => position_value(rank.number()),
    }
}

/// What an opening must meet (rami §6, §7.1 b, §7.2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpeningGoal {
    pub(crate) opening: Opening,
    /// A card the opening must contain (the one taken from the discard pile).
    pub(crate) must: Option<Card>,
    /// The most cards it may lay: the hand's size less the one kept for the discard.
    pub(crate) max_cards: usize,
}

/// Nodes a search for the best opening visits at most: the bot's choice only, never legality.
const BEST_NODE_LIMIT: usize = 40_000;

/// Which opening a search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// The first one found: whether there is one (legality).
    Any,
    /// The one laying the most cards, then the most points, among the first [`BEST_NODE_LIMIT`] nodes.
    Best,
    /// The best one, or when those nodes hold none, the first one found after them: what a best search
    /// followed by a search for any would give, in one search (the search for any visits the same
    /// nodes first, in the same order, and would have found nothing there either).
    BestOrAny,
}

struct Dfs<'a> {
    candidates: &'a [Candidate],
    /// The most each candidate's cards could be worth (their best values): what laying it takes from
    /// the bound.
    laid: Vec<u32>,
    /// Whether a pure run is among the candidates from each index on (one more entry, `false`, at the end).
    pure_from: Vec<bool>,
    /// Whether a candidate holding the `must` card is among the candidates from each index on.
    must_from: Vec<bool>,
    goal: OpeningGoal,
    want: Want,
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
            if self.want == Want::Any {
                self.found = Some(((used, value), chosen.clone()));
                return true;
            }
            if self.found.as_ref().is_none_or(|(key, _)| (used, value) > *key) {
                self.found = Some(((used, value), chosen.clone()));
            }
        }
        if self.want != Want::Any && self.nodes > BEST_NODE_LIMIT {
            if self.want == Want::BestOrAny && self.found.is_none() {
                self.want = Want::Any;
            } else {
                return true;
            }
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
            let cards = candidate.cards();
            if used + cards.len() > self.goal.max_cards || !left.take_all(cards) {
                continue;
            }
            chosen.push(i);
            let next = (value + candidate.value, pure || candidate.pure_run, used + cards.len(), bound - self.laid[i]);
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

/// An opening from `hand` that meets `goal`, as `want` says: any one, or the one laying the most cards,
/// then the most points, found within a bounded search.
pub(crate) fn find_opening(hand: &Hand, goal: OpeningGoal, want: Want) -> Option<Vec<MeldCards>> {
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
    let must_from = suffix(&|c| goal.must.is_some_and(|card| c.contains(card)));
    let laid = candidates.iter().map(|c| c.cards().iter().map(|&card| best_value(card)).sum()).collect();
    let mut dfs = Dfs {
        candidates: &candidates,
        laid,
        pure_from,
        must_from,
        goal,
        want,
        must_before: goal.must.map_or(0, |card| hand.count(card)),
        found: None,
        nodes: 0,
    };
    let bound = hand.kinds().map(|card| best_value(card) * u32::from(hand.count(card))).sum();
    dfs.go(0, &mut hand.clone(), &mut Vec::new(), (0, false, 0, bound));
    let (_, chosen) = dfs.found?;
    Some(chosen.into_iter().map(|i| candidates[i].meld()).collect())
}

/// The lay-offs `hand` allows on `meld`: on a set, any of its missing suits (and a joker); on a run, a
/// stretch of cards at one end, naturals with at most one joker.
pub(crate) fn lay_off_options(hand: &Hand, meld: &Meld) -> Vec<MeldCards> {
    let joker = hand.count(Card::JOKER) > 0 && !meld.has_joker();
    let mut options = Vec::new();
    let mut offer = |cards: Vec<Card>, stated: Option<JokerFor>| {
        if !cards.is_empty() && meld.check_lay_off(&cards, stated, RULES).is_ok() {
            options.push(MeldCards { cards, joker: stated });
        }
    };
    match meld.kind {
        MeldKind::Set(rank) => {
            let missing: Vec<Card> = Suit::ALL
                .iter()
                .map(|&suit| Card::new(rank, suit))
                .filter(|&card| hand.count(card) > 0 && !meld.cards.iter().any(|p| p.card == card))
                .collect();
            for mask in 0u32..(1 << missing.len()) {
                let chosen: Vec<Card> =
                    missing.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &c)| c).collect();
                offer(chosen.clone(), None);
                if joker {
                    offer([chosen, vec![Card::JOKER]].concat(), Some(JokerFor::Rank(rank)));
                }
            }
        }
        MeldKind::Run(suit) => {
            let Some((low, high)) = meld.ends() else { return options };
            let upward: Vec<u8> = (high + 1..=14).collect();
            let downward: Vec<u8> = (1..low).rev().collect();
            for side in [upward, downward] {
                let mut gap: Option<u8> = None;
                for k in 1..=side.len() {
                    let position = side[k - 1];
                    if hand.count(run_card(suit, position)) == 0 {
                        if gap.is_some() || !joker {
                            break;
                        }
                        gap = Some(position);
                    }
                    let block = &side[..k];
                    let naturals = |except: u8| -> Vec<Card> {
                        block.iter().filter(|&&p| p != except).map(|&p| run_card(suit, p)).collect()
                    };
                    let with_joker =
                        |at: u8| ([naturals(at), vec![Card::JOKER]].concat(), Some(JokerFor::Card(run_card(suit, at))));
                    match gap {
                        Some(at) => {
                            let (cards, stated) = with_joker(at);
                            offer(cards, stated);
                        }
                        None => {
                            offer(naturals(0), None);
                            if joker {
                                for &at in block {
                                    let (cards, stated) = with_joker(at);
                                    offer(cards, stated);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    options
}

/// Whether `hand` allows a new meld or a lay-off (on one of `melds`) that contains `card` and leaves a
/// card in the hand.
pub(crate) fn play_with(hand: &Hand, melds: &[Meld], card: Card) -> bool {
    let max = hand.len().saturating_sub(1);
    let fits = |m: &MeldCards| m.contains(card) && m.cards.len() <= max;
    candidate_melds(hand).iter().any(|c| c.contains(card) && c.len() <= max)
        || melds.iter().any(|meld| lay_off_options(hand, meld).iter().any(fits))
}

/// Whether the top of the discard pile, `card`, may be taken into `hand` (rami §7.1 b (ii)): the
/// first play could put it on the table, leaving a card in hand — the opening for a player who has not
/// opened, a meld or a lay-off for one who has.
pub(crate) fn take_playable(hand: &Hand, melds: &[Meld], opened: bool, opening: Opening, card: Card) -> bool {
    let mut after = hand.clone();
    after.add(card);
    if opened {
        return play_with(&after, melds, card);
    }
    let goal = OpeningGoal { opening, must: Some(card), max_cards: after.len() - 1 };
    find_opening(&after, goal, Want::Any).is_some()
}
