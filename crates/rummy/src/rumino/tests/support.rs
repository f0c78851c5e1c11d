//! Helpers for the Rumino tests: card lists from codes, and matches dealt from decks built by hand.

use std::collections::VecDeque;

use crate::cards::{Card, DeckSpec, parse_cards};
use crate::rumino::game::Source;
use crate::rumino::{RuminoMatch, RuminoOptions};
use crate::seat::Seat;

/// Cards from space-separated codes.
pub(crate) fn cards(codes: &str) -> Vec<Card> {
    parse_cards(codes).expect("test card codes are valid")
}

/// One card from its code.
pub(crate) fn card(code: &str) -> Card {
    code.parse().expect("a test card code is valid")
}

/// A 108-card deck, top first, that deals `hands` (one per seat of `order`, the deal order of §5 step 2:
/// from the next player after the dealer), then turns `upcard`, with `stock` on top of the stock and the
/// rest of the cards below it.
pub(crate) fn deck(order: &[Seat], hands: &[&str], upcard: &str, stock: &str) -> Vec<Card> {
    assert_eq!(order.len(), hands.len());
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut top = Vec::new();
    for round in 0..7 {
        for hand in &hands {
            top.push(hand[round]);
        }
    }
    top.push(card(upcard));
    top.extend(cards(stock));
    let mut rest = DeckSpec::DOUBLE.cards();
    for card in &top {
        let at = rest.iter().position(|c| c == card).expect("the deck holds the card as often as the test uses it");
        rest.remove(at);
    }
    top.extend(rest);
    top
}

/// A match of `players` with hand 1 dealt by `dealer`, whose hands are dealt from `decks` in order and
/// whose reshuffles are `reshuffles` in order.
pub(crate) fn stacked(
    players: usize,
    dealer: Seat,
    options: RuminoOptions,
    decks: Vec<Vec<Card>>,
    reshuffles: Vec<Vec<Card>>,
) -> RuminoMatch {
    let source = Source::Scripted {
        decks: VecDeque::from(decks),
        reshuffles: VecDeque::from(reshuffles),
        fault: None,
        seeded: None,
    };
    RuminoMatch::start(players, options, dealer, source).expect("a valid test table")
}

/// Seats from their numbers.
pub(crate) fn seats(numbers: &[u8]) -> Vec<Seat> {
    numbers.iter().map(|&n| Seat(n)).collect()
}
