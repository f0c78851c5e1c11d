//! Cards, their record codes (`rummy-record-format.md`, "Codes"), each game's deck, and the seeded
//! generator that shuffles it.
//!
//! A card is one byte: the 52 naturals and the joker. Copies of one card (the two decks of Rami and
//! Rumino) are the same value, as the rule books make them interchangeable and the record gives them one
//! code.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in the order of the record's letters: clubs `c`, diamonds `d`, hearts `h`, spades `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// `c`.
    #[serde(rename = "c")]
    Clubs,
    /// `d`.
    #[serde(rename = "d")]
    Diamonds,
    /// `h`.
    #[serde(rename = "h")]
    Hearts,
    /// `s`.
    #[serde(rename = "s")]
    Spades,
}

impl Suit {
    /// The four suits in code order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's record letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'c',
            Suit::Diamonds => 'd',
            Suit::Hearts => 'h',
            Suit::Spades => 's',
        }
    }

    /// The suit of a record letter.
    pub const fn from_letter(letter: char) -> Option<Suit> {
        match letter {
            'c' => Some(Suit::Clubs),
            'd' => Some(Suit::Diamonds),
            'h' => Some(Suit::Hearts),
            's' => Some(Suit::Spades),
            _ => None,
        }
    }

    /// 0 to 3, in code order.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A rank, 1 (ace) to 13 (king). In the record a rank alone is written as in a card code (`A`, `9`, `K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The ace.
    pub const ACE: Rank = Rank(1);
    /// The jack.
    pub const JACK: Rank = Rank(11);
    /// The queen.
    pub const QUEEN: Rank = Rank(12);
    /// The king.
    pub const KING: Rank = Rank(13);

    /// The rank numbered `n`, 1 (ace) to 13 (king).
    pub const fn new(n: u8) -> Option<Rank> {
        if n >= 1 && n <= 13 { Some(Rank(n)) } else { None }
    }

    /// 1 (ace) to 13 (king).
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Whether this is the ace.
    pub const fn is_ace(self) -> bool {
        self.0 == 1
    }

    /// Every rank, ace first.
    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("A"),
            11 => f.write_str("J"),
            12 => f.write_str("Q"),
            13 => f.write_str("K"),
            n => write!(f, "{n}"),
        }
    }
}

impl FromStr for Rank {
    type Err = BadCode;

    fn from_str(s: &str) -> Result<Rank, BadCode> {
        let rank = match s {
            "A" => Rank::ACE,
            "J" => Rank::JACK,
            "Q" => Rank::QUEEN,
            "K" => Rank::KING,
            // "2" to "10" only: no sign, no leading zero.
            _ if !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit()) => match s.parse::<u8>() {
                Ok(n @ 2..=10) => Rank(n),
                _ => return Err(BadCode(s.chars().take(8).collect())),
            },
            _ => return Err(BadCode(s.chars().take(8).collect())),
        };
        Ok(rank)
    }
}

/// A code that is not a card (or rank) code of the record format. Holds at most 8 characters of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card code (ranks A, 2-10, J, Q, K with suit c, d, h or s; X for a joker)")]
pub struct BadCode(pub String);

/// One card: a natural (a rank of a suit) or a joker.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The joker, `X`.
    pub const JOKER: Card = Card(52);

    /// The natural card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank.0 - 1)
    }

    /// Whether this is a joker.
    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// The rank of a natural; `None` for a joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() { None } else { Some(Rank(self.0 % 13 + 1)) }
    }

    /// The suit of a natural; `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        match self.0 / 13 {
            0 => Some(Suit::Clubs),
            1 => Some(Suit::Diamonds),
            2 => Some(Suit::Hearts),
            3 => Some(Suit::Spades),
            _ => None,
        }
    }

    /// A dense index, 0 to 52 (the joker is 52), for tables indexed by card.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card of a dense index ([`Card::index`]); the joker from 52 on.
    pub(crate) const fn from_index(index: usize) -> Card {
        if index < 52 { Card(index as u8) } else { Card::JOKER }
    }

    /// The 52 naturals, clubs first, ace to king in each suit.
    pub fn naturals() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(rank), Some(suit)) => write!(f, "{rank}{}", suit.letter()),
            _ => f.write_str("X"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = BadCode;

    fn from_str(s: &str) -> Result<Card, BadCode> {
        if s == "X" {
            return Ok(Card::JOKER);
        }
        let bad = || BadCode(s.chars().take(8).collect());
        let mut chars = s.chars();
        let suit = chars.next_back().and_then(Suit::from_letter).ok_or_else(bad)?;
        let rank = chars.as_str().parse::<Rank>().map_err(|_| bad())?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Rank, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses space-separated card codes, for tests and examples: `cards("Qh Kh Ah")`.
///
/// # Errors
/// The first code that is not a card.
pub fn parse_cards(codes: &str) -> Result<Vec<Card>, BadCode> {
    codes.split_whitespace().map(str::parse).collect()
}

/// What a game's deck is made of: how many copies of the 52 naturals, and how many jokers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeckSpec {
    /// Copies of each natural.
    pub copies: u8,
    /// Jokers.
    pub jokers: u8,
}

impl DeckSpec {
    /// Rommi (rommi §1): one 52-card deck, no jokers.
    pub const ROMMI: DeckSpec = DeckSpec { copies: 1, jokers: 0 };
    /// Rami (rami §1) and Rumino (rumino §1): 108 cards, every natural twice and 4 jokers.
    pub const DOUBLE: DeckSpec = DeckSpec { copies: 2, jokers: 4 };

    /// How many cards the deck holds.
    pub const fn len(self) -> usize {
        52 * self.copies as usize + self.jokers as usize
    }

    /// Whether the deck holds no card (never, for the games' decks).
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The deck in a fixed order (each copy's naturals, clubs first, then the jokers), before shuffling.
    pub fn cards(self) -> Vec<Card> {
        let mut deck = Vec::with_capacity(self.len());
        for _ in 0..self.copies {
            deck.extend(Card::naturals());
        }
        deck.extend(std::iter::repeat_n(Card::JOKER, usize::from(self.jokers)));
        deck
    }

    /// Whether `cards` is exactly this deck, in any order.
    pub fn is_deck(self, cards: &[Card]) -> bool {
        let mut counts = [0u8; 53];
        for card in cards {
            counts[card.index()] = counts[card.index()].saturating_add(1);
        }
        cards.len() == self.len()
            && counts[..52].iter().all(|&n| n == self.copies)
            && counts[Card::JOKER.index()] == self.jokers
    }

    /// The deck shuffled by `rng`.
    pub fn shuffled(self, rng: &mut RummyRng) -> Vec<Card> {
        let mut deck = self.cards();
        rng.shuffle(&mut deck);
        deck
    }
}

/// A seeded, portable generator: `rand_chacha::ChaCha8Rng` keyed by the seed's little-endian bytes
/// followed by zeros, as `romirami-engine`'s `GameRng` is, so a seed gives the same deals on every
/// machine. The draws built on it ([`RummyRng::below`], [`RummyRng::shuffle`]) are fixed by this file.
///
/// Its `Debug` output never shows its state, so it is safe in a log line.
#[derive(Clone)]
pub struct RummyRng(ChaCha8Rng);

impl RummyRng {
    /// A generator seeded from `seed`.
    pub fn from_seed(seed: u64) -> RummyRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        RummyRng(ChaCha8Rng::from_seed(key))
    }

    /// A uniform integer in `0..n` (see [`below`]).
    ///
    /// # Panics
    /// When `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        below(&mut self.0, n)
    }

    /// Shuffles `items` in place with the Fisher–Yates algorithm, last position first.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// So that a bot or a tool can take any generator (`&mut impl rand_core::Rng`), this one included.
impl rand_core::TryRng for RummyRng {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.next_u32())
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill_bytes(dst);
        Ok(())
    }
}

impl fmt::Debug for RummyRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RummyRng { .. }")
    }
}

/// A uniform integer in `0..n` from any generator, by rejection so that every value is exactly as likely
/// (a 64-bit draw below the largest multiple of `n`, then its remainder).
///
/// # Panics
/// When `n` is 0.
pub fn below(rng: &mut (impl Rng + ?Sized), n: usize) -> usize {
    assert!(n > 0, "below(0) has no value to return");
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= zone {
            return (x % n) as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        for card in Card::naturals().chain([Card::JOKER]) {
            let code = card.to_string();
            assert_eq!(code.parse::<Card>(), Ok(card), "{code}");
            assert_eq!(serde_json::to_string(&card).expect("test data"), format!("\"{code}\""));
        }
        assert_eq!(Card::naturals().map(|c| c.to_string()).collect::<std::collections::HashSet<_>>().len(), 52);
    }

    #[test]
    fn codes_follow_the_record_format() {
        let ten = Card::new(Rank::new(10).expect("test data"), Suit::Spades);
        assert_eq!(ten.to_string(), "10s");
        assert_eq!("Ah".parse::<Card>().expect("test data"), Card::new(Rank::ACE, Suit::Hearts));
        assert_eq!("Qd".parse::<Card>().expect("test data").rank(), Some(Rank::QUEEN));
        assert_eq!("Kc".parse::<Card>().expect("test data").suit(), Some(Suit::Clubs));
        assert!(Card::JOKER.is_joker() && Card::JOKER.rank().is_none() && Card::JOKER.suit().is_none());
        for bad in ["", "1h", "11h", "010s", "Ax", "ah", "x", "XX", "+5c", "10", "A", "Jokers"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
        assert_eq!("9".parse::<Rank>(), Ok(Rank::new(9).expect("test data")));
        assert_eq!("A".parse::<Rank>(), Ok(Rank::ACE));
        for bad in ["1", "0", "11", "09", "X", "9c", ""] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }

    #[test]
    fn decks_hold_each_games_cards() {
        let rommi = DeckSpec::ROMMI.cards();
        assert_eq!(rommi.len(), 52);
        assert!(DeckSpec::ROMMI.is_deck(&rommi));
        let double = DeckSpec::DOUBLE.cards();
        assert_eq!(double.len(), 108);
        assert_eq!(double.iter().filter(|c| c.is_joker()).count(), 4);
        assert!(DeckSpec::DOUBLE.is_deck(&double));
        assert!(!DeckSpec::ROMMI.is_deck(&double));
        let mut short = rommi.clone();
        short[0] = short[1];
        assert!(!DeckSpec::ROMMI.is_deck(&short), "a duplicate in place of a card");
    }

    #[test]
    fn a_seed_gives_one_shuffle_of_the_deck() {
        let a = DeckSpec::DOUBLE.shuffled(&mut RummyRng::from_seed(5));
        let b = DeckSpec::DOUBLE.shuffled(&mut RummyRng::from_seed(5));
        let c = DeckSpec::DOUBLE.shuffled(&mut RummyRng::from_seed(6));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(DeckSpec::DOUBLE.is_deck(&a));
        // Fixed for all time: if this changes, seeds no longer give the deals they gave before.
        let first: Vec<String> = a.iter().take(5).map(Card::to_string).collect();
        assert_eq!(first, GOLDEN_SEED_5);
    }

    const GOLDEN_SEED_5: [&str; 5] = ["9s", "9c", "8d", "10h", "5c"];

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = RummyRng::from_seed(3);
        let mut seen = [false; 7];
        for _ in 0..500 {
            let x = rng.below(7);
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
