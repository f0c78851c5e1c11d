//! A player that picks uniformly among the legal actions: for simulations, tests and benchmarks.

use crate::action::Action;
use crate::game::Game;
use crate::legal::StepMemo;
use crate::random::GameRng;

/// Plays uniformly random legal actions, from its own seeded generator, so simulations reproduce.
///
/// [`RandomPlayer::new`] picks among every legal action, taking back (§7) included, which exercises
/// every rule; [`RandomPlayer::without_take_backs`] picks among the game's moves only, the random play
/// of the table game, which has no taking back: the random game of the engine's speed goal
/// (`docs/performance.md`).
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: GameRng,
    buffer: Vec<Action>,
    memo: StepMemo,
    /// Whether [`Action::TakeBack`] is among the actions it picks from.
    take_backs: bool,
}

impl RandomPlayer {
    /// A random player seeded with `seed`, picking among every distinct legal action, as indexing
    /// [`Game::legal_actions`] with a uniform index would.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer::seeded(seed, true)
    }

    /// A random player seeded with `seed`, picking among every distinct legal action except
    /// [`Action::TakeBack`]: the moves of the table game. A take-back restores the state before the
    /// action it takes back, and a game's record keeps no trace of either (record format), so this
    /// player plays the same kind of games as [`RandomPlayer::new`] without the actions that are
    /// undone: in a 4-player game about 125 actions instead of about 230.
    pub fn without_take_backs(seed: u64) -> RandomPlayer {
        RandomPlayer::seeded(seed, false)
    }

    fn seeded(seed: u64, take_backs: bool) -> RandomPlayer {
        RandomPlayer {
            rng: GameRng::from_seed(seed),
            buffer: Vec::with_capacity(256),
            memo: StepMemo::default(),
            take_backs,
        }
    }

    /// A uniformly chosen legal action for the seat to act, or `None` when the game is over.
    ///
    /// It picks the same action as indexing [`Game::legal_actions`] with a uniform index would (the list
    /// without its take-back, for a player made by [`RandomPlayer::without_take_backs`]), without
    /// listing every completion of every contract.
    pub fn choose(&mut self, game: &Game) -> Option<Action> {
        let seat = game.to_act()?;
        let rng = &mut self.rng;
        game.legal_action_at(seat, &mut self.buffer, &mut self.memo, self.take_backs, |count| rng.below(count))
    }

    /// Plays `game` to its end with random legal actions for every seat; returns how many actions it
    /// applied.
    pub fn play_out(&mut self, game: &mut Game) -> usize {
        let mut actions = 0;
        while let (Some(seat), Some(action)) = (game.to_act(), self.choose(game)) {
            // The action is one of the legal actions of this seat, which `check` accepts (a property
            // test holds the list and `check` together), so it need not be checked again.
            game.apply_listed(seat, &action);
            actions += 1;
        }
        actions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Viewer;

    /// `play_out` applies its choices with [`Game::apply_listed`], which does not check them: every
    /// choice must pass the check, and applying it unchecked must do exactly what `apply` does.
    #[test]
    fn chosen_actions_pass_the_check_and_apply_unchecked_as_checked() {
        let (mut chosen, mut taken_back) = ([0; 2], [0; 2]);
        for seed in 0..200 {
            let mut checked = Game::new(2 + (seed % 3) as usize, seed).expect("2 to 4 players");
            let mut unchecked = checked.clone();
            // Every other game without take-backs.
            let take_backs = seed % 2 == 0;
            let mut player =
                if take_backs { RandomPlayer::new(seed ^ 99) } else { RandomPlayer::without_take_backs(seed ^ 99) };
            while let Some(seat) = checked.to_act() {
                let action = player.choose(&checked).expect("the game goes on");
                chosen[usize::from(take_backs)] += 1;
                taken_back[usize::from(take_backs)] += usize::from(action == Action::TakeBack);
                assert_eq!(checked.check(seat, &action), Ok(()), "{action:?}");
                let applied = checked.apply(seat, &action).expect("it passed the check");
                assert_eq!(unchecked.apply_listed(seat, &action), applied);
            }
            assert!(unchecked.is_over());
            assert_eq!(unchecked.log, checked.log);
            for viewer in [Viewer::Spectator].into_iter().chain(checked.seats_iter().map(Viewer::Seat)) {
                assert_eq!(unchecked.view(viewer), checked.view(viewer));
                assert!(unchecked.events_for(viewer, 0).eq(checked.events_for(viewer, 0)));
            }
        }
        assert!(chosen[0] > 10_000 && chosen[1] > 15_000, "{chosen:?}");
        assert_eq!(taken_back[0], 0, "a player without take-backs never takes back");
        assert!(taken_back[1] > 2_000, "{taken_back:?}");
    }
}
