//! Properties of whole random matches, for every player count (2 to 6) and several `max_rebuys`: no panic,
//! an action is accepted exactly when it is listed as legal, views and events never show a hidden card,
//! and every match (finished or abandoned) exports a record that reads back equal and replays to the
//! same result.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::cards::Card;
use crate::record::{self, RecordMeta};
use crate::rumino::game::Phase;
use crate::rumino::view::Event;
use crate::rumino::{RuminoAction, RuminoEvent, RuminoMatch, RuminoOptions, bot};
use crate::seat::{MatchEnd, Seat, Viewer};

/// The option values the sweeps use: none, the default, two, and more than a match ever uses.
const REBUYS: [u32; 4] = [0, 1, 2, 9];
/// Above this many actions a match is abandoned (a random player may never end one).
const ACTION_CAP: usize = 1500;

pub(crate) fn meta(players: usize) -> RecordMeta {
    RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
        started_at: "2026-11-21T10:00:00Z".into(),
        finished_at: "2026-11-21T10:48:00Z".into(),
        names: (0..players).map(|i| format!("P{i}")).collect(),
        shuffle: None,
    }
}

/// Every action worth trying: the three picks, both rebuy choices, and a discard of every card code with
/// and without gin.
fn candidates() -> Vec<RuminoAction> {
    let mut all = vec![RuminoAction::Knock, RuminoAction::Draw, RuminoAction::Take];
    all.extend([true, false].map(|rebuy| RuminoAction::Rebuy { rebuy }));
    for card in Card::naturals().chain([Card::JOKER]) {
        all.extend([false, true].map(|gin| RuminoAction::Discard { card, gin }));
    }
    all
}

/// Checks the listed actions against `check` for every candidate and every seat.
fn listed_is_accepted(game: &RuminoMatch, candidates: &[RuminoAction]) {
    for seat in Seat::all(game.players()) {
        let listed = game.legal_actions(seat);
        for action in candidates {
            let accepted = game.check(seat, action).is_ok();
            assert_eq!(accepted, listed.contains(action), "{seat} {action:?}: accepted {accepted}");
        }
        for action in &listed {
            assert!(candidates.contains(action), "{action:?} is one of the candidates");
        }
    }
}

/// Every refused action leaves the match as it was: every view, the events and the legal actions.
fn refusals_change_nothing(game: &RuminoMatch, candidates: &[RuminoAction]) {
    let snapshot = |g: &RuminoMatch| {
        let views: Vec<_> = std::iter::once(Viewer::Spectator)
            .chain(Seat::all(g.players()).map(Viewer::Seat))
            .map(|v| g.view(v))
            .collect();
        let legal: Vec<_> = Seat::all(g.players()).map(|s| g.legal_actions(s)).collect();
        (views, g.event_count(), legal)
    };
    // All refusals go to one copy: any change one of them made shows at the end.
    let mut after = game.clone();
    for seat in Seat::all(game.players() + 1) {
        for action in candidates.iter().filter(|a| game.check(seat, a).is_err()) {
            assert!(after.apply(seat, action).is_err(), "{seat} {action:?}: check and apply disagree");
        }
    }
    assert!(snapshot(&after) == snapshot(game), "a refused action changed the match");
}

/// No view or event shows a viewer a card it may not see (§10).
fn nothing_hidden_leaks(game: &RuminoMatch) {
    let players = game.players();
    for viewer in std::iter::once(Viewer::Spectator).chain(Seat::all(players).map(Viewer::Seat)) {
        let view = game.view(viewer);
        let own = match viewer {
            Viewer::Seat(seat) => Some(game.hand(seat).to_vec()).filter(|h| !h.is_empty()),
            Viewer::Spectator => None,
        };
        assert_eq!(view.hand, own, "{viewer:?} sees its own hand only");
        assert_eq!(view.decks.is_some(), game.is_over(), "decks only once the match is over");
        assert_eq!(view.stock, game.stock.len());
        for (_, event) in game.events_for(viewer, 0) {
            match event {
                RuminoEvent::Drew { seat, card } => assert_eq!(card.is_some(), viewer == Viewer::Seat(seat)),
                RuminoEvent::Dealt { hand, .. } => {
                    assert!(hand.is_none() || matches!(viewer, Viewer::Seat(_)), "a spectator is dealt nothing");
                }
                _ => {}
            }
        }
        let json = serde_json::to_string(&view).expect("views serialize");
        assert!(!json.contains("\"deck\"") || game.is_over());
    }
}

/// Plays one match: the bot mostly, a uniformly random legal action with probability `random` percent;
/// abandons it after `stop` actions when given. Checks the properties along the way; returns it.
pub(crate) fn play_match(
    players: usize,
    options: RuminoOptions,
    seed: u64,
    random: u32,
    stop: Option<usize>,
) -> RuminoMatch {
    let mut game = RuminoMatch::new(players, seed, options).expect("2 to 6 players");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xb07);
    let candidates = candidates();
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        if stop.is_some_and(|s| actions >= s) || actions >= ACTION_CAP {
            game.abandon();
            break;
        }
        if actions % 13 == 0 {
            refusals_change_nothing(&game, &candidates);
        }
        if actions % 11 == 0 || matches!(game.phase, Phase::Rebuy { .. }) {
            listed_is_accepted(&game, &candidates);
            nothing_hidden_leaks(&game);
        }
        let action = if rng.next_u32() % 100 < random {
            let legal = game.legal_actions(seat);
            legal[(rng.next_u32() as usize) % legal.len()]
        } else {
            bot::choose(&game, seat, &mut rng)
        };
        let before = game.clone();
        let reveals = game.reveals_hidden(&action);
        assert_eq!(reveals, game.reveals_hidden_by_applying(&action), "{action:?}");
        game.apply(seat, &action).unwrap_or_else(|e| panic!("{action:?} by {seat} is listed but refused: {e}"));
        // What stays hidden before it: a drawn card, a deal, a reshuffle, hands shown, a rumino (§10).
        let shown = game.events[before.events.len()..].iter().any(|e| {
            matches!(
                e,
                Event::Drew { .. }
                    | Event::Dealt { .. }
                    | Event::Reshuffled { .. }
                    | Event::HandScored { .. }
                    | Event::Rumino { .. }
            )
        });
        assert!(action != RuminoAction::Draw || reveals, "a draw always shows its owner a card");
        assert_eq!(reveals, shown, "reveals_hidden tells what the action showed");
        actions += 1;
    }
    listed_is_accepted(&game, &candidates);
    nothing_hidden_leaks(&game);
    game
}

/// The record reads back equal and replays to the same result.
fn record_replays(game: &RuminoMatch) -> crate::record::Tally {
    let record = game.record(meta(game.players())).expect("an over match exports");
    let json = serde_json::to_string_pretty(&record).expect("records serialize");
    let parsed = record::parse(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(parsed, record);
    let verified = record::verify(&parsed).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Some(verified.result), game.result());
    verified.tally
}

#[test]
fn every_player_count_and_rebuy_option_plays_exports_and_replays() {
    let mut ends = std::collections::HashMap::new();
    let mut tally = crate::record::Tally::new();
    let mut unfinished = 0;
    for players in 2..=6 {
        for max_rebuys in REBUYS {
            for seed in 0..3 {
                let seed = seed * 1000 + players as u64 * 10 + u64::from(max_rebuys);
                let random = [0, 15, 100][(seed % 3) as usize];
                let game = play_match(players, RuminoOptions { max_rebuys }, seed, random, None);
                for (key, n) in record_replays(&game) {
                    *tally.entry(key).or_default() += n;
                }
                unfinished += u64::from(game.hand_logs().last().is_some_and(|h| h.result.is_none()));
                *ends.entry(game.outcome().expect("over").ended_by).or_insert(0) += 1;
            }
        }
    }
    // The sweep reaches what the rules are about.
    assert!(ends.contains_key(&MatchEnd::LastPlayer), "{ends:?}");
    for key in ["knocks", "gins", "gin_knocks", "eliminations", "rebuys", "reshuffles", "ends_abandoned"] {
        assert!(tally.get(key).is_some_and(|&n| n > 0), "no {key}: {tally:?} {ends:?}");
    }
    assert_eq!(
        tally.keys().copied().collect::<std::collections::BTreeSet<_>>(),
        crate::rumino::TALLY_KEYS.into_iter().collect()
    );
    let ended =
        tally["knocks"] + tally["gins"] + tally["ruminos_dealt"] + tally["ruminos_drawn"] + tally["ruminos_claimed"];
    assert_eq!(tally["hands"], ended + unfinished, "every hand ends one way, but an abandoned one");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any seed, table and option, abandoned at any point or played out.
    #[test]
    fn random_matches_keep_every_property(
        seed in any::<u64>(),
        players in 2usize..=6,
        max_rebuys in prop::sample::select(REBUYS.to_vec()),
        random in 0u32..=100,
        stop in prop::option::of(0usize..400),
    ) {
        let game = play_match(players, RuminoOptions { max_rebuys }, seed, random, stop);
        record_replays(&game);
    }
}
