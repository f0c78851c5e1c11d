//! Property tests over random Rommi matches, for every option combination and player count: no panic, an
//! action is accepted exactly when it is listed, records round-trip and replay, and views never hold
//! hidden cards.

use proptest::prelude::*;

use crate::cards::{Card, RummyRng};
use crate::melds::MeldId;
use crate::record::{self, RecordMeta};
use crate::seat::{Seat, Viewer};

use super::super::{RommiAction, RommiEvent, RommiMatch, RommiOptions};
use super::support::play_random;

fn meta(players: usize) -> RecordMeta {
    RecordMeta {
        id: "00000000-0000-4000-8000-000000000000".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00.25Z".into(),
        names: (0..players).map(|i| format!("P{i}")).collect(),
        shuffle: None,
    }
}

/// The action with its cards in a canonical order, as the legal list writes them.
fn normal(action: &RommiAction) -> RommiAction {
    let mut action = action.clone();
    if let RommiAction::Meld { cards } | RommiAction::LayOff { cards, .. } = &mut action {
        cards.sort_unstable();
    }
    action
}

/// A random action, legal or not, made of cards near the seat (its hand, the pile) and a few others.
fn probe(m: &RommiMatch, seat: Seat, rng: &mut RummyRng) -> RommiAction {
    let hand = &m.round.hands[seat.index()];
    let pick =
        |from: &[Card], rng: &mut RummyRng| if from.is_empty() { Card::JOKER } else { from[rng.below(from.len())] };
    let any: Vec<Card> = Card::naturals().collect();
    let card = match rng.below(3) {
        0 => pick(hand, rng),
        1 => pick(&m.round.pile, rng),
        _ => pick(&any, rng),
    };
    let some = |n: usize, rng: &mut RummyRng| (0..n).map(|_| pick(hand, rng)).collect::<Vec<_>>();
    match rng.below(6) {
        0 => RommiAction::Draw,
        1 => RommiAction::EndRound,
        2 => RommiAction::Take { card },
        3 => RommiAction::Discard { card },
        4 => {
            let n = 3 + rng.below(2);
            RommiAction::Meld { cards: some(n, rng) }
        }
        _ => {
            let n = 1 + rng.below(2);
            let id = MeldId(1 + rng.below(m.round.table.len() + 1) as u32);
            RommiAction::LayOff { id, cards: some(n, rng) }
        }
    }
}

/// The view of `seat` must not change when what it may not see changes: the stock's order and the other
/// hands (their cards exchanged with each other and with the stock, sizes kept).
fn view_hides_what_it_must(m: &RommiMatch, seat: Seat, rng: &mut RummyRng) {
    let mut other = m.clone();
    let mut hidden: Vec<Card> = other.round.stock.clone();
    for (i, hand) in other.round.hands.iter().enumerate() {
        if i != seat.index() {
            hidden.extend_from_slice(hand);
        }
    }
    rng.shuffle(&mut hidden);
    let mut rest = hidden.into_iter();
    for (i, hand) in other.round.hands.iter_mut().enumerate() {
        if i != seat.index() {
            hand.iter_mut().for_each(|c| *c = rest.next().expect("as many cards as taken"));
        }
    }
    other.round.stock.iter_mut().for_each(|c| *c = rest.next().expect("as many cards as taken"));
    assert_eq!(m.view(Viewer::Seat(seat)), other.view(Viewer::Seat(seat)));
    assert_eq!(m.view(Viewer::Spectator), other.view(Viewer::Spectator));
    let spectator = serde_json::to_string(&m.view(Viewer::Spectator)).expect("serializable");
    assert!(!spectator.contains("\"hand\":["), "a spectator has no hand");
}

fn check_match(options: RommiOptions, players: usize, seed: u64) {
    let mut m = RommiMatch::new(players, seed, options).expect("a valid table");
    let mut rng = RummyRng::from_seed(seed ^ 0x5eed);
    let mut probes = RummyRng::from_seed(seed ^ 0xbad);
    let mut steps = 0;
    play_random(&mut m, &mut rng, 1500, |m, seat, legal| {
        assert!(!legal.is_empty(), "the seat to act always has an action");
        let listed: Vec<RommiAction> = legal.iter().map(normal).collect();
        for action in legal {
            assert_eq!(m.check(seat, action), Ok(()), "{action:?}");
        }
        for _ in 0..4 {
            let action = probe(m, seat, &mut probes);
            assert_eq!(m.check(seat, &action).is_ok(), listed.contains(&normal(&action)), "{action:?}");
        }
        let other = seat.next(players);
        assert!(m.check(other, &legal[0]).is_err(), "only the seat to act may act");
        if steps % 40 == 0 {
            view_hides_what_it_must(m, seat, &mut probes);
        }
        steps += 1;
    });
    assert!(m.is_over());
    for viewer in Seat::all(players).map(Viewer::Seat).chain([Viewer::Spectator]) {
        for (_, event) in m.events_for(viewer, 0) {
            match event {
                RommiEvent::Dealt { seat, cards } => assert_eq!(cards.is_some(), viewer.is(seat)),
                RommiEvent::Drew { seat, card } => assert_eq!(card.is_some(), viewer.is(seat)),
                _ => {}
            }
        }
    }
    let exported = m.record(meta(players)).expect("an ended match exports");
    let json = serde_json::to_string(&exported).expect("serializable");
    let parsed = record::parse(&json).expect("the export is well formed");
    assert_eq!(parsed, exported);
    let verified = record::verify(&parsed).unwrap_or_else(|e| panic!("the export replays: {e}"));
    assert_eq!(Some(verified.result), m.result());
    assert_eq!(&verified.tally, m.tally());
    assert!(
        m.tally().keys().eq(super::super::TALLY_KEYS.iter().collect::<std::collections::BTreeSet<_>>()),
        "every key, no other"
    );
}

/// Every option combination and player count, a few seeds each.
#[test]
fn every_option_and_player_count() {
    for (i, options) in RommiOptions::all_with_target(30).enumerate() {
        for players in 2..=4 {
            check_match(options, players, (i * 10 + players) as u64);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random seeds, options and player counts.
    #[test]
    fn random_matches(seed in any::<u64>(), option in 0usize..24, players in 2usize..=4, target in 1u32..80) {
        let options = RommiOptions::all_with_target(target).nth(option).expect("24 combinations");
        check_match(options, players, seed);
    }
}
