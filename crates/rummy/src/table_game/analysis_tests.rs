//! The replay viewer's steps and the analysis of a finished match (`romirami_game::replay`,
//! `romirami_game::analysis`), in each game of the family: the steps are the record's actions in order,
//! the decisions analysed are the seat's own, and a judgement reads nothing the seat could not see.

use romirami_game::analysis::{self, AnalysisSettings, Class, judge};
use romirami_game::replay::replay_of;
use serde_json::Value;

use super::search_tests::{Hidden, hidden_changed, json, played};
use crate::rami::RamiMatch;
use crate::rommi::RommiMatch;
use crate::rumino::RuminoMatch;
use crate::seat::{Seat, Viewer};

/// `steps` actions of the normal bots, then abandoned: a short finished match and its record.
fn short_match<G: Hidden>(players: usize, seed: u64, steps: usize) -> (G, G::Record) {
    let mut game: G = played(players, seed, steps);
    if !game.is_over() {
        game.abandon();
    }
    let record = game.record(super::tests::meta(players)).expect("a record");
    (game, record)
}

/// The record's entries that are actions of a seat, in order, as JSON: every entry but the automatic ones.
fn actions_of(record: &impl serde::Serialize) -> Vec<Value> {
    let record = serde_json::to_value(record).expect("JSON");
    let rounds = record["rounds"].as_array().expect("rounds");
    rounds
        .iter()
        .flat_map(|round| round["log"].as_array().expect("a log").iter().cloned())
        .filter(|entry| ["out", "reshuffle", "rumino"].iter().all(|automatic| entry.get(automatic).is_none()))
        .collect()
}

fn replay_steps_are_the_records_actions<G: Hidden>(players: usize, seed: u64) {
    let (game, record) = short_match::<G>(players, seed, 90);
    let replay = replay_of::<G>(&record, players).expect("it replays");
    let actions = actions_of(&record);
    assert_eq!(replay.steps.len(), actions.len() + 1, "{}: the deal, then one step per action", G::NAME);
    assert!(replay.steps[0].entry.is_none() && replay.steps[0].seat.is_none());
    let entries: Vec<Value> = replay.steps[1..].iter().map(|s| s.entry.clone().expect("an entry")).collect();
    assert_eq!(entries, actions, "{}: the steps' entries are the log's actions in order", G::NAME);
    let last = replay.steps.last().expect("steps");
    let end = serde_json::to_value(game.view(Viewer::Spectator)).expect("JSON");
    assert_eq!(last.view, end, "{}: the last step is the end", G::NAME);
    for (seat, hand) in last.hands.iter().enumerate() {
        let own = serde_json::to_value(game.view(Viewer::Seat(Seat(seat as u8)))).expect("JSON");
        assert_eq!(hand, &own["hand"], "{}: every hand is shown", G::NAME);
    }
}

#[test]
fn replay_steps_are_the_records_actions_in_order() {
    replay_steps_are_the_records_actions::<RommiMatch>(2, 11);
    replay_steps_are_the_records_actions::<RamiMatch>(3, 12);
    replay_steps_are_the_records_actions::<RuminoMatch>(4, 13);
}

fn analysis_judges_the_seats_own_decisions<G: Hidden>(players: usize, seed: u64) {
    let (_, record) = short_match::<G>(players, seed, 40);
    let seat = Seat(1);
    let settings = AnalysisSettings { playouts: 8, seed: 3 };
    let mut calls = Vec::new();
    let analysis = analysis::analyse::<G>(&record, seat, &settings, &mut |done, total| calls.push((done, total)))
        .expect("it analyses");
    let own: Vec<Value> = actions_of(&record).into_iter().filter(|e| e["seat"] == 1).collect();
    assert!(!analysis.decisions.is_empty(), "{}: seat 1 had choices", G::NAME);
    // Every decision is one of the seat's own actions, in the record's order and written as it writes it.
    let mut rest = own.iter();
    for decision in &analysis.decisions {
        assert!(rest.any(|e| *e == decision.played), "{}: {} is the seat's next action", G::NAME, decision.played);
        assert_eq!(decision.best["seat"], 1, "{}: the best action is the seat's: {}", G::NAME, decision.best);
        assert!(decision.loss >= 0.0 && decision.value_best >= decision.value_played);
        assert_eq!(decision.class, Class::of(decision.loss, &G::ANALYSIS));
        if decision.best == decision.played {
            assert_eq!(decision.loss, 0.0);
        }
    }
    let steps: Vec<usize> = analysis.decisions.iter().map(|d| d.step).collect();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{}: in order", G::NAME);
    assert_eq!(calls.first(), Some(&(0, analysis.decisions.len())));
    assert_eq!(calls.last(), Some(&(analysis.decisions.len(), analysis.decisions.len())));
    assert_eq!(analysis.summary.decisions, analysis.decisions.len());
    // The same seed, the same analysis.
    let again = analysis::analyse::<G>(&record, seat, &settings, &mut |_, _| {}).expect("it analyses");
    assert_eq!(again, analysis, "{}: an analysis is reproducible", G::NAME);
}

#[test]
fn an_analysis_judges_the_seats_own_decisions_in_order() {
    analysis_judges_the_seats_own_decisions::<RommiMatch>(2, 21);
    analysis_judges_the_seats_own_decisions::<RamiMatch>(2, 22);
    analysis_judges_the_seats_own_decisions::<RuminoMatch>(3, 23);
}

/// At each of a few moments of a match, the judgement of the seat's next action is the same when what
/// the seat cannot see is changed (another hand's card swapped with the stock's, later deals drawn by
/// another generator).
fn a_judgement_reads_only_the_seats_view<G: Hidden>(players: usize, seed: u64) {
    for steps in [3, 17, 30] {
        let game: G = played(players, seed, steps);
        let Some(seat) = game.to_act() else { continue };
        let Some(other) = hidden_changed(&game, seat, seed ^ steps as u64) else { continue };
        assert_ne!(json(&game.hidden()), json(&other.hidden()), "what the seat cannot see differs");
        let played = game.bot(seat).expect("a move");
        let (mine, theirs) = (judge(&game, seat, &played, 16, 5), judge(&other, seat, &played, 16, 5));
        assert_eq!(mine.best.as_ref().map(json), theirs.best.as_ref().map(json), "{}", G::NAME);
        assert_eq!(mine.value_played.to_bits(), theirs.value_played.to_bits(), "{}", G::NAME);
        assert_eq!(mine.value_best.to_bits(), theirs.value_best.to_bits(), "{}", G::NAME);
    }
}

#[test]
fn a_judgement_reads_nothing_the_seat_cannot_see() {
    a_judgement_reads_only_the_seats_view::<RommiMatch>(2, 31);
    a_judgement_reads_only_the_seats_view::<RamiMatch>(3, 32);
    a_judgement_reads_only_the_seats_view::<RuminoMatch>(2, 33);
}
