//! The strong bot decides from its seat's view only (`romirami_game::search`), in each game of the
//! family: two matches that differ only in what the seat cannot see (another hand, the stock's order, the
//! generator of later deals) give the same worlds to search and the same decision; and every level plays
//! whole matches.

use proptest::prelude::*;
use romirami_game::{Budget, Level, TableGame};
use serde::Serialize;

use crate::cards::{Card, RummyRng};
use crate::rami::RamiMatch;
use crate::rami::cardkit::Hand;
use crate::rommi::RommiMatch;
use crate::rumino::RuminoMatch;
use crate::seat::{Seat, Viewer};

/// A match of the family, with its hidden parts reachable.
pub(super) trait Hidden: TableGame {
    /// The hands, by seat, and the stock.
    fn hidden(&self) -> (Vec<Vec<Card>>, Vec<Card>);
    /// Sets the hands and the stock, and gives later deals another generator.
    fn set_hidden(&mut self, hands: Vec<Vec<Card>>, stock: Vec<Card>, seed: u64);
}

impl Hidden for RommiMatch {
    fn hidden(&self) -> (Vec<Vec<Card>>, Vec<Card>) {
        (self.round.hands.clone(), self.round.stock.clone())
    }
    fn set_hidden(&mut self, hands: Vec<Vec<Card>>, stock: Vec<Card>, seed: u64) {
        (self.round.hands, self.round.stock, self.rng) = (hands, stock, RummyRng::from_seed(seed));
    }
}

impl Hidden for RamiMatch {
    fn hidden(&self) -> (Vec<Vec<Card>>, Vec<Card>) {
        (self.round.hands.iter().map(Hand::cards).collect(), self.round.stock.clone())
    }
    fn set_hidden(&mut self, hands: Vec<Vec<Card>>, stock: Vec<Card>, seed: u64) {
        self.round.hands = hands.iter().map(|cards| Hand::from_cards(cards)).collect();
        self.round.stock = stock;
        self.source = crate::rami::game::Source::Random(RummyRng::from_seed(seed));
    }
}

impl Hidden for RuminoMatch {
    fn hidden(&self) -> (Vec<Vec<Card>>, Vec<Card>) {
        (self.hands.clone(), self.stock.clone())
    }
    fn set_hidden(&mut self, hands: Vec<Vec<Card>>, stock: Vec<Card>, seed: u64) {
        (self.hands, self.stock) = (hands, stock);
        self.source = crate::rumino::game::Source::Random(RummyRng::from_seed(seed));
    }
}

/// `players` play `steps` actions of the normal bot from a new match with the game's default options.
pub(super) fn played<G: Hidden>(players: usize, seed: u64, steps: usize) -> G {
    let mut game = G::new(players, seed, &G::Options::default()).expect("a match");
    for _ in 0..steps {
        let Some(seat) = game.to_act() else { break };
        let action = game.bot(seat).expect("the bot has a move");
        game.apply(seat, &action).expect("the bot's move is legal");
    }
    game
}

/// `game` with a card of another hand swapped with a different one of the stock, and another generator
/// for later deals; `None` when no card can be swapped.
pub(super) fn hidden_changed<G: Hidden>(game: &G, seat: Seat, pick: u64) -> Option<G> {
    let (mut hands, mut stock) = game.hidden();
    let owners: Vec<usize> = (0..hands.len()).filter(|&i| i != seat.index() && !hands[i].is_empty()).collect();
    let owner = *owners.get((pick % owners.len().max(1) as u64) as usize)?;
    let at = (pick as usize / 7) % hands[owner].len();
    let slot = stock.iter().position(|card| *card != hands[owner][at])?;
    std::mem::swap(&mut hands[owner][at], &mut stock[slot]);
    let mut other = game.clone();
    other.set_hidden(hands, stock, pick ^ 0x5eed);
    Some(other)
}

/// Everything of a world, to compare two: every viewer's view, the hands and the stock.
fn state<G: Hidden>(game: &G) -> String {
    let views: Vec<String> = std::iter::once(Viewer::Spectator)
        .chain((0..game.hidden().0.len()).map(|i| Viewer::Seat(Seat(i as u8))))
        .map(|viewer| json(&game.view(viewer)))
        .collect();
    format!("{views:?} {:?}", game.hidden())
}

pub(super) fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("JSON")
}

/// The property, for one game.
fn reads_only_its_view<G: Hidden>(
    players: usize,
    seed: u64,
    steps: usize,
    pick: u64,
    think: u64,
) -> Result<(), TestCaseError> {
    let game: G = played(players, seed, steps);
    let Some(seat) = game.to_act() else { return Ok(()) };
    let Some(other) = hidden_changed(&game, seat, pick) else { return Ok(()) };
    prop_assert_eq!(json(&game.view(Viewer::Seat(seat))), json(&other.view(Viewer::Seat(seat))));
    prop_assert_ne!(state(&game), state(&other), "what the seat cannot see differs");
    prop_assert_eq!(state(&game.determinize(seat, think)), state(&other.determinize(seat, think)));
    let budget = Budget::playouts(think, 24);
    let (mine, theirs) = (game.bot_at(seat, Level::Strong, &budget), other.bot_at(seat, Level::Strong, &budget));
    prop_assert_eq!(mine.as_ref().map(json), theirs.as_ref().map(json));
    // And a world is one the seat cannot tell from the match (but that nobody takes back in it).
    let seen = |game: &G| {
        let mut view = serde_json::to_value(game.view(Viewer::Seat(seat))).expect("JSON");
        view.as_object_mut().map(|view| view.remove("can_take_back"));
        view
    };
    prop_assert_eq!(seen(&game), seen(&game.determinize(seat, think)));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn rommis_strong_bot_reads_nothing_its_seat_cannot_see(
        seed in any::<u64>(), players in 2usize..=4, steps in 0usize..60, pick in any::<u64>(), think in any::<u64>()
    ) {
        reads_only_its_view::<RommiMatch>(players, seed, steps, pick, think)?;
    }

    #[test]
    fn ramis_strong_bot_reads_nothing_its_seat_cannot_see(
        seed in any::<u64>(), players in 2usize..=5, steps in 0usize..60, pick in any::<u64>(), think in any::<u64>()
    ) {
        reads_only_its_view::<RamiMatch>(players, seed, steps, pick, think)?;
    }

    #[test]
    fn ruminos_strong_bot_reads_nothing_its_seat_cannot_see(
        seed in any::<u64>(), players in 2usize..=6, steps in 0usize..60, pick in any::<u64>(), think in any::<u64>()
    ) {
        reads_only_its_view::<RuminoMatch>(players, seed, steps, pick, think)?;
    }
}

/// Every level plays whole matches, never taking back.
fn levels_play<G: Hidden>(players: usize, seed: u64) {
    for level in Level::ALL {
        let mut game: G = G::new(players, seed, &G::Options::default()).expect("a match");
        let mut step = 0u64;
        while let Some(seat) = game.to_act() {
            let action = game.bot_at(seat, level, &Budget::playouts(step, 8)).expect("a move");
            assert!(!G::undoes(&action), "bots never take back");
            game.apply(seat, &action).expect("legal");
            step += 1;
            assert!(step < 20_000, "the match ends");
        }
    }
}

#[test]
fn every_level_plays_whole_matches() {
    levels_play::<RommiMatch>(2, 3);
    levels_play::<RamiMatch>(3, 4);
    levels_play::<RuminoMatch>(2, 5);
}
