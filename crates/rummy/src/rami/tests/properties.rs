//! Property tests over random matches, for every option combination and player count (2 to 5):
//! nothing panics; what the legal summary lists is exactly what `check` accepts; a refused action
//! changes nothing; views show no hidden card; records round-trip and replay.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::super::cardkit::Hand;
use super::super::search;
use super::support::*;
use crate::cards::Card;
use crate::rami::{RamiAction, RamiEvent, RamiMatch, RamiOptions, bot};
use crate::record::Tally;
use crate::seat::{MatchEnd, Seat, Viewer};

/// Checks that the legal summary of every seat agrees with `check`.
fn summary_agrees(game: &RamiMatch) {
    let Some(seat) = game.to_act() else { return };
    for other in Seat::all(game.players()).filter(|&s| s != seat) {
        assert_eq!(game.legal_summary(other), Default::default());
    }
    let legal = game.legal_summary(seat);
    assert_eq!(legal.may_draw, game.check(seat, &RamiAction::Draw).is_ok());
    assert_eq!(legal.may_take, game.check(seat, &RamiAction::Take).is_ok());
    let hand = hand_of(game, seat.0);
    for &card in &hand {
        let listed = legal.discardable.contains(&card);
        assert_eq!(listed, game.check(seat, &RamiAction::Discard(card)).is_ok(), "discard {card}");
    }
    for meld in &game.round.melds {
        for &card in &hand {
            let exchange = RamiAction::Exchange { id: meld.id, card };
            let listed = legal.exchanges.contains(&(meld.id, card));
            assert_eq!(listed, game.check(seat, &exchange).is_ok(), "exchange {card} on {}", meld.id);
        }
    }
    let suggested = game.suggest_opening(seat);
    let turn = game.turn().expect("a turn");
    if turn.drew && !game.round.opened[seat.index()] {
        assert_eq!(legal.may_open, suggested.is_some());
    }
    if let Some(opening) = suggested {
        assert_eq!(game.check(seat, &RamiAction::Open(opening)), Ok(()));
    }
}

/// Changes what `viewer` may not know — the stock's order, and another seat's cards (swapped with the
/// stock's) — and checks that the view and the events do not change.
fn views_hide(game: &RamiMatch, viewer: Viewer, rng: &mut ChaCha8Rng) {
    let mut other = game.clone();
    let players = game.players();
    let hidden: Vec<usize> = (0..players).filter(|&s| viewer != Viewer::Seat(Seat(s as u8))).collect();
    let seat = hidden[rng.next_u32() as usize % hidden.len()];
    let round = &mut other.round;
    let mut pool: Vec<Card> = round.hands[seat].cards();
    pool.append(&mut round.stock);
    let size = round.hands[seat].len();
    let turn = rng.next_u32() as usize % pool.len().max(1);
    pool.rotate_left(turn);
    round.hands[seat] = Hand::from_cards(&pool[..size]);
    round.stock = pool[size..].to_vec();
    round.stock.reverse();
    let json = |g: &RamiMatch| serde_json::to_string(&g.view(viewer)).expect("a view serializes");
    assert_eq!(json(game), json(&other), "{viewer:?}");
    let events = |g: &RamiMatch| serde_json::to_string(&g.events_for(viewer, 0).collect::<Vec<_>>()).expect("json");
    assert_eq!(events(game), events(&other));
    if let Viewer::Seat(me) = viewer {
        assert_eq!(game.view(viewer).hand, Some(hand_of(game, me.0)));
    } else {
        assert_eq!(game.view(viewer).hand, None);
    }
}

/// Checks every event as each viewer gets it: a dealt hand and a drawn card reach their seat alone.
fn events_hide(game: &RamiMatch) {
    let viewers = [Viewer::Spectator].into_iter().chain(Seat::all(game.players()).map(Viewer::Seat));
    for viewer in viewers {
        for (_, event) in game.events_for(viewer, 0) {
            match event {
                RamiEvent::RoundStarted { hand, .. } => assert_eq!(hand.is_some(), viewer != Viewer::Spectator),
                RamiEvent::Drew { seat, card } => assert_eq!(card.is_some(), viewer == Viewer::Seat(seat)),
                _ => {}
            }
        }
    }
}

/// An action that may or may not be legal: a draw, a take, a discard, a meld, a lay-off, an exchange
/// or an opening made of what the hand holds, or cards picked at random.
fn random_action(game: &RamiMatch, seat: Seat, rng: &mut ChaCha8Rng) -> RamiAction {
    let hand = &game.round.hands[seat.index()];
    let cards = hand.cards();
    let pick = |rng: &mut ChaCha8Rng, n: usize| rng.next_u32() as usize % n.max(1);
    let any_card = |rng: &mut ChaCha8Rng| cards.get(pick(rng, cards.len())).copied().unwrap_or(Card::JOKER);
    let candidates = search::candidate_melds(hand);
    let melds = &game.round.melds;
    match rng.next_u32() % 9 {
        0 => RamiAction::Draw,
        1 => RamiAction::Take,
        2 => RamiAction::Discard(any_card(rng)),
        3 if !candidates.is_empty() => RamiAction::Meld(candidates[pick(rng, candidates.len())].meld()),
        4 if !candidates.is_empty() => {
            let n = 1 + pick(rng, 3);
            RamiAction::Open((0..n).map(|_| candidates[pick(rng, candidates.len())].meld()).collect())
        }
        5 if !melds.is_empty() => {
            let meld = &melds[pick(rng, melds.len())];
            let options = search::lay_off_options(hand, meld);
            match options.get(pick(rng, options.len())) {
                Some(option) => RamiAction::LayOff { id: meld.id, cards: option.cards.clone(), joker: option.joker },
                None => RamiAction::LayOff { id: meld.id, cards: vec![any_card(rng)], joker: None },
            }
        }
        6 if !melds.is_empty() => {
            let meld = &melds[pick(rng, melds.len())];
            let card = meld.exchange_card().filter(|_| rng.next_u32() % 2 == 0).unwrap_or_else(|| any_card(rng));
            RamiAction::Exchange { id: meld.id, card }
        }
        _ => {
            let three = (0..3).map(|_| any_card(rng)).collect();
            let joker = serde_json::from_value(serde_json::json!(["7", "Ah", "Kc", "9s"][pick(rng, 4)])).ok();
            RamiAction::Meld(crate::rami::MeldCards::new(three, joker.filter(|_| rng.next_u32() % 2 == 0)))
        }
    }
}

/// Every seat's view, the events and the round's log: what tells two matches apart.
fn everything(game: &RamiMatch) -> String {
    let views: Vec<String> = Seat::all(game.players())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .map(|viewer| serde_json::to_string(&game.view(viewer)).expect("json"))
        .collect();
    let events: Vec<_> = game.events_for(Viewer::Spectator, 0).collect();
    format!("{views:?} {events:?} {:?}", game.round.log)
}

/// Plays a match with a mix of the bot's and random actions, checking the properties at every step;
/// abandons it after `abandon_at` actions when given. Returns the match and its verified record's tally.
fn play_checked(players: usize, seed: u64, options: RamiOptions, abandon_at: Option<usize>) -> (RamiMatch, Tally) {
    let mut game = new_match(players, seed, options);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        if abandon_at == Some(actions) {
            game.abandon();
            break;
        }
        summary_agrees(&game);
        if actions % 5 == 0 {
            let viewer = match rng.next_u32() as usize % (players + 1) {
                0 => Viewer::Spectator,
                s => Viewer::Seat(Seat(s as u8 - 1)),
            };
            views_hide(&game, viewer, &mut rng);
        }
        let random = actions < 3000 && rng.next_u32() % 3 == 0;
        let action = if random {
            random_action(&game, seat, &mut rng)
        } else {
            bot::choose(&game, seat, &mut rng).expect("a turn")
        };
        let before =
            (serde_json::to_string(&game.view(Viewer::Seat(seat))).ok(), game.event_count(), game.round.log.len());
        // An action `check` accepts is played alike without the searches that judged it.
        let checked = game.check(seat, &action).is_ok().then(|| {
            let mut copy = game.clone();
            copy.apply_checked(seat, &action).expect("a checked action plays");
            copy
        });
        match game.apply(seat, &action) {
            Ok(()) => {
                actions += 1;
                let checked = checked.expect("an action applied was accepted by check");
                assert_eq!(everything(&checked), everything(&game), "{action:?} played without its searches");
            }
            Err(e) => {
                assert!(random, "the bot's {action:?} was refused: {e}");
                assert!(e.to_string().starts_with("rami §"), "{e}");
                let after = (
                    serde_json::to_string(&game.view(Viewer::Seat(seat))).ok(),
                    game.event_count(),
                    game.round.log.len(),
                );
                assert_eq!(before, after, "a refused {action:?} changed the match");
            }
        }
        assert!(actions < 20_000, "the match ends");
    }
    assert!(game.is_over());
    events_hide(&game);
    let verified = round_trip(&game);
    assert_eq!(Some(verified.result.clone()), game.result());
    if abandon_at.is_some_and(|at| at <= actions) {
        assert_eq!(verified.result.ended_by, MatchEnd::Abandoned);
    }
    (game, verified.tally)
}

/// Every option combination and player count; one match in four abandoned midway.
#[test]
fn every_table_plays_legally_and_replays() {
    let mut tally = Tally::new();
    for players in 2..=5 {
        for (i, options) in RamiOptions::samples(players).into_iter().enumerate() {
            let seed = (players * 10 + i) as u64;
            let abandon = (seed % 4 == 0).then_some(40 + (seed as usize % 50));
            let (_, counts) = play_checked(players, seed, options, abandon);
            for (key, n) in counts {
                *tally.entry(key).or_default() += n;
            }
        }
    }
    assert!(crate::rami::TALLY_KEYS.iter().all(|key| tally.contains_key(key)));
    for key in
        ["rami51_openings", "rami30_openings", "joker_exchanges", "lay_offs_on_others", "rami_sec_x2", "ends_abandoned"]
    {
        assert!(tally[key] > 0, "{key} never happened: {tally:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Random seats, options and seeds.
    #[test]
    fn random_matches_play_legally_and_replay(players in 2usize..=5, option in 0usize..6, seed in any::<u64>()) {
        let options = RamiOptions::samples(players)[option];
        play_checked(players, seed, options, None);
    }
}
