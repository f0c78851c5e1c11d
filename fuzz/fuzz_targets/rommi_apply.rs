//! Rommi on arbitrary play: a match dealt from a seed, options and a player count in the input, then a
//! sequence of moves read from the input, each either one of the legal actions (so the match gets far)
//! or a raw action built from bytes, for any seat, legal or not. `apply` never panics; it succeeds exactly
//! when `is_legal` said so and the action is in `legal_actions` (up to the order of its cards); and a
//! refused action leaves every view, the event list and the legal actions exactly as they were.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romirami_rummy::rommi::{RommiAction, RommiMatch, RommiOptions};
use romirami_rummy::{Card, MeldId, Seat, Viewer};

/// Reads bytes off the front of the input, zero once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&first, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        first
    }

    fn card(&mut self, hand: &[Card]) -> Card {
        let b = self.byte();
        // Mostly the seat's own cards, so that plays are worth checking; any card otherwise.
        if b & 3 != 0 && !hand.is_empty() {
            hand[usize::from(b >> 2) % hand.len()]
        } else {
            Card::naturals().nth(usize::from(b >> 2) % 52).unwrap_or(Card::JOKER)
        }
    }

    fn cards(&mut self, hand: &[Card], most: u8) -> Vec<Card> {
        (0..self.byte() % (most + 1)).map(|_| self.card(hand)).collect()
    }
}

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
    while !bytes.0.is_empty() {
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
        let before: Vec<_> = viewers.iter().map(|&v| m.view(v)).collect();
        let events = m.event_count();
        match m.apply(seat, &action) {
            Ok(()) => assert!(is_legal, "{action:?} was applied though refused by the check"),
            Err(_) => {
                assert!(!is_legal, "{action:?} was refused though the check allowed it");
                let after: Vec<_> = viewers.iter().map(|&v| m.view(v)).collect();
                assert_eq!(before, after, "a refused action changed a view");
                assert_eq!(m.event_count(), events, "a refused action added an event");
                assert_eq!(m.legal_actions(to_act), legal, "a refused action changed the legal actions");
            }
        }
    }
});
