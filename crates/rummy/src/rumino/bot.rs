//! A sensible Rumino player: it keeps the cards that group (lays, pairs, near straight flushes), takes the
//! upcard when it lowers its deadwood, declares gin whenever it can, knocks early when its deadwood is low
//! and later at 7, and always rebuys.

use rand_core::Rng;

use crate::cards::Card;
use crate::rumino::actions::RuminoAction;
use crate::rumino::game::{KNOCK_LIMIT, RuminoMatch};
use crate::rumino::lays::{Search, Tile, card_value};
use crate::seat::Seat;

/// The deadwood at which the bot knocks on its first turns of a hand: a knock this low is usually ahead.
const EARLY_KNOCK: u32 = 4;
/// From this many turns of its own in a hand on, the bot knocks at any deadwood a knock allows.
const LATE_TURNS: usize = 4;

/// The action the bot plays for `seat`, which must be the seat to act; `rng` breaks ties between equally
/// good discards. Always one of [`RuminoMatch::legal_actions`].
///
/// # Panics
/// When `seat` is not the seat to act (there is then nothing to choose).
pub fn choose(game: &RuminoMatch, seat: Seat, rng: &mut impl Rng) -> RuminoAction {
    // One search over the hand (and, before the pick, the upcard) answers every question below.
    let (legal, search) = game.legal_with_search(seat);
    if legal.may_rebuy {
        return RuminoAction::Rebuy { rebuy: true };
    }
    let hand = game.hand(seat);
    let mut search = search.expect("choose is called for the seat to act, which holds cards");
    if legal.may_pick {
        let current = legal.deadwood.unwrap_or(u32::MAX);
        let turns = game.turns_taken(seat);
        if legal.may_knock && (current <= EARLY_KNOCK || turns >= LATE_TURNS || current == 0) {
            return RuminoAction::Knock;
        }
        // Take the upcard only when it makes the best 7 cards better than keeping the hand as it is.
        if !game.discard.is_empty() {
            let best = (0..hand.len()).map(|at| search.best_without(hand.len() + 1, at)).min().unwrap_or(u32::MAX);
            if best < current {
                return RuminoAction::Take;
            }
        }
        return RuminoAction::Draw;
    }
    assert!(!legal.discardable.is_empty(), "choose is called for the seat to act");
    if let Some(&card) = legal.gin_discards.first() {
        return RuminoAction::Discard { card, gin: true };
    }
    // The discard that leaves the lowest deadwood; among those, the one that keeps the most pairs and
    // near straight flushes; then the highest card; then at random. (A discard that leaves more deadwood
    // than the best so far is passed over before its grouping is worked out.)
    let mut best: Vec<(Card, (u32, i32, i32))> = Vec::new();
    for &card in &legal.discardable {
        let at = hand.iter().position(|&c| c == card).expect("discardable cards are in the hand");
        let mask = Search::all(hand.len()) & !(1 << at);
        let deadwood = search.best(mask);
        if best.first().is_some_and(|(_, (lowest, _, _))| deadwood > *lowest) {
            continue;
        }
        let grouping = search.grouping(hand, mask);
        let key = (deadwood, -promise(&grouping.deadwood_cards), -(card_value(card) as i32));
        match best.first() {
            Some((_, k)) if key > *k => {}
            Some((_, k)) if key == *k => best.push((card, key)),
            _ => best = vec![(card, key)],
        }
    }
    let pick = (rng.next_u32() as usize) % best.len();
    RuminoAction::Discard { card: best[pick].0, gin: false }
}

/// How close `cards` (deadwood) are to lays: a point for each pair of one rank, and for each two cards of
/// one suit at most two positions apart; a joker counts as a point.
fn promise(cards: &[Card]) -> i32 {
    let tiles: Vec<Tile> = cards.iter().map(|&c| Tile::of(c)).collect();
    let mut points = 0;
    for (i, a) in tiles.iter().enumerate() {
        if a.is_joker() {
            points += 1;
            continue;
        }
        for b in tiles[i + 1..].iter().filter(|b| !b.is_joker()) {
            if a.rank() == b.rank() || (a.suit() == b.suit() && a.rank().abs_diff(b.rank()) <= 2) {
                points += 1;
            }
        }
    }
    points
}

impl RuminoMatch {
    /// How many turns `seat` has played in the current hand (its draws and takes).
    pub(crate) fn turns_taken(&self, seat: Seat) -> usize {
        self.hand_logs.last().map_or(0, |h| {
            h.log
                .iter()
                .filter(|e| matches!(e.action(), Some((s, RuminoAction::Draw | RuminoAction::Take)) if s == seat))
                .count()
        })
    }
}

/// The knock limit is the bot's late threshold: a check that the constants agree with §6 a.
const _: () = assert!(EARLY_KNOCK <= KNOCK_LIMIT);
