//! What the `*_apply` targets share: the input read as bytes, and the check of one action against the
//! verdict the rules gave beforehand. Each target is its own crate root and uses only part of this.
#![allow(dead_code, reason = "each target uses a different part")]

use std::fmt::Debug;

use romirami_rummy::Card;

/// Reads bytes off the front of the input, zero once it is used up.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn byte(&mut self) -> u8 {
        let Some((&first, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        first
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A seed from the next 8 bytes, little-endian.
    pub fn seed(&mut self) -> u64 {
        u64::from_le_bytes(std::array::from_fn(|_| self.byte()))
    }

    /// A rummy card: mostly one of `hand`, so that plays are worth checking; any card otherwise.
    pub fn card(&mut self, hand: &[Card]) -> Card {
        let b = self.byte();
        if b & 3 != 0 && !hand.is_empty() {
            hand[usize::from(b >> 2) % hand.len()]
        } else {
            Card::naturals().nth(usize::from(b >> 2) % 52).unwrap_or(Card::JOKER)
        }
    }

    /// Up to `most` rummy cards, as [`Bytes::card`] picks them.
    pub fn cards(&mut self, hand: &[Card], most: u8) -> Vec<Card> {
        (0..self.byte() % (most + 1)).map(|_| self.card(hand)).collect()
    }
}

/// Plays an action with `apply` on `game`, whose legality the rules gave beforehand (`allowed`): `apply`
/// must succeed exactly when it is allowed, and a refusal must leave everything `look` sees of the game
/// as it was. Returns what a successful `apply` gave.
pub fn apply_as_judged<G, S, T, E>(
    game: &mut G,
    allowed: bool,
    action: &dyn Debug,
    look: impl Fn(&G) -> S,
    apply: impl FnOnce(&mut G) -> Result<T, E>,
) -> Option<T>
where
    S: PartialEq + Debug,
{
    let before = look(game);
    match apply(game) {
        Ok(applied) => {
            assert!(allowed, "{action:?} was applied though the rules refuse it");
            Some(applied)
        }
        Err(_) => {
            assert!(!allowed, "{action:?} was refused though the rules allow it");
            assert!(look(game) == before, "a refused {action:?} changed the game");
            None
        }
    }
}
