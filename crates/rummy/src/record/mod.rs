//! Match records in the `rummy-record/1` format (`docs/rules/rummy-record-format.md`): the document's
//! types, the checks of its shape, and [`verify`], which replays a record through its game's rules.
//!
//! A record writes down every deck order and every reshuffle, so a replay needs no generator. A record
//! may also carry the match's seed, with the salt and the commitment sent when it started (`seed`, `salt`,
//! `commitment`): then [`verify`] also checks that the commitment is the seed's and that the first
//! dealer, every deck and every reshuffle are what the seed gives ([`RecordError::Shuffle`]). Reading a
//! record has two kinds of failure ([`RecordError`]): a **malformed** document (not JSON, an unknown or
//! missing key, a bad code, a bad id or time) and a record that **breaks a rule** of its game (with the
//! round, the entry and the rule-book section).
//!
//! A game plugs in with a `verify_record(&RummyRecord) -> Result<Verified, RecordError>` of its own and one
//! arm in [`verify`].

mod log;
mod results;
mod seed;

use std::collections::BTreeMap;
use std::fmt;

use romirami_game::commitment::ProofFields;
use romirami_game::{ShuffleError, ShuffleProof};
use serde::{Deserialize, Serialize};

pub use log::{LogEntry, MeldEntry};
pub use results::{
    MatchRecordResult, RamiRoundResult, RamiSeatScore, Rebuy, RommiRoundResult, RommiSeatScore, RoundEnd, RoundResult,
    RuminoRoundResult, RuminoSeatScore,
};
pub(crate) use seed::SeedCheck;

use crate::cards::Card;
use crate::seat::{MatchResult, Seat};

/// The value of a record's `format` field.
pub const RECORD_FORMAT: &str = "rummy-record/1";

/// Which game a record is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// `rommi.md`.
    Rommi,
    /// `rami.md`.
    Rami,
    /// `rumino.md`.
    Rumino,
}

impl GameKind {
    /// The three games.
    pub const ALL: [GameKind; 3] = [GameKind::Rommi, GameKind::Rami, GameKind::Rumino];

    /// The game's name as the record writes it.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Rommi => "rommi",
            GameKind::Rami => "rami",
            GameKind::Rumino => "rumino",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = String;

    fn from_str(s: &str) -> Result<GameKind, String> {
        GameKind::ALL.into_iter().find(|g| g.name() == s).ok_or_else(|| format!("no game `{s}`: rommi, rami or rumino"))
    }
}

/// `players[i]`: `{ "seat": i, "name": "..." }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordPlayer {
    /// The seat.
    pub seat: Seat,
    /// The name shown; `""` for none.
    pub name: String,
}

/// One round (a Rumino hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    /// 1, 2, … in order.
    pub number: u32,
    /// The dealer's seat.
    pub dealer: Seat,
    /// The seats dealt in, ascending.
    pub seats: Vec<Seat>,
    /// The whole deck in shuffled order, top first.
    pub deck: Vec<Card>,
    /// The actions that stand, and the engine's entries, in order.
    pub log: Vec<LogEntry>,
    /// The round's result; `null` only for an unfinished last round.
    #[serde(deserialize_with = "results::required")]
    pub result: Option<RoundResult>,
}

/// A `rummy-record/1` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RummyRecord {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The match's id, a UUID.
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// Every option of the game, defaults included; each game reads them with its own options type.
    pub options: serde_json::Value,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// RFC 3339 UTC, not before `started_at`.
    pub finished_at: String,
    /// In seat order.
    pub players: Vec<RecordPlayer>,
    /// The seed the match was created from, as a decimal string; with `salt` and `commitment`, or none of
    /// the three (older records, and matches without a shuffle proof).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// The commitment's salt, 64 lower-case hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The commitment sent to every member when the match started, 64 lower-case hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    /// The seed the server committed to (`commitment`), as a decimal string, when the seats contributed
    /// to the deal: `seed` is then derived from it, the salt and `contributions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
    /// Each seat's contribution to the deal, in seat order, 64 lower-case hex digits each; with
    /// `server_seed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contributions: Option<Vec<String>>,
    /// Every round played, in order.
    pub rounds: Vec<RoundRecord>,
    /// The match result.
    pub result: MatchRecordResult,
}

/// What the caller knows of a match that the rules do not: its id, when, and who played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMeta {
    /// A UUID.
    pub id: String,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// RFC 3339 UTC.
    pub finished_at: String,
    /// The players' names in seat order.
    pub names: Vec<String>,
    /// The seed the match was created from and the salt of the commitment sent when it started, written
    /// into the record as `seed`, `salt` and `commitment`; `None` writes none of them.
    pub shuffle: Option<ShuffleProof>,
}

/// Why a match cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// A match still in play has no result; abandon it first.
    #[error("the match is not over; abandon it first to export it as abandoned")]
    NotOver,
    /// The meta data would make a malformed record.
    #[error("{0}")]
    Meta(String),
}

/// Where a record breaks a rule: a round (1-based, as `number`) and an entry of its log (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct At {
    /// The round's `number`, when the fault is inside a round.
    pub round: Option<u32>,
    /// The entry's index in the round's log, when the fault is an entry.
    pub entry: Option<usize>,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.round, self.entry) {
            (Some(round), Some(entry)) => write!(f, "round {round}, entry {entry}: "),
            (Some(round), None) => write!(f, "round {round}: "),
            (None, _) => f.write_str("match: "),
        }
    }
}

/// Why a record is not a valid record of its game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not a well-formed `rummy-record/1` document.
    #[error("malformed record: {0}")]
    Malformed(String),
    /// Well formed, but the first thing that breaks a rule of the game; `rule` names it
    /// (`rommi §6.1: ...`).
    #[error("{at}{rule}")]
    Rule {
        /// Where.
        at: At,
        /// The rule and what breaks it.
        rule: String,
    },
    /// A game this build cannot replay yet.
    #[error("{0} records cannot be replayed by this build")]
    Unsupported(GameKind),
    /// The shuffle proof (`seed`, `salt`, `commitment`) is incomplete or malformed, the commitment is not
    /// the seed's, or the seed does not give the record's first dealer, a deck or a reshuffle, found at
    /// `at`; [`ShuffleError::code`] tells which.
    #[error("{at}{error}")]
    Shuffle {
        /// Where: the match for the fields, the commitment and the first dealer; a round for its deck;
        /// a round and an entry for a reshuffle.
        at: At,
        /// What does not hold.
        error: ShuffleError,
    },
}

impl RecordError {
    /// A stable code: `malformed`, `rule`, `unsupported`, or for the shuffle proof that of its
    /// [`ShuffleError`] (`shuffle_fields`, `shuffle_commitment`, `shuffle_not_from_seed`).
    pub const fn code(&self) -> &'static str {
        match self {
            RecordError::Malformed(_) => "malformed",
            RecordError::Rule { .. } => "rule",
            RecordError::Unsupported(_) => "unsupported",
            RecordError::Shuffle { error, .. } => error.code(),
        }
    }

    /// A rule break at `at`.
    pub fn rule(at: At, rule: impl Into<String>) -> RecordError {
        RecordError::Rule { at, rule: rule.into() }
    }
}

/// Counts of what happened in a match, by feature name (`deep_takes`, `empty_stock_ends`, …): what the
/// simulate and verify tools sum up.
pub type Tally = BTreeMap<&'static str, u64>;

/// What a verified record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The game.
    pub game: GameKind,
    /// How many rounds it has.
    pub rounds: usize,
    /// The match result, as replayed.
    pub result: MatchResult,
    /// What happened in it.
    pub tally: Tally,
}

/// Reads a record from JSON and checks its shape (format, id, times, players), not its rules.
///
/// # Errors
/// [`RecordError::Malformed`].
pub fn parse(json: &str) -> Result<RummyRecord, RecordError> {
    let record: RummyRecord = serde_json::from_str(json).map_err(|e| RecordError::Malformed(e.to_string()))?;
    record.check_shape()?;
    Ok(record)
}

/// Replays a parsed record through its game's rules and checks every result in it.
///
/// # Errors
/// The first thing that breaks a rule, or [`RecordError::Malformed`] for what parsing alone cannot see.
pub fn verify(record: &RummyRecord) -> Result<Verified, RecordError> {
    record.check_shape()?;
    match record.game {
        GameKind::Rommi => crate::rommi::verify_record(record),
        GameKind::Rami => crate::rami::verify_record(record),
        GameKind::Rumino => crate::rumino::verify_record(record),
    }
}

impl RummyRecord {
    /// A record of `game` with the shared top level filled from `meta`.
    ///
    /// # Errors
    /// [`ExportError::Meta`] when `meta` would make a malformed record (a bad id or time, or names that do
    /// not match `players`).
    pub fn new(
        game: GameKind,
        options: serde_json::Value,
        meta: RecordMeta,
        rounds: Vec<RoundRecord>,
        result: MatchRecordResult,
    ) -> Result<RummyRecord, ExportError> {
        let proof = meta.shuffle.map(|proof| proof.fields()).unwrap_or_default();
        let record = RummyRecord {
            format: RECORD_FORMAT.to_owned(),
            id: meta.id,
            game,
            options,
            started_at: meta.started_at,
            finished_at: meta.finished_at,
            players: meta
                .names
                .into_iter()
                .zip(0u8..)
                .map(|(name, seat)| RecordPlayer { seat: Seat(seat), name })
                .collect(),
            seed: proof.seed,
            salt: proof.salt,
            commitment: proof.commitment,
            server_seed: proof.server_seed,
            contributions: proof.contributions,
            rounds,
            result,
        };
        if record.players.len() != record.result.totals.len() {
            return Err(ExportError::Meta(format!(
                "{} names were given for {} seats",
                record.players.len(),
                record.result.totals.len()
            )));
        }
        record.check_shape().map_err(|e| ExportError::Meta(e.to_string()))?;
        Ok(record)
    }

    /// The record's shuffle proof, its commitment checked: `None` when it has none. What the seed gives is
    /// checked by the replay ([`verify`]).
    ///
    /// # Errors
    /// [`RecordError::Shuffle`] with [`ShuffleError::Fields`] or [`ShuffleError::Commitment`].
    pub fn shuffle_proof(&self) -> Result<Option<ShuffleProof>, RecordError> {
        ShuffleProof::from_fields(&ProofFields {
            seed: self.seed.clone(),
            salt: self.salt.clone(),
            commitment: self.commitment.clone(),
            server_seed: self.server_seed.clone(),
            contributions: self.contributions.clone(),
        })
        .map_err(|error| RecordError::Shuffle { at: At::default(), error })
    }

    /// The checks of the record's "Shape" that serde does not make: format, id, times, player seats.
    ///
    /// # Errors
    /// [`RecordError::Malformed`].
    pub fn check_shape(&self) -> Result<(), RecordError> {
        let malformed = |what: String| Err(RecordError::Malformed(what));
        if self.format != RECORD_FORMAT {
            return malformed(format!(
                "format is `{}`, not `{RECORD_FORMAT}`",
                self.format.chars().take(40).collect::<String>()
            ));
        }
        if !is_uuid(&self.id) {
            return malformed("id is not a UUID".into());
        }
        let (Some(start), Some(finish)) = (utc_time(&self.started_at), utc_time(&self.finished_at)) else {
            return malformed(
                "started_at and finished_at are RFC 3339 UTC times, YYYY-MM-DDTHH:MM:SS[.fraction]Z".into(),
            );
        };
        if start > finish {
            return malformed("started_at is after finished_at".into());
        }
        if self.players.iter().zip(0u8..).any(|(p, seat)| p.seat != Seat(seat)) {
            return malformed("players[i] must have seat i".into());
        }
        Ok(())
    }
}

/// Whether `s` is a UUID in its hyphenated text form (8-4-4-4-12 hex digits).
pub fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A comparable form of an RFC 3339 UTC time `YYYY-MM-DDTHH:MM:SS[.fraction]Z`: its digits up to the
/// seconds, and the fraction padded, so that a later time compares greater; `None` when malformed.
fn utc_time(s: &str) -> Option<(String, String)> {
    let (main, fraction) = match s.strip_suffix('Z')?.split_once('.') {
        Some((main, fraction)) if !fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit()) => {
            (main, fraction.trim_end_matches('0'))
        }
        Some(_) => return None,
        None => (s.strip_suffix('Z')?, ""),
    };
    let b = main.as_bytes();
    let shape = b.len() == 19
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            _ => c.is_ascii_digit(),
        });
    let field = |r: std::ops::Range<usize>| main[r].parse::<u32>().ok();
    let valid = shape
        && matches!(field(5..7), Some(1..=12))
        && matches!(field(8..10), Some(1..=31))
        && matches!(field(11..13), Some(0..=23))
        && matches!(field(14..16), Some(0..=59))
        && matches!(field(17..19), Some(0..=60));
    valid.then(|| (main.to_owned(), fraction.to_owned()))
}

/// Writes a golden record (under `UPDATE_GOLDEN=1`) so that a test reading it beside the writer never
/// sees it empty or half written: nothing when it is unchanged, else a whole new file put in its place.
#[cfg(test)]
pub(crate) fn write_golden(path: &std::path::Path, json: &str) {
    if std::fs::read_to_string(path).is_ok_and(|stored| stored == json) {
        return;
    }
    let folder = path.parent().expect("a folder");
    std::fs::create_dir_all(folder).expect("the golden folder is writable");
    let file_name = path.file_name().expect("a file name").to_string_lossy();
    let partial = folder.join(format!(".{file_name}.{}.partial", std::process::id()));
    std::fs::write(&partial, json).expect("the golden folder is writable");
    std::fs::rename(&partial, path).expect("the golden folder is writable");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_compare_and_bad_ones_are_refused() {
        let a = utc_time("2026-11-21T10:00:00Z").expect("test data");
        let b = utc_time("2026-11-21T10:00:00.5Z").expect("test data");
        let c = utc_time("2026-11-21T10:00:01Z").expect("test data");
        assert!(a < b && b < c);
        assert_eq!(utc_time("2026-11-21T10:00:00.500Z"), Some(b));
        for bad in [
            "2026-11-21T10:00:00",
            "2026-11-21 10:00:00Z",
            "2026-13-21T10:00:00Z",
            "2026-11-21T10:00:00.Z",
            "2026-11-21T10:00:00+01:00",
        ] {
            assert!(utc_time(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn uuids() {
        assert!(is_uuid("5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6"));
        assert!(!is_uuid("5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f"));
        assert!(!is_uuid("5f0c2a9e1b2c4d3e8f90a1b2c3d4e5f6"));
    }

    #[test]
    fn log_entries_read_and_write_as_the_format_shows() {
        let entries = [
            r#"{"seat":0,"draw":"4c"}"#,
            r#"{"seat":1,"take":["5h","9c","Qd"]}"#,
            r#"{"seat":1,"end_round":true}"#,
            r#"{"seat":1,"knock":true}"#,
            r#"{"seat":1,"open":[{"id":1,"cards":["Jd","Qd","Kd"]},{"id":2,"cards":["9s","9h","X"],"joker":"9"}]}"#,
            r#"{"seat":0,"meld":{"id":7,"cards":["Ks","Kh","X"],"joker":"K"}}"#,
            r#"{"seat":1,"lay_off":{"id":3,"cards":["X"],"joker":"9c"}}"#,
            r#"{"seat":0,"exchange":{"id":3,"card":"9c"}}"#,
            r#"{"seat":0,"discard":"4s"}"#,
            r#"{"seat":0,"discard":"4s","gin":true}"#,
            r#"{"seat":0,"out":true}"#,
            r#"{"seat":2,"rumino":["7h","7h","7s","7c","7d","7d","X"],"claim":"7h"}"#,
            r#"{"reshuffle":["4s","Jc"]}"#,
        ];
        for json in entries {
            let entry: LogEntry = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(serde_json::to_string(&entry).expect("test data"), json);
        }
        let malformed = [
            r#"{"seat":0}"#,
            r#"{"seat":0,"draw":"4c","discard":"5c"}"#,
            r#"{"seat":0,"discard":"4s","gin":false}"#,
            r#"{"seat":0,"out":false}"#,
            r#"{"seat":0,"draw":"4c","gin":true}"#,
            r#"{"seat":0,"reshuffle":["4s"]}"#,
            r#"{"draw":"4c"}"#,
            r#"{"seat":0,"draw":"4x"}"#,
            r#"{"seat":0,"draw":"4c","note":1}"#,
            r#"{"seat":0,"meld":{"id":7,"cards":["Ks"],"extra":1}}"#,
            r#"{"seat":0,"meld":{"id":7,"cards":["Ks","Kh","Kd"],"joker":null}}"#,
            r#"{"seat":0,"discard":"4s","gin":null}"#,
            r#"{"seat":null,"reshuffle":["4s"]}"#,
        ];
        for json in malformed {
            assert!(serde_json::from_str::<LogEntry>(json).is_err(), "{json}");
        }
    }

    #[test]
    fn a_round_result_must_write_out_even_when_null() {
        let with = r#"{"ended_by":"stock","out":null,"scores":[],"totals":[0,0]}"#;
        let without = r#"{"ended_by":"stock","scores":[],"totals":[0,0]}"#;
        assert!(matches!(serde_json::from_str::<RoundResult>(with), Ok(RoundResult::Rommi(_))));
        assert!(serde_json::from_str::<RoundResult>(without).is_err());
        let rami = r#"{"ended_by":"out","out":0,"rami_sec":false,"multiplier":1,"scores":[],"totals":[0]}"#;
        assert!(matches!(serde_json::from_str::<RoundResult>(rami), Ok(RoundResult::Rami(_))));
    }
}
