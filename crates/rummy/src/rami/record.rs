//! Rami's share of `rummy-record/1`: export of a match, and the replay that checks a record entry by
//! entry against the rule book (rummy-record-format.md, "Checking").
//!
//! A replay deals each round from the record's `deck` and takes each reshuffle's order from its
//! `reshuffle` entry, then plays every entry through [`RamiMatch::apply`]: the engine writes its own
//! log as it goes, and the record's must be exactly that log, automatic entries included.

use std::collections::VecDeque;

use super::actions::RamiAction;
use super::game::{RamiMatch, Round, Script, ScriptFault, Source};
use super::options::{Opening, RamiOptions};
use crate::cards::DeckSpec;
use crate::record::{
    At, ExportError, GameKind, LogEntry, MatchRecordResult, RecordError, RecordMeta, RoundRecord, RoundResult,
    RummyRecord, SeedCheck, Tally, Verified,
};
use crate::seat::{MatchEnd, Seat};

/// The features a Rami match counts ([`RamiMatch::tally`], a verified record's tally): rounds played;
/// openings in Rami 51 and in Rami 30 (rami §6); joker exchanges (§7.3); lay-offs on a meld another player
/// laid (§3.5); rounds won by a rami sec, doubled and quadrupled (§9); reshuffles (§8); blocked rounds;
/// and how the match ended (§10, or abandoned).
pub const TALLY_KEYS: [&str; 12] = [
    "rounds",
    "rami51_openings",
    "rami30_openings",
    "joker_exchanges",
    "lay_offs_on_others",
    "rami_sec_x2",
    "rami_sec_x4",
    "reshuffles",
    "blocked_rounds",
    "ends_rounds",
    "ends_limit",
    "ends_abandoned",
];

impl RamiMatch {
    /// The match as a `rummy-record/1` document. A match still in play is exported after
    /// [`RamiMatch::abandon`], its round in progress with a `null` result.
    ///
    /// # Errors
    /// [`ExportError::NotOver`] while the match goes on; [`ExportError::Meta`] when `meta` would make a
    /// malformed record.
    pub fn record(&self, meta: RecordMeta) -> Result<RummyRecord, ExportError> {
        let result = self.result().ok_or(ExportError::NotOver)?;
        let rounds = self
            .rounds()
            .map(|round| RoundRecord {
                number: round.number,
                dealer: round.dealer,
                seats: Seat::all(self.players).collect(),
                deck: round.deck.clone(),
                log: round.log.clone(),
                result: round.result.clone().map(RoundResult::Rami),
            })
            .collect();
        let options = serde_json::to_value(self.options).map_err(|e| ExportError::Meta(e.to_string()))?;
        let result = MatchRecordResult {
            ended_by: result.ended_by,
            totals: result.totals,
            winners: result.winners,
            rebuy_counts: None,
        };
        RummyRecord::new(GameKind::Rami, options, meta, rounds, result)
    }

    /// What happened in the match, for the tools' summaries: every key of [`TALLY_KEYS`], 0 included.
    pub fn tally(&self) -> Tally {
        let opening_key = match self.options.opening {
            Opening::Rami51 => "rami51_openings",
            Opening::Rami30 => "rami30_openings",
        };
        let mut tally: Tally = TALLY_KEYS.iter().map(|&key| (key, 0)).collect();
        let mut add = |key: &'static str| *tally.entry(key).or_default() += 1;
        for round in self.rounds() {
            for entry in &round.log {
                match entry {
                    LogEntry::Open { .. } => add(opening_key),
                    LogEntry::Exchange { .. } => add("joker_exchanges"),
                    LogEntry::Reshuffle { .. } => add("reshuffles"),
                    LogEntry::LayOff { seat, lay_off } => {
                        let owner = round.melds.iter().find(|m| m.id == lay_off.id).map(|m| &m.owner);
                        if owner.is_some_and(|owner| owner != seat) {
                            add("lay_offs_on_others");
                        }
                    }
                    _ => {}
                }
            }
            add("rounds");
            match round.result.as_ref().map(|r| (r.out, r.multiplier)) {
                Some((_, 2)) => add("rami_sec_x2"),
                Some((_, 4)) => add("rami_sec_x4"),
                Some((None, _)) => add("blocked_rounds"),
                _ => {}
            }
        }
        match self.result().map(|r| r.ended_by) {
            Some(MatchEnd::Rounds) => add("ends_rounds"),
            Some(MatchEnd::Limit) => add("ends_limit"),
            Some(MatchEnd::Abandoned) => add("ends_abandoned"),
            _ => {}
        }
        tally
    }

    /// The round numbered `number`, over or in progress.
    fn round_numbered(&self, number: u32) -> Option<&Round> {
        self.rounds().find(|round| round.number == number)
    }
}

/// Replays a Rami record and checks it, giving back the match as replayed.
///
/// # Errors
/// The first thing in the record that breaks a rule of rami.md or of the record format.
pub fn replay(record: &RummyRecord) -> Result<RamiMatch, RecordError> {
    replay_with(record, &mut |_, _, _, _| {})
}

/// What a replay tells of each action before it is played: the match, the seat, the action and the log
/// entry that writes it.
pub type Observer<'a> = &'a mut dyn FnMut(&RamiMatch, Seat, &RamiAction, &LogEntry);

/// [`replay`], telling `each` of every action before it is played.
///
/// # Errors
/// As [`replay`].
pub fn replay_with(record: &RummyRecord, each: Observer<'_>) -> Result<RamiMatch, RecordError> {
    let at_match = At::default();
    let options: RamiOptions = serde_json::from_value(record.options.clone())
        .map_err(|e| RecordError::rule(at_match.clone(), format!("rami §2: {e}")))?;
    let players = record.players.len();
    if !(2..=5).contains(&players) {
        return Err(RecordError::rule(at_match, format!("rami §1: a match is for 2 to 5 players, not {players}")));
    }
    let proof = record.shuffle_proof()?;
    for (i, round) in record.rounds.iter().enumerate() {
        let at = At { round: Some(round.number), entry: None };
        if round.number as usize != i + 1 {
            return Err(RecordError::rule(at, "record: rounds are numbered 1, 2, … in order"));
        }
        if !round.seats.iter().copied().eq(Seat::all(players)) {
            return Err(RecordError::rule(at, "record: every seat is dealt in a Rami round, ascending"));
        }
        if !DeckSpec::DOUBLE.is_deck(&round.deck) {
            return Err(RecordError::rule(
                at,
                "rami §1: the deck is not the 108 cards (every natural twice, 4 jokers)",
            ));
        }
        if round.dealer.index() >= players {
            return Err(RecordError::rule(at, "rami §5 step 1: the dealer is not a seat of the table"));
        }
    }
    let reshuffles = |round: &RoundRecord| -> VecDeque<_> {
        round
            .log
            .iter()
            .filter_map(|entry| match entry {
                LogEntry::Reshuffle { stock } => Some(stock.clone()),
                _ => None,
            })
            .collect()
    };
    let dealer = record.rounds.first().map_or(Seat(0), |r| r.dealer);
    // `RamiMatch::new`: round 1's dealer, then each deck and reshuffle as the replay reaches it.
    let seeded = proof.map(|proof| {
        let mut check = SeedCheck::new(proof.seed());
        if let Some(first) = record.rounds.first() {
            check.dealer(players, first.dealer);
        }
        check
    });
    let script = Script {
        rounds: record.rounds.iter().map(|r| (r.deck.clone(), reshuffles(r))).collect(),
        seeded,
        ..Script::default()
    };
    let mut game = RamiMatch::start(players, options, Source::Scripted(script), dealer);
    for (i, round) in record.rounds.iter().enumerate() {
        replay_round(&mut game, round, i + 1 == record.rounds.len(), each)?;
    }
    check_match_result(&mut game, &record.result)?;
    if let Source::Scripted(Script { seeded: Some(check), .. }) = &game.source {
        check.result()?;
    }
    Ok(game)
}

/// Replays one round of the record: its dealer, every entry, and its result.
fn replay_round(game: &mut RamiMatch, round: &RoundRecord, last: bool, each: Observer<'_>) -> Result<(), RecordError> {
    let number = round.number;
    let at = |entry: Option<usize>| At { round: Some(number), entry };
    if game.is_over() || game.round.number != number {
        return Err(RecordError::rule(at(None), format!("rami §10: the match ended after round {}", number - 1)));
    }
    if round.dealer != game.round.dealer {
        return Err(RecordError::rule(
            at(None),
            format!("rami §5 step 1: the dealer is {}, the seat after the previous dealer", game.round.dealer),
        ));
    }
    for (k, entry) in round.log.iter().enumerate() {
        let logged = game.round_numbered(number).map_or(0, |r| r.log.len());
        if let Some((seat, action)) = RamiAction::from_entry(entry) {
            if logged > k {
                return Err(RecordError::rule(at(Some(k)), due(game, number, k)));
            }
            if game.is_over() || game.round.number != number {
                return Err(RecordError::rule(at(Some(k)), "rami §9: the round is over; nothing follows its end"));
            }
            if let LogEntry::Take { cards, .. } = entry {
                if cards.len() != 1 {
                    return Err(RecordError::rule(at(Some(k)), "rami §7.1 b: a take is of the top card alone"));
                }
            }
            each(game, seat, &action, entry);
            game.apply(seat, &action).map_err(|e| RecordError::rule(at(Some(k)), e.to_string()))?;
            let written = game.round_numbered(number).and_then(|r| r.log.get(k));
            if written != Some(entry) {
                return Err(RecordError::rule(at(Some(k)), mismatch(entry, written)));
            }
        } else if matches!(entry, LogEntry::Out { .. } | LogEntry::Reshuffle { .. }) {
            if game.round_numbered(number).and_then(|r| r.log.get(k)) != Some(entry) {
                script_fault(game, at(Some(k)))?;
                let rule = match entry {
                    LogEntry::Out { .. } => "rami §7.4: no player went out here",
                    _ => "rami §8: no reshuffle is due here (or it is not this one)",
                };
                return Err(RecordError::rule(at(Some(k)), rule));
            }
        } else {
            return Err(RecordError::rule(at(Some(k)), format!("record: `{}` is not a Rami entry", entry.kind())));
        }
    }
    let replayed = game.round_numbered(number).ok_or_else(|| RecordError::rule(at(None), "record: round not dealt"))?;
    let (written, expected) = (round.log.len(), replayed.log.len());
    let unfinished = round.result.is_none();
    // An unfinished last round may stop before a reshuffle the next turn would start with.
    let pending_reshuffle =
        unfinished && expected == written + 1 && matches!(replayed.log.last(), Some(LogEntry::Reshuffle { .. }));
    if expected > written && !pending_reshuffle {
        return Err(RecordError::rule(at(Some(written)), due(game, number, written)));
    }
    match (&round.result, &replayed.result) {
        (Some(RoundResult::Rami(given)), Some(result)) if given == result => Ok(()),
        (Some(RoundResult::Rami(_)), Some(result)) => Err(RecordError::rule(
            at(None),
            format!("rami §9: the round's result is not the replay's, {}", serde_json::json!(result)),
        )),
        (Some(RoundResult::Rami(_)), None) => {
            Err(RecordError::rule(at(None), "rami §9: the round has a result, but its log stops before its end"))
        }
        (Some(_), _) => Err(RecordError::rule(at(None), "record: not a Rami round result")),
        (None, Some(_)) => Err(RecordError::rule(at(None), "record: the round ended, so its result is required")),
        (None, None) if !last => {
            Err(RecordError::rule(at(None), "record: only the last round may stop before its end"))
        }
        (None, None) => Ok(()),
    }
}

/// The rule broken when the engine wrote an automatic entry at `k` that the record does not have.
fn due(game: &RamiMatch, number: u32, k: usize) -> String {
    match game.round_numbered(number).and_then(|r| r.log.get(k)) {
        Some(LogEntry::Reshuffle { .. }) => {
            "rami §8: the stock is empty at the start of this turn: a reshuffle is due here".to_owned()
        }
        Some(LogEntry::Out { seat }) => format!("rami §7.4: {seat}'s hand is empty: `out` is due here"),
        _ => "record: an entry is missing here".to_owned(),
    }
}

/// The rule broken when the engine wrote `written` for the record's `entry`.
fn mismatch(entry: &LogEntry, written: Option<&LogEntry>) -> String {
    match (entry, written) {
        (LogEntry::Draw { card, .. }, Some(LogEntry::Draw { card: top, .. })) => {
            format!("rami §7.1 a: the top card of the stock is {top}, not {card}")
        }
        (LogEntry::Take { cards, .. }, Some(LogEntry::Take { cards: top, .. })) => format!(
            "rami §7.1 b: the top card of the discard pile is {}, not {}",
            super::check::Codes(top),
            super::check::Codes(cards)
        ),
        (LogEntry::Open { .. } | LogEntry::Meld { .. }, Some(_)) => {
            "rami §3.5: a new meld's id is one more than the number of melds laid so far this round".to_owned()
        }
        _ => "record: the entry is not what the replay wrote".to_owned(),
    }
}

/// A reshuffle the record did not describe correctly, found when the replay used it.
fn script_fault(game: &RamiMatch, at: At) -> Result<(), RecordError> {
    let Source::Scripted(script) = &game.source else { return Ok(()) };
    match script.fault {
        Some(ScriptFault::NotAPermutation) => Err(RecordError::rule(
            at,
            "rami §8: the reshuffle is not a permutation of the discard pile under its top card",
        )),
        Some(ScriptFault::Missing) => {
            Err(RecordError::rule(at, "rami §8: the stock is empty at the start of a turn: a reshuffle is due"))
        }
        None => Ok(()),
    }
}

/// Checks the record's match result against the replay (rami §10).
fn check_match_result(game: &mut RamiMatch, given: &MatchRecordResult) -> Result<(), RecordError> {
    let at = At::default();
    if given.rebuy_counts.is_some() {
        return Err(RecordError::rule(at, "record: `rebuy_counts` is Rumino's only"));
    }
    if !game.is_over() {
        if given.ended_by != MatchEnd::Abandoned {
            return Err(RecordError::rule(at, "rami §10: the match stops before its end, and is not `abandoned`"));
        }
        game.abandon();
    }
    let result = game.result().ok_or_else(|| RecordError::rule(At::default(), "rami §10: the match is not over"))?;
    if given.ended_by != result.ended_by {
        return Err(RecordError::rule(
            at,
            format!("rami §10: the match ended by {}", serde_json::json!(result.ended_by)),
        ));
    }
    if given.totals != result.totals {
        return Err(RecordError::rule(at, format!("rami §10: the totals are {:?}", result.totals)));
    }
    let abandoned_without = result.ended_by == MatchEnd::Abandoned && given.winners.is_empty();
    if given.winners != result.winners && !abandoned_without {
        return Err(RecordError::rule(at, "rami §10: the winners are the seats with the lowest total"));
    }
    Ok(())
}

/// Replays a Rami record and sums up what happened in it (the `verify` dispatch of `record`).
///
/// # Errors
/// As [`replay`].
pub fn verify_record(record: &RummyRecord) -> Result<Verified, RecordError> {
    let game = replay(record)?;
    let result = game.result().ok_or_else(|| RecordError::rule(At::default(), "rami §10: the match is not over"))?;
    Ok(Verified { game: GameKind::Rami, rounds: record.rounds.len(), result, tally: game.tally() })
}
