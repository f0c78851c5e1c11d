//! Contract cards (§1.2): the table of 36 contracts, their requirements, and which hand cards fill them.
//!
//! Requirements only look at numbers, never suits (§1.2), so whether a set of cards fills a contract
//! depends only on how many cards of each number it holds. For each contract the engine works out once
//! every such "number pattern" that fills it, with and without the Star, and checks or lists fills by
//! looking patterns up. A [`PatternIndex`] per contract (and Star or not) finds the patterns a hand
//! holds enough cards for with five mask lookups, one per number.

use std::fmt;
use std::num::NonZeroU8;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{Cards, Suit};

/// One requirement of a contract card (§1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Requirement {
    /// `size` cards of one number; `number` is set for a specific number, as in `set2(1)`.
    Set {
        /// How many cards.
        size: u8,
        /// The number they must show, when the card names one.
        number: Option<u8>,
    },
    /// `size` cards with consecutive numbers, no wrap-around.
    Run {
        /// How many cards.
        size: u8,
    },
}

impl Requirement {
    /// How many cards the requirement takes; also its size icon (§1.2).
    pub const fn size(self) -> u8 {
        match self {
            Requirement::Set { size, .. } | Requirement::Run { size } => size,
        }
    }

    /// Every way to meet the requirement, as cards per number (index 0 = number 1).
    fn ways(self) -> Vec<[u8; 5]> {
        let mut ways = Vec::new();
        match self {
            Requirement::Set { size, number } => {
                for n in 1..=5u8 {
                    if number.is_none_or(|wanted| wanted == n) {
                        let mut way = [0; 5];
                        way[usize::from(n - 1)] = size;
                        ways.push(way);
                    }
                }
            }
            Requirement::Run { size } => {
                for start in 0..=(5 - size) {
                    let mut way = [0; 5];
                    for slot in &mut way[usize::from(start)..usize::from(start + size)] {
                        *slot = 1;
                    }
                    ways.push(way);
                }
            }
        }
        ways
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Requirement::Set { size, number: None } => write!(f, "set{size}"),
            Requirement::Set { size, number: Some(n) } => write!(f, "set{size}({n})"),
            Requirement::Run { size } => write!(f, "run{size}"),
        }
    }
}

/// A contract card as printed (§1.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Contract {
    /// Its row number in the table of §1.2.
    pub id: ContractId,
    /// The points printed on it.
    pub score: u8,
    /// Its suit, for the suit bonus and the suit trophies.
    pub suit: Suit,
    /// One to three requirements.
    pub requirements: Vec<Requirement>,
}

impl Contract {
    /// How many number cards fill it without the Star.
    pub fn card_count(&self) -> u8 {
        self.requirements.iter().map(|r| r.size()).sum()
    }
}

/// A contract card's row number in the table of §1.2, 1 to 36. Never 0, so that an
/// `Option<ContractId>` is one byte (0 for `None`) and a market of them is keyed as bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContractId(NonZeroU8);

const _: () = assert!(std::mem::size_of::<Option<ContractId>>() == 1, "an optional contract is one byte");

/// How many contract cards there are.
pub const CONTRACT_COUNT: usize = 36;

impl ContractId {
    /// The contract with row number `number`, or `None` outside 1 to 36.
    pub const fn new(number: u8) -> Option<ContractId> {
        match NonZeroU8::new(number) {
            Some(number) if number.get() as usize <= CONTRACT_COUNT => Some(ContractId(number)),
            _ => None,
        }
    }

    /// The row number, 1 to 36.
    pub const fn number(self) -> u8 {
        self.0.get()
    }

    /// Zero-based position, 0 to 35.
    pub const fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// All 36 contracts in row order.
    pub fn all() -> impl DoubleEndedIterator<Item = ContractId> + ExactSizeIterator {
        (1..=CONTRACT_COUNT as u8).map(|number| ContractId::new(number).expect("rows 1 to 36"))
    }

    /// The printed card.
    pub fn contract(self) -> &'static Contract {
        &TABLE[self.index()].contract
    }

    /// Every number pattern (cards per number, index 0 = number 1) of hand cards that fills this
    /// contract, without the Star when `star` is false, with it when true.
    pub fn patterns(self, star: bool) -> &'static [[u8; 5]] {
        let entry = &TABLE[self.index()];
        if star { &entry.star_patterns } else { &entry.patterns }
    }

    /// For every contract, its patterns of [`ContractId::patterns`] indexed by the hand counts they fit
    /// in (without the Star, then with it), and its fill kind (see [`fitting_kinds_of`]).
    pub(crate) fn all_fill_indexes() -> impl Fn(ContractId) -> (&'static [PatternIndex; 2], u32) + Copy {
        let table: &'static [TableEntry] = &TABLE;
        move |contract| {
            let entry = &table[contract.index()];
            (&entry.indexes, entry.kind)
        }
    }

    /// The patterns of [`ContractId::patterns`] that a hand with these counts per number holds enough
    /// cards for, in the order of [`ContractId::patterns`].
    #[cfg(test)]
    pub(crate) fn patterns_within(self, star: bool, numbers: [u8; 5]) -> impl Iterator<Item = &'static [u8; 5]> {
        let index = &ContractId::all_fill_indexes()(self).0[usize::from(star)];
        index.iter(index.fitting(PatternIndex::key(numbers)))
    }

    /// Whether hand cards with these counts per number fill the contract (with the Star standing in
    /// for one more card when `star`).
    pub fn is_filled_by(self, numbers: [u8; 5], star: bool) -> bool {
        // Every pattern has as many cards as the contract plays: a pattern within counts of that many
        // cards is those counts. So the counts fill the contract when they have that many cards and
        // the pattern index finds a pattern within them (one mask lookup per number instead of a search).
        let entry = &TABLE[self.index()];
        let cards: usize = numbers.iter().map(|&n| usize::from(n)).sum();
        cards + usize::from(star) == usize::from(entry.contract.card_count())
            && entry.indexes[usize::from(star)].fitting(PatternIndex::key(numbers)) != 0
    }
}

impl fmt::Display for ContractId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl fmt::Debug for ContractId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl Serialize for ContractId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for ContractId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ContractId, D::Error> {
        let number = u64::deserialize(deserializer)?;
        u8::try_from(number)
            .ok()
            .and_then(ContractId::new)
            .ok_or_else(|| serde::de::Error::custom(format!("{number} is not a contract number (1 to 36)")))
    }
}

struct TableEntry {
    contract: Contract,
    /// Contracts with the same patterns share a kind: the first such contract's position among the
    /// distinct pattern lists, in table order.
    kind: u32,
    /// Whether no contract before it in the table has its kind.
    first_of_kind: bool,
    patterns: Vec<[u8; 5]>,
    star_patterns: Vec<[u8; 5]>,
    /// Without the Star, then with it.
    indexes: [PatternIndex; 2],
}

/// The highest count per number that [`PatternIndex`] tells apart: no contract takes more than 8 cards,
/// so a hand with more than 8 cards of a number fits exactly the patterns that 8 cards fit.
const MAX_INDEXED_COUNT: usize = 8;

/// One contract's number patterns (with or without the Star), sorted in lexicographic order, indexed
/// by the counts per number that fit them.
///
/// Bit `i` of `at_most[k][v]` is set when pattern `i` wants at most `v` cards of number `k + 1`. The
/// patterns that a hand holds enough cards for are then the AND of five masks, one per number, looked
/// up by the hand's count of that number: a few instructions, however many patterns the contract has
/// (75 at most, set2 + set2 + set2 with the Star), instead of one comparison per pattern. A contract
/// step asks this for every contract of the market, with and without the Star, so it is on the random
/// player's hot path; most of the time the answer is that no pattern fits.
pub(crate) struct PatternIndex {
    patterns: Vec<[u8; 5]>,
    at_most: [[u128; MAX_INDEXED_COUNT + 1]; 5],
}

impl PatternIndex {
    fn new(patterns: &[[u8; 5]]) -> PatternIndex {
        let mut patterns = patterns.to_vec();
        patterns.sort_unstable();
        assert!(patterns.len() <= 128, "a pattern mask has 128 bits");
        let mut at_most = [[0u128; MAX_INDEXED_COUNT + 1]; 5];
        for (i, pattern) in patterns.iter().enumerate() {
            for (k, masks) in at_most.iter_mut().enumerate() {
                assert!(usize::from(pattern[k]) <= MAX_INDEXED_COUNT, "no contract takes more than 8 cards");
                for mask in &mut masks[usize::from(pattern[k])..] {
                    *mask |= 1 << i;
                }
            }
        }
        PatternIndex { patterns, at_most }
    }

    /// Counts per number as [`PatternIndex::fitting`] takes them.
    pub(crate) fn key(numbers: [u8; 5]) -> [usize; 5] {
        numbers.map(|n| usize::from(n).min(MAX_INDEXED_COUNT))
    }

    /// The set of patterns (bit `i` for the `i`th) that hand cards with these counts per number
    /// ([`PatternIndex::key`]) hold enough cards for.
    #[inline]
    pub(crate) fn fitting(&self, key: [usize; 5]) -> u128 {
        let at = |k: usize| self.at_most[k][key[k]];
        at(0) & at(1) & at(2) & at(3) & at(4)
    }

    /// The patterns of a set that [`PatternIndex::fitting`] gave, in order.
    pub(crate) fn iter(&self, set: u128) -> impl Iterator<Item = &[u8; 5]> {
        let mut rest = set;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(&self.patterns[i])
        })
    }

    /// Calls `found` with each pattern of a set that [`PatternIndex::fitting`] gave, in order: the
    /// same as [`PatternIndex::iter`], as a plain loop for the hot path.
    #[inline]
    pub(crate) fn for_each(&self, set: u128, mut found: impl FnMut(&[u8; 5])) {
        let mut rest = set;
        while rest != 0 {
            found(&self.patterns[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
    }
}

const fn set(size: u8) -> Requirement {
    Requirement::Set { size, number: None }
}

const fn set_of(size: u8, number: u8) -> Requirement {
    Requirement::Set { size, number: Some(number) }
}

const fn run(size: u8) -> Requirement {
    Requirement::Run { size }
}

/// The table of §1.2, row by row: score, suit, requirements.
fn printed_cards() -> [(u8, Suit, Vec<Requirement>); CONTRACT_COUNT] {
    use Suit::{Cherry as C, Clover as L, Diamond as D, Heart as H};
    [
        (2, H, vec![set(4)]),
        (2, L, vec![set(4)]),
        (2, D, vec![set(4)]),
        (4, C, vec![set(5)]),
        (4, H, vec![set(5)]),
        (4, L, vec![set(5)]),
        (4, C, vec![set(2), set(2), set(2)]),
        (4, L, vec![set(2), set(2), set(2)]),
        (5, C, vec![set_of(2, 1), set(4)]),
        (5, L, vec![set_of(2, 5), set(4)]),
        (1, D, vec![set_of(2, 2), set(2)]),
        (1, H, vec![set_of(2, 4), set(2)]),
        (5, H, vec![set_of(2, 1), run(4)]),
        (5, C, vec![set_of(2, 5), run(4)]),
        (4, H, vec![set(3), run(3)]),
        (4, L, vec![set(3), run(3)]),
        (4, D, vec![set(3), run(3)]),
        (4, C, vec![set(3), set(3)]),
        (4, H, vec![set(3), set(3)]),
        (2, D, vec![set(2), set(3)]),
        (2, C, vec![set(2), set(3)]),
        (2, L, vec![set(2), set(3)]),
        (1, C, vec![run(4)]),
        (1, D, vec![run(4)]),
        (1, L, vec![run(4)]),
        (3, D, vec![run(5)]),
        (3, H, vec![run(5)]),
        (3, C, vec![run(5)]),
        (6, L, vec![run(3), set(4)]),
        (6, H, vec![run(3), set(4)]),
        (6, D, vec![set(3), run(4)]),
        (6, C, vec![set(3), run(4)]),
        (6, D, vec![set(2), run(5)]),
        (6, L, vec![set(2), run(5)]),
        (9, H, vec![run(3), set(5)]),
        (9, D, vec![run(3), set(5)]),
    ]
}

static TABLE: LazyLock<Vec<TableEntry>> = LazyLock::new(|| {
    let mut kinds: Vec<Vec<[u8; 5]>> = Vec::new();
    printed_cards()
        .into_iter()
        .zip(1u8..)
        .map(|((score, suit, requirements), number)| {
            let patterns = fill_patterns(&requirements);
            let mut star_patterns: Vec<[u8; 5]> = Vec::new();
            for pattern in &patterns {
                for n in 0..5 {
                    if pattern[n] > 0 {
                        let mut with_star = *pattern;
                        with_star[n] -= 1;
                        if !star_patterns.contains(&with_star) {
                            star_patterns.push(with_star);
                        }
                    }
                }
            }
            star_patterns.sort_unstable();
            assert!(patterns.iter().flatten().all(|&n| n <= MAX_KEYED_COUNT), "fitting_kinds caps counts at 7");
            let known = kinds.iter().position(|known| *known == patterns);
            let kind = known.unwrap_or_else(|| {
                kinds.push(patterns.clone());
                kinds.len() - 1
            });
            assert!(kind < STAR_KINDS as usize, "fitting_kinds has 32 bits for each Star case");
            TableEntry {
                contract: Contract { id: ContractId::new(number).expect("rows 1 to 36"), score, suit, requirements },
                kind: kind as u32,
                first_of_kind: known.is_none(),
                indexes: [PatternIndex::new(&patterns), PatternIndex::new(&star_patterns)],
                patterns,
                star_patterns,
            }
        })
        .collect()
});

/// The highest count per number that [`fitting_kinds_of`] tells apart: no pattern wants more than 6 cards
/// of one number (the table's construction checks that none wants more than this).
const MAX_KEYED_COUNT: u8 = 7;
/// Where [`fitting_kinds_of`] puts the kinds that fit with the Star.
const STAR_KINDS: u32 = 32;
/// How many keys [`fitting_kinds_of`] has: five counts per number of three bits each.
const FIT_KEYS: usize = 1 << 15;

/// [`fitting_kinds_of`] for each key, worked out once for all keys: a pattern fits the hand cards of a
/// key when it equals their counts, or when it fits the cards of a key with one card fewer. So the
/// table is each pattern marked at its own key, then each key in increasing order takes in what the
/// five keys with one card fewer fit (a few hundred thousand instructions, once per process).
static FITS: LazyLock<Vec<u64>> = LazyLock::new(|| {
    let mut fits = vec![0u64; FIT_KEYS];
    let key = |pattern: &[u8; 5]| pattern.iter().rev().fold(0, |key, &n| key << 3 | usize::from(n));
    // One contract of each kind.
    for entry in TABLE.iter().filter(|entry| entry.first_of_kind) {
        for (star, index) in entry.indexes.iter().enumerate() {
            for pattern in &index.patterns {
                fits[key(pattern)] |= 1 << (entry.kind + STAR_KINDS * star as u32);
            }
        }
    }
    for key in 0..FIT_KEYS {
        for k in 0..5 {
            if (key >> (3 * k)) & 7 != 0 {
                fits[key] |= fits[key - (1 << (3 * k))];
            }
        }
    }
    fits
});

/// [`fitting_kinds_of`] for hand cards with these counts per number.
#[cfg(test)]
pub(crate) fn fitting_kinds(numbers: [u8; 5]) -> u64 {
    let key = numbers.iter().enumerate().fold(0, |key, (k, &n)| key | usize::from(n.min(MAX_KEYED_COUNT)) << (3 * k));
    FITS[key]
}

/// The fill kinds (see `TableEntry::kind`) with at least one pattern that the cards of `hand`
/// hold enough cards for: bit `kind` without the Star, bit `32 + kind` with it.
///
/// Contracts of one kind fit the same hands, and about half of the contracts share a kind with
/// another, so a contract step asks this once for the whole hand and then looks up each contract's
/// bits, instead of asking the [`PatternIndex`] of every contract of the market; in most contract
/// steps no contract fits at all and that is all there is to do. The answers for all 8^5 keys (counts
/// above 7 fit as 7 do) are in a table, [`FITS`].
#[inline]
pub(crate) fn fitting_kinds_of(hand: &Cards) -> u64 {
    FITS[hand.capped_number_key()]
}

/// Every distinct sum of one way per requirement: the number patterns that fill all requirements at once.
fn fill_patterns(requirements: &[Requirement]) -> Vec<[u8; 5]> {
    let mut patterns = vec![[0u8; 5]];
    for requirement in requirements {
        let mut next = Vec::new();
        for partial in &patterns {
            for way in requirement.ways() {
                let mut sum = *partial;
                for (s, w) in sum.iter_mut().zip(way) {
                    *s += w;
                }
                if !next.contains(&sum) {
                    next.push(sum);
                }
            }
        }
        patterns = next;
    }
    patterns.sort_unstable();
    patterns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;

    fn id(n: u8) -> ContractId {
        ContractId::new(n).expect("valid contract number")
    }

    #[test]
    fn s1_2_table_has_36_cards_as_printed() {
        assert_eq!(ContractId::all().count(), 36);
        let c31 = id(31).contract();
        assert_eq!((c31.score, c31.suit), (6, Suit::Diamond));
        assert_eq!(c31.requirements, vec![set(3), run(4)]);
        let sizes: Vec<u8> = id(7).contract().requirements.iter().map(|r| r.size()).collect();
        assert_eq!(sizes, vec![2, 2, 2], "§1.2: card 7 shows three 2 icons");
        assert_eq!(id(36).contract().card_count(), 8);
        let total_score: u32 = ContractId::all().map(|c| u32::from(c.contract().score)).sum();
        assert_eq!(total_score, 140);
    }

    #[test]
    fn s1_2_runs_do_not_wrap_and_sets_may_name_a_number() {
        // run4 is 1-2-3-4 or 2-3-4-5; 4-5-1-2 wraps and is not a run.
        assert!(id(23).is_filled_by([1, 1, 1, 1, 0], false));
        assert!(id(23).is_filled_by([0, 1, 1, 1, 1], false));
        assert!(!id(23).is_filled_by([1, 1, 0, 1, 1], false));
        // set2(1) + set4: a pair of 1s and four of a kind, which may be four 1s as well.
        assert!(id(9).is_filled_by([2, 0, 0, 4, 0], false));
        assert!(id(9).is_filled_by([6, 0, 0, 0, 0], false));
        assert!(!id(9).is_filled_by([0, 2, 0, 4, 0], false));
    }

    #[test]
    fn the_pattern_index_and_is_filled_by_match_comparing_each_pattern() {
        // Every hand of up to 10 cards with up to 6 of each number, and a few with more than any
        // pattern wants.
        let mut hands: Vec<[u8; 5]> = (0..7u32.pow(5))
            .map(|code| std::array::from_fn(|k| (code / 7u32.pow(k as u32) % 7) as u8))
            .filter(|hand: &[u8; 5]| hand.iter().sum::<u8>() <= 10)
            .collect();
        hands.extend([[13, 13, 13, 13, 13], [9, 0, 0, 0, 0], [0, 0, 12, 1, 0], [8, 8, 8, 8, 8]]);
        for contract in ContractId::all() {
            for star in [false, true] {
                for &hand in &hands {
                    let slow: Vec<_> =
                        contract.patterns(star).iter().filter(|p| p.iter().zip(hand).all(|(&w, h)| w <= h)).collect();
                    let fast: Vec<_> = contract.patterns_within(star, hand).collect();
                    assert_eq!(slow, fast, "{contract} star {star} hand {hand:?}");
                    // `is_filled_by` finds the counts among the patterns by the index.
                    let filled = contract.patterns(star).contains(&hand);
                    assert_eq!(contract.is_filled_by(hand, star), filled, "{contract} star {star} hand {hand:?}");
                }
            }
        }
    }

    #[test]
    fn fitting_kinds_match_the_pattern_index() {
        // Every hand with up to 9 cards of each number (more than any pattern wants, and above the cap).
        let fill_indexes = ContractId::all_fill_indexes();
        for code in 0..10u32.pow(5) {
            let hand: [u8; 5] = std::array::from_fn(|k| (code / 10u32.pow(k as u32) % 10) as u8);
            let kinds = fitting_kinds(hand);
            let capped = |n: u8| n.min(MAX_KEYED_COUNT);
            let cards: Cards = (0..5u8)
                .flat_map(|k| (0..hand[usize::from(k)]).map(move |i| Card::new(k + 1, Suit::ALL[usize::from(i % 4)])))
                .flatten()
                .collect();
            assert_eq!(fitting_kinds_of(&cards), kinds, "{hand:?}");
            assert_eq!(
                cards.capped_number_key(),
                hand.iter().rev().fold(0, |key, &n| key << 3 | usize::from(capped(n)))
            );
            for contract in ContractId::all() {
                let (indexes, kind) = fill_indexes(contract);
                for (star, index) in indexes.iter().enumerate() {
                    let fits = index.fitting(PatternIndex::key(hand)) != 0;
                    assert_eq!(kinds >> (kind + STAR_KINDS * star as u32) & 1 == 1, fits, "{contract} {hand:?}");
                    let slow = contract.patterns(star == 1).iter().any(|p| p.iter().zip(hand).all(|(&w, h)| w <= h));
                    assert_eq!(fits, slow, "{contract} {hand:?}");
                }
            }
        }
    }

    #[test]
    fn s3_2_star_replaces_one_card() {
        // set2(1) + set4 with the Star: one 1 and four 4s (Star is the other 1), or two 1s and three 4s.
        assert!(id(9).is_filled_by([1, 0, 0, 4, 0], true));
        assert!(id(9).is_filled_by([2, 0, 0, 3, 0], true));
        assert!(!id(9).is_filled_by([2, 0, 0, 4, 0], true), "with the Star one card fewer is played");
        // A three-requirement contract: set2 + set2 + set2 with the Star.
        assert!(id(7).is_filled_by([2, 1, 0, 0, 2], true));
        assert!(!id(7).is_filled_by([1, 1, 1, 1, 1], true));
        // run5 with the Star: any four distinct numbers of 1-5.
        assert!(id(26).is_filled_by([1, 1, 0, 1, 1], true));
    }
}
