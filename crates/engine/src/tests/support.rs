//! Helpers that build positions for tests by moving cards between the piles of a real game.
//!
//! Every position starts from a real [`Game::new`] and is reached by *moving* cards and contracts from
//! pile to pile, never by creating or dropping one, so the 92 number cards and 36 contracts of §1 stay
//! somewhere exactly once ([`census`] counts them, [`assert_census`] checks the count).
//!
//! A helper that needs a card takes it from the loose piles first: the number deck (from the bottom, so
//! a stacked top stays in place), then the discard pile, then the suit bonus piles, the hands and the
//! market. A card taken from a hand or a market slot is replaced by a loose card when there is one, so
//! hand sizes and the market stay as they were; a pile a helper empties goes to the bottom of the deck.
//! Each helper sets its own pile exactly; a later helper may swap a card out of an earlier helper's pile
//! only when that card has no loose copy left, so tests set piles from the most to the least specific and
//! assert what they rely on.

use crate::action::{Phase, Seat, TurnStep};
use crate::cards::{Card, Cards};
use crate::contracts::{CONTRACT_COUNT, ContractId};
use crate::game::{CONTRACT_MARKET_SLOTS, Game, NUMBER_MARKET_SLOTS};
use crate::trophies::Trophy;

/// The card with this record code, e.g. `3he`.
pub(crate) fn card(code: &str) -> Card {
    code.parse().expect("tests name cards by valid codes like 3he")
}

/// The cards with these record codes, as a list in the given order.
pub(crate) fn card_list(codes: &[&str]) -> Vec<Card> {
    codes.iter().map(|code| card(code)).collect()
}

/// The cards with these record codes, as a multiset.
pub(crate) fn cards(codes: &[&str]) -> Cards {
    codes.iter().map(|code| card(code)).collect()
}

/// The contract with this row number of the table of §1.2.
pub(crate) fn contract(number: u8) -> ContractId {
    ContractId::new(number).expect("tests name contracts 1 to 36")
}

/// Every number card and every contract of the game, wherever it is: the number deck, the number market,
/// the discard pile, each hand and suit bonus pile; the contract deck, the contract market and each play
/// area. Index `i` of the array counts contract `#i+1`. A game whose material is intact holds
/// `Cards::full_deck()` and one of each contract.
pub(crate) fn census(game: &Game) -> (Cards, [u8; CONTRACT_COUNT]) {
    let mut numbers = Cards::EMPTY;
    for card in game.number_deck.iter().chain(&game.discard_pile).chain(game.number_market.iter().flatten()) {
        numbers.add(*card);
    }
    for seat in &game.seats {
        numbers.add_all(&seat.hand);
        numbers.add_all(&seat.suit_bonus);
    }
    let mut contracts = [0u8; CONTRACT_COUNT];
    let everywhere = game
        .contract_deck
        .iter()
        .chain(game.contract_market.iter().flatten())
        .chain(game.seats.iter().flat_map(|seat| &seat.contracts));
    for contract in everywhere {
        contracts[contract.index()] += 1;
    }
    (numbers, contracts)
}

/// Panics unless the game holds exactly the material of §1.1 and §1.2.
pub(crate) fn assert_census(game: &Game) {
    let (numbers, contracts) = census(game);
    assert_eq!(numbers, Cards::full_deck(), "§1.1: every number card exactly once");
    assert_eq!(contracts, [1; CONTRACT_COUNT], "§1.2: every contract exactly once");
}

/// A real game of `players` from `seed`, with seat 0 as the first player and to take: most tests want to
/// know who acts without reading the seed's draw.
pub(crate) fn new_game(players: usize, seed: u64) -> Game {
    let mut game = Game::new(players, seed).expect("2 to 4 players");
    set_first_player(&mut game, Seat(0));
    set_to_act(&mut game, Seat(0), TurnStep::Take);
    game
}

/// Makes `seat` the first player (§2.6), which decides when the last round ends (§4).
pub(crate) fn set_first_player(game: &mut Game, seat: Seat) {
    game.setup.first_player = seat;
}

/// Makes `seat` the player to act, in `step`. Only for positions where nothing of the current turn is
/// to be taken back: the take-back history is not touched. No event is written, as for every helper
/// here: a position is set up, not played.
pub(crate) fn set_to_act(game: &mut Game, seat: Seat, step: TurnStep) {
    game.phase = Phase::Playing { seat, step };
}

/// Puts these trophies in play (§2.5).
pub(crate) fn set_trophies(game: &mut Game, trophies: [Trophy; 4]) {
    game.setup.trophies = trophies;
}

/// Marks the seat's Star as used (§3.2).
pub(crate) fn use_star(game: &mut Game, seat: Seat) {
    game.seats[seat.index()].star_used = true;
}

/// Takes one loose card out of the deck (from the bottom, so a stacked top stays) or, when the deck is
/// empty, the discard pile.
fn take_loose(game: &mut Game) -> Option<Card> {
    if game.number_deck.is_empty() { game.discard_pile.pop() } else { Some(game.number_deck.remove(0)) }
}

/// Removes one copy of `card` from wherever it is (see the module documentation for the order), filling
/// a hand or market hole it leaves with a loose card when there is one.
///
/// # Panics
/// When no copy is left outside `except`, the pile being built.
fn pull(game: &mut Game, card: Card, except: Except) {
    let below = match except {
        Except::DeckTop(stacked) => game.number_deck.len() - stacked,
        _ => game.number_deck.len(),
    };
    if let Some(i) = game.number_deck[..below].iter().position(|&c| c == card) {
        game.number_deck.remove(i);
        return;
    }
    if except != Except::Discard {
        if let Some(i) = game.discard_pile.iter().rposition(|&c| c == card) {
            game.discard_pile.remove(i);
            return;
        }
    }
    for seat in 0..game.seats.len() {
        if except != Except::SuitBonus(seat) && game.seats[seat].suit_bonus.remove(card) {
            return;
        }
    }
    for seat in 0..game.seats.len() {
        if except != Except::Hand(seat) && game.seats[seat].hand.remove(card) {
            if let Some(replacement) = take_loose(game) {
                game.seats[seat].hand.add(replacement);
            }
            return;
        }
    }
    if except != Except::Market {
        if let Some(slot) = game.number_market.iter().position(|&c| c == Some(card)) {
            game.number_market[slot] = take_loose(game);
            return;
        }
    }
    panic!("no copy of {card} is left to move: a test asks for more copies than §1.1 has");
}

/// The pile a helper is building, which [`pull`] must not take from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Except {
    /// The top cards of the deck, already stacked.
    DeckTop(usize),
    Discard,
    Market,
    Hand(usize),
    SuitBonus(usize),
}

/// Puts every card of `cards` at the bottom of the number deck.
fn to_deck_bottom(game: &mut Game, cards: impl IntoIterator<Item = Card>) {
    let cards: Vec<Card> = cards.into_iter().collect();
    game.number_deck.splice(0..0, cards);
}

/// The seat's hand becomes exactly `hand`; the cards it held go to the bottom of the deck.
pub(crate) fn give_hand(game: &mut Game, seat: Seat, hand: &[&str]) {
    let old = std::mem::take(&mut game.seats[seat.index()].hand);
    to_deck_bottom(game, old.iter());
    for card in card_list(hand) {
        pull(game, card, Except::Hand(seat.index()));
        game.seats[seat.index()].hand.add(card);
    }
}

/// The seat's suit bonus pile becomes exactly `pile`; the cards it held go to the bottom of the deck.
pub(crate) fn give_suit_bonus(game: &mut Game, seat: Seat, pile: &[&str]) {
    let old = std::mem::take(&mut game.seats[seat.index()].suit_bonus);
    to_deck_bottom(game, old.iter());
    for card in card_list(pile) {
        pull(game, card, Except::SuitBonus(seat.index()));
        game.seats[seat.index()].suit_bonus.add(card);
    }
}

/// The number market becomes exactly `market`, slot by slot (`None` leaves a slot empty); the cards it
/// held go to the bottom of the deck.
pub(crate) fn set_number_market(game: &mut Game, market: [Option<&str>; NUMBER_MARKET_SLOTS]) {
    let old: Vec<Card> = game.number_market.iter_mut().filter_map(Option::take).collect();
    to_deck_bottom(game, old);
    for (slot, code) in market.into_iter().enumerate() {
        if let Some(code) = code {
            let card = card(code);
            pull(game, card, Except::Market);
            game.number_market[slot] = Some(card);
        }
    }
}

/// The discard pile becomes exactly `pile` (first listed at the bottom); the cards it held go to the
/// bottom of the deck.
pub(crate) fn set_discard_pile(game: &mut Game, pile: &[&str]) {
    let old = std::mem::take(&mut game.discard_pile);
    to_deck_bottom(game, old);
    for card in card_list(pile) {
        pull(game, card, Except::Discard);
        game.discard_pile.push(card);
    }
}

/// Puts these cards on top of the number deck, `top_first[0]` on the very top.
pub(crate) fn stack_number_deck(game: &mut Game, top_first: &[&str]) {
    for (stacked, card) in card_list(top_first).into_iter().rev().enumerate() {
        pull(game, card, Except::DeckTop(stacked));
        game.number_deck.push(card);
    }
}

/// Moves the whole number deck onto the discard pile (order kept), leaving the deck empty.
pub(crate) fn empty_number_deck_into_discard(game: &mut Game) {
    let deck = std::mem::take(&mut game.number_deck);
    game.discard_pile.extend(deck);
}

/// The number deck becomes exactly `top_first` (its first card on top); every other card of the deck
/// goes to the discard pile.
pub(crate) fn set_number_deck(game: &mut Game, top_first: &[&str]) {
    empty_number_deck_into_discard(game);
    stack_number_deck(game, top_first);
}

/// Where [`stash_number_supply`] puts the cards it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stash {
    /// Into this seat's hand: scores nothing (§5), but counts toward its hand size.
    Hand(Seat),
    /// Into this seat's suit bonus pile: hidden from others, but one point per card (§5.3).
    SuitBonus(Seat),
}

/// Moves the number deck and the discard pile into a seat's pile, so that no card is left to draw (§3.3).
pub(crate) fn stash_number_supply(game: &mut Game, into: Stash) {
    let supply: Cards = game.number_deck.drain(..).chain(game.discard_pile.drain(..)).collect();
    match into {
        Stash::Hand(seat) => game.seats[seat.index()].hand.add_all(&supply),
        Stash::SuitBonus(seat) => game.seats[seat.index()].suit_bonus.add_all(&supply),
    }
}

/// Removes `id` from wherever it is: the contract deck, then the play areas, then the market (whose slot
/// is refilled from the top of the contract deck, or left empty).
fn pull_contract(game: &mut Game, id: ContractId) {
    if let Some(i) = game.contract_deck.iter().position(|&c| c == id) {
        game.contract_deck.remove(i);
        return;
    }
    for seat in &mut game.seats {
        if let Some(i) = seat.contracts.iter().position(|&c| c == id) {
            seat.contracts.remove(i);
            return;
        }
    }
    if let Some(slot) = game.contract_market.iter().position(|&c| c == Some(id)) {
        game.contract_market[slot] = game.contract_deck.pop();
        return;
    }
    panic!("contract {id} is nowhere: the game's material is broken");
}

/// The contract market becomes exactly `market` (row numbers of §1.2, `None` for an empty slot); the
/// contracts it held go to the bottom of the contract deck.
pub(crate) fn set_contract_market(game: &mut Game, market: [Option<u8>; CONTRACT_MARKET_SLOTS]) {
    let old: Vec<ContractId> = game.contract_market.iter_mut().filter_map(Option::take).collect();
    game.contract_deck.splice(0..0, old);
    for (slot, number) in market.into_iter().enumerate() {
        if let Some(number) = number {
            let id = contract(number);
            pull_contract(game, id);
            game.contract_market[slot] = Some(id);
        }
    }
}

/// The seat's play area becomes exactly these contracts, in this order; the contracts it held go to the
/// bottom of the contract deck.
pub(crate) fn give_contracts(game: &mut Game, seat: Seat, contracts: &[u8]) {
    let old = std::mem::take(&mut game.seats[seat.index()].contracts);
    game.contract_deck.splice(0..0, old);
    for &number in contracts {
        let id = contract(number);
        pull_contract(game, id);
        game.seats[seat.index()].contracts.push(id);
    }
}

/// Puts these contracts on top of the contract deck, `top_first[0]` on the very top.
pub(crate) fn stack_contract_deck(game: &mut Game, top_first: &[u8]) {
    for &number in top_first.iter().rev() {
        let id = contract(number);
        pull_contract(game, id);
        game.contract_deck.push(id);
    }
}

/// Moves the whole contract deck into the seat's play area, leaving the deck empty (§3.3). The seat
/// then has many contracts, so the last round is on (§4).
pub(crate) fn stash_contract_deck(game: &mut Game, seat: Seat) {
    let deck = std::mem::take(&mut game.contract_deck);
    game.seats[seat.index()].contracts.extend(deck);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_move_cards_without_creating_or_losing_any() {
        let mut game = new_game(3, 11);
        assert_census(&game);
        give_hand(&mut game, Seat(0), &["1ch", "1ch", "1ch", "1ch", "5he"]);
        set_number_market(&mut game, [Some("1di"), Some("1di"), None, Some("2he"), Some("3he"), Some("4he")]);
        give_hand(&mut game, Seat(1), &["1he", "1he"]);
        give_suit_bonus(&mut game, Seat(2), &["5cl", "5cl"]);
        set_discard_pile(&mut game, &["2cl", "3cl"]);
        stack_number_deck(&mut game, &["4di", "4ch"]);
        give_contracts(&mut game, Seat(1), &[7, 9]);
        set_contract_market(&mut game, [Some(1), None, Some(36), Some(9)]);
        stack_contract_deck(&mut game, &[12, 13]);
        assert_census(&game);

        assert_eq!(game.seats[0].hand, cards(&["1ch", "1ch", "1ch", "1ch", "5he"]));
        assert_eq!(game.seats[1].hand, cards(&["1he", "1he"]));
        assert_eq!(game.seats[2].suit_bonus, cards(&["5cl", "5cl"]));
        assert_eq!(game.number_market[2], None);
        assert_eq!(game.number_market[0], Some(card("1di")));
        assert_eq!(game.discard_pile, card_list(&["2cl", "3cl"]));
        assert_eq!(game.number_deck[game.number_deck.len() - 2..], card_list(&["4ch", "4di"]));
        assert_eq!(game.seats[1].contracts, vec![contract(7)], "#9 moved on to the market");
        assert_eq!(game.contract_market, [Some(contract(1)), None, Some(contract(36)), Some(contract(9))]);
        assert_eq!(game.contract_deck[game.contract_deck.len() - 2..], [contract(13), contract(12)]);

        set_number_deck(&mut game, &["2di"]);
        assert_eq!(game.number_deck, card_list(&["2di"]));
        stash_number_supply(&mut game, Stash::SuitBonus(Seat(2)));
        stash_contract_deck(&mut game, Seat(2));
        assert!(game.number_deck.is_empty() && game.discard_pile.is_empty() && game.contract_deck.is_empty());
        assert_census(&game);
    }
}
