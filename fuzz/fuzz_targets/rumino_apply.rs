//! The Rumino engine on arbitrary play: a match dealt from a seed, a table size and an option read from
//! the input, then moves read from the input, each either one of the listed legal actions (so the match
//! gets far) or a raw action built from bytes, for any seat, legal or not. `apply` never panics; it
//! succeeds exactly when the action is listed (one source of truth); a refused action leaves every view,
//! the event list and the legal actions as they were; and the match, finished or abandoned where the
//! input ends, exports a record that replays to the same result.
#![no_main]

mod common;

use common::{Bytes, apply_as_judged};
use libfuzzer_sys::fuzz_target;
use romirami_rummy::record::{self, RecordMeta};
use romirami_rummy::rumino::{RuminoAction, RuminoMatch, RuminoOptions};
use romirami_rummy::{Card, Seat, Viewer};

/// A raw action built from bytes, legal or not.
fn action(bytes: &mut Bytes<'_>) -> RuminoAction {
    match bytes.byte() % 5 {
        0 => RuminoAction::Knock,
        1 => RuminoAction::Draw,
        2 => RuminoAction::Take,
        3 => {
            let card = Card::naturals().chain([Card::JOKER]).nth(usize::from(bytes.byte()) % 53).expect("53 kinds");
            RuminoAction::Discard { card, gin: bytes.byte() % 2 == 1 }
        }
        _ => RuminoAction::Rebuy { rebuy: bytes.byte() % 2 == 1 },
    }
}

/// Everything anyone can see of the match, as JSON: every seat's and a spectator's view, every event as
/// each of them sees it, and the legal actions of every seat.
fn snapshot(game: &RuminoMatch) -> String {
    let mut out = String::new();
    let seats = (0..game.players()).map(|s| Seat(s as u8));
    for viewer in seats.clone().map(Viewer::Seat).chain([Viewer::Spectator]) {
        out += &serde_json::to_string(&game.view(viewer)).expect("a view serializes");
        let events: Vec<_> = game.events_for(viewer, 0).collect();
        out += &serde_json::to_string(&events).expect("events serialize");
    }
    for seat in seats {
        out += &serde_json::to_string(&game.legal_actions(seat)).expect("actions serialize");
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let seed = input.seed();
    let players = usize::from(input.byte() % 5) + 2;
    let options = RuminoOptions { max_rebuys: u32::from(input.byte() % 4) };
    let mut game = RuminoMatch::new(players, seed, options).expect("2 to 6 players");
    for _ in 0..2000 {
        if input.is_empty() {
            break;
        }
        if input.byte() < 0xc0 {
            // One of the legal actions of the seat to act.
            let Some(seat) = game.to_act() else { break };
            let legal = game.legal_actions(seat);
            assert!(!legal.is_empty(), "a seat to act always has a legal action");
            let action = legal[usize::from(input.byte()) % legal.len()];
            game.apply(seat, &action).expect("a listed action applies");
        } else {
            // A raw action from any seat, even one that does not exist.
            let seat = Seat(input.byte() % 7);
            let action = action(&mut input);
            let listed = game.legal_actions(seat).contains(&action);
            apply_as_judged(&mut game, listed, &(seat, action), snapshot, |g| g.apply(seat, &action));
        }
    }
    game.abandon();
    let meta = RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00Z".into(),
        names: vec![String::new(); players],
        shuffle: None,
    };
    let exported = game.record(meta).expect("an over match exports");
    let verified = record::verify(&exported).expect("an exported record replays");
    assert_eq!(Some(verified.result), game.result());
});
