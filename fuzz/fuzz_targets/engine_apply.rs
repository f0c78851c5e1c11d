//! The engine on arbitrary play: a game dealt from a seed in the input, then a sequence of moves read
//! from the input, each either one of the legal actions (so the game gets far) or a raw action built
//! from bytes, for any seat, legal or not. `apply` never panics; it succeeds exactly when `is_legal`
//! said so (one source of truth); and a refused action leaves every view, the event list and the legal
//! actions exactly as they were.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romirami_engine::{Action, Card, Cards, ContractId, Game, Seat, Viewer};

/// Reads bytes off the front of the input, zero once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&first, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        first
    }

    fn cards(&mut self) -> Cards {
        let mut cards = Cards::EMPTY;
        for _ in 0..self.byte() % 8 {
            if let Some(card) = Card::all().nth(usize::from(self.byte()) % 20) {
                cards.add(card);
            }
        }
        cards
    }

    fn action(&mut self) -> Action {
        match self.byte() % 5 {
            0 => Action::Take { cards: self.cards() },
            1 => Action::Complete {
                contract: ContractId::new(self.byte() % 36 + 1).expect("1 to 36"),
                cards: self.cards(),
                star: self.byte() % 2 == 1,
            },
            2 => Action::Pass,
            3 => Action::Discard { cards: self.cards() },
            _ => Action::TakeBack,
        }
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
    let mut seed = [0u8; 8];
    for byte in &mut seed {
        *byte = input.byte();
    }
    let players = usize::from(input.byte() % 3) + 2;
    let mut game = Game::new(players, u64::from_le_bytes(seed)).expect("2 to 4 players");
    for _ in 0..600 {
        if input.0.is_empty() {
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
            let action = input.action();
            let legal = game.is_legal(seat, &action);
            let before = snapshot(&game);
            let count = game.event_count();
            match game.apply(seat, &action) {
                Ok(applied) => {
                    assert!(legal, "applied although is_legal said no: {seat:?} {action:?}");
                    assert_eq!(applied.events.start, count);
                }
                Err(_) => {
                    assert!(!legal, "refused although is_legal said yes: {seat:?} {action:?}");
                    assert_eq!(game.event_count(), count);
                    assert!(snapshot(&game) == before, "a refused action changed the game: {seat:?} {action:?}");
                }
            }
        }
    }
});
