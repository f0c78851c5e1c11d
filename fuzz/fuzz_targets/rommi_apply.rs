//! Rommi on arbitrary play: a match dealt from a seed, options and a player count in the input, then a
//! sequence of moves read from the input, each either one of the legal actions (so the match gets far)
//! or a raw action built from bytes, for any seat, legal or not. `apply` never panics; it succeeds exactly
//! when `is_legal` said so and the action is in `legal_actions` (up to the order of its cards); and a
//! refused action leaves every view, the event list and the legal actions exactly as they were.
#![no_main]

mod common;

use common::{Bytes, apply_as_judged};
use libfuzzer_sys::fuzz_target;
use romirami_rummy::rommi::{RommiAction, RommiMatch, RommiOptions};
use romirami_rummy::{MeldId, Seat, Viewer};


/// The action with its cards in the order `legal_actions` writes them.
fn normal(action: &RommiAction) -> RommiAction {
    let mut action = action.clone();
    if let RommiAction::Meld { cards } | RommiAction::LayOff { cards, .. } = &mut action {
        cards.sort_unstable();
    }
    action
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let players = 2 + usize::from(bytes.byte() % 3);
    let option = usize::from(bytes.byte() % 24);
    let target = 1 + u32::from(bytes.byte());
    let Some(options) = RommiOptions::all_with_target(target).nth(option) else { return };
    let seed = u64::from(bytes.byte());
    let Ok(mut m) = RommiMatch::new(players, seed, options) else { panic!("a valid table is refused") };
    while !bytes.is_empty() {
        let Some(to_act) = m.to_act() else { break };
        let legal = m.legal_actions(to_act);
        assert!(!legal.is_empty(), "the seat to act always has an action");
        let kind = bytes.byte();
        let (seat, action) = if kind < 160 {
            (to_act, legal[usize::from(bytes.byte()) % legal.len()].clone())
        } else {
            let seat = Seat(bytes.byte() % 5);
            let hand = m.view(Viewer::Seat(to_act)).hand.unwrap_or_default();
            let action = match kind % 6 {
                0 => RommiAction::Draw,
                1 => RommiAction::EndRound,
                2 => RommiAction::Take { card: bytes.card(&hand) },
                3 => RommiAction::Discard { card: bytes.card(&hand) },
                4 => RommiAction::Meld { cards: bytes.cards(&hand, 5) },
                _ => RommiAction::LayOff { id: MeldId(u32::from(bytes.byte() % 8)), cards: bytes.cards(&hand, 3) },
            };
            (seat, action)
        };
        let listed = seat == to_act && legal.iter().map(normal).any(|a| a == normal(&action));
        let is_legal = m.is_legal(seat, &action);
        assert_eq!(is_legal, listed, "{action:?} by {seat}");
        let viewers: Vec<Viewer> = (0..players as u8).map(|s| Viewer::Seat(Seat(s))).chain([Viewer::Spectator]).collect();
        let look = |m: &RommiMatch| {
            let views: Vec<_> = viewers.iter().map(|&v| m.view(v)).collect();
            (views, m.event_count(), m.legal_actions(to_act))
        };
        apply_as_judged(&mut m, is_legal, &action, look, |m| m.apply(seat, &action));
    }
});
