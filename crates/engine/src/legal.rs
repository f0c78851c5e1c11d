//! Every distinct legal action of the player to act.
//!
//! [`Game::check`] is the one definition of legality; the lists built here enumerate candidates that
//! the rules allow, and a property test holds the two together: an action is listed exactly when
//! `check` accepts it. Actions are distinct as multisets of cards, since copies are interchangeable (§1.1).
//!
//! The enumeration is on the hot path of every bot and simulation, so it generates each distinct
//! multiset once instead of generating with repeats and removing them.

use crate::action::{Action, Phase, Seat, TurnStep};
use crate::cards::{Card, Cards, Suit};
use crate::contracts::ContractId;
use crate::game::{Game, HAND_LIMIT};

/// Calls `found` with every distinct sub-multiset of `sorted` (cards in ascending order) of `min` to
/// `max` cards (`max` at most 3) for which `fits` holds. `fits` must hold for every part of a set it
/// holds for, so that a prefix that does not fit is not extended.
fn for_each_combination(
    sorted: &[Card],
    min: usize,
    max: usize,
    fits: impl Fn(&[Card]) -> bool,
    mut found: impl FnMut(Cards),
) {
    struct Search<'a, F, G> {
        sorted: &'a [Card],
        min: usize,
        max: usize,
        chosen: [Card; 3],
        cards: Cards,
        fits: F,
        found: G,
    }
    impl<F: Fn(&[Card]) -> bool, G: FnMut(Cards)> Search<'_, F, G> {
        fn pick(&mut self, from: usize, depth: usize) {
            if depth >= self.min {
                (self.found)(self.cards);
            }
            if depth == self.max {
                return;
            }
            for i in from..self.sorted.len() {
                // Choosing an equal card at the same depth would give the same multiset again.
                if i > from && self.sorted[i] == self.sorted[i - 1] {
                    continue;
                }
                self.chosen[depth] = self.sorted[i];
                if !(self.fits)(&self.chosen[..=depth]) {
                    continue;
                }
                self.cards.add(self.sorted[i]);
                self.pick(i + 1, depth + 1);
                self.cards.remove(self.sorted[i]);
            }
        }
    }
    let max = max.min(3);
    let mut search =
        Search { sorted, min, max, chosen: [Card::from_index(0); 3], cards: Cards::EMPTY, fits, found: &mut found };
    search.pick(0, 0);
}

/// §3 step 1: every distinct multiset of 1 to 3 market cards that share a number or a suit.
fn legal_takes(market: &Cards, actions: &mut Vec<Action>) {
    let mut sorted = [Card::from_index(0); 6];
    let mut len = 0;
    for card in market.iter().take(6) {
        sorted[len] = card;
        len += 1;
    }
    for_each_combination(&sorted[..len], 1, 3, one_number_or_suit, |cards| actions.push(Action::Take { cards }));
}

/// Whether the cards share one number or one suit (§3 step 1).
fn one_number_or_suit(cards: &[Card]) -> bool {
    let first = cards[0];
    cards.iter().all(|c| c.number() == first.number()) || cards.iter().all(|c| c.suit() == first.suit())
}

/// Calls `found` with every way to choose `quota` cards of one number from a hand that holds `held[s]`
/// cards of that number in suit `s`: how many of each suit to take.
fn for_each_suit_split(held: [u8; 4], quota: u8, mut found: impl FnMut([u8; 4])) {
    for a in 0..=held[0].min(quota) {
        for b in 0..=held[1].min(quota - a) {
            for c in 0..=held[2].min(quota - a - b) {
                let d = quota - a - b - c;
                if d <= held[3] {
                    found([a, b, c, d]);
                }
            }
        }
    }
}

impl Game {
    /// Every distinct legal action of `seat` now; empty when it is not that seat's turn.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(seat, &mut actions);
        actions
    }

    /// Like [`Game::legal_actions`], into a buffer the caller reuses (it is cleared first).
    pub fn legal_actions_into(&self, seat: Seat, actions: &mut Vec<Action>) {
        actions.clear();
        let Phase::Playing { seat: to_act, step } = self.phase else { return };
        if seat != to_act {
            return;
        }
        match step {
            TurnStep::Take => legal_takes(&self.number_market_cards(), actions),
            TurnStep::Contracts => {
                if self.can_take_back() {
                    actions.push(Action::TakeBack);
                }
                self.legal_completions(seat, actions);
                actions.push(Action::Pass);
            }
            TurnStep::Discard => {
                let hand = self.seats[seat.index()].hand;
                let sorted: Vec<Card> = hand.iter().collect();
                let excess = hand.len().saturating_sub(HAND_LIMIT);
                for_each_combination(
                    &sorted,
                    excess,
                    excess,
                    |_| true,
                    |cards| actions.push(Action::Discard { cards }),
                );
            }
        }
    }

    /// §3 step 2: every distinct way to fill each contract of the market, with and without the Star.
    fn legal_completions(&self, seat: Seat, actions: &mut Vec<Action>) {
        let state = &self.seats[seat.index()];
        let hand = state.hand;
        let numbers = hand.number_counts();
        let packed_hand = crate::contracts::pack_numbers(numbers);
        let mut held = [[0u8; 4]; 5];
        for (number, suits) in held.iter_mut().enumerate() {
            for (suit, count) in suits.iter_mut().enumerate() {
                *count = hand.count(Card::from_index(number * 4 + suit));
            }
        }
        let held_cards = hand.len();
        for contract in self.contract_market.iter().flatten().copied() {
            let needed = usize::from(contract.contract().card_count());
            for star in [false, true] {
                if (star && state.star_used) || held_cards + usize::from(star) < needed {
                    continue;
                }
                for pattern in contract.patterns_within(star, packed_hand) {
                    fill(contract, star, pattern, &held, 0, Cards::EMPTY, actions);
                }
            }
        }
    }
}

/// Pushes every way to take `pattern[k]` cards of each number `k + 1`, from number `number` on, added
/// to `chosen`, as a completion of `contract`.
fn fill(
    contract: ContractId,
    star: bool,
    pattern: &[u8; 5],
    held: &[[u8; 4]; 5],
    number: usize,
    chosen: Cards,
    actions: &mut Vec<Action>,
) {
    let Some(next) = (number..5).find(|&k| pattern[k] > 0) else {
        actions.push(Action::Complete { contract, cards: chosen, star });
        return;
    };
    for_each_suit_split(held[next], pattern[next], |split| {
        let mut cards = chosen;
        for (suit, n) in Suit::ALL.into_iter().zip(split) {
            if n > 0 {
                cards.add_n(Card::from_index(next * 4 + suit.index()), n);
            }
        }
        fill(contract, star, pattern, held, next + 1, cards, actions);
    });
}
