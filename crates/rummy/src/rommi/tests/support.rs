//! Building matches in a chosen position, and playing random ones.

use crate::cards::{Card, DeckSpec, RummyRng, parse_cards};
use crate::seat::Seat;

use super::super::game::hand_size;
use super::super::{RommiAction, RommiIllegal, RommiMatch, RommiOptions};

/// One card from its code.
pub(super) fn c(code: &str) -> Card {
    code.parse().expect("a card code")
}

/// Cards from space-separated codes.
pub(super) fn cs(codes: &str) -> Vec<Card> {
    parse_cards(codes).expect("card codes")
}

/// A match whose first round deals exactly `hands` (seat 0 first; a short hand is filled from the cards
/// nobody named, in deck order), with `top` turned up and `stock` on top of the stock. The dealer is the
/// last seat, so seat 0 plays first. The deck is a real deck, so the record replays.
pub(super) fn table(options: RommiOptions, hands: &[&str], top: &str, stock: &str) -> RommiMatch {
    let players = hands.len();
    let size = hand_size(players);
    let named: Vec<Card> = hands.iter().flat_map(|h| cs(h)).chain([c(top)]).chain(cs(stock)).collect();
    let mut spare = DeckSpec::ROMMI.cards().into_iter().filter(|card| !named.contains(card));
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| {
            let mut hand = cs(h);
            while hand.len() < size {
                hand.push(spare.next().expect("enough spare cards"));
            }
            hand
        })
        .collect();
    let mut deck = Vec::with_capacity(52);
    for i in 0..size {
        deck.extend(hands.iter().map(|h| h[i]));
    }
    deck.push(c(top));
    deck.extend(cs(stock));
    deck.extend(spare);
    assert!(DeckSpec::ROMMI.is_deck(&deck), "the test's cards are the deck, each once");
    let mut m = RommiMatch::empty(players, options, RummyRng::from_seed(9)).expect("a valid table");
    m.auto_deal = true;
    m.start_round(Seat((players - 1) as u8), deck);
    m
}

/// Moves `cards` (bottom first) from the stock onto the discard pile, over the card turned up.
pub(super) fn pile(m: &mut RommiMatch, codes: &str) {
    for card in cs(codes) {
        let at = m.round.stock.iter().position(|&s| s == card).expect("the card is in the stock");
        m.round.stock.remove(at);
        m.round.pile.push(card);
    }
}

/// Applies an action that must be legal.
pub(super) fn act(m: &mut RommiMatch, seat: u8, action: RommiAction) {
    if let Err(e) = m.apply(Seat(seat), &action) {
        panic!("{action:?} by seat {seat} was refused: {e}");
    }
}

/// An action that must be refused; returns why, and checks that nothing changed.
pub(super) fn refuse(m: &mut RommiMatch, seat: u8, action: RommiAction) -> RommiIllegal {
    let events = m.event_count();
    let err = m.apply(Seat(seat), &action).expect_err("the action must be refused");
    assert_eq!(m.event_count(), events, "a refused action changes nothing");
    assert!(!m.legal_actions(Seat(seat)).contains(&action), "a refused action is not listed");
    err
}

pub(super) fn meld(codes: &str) -> RommiAction {
    RommiAction::Meld { cards: cs(codes) }
}

pub(super) fn lay_off(id: u32, codes: &str) -> RommiAction {
    RommiAction::LayOff { id: crate::melds::MeldId(id), cards: cs(codes) }
}

pub(super) fn discard(code: &str) -> RommiAction {
    RommiAction::Discard { card: c(code) }
}

pub(super) fn take(code: &str) -> RommiAction {
    RommiAction::Take { card: c(code) }
}

/// Plays `m` with uniformly random legal actions from `rng` for at most `limit` actions, then abandons it
/// if the rules have not ended it (a table can go on taking from the pile forever, rommi §8). Calls
/// `each` before every action.
pub(super) fn play_random(
    m: &mut RommiMatch,
    rng: &mut RummyRng,
    limit: usize,
    mut each: impl FnMut(&RommiMatch, Seat, &[RommiAction]),
) {
    for _ in 0..limit {
        let Some(seat) = m.to_act() else { return };
        let legal = m.legal_actions(seat);
        each(m, seat, &legal);
        let action = legal[rng.below(legal.len())].clone();
        m.apply(seat, &action).expect("a listed action is legal");
    }
    m.abandon();
}
