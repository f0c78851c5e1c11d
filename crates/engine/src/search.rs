//! What the strong bot's search needs of Romi Rami (`romirami_game::search`): worlds a seat cannot tell
//! from the real one, and how good a finished game is for a seat.
//!
//! What a seat knows: its hand and suit bonus pile; everything face up (the markets, every seat's
//! contracts and the Star); how many cards each hand, the decks and the discard pile hold; and the cards
//! played to contracts, which are shown when played (§3 step 2), so every seat's suit bonus pile is known
//! to whoever watched. What it does not know: the others' hands, the order of both decks, which cards lie
//! in the discard pile (discards are face down) and the generator of later reshuffles. A world deals the
//! unknown number cards again at random among the others' hands, the number deck and the discard pile,
//! keeping every count, and shuffles the contract deck; the unknown cards are gathered in a fixed order
//! first, so that where they really lie changes nothing.

use crate::game::{Game, Shuffler};
use crate::random::GameRng;
use crate::scoring::winners;
use crate::{Card, Cards, Seat};

impl Game {
    /// A world `seat` cannot tell from this one, dealt from `seed` (see the module's documentation).
    pub(crate) fn determinized(&self, seat: Seat, seed: u64) -> Game {
        let mut world = self.clone();
        let mut rng = GameRng::from_seed(seed);
        // The unknown number cards, in a fixed order: gathered as counts, then listed.
        let mut unknown = Cards::EMPTY;
        for (i, other) in world.seats.iter().enumerate() {
            if i != seat.index() {
                unknown.add_all(&other.hand);
            }
        }
        let mut pool: Vec<Card> = unknown.iter().collect();
        pool.extend(world.number_deck.iter().copied());
        pool.extend(world.discard_pile.iter().copied());
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        for (i, other) in world.seats.iter_mut().enumerate() {
            if i != seat.index() {
                let count = other.hand.len();
                other.hand = rest.by_ref().take(count).collect();
            }
        }
        for card in world.number_deck.iter_mut().chain(world.discard_pile.iter_mut()) {
            *card = rest.next().unwrap_or(*card);
        }
        world.contract_deck.sort_unstable();
        rng.shuffle(&mut world.contract_deck);
        world.shuffler = Shuffler::Random(GameRng::from_seed(rng.next_u64()));
        world
    }

    /// `seat`'s lead where the game stands, in points: its total minus the best of the others' totals
    /// (negative when behind), for the analysis of a finished game.
    pub(crate) fn points_lead(&self, seat: Seat) -> f64 {
        let trophy_winners = self.trophy_winners();
        let scores: Vec<_> = self.seats_iter().map(|s| self.score(s, &trophy_winners)).collect();
        let own = f64::from(scores[seat.index()].total);
        let best_other =
            scores.iter().filter(|s| s.seat != seat).map(|s| f64::from(s.total)).fold(f64::NEG_INFINITY, f64::max);
        own - best_other
    }

    /// How good the game is for `seat`, from 0 to 1: mostly whether it wins (a shared win shares), and a
    /// little how far its total is from the best of the others', so that a playout lost by little counts
    /// more than one lost by much. Before the end, the same on the scores as they stand.
    pub(crate) fn value_for(&self, seat: Seat) -> f64 {
        let trophy_winners = self.trophy_winners();
        let scores: Vec<_> = self.seats_iter().map(|s| self.score(s, &trophy_winners)).collect();
        let won = winners(&scores);
        let share = if won.contains(&seat) { 1.0 / won.len() as f64 } else { 0.0 };
        let own = f64::from(scores[seat.index()].total);
        let best_other = scores.iter().filter(|s| s.seat != seat).map(|s| f64::from(s.total)).fold(0.0, f64::max);
        let margin = ((own - best_other) / 10.0).tanh();
        0.8 * share + 0.2 * (0.5 + 0.5 * margin)
    }
}
