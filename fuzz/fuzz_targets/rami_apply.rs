//! Rami on arbitrary play: a match dealt from a seed, options and a player count in the input, then a
//! sequence of moves read from the input, each either the bot's choice (so the match gets far: Rami's
//! melds are too many to list) or a raw action built from bytes, for any seat, legal or not. `apply`
//! never panics; it succeeds exactly when `check` says so; the bot's choice is always accepted; and a
//! refused action leaves every view and the event list exactly as they were.
#![no_main]

mod common;

use common::{Bytes, apply_as_judged};
use libfuzzer_sys::fuzz_target;
use romirami_rummy::rami::{MeldCards, RamiAction, RamiMatch, RamiOptions, bot};
use romirami_rummy::{Card, MeldId, RummyRng, Seat, Viewer};

/// A meld of up to 5 cards, without a joker's value.
fn meld(bytes: &mut Bytes<'_>, hand: &[Card]) -> MeldCards {
    MeldCards { cards: bytes.cards(hand, 5), joker: None }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let players = 2 + usize::from(bytes.byte() % 4);
    let samples = RamiOptions::samples(players);
    let options = samples[usize::from(bytes.byte()) % samples.len()];
    let seed = u64::from(bytes.byte());
    let Ok(mut m) = RamiMatch::new(players, seed, options) else { panic!("a valid table is refused") };
    let mut rng = RummyRng::from_seed(seed);
    while !bytes.is_empty() {
        let Some(to_act) = m.to_act() else { break };
        let kind = bytes.byte();
        let (seat, action) = if kind < 160 {
            let action = bot::choose(&m, to_act, &mut rng).expect("the seat to act has a move");
            assert!(m.check(to_act, &action).is_ok(), "the bot chose a refused {action:?}");
            (to_act, action)
        } else {
            let seat = Seat(bytes.byte() % 6);
            let hand = m.view(Viewer::Seat(to_act)).hand.unwrap_or_default();
            let action = match kind % 7 {
                0 => RamiAction::Draw,
                1 => RamiAction::Take,
                2 => RamiAction::Discard(bytes.card(&hand)),
                3 => RamiAction::Meld(meld(&mut bytes, &hand)),
                4 => RamiAction::Open((0..1 + bytes.byte() % 3).map(|_| meld(&mut bytes, &hand)).collect()),
                5 => RamiAction::LayOff { id: MeldId(u32::from(bytes.byte() % 8)), cards: bytes.cards(&hand, 3), joker: None },
                _ => RamiAction::Exchange { id: MeldId(u32::from(bytes.byte() % 8)), card: bytes.card(&hand) },
            };
            (seat, action)
        };
        let allowed = m.check(seat, &action).is_ok();
        let viewers: Vec<Viewer> = (0..players as u8).map(|s| Viewer::Seat(Seat(s))).chain([Viewer::Spectator]).collect();
        let look = |m: &RamiMatch| (viewers.iter().map(|&v| m.view(v)).collect::<Vec<_>>(), m.event_count());
        apply_as_judged(&mut m, allowed, &action, look, |m| m.apply(seat, &action));
    }
});
