//! Number cards (§1.1): suits, numbers, the 92-card deck and hand-sized multisets of cards.
//!
//! Copies of the same number and suit are interchangeable (§1.1), so the engine never tells them apart:
//! a [`Card`] is a kind of card, and a pile where order does not matter is a [`Cards`] multiset.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the four suits of the number cards (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    /// Cherry, code `ch`.
    Cherry,
    /// Diamond, code `di`.
    Diamond,
    /// Heart, code `he`.
    Heart,
    /// Clover, code `cl`.
    Clover,
}

impl Suit {
    /// All four suits, in code order.
    pub const ALL: [Suit; 4] = [Suit::Cherry, Suit::Diamond, Suit::Heart, Suit::Clover];

    /// The two-letter code of the record format (`ch`, `di`, `he`, `cl`).
    pub const fn code(self) -> &'static str {
        match self {
            Suit::Cherry => "ch",
            Suit::Diamond => "di",
            Suit::Heart => "he",
            Suit::Clover => "cl",
        }
    }

    /// The suit's position in [`Suit::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit at `index` in [`Suit::ALL`].
    ///
    /// # Panics
    /// When `index` is 4 or more; callers only pass indices below 4.
    pub const fn from_index(index: usize) -> Suit {
        Suit::ALL[index]
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Suit::Cherry => "cherry",
            Suit::Diamond => "diamond",
            Suit::Heart => "heart",
            Suit::Clover => "clover",
        })
    }
}

/// The lowest and highest number on a number card.
pub const NUMBERS: std::ops::RangeInclusive<u8> = 1..=5;

/// The number of distinct kinds of number card: 5 numbers times 4 suits.
pub const CARD_KINDS: usize = 20;

/// A kind of number card: a number from 1 to 5 and a suit (§1.1).
///
/// Written as its record code, e.g. `3he` for the 3 of hearts.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(Kind);

/// A card's index (see [`Card::index`]) as an enum of its 20 values, so that the values above 19 are
/// free for `Option<Card>` to mean `None`: an optional card is one byte, and a market of them is
/// compared and keyed as bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
enum Kind {
    K0, K1, K2, K3, K4, K5, K6, K7, K8, K9, K10, K11, K12, K13, K14, K15, K16, K17, K18, K19,
}

const _: () = assert!(std::mem::size_of::<Option<Card>>() == 1, "an optional card is one byte");

/// Every [`Kind`], by index.
#[rustfmt::skip]
const KINDS: [Kind; CARD_KINDS] = {
    use Kind::*;
    [K0, K1, K2, K3, K4, K5, K6, K7, K8, K9, K10, K11, K12, K13, K14, K15, K16, K17, K18, K19]
};

impl Card {
    /// The card of `number` (1 to 5) and `suit`, or `None` when the number is out of range.
    pub const fn new(number: u8, suit: Suit) -> Option<Card> {
        if number >= 1 && number <= 5 { Some(Card(KINDS[((number - 1) * 4 + suit as u8) as usize])) } else { None }
    }

    /// The card's number, 1 to 5.
    pub const fn number(self) -> u8 {
        self.0 as u8 / 4 + 1
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 as u8 % 4) as usize)
    }

    /// The card's index among the [`CARD_KINDS`] kinds: numbers ascending, suits in code order within a number.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card with the given [`Card::index`].
    ///
    /// # Panics
    /// When `index` is not below [`CARD_KINDS`].
    pub const fn from_index(index: usize) -> Card {
        Card(KINDS[index])
    }

    /// How many copies of this card the deck holds (§1.1): 4 of the 1s and 5s, 5 of the others.
    pub const fn copies(self) -> u8 {
        match self.number() {
            1 | 5 => 4,
            _ => 5,
        }
    }

    /// Every kind of card, in index order.
    pub fn all() -> impl DoubleEndedIterator<Item = Card> + ExactSizeIterator {
        (0..CARD_KINDS).map(Card::from_index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number(), self.suit().code())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card code that is not one of the 20 codes `1ch` .. `5cl`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card code (a number 1-5 and a suit ch, di, he or cl, like `3he`)")]
pub struct BadCardCode(pub String);

impl FromStr for Card {
    type Err = BadCardCode;

    fn from_str(s: &str) -> Result<Card, BadCardCode> {
        let bad = || BadCardCode(s.chars().take(16).collect());
        let bytes = s.as_bytes();
        if bytes.len() != 3 {
            return Err(bad());
        }
        let number = bytes[0].wrapping_sub(b'0');
        let suit = match &bytes[1..] {
            b"ch" => Suit::Cherry,
            b"di" => Suit::Diamond,
            b"he" => Suit::Heart,
            b"cl" => Suit::Clover,
            _ => return Err(bad()),
        };
        Card::new(number, suit).ok_or_else(bad)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let code = [b'0' + self.number(), self.suit().code().as_bytes()[0], self.suit().code().as_bytes()[1]];
        // The three bytes are ASCII by construction.
        serializer.serialize_str(std::str::from_utf8(&code).unwrap_or("?"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

/// A multiset of number cards: a hand, a market's contents, the cards of one action.
///
/// It counts copies per [`Card`] kind, so two `Cards` are equal exactly when they hold the same cards,
/// whatever order they were listed in. It serializes as a list of card codes in index order.
///
/// The counts are packed three bits per kind into one `u64` (a kind has at most 5 copies, §1.1), so that
/// copying, adding and comparing whole hands takes a few instructions: this type is on the hot path of
/// every legal-move list.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cards {
    packed: u64,
}

/// The most copies of one kind a `Cards` can count: the largest three-bit number.
const MAX_COPIES: u8 = 7;
/// Bit 0 of each kind's three-bit field.
pub(crate) const BIT0: u64 = 0o1111_1111_1111_1111_1111;
/// Bit 2, the top bit, of each kind's field.
const TOP: u64 = BIT0 << 2;

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards { packed: 0 };

    const fn shift(card: Card) -> u32 {
        3 * card.index() as u32
    }

    /// The complete number deck of §1.1: 92 cards.
    pub fn full_deck() -> Cards {
        let mut cards = Cards::EMPTY;
        for card in Card::all() {
            cards.add_n(card, card.copies());
        }
        cards
    }

    /// How many copies of `card` this holds.
    pub fn count(&self, card: Card) -> u8 {
        ((self.packed >> Cards::shift(card)) & 7) as u8
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        // The sums per number (see `number_counts`), then one multiplication adds the five twelve-bit
        // sums into the top one (at most 140 cards: no carry reaches it from below).
        let sums = self.sums_per_number();
        ((sums.wrapping_mul(0o0001_0001_0001_0001_0001) >> 48) & 0o7777) as usize
    }

    /// Whether it holds no card.
    pub fn is_empty(&self) -> bool {
        self.packed == 0
    }

    /// Adds one copy of `card`; a kind already at the most copies a `Cards` can count (7, more than the
    /// deck holds) stays there.
    pub fn add(&mut self, card: Card) {
        if self.count(card) < MAX_COPIES {
            self.packed += 1 << Cards::shift(card);
        }
    }

    /// These cards and one more copy of `card`.
    pub fn with(mut self, card: Card) -> Cards {
        self.add(card);
        self
    }

    /// Adds `n` copies of `card`. Together they must not count more than 7 copies, which holds for any
    /// pile of one deck.
    pub fn add_n(&mut self, card: Card, n: u8) {
        debug_assert!(self.count(card) + n <= MAX_COPIES);
        self.packed += u64::from(n) << Cards::shift(card);
    }

    /// Removes one copy of `card`; returns false (and changes nothing) when there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        if self.count(card) == 0 {
            return false;
        }
        self.packed -= 1 << Cards::shift(card);
        true
    }

    /// Adds `counts[s]` cards of number `number_index + 1` in each suit `s` (code order), as
    /// [`Cards::add_n`] for each of the four. The same limit of 7 copies a kind holds.
    pub(crate) fn add_number_group(&mut self, number_index: usize, counts: [u8; 4]) {
        let group = counts.iter().rev().fold(0u64, |group, &n| group << 3 | u64::from(n));
        debug_assert!(
            counts
                .iter()
                .enumerate()
                .all(|(s, &n)| self.count(Card::from_index(number_index * 4 + s)) + n <= MAX_COPIES)
        );
        self.packed += group << (12 * number_index);
    }

    /// Adds every card of `other`. The two must not count more than 7 copies of a kind together, which
    /// holds for any two piles of one deck.
    pub fn add_all(&mut self, other: &Cards) {
        debug_assert!(Card::all().all(|c| self.count(c) + other.count(c) <= MAX_COPIES));
        self.packed += other.packed;
    }

    /// Removes every card of `other`; returns false (and changes nothing) unless all of them are here.
    pub fn remove_all(&mut self, other: &Cards) -> bool {
        if !self.contains(other) {
            return false;
        }
        // No field borrows from the next: each count here is at least the one in `other`.
        self.packed -= other.packed;
        true
    }

    /// Whether every card of `other` is here (as a multiset).
    pub fn contains(&self, other: &Cards) -> bool {
        let (x, y) = (self.packed, other.packed);
        // Per field: the low two bits compared with the top bit as a guard (no borrow leaves a field),
        // then the top bits decide where they differ.
        let low = (x | TOP) - (y & !TOP);
        let greater_top = x & !y & TOP;
        let equal_top_low_ge = !(x ^ y) & low & TOP;
        (greater_top | equal_top_low_ge) == TOP
    }

    /// How many cards there are of each number: index 0 counts the 1s, index 4 the 5s.
    pub fn number_counts(&self) -> [u8; 5] {
        let sums = self.sums_per_number();
        std::array::from_fn(|n| ((sums >> (12 * n)) & 0o7777) as u8)
    }

    /// How many cards there are of each number, capped at 7, three bits per number from the 1s up: a
    /// key below 2^15 for tables worked out per counts per number.
    pub(crate) fn capped_number_key(&self) -> usize {
        const ONES: u64 = 0o0001_0001_0001_0001_0001;
        let sums = self.sums_per_number();
        // A sum (at most 28) of 8 or more has bit 3 or bit 4 set.
        let eight_or_more = ((sums >> 3) | (sums >> 4)) & ONES;
        let capped = (sums | (eight_or_more * 7)) & (ONES * 7);
        // Fields at bits 12 k: the 2s next to the 1s and the 4s next to the 3s, then those pairs together.
        let folded = capped | capped >> 9;
        (((folded | folded >> 18) & 0o7777) | ((capped >> 36) & 0o70000)) as usize
    }

    /// How many cards there are of each number, one twelve-bit field per number from the 1s up.
    fn sums_per_number(&self) -> u64 {
        // Add neighbouring fields in place: pairs of suits into six-bit slots, then pairs of slots into
        // one twelve-bit sum per number (at most 28, no carry leaves its slot).
        const EVEN_FIELDS: u64 = 0o0707_0707_0707_0707_0707;
        const EVEN_SLOTS: u64 = 0o0077_0077_0077_0077_0077;
        let pairs = (self.packed & EVEN_FIELDS) + ((self.packed >> 3) & EVEN_FIELDS);
        (pairs & EVEN_SLOTS) + ((pairs >> 6) & EVEN_SLOTS)
    }

    /// The cards of number `number_index + 1` as four three-bit counts, one per suit in code order
    /// (the lowest bits count the cherries): a key below 4096 for tables worked out per number.
    pub(crate) fn number_group(&self, number_index: usize) -> usize {
        ((self.packed >> (12 * number_index)) & 0o7777) as usize
    }

    /// The counts themselves, three bits per kind in [`Card::index`] order: for the take count's
    /// arithmetic on the market's fields.
    pub(crate) fn bits(&self) -> u64 {
        self.packed
    }

    /// The kinds held, as bit 0 of each kind's field.
    fn held_kinds(&self) -> u64 {
        (self.packed | self.packed >> 1 | self.packed >> 2) & BIT0
    }

    /// Whether every card held has one number (true when none is held): whether the kinds held all
    /// lie in one number's four fields.
    pub(crate) fn one_number(&self) -> bool {
        let held = self.held_kinds();
        (0..5).fold(false, |one, k| one | (held & !(0o1111 << (12 * k)) == 0))
    }

    /// Whether every card held has one suit (true when none is held): whether the kinds held all
    /// lie in one suit's five fields.
    pub(crate) fn one_suit(&self) -> bool {
        let held = self.held_kinds();
        (0..4).fold(false, |one, s| one | (held & !(0o0001_0001_0001_0001_0001 << (3 * s)) == 0))
    }

    /// The cards of up to seven slots (a market's), each empty slot counting for nothing: at most seven
    /// copies of a kind, which its field holds. No branch on which slots are empty.
    pub(crate) fn of_slots(slots: &[Option<Card>]) -> Cards {
        debug_assert!(slots.len() <= usize::from(MAX_COPIES), "a field counts up to 7");
        // An empty slot counts at bit 60, above the 20 fields, and is masked off (seven of them do
        // not carry out of the word).
        let packed = slots.iter().fold(0u64, |packed, slot| packed + (1 << (3 * slot.map_or(CARD_KINDS, Card::index))));
        Cards { packed: packed & ((1 << (3 * CARD_KINDS)) - 1) }
    }

    /// How many cards there are of `suit`.
    pub fn suit_count(&self, suit: Suit) -> usize {
        // The fields of one suit: every fourth field, from the suit's index.
        let mask = 0o0007_0007_0007_0007_0007u64 << (3 * suit.index());
        let p = self.packed & mask;
        ((p & BIT0).count_ones() + 2 * ((p >> 1) & BIT0).count_ones() + 4 * ((p >> 2) & BIT0).count_ones()) as usize
    }

    /// Every card, one item per copy, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.indexes().map(Card::from_index)
    }

    /// The [`Card::index`] of every card, one item per copy, in index order: [`Cards::iter`] for loops
    /// that want the index.
    pub(crate) fn indexes(&self) -> impl Iterator<Item = usize> + use<> {
        // One copy off the lowest kind held at each step.
        let mut rest = self.packed;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let field = rest.trailing_zeros() / 3;
            rest -= 1 << (3 * field);
            Some(field as usize)
        })
    }

    /// The cards of `suit`.
    pub fn of_suit(&self, suit: Suit) -> Cards {
        // The fields of one suit: every fourth field, from the suit's index.
        Cards { packed: self.packed & (0o0007_0007_0007_0007_0007u64 << (3 * suit.index())) }
    }

    /// These cards without those of `other`, which must all be here.
    pub(crate) fn without(&self, other: &Cards) -> Cards {
        debug_assert!(self.contains(other));
        Cards { packed: self.packed - other.packed }
    }

    /// The distinct kinds of card held, with their counts, in index order.
    pub fn kinds(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        let mut rest = self.packed;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let field = rest.trailing_zeros() / 3;
            let count = ((rest >> (3 * field)) & 7) as u8;
            rest &= !(7 << (3 * field));
            Some((Card::from_index(field as usize), count))
        })
    }

    /// The counts per kind, indexed by [`Card::index`].
    pub fn counts(&self) -> [u8; CARD_KINDS] {
        std::array::from_fn(|i| ((self.packed >> (3 * i)) & 7) as u8)
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Cards {
        let mut cards = Cards::EMPTY;
        for card in iter {
            cards.add(card);
        }
        cards
    }
}

impl<'a> FromIterator<&'a Card> for Cards {
    fn from_iter<I: IntoIterator<Item = &'a Card>>(iter: I) -> Cards {
        iter.into_iter().copied().collect()
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cards, D::Error> {
        let list = Vec::<Card>::deserialize(deserializer)?;
        if list.len() > 92 {
            return Err(serde::de::Error::custom("more cards than the deck holds"));
        }
        Ok(list.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s1_1_deck_has_92_cards_with_the_listed_copies() {
        let deck = Cards::full_deck();
        assert_eq!(deck.len(), 92);
        assert_eq!(deck.number_counts(), [16, 20, 20, 20, 16]);
        for suit in Suit::ALL {
            assert_eq!(deck.suit_count(suit), 23);
        }
    }

    #[test]
    fn packed_operations_match_counting() {
        let mut rng = crate::random::GameRng::from_seed(3);
        let deck: Vec<Card> = Cards::full_deck().iter().collect();
        for _ in 0..2000 {
            let pick = |rng: &mut crate::random::GameRng| -> Vec<Card> {
                (0..rng.below(14)).map(|_| deck[rng.below(deck.len())]).collect()
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            let (ca, cb): (Cards, Cards) = (a.iter().collect(), b.iter().collect());
            let count = |list: &[Card], card: Card| list.iter().filter(|&&c| c == card).count().min(7) as u8;
            assert_eq!(ca.len(), Card::all().map(|c| usize::from(count(&a, c))).sum::<usize>());
            let contains = Card::all().all(|c| count(&a, c) >= count(&b, c));
            assert_eq!(ca.contains(&cb), contains, "{a:?} {b:?}");
            for suit in Suit::ALL {
                let expected: usize = Card::all().filter(|c| c.suit() == suit).map(|c| usize::from(count(&a, c))).sum();
                assert_eq!(ca.suit_count(suit), expected);
                let of_suit: Cards = a.iter().filter(|c| c.suit() == suit).collect();
                assert_eq!(ca.of_suit(suit), of_suit);
                assert_eq!(ca.without(&of_suit), a.iter().filter(|c| c.suit() != suit).collect());
            }
            let numbers: [u8; 5] =
                std::array::from_fn(|n| Card::all().filter(|c| c.number() == n as u8 + 1).map(|c| count(&a, c)).sum());
            assert_eq!(ca.number_counts(), numbers);
            let held = |c: &Card| count(&a, *c) > 0;
            let first = Card::all().find(held);
            assert_eq!(ca.one_number(), Card::all().filter(held).all(|c| Some(c.number()) == first.map(Card::number)));
            assert_eq!(ca.one_suit(), Card::all().filter(held).all(|c| Some(c.suit()) == first.map(Card::suit)));
            if a.len() <= 7 {
                let slots: Vec<Option<Card>> =
                    a.iter().map(|&c| Some(c)).chain(std::iter::repeat_n(None, 7 - a.len())).collect();
                assert_eq!(Cards::of_slots(&slots), ca);
            }
            let kinds: Vec<(Card, u8)> = Card::all().map(|c| (c, count(&a, c))).filter(|&(_, n)| n > 0).collect();
            assert_eq!(ca.kinds().collect::<Vec<_>>(), kinds);
            let mut rest = ca;
            assert_eq!(rest.remove_all(&cb), contains);
            if contains {
                rest.add_all(&cb);
            }
            assert_eq!(rest, ca);
        }
    }

    #[test]
    fn card_codes_round_trip() {
        for card in Card::all() {
            let code = card.to_string();
            assert_eq!(code.parse::<Card>(), Ok(card));
            assert_eq!(serde_json::to_string(&card).ok(), Some(format!("\"{code}\"")));
        }
        assert_eq!("3he".parse::<Card>().map(|c| (c.number(), c.suit())), Ok((3, Suit::Heart)));
        for bad in ["", "0ch", "6he", "3HE", "3hx", "33he", "é"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }
}
