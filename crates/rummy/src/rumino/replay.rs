//! Checking a Rumino record (record format, "Checking"): the match is replayed from round 1 through the
//! engine itself, with the record's decks and reshuffles, and the record is refused at the first entry or
//! result that differs from what the rules make of it.

use std::collections::VecDeque;

use crate::cards::Card;
use crate::record::{
    At, GameKind, LogEntry, RecordError, RoundEnd, RoundRecord, RoundResult, RummyRecord, SeedCheck, Tally, Verified,
};
use crate::rumino::actions::RuminoAction;
use crate::rumino::game::{Phase, RuminoMatch, ScriptFault, Source};
use crate::rumino::lays::is_rumino;
use crate::rumino::options::RuminoOptions;
use crate::rumino::record::{log_entry, round_result};
use crate::seat::{MatchEnd, MatchResult, Seat};

/// The features a Rumino replay counts (its [`Verified::tally`]): hands; how hands ended (`knocks` with
/// deadwood 1 to 7, `gins`, of which `gin_knocks` by a knock at 0); ruminos dealt, drawn (or taken) and
/// claimed on a discard; eliminations, rebuys and reshuffles; and how the match ended.
pub const TALLY_KEYS: [&str; 15] = [
    "hands",
    "knocks",
    "gins",
    "gin_knocks",
    "ruminos_dealt",
    "ruminos_drawn",
    "ruminos_claimed",
    "eliminations",
    "rebuys",
    "reshuffles",
    "ends_last_player",
    "ends_all_eliminated",
    "ends_rumino",
    "ends_three_gins",
    "ends_abandoned",
];

/// Replays a Rumino record and checks every entry and result in it.
///
/// # Errors
/// [`RecordError::Malformed`] for options that are not §2's, [`RecordError::Rule`] for the first thing
/// that breaks a rule of `rumino.md`, with the round and entry where it is.
pub fn verify_record(record: &RummyRecord) -> Result<Verified, RecordError> {
    replay_checked(record, &mut |_, _, _, _| {}).map(|(_, verified)| verified)
}

/// What a replay tells of each action of the log before it is played: the match, the seat, the action and
/// the log entry that writes it.
pub(crate) type Observer<'a> = &'a mut dyn FnMut(&RuminoMatch, Seat, &RuminoAction, &LogEntry);

/// [`verify_record`], giving back the match as replayed too; `None` for a record without a hand (a match
/// abandoned before hand 1 ended, its hand left out), which has no match to give.
pub(crate) fn replay_checked(
    record: &RummyRecord,
    each: Observer<'_>,
) -> Result<(Option<RuminoMatch>, Verified), RecordError> {
    let options: RuminoOptions = serde_json::from_value(record.options.clone())
        .map_err(|e| RecordError::Malformed(format!("rumino options: {e}")))?;
    let players = record.players.len();
    let at_match = At::default();
    if !(2..=6).contains(&players) {
        return Err(RecordError::rule(at_match, format!("rumino §1: a match is for 2 to 6 players, not {players}")));
    }
    if record.result.totals.len() != players {
        return Err(RecordError::Malformed(format!(
            "the match totals have {} elements for {players} seats",
            record.result.totals.len()
        )));
    }
    let proof = record.shuffle_proof()?;
    let Some(first) = record.rounds.first() else { return verify_empty(record, players).map(|v| (None, v)) };
    let decks = record.rounds.iter().map(|r| r.deck.clone()).collect();
    // `RuminoMatch::new`: hand 1's dealer, then each deck and reshuffle as the replay reaches it.
    let seeded = proof.map(|proof| {
        let mut check = SeedCheck::new(proof.seed());
        check.dealer(players, first.dealer);
        check
    });
    let source = Source::Scripted { decks, reshuffles: VecDeque::new(), fault: None, seeded };
    let at_first = At { round: Some(first.number), entry: None };
    let mut game = RuminoMatch::start(players, options, first.dealer, source)
        .map_err(|e| RecordError::rule(at_first.clone(), e.to_string()))?;
    // Every count is written, 0 included, so that summaries list each feature.
    let mut tally: Tally = TALLY_KEYS.iter().map(|&key| (key, 0)).collect();
    for (i, round) in record.rounds.iter().enumerate() {
        let at = |entry: Option<usize>| At { round: Some(round.number), entry };
        if round.number as usize != i + 1 {
            return Err(RecordError::rule(at(None), "record: rounds are numbered 1, 2, … in order"));
        }
        if game.hand_logs.len() <= i {
            return Err(RecordError::rule(at(None), "rumino §8, §9: the match is over; no hand follows"));
        }
        check_fault(&game, at(None))?;
        let hand = &game.hand_logs[i];
        if round.dealer != hand.dealer {
            return Err(RecordError::rule(
                at(None),
                format!("rumino §5 step 1: the dealer is {}, not {}", hand.dealer, round.dealer),
            ));
        }
        if round.seats != hand.seats {
            return Err(RecordError::rule(
                at(None),
                format!("rumino §9: the seats dealt in are {:?}, not {:?}", seats(&hand.seats), seats(&round.seats)),
            ));
        }
        if let Source::Scripted { reshuffles, .. } = &mut game.source {
            *reshuffles = round
                .log
                .iter()
                .filter_map(|e| match e {
                    LogEntry::Reshuffle { stock } => Some(stock.clone()),
                    _ => None,
                })
                .collect();
        }
        replay_log(&mut game, i, round, &mut tally, each)?;
        let last = i + 1 == record.rounds.len();
        check_result(&mut game, i, round, last && record.result.ended_by == MatchEnd::Abandoned)?;
        count_result(&mut tally, round);
    }
    finish(record, &mut game)?;
    if let Source::Scripted { seeded: Some(check), .. } = &game.source {
        check.result()?;
    }
    let result = game.result().expect("the replayed match is over");
    *tally.entry("hands").or_default() += record.rounds.len() as u64;
    let end = match result.ended_by {
        MatchEnd::LastPlayer => "ends_last_player",
        MatchEnd::AllEliminated => "ends_all_eliminated",
        MatchEnd::Rumino => "ends_rumino",
        MatchEnd::ThreeGins => "ends_three_gins",
        _ => "ends_abandoned",
    };
    *tally.entry(end).or_default() += 1;
    Ok((Some(game), Verified { game: GameKind::Rumino, rounds: record.rounds.len(), result, tally }))
}

fn seats(list: &[Seat]) -> Vec<u8> {
    list.iter().map(|s| s.0).collect()
}

/// A record whose only round was left out (abandoned before hand 1 ended): nothing happened.
fn verify_empty(record: &RummyRecord, players: usize) -> Result<Verified, RecordError> {
    let result = &record.result;
    let all: Vec<Seat> = Seat::all(players).collect();
    let nothing = result.ended_by == MatchEnd::Abandoned
        && result.totals.iter().all(|&t| t == 0)
        && result.rebuy_counts.as_ref().is_some_and(|c| c.len() == players && c.iter().all(|&n| n == 0))
        && (result.winners.is_empty() || result.winners == all);
    if !nothing {
        return Err(RecordError::rule(
            At::default(),
            "rumino §9: a match without a finished hand is abandoned, with every total 0",
        ));
    }
    let result = MatchResult {
        ended_by: MatchEnd::Abandoned,
        totals: vec![0; players],
        places: vec![1; players],
        winners: result.winners.clone(),
    };
    let mut tally: Tally = TALLY_KEYS.iter().map(|&key| (key, 0)).collect();
    tally.insert("ends_abandoned", 1);
    Ok(Verified { game: GameKind::Rumino, rounds: 0, result, tally })
}

/// A deck or reshuffle the record gave wrong, found while replaying up to `at`.
fn check_fault(game: &RuminoMatch, at: At) -> Result<(), RecordError> {
    let Source::Scripted { fault, .. } = &game.source else { return Ok(()) };
    let rule = match fault {
        None | Some(ScriptFault::MissingDeck) => return Ok(()),
        Some(ScriptFault::BadDeck) => "rumino §1: a deck holds the 108 cards: every natural twice and 4 jokers",
        Some(ScriptFault::MissingReshuffle) => {
            "rumino §6: the stock is empty at the start of this turn; a reshuffle comes first"
        }
        Some(ScriptFault::BadReshuffle) => "rumino §6: a reshuffle is the discard pile without its top card",
    };
    Err(RecordError::rule(at, rule))
}

/// The player's action an entry stands for; anything else is refused where an action is due.
fn action_of(entry: &LogEntry, at: &At) -> Result<(Seat, RuminoAction), RecordError> {
    let refuse = |rule: String| Err(RecordError::rule(at.clone(), rule));
    match entry {
        LogEntry::Draw { seat, .. } => Ok((*seat, RuminoAction::Draw)),
        LogEntry::Take { seat, cards } if cards.len() == 1 => Ok((*seat, RuminoAction::Take)),
        LogEntry::Take { .. } => refuse("rumino §6 c: a take is the top card alone".into()),
        LogEntry::Knock { seat } => Ok((*seat, RuminoAction::Knock)),
        LogEntry::Discard { seat, card, gin } => Ok((*seat, RuminoAction::Discard { card: *card, gin: *gin })),
        LogEntry::Rumino { seat, .. } => refuse(format!("rumino §8: {seat} holds no rumino found at this moment")),
        LogEntry::Reshuffle { .. } => {
            refuse("rumino §6: a reshuffle comes only at the start of a turn with an empty stock".into())
        }
        other => refuse(format!("rumino §6: `{}` is not a Rumino entry", other.kind())),
    }
}

/// Walks hand `i`'s log: each entry the engine writes itself must be written where it writes it, and each
/// action is applied and must move the cards the record says.
fn replay_log(
    game: &mut RuminoMatch,
    i: usize,
    round: &RoundRecord,
    tally: &mut Tally,
    each: Observer<'_>,
) -> Result<(), RecordError> {
    let at = |entry: usize| At { round: Some(round.number), entry: Some(entry) };
    let mut k = 0;
    loop {
        while k < game.hand_logs[i].log.len() {
            let produced = log_entry(&game.hand_logs[i].log[k]);
            let Some(written) = round.log.get(k) else {
                if round.result.is_none() && !matches!(produced, LogEntry::Rumino { .. }) {
                    return Ok(()); // an unfinished last round stops before an obligation is met
                }
                return Err(RecordError::rule(
                    at(k),
                    format!("rumino §6, §8: the log lacks the `{}` the rules write here", produced.kind()),
                ));
            };
            same_entry(game, &produced, written, at(k))?;
            count(tally, written, k);
            k += 1;
        }
        let Some(written) = round.log.get(k) else { return Ok(()) };
        let (seat, action) = action_of(written, &at(k))?;
        if game.hand_logs.len() != i + 1 || game.hand_logs[i].result.is_some() {
            return Err(RecordError::rule(at(k), "rumino §7, §8: the hand is over; no entry follows its end"));
        }
        each(game, seat, &action, written);
        game.apply(seat, &action).map_err(|e| RecordError::rule(at(k), e.to_string()))?;
        // An unfinished last round may stop before the reshuffle its last entry calls for.
        if round.result.is_some() || k + 1 < round.log.len() {
            check_fault(game, at(k))?;
        }
    }
}

/// Whether the record wrote `written` where the engine wrote `produced`.
fn same_entry(game: &RuminoMatch, produced: &LogEntry, written: &LogEntry, at: At) -> Result<(), RecordError> {
    let refuse = |rule: String| Err(RecordError::rule(at.clone(), rule));
    match (produced, written) {
        (LogEntry::Rumino { seat, claim, .. }, LogEntry::Rumino { seat: s, cards, claim: c })
            if seat == s && claim == c =>
        {
            let hand = game.hand(*seat);
            let held = cards
                .iter()
                .all(|card| cards.iter().filter(|&x| x == card).count() <= hand.iter().filter(|&x| x == card).count());
            if !is_rumino(cards) || !held || claim.is_some_and(|claim| !cards.contains(&claim)) {
                return refuse(format!("rumino §3.4: the 7 cards written are not a rumino of {seat}'s cards"));
            }
            Ok(())
        }
        (LogEntry::Rumino { seat, .. }, _) => {
            refuse(format!("rumino §8: {seat}'s rumino is found here and must be written here"))
        }
        (LogEntry::Reshuffle { .. }, _) if produced != written => {
            refuse("rumino §6: the stock is empty at the start of this turn; a reshuffle comes first".into())
        }
        (LogEntry::Draw { card, .. }, LogEntry::Draw { card: c, .. }) if card != c => {
            refuse(format!("rumino §6 b: the stock's top card is {card}, not {c}"))
        }
        (LogEntry::Take { cards, .. }, LogEntry::Take { cards: c, .. }) if cards != c => {
            refuse(format!("rumino §6 c: the discard pile's top card is {}, not {}", show(cards), show(c)))
        }
        _ if produced == written => Ok(()),
        _ => refuse(format!("rumino §6: the replay writes `{}` here, not `{}`", produced.kind(), written.kind())),
    }
}

fn show(cards: &[Card]) -> String {
    cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
}

fn count(tally: &mut Tally, entry: &LogEntry, k: usize) {
    let key = match entry {
        LogEntry::Rumino { claim: Some(_), .. } => "ruminos_claimed",
        LogEntry::Rumino { .. } if k == 0 => "ruminos_dealt",
        LogEntry::Rumino { .. } => "ruminos_drawn",
        LogEntry::Reshuffle { .. } => "reshuffles",
        _ => return,
    };
    *tally.entry(key).or_default() += 1;
}

/// The simulate and verify summaries' counts of how hands ended: knocks (deadwood 1 to 7), gins (of
/// which `gin_knocks` by a knock at 0), eliminations and rebuys.
fn count_result(tally: &mut Tally, round: &RoundRecord) {
    let Some(RoundResult::Rumino(result)) = &round.result else { return };
    let mut add = |key: &'static str, n: usize| *tally.entry(key).or_default() += n as u64;
    match result.ended_by {
        RoundEnd::Knock => add("knocks", 1),
        RoundEnd::Gin => {
            add("gins", 1);
            add("gin_knocks", usize::from(matches!(round.log.last(), Some(LogEntry::Knock { .. }))));
        }
        _ => {}
    }
    add("eliminations", result.eliminated.len());
    add("rebuys", result.rebuys.len());
}

/// Compares hand `i`'s result with the replay's, after applying the rebuy choices the record wrote.
fn check_result(game: &mut RuminoMatch, i: usize, round: &RoundRecord, may_stop: bool) -> Result<(), RecordError> {
    let at = At { round: Some(round.number), entry: None };
    let refuse = |rule: &str| Err(RecordError::rule(at.clone(), rule.to_owned()));
    let Some(written) = &round.result else {
        if game.hand_logs[i].result.is_some() {
            return refuse("record: a round whose log reaches the end of the hand has its full result");
        }
        return if may_stop {
            Ok(())
        } else {
            refuse("record: only the last round of an abandoned match may stop before its end")
        };
    };
    if game.hand_logs[i].result.is_none() {
        return refuse("rumino §6: the log stops before the hand ends, yet a result is written");
    }
    let RoundResult::Rumino(written) = written else { return refuse("record: a Rumino round result has `by`") };
    // §9 step 4: each choice is the record's: a seat asked rebuys exactly when `rebuys` lists it.
    while let Phase::Rebuy { seat, .. } = game.phase {
        if game.hand_logs.len() != i + 1 {
            break;
        }
        let rebuy = written.rebuys.iter().any(|r| r.seat == seat);
        game.apply(seat, &RuminoAction::Rebuy { rebuy }).map_err(|e| RecordError::rule(at.clone(), e.to_string()))?;
    }
    check_fault(game, at.clone())?;
    let replayed = round_result(game.hand_logs[i].result.as_ref().expect("checked above"));
    if &replayed != written {
        return Err(RecordError::rule(
            at,
            format!(
                "rumino §7, §9: the replay gives the result {}",
                serde_json::to_string(&replayed).unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// The end of the match: as the rules end it, or abandoned where the record stops.
fn finish(record: &RummyRecord, game: &mut RuminoMatch) -> Result<(), RecordError> {
    let refuse = |rule: String| Err(RecordError::rule(At::default(), rule));
    let written = &record.result;
    let rounds = record.rounds.len();
    // A deal after the last round is the unfinished round a record may leave out.
    let left_out = game.hand_logs.len() == rounds + 1;
    if written.ended_by == MatchEnd::Abandoned {
        if game.is_over() {
            return refuse("rumino §8, §9: the rules ended this match; it was not abandoned".into());
        }
        game.abandon();
    } else if !game.is_over() || left_out {
        return refuse("rumino §9: the match is not over after the last round".into());
    }
    let outcome = game.outcome.clone().expect("over");
    let winners_match =
        written.winners == outcome.winners || (written.ended_by == MatchEnd::Abandoned && written.winners.is_empty());
    if written.ended_by != outcome.ended_by || written.totals != game.totals || !winners_match {
        return refuse(format!(
            "rumino §9: the replay ends by {:?} with totals {:?} and winners {:?}",
            outcome.ended_by,
            game.totals,
            seats(&outcome.winners)
        ));
    }
    if written.rebuy_counts.as_deref() != Some(game.rebuy_counts.as_slice()) {
        return refuse(format!("rumino §9 step 4: the rebuy counts are {:?}", game.rebuy_counts));
    }
    Ok(())
}
