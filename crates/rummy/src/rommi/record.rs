//! Rommi's `rummy-record/1` export, and the replay that checks a record entry by entry.

use crate::cards::{DeckSpec, RummyRng};
use crate::record::{
    At, ExportError, GameKind, LogEntry, MatchRecordResult, RecordError, RecordMeta, RoundResult, RummyRecord,
    SeedCheck, Verified,
};
use crate::seat::{MatchEnd, MatchResult, Seat, best_seats, places};

use super::actions::RommiAction;
use super::game::RommiMatch;
use super::options::RommiOptions;
use super::scoring::better;

impl RommiMatch {
    /// The result: how it ended, totals, places and winners; `None` while the match goes on.
    pub fn result(&self) -> Option<MatchResult> {
        let ended_by = self.ended?;
        let better = better(&self.options);
        Some(MatchResult {
            ended_by,
            totals: self.totals.clone(),
            places: places(&self.totals, better, |_| true),
            winners: best_seats(&self.totals, better, |_| true),
        })
    }

    /// The match as a `rummy-record/1` document.
    ///
    /// # Errors
    /// [`ExportError::NotOver`] while the match goes on ([`RommiMatch::abandon`] ends one), and
    /// [`ExportError::Meta`] for meta data that would make a malformed record.
    pub fn record(&self, meta: RecordMeta) -> Result<RummyRecord, ExportError> {
        let result = self.result().ok_or(ExportError::NotOver)?;
        let options = serde_json::to_value(self.options).map_err(|e| ExportError::Meta(e.to_string()))?;
        let result = MatchRecordResult {
            ended_by: result.ended_by,
            totals: result.totals,
            winners: result.winners,
            rebuy_counts: None,
        };
        RummyRecord::new(GameKind::Rommi, options, meta, self.rounds.clone(), result)
    }
}

/// Replays a Rommi record through the rules (rommi.md, and the record format's "Checking") and checks
/// every round result and the match result.
///
/// # Errors
/// The first thing that breaks a rule, with its round and entry.
pub fn verify_record(record: &RummyRecord) -> Result<Verified, RecordError> {
    replay_checked(record, &mut |_, _, _, _| {}).map(|(_, verified)| verified)
}

/// What a replay tells of each action before it is played: the match, the seat, the action and the log
/// entry that writes it.
pub(crate) type Observer<'a> = &'a mut dyn FnMut(&RommiMatch, Seat, &RommiAction, &LogEntry);

/// [`verify_record`], giving back the match as replayed too, and telling `each` of every action.
pub(crate) fn replay_checked(record: &RummyRecord, each: Observer<'_>) -> Result<(RommiMatch, Verified), RecordError> {
    let proof = record.shuffle_proof()?;
    let m = replay(record, each)?;
    let result = m.result().ok_or_else(|| RecordError::rule(At::default(), "the replay did not end the match"))?;
    let claimed = &record.result;
    let at = At::default();
    if claimed.rebuy_counts.is_some() {
        return Err(RecordError::rule(at, "rommi: the match result has no `rebuy_counts`"));
    }
    if claimed.totals != result.totals {
        return Err(RecordError::rule(
            at,
            format!("rommi §10: the totals are {:?}, the replay gives {:?}", claimed.totals, result.totals),
        ));
    }
    let winners_ok =
        claimed.winners == result.winners || (result.ended_by == MatchEnd::Abandoned && claimed.winners.is_empty());
    if !winners_ok {
        return Err(RecordError::rule(
            at,
            format!("rommi §10: the winners are {:?}, the replay gives {:?}", claimed.winners, result.winners),
        ));
    }
    if let Some(proof) = proof {
        // `RommiMatch::new`: round 1's dealer, then one deck per round; play draws nothing else.
        let mut check = SeedCheck::new(proof.seed());
        if let Some(first) = record.rounds.first() {
            check.dealer(record.players.len(), first.dealer);
        }
        for round in &record.rounds {
            check.deck(round.number, DeckSpec::ROMMI, &round.deck);
        }
        check.result()?;
    }
    let verified = Verified { game: GameKind::Rommi, rounds: record.rounds.len(), result, tally: m.tally.clone() };
    Ok((m, verified))
}

/// Replays the record's rounds; returns the match, over by the rules or abandoned as the record says.
pub(crate) fn replay(record: &RummyRecord, each: Observer<'_>) -> Result<RommiMatch, RecordError> {
    let match_at = At::default();
    let options: RommiOptions = serde_json::from_value(record.options.clone())
        .map_err(|e| RecordError::rule(match_at.clone(), format!("rommi §2: options: {e}")))?;
    let players = record.players.len();
    let mut m = RommiMatch::empty(players, options, RummyRng::from_seed(0))
        .map_err(|e| RecordError::rule(match_at.clone(), e.to_string()))?;
    for (k, round) in record.rounds.iter().enumerate() {
        let at = At { round: Some(round.number), entry: None };
        if m.is_over() {
            return Err(RecordError::rule(at, "rommi §10: the match is already over; no round follows"));
        }
        if round.number as usize != k + 1 {
            return Err(RecordError::rule(at, format!("rounds are numbered 1, 2, … in order; expected {}", k + 1)));
        }
        if k > 0 && !m.round.over {
            return Err(RecordError::rule(at, "only the last round may stop before its end"));
        }
        if !round.seats.iter().copied().eq(Seat::all(players)) {
            return Err(RecordError::rule(at, "rommi §5: every seat is dealt in; `seats` lists them all, ascending"));
        }
        if !DeckSpec::ROMMI.is_deck(&round.deck) {
            return Err(RecordError::rule(at, "rommi §1: the deck must hold the 52 cards once each"));
        }
        let dealer_ok =
            if k == 0 { round.dealer.index() < players } else { round.dealer == m.round.dealer.next(players) };
        if !dealer_ok {
            return Err(RecordError::rule(at, "rommi §5.1: each round's dealer is the next seat after the last one's"));
        }
        m.start_round(round.dealer, round.deck.clone());
        replay_log(&mut m, k, round.number, &round.log, each)?;
        let replayed = m.rounds[k].result.clone();
        match (&round.result, &replayed) {
            (Some(RoundResult::Rommi(claimed)), Some(RoundResult::Rommi(real))) if claimed != real => {
                let show = |r| serde_json::to_string(r).unwrap_or_default();
                return Err(RecordError::rule(
                    at,
                    format!("rommi §9: the round result is {}, the replay gives {}", show(claimed), show(real)),
                ));
            }
            (Some(RoundResult::Rommi(_)), Some(_)) | (None, None) => {}
            (Some(RoundResult::Rommi(_)), None) => {
                return Err(RecordError::rule(at, "the round's log stops before its end, so its result is null"));
            }
            (None, Some(_)) => return Err(RecordError::rule(at, "the round is over, so it has its full result")),
            (Some(_), _) => return Err(RecordError::rule(at, "a Rommi round result has `hand`, `melded` and `score`")),
        }
    }
    match (m.is_over(), record.result.ended_by) {
        (true, MatchEnd::Abandoned) => Err(RecordError::rule(
            match_at,
            "rommi §10: a total reached the target, so the match ended by `target`, not `abandoned`",
        )),
        (true, MatchEnd::Target) => Ok(m),
        (false, MatchEnd::Abandoned) => {
            m.abandon();
            Ok(m)
        }
        (false, MatchEnd::Target) => {
            Err(RecordError::rule(match_at, "rommi §10: no total reached the target; the match stops before its end"))
        }
        (_, other) => Err(RecordError::rule(
            match_at,
            format!("rommi §10: a match ends by `target` or `abandoned`, not {other:?}"),
        )),
    }
}

/// Replays one round's log, entry by entry; `out` entries must be there exactly when the rules call for them.
fn replay_log(
    m: &mut RommiMatch,
    k: usize,
    number: u32,
    log: &[LogEntry],
    each: Observer<'_>,
) -> Result<(), RecordError> {
    let mut i = 0;
    while i < log.len() {
        let at = At { round: Some(number), entry: Some(i) };
        let entry = &log[i];
        if m.round.over {
            return Err(RecordError::rule(at, "the round is already over; nothing follows its last entry"));
        }
        let seat = entry.seat().unwrap_or(Seat(0));
        let action = to_action(m, entry).map_err(|rule| RecordError::rule(at.clone(), rule))?;
        let before = m.rounds[k].log.len();
        each(m, seat, &action, entry);
        m.apply(seat, &action).map_err(|e| RecordError::rule(at.clone(), e.to_string()))?;
        // The engine writes the entry it applied, then its own entries (`out`); the record must hold them.
        let written = m.rounds[k].log[before..].to_vec();
        for (offset, expected) in written.iter().enumerate() {
            let at = At { round: Some(number), entry: Some(i + offset) };
            match log.get(i + offset) {
                Some(found) if found == expected => {}
                _ if offset == 0 => return Err(RecordError::rule(at, "the entry does not match the replay")),
                _ => return Err(RecordError::rule(at, "rommi §6.3: the hand is empty: an `out` entry must follow")),
            }
        }
        i += written.len();
    }
    Ok(())
}

/// The action a log entry stands for, after checking what the action alone cannot see: that a draw
/// names the stock's top card, that a take lists the pile's top cards, that a new meld has the next id.
fn to_action(m: &RommiMatch, entry: &LogEntry) -> Result<RommiAction, String> {
    let r = &m.round;
    Ok(match entry {
        LogEntry::Draw { card, .. } => {
            if r.stock.last().is_some_and(|top| top != card) {
                return Err(format!("rommi §6.1 a: {card} is not the stock's top card"));
            }
            RommiAction::Draw
        }
        LogEntry::Take { cards, .. } => {
            let k = cards.len();
            let listed = k >= 1 && k <= r.pile.len() && r.pile[r.pile.len() - k..] == cards[..];
            if !listed {
                return Err("rommi §6.1: a take lists the top cards of the discard pile, deepest first".into());
            }
            RommiAction::Take { card: cards[0] }
        }
        LogEntry::EndRound { .. } => RommiAction::EndRound,
        LogEntry::Meld { meld, .. } => {
            if meld.joker.is_some() {
                return Err("rommi §1: Rommi has no jokers; a meld has no `joker`".into());
            }
            let next = r.table.len() + 1;
            if meld.id.0 as usize != next {
                return Err(format!("rommi §3.4: the new meld's id is {next}, not {}", meld.id.0));
            }
            RommiAction::Meld { cards: meld.cards.clone() }
        }
        LogEntry::LayOff { lay_off, .. } => {
            if lay_off.joker.is_some() {
                return Err("rommi §1: Rommi has no jokers; a lay-off has no `joker`".into());
            }
            RommiAction::LayOff { id: lay_off.id, cards: lay_off.cards.clone() }
        }
        LogEntry::Discard { card, gin: false, .. } => RommiAction::Discard { card: *card },
        LogEntry::Out { .. } => return Err("rommi §6.3: `out` only right after the entry that empties the hand".into()),
        other => {
            return Err(format!(
                "`{}` is not an entry of Rommi",
                if other.kind() == "discard" { "gin" } else { other.kind() }
            ));
        }
    })
}
