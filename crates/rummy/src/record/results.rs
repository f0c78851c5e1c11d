//! Round results and the match result as a record writes them (`rummy-record-format.md`, "Round
//! results", "Match result").

use serde::{Deserialize, Deserializer, Serialize};

use crate::seat::{MatchEnd, Seat};

/// How a round ended (the round result's `ended_by`); each game allows its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundEnd {
    /// Rommi, Rami: a player went out.
    Out,
    /// Rommi: ended on an empty stock (rommi §8).
    Stock,
    /// Rami: blocked (rami §8).
    Blocked,
    /// Rumino: a knock with deadwood 1 to 7.
    Knock,
    /// Rumino: a gin.
    Gin,
    /// Rumino: a rumino.
    Rumino,
}

/// A Rommi seat's round score (rommi §9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RommiSeatScore {
    /// The seat.
    pub seat: Seat,
    /// Its hand value (rommi §4).
    pub hand: u32,
    /// The value of the cards it put on the table this round (rommi §9.2).
    pub melded: u32,
    /// Its round score.
    pub score: i64,
}

/// A Rommi round result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RommiRoundResult {
    /// `out` or `stock`.
    pub ended_by: RoundEnd,
    /// Who went out; `null` when the round ended on an empty stock.
    #[serde(deserialize_with = "required")]
    pub out: Option<Seat>,
    /// By seat.
    pub scores: Vec<RommiSeatScore>,
    /// Totals by seat after the round.
    pub totals: Vec<i64>,
}

/// A Rami seat's penalty (rami §9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RamiSeatScore {
    /// The seat.
    pub seat: Seat,
    /// Whether it opened this round.
    pub opened: bool,
    /// The value of its cards left in hand (rami §4).
    pub hand: u32,
    /// Its penalty.
    pub penalty: u32,
}

/// A Rami round result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RamiRoundResult {
    /// `out` or `blocked`.
    pub ended_by: RoundEnd,
    /// Who went out; `null` when blocked.
    #[serde(deserialize_with = "required")]
    pub out: Option<Seat>,
    /// Whether it was a rami sec (rami §9).
    pub rami_sec: bool,
    /// 1, 2 or 4.
    pub multiplier: u8,
    /// By seat.
    pub scores: Vec<RamiSeatScore>,
    /// Totals by seat after the round.
    pub totals: Vec<i64>,
}

/// A Rumino seat's hand score (rumino §7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuminoSeatScore {
    /// The seat.
    pub seat: Seat,
    /// Its deadwood (rumino §4).
    pub deadwood: u32,
    /// Its score.
    pub score: i64,
}

/// A rebuy (rumino §9 step 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rebuy {
    /// Who rebought.
    pub seat: Seat,
    /// Their new total.
    pub total: i64,
}

/// A Rumino hand result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuminoRoundResult {
    /// `knock`, `gin` or `rumino`.
    pub ended_by: RoundEnd,
    /// The seat that ended the hand.
    pub by: Seat,
    /// One per seat of the hand's `seats`; empty after a rumino.
    pub scores: Vec<RuminoSeatScore>,
    /// Totals by seat, before rebuys.
    pub totals: Vec<i64>,
    /// The seats eliminated by this hand.
    pub eliminated: Vec<Seat>,
    /// The rebuys, in the order of rumino §9 step 4.
    pub rebuys: Vec<Rebuy>,
}

/// A round result, whichever game's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RoundResult {
    /// Rommi.
    Rommi(RommiRoundResult),
    /// Rami.
    Rami(RamiRoundResult),
    /// Rumino.
    Rumino(RuminoRoundResult),
}

impl<'de> Deserialize<'de> for RoundResult {
    /// Told apart by a key only one game writes (`rami_sec` for Rami, `by` for Rumino), so that a malformed
    /// result gets that game's own error message rather than "matches no variant".
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RoundResult, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(deserializer)?;
        let has = |key: &str| value.get(key).is_some();
        if has("rami_sec") {
            serde_json::from_value(value).map(RoundResult::Rami).map_err(D::Error::custom)
        } else if has("by") {
            serde_json::from_value(value).map(RoundResult::Rumino).map_err(D::Error::custom)
        } else {
            serde_json::from_value(value).map(RoundResult::Rommi).map_err(D::Error::custom)
        }
    }
}

/// The match result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecordResult {
    /// How the match ended.
    pub ended_by: MatchEnd,
    /// Final totals by seat.
    pub totals: Vec<i64>,
    /// The winners, ascending.
    pub winners: Vec<Seat>,
    /// Rumino only: rebuys by seat.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    pub rebuy_counts: Option<Vec<u32>>,
}

/// An `Option` whose key must be present, `null` for `None` (the record's "Shape": every key shown is
/// required). With `deserialize_with`, serde no longer treats a missing key as `None`.
pub(crate) fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(deserializer)
}

/// A key that is either absent or holds a value: the record's "Shape" leaves optional keys out, and
/// writes `null` only where this document shows it (never inside a log entry). Used with `default`, so
/// that an absent key is `None` and a `null` fails as the value's type does.
pub(crate) fn no_null<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}
