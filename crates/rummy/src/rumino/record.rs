//! Rumino's share of `rummy-record/1`: the match's result for the server and tools, and the export of a
//! finished match. The replay that checks a record is in `replay.rs`.

use crate::record::{
    ExportError, GameKind, LogEntry, MatchRecordResult, Rebuy, RecordMeta, RoundEnd, RoundRecord, RoundResult,
    RuminoRoundResult, RuminoSeatScore, RummyRecord,
};
use crate::rumino::actions::RuminoEntry;
use crate::rumino::game::{HandEnd, HandLog, HandResult, RuminoMatch};
use crate::seat::{MatchResult, Seat};

impl RuminoMatch {
    /// The result of a finished match: totals, places and winners by seat. Winners are placed first, then
    /// the players still in by lower total, then the players out by lower total; equal ones share a place.
    pub fn result(&self) -> Option<MatchResult> {
        let outcome = self.outcome.as_ref()?;
        let key = |i: usize| (!outcome.winners.contains(&Seat(i as u8)), !self.is_in[i], self.totals[i]);
        let places =
            (0..self.players).map(|i| (1 + (0..self.players).filter(|&j| key(j) < key(i)).count()) as u8).collect();
        Some(MatchResult {
            ended_by: outcome.ended_by,
            totals: self.totals.clone(),
            places,
            winners: outcome.winners.clone(),
        })
    }

    /// The match as a `rummy-record/1` document.
    ///
    /// # Errors
    /// [`ExportError::NotOver`] while the match is in play (abandon it first), [`ExportError::Meta`] when
    /// `meta` would make a malformed record.
    pub fn record(&self, meta: RecordMeta) -> Result<RummyRecord, ExportError> {
        let outcome = self.outcome.as_ref().ok_or(ExportError::NotOver)?;
        let options = serde_json::to_value(self.options).map_err(|e| ExportError::Meta(e.to_string()))?;
        let rounds = self.hand_logs.iter().map(round_record).collect();
        let result = MatchRecordResult {
            ended_by: outcome.ended_by,
            totals: self.totals.clone(),
            winners: outcome.winners.clone(),
            rebuy_counts: Some(self.rebuy_counts.clone()),
        };
        RummyRecord::new(GameKind::Rumino, options, meta, rounds, result)
    }
}

/// One hand as the record writes it.
pub(crate) fn round_record(hand: &HandLog) -> RoundRecord {
    RoundRecord {
        number: hand.number,
        dealer: hand.dealer,
        seats: hand.seats.clone(),
        deck: hand.deck.clone(),
        log: hand.log.iter().map(log_entry).collect(),
        result: hand.result.as_ref().map(|r| RoundResult::Rumino(round_result(r))),
    }
}

/// A hand's result as the record writes it.
pub(crate) fn round_result(result: &HandResult) -> RuminoRoundResult {
    RuminoRoundResult {
        ended_by: match result.ended_by {
            HandEnd::Knock => RoundEnd::Knock,
            HandEnd::Gin => RoundEnd::Gin,
            HandEnd::Rumino => RoundEnd::Rumino,
        },
        by: result.by,
        scores: result
            .scores
            .iter()
            .map(|s| RuminoSeatScore { seat: s.seat, deadwood: s.deadwood, score: s.score })
            .collect(),
        totals: result.totals.clone(),
        eliminated: result.eliminated.clone(),
        rebuys: result.rebuys.iter().map(|r| Rebuy { seat: r.seat, total: r.total }).collect(),
    }
}

/// An entry as the record writes it.
pub(crate) fn log_entry(entry: &RuminoEntry) -> LogEntry {
    match entry.clone() {
        RuminoEntry::Draw { seat, card } => LogEntry::Draw { seat, card },
        RuminoEntry::Take { seat, card } => LogEntry::Take { seat, cards: vec![card] },
        RuminoEntry::Knock { seat } => LogEntry::Knock { seat },
        RuminoEntry::Discard { seat, card, gin } => LogEntry::Discard { seat, card, gin },
        RuminoEntry::Rumino { seat, cards, claim } => LogEntry::Rumino { seat, cards, claim },
        RuminoEntry::Reshuffle { stock } => LogEntry::Reshuffle { stock },
    }
}
