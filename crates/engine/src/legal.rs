//! Every distinct legal action of the player to act.
//!
//! [`Game::check`] is the one definition of legality; the lists built here enumerate candidates that
//! the rules allow, and a property test holds the two together: an action is listed exactly when
//! `check` accepts it. Actions are distinct as multisets of cards, since copies are interchangeable (§1.1).
//!
//! The enumeration is on the hot path of every bot and simulation, so it generates each distinct
//! multiset once instead of generating with repeats and removing them.
//!
//! The random player goes further ([`Game::legal_action_at`]): it needs how many actions there are and
//! the one at a drawn position, so it counts and builds only that one, in the list's order:
//! - takes: the market is turned into three sets of kinds (one bit per kind: held, held twice, held
//!   three times) and a count, a closed formula over the nine number and suit groups read from tables
//!   ([`market_takes`]); a walk in list order that skips each pair's triples by counting them finds
//!   the drawn one;
//! - completions: one table lookup by the hand's counts per number says which kinds of contract the
//!   hand fits ([`crate::contracts::fitting_kinds_of`]), a mask of the market's kinds says whether any
//!   of them is in the market (in most contract steps none is); the number patterns that fit each
//!   such contract come from [`crate::contracts::PatternIndex`] (five mask lookups); each pattern's completions
//!   are the product over its numbers of the ways to take that many cards of the number among the
//!   suits, read from [`split_table`], a table worked out at compile time and indexed by the number's
//!   four 3-bit counts in [`Cards`]; the drawn completion is decoded number by number ([`nth_split`]);
//! - discards: counted and found from the ways per kind ([`SubMultisets`]).
//!
//! The player keeps a [`StepMemo`] between steps: what a take-back brings back (the market's takes,
//! the contracts that fit a hand) is not worked out again.
//!
//! Tests in this module hold each count and each decoded position to the list.

use crate::action::{Action, Phase, Seat, TurnStep};

use crate::cards::{BIT0, CARD_KINDS, Card, Cards};
use crate::contracts::{ContractId, PatternIndex, fitting_kinds_of};
use crate::game::{CONTRACT_MARKET_SLOTS, Game, HAND_LIMIT, NUMBER_MARKET_SLOTS};

/// Calls `found` with every distinct sub-multiset of `size` cards of `sorted` (cards in ascending
/// order). An equal card is not chosen twice at the same place, so each multiset comes once.
fn for_each_sub_multiset(sorted: &[Card], size: usize, found: &mut impl FnMut(Cards)) {
    fn pick(sorted: &[Card], from: usize, left: usize, cards: Cards, found: &mut impl FnMut(Cards)) {
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
struct SubMultisets {
    counts: [u8; CARD_KINDS],
    size: usize,
    ways: [[u32; SUB_MULTISET_SIZES]; CARD_KINDS + 1],
}

/// The sizes [`SubMultisets`] works for: 0 to 3 cards. A discard is of 3 cards at most (a hand of
/// at most 10 takes at most 3 cards), and larger sizes are listed instead.
const SUB_MULTISET_SIZES: usize = 4;

impl SubMultisets {
    /// `None` when `size` is more than [`SubMultisets`] works for.
    fn new(hand: &Cards, size: usize) -> Option<SubMultisets> {
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

    fn count(&self) -> usize {
        self.ways[0][self.size] as usize
    }

    /// The multisets of `left` cards from the kinds above `kind` plus `held` copies of `kind`.
    fn starting_at(&self, kind: usize, held: u8, left: usize) -> u32 {
        (0..=left.min(usize::from(held))).map(|t| self.ways[kind + 1][left - t]).sum()
    }

    /// The multiset at position `n` (below [`SubMultisets::count`]).
    fn nth(&self, mut n: usize) -> Cards {
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
fn legal_takes(market: &[Option<Card>; NUMBER_MARKET_SLOTS], actions: &mut Vec<Action>) {
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
fn take_count(kinds: MarketKinds) -> usize {
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
const fn group_takes(m: usize, d2: usize, d3: usize) -> usize {
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
fn market_takes(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> (MarketKinds, usize) {
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
static NUMBER_GROUPS: [u64; 4096] = {
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
static NUMBER_TAKES: [u8; 4096] = {
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
static SUIT_GROUPS: [u8; 1024] = {
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
const fn group_kinds(key: usize, kinds: usize, bits: usize) -> (usize, usize, usize) {
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
fn take_at(kinds: MarketKinds, mut at: usize) -> Option<Cards> {
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
fn kinds_in(set: u32) -> usize {
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
struct MarketKinds {
    /// Held at all.
    present: u32,
    /// Held twice or more.
    pairs: u32,
    /// Held three times or more.
    triples: u32,
}

fn market_kinds(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> MarketKinds {
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
fn shares_with(a: usize, b: usize) -> u32 {
    SHARED_WITH[a * CARD_KINDS + b]
}

/// [`shares_with`] for every pair of kinds, `a` major.
static SHARED_WITH: [u32; CARD_KINDS * CARD_KINDS] = {
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
const SHARES_A_NUMBER: [u32; CARD_KINDS] = kinds_sharing(true, false);
/// Per kind of card, the set of kinds (itself included) with its suit.
const SHARES_A_SUIT: [u32; CARD_KINDS] = kinds_sharing(false, true);
/// Per kind of card, the set of kinds (itself included) with its number or its suit.
const SHARES_A_NUMBER_OR_SUIT: [u32; CARD_KINDS] = kinds_sharing(true, true);

/// The sets of kinds that share the number (when `number`) or the suit (when `suit`) of each kind.
/// Kind indices run numbers first, suits within a number ([`Card::index`]).
const fn kinds_sharing(number: bool, suit: bool) -> [u32; CARD_KINDS] {
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

/// Calls `found` with every way to take `quota` cards of one number from `held[s]` cards of each suit
/// `s`: how many of each suit, the first suit varying slowest. The one order every listing here uses.
fn for_each_split(held: [u8; 4], quota: u8, mut found: impl FnMut([u8; 4]) -> bool) {
    for a in 0..=held[0].min(quota) {
        for b in 0..=held[1].min(quota - a) {
            for c in 0..=held[2].min(quota - a - b) {
                let d = quota - a - b - c;
                if d <= held[3] && !found([a, b, c, d]) {
                    return;
                }
            }
        }
    }
}

/// How many ways [`for_each_split`] lists for the cards of one number held as `group` (see
/// [`Cards::number_group`]) and each quota from 0 to 8 (no contract takes more cards), indexed by
/// `group`: the coefficients of the product over the suits of `1 + x + ... + x^held`, worked out at
/// compile time (36 KiB).
fn split_table() -> &'static [[u8; QUOTAS]; 4096] {
    static COUNTS: [[u8; QUOTAS]; 4096] = {
        let mut table = [[0u8; QUOTAS]; 4096];
        let mut group = 0;
        while group < 4096 {
            let mut poly = [0u16; QUOTAS];
            poly[0] = 1;
            let mut suit = 0;
            while suit < 4 {
                let held = (group >> (3 * suit)) & 7;
                let before = poly;
                let mut q = 0;
                while q < QUOTAS {
                    let mut sum = 0;
                    let mut taken = 0;
                    while taken <= held && taken <= q {
                        sum += before[q - taken];
                        taken += 1;
                    }
                    poly[q] = sum;
                    q += 1;
                }
                suit += 1;
            }
            let mut q = 0;
            while q < QUOTAS {
                // At most 161 (four suits of 7 copies, 8 cards): it fits a byte.
                table[group][q] = poly[q] as u8;
                q += 1;
            }
            group += 1;
        }
        table
    };
    &COUNTS
}

/// The quotas [`split_table`] counts for: 0 to 8 cards of one number.
const QUOTAS: usize = 9;

/// The four suits' counts of a [`Cards::number_group`].
#[cfg(test)]
fn held(group: usize) -> [u8; 4] {
    std::array::from_fn(|suit| ((group >> (3 * suit)) & 7) as u8)
}

/// The `n`th way [`for_each_split`] lists for the cards of one number held as `group` (see
/// [`Cards::number_group`]), found suit by suit: the ways that give the first suit `a` cards are as
/// many as the ways to take the rest of the quota from the later suits, which [`split_table`] counts.
fn nth_split(table: &[[u8; QUOTAS]; 4096], group: usize, quota: u8, mut n: usize) -> [u8; 4] {
    let mut split = [0; 4];
    let mut left = usize::from(quota);
    for (suit, taken) in split.iter_mut().take(3).enumerate() {
        // The group without this suit and the ones before it.
        let later_suits = group & !((8 << (3 * suit)) - 1) & 0o7777;
        // At most as many cards as the suit holds and the quota leaves: step past the ways that give
        // the suit each count below the one taken, without branching on `n` (as random as the choice).
        let mut going = true;
        for _ in 0..((group >> (3 * suit)) & 7).min(left) {
            let ways = usize::from(table[later_suits][left.min(QUOTAS - 1)]);
            going &= n >= ways;
            n -= if going { ways } else { 0 };
            *taken += u8::from(going);
            left -= usize::from(going);
        }
        debug_assert!(usize::from(*taken) <= (group >> (3 * suit)) & 7, "n is below the number of splits");
    }
    split[3] = left as u8;
    split
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
            TurnStep::Take => legal_takes(&self.number_market, actions),
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
                for_each_sub_multiset(&sorted, excess, &mut |cards| actions.push(Action::Discard { cards }));
            }
        }
    }

    /// The action at position `pick(n)` of [`Game::legal_actions`], where `n` is how many there are,
    /// or `None` when `seat` has none. It gives exactly what indexing the list would, but it counts
    /// the takes (from the market's kinds) and the completions (per number pattern, a product of small
    /// counts) and builds only the one picked, instead of listing them all: the random player's hot path.
    ///
    /// Without `take_backs`, the list is the same without [`Action::TakeBack`] (the game's moves only).
    pub(crate) fn legal_action_at(
        &self,
        seat: Seat,
        buffer: &mut Vec<Action>,
        memo: &mut StepMemo,
        take_backs: bool,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<Action> {
        let Phase::Playing { seat: to_act, step } = self.phase else { return None };
        if seat != to_act {
            return None;
        }
        match step {
            TurnStep::Contracts => {}
            TurnStep::Take => {
                let (kinds, count) = memo.takes(&self.number_market);
                return (count > 0)
                    .then(|| pick(count))
                    .and_then(|at| take_at(kinds, at))
                    .map(|cards| Action::Take { cards });
            }
            TurnStep::Discard => {
                let hand = self.seats[seat.index()].hand;
                let excess = hand.len().saturating_sub(HAND_LIMIT);
                if let Some(multisets) = SubMultisets::new(&hand, excess) {
                    return Some(Action::Discard { cards: multisets.nth(pick(multisets.count())) });
                }
                self.legal_actions_into(seat, buffer);
                return (!buffer.is_empty()).then(|| buffer[pick(buffer.len())]);
            }
        }
        let take_back = usize::from(take_backs && self.can_take_back());
        let state = &self.seats[seat.index()];
        // The kinds that fit with the Star count while it is still there to use.
        let mut kinds = fitting_kinds_of(&state.hand) & if state.star_used { 0xffff_ffff } else { u64::MAX };
        if kinds != 0 {
            kinds &= memo.market_fill_kinds(&self.contract_market);
        }
        if kinds == 0 {
            // Most contract steps: nothing fits, so only taking back (when possible) and passing.
            return Some(if pick(take_back + 1) < take_back { Action::TakeBack } else { Action::Pass });
        }
        let hand = state.hand;
        let table = split_table();
        let splits: [&[u8; QUOTAS]; 5] = std::array::from_fn(|k| &table[hand.number_group(k)]);
        // How many completions follow a pattern: the product of the ways to pick each number's cards
        // (one way to pick none).
        let ways =
            |pattern: &[u8; 5]| -> usize { (0..5).map(|k| usize::from(splits[k][usize::from(pattern[k])])).product() };
        let key = FitsKey::new(hand, &self.contract_market, state.star_used);
        let fits = memo.fits(key, |fits| {
            // Every (contract, star) with a pattern that fits, in list order, with its completions.
            self.for_each_fitting(seat, kinds, |contract, star, index, patterns| {
                let mut count = 0;
                index.for_each(patterns, |pattern| count += ways(pattern));
                fits.fits[fits.found] = Some(Fit { contract, star, index, patterns, count });
                fits.found += 1;
                fits.completions += count;
            });
        });
        let total = take_back + 1 + fits.completions;
        let fits = &fits.fits[..fits.found];
        let mut at = pick(total);
        if at < take_back {
            return Some(Action::TakeBack);
        }
        at -= take_back;
        for fit in fits.iter().flatten() {
            if at >= fit.count {
                at -= fit.count;
                continue;
            }
            for pattern in fit.index.iter(fit.patterns) {
                let ways = ways(pattern);
                if at >= ways {
                    at -= ways;
                    continue;
                }
                // Decode `at` as `Fill` lists: the lowest number varies slowest, so the highest number's
                // split is the remainder by its count of ways, and so on down (one division a number;
                // `at` is below `ways`, a count of hand cards' subsets, far below 2^32).
                let mut cards = Cards::EMPTY;
                let mut rest = at as u32;
                for k in (0..5).rev().filter(|&k| pattern[k] > 0) {
                    let count = u32::from(splits[k][usize::from(pattern[k])]);
                    let nth = (rest % count) as usize;
                    rest /= count;
                    let split = nth_split(table, hand.number_group(k), pattern[k], nth);
                    cards.add_number_group(k, split);
                }
                return Some(Action::Complete { contract: fit.contract, cards, star: fit.star });
            }
        }
        Some(Action::Pass)
    }

    /// §3 step 2: every distinct way to fill each contract of the market, with and without the Star.
    fn legal_completions(&self, seat: Seat, actions: &mut Vec<Action>) {
        let state = &self.seats[seat.index()];
        let mut splits = SuitSplits::new(state.hand);
        let kinds = fitting_kinds_of(&state.hand)
            & if state.star_used { 0xffff_ffff } else { u64::MAX }
            & market_fill_kinds(&self.contract_market);
        self.for_each_fitting(seat, kinds, |contract, star, index, patterns| {
            for pattern in index.iter(patterns) {
                Fill { contract, star, pattern, splits: &mut splits, actions }.from(0, Cards::EMPTY);
            }
        });
    }

    /// Calls `found` with the number patterns the seat's hand holds enough cards for (a set of
    /// `index`, never empty), contract by contract of the market, without and then with the Star
    /// (while it is unused): the order completions are listed in. `kinds` are the fill kinds that
    /// fit the seat's hand among the market's (see [`market_fill_kinds`]).
    fn for_each_fitting(
        &self,
        seat: Seat,
        kinds: u64,
        mut found: impl FnMut(ContractId, bool, &'static PatternIndex, u128),
    ) {
        let numbers = self.seats[seat.index()].hand.number_counts();
        let fill_indexes = ContractId::all_fill_indexes();
        let key = PatternIndex::key(numbers);
        // Which (slot, Star) pairs fit, bit `2 slot + star`, in list order: then only those are visited.
        let mut fitting = 0u32;
        for (slot, contract) in self.contract_market.iter().enumerate() {
            if let Some(contract) = contract {
                let kind = fill_indexes(*contract).1;
                let pair = (kinds >> kind & 1) | (kinds >> (kind + 32) & 1) << 1;
                fitting |= (pair as u32) << (2 * slot);
            }
        }
        while fitting != 0 {
            let at = fitting.trailing_zeros() as usize;
            fitting &= fitting - 1;
            let Some(contract) = self.contract_market[at / 2] else { continue };
            let (star, index) = (at % 2 == 1, &fill_indexes(contract).0[at % 2]);
            found(contract, star, index, index.fitting(key));
        }
    }
}

/// The fill kinds (bits as [`crate::contracts::fitting_kinds_of`] gives them) of the contracts of a
/// contract market, without and with the Star. Most hands that fit some kind fit none of the market's:
/// this mask says so without going through the contracts one by one.
fn market_fill_kinds(market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS]) -> u64 {
    let fill_indexes = ContractId::all_fill_indexes();
    market.iter().flatten().fold(0, |kinds, &contract| kinds | ((1 | 1 << 32) << fill_indexes(contract).1))
}

/// The number market as one number, a byte per slot (the card's index, or [`CARD_KINDS`] for an empty
/// slot): equal exactly when the markets are, compared with one comparison instead of slot by slot.
/// Those bytes are how an `Option<Card>` is stored, so this is a load.
pub(crate) fn market_key(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> u64 {
    let bytes = market.map(|card| card.map_or(CARD_KINDS as u8, |card| card.index() as u8));
    u64::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], 0, 0])
}

/// The contract market as one number, a byte per slot (0 for an empty one, the contract's number
/// otherwise), as [`market_key`] does for the number market: the bytes an `Option<ContractId>` is
/// stored as.
fn contract_market_key(market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS]) -> u64 {
    u64::from(u32::from_le_bytes(market.map(|contract| contract.map_or(0, ContractId::number))))
}

/// What the random player keeps from one step to the next so as not to work out twice what a
/// take-back brings back: the takes of the last number market it saw, the fill kinds of the last
/// contract market (which changes a few times a turn at most), and the contracts that fit the last
/// few hands with something to complete. Taking back a take gives the market back, taking back a
/// contract gives the hand and the contract market back, and uniform random play takes back often
/// (about 36 takes and 16 contracts in a 4-player game).
///
/// Each entry is kept with everything its answer depends on, and used only when all of it is equal,
/// so the answers are the ones worked out afresh (a test plays games with and without the memo).
#[derive(Clone)]
pub(crate) struct StepMemo {
    /// A key of the market (see [`market_key`]), its kinds and its take count.
    takes: Option<(u64, MarketKinds, usize)>,
    /// A key of the contract market (see [`contract_market_key`]) and its fill kinds.
    market_kinds: Option<(u64, u64)>,
    /// The key of each entry of `fits` ([`FitsKey::NONE`] for none yet), apart from the entries so
    /// that looking for a key reads one cache line.
    fit_keys: [FitsKey; FITS_KEPT],
    fits: [Fits; FITS_KEPT],
    /// The entry of `fits` to replace next: the oldest.
    oldest: usize,
}

impl Default for StepMemo {
    fn default() -> StepMemo {
        let none = Fits { fits: [None; 2 * CONTRACT_MARKET_SLOTS], found: 0, completions: 0 };
        StepMemo {
            takes: None,
            market_kinds: None,
            fit_keys: [FitsKey::NONE; FITS_KEPT],
            fits: [none; FITS_KEPT],
            oldest: 0,
        }
    }
}

/// How many hands [`StepMemo`] keeps the fitting contracts of: a take-back goes back over the
/// contracts of the turn one by one, and few turns complete more than three.
const FITS_KEPT: usize = 4;

impl std::fmt::Debug for StepMemo {
    /// Nothing of the hands it holds.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StepMemo { .. }")
    }
}

impl StepMemo {
    /// [`market_takes`] for `market`.
    fn takes(&mut self, market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> (MarketKinds, usize) {
        let key = market_key(market);
        match self.takes {
            Some((known, kinds, count)) if known == key => (kinds, count),
            _ => {
                let (kinds, count) = market_takes(market);
                self.takes = Some((key, kinds, count));
                (kinds, count)
            }
        }
    }

    /// [`market_fill_kinds`] for `market`.
    #[inline]
    fn market_fill_kinds(&mut self, market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS]) -> u64 {
        let key = contract_market_key(market);
        match self.market_kinds {
            Some((known, kinds)) if known == key => kinds,
            _ => {
                let kinds = market_fill_kinds(market);
                self.market_kinds = Some((key, kinds));
                kinds
            }
        }
    }

    /// The fits for `key`, kept or filled in by `work_out` (from none).
    fn fits(&mut self, key: FitsKey, work_out: impl FnOnce(&mut Fits)) -> &Fits {
        // Which entries hold the key, one bit each, looked at all at once.
        let held = self.fit_keys.iter().enumerate().fold(0u32, |held, (at, kept)| held | u32::from(*kept == key) << at);
        let at = match held {
            0 => {
                let at = self.oldest;
                self.oldest = (at + 1) % FITS_KEPT;
                self.fit_keys[at] = key;
                let fits = &mut self.fits[at];
                fits.found = 0;
                fits.completions = 0;
                work_out(fits);
                at
            }
            _ => held.trailing_zeros() as usize,
        };
        &self.fits[at]
    }
}

/// Everything the contracts that fit a hand depend on: the hand, the contract market and whether the
/// Star is used.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FitsKey {
    hand: Cards,
    market: u64,
}

impl FitsKey {
    /// A key no hand has: a contract market key has 32 bits and the Star's bit.
    const NONE: FitsKey = FitsKey { hand: Cards::EMPTY, market: u64::MAX };

    fn new(hand: Cards, market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS], star_used: bool) -> FitsKey {
        FitsKey { hand, market: contract_market_key(market) | u64::from(star_used) << 63 }
    }
}

/// The contracts (with the Star or not) that fit a hand, in list order, and how many completions
/// they give together.
#[derive(Clone, Copy)]
struct Fits {
    /// The first `found` entries are the fits; the others are left from an earlier hand.
    fits: [Option<Fit>; 2 * CONTRACT_MARKET_SLOTS],
    found: usize,
    completions: usize,
}

/// A contract of the market, with or without the Star, the number patterns the hand fits for it and
/// how many completions they give.
#[derive(Clone, Copy)]
struct Fit {
    contract: ContractId,
    star: bool,
    index: &'static PatternIndex,
    patterns: u128,
    count: usize,
}

/// For one hand: the ways to take `q` cards of number `n`, as card sets, worked out once per
/// `(n, q)` when first asked for.
struct SuitSplits {
    hand: Cards,
    /// Where each `(number, quota)` list lies in `lists`, once worked out.
    ranges: [[Option<(u16, u16)>; 9]; 5],
    lists: Vec<Cards>,
}

impl SuitSplits {
    fn new(hand: Cards) -> SuitSplits {
        SuitSplits { hand, ranges: [[None; 9]; 5], lists: Vec::new() }
    }

    /// The ways to take `quota` cards of number `number + 1` from the hand.
    fn get(&mut self, number: usize, quota: u8) -> (usize, usize) {
        if let Some((start, end)) = self.ranges[number][usize::from(quota)] {
            return (usize::from(start), usize::from(end));
        }
        let start = self.lists.len();
        let card = |suit: usize| Card::from_index(number * 4 + suit);
        let held: [u8; 4] = std::array::from_fn(|suit| self.hand.count(card(suit)));
        let lists = &mut self.lists;
        for_each_split(held, quota, |split| {
            let mut cards = Cards::EMPTY;
            for (suit, n) in split.into_iter().enumerate() {
                cards.add_n(card(suit), n);
            }
            lists.push(cards);
            true
        });
        let end = self.lists.len();
        self.ranges[number][usize::from(quota)] = Some((start as u16, end as u16));
        (start, end)
    }
}

/// Lists every completion of `contract` whose cards follow the number `pattern`: a choice of suits for
/// each number, from the hand.
struct Fill<'a> {
    contract: ContractId,
    star: bool,
    pattern: &'a [u8; 5],
    splits: &'a mut SuitSplits,
    actions: &'a mut Vec<Action>,
}

impl Fill<'_> {
    /// Adds to `chosen` every choice of suits for the numbers from `number + 1` on.
    fn from(&mut self, number: usize, chosen: Cards) {
        let Some(next) = (number..5).find(|&k| self.pattern[k] > 0) else {
            self.actions.push(Action::Complete { contract: self.contract, cards: chosen, star: self.star });
            return;
        };
        let (start, end) = self.splits.get(next, self.pattern[next]);
        for i in start..end {
            let mut cards = chosen;
            cards.add_all(&self.splits.lists[i]);
            self.from(next + 1, cards);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::RandomPlayer;

    #[test]
    fn discards_are_counted_and_found_as_listed() {
        let mut rng = crate::random::GameRng::from_seed(8);
        let deck: Vec<Card> = Cards::full_deck().iter().collect();
        for round in 0..3000 {
            // Hands of 0 to 16 cards; every other one drawn from few kinds, so that copies repeat.
            let few = round % 2 == 0;
            let hand: Cards = (0..rng.below(17))
                .map(|_| if few { deck[rng.below(14)] } else { deck[rng.below(deck.len())] })
                .collect();
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
                assert_eq!(
                    usize::from(split_table()[group][usize::from(quota)]),
                    listed,
                    "group {group:o} quota {quota}"
                );
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
                        let at =
                            game.legal_action_at(seat, &mut buffer, &mut StepMemo::default(), take_backs, |count| {
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
}
