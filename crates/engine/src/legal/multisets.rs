//! Distinct sub-multisets of a hand: listed once each (§1.1: copies are interchangeable), and counted
//! and found by position without listing them (the discards of §3 step 4).

use crate::cards::{CARD_KINDS, Card, Cards};

/// Calls `found` with every distinct sub-multiset of `size` cards of `sorted` (cards in ascending
/// order). An equal card is not chosen twice at the same place, so each multiset comes once.
pub(super) fn for_each_sub_multiset(sorted: &[Card], size: usize, found: &mut impl FnMut(Cards)) {
    pub(super) fn pick(sorted: &[Card], from: usize, left: usize, cards: Cards, found: &mut impl FnMut(Cards)) {
        if left == 0 {
            found(cards);
            return;
        }
        for i in from..sorted.len() {
            if i > from && sorted[i] == sorted[i - 1] {
                continue;
            }
            pick(sorted, i + 1, left - 1, cards.with(sorted[i]), found);
        }
    }
    pick(sorted, 0, size, Cards::EMPTY, found);
}

/// The distinct multisets of `size` cards of a hand, counted and found by position in the order
/// [`for_each_sub_multiset`] lists them without listing them (the discards of §3 step 4).
///
/// `ways[i][j]` is how many multisets of `j` cards the kinds from `i` on hold; a multiset's first card
/// (its lowest kind) is then chosen kind by kind, as the listing does, skipping the multisets that start
/// with each lower kind.
pub(super) struct SubMultisets {
    counts: [u8; CARD_KINDS],
    size: usize,
    ways: [[u32; SUB_MULTISET_SIZES]; CARD_KINDS + 1],
}

/// The sizes [`SubMultisets`] works for: 0 to 3 cards. A discard is of 3 cards at most (a hand of
/// at most 10 takes at most 3 cards), and larger sizes are listed instead.
pub(super) const SUB_MULTISET_SIZES: usize = 4;

impl SubMultisets {
    /// `None` when `size` is more than [`SubMultisets`] works for.
    pub(super) fn new(hand: &Cards, size: usize) -> Option<SubMultisets> {
        if size >= SUB_MULTISET_SIZES {
            return None;
        }
        let counts = hand.counts();
        let mut ways = [[0u32; SUB_MULTISET_SIZES]; CARD_KINDS + 1];
        ways[CARD_KINDS][0] = 1;
        // The row above, kept in registers from one kind to the next rather than read back from `ways`
        // just after it was written (a read that the element-wise writes cannot be forwarded to). The
        // one way to take no card, `a0`, stays 1.
        let [a0, mut a1, mut a2, mut a3] = ways[CARD_KINDS];
        for kind in (0..CARD_KINDS).rev() {
            let held = counts[kind];
            if held > 0 {
                // here[j] = above[j] + ... + above[j - min(held, j)], from here[j - 1]: the term
                // above[j - 1 - held] leaves the window when held < j.
                let h1 = a1 + a0;
                let h2 = a2 + h1 - if held == 1 { a0 } else { 0 };
                let h3 = a3 + h2
                    - match held {
                        1 => a1,
                        2 => a0,
                        _ => 0,
                    };
                (a1, a2, a3) = (h1, h2, h3);
            }
            ways[kind] = [a0, a1, a2, a3];
        }
        Some(SubMultisets { counts, size, ways })
    }

    pub(super) fn count(&self) -> usize {
        self.ways[0][self.size] as usize
    }

    /// The multisets of `left` cards from the kinds above `kind` plus `held` copies of `kind`.
    pub(super) fn starting_at(&self, kind: usize, held: u8, left: usize) -> u32 {
        (0..=left.min(usize::from(held))).map(|t| self.ways[kind + 1][left - t]).sum()
    }

    /// The multiset at position `n` (below [`SubMultisets::count`]).
    pub(super) fn nth(&self, mut n: usize) -> Cards {
        let mut counts = self.counts;
        let mut cards = Cards::EMPTY;
        let mut lowest = 0;
        for left in (0..self.size).rev() {
            // The next card: the first kind from `lowest` on whose multisets reach position `n`.
            for (kind, held) in counts.iter_mut().enumerate().skip(lowest) {
                if *held == 0 {
                    continue;
                }
                let starting = self.starting_at(kind, *held - 1, left) as usize;
                if n < starting {
                    *held -= 1;
                    cards.add_n(Card::from_index(kind), 1);
                    lowest = kind;
                    break;
                }
                n -= starting;
            }
        }
        cards
    }
}
