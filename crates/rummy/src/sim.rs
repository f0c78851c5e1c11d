//! Whole matches played by the games' bots, for the `romirami simulate` tool, benchmarks and fuzz seeds:
//! one entry point for the three games ([`play`]), dispatching on [`GameKind`].
//!
//! Each match is exported and then checked by the record's own replay ([`crate::record::verify`]), so a
//! simulated record is known to replay, and its feature counts ([`Verified::tally`]) come from the record
//! itself: the same counts `romirami verify` reports.

use std::ops::RangeInclusive;

use rand_core::Rng;

use crate::cards::{RummyRng, below};
use crate::record::{self, GameKind, RecordMeta, RummyRecord, Verified};
use crate::seat::Seat;
use crate::{rami, rommi, rumino};

/// A simulated match.
#[derive(Clone, Debug)]
pub struct Played {
    /// Its record.
    pub record: RummyRecord,
    /// How many actions the bots applied.
    pub actions: usize,
    /// What the record's replay found: the result and the feature counts.
    pub verified: Verified,
}

/// Why a match could not be simulated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// Options or a player count the game does not allow.
    #[error("{0}")]
    Setup(String),
    /// The engine refused its own bot's action, or its record does not replay: an engine bug.
    #[error("{0}")]
    Engine(String),
}

/// The player counts a game allows (each rule book's §1).
pub fn players(game: GameKind) -> RangeInclusive<usize> {
    match game {
        GameKind::Rommi => 2..=4,
        GameKind::Rami => 2..=5,
        GameKind::Rumino => 2..=6,
    }
}

/// A random choice among the options a table may pick (each as partial JSON: the rest is defaulted).
pub fn random_options(game: GameKind, rng: &mut (impl Rng + ?Sized)) -> serde_json::Value {
    let mut pick = |values: &[serde_json::Value]| values[below(rng, values.len())].clone();
    use serde_json::json;
    match game {
        GameKind::Rommi => json!({
            "variant": pick(&[json!("basic"), json!("500")]),
            "scoring": pick(&[json!("positive"), json!("meld_hand"), json!("negative")]),
            "simple_scoring": pick(&[json!(false), json!(true)]),
            "meld_restriction": pick(&[json!(false), json!(true)]),
        }),
        GameKind::Rami => json!({
            "opening": pick(&[json!(51), json!(30)]),
            "match_end": pick(&[json!({ "rounds": 1 }), json!({ "rounds": 3 }), json!({ "limit": 300 })]),
        }),
        GameKind::Rumino => json!({ "max_rebuys": pick(&[json!(0), json!(1), json!(2)]) }),
    }
}

/// Plays one match of `game` to its end with the game's bot for every seat, exports it with `meta` and
/// checks the record. A match the bots have not ended after `limit` actions is abandoned (Rommi can go
/// on taking from the discard pile forever, rommi §8).
///
/// # Errors
/// [`SimError::Setup`] for options or a player count the game refuses; [`SimError::Engine`] when the
/// engine refuses its bot or the record does not replay.
pub fn play(
    game: GameKind,
    players: usize,
    options: &serde_json::Value,
    seed: u64,
    bot_seed: u64,
    meta: RecordMeta,
    limit: usize,
) -> Result<Played, SimError> {
    let mut rng = RummyRng::from_seed(bot_seed);
    let setup = |e: &dyn std::fmt::Display| SimError::Setup(format!("{game}: {e}"));
    let (record, actions) = match game {
        GameKind::Rommi => {
            let options = rommi::RommiOptions::from_partial(options).map_err(|e| setup(&e))?;
            let m = rommi::RommiMatch::new(players, seed, options).map_err(|e| setup(&e))?;
            run(
                m,
                limit,
                meta,
                &mut rng,
                Hooks {
                    to_act: rommi::RommiMatch::to_act,
                    choose: |m, seat, rng| rommi::bot::choose(m, seat, rng),
                    apply: |m, seat, a| m.apply(seat, a).map_err(|e| e.to_string()),
                    abandon: rommi::RommiMatch::abandon,
                    record: |m, meta| m.record(meta).map_err(|e| e.to_string()),
                },
            )?
        }
        GameKind::Rami => {
            let options = rami::RamiOptions::from_json_with_defaults(options, players).map_err(|e| setup(&e))?;
            let m = rami::RamiMatch::new(players, seed, options).map_err(|e| setup(&e))?;
            run(
                m,
                limit,
                meta,
                &mut rng,
                Hooks {
                    to_act: rami::RamiMatch::to_act,
                    choose: |m, seat, rng| rami::bot::choose(m, seat, rng),
                    apply: |m, seat, a| m.apply(seat, a).map_err(|e| e.to_string()),
                    abandon: rami::RamiMatch::abandon,
                    record: |m, meta| m.record(meta).map_err(|e| e.to_string()),
                },
            )?
        }
        GameKind::Rumino => {
            let options: rumino::RuminoOptions =
                with_defaults(options, &rumino::RuminoOptions::default()).map_err(|e| setup(&e))?;
            let m = rumino::RuminoMatch::new(players, seed, options).map_err(|e| setup(&e))?;
            run(
                m,
                limit,
                meta,
                &mut rng,
                Hooks {
                    to_act: rumino::RuminoMatch::to_act,
                    choose: |m, seat, rng| Some(rumino::bot::choose(m, seat, rng)),
                    apply: |m, seat, a| m.apply(seat, a).map_err(|e| e.to_string()),
                    abandon: rumino::RuminoMatch::abandon,
                    record: |m, meta| m.record(meta).map_err(|e| e.to_string()),
                },
            )?
        }
    };
    let verified = record::verify(&record)
        .map_err(|e| SimError::Engine(format!("{game}: the simulated record does not replay: {e}")))?;
    Ok(Played { record, actions, verified })
}

/// Options from partial JSON: the given keys over `defaults`, then read strictly.
fn with_defaults<T: serde::Serialize + serde::de::DeserializeOwned>(
    given: &serde_json::Value,
    defaults: &T,
) -> Result<T, String> {
    let mut full = serde_json::to_value(defaults).map_err(|e| e.to_string())?;
    let (Some(given), Some(target)) = (given.as_object(), full.as_object_mut()) else {
        return Err("the options are a JSON object".to_owned());
    };
    target.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
    serde_json::from_value(full).map_err(|e| e.to_string())
}

/// What [`run`] needs of a game's match, so that one loop plays the three games.
struct Hooks<M, A> {
    to_act: fn(&M) -> Option<Seat>,
    choose: fn(&M, Seat, &mut RummyRng) -> Option<A>,
    apply: fn(&mut M, Seat, &A) -> Result<(), String>,
    abandon: fn(&mut M),
    record: fn(&M, RecordMeta) -> Result<RummyRecord, String>,
}

fn run<M, A: std::fmt::Debug>(
    mut m: M,
    limit: usize,
    meta: RecordMeta,
    rng: &mut RummyRng,
    hooks: Hooks<M, A>,
) -> Result<(RummyRecord, usize), SimError> {
    let mut actions = 0;
    while let Some(seat) = (hooks.to_act)(&m) {
        if actions >= limit {
            (hooks.abandon)(&mut m);
            break;
        }
        let action = (hooks.choose)(&m, seat, rng)
            .ok_or_else(|| SimError::Engine(format!("the bot has no action for {seat}, the seat to act")))?;
        (hooks.apply)(&mut m, seat, &action)
            .map_err(|e| SimError::Engine(format!("the engine refused its bot's {action:?}: {e}")))?;
        actions += 1;
    }
    let record = (hooks.record)(&m, meta).map_err(SimError::Engine)?;
    Ok((record, actions))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(players: usize) -> RecordMeta {
        RecordMeta {
            id: "00000000-0000-4000-8000-000000000001".into(),
            started_at: "2026-11-21T10:00:00Z".into(),
            finished_at: "2026-11-21T10:00:01Z".into(),
            names: vec![String::new(); players],
            shuffle: None,
        }
    }

    #[test]
    fn every_game_plays_with_random_options_and_replays() {
        let mut rng = RummyRng::from_seed(4);
        for game in GameKind::ALL {
            for players in players(game) {
                let options = random_options(game, &mut rng);
                let played = play(game, players, &options, players as u64, 9, meta(players), 20_000)
                    .unwrap_or_else(|e| panic!("{game} {players}p {options}: {e}"));
                assert_eq!(played.record.game, game);
                assert_eq!(played.verified.rounds, played.record.rounds.len());
                assert!(played.actions > 0);
            }
        }
    }

    #[test]
    fn refused_setups_say_why() {
        let bad = |game, players, options: serde_json::Value| play(game, players, &options, 1, 1, meta(players), 10);
        assert!(matches!(bad(GameKind::Rommi, 5, serde_json::json!({})), Err(SimError::Setup(_))));
        assert!(matches!(bad(GameKind::Rommi, 2, serde_json::json!({ "target": 0 })), Err(SimError::Setup(_))));
        assert!(matches!(bad(GameKind::Rami, 2, serde_json::json!({ "opening": 40 })), Err(SimError::Setup(_))));
        assert!(matches!(bad(GameKind::Rumino, 2, serde_json::json!({ "stake": 1 })), Err(SimError::Setup(_))));
    }

    #[test]
    fn a_match_past_the_limit_is_abandoned_and_still_replays() {
        let played = play(GameKind::Rommi, 3, &serde_json::json!({}), 5, 5, meta(3), 30).expect("plays");
        assert_eq!(played.actions, 30);
        assert_eq!(played.verified.result.ended_by, crate::seat::MatchEnd::Abandoned);
    }
}
