//! A round's log entries (`rummy-record-format.md`, "Log entries"), one type for the three games; each
//! game's replay refuses the entries it does not have.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::Card;
use crate::melds::{JokerFor, MeldId};
use crate::seat::Seat;

use super::results::no_null;

/// A meld or a lay-off as written: `{ "id": n, "cards": [...], "joker": "..." }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeldEntry {
    /// The new meld's id, or the meld laid off on.
    pub id: MeldId,
    /// The cards from the hand, in any order.
    pub cards: Vec<Card>,
    /// What a joker among `cards` stands for (Rami); left out without a joker (never `null`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    pub joker: Option<JokerFor>,
}

/// One entry of a round's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEntry {
    /// `{ "seat": s, "draw": "4c" }`: the top card of the stock.
    Draw {
        /// Who drew.
        seat: Seat,
        /// The card drawn.
        card: Card,
    },
    /// `{ "seat": s, "take": [...] }`: the top cards of the discard pile, deepest first.
    Take {
        /// Who took.
        seat: Seat,
        /// The cards, deepest first (the first is a deep take's target).
        cards: Vec<Card>,
    },
    /// `{ "seat": s, "end_round": true }` (rommi §6.1 d).
    EndRound {
        /// Who ended it.
        seat: Seat,
    },
    /// `{ "seat": s, "knock": true }` (rumino §6 a).
    Knock {
        /// Who knocked.
        seat: Seat,
    },
    /// `{ "seat": s, "open": [M, ...] }` (rami §6).
    Open {
        /// Who opened.
        seat: Seat,
        /// The melds, numbered in this order.
        melds: Vec<MeldEntry>,
    },
    /// `{ "seat": s, "meld": M }`.
    Meld {
        /// Who melded.
        seat: Seat,
        /// The new meld.
        meld: MeldEntry,
    },
    /// `{ "seat": s, "lay_off": { "id": n, "cards": [...] } }`.
    LayOff {
        /// Who laid off.
        seat: Seat,
        /// The meld and the cards.
        lay_off: MeldEntry,
    },
    /// `{ "seat": s, "exchange": { "id": n, "card": "7h" } }` (rami §7.3).
    Exchange {
        /// Who exchanged.
        seat: Seat,
        /// The meld whose joker is taken.
        id: MeldId,
        /// The card put in its place.
        card: Card,
    },
    /// `{ "seat": s, "discard": "Qs" }`, with `"gin": true` on a Rumino gin.
    Discard {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Card,
        /// Whether gin is declared with it (rumino §6).
        gin: bool,
    },
    /// `{ "seat": s, "out": true }`: the hand is empty, the round ends.
    Out {
        /// Who went out.
        seat: Seat,
    },
    /// `{ "seat": s, "rumino": [7 codes] }`, with `"claim"` for a discard taken out of turn (rumino §8).
    Rumino {
        /// Whose rumino.
        seat: Seat,
        /// Its 7 cards.
        cards: Vec<Card>,
        /// The discard claimed, when it completes the rumino.
        claim: Option<Card>,
    },
    /// `{ "reshuffle": [...] }`: the new stock, top first (rami §8, rumino §6).
    Reshuffle {
        /// The new stock, top first.
        stock: Vec<Card>,
    },
}

impl LogEntry {
    /// The seat the entry belongs to; `None` for a reshuffle.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            LogEntry::Draw { seat, .. }
            | LogEntry::Take { seat, .. }
            | LogEntry::EndRound { seat }
            | LogEntry::Knock { seat }
            | LogEntry::Open { seat, .. }
            | LogEntry::Meld { seat, .. }
            | LogEntry::LayOff { seat, .. }
            | LogEntry::Exchange { seat, .. }
            | LogEntry::Discard { seat, .. }
            | LogEntry::Out { seat }
            | LogEntry::Rumino { seat, .. } => Some(*seat),
            LogEntry::Reshuffle { .. } => None,
        }
    }

    /// The entry's key, as written: `draw`, `take`, `lay_off`, …
    pub fn kind(&self) -> &'static str {
        match self {
            LogEntry::Draw { .. } => "draw",
            LogEntry::Take { .. } => "take",
            LogEntry::EndRound { .. } => "end_round",
            LogEntry::Knock { .. } => "knock",
            LogEntry::Open { .. } => "open",
            LogEntry::Meld { .. } => "meld",
            LogEntry::LayOff { .. } => "lay_off",
            LogEntry::Exchange { .. } => "exchange",
            LogEntry::Discard { .. } => "discard",
            LogEntry::Out { .. } => "out",
            LogEntry::Rumino { .. } => "rumino",
            LogEntry::Reshuffle { .. } => "reshuffle",
        }
    }
}

/// The exchange object: `{ "id": n, "card": "7h" }`.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExchange {
    id: MeldId,
    card: Card,
}

/// A log entry as written: an object with a `seat` (except a reshuffle) and exactly one entry key.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    seat: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    draw: Option<Card>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    take: Option<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    end_round: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    knock: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    open: Option<Vec<MeldEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    meld: Option<MeldEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    lay_off: Option<MeldEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    exchange: Option<RawExchange>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    discard: Option<Card>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    gin: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    out: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    rumino: Option<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    claim: Option<Card>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "no_null")]
    reshuffle: Option<Vec<Card>>,
}

impl TryFrom<RawEntry> for LogEntry {
    type Error = &'static str;

    fn try_from(raw: RawEntry) -> Result<LogEntry, &'static str> {
        let RawEntry {
            seat,
            draw,
            take,
            end_round,
            knock,
            open,
            meld,
            lay_off,
            exchange,
            discard,
            gin,
            out,
            rumino,
            claim,
            reshuffle,
        } = raw;
        let keys = [
            draw.is_some(),
            take.is_some(),
            end_round.is_some(),
            knock.is_some(),
            open.is_some(),
            meld.is_some(),
            lay_off.is_some(),
            exchange.is_some(),
            discard.is_some(),
            out.is_some(),
            rumino.is_some(),
            reshuffle.is_some(),
        ];
        if keys.iter().filter(|&&k| k).count() != 1 {
            return Err("a log entry holds exactly one entry key (draw, take, discard, …)");
        }
        if gin.is_some() && discard.is_none() {
            return Err("only a discard has `gin`");
        }
        if claim.is_some() && rumino.is_none() {
            return Err("only a rumino entry has `claim`");
        }
        if [end_round, knock, out, gin].contains(&Some(false)) {
            return Err("a flag is written only when true (`\"out\": true`), never false");
        }
        if let Some(stock) = reshuffle {
            return match seat {
                Some(_) => Err("a reshuffle entry has no seat"),
                None => Ok(LogEntry::Reshuffle { stock }),
            };
        }
        let seat = seat.ok_or("an entry other than a reshuffle names its seat")?;
        Ok(if let Some(card) = draw {
            LogEntry::Draw { seat, card }
        } else if let Some(cards) = take {
            LogEntry::Take { seat, cards }
        } else if end_round.is_some() {
            LogEntry::EndRound { seat }
        } else if knock.is_some() {
            LogEntry::Knock { seat }
        } else if let Some(melds) = open {
            LogEntry::Open { seat, melds }
        } else if let Some(meld) = meld {
            LogEntry::Meld { seat, meld }
        } else if let Some(lay_off) = lay_off {
            LogEntry::LayOff { seat, lay_off }
        } else if let Some(RawExchange { id, card }) = exchange {
            LogEntry::Exchange { seat, id, card }
        } else if let Some(card) = discard {
            LogEntry::Discard { seat, card, gin: gin.is_some() }
        } else if out.is_some() {
            LogEntry::Out { seat }
        } else if let Some(cards) = rumino {
            LogEntry::Rumino { seat, cards, claim }
        } else {
            return Err("a log entry holds exactly one entry key (draw, take, discard, …)");
        })
    }
}

impl Serialize for LogEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = RawEntry { seat: self.seat(), ..RawEntry::default() };
        let raw = match self.clone() {
            LogEntry::Draw { card, .. } => RawEntry { draw: Some(card), ..raw },
            LogEntry::Take { cards, .. } => RawEntry { take: Some(cards), ..raw },
            LogEntry::EndRound { .. } => RawEntry { end_round: Some(true), ..raw },
            LogEntry::Knock { .. } => RawEntry { knock: Some(true), ..raw },
            LogEntry::Open { melds, .. } => RawEntry { open: Some(melds), ..raw },
            LogEntry::Meld { meld, .. } => RawEntry { meld: Some(meld), ..raw },
            LogEntry::LayOff { lay_off, .. } => RawEntry { lay_off: Some(lay_off), ..raw },
            LogEntry::Exchange { id, card, .. } => RawEntry { exchange: Some(RawExchange { id, card }), ..raw },
            LogEntry::Discard { card, gin, .. } => RawEntry { discard: Some(card), gin: gin.then_some(true), ..raw },
            LogEntry::Out { .. } => RawEntry { out: Some(true), ..raw },
            LogEntry::Rumino { cards, claim, .. } => RawEntry { rumino: Some(cards), claim, ..raw },
            LogEntry::Reshuffle { stock } => RawEntry { reshuffle: Some(stock), ..raw },
        };
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LogEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LogEntry, D::Error> {
        LogEntry::try_from(RawEntry::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}
