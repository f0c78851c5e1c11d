//! Rami's hand: a count per kind of card. Two decks put up to two copies of a natural and four jokers in
//! play (rami §1), and copies are interchangeable, so a hand is a multiset, not a list.

use std::fmt;

use crate::cards::Card;

/// How many kinds of card: 52 naturals and the joker (`Card::index`).
pub(crate) const KINDS: usize = 53;

/// The card of an index below [`KINDS`] (the inverse of `Card::index`).
pub(crate) fn card(index: usize) -> Card {
    Card::from_index(index)
}

/// A multiset of cards: how many of each kind.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Hand {
    counts: [u8; KINDS],
    len: usize,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand { counts: [0; KINDS], len: 0 }
    }
}

impl Hand {
    pub(crate) fn from_cards(cards: &[Card]) -> Hand {
        let mut hand = Hand::default();
        for &card in cards {
            hand.add(card);
        }
        hand
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn count(&self, card: Card) -> u8 {
        self.counts[card.index()]
    }

    pub(crate) fn add(&mut self, card: Card) {
        self.counts[card.index()] += 1;
        self.len += 1;
    }

    /// Removes one copy of `card`; false (and nothing removed) when the hand has none.
    pub(crate) fn remove(&mut self, card: Card) -> bool {
        let count = &mut self.counts[card.index()];
        if *count == 0 {
            return false;
        }
        *count -= 1;
        self.len -= 1;
        true
    }

    /// Whether every card of `cards` is here, copies counted.
    pub(crate) fn contains_all(&self, cards: &[Card]) -> bool {
        let mut needed = [0u8; KINDS];
        for &card in cards {
            needed[card.index()] = needed[card.index()].saturating_add(1);
        }
        needed.iter().zip(&self.counts).all(|(need, have)| need <= have)
    }

    /// Removes every card of `cards` when they are all here, copies counted, and says whether it did
    /// (the hand is unchanged when not): [`Hand::contains_all`] then [`Hand::remove_all`] in one pass.
    pub(crate) fn take_all(&mut self, cards: &[Card]) -> bool {
        for (i, &card) in cards.iter().enumerate() {
            if !self.remove(card) {
                for &taken in &cards[..i] {
                    self.add(taken);
                }
                return false;
            }
        }
        true
    }

    /// Removes every card of `cards`, which [`Hand::contains_all`] has accepted.
    pub(crate) fn remove_all(&mut self, cards: &[Card]) {
        for &card in cards {
            let removed = self.remove(card);
            debug_assert!(removed, "the caller checked that {card} is in the hand");
        }
    }

    /// The cards, naturals by suit then rank, jokers last.
    pub(crate) fn cards(&self) -> Vec<Card> {
        self.counts
            .iter()
            .enumerate()
            .flat_map(|(index, &count)| std::iter::repeat_n(card(index), usize::from(count)))
            .collect()
    }

    /// The distinct cards held.
    pub(crate) fn kinds(&self) -> impl Iterator<Item = Card> + '_ {
        self.counts.iter().enumerate().filter(|(_, count)| **count > 0).map(|(index, _)| card(index))
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}
