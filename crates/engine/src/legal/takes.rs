//! §3 step 1, the takes from the number market: listed, counted from tables, and found by position.

use crate::action::Action;
use crate::cards::{BIT0, CARD_KINDS, Card, Cards};
use crate::game::NUMBER_MARKET_SLOTS;

/// §3 step 1: every distinct multiset of 1 to 3 market cards that share a number or a suit.
///
/// Listed as if the market's cards, sorted, were combined in order with an equal card never chosen
/// twice at the same place, so each multiset comes once: for each kind of card, that card alone, then
/// each pair it starts (a second copy of it first, then each later kind), each pair followed by the
/// triples it starts (a further copy of its second card first, then each later kind that the three
/// share a number or a suit with).
///
/// It works on sets of kinds, one bit per [`Card::index`]: the kinds in the market, those with two
/// copies or more, those with three or more, and per kind the kinds that share its number or its suit.
pub(super) fn legal_takes(market: &[Option<Card>; NUMBER_MARKET_SLOTS], actions: &mut Vec<Action>) {
    let MarketKinds { present, pairs, triples } = market_kinds(market);
    // The kinds above kind `x`, and `x` itself when `copies` (a set of kinds) holds it.
    let from = |x: usize, copies: u32| (present & !((2 << x) - 1)) | (copies & (1 << x));
    let mut firsts = present;
    while firsts != 0 {
        let a = firsts.trailing_zeros() as usize;
        firsts &= firsts - 1;
        let single = Cards::EMPTY.with(Card::from_index(a));
        actions.push(Action::Take { cards: single });
        let mut seconds = from(a, pairs) & SHARES_A_NUMBER_OR_SUIT[a];
        while seconds != 0 {
            let b = seconds.trailing_zeros() as usize;
            seconds &= seconds - 1;
            let mut pair = single;
            pair.add_n(Card::from_index(b), 1);
            actions.push(Action::Take { cards: pair });
            let mut thirds = from(b, if b == a { triples } else { pairs }) & shares_with(a, b);
            while thirds != 0 {
                let c = thirds.trailing_zeros() as usize;
                thirds &= thirds - 1;
                let mut triple = pair;
                triple.add_n(Card::from_index(c), 1);
                actions.push(Action::Take { cards: triple });
            }
        }
    }
}

/// How many takes [`legal_takes`] lists for a market of at most 6 cards whose kinds are
/// [`MarketKinds`], counted without listing them: the reference that [`market_takes`] is tested
/// against.
///
/// Group the market's kinds by number (5 groups) and by suit (4 groups). In a group holding `m` kinds,
/// `d2` of them twice or more and `d3` three times or more, there are `C(m,2) + d2` distinct pairs and
/// `C(m,3) + d2 (m - 1) + d3` distinct triples. A pair or triple of one kind lies in two groups (its
/// number's and its suit's); any other legal pair or triple lies in exactly one. So the takes are the
/// `m` single kinds, plus the sum over the nine groups, less the pairs and triples of one kind counted
/// twice.
#[cfg(test)]
pub(super) fn take_count(kinds: MarketKinds) -> usize {
    const BITS: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
    let MarketKinds { present, pairs, triples } = kinds;
    // One number's kinds are four adjacent bits (`Card::index`).
    let in_number = |set: u32, k: usize| usize::from(BITS[((set >> (4 * k)) & 15) as usize]);
    // One suit's kinds are every fourth bit; multiplying sums the five of them into bits 16 to 19.
    let in_suit = |set: u32, s: usize| ((u64::from((set >> s) & 0x11111) * 0x11111) >> 16 & 15) as usize;
    let mut count = 0;
    for k in 0..5 {
        let (m, d2, d3) = (in_number(present, k), in_number(pairs, k), in_number(triples, k));
        count += m + group_takes(m, d2, d3) - d2 - d3;
    }
    for s in 0..4 {
        count += group_takes(in_suit(present, s), in_suit(pairs, s), in_suit(triples, s));
    }
    count
}

/// The pairs and triples of a number or suit group holding `m` kinds, `d2` of them twice or more and
/// `d3` three times or more (see `take_count`, the tests' reference count): `C(m,2) + d2 + C(m,3) + d2 (m - 1) + d3`.
pub(super) const fn group_takes(m: usize, d2: usize, d3: usize) -> usize {
    /// `C(m,2) + C(m,3)`: at most 6 cards give at most 6 kinds in a group.
    const PAIRS_AND_TRIPLES: [usize; 7] = [0, 0, 1, 4, 10, 20, 35];
    PAIRS_AND_TRIPLES[m] + d2 * m + d3
}

/// The market's [`MarketKinds`] and how many takes [`legal_takes`] lists for it (the count
/// `take_count`, the tests' reference, makes), from two tables instead of counting bits.
///
/// The market's cards, each kind's count capped at 3, are a [`Cards`]; a number's four kinds are
/// then a 12-bit key of [`NUMBER_GROUPS`], which gives the number's kinds as sets and its share of
/// the count; a suit's five kinds, gathered two bits each into a 10-bit key, give the suit's share
/// from [`SUIT_GROUPS`].
pub(super) fn market_takes(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> (MarketKinds, usize) {
    // No branch on which slots are empty (see `Cards::of_slots`).
    let cards = Cards::of_slots(market).bits();
    // Counts of 4 or more (the top bit of a field) become 3.
    let four_or_more = (cards >> 2) & BIT0;
    let capped = (cards | four_or_more | four_or_more << 1) & (BIT0 * 3);
    let (mut sets, mut count) = (0u64, 0);
    for k in 0..5 {
        let key = ((capped >> (12 * k)) & 0o7777) as usize;
        sets |= NUMBER_GROUPS[key] << (4 * k);
        count += usize::from(NUMBER_TAKES[key]);
    }
    for s in 0..4 {
        // The suit's fields, two bits each at bits 12 k, land in bits 40 + 2 k of the product, and
        // nothing else does: the other partial products fall below bit 40 in separate places (no
        // carry) or above bit 49.
        const GATHER: u64 = 1 << 40 | 1 << 30 | 1 << 20 | 1 << 10 | 1;
        let fields = (capped >> (3 * s)) & 0o0003_0003_0003_0003_0003;
        count += usize::from(SUIT_GROUPS[(fields.wrapping_mul(GATHER) >> 40 & 0x3ff) as usize]);
    }
    let set = |at: u32| ((sets >> at) & 0xf_ffff) as u32;
    (MarketKinds { present: set(0), pairs: set(20), triples: set(40) }, count)
}

/// Per number, by its four kinds' counts capped at 3 (three bits each, as in [`Cards`]): the kinds
/// held (bits 0 to 3), held twice or more (bits 20 to 23) and three times (bits 40 to 43), so that
/// number `k`'s entry shifted by `4 k` puts them in place in the sets of [`MarketKinds`].
pub(super) static NUMBER_GROUPS: [u64; 4096] = {
    let mut table = [0u64; 4096];
    let mut key = 0;
    while key < 4096 {
        let mut kind = 0;
        while kind < 4 {
            let count = (key >> (3 * kind)) & 7;
            if count >= 1 {
                table[key] |= 1 << kind;
            }
            if count >= 2 {
                table[key] |= 1 << (20 + kind);
            }
            if count >= 3 {
                table[key] |= 1 << (40 + kind);
            }
            kind += 1;
        }
        key += 1;
    }
    table
};

/// Per number, keyed as [`NUMBER_GROUPS`]: the number's share of the take count, its single kinds and
/// its pairs and triples less those of one kind.
pub(super) static NUMBER_TAKES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut key = 0;
    while key < 4096 {
        let (m, d2, d3) = group_kinds(key, 4, 3);
        table[key] = (m + group_takes(m, d2, d3) - d2 - d3) as u8;
        key += 1;
    }
    table
};

/// Per suit, by its five kinds' counts capped at 3 (two bits each, the 1s lowest): the suit's share of
/// the take count, its pairs and triples.
pub(super) static SUIT_GROUPS: [u8; 1024] = {
    let mut table = [0u8; 1024];
    let mut key = 0;
    while key < 1024 {
        let (m, d2, d3) = group_kinds(key, 5, 2);
        table[key] = group_takes(m, d2, d3) as u8;
        key += 1;
    }
    table
};

/// For a group key of `kinds` counts of `bits` bits each: how many kinds it holds at all, twice or
/// more and three times or more (the `m`, `d2` and `d3` of [`group_takes`]).
pub(super) const fn group_kinds(key: usize, kinds: usize, bits: usize) -> (usize, usize, usize) {
    let (mut m, mut d2, mut d3) = (0, 0, 0);
    let mut kind = 0;
    while kind < kinds {
        let count = (key >> (bits * kind)) & ((1 << bits) - 1);
        m += (count >= 1) as usize;
        d2 += (count >= 2) as usize;
        d3 += (count >= 3) as usize;
        kind += 1;
    }
    (m, d2, d3)
}

/// The take at position `at` of the list [`legal_takes`] makes, found by walking that list's order
/// and skipping each pair's triples by counting them.
pub(super) fn take_at(kinds: MarketKinds, mut at: usize) -> Option<Cards> {
    let MarketKinds { present, pairs, triples } = kinds;
    let from = |x: usize, copies: u32| (present & !((2 << x) - 1)) | (copies & (1 << x));
    let mut firsts = present;
    while firsts != 0 {
        let a = firsts.trailing_zeros() as usize;
        firsts &= firsts - 1;
        let single = Cards::EMPTY.with(Card::from_index(a));
        if at == 0 {
            return Some(single);
        }
        at -= 1;
        let mut seconds = from(a, pairs) & SHARES_A_NUMBER_OR_SUIT[a];
        while seconds != 0 {
            let b = seconds.trailing_zeros() as usize;
            seconds &= seconds - 1;
            let mut pair = single;
            pair.add_n(Card::from_index(b), 1);
            if at == 0 {
                return Some(pair);
            }
            at -= 1;
            let mut thirds = from(b, if b == a { triples } else { pairs }) & shares_with(a, b);
            // A bit count without branches: how many kinds there are is as random as the market.
            let count = kinds_in(thirds);
            if at < count {
                for _ in 0..at {
                    thirds &= thirds - 1;
                }
                pair.add_n(Card::from_index(thirds.trailing_zeros() as usize), 1);
                return Some(pair);
            }
            at -= count;
        }
    }
    None
}

/// How many kinds a set of kinds (20 bits) holds, from two lookups: the baseline x86-64 the engine is
/// built for has no bit-count instruction, and `count_ones` is then a dozen instructions.
#[inline]
pub(super) fn kinds_in(set: u32) -> usize {
    /// The bits set in each 10-bit number.
    static BITS: [u8; 1024] = {
        let mut table = [0u8; 1024];
        let mut i = 1;
        while i < 1024 {
            table[i] = table[i >> 1] + (i & 1) as u8;
            i += 1;
        }
        table
    };
    usize::from(BITS[(set & 0x3ff) as usize]) + usize::from(BITS[(set >> 10 & 0x3ff) as usize])
}

/// The kinds of card a market of at most 6 cards holds, as sets with one bit per [`Card::index`].
#[derive(Clone, Copy)]
pub(super) struct MarketKinds {
    /// Held at all.
    pub(super) present: u32,
    /// Held twice or more.
    pub(super) pairs: u32,
    /// Held three times or more.
    pub(super) triples: u32,
}

pub(super) fn market_kinds(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> MarketKinds {
    let (mut present, mut pairs, mut triples) = (0u32, 0u32, 0u32);
    for card in market.iter().flatten() {
        let bit = 1 << card.index();
        triples |= pairs & bit;
        pairs |= present & bit;
        present |= bit;
    }
    MarketKinds { present, pairs, triples }
}

/// The kinds that share with kind `a` what kind `b` shares with it (both number and suit, when `b` is
/// `a`), read from [`SHARED_WITH`] without branching on which it is (as random as the take).
#[inline]
pub(super) fn shares_with(a: usize, b: usize) -> u32 {
    SHARED_WITH[a * CARD_KINDS + b]
}

/// [`shares_with`] for every pair of kinds, `a` major.
pub(super) static SHARED_WITH: [u32; CARD_KINDS * CARD_KINDS] = {
    let mut table = [0; CARD_KINDS * CARD_KINDS];
    let mut a = 0;
    while a < CARD_KINDS {
        let mut b = 0;
        while b < CARD_KINDS {
            table[a * CARD_KINDS + b] = if b == a {
                SHARES_A_NUMBER_OR_SUIT[a]
            } else if a / 4 == b / 4 {
                SHARES_A_NUMBER[a]
            } else {
                SHARES_A_SUIT[a]
            };
            b += 1;
        }
        a += 1;
    }
    table
};

/// Per kind of card, the set of kinds (one bit per [`Card::index`], itself included) with its number.
pub(super) const SHARES_A_NUMBER: [u32; CARD_KINDS] = kinds_sharing(true, false);
/// Per kind of card, the set of kinds (itself included) with its suit.
pub(super) const SHARES_A_SUIT: [u32; CARD_KINDS] = kinds_sharing(false, true);
/// Per kind of card, the set of kinds (itself included) with its number or its suit.
pub(super) const SHARES_A_NUMBER_OR_SUIT: [u32; CARD_KINDS] = kinds_sharing(true, true);

/// The sets of kinds that share the number (when `number`) or the suit (when `suit`) of each kind.
/// Kind indices run numbers first, suits within a number ([`Card::index`]).
pub(super) const fn kinds_sharing(number: bool, suit: bool) -> [u32; CARD_KINDS] {
    let mut sets = [0; CARD_KINDS];
    let mut x = 0;
    while x < CARD_KINDS {
        let mut y = 0;
        while y < CARD_KINDS {
            if (number && x / 4 == y / 4) || (suit && x % 4 == y % 4) {
                sets[x] |= 1 << y;
            }
            y += 1;
        }
        x += 1;
    }
    sets
}
