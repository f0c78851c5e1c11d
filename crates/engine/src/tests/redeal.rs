//! [`Game::redeal`] makes exactly the game [`Game::new`] makes, whatever game it reuses.

use crate::error::SetupError;
use crate::game::Game;
use crate::player::RandomPlayer;
use crate::view::Viewer;

/// Everything a user of the crate can observe of `game` now, as JSON texts.
fn observed(game: &Game) -> Vec<String> {
    let json = |value: &dyn erased::Json| value.json();
    let mut seen = vec![json(&game.log), json(&game.result()), json(&game.phase()), format!("{game:?}")];
    for viewer in [Viewer::Spectator].into_iter().chain(game.seats_iter().map(Viewer::Seat)) {
        seen.push(json(&game.view(viewer)));
        seen.extend(game.events_for(viewer, 0).map(|(number, event)| format!("{number} {}", json(&event))));
        if let Some(seat) = game.to_act() {
            seen.push(json(&game.legal_actions(seat)));
        }
    }
    seen.push(format!("{}", game.number_deck.len()));
    seen.push(format!("{:?} {:?}", game.number_deck, game.contract_deck));
    seen.push(format!("{:?}", game.discard_pile));
    seen
}

mod erased {
    /// A value as a JSON text, for any serializable type behind one reference type.
    pub(super) trait Json {
        fn json(&self) -> String;
    }

    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("engine types serialize")
        }
    }
}

#[test]
fn a_redealt_game_is_the_new_game_of_its_seed_at_every_step() {
    // One game reused for every deal, through every player count (seats added and dropped), played
    // part way or to its end before the next deal.
    let mut reused = Game::new(3, 999).expect("3 players");
    let mut steps = 0;
    for round in 0..36u64 {
        let players = [4, 2, 3, 2, 4, 3][round as usize % 6];
        let seed = round * 31 + 5;
        reused.redeal(players, seed).expect("2 to 4 players");
        let mut fresh = Game::new(players, seed).expect("2 to 4 players");
        let (mut on_reused, mut on_fresh) = (RandomPlayer::new(round), RandomPlayer::new(round));
        // Every third game stops part way, leaving cards in the discard pile, undo records and a log.
        let stop = if round % 3 == 0 { 60 } else { usize::MAX };
        let mut step = 0;
        while let Some(seat) = fresh.to_act().filter(|_| step < stop) {
            if step % 16 == 0 {
                assert_eq!(observed(&reused), observed(&fresh), "round {round}, step {step}");
            }
            let action = on_fresh.choose(&fresh).expect("the game goes on");
            assert_eq!(on_reused.choose(&reused), Some(action));
            assert_eq!(reused.apply(seat, &action), fresh.apply(seat, &action));
            step += 1;
        }
        assert_eq!(observed(&reused), observed(&fresh), "round {round}, the end");
        steps += step;
    }
    assert!(steps > 4_000, "{steps}");
}

#[test]
fn a_redeal_for_a_wrong_player_count_leaves_the_game_as_it_was() {
    let mut game = Game::new(2, 7).expect("2 players");
    let mut player = RandomPlayer::new(1);
    for _ in 0..20 {
        let seat = game.to_act().expect("the game goes on");
        let action = player.choose(&game).expect("the game goes on");
        game.apply(seat, &action).expect("chosen actions are legal");
    }
    let before = observed(&game);
    for players in [0, 1, 5, usize::MAX] {
        assert_eq!(game.redeal(players, 3), Err(SetupError::PlayerCount(players)));
        assert_eq!(observed(&game), before);
    }
}
