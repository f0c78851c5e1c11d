//! Every distinct legal action of the player to act.
//!
//! [`Game::check`] is the one definition of legality; the lists built here enumerate candidates that
//! the rules allow, and a property test holds the two together: an action is listed exactly when
//! `check` accepts it. Actions are distinct as multisets of cards, since copies are interchangeable (§1.1).

use crate::action::{Action, Phase, Seat, TurnStep};
use crate::cards::{CARD_KINDS, Card, Cards, Suit};
use crate::game::{Game, HAND_LIMIT};

/// Calls `found` with every distinct multiset drawn from `available` such that, for each group `g`,
/// exactly `quota[g]` cards come from kinds `k` with `group[k] == g` (kinds in group `NONE` are never
/// drawn).
fn for_each_pick(
    available: &[u8; CARD_KINDS],
    group: &[u8; CARD_KINDS],
    mut quota: [u8; 5],
    mut found: impl FnMut(Cards),
) {
    let mut picked = Cards::EMPTY;
    pick_from(available, group, &mut quota, &mut picked, 0, &mut found);
}

fn pick_from(
    available: &[u8; CARD_KINDS],
    group: &[u8; CARD_KINDS],
    quota: &mut [u8; 5],
    picked: &mut Cards,
    kind: usize,
    found: &mut impl FnMut(Cards),
) {
    if kind == CARD_KINDS {
        if quota.iter().all(|&q| q == 0) {
            found(*picked);
        }
        return;
    }
    let g = group[kind];
    if g == NONE || quota[usize::from(g)] == 0 {
        pick_from(available, group, quota, picked, kind + 1, found);
        return;
    }
    let g = usize::from(g);
    let card = Card::from_index(kind);
    let most = available[kind].min(quota[g]);
    for n in 0..=most {
        quota[g] -= n;
        picked.add_n(card, n);
        pick_from(available, group, quota, picked, kind + 1, found);
        picked.remove_n(card, n);
        quota[g] += n;
    }
}

const NONE: u8 = u8::MAX;

/// Groups cards by number: group `n - 1` for number `n`.
const BY_NUMBER: [u8; CARD_KINDS] = {
    let mut group = [0; CARD_KINDS];
    let mut k = 0;
    while k < CARD_KINDS {
        group[k] = (k / 4) as u8;
        k += 1;
    }
    group
};

/// Groups cards by suit: group `s` for suit index `s`.
const BY_SUIT: [u8; CARD_KINDS] = {
    let mut group = [0; CARD_KINDS];
    let mut k = 0;
    while k < CARD_KINDS {
        group[k] = (k % 4) as u8;
        k += 1;
    }
    group
};

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
            TurnStep::Take => self.legal_takes(actions),
            TurnStep::Contracts => {
                if self.can_take_back() {
                    actions.push(Action::TakeBack);
                }
                self.legal_completions(seat, actions);
                actions.push(Action::Pass);
            }
            TurnStep::Discard => {
                let hand = self.seats[seat.index()].hand;
                let excess = hand.len().saturating_sub(HAND_LIMIT) as u8;
                let quota = [excess, 0, 0, 0, 0];
                for_each_pick(hand.counts(), &[0; CARD_KINDS], quota, |cards| actions.push(Action::Discard { cards }));
            }
        }
    }

    /// §3 step 1: 1 to 3 market cards of one number, or of one suit.
    fn legal_takes(&self, actions: &mut Vec<Action>) {
        let market = self.number_market_cards();
        for size in 1..=3u8 {
            for number in 0..5 {
                let mut quota = [0; 5];
                quota[number] = size;
                for_each_pick(market.counts(), &BY_NUMBER, quota, |cards| actions.push(Action::Take { cards }));
            }
            for suit in Suit::ALL {
                let mut quota = [0; 5];
                quota[suit.index()] = size;
                for_each_pick(market.counts(), &BY_SUIT, quota, |cards| {
                    // Copies of one card share a number too: they were listed with the numbers.
                    if cards.kinds().nth(1).is_some() {
                        actions.push(Action::Take { cards })
                    }
                });
            }
        }
    }

    /// §3 step 2: every distinct way to fill each contract of the market, with and without the Star.
    fn legal_completions(&self, seat: Seat, actions: &mut Vec<Action>) {
        let state = &self.seats[seat.index()];
        let numbers = state.hand.number_counts();
        for contract in self.contract_market.iter().flatten().copied() {
            for star in [false, true] {
                if star && state.star_used {
                    continue;
                }
                for pattern in contract.patterns(star) {
                    if pattern.iter().zip(numbers).any(|(&want, have)| want > have) {
                        continue;
                    }
                    let quota = *pattern;
                    for_each_pick(state.hand.counts(), &BY_NUMBER, quota, |cards| {
                        actions.push(Action::Complete { contract, cards, star })
                    });
                }
            }
        }
    }
}
