//! A player that picks uniformly among the legal actions: for simulations, tests and benchmarks.

use crate::action::Action;
use crate::game::Game;
use crate::random::GameRng;

/// Plays uniformly random legal actions, from its own seeded generator, so simulations reproduce.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: GameRng,
    buffer: Vec<Action>,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: GameRng::from_seed(seed), buffer: Vec::with_capacity(256) }
    }

    /// A uniformly chosen legal action for the seat to act, or `None` when the game is over.
    ///
    /// It picks the same action as indexing [`Game::legal_actions`] with a uniform index would, without
    /// listing every completion of every contract.
    pub fn choose(&mut self, game: &Game) -> Option<Action> {
        let seat = game.to_act()?;
        let rng = &mut self.rng;
        game.legal_action_at(seat, &mut self.buffer, |count| rng.below(count))
    }

    /// Plays `game` to its end with random legal actions for every seat; returns how many actions it
    /// applied.
    pub fn play_out(&mut self, game: &mut Game) -> usize {
        let mut actions = 0;
        while let (Some(seat), Some(action)) = (game.to_act(), self.choose(game)) {
            // The action was listed as legal for this seat, so it applies.
            if game.apply(seat, &action).is_err() {
                break;
            }
            actions += 1;
        }
        actions
    }
}
