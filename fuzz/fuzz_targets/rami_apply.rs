//! Rami on arbitrary play: a match dealt from a seed, options and a player count in the input, then a
//! sequence of moves read from the input, each either the bot's choice (so the match gets far: Rami's
//! melds are too many to list) or a raw action built from bytes, for any seat, legal or not. `apply`
//! never panics; it succeeds exactly when `check` says so; the bot's choice is always accepted; and a
//! refused action leaves every view and the event list exactly as they were.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romirami_rummy::rami::{MeldCards, RamiAction, RamiMatch, RamiOptions, bot};
use romirami_rummy::{Card, MeldId, RummyRng, Seat, Viewer};

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

    fn meld(&mut self, hand: &[Card]) -> MeldCards {
        MeldCards { cards: self.cards(hand, 5), joker: None }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let players = 2 + usize::from(bytes.byte() % 4);
    let samples = RamiOptions::samples(players);
    let options = samples[usize::from(bytes.byte()) % samples.len()];
    let seed = u64::from(bytes.byte());
    let Ok(mut m) = RamiMatch::new(players, seed, options) else { panic!("a valid table is refused") };
    let mut rng = RummyRng::from_seed(seed);
    while !bytes.0.is_empty() {
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
                3 => RamiAction::Meld(bytes.meld(&hand)),
                4 => RamiAction::Open((0..1 + bytes.byte() % 3).map(|_| bytes.meld(&hand)).collect()),
                5 => RamiAction::LayOff { id: MeldId(u32::from(bytes.byte() % 8)), cards: bytes.cards(&hand, 3), joker: None },
                _ => RamiAction::Exchange { id: MeldId(u32::from(bytes.byte() % 8)), card: bytes.card(&hand) },
            };
            (seat, action)
        };
        let allowed = m.check(seat, &action).is_ok();
        let viewers: Vec<Viewer> = (0..players as u8).map(|s| Viewer::Seat(Seat(s))).chain([Viewer::Spectator]).collect();
        let before: Vec<_> = viewers.iter().map(|&v| m.view(v)).collect();
        let events = m.event_count();
        match m.apply(seat, &action) {
            Ok(()) => assert!(allowed, "{action:?} was applied though refused by the check"),
            Err(_) => {
                assert!(!allowed, "{action:?} was refused though the check allowed it");
                let after: Vec<_> = viewers.iter().map(|&v| m.view(v)).collect();
                assert_eq!(before, after, "a refused action changed a view");
                assert_eq!(m.event_count(), events, "a refused action added an event");
            }
        }
    }
});
