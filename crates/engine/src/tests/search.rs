//! The strong bot decides from its seat's view only (`romirami_game::search`): two games that differ only
//! in what the seat cannot see (another hand, the decks' order, the generator of later reshuffles) give
//! the same worlds to search and the same decision.

use proptest::prelude::*;
use romirami_game::{Budget, Level, TableGame};

use crate::action::Seat;
use crate::game::{Game, Shuffler};
use crate::random::GameRng;
use crate::view::Viewer;

/// Plays `steps` actions of the normal bot from a new game.
fn played(players: usize, seed: u64, steps: usize) -> Game {
    let mut game = Game::new(players, seed).expect("2 to 4 players");
    for _ in 0..steps {
        let Some(seat) = game.to_act() else { break };
        let action = TableGame::bot(&game, seat).expect("the bot has a move");
        game.apply(seat, &action).expect("the bot's move is legal");
    }
    game
}

/// `game` with what `seat` cannot see changed: a card of another hand swapped with one of the number deck
/// (when they differ), the contract deck reversed and another generator for later reshuffles. `None` when
/// no card can be swapped.
fn hidden_changed(game: &Game, seat: Seat, pick: u64) -> Option<Game> {
    let mut other = game.clone();
    let others: Vec<usize> =
        (0..game.seats.len()).filter(|&i| i != seat.index() && !game.seats[i].hand.is_empty()).collect();
    let owner = *others.get((pick % others.len().max(1) as u64) as usize)?;
    let in_hand = other.seats[owner].hand.iter().next()?;
    let slot = other.number_deck.iter().position(|card| *card != in_hand)?;
    let from_deck = std::mem::replace(&mut other.number_deck[slot], in_hand);
    other.seats[owner].hand.remove(in_hand);
    other.seats[owner].hand.add(from_deck);
    other.contract_deck.reverse();
    other.shuffler = Shuffler::Random(GameRng::from_seed(pick ^ 0xdead_beef));
    Some(other)
}

/// What a world is made of, to compare two.
fn state(game: &Game) -> impl PartialEq + std::fmt::Debug + use<> {
    let hands: Vec<_> = game.seats.iter().map(|s| (s.hand, s.suit_bonus)).collect();
    (
        hands,
        game.number_deck.clone(),
        game.contract_deck.clone(),
        game.discard_pile.clone(),
        game.view(Viewer::Spectator),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_strong_bot_reads_nothing_its_seat_cannot_see(
        seed in any::<u64>(), players in 2usize..=4, steps in 0usize..80, pick in any::<u64>(), think in any::<u64>()
    ) {
        let game = played(players, seed, steps);
        let Some(seat) = game.to_act() else { return Ok(()) };
        let Some(other) = hidden_changed(&game, seat, pick) else { return Ok(()) };
        prop_assert_eq!(game.view(Viewer::Seat(seat)), other.view(Viewer::Seat(seat)), "the seat cannot tell them apart");
        prop_assert_ne!(state(&game), state(&other), "what the seat cannot see differs");
        // The same worlds to search...
        for world in 0..3 {
            let seed = think.wrapping_add(world);
            prop_assert_eq!(state(&game.determinize(seat, seed)), state(&other.determinize(seat, seed)));
        }
        // ...and the same decision.
        let budget = Budget::playouts(think, 24);
        prop_assert_eq!(game.bot_at(seat, Level::Strong, &budget), other.bot_at(seat, Level::Strong, &budget));
    }

    /// A world keeps what the seat sees, and every card: its own hand, the counts, the markets.
    #[test]
    fn a_world_is_one_the_seat_cannot_tell_from_the_real_game(
        seed in any::<u64>(), players in 2usize..=4, steps in 0usize..80, think in any::<u64>()
    ) {
        let game = played(players, seed, steps);
        let Some(seat) = game.to_act() else { return Ok(()) };
        let world = game.determinize(seat, think);
        prop_assert_eq!(game.view(Viewer::Seat(seat)), world.view(Viewer::Seat(seat)));
        super::support::assert_census(&world);
    }
}

#[test]
fn the_levels_play_whole_games() {
    for level in [Level::Easy, Level::Normal, Level::Strong] {
        let mut game = Game::new(3, 7).expect("3 players");
        let mut step = 0u64;
        while let Some(seat) = game.to_act() {
            let action = game.bot_at(seat, level, &Budget::playouts(step, 16)).expect("a move");
            assert!(!matches!(action, crate::Action::TakeBack), "bots never take back");
            game.apply(seat, &action).expect("legal");
            step += 1;
            assert!(step < 5_000, "the game ends");
        }
    }
}

/// The analysis judges a decision from the seat's view only: the same judgement when what the seat cannot
/// see is changed.
#[test]
fn a_judgement_reads_nothing_the_seat_cannot_see() {
    for (seed, steps) in [(1, 4), (2, 15), (3, 33)] {
        let game = played(3, seed, steps);
        let Some(seat) = game.to_act() else { continue };
        let Some(other) = hidden_changed(&game, seat, seed) else { continue };
        let played = TableGame::bot(&game, seat).expect("a move");
        let mine = romirami_game::analysis::judge(&game, seat, &played, 24, 9);
        let theirs = romirami_game::analysis::judge(&other, seat, &played, 24, 9);
        let text = |a: &Option<crate::Action>| serde_json::to_string(a).expect("JSON");
        assert_eq!(text(&mine.best), text(&theirs.best));
        assert_eq!(mine.value_played.to_bits(), theirs.value_played.to_bits());
        assert_eq!(mine.value_best.to_bits(), theirs.value_best.to_bits());
    }
}

/// A finished game's replay steps are its log's moves in order, and the analysis of a seat judges that
/// seat's own moves, written as the record writes them, with values in points.
#[test]
fn replay_steps_and_analysis_follow_the_record() {
    let game = played(2, 7, 1_000);
    assert!(game.is_over(), "a game of the bots ends");
    let meta = crate::RecordMeta {
        id: uuid::Uuid::nil(),
        started_at: time::OffsetDateTime::UNIX_EPOCH,
        finished_at: time::OffsetDateTime::UNIX_EPOCH,
        names: vec!["A".into(), "B".into()],
        shuffle: None,
    };
    let record = Game::record(&game, meta).expect("a record");
    let moves: Vec<serde_json::Value> = record
        .log
        .iter()
        .filter(|entry| entry.action().is_some())
        .map(|entry| serde_json::to_value(entry).expect("JSON"))
        .collect();
    let replay = romirami_game::replay::replay_of::<Game>(&record, 2).expect("it replays");
    assert_eq!(replay.steps.len(), moves.len() + 1);
    let entries: Vec<_> = replay.steps[1..].iter().map(|step| step.entry.clone().expect("an entry")).collect();
    assert_eq!(entries, moves);
    let settings = romirami_game::AnalysisSettings { playouts: 6, seed: 1 };
    let analysis =
        romirami_game::analysis::analyse::<Game>(&record, Seat(0), &settings, &mut |_, _| {}).expect("it analyses");
    assert_eq!(analysis.unit, "points");
    let own: Vec<_> = moves.iter().filter(|entry| entry["seat"] == 0).collect();
    let mut rest = own.iter();
    for decision in &analysis.decisions {
        assert!(rest.any(|entry| **entry == decision.played), "{} is the seat's next move", decision.played);
        assert!(decision.value_best >= decision.value_played && decision.loss >= 0.0);
    }
}
