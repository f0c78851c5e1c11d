//! The engine on arbitrary play: a game dealt from a seed in the input, then a sequence of moves read
//! from the input, each either one of the legal actions (so the game gets far) or a raw action built
//! from bytes, for any seat, legal or not. `apply` never panics; it succeeds exactly when `is_legal`
//! said so (one source of truth); and a refused action leaves every view, the event list and the legal
//! actions exactly as they were.
#![no_main]

mod common;

use common::{Bytes, apply_as_judged};
use libfuzzer_sys::fuzz_target;
use romirami_engine::{Action, Card, Cards, ContractId, Game, Seat, Viewer};

/// Up to 7 Romi Rami cards.
fn cards(bytes: &mut Bytes<'_>) -> Cards {
    let mut cards = Cards::EMPTY;
    for _ in 0..bytes.byte() % 8 {
        if let Some(card) = Card::all().nth(usize::from(bytes.byte()) % 20) {
            cards.add(card);
        }
    }
    cards
}

/// A raw action built from bytes, legal or not.
fn action(bytes: &mut Bytes<'_>) -> Action {
    match bytes.byte() % 5 {
        0 => Action::Take { cards: cards(bytes) },
        1 => Action::Complete {
            contract: ContractId::new(bytes.byte() % 36 + 1).expect("1 to 36"),
            cards: cards(bytes),
            star: bytes.byte() % 2 == 1,
        },
        2 => Action::Pass,
        3 => Action::Discard { cards: cards(bytes) },
        _ => Action::TakeBack,
    }
}

/// Everything anyone can see of the game, as JSON: every seat's and a spectator's view, every event as
/// each of them sees it, and the legal actions of every seat.
fn snapshot(game: &Game) -> String {
    let mut viewers: Vec<Viewer> = (0..game.players()).map(|s| Viewer::Seat(Seat(s as u8))).collect();
    viewers.push(Viewer::Spectator);
    let mut out = String::new();
    for viewer in viewers {
        out += &serde_json::to_string(&game.view(viewer)).expect("a view serializes");
        let events: Vec<_> = game.events_for(viewer, 0).collect();
        out += &serde_json::to_string(&events).expect("events serialize");
    }
    for seat in 0..game.players() {
        out += &serde_json::to_string(&game.legal_actions(Seat(seat as u8))).expect("actions serialize");
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let seed = input.seed();
    let players = usize::from(input.byte() % 3) + 2;
    let mut game = Game::new(players, seed).expect("2 to 4 players");
    for _ in 0..600 {
        if input.is_empty() {
            break;
        }
        let op = input.byte();
        if op < 0xc0 {
            // One of the legal actions of the seat to act.
            let Some(seat) = game.to_act() else { break };
            let legal = game.legal_actions(seat);
            assert!(!legal.is_empty(), "a seat to act always has a legal action");
            let action = legal[usize::from(input.byte()) % legal.len()];
            assert!(game.is_legal(seat, &action), "a listed action is legal: {action:?}");
            game.apply(seat, &action).expect("a listed action applies");
        } else {
            // A raw action from any seat, even one that does not exist.
            let seat = Seat(input.byte() % 6);
            let action = action(&mut input);
            let legal = game.is_legal(seat, &action);
            let count = game.event_count();
            let applied = apply_as_judged(&mut game, legal, &(seat, action), snapshot, |g| g.apply(seat, &action));
            if let Some(applied) = applied {
                assert_eq!(applied.events.start, count, "an applied action's events come next");
            }
        }
    }
});
