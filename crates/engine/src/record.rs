//! Game records in the `romirami-record/1` format (`docs/rules/record-format.md`): export a game, and
//! replay a record through the rules, checking it entry by entry.
//!
//! A record writes down every random outcome (the initial deck orders, the trophy sides, the first
//! player and each reshuffle), so a replay needs no generator. A record may also carry the game's seed,
//! with the salt and the commitment sent when it started (`seed`, `salt`, `commitment`): then
//! [`Record::verify`] also checks that the commitment is the seed's and that every one of those random
//! outcomes is exactly what the seed gives ([`Record::check_shuffle`]).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize, Serializer};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::action::{Action, EndReason, Seat};
use crate::cards::{Card, Cards};
use crate::contracts::ContractId;
use crate::error::{IllegalAction, SetupError};
use crate::game::{Game, Setup, ShuffleFault, Shuffler};
use crate::scoring::GameResult;
use crate::trophies::Trophy;
use romirami_game::commitment::ProofFields;
use romirami_game::{ShuffleError, ShuffleProof};

/// The value of a record's `format` field.
pub const RECORD_FORMAT: &str = "romirami-record/1";

/// One entry of a record's log: a move that stands, or a reshuffle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEntry {
    /// §3 step 1.
    Take {
        /// Who took.
        seat: Seat,
        /// What they took.
        cards: Cards,
    },
    /// §3 step 2.
    Complete {
        /// Who completed it.
        seat: Seat,
        /// The contract completed, as its row in §1.2.
        contract: ContractId,
        /// The hand cards played.
        cards: Cards,
        /// Whether the Star was used.
        star: bool,
    },
    /// The end of a contract step, written on every turn.
    Pass {
        /// Who passed.
        seat: Seat,
    },
    /// §3 step 4, the hand limit.
    Discard {
        /// Who discarded.
        seat: Seat,
        /// What they discarded.
        cards: Cards,
    },
    /// The discard pile became the number deck in this order, top first.
    Shuffle {
        /// The new deck, top first.
        order: Vec<Card>,
    },
}

impl LogEntry {
    /// The seat and the action of a move entry; `None` for a shuffle.
    pub fn action(&self) -> Option<(Seat, Action)> {
        match *self {
            LogEntry::Take { seat, cards } => Some((seat, Action::Take { cards })),
            LogEntry::Complete { seat, contract, cards, star } => {
                Some((seat, Action::Complete { contract, cards, star }))
            }
            LogEntry::Pass { seat } => Some((seat, Action::Pass)),
            LogEntry::Discard { seat, cards } => Some((seat, Action::Discard { cards })),
            LogEntry::Shuffle { .. } => None,
        }
    }
}

/// A log entry as written: one object with a `seat` and one of the move keys, or a `shuffle`.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    take: Option<Cards>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<ContractId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cards: Option<Cards>,
    #[serde(skip_serializing_if = "Option::is_none")]
    star: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pass: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discard: Option<Cards>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shuffle: Option<Vec<Card>>,
}

impl TryFrom<RawEntry> for LogEntry {
    type Error = String;

    fn try_from(raw: RawEntry) -> Result<LogEntry, String> {
        let RawEntry { seat, take, complete, cards, star, pass, discard, shuffle } = raw;
        let kinds = [take.is_some(), complete.is_some(), pass.is_some(), discard.is_some(), shuffle.is_some()];
        if kinds.iter().filter(|&&k| k).count() != 1 {
            return Err("a log entry holds exactly one of take, complete, pass, discard or shuffle".into());
        }
        if (cards.is_some() || star.is_some()) && complete.is_none() {
            return Err("only a complete entry has cards and star".into());
        }
        if let Some(order) = shuffle {
            if seat.is_some() {
                return Err("a shuffle entry has no seat".into());
            }
            return Ok(LogEntry::Shuffle { order });
        }
        let seat = seat.ok_or("a move entry names its seat")?;
        Ok(if let Some(cards) = take {
            LogEntry::Take { seat, cards }
        } else if let Some(contract) = complete {
            let cards = cards.ok_or("a complete entry lists its cards")?;
            LogEntry::Complete { seat, contract, cards, star: star.unwrap_or(false) }
        } else if let Some(cards) = discard {
            LogEntry::Discard { seat, cards }
        } else if pass == Some(true) {
            LogEntry::Pass { seat }
        } else {
            return Err("a pass entry is written `\"pass\": true`".into());
        })
    }
}

impl Serialize for LogEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = match self {
            LogEntry::Take { seat, cards } => RawEntry { seat: Some(*seat), take: Some(*cards), ..RawEntry::default() },
            LogEntry::Complete { seat, contract, cards, star } => RawEntry {
                seat: Some(*seat),
                complete: Some(*contract),
                cards: Some(*cards),
                star: star.then_some(true),
                ..RawEntry::default()
            },
            LogEntry::Pass { seat } => RawEntry { seat: Some(*seat), pass: Some(true), ..RawEntry::default() },
            LogEntry::Discard { seat, cards } => {
                RawEntry { seat: Some(*seat), discard: Some(*cards), ..RawEntry::default() }
            }
            LogEntry::Shuffle { order } => RawEntry { shuffle: Some(order.clone()), ..RawEntry::default() },
        };
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LogEntry {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<LogEntry, D::Error> {
        LogEntry::try_from(RawEntry::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

/// A player of a record: the seat and the name shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordPlayer {
    /// The player's seat, in seat order.
    pub seat: Seat,
    /// The display name.
    pub name: String,
}

/// A `romirami-record/1` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The game's id.
    pub id: Uuid,
    /// When the game started.
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    /// When it finished (or was abandoned).
    #[serde(with = "time::serde::rfc3339")]
    pub finished_at: OffsetDateTime,
    /// The players in seat order.
    pub players: Vec<RecordPlayer>,
    /// The seed the game was dealt from, as a decimal string; with `salt` and `commitment`, or none of
    /// the three (older records, and games without a shuffle proof).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// The commitment's salt, 64 lower-case hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The commitment sent to every member when the game started, 64 lower-case hex digits.
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
    /// The seat with the first player token.
    pub first_player: Seat,
    /// The side each trophy tile shows, tile 1 to 4.
    pub trophies: [Trophy; 4],
    /// The initial number deck, top first.
    pub number_deck: Vec<Card>,
    /// The initial contract deck, top first.
    pub contract_deck: Vec<ContractId>,
    /// The moves that stand, and the reshuffles, in order.
    pub log: Vec<LogEntry>,
    /// How the game ended and its scores; a replay must reach exactly this.
    pub result: GameResult,
}

pub use romirami_game::RecordMeta;

/// Why a game cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// Only a finished or abandoned game has a result to write.
    #[error("the game is not over; abandon it first to export it as abandoned")]
    NotOver,
    /// The names do not match the seats.
    #[error("{names} names were given for {players} seats")]
    Names {
        /// How many names.
        names: usize,
        /// How many seats.
        players: usize,
    },
}

/// What is wrong with a log entry in a replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryFault {
    /// The move breaks a rule.
    #[error("{0}")]
    Illegal(IllegalAction),
    /// A shuffle entry where the discard pile did not become the deck.
    #[error("no reshuffle happens here (§3 step 3)")]
    UnexpectedShuffle,
    /// The move emptied the number deck and the record has no shuffle entry after it.
    #[error("the discard pile becomes the number deck here, but no shuffle entry follows (§3 step 3)")]
    MissingShuffle,
    /// The shuffle is not an order of the discard pile.
    #[error("the shuffle is not a permutation of the discard pile (§3 step 3)")]
    NotAPermutation,
    /// A move after the game ended.
    #[error("the game is already over (§4)")]
    AfterEnd,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// Not a `romirami-record/1` document.
    #[error("format is `{0}`, not `romirami-record/1`")]
    Format(String),
    /// The players are not seats 0 to n-1 in order.
    #[error("players must be listed as seats 0 to n-1 in order")]
    Players,
    /// The decks, trophies or first player break §1 or §2.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A log entry breaks a rule.
    #[error("log entry {index}: {fault}")]
    Entry {
        /// Its position in the log, from 0.
        index: usize,
        /// What is wrong.
        fault: EntryFault,
    },
    /// The log ends before the game does, and the result does not say it was abandoned.
    #[error("the log ends before the game is over, but the result says it ended by {0:?}")]
    Unfinished(EndReason),
    /// The game ended by the rules, but the result says it was abandoned.
    #[error("the game is over by the rules ({0:?}), but the result says it was abandoned")]
    NotAbandoned(EndReason),
    /// The written result is not the replayed one.
    #[error("the result does not match the replay: {0}")]
    ResultMismatch(String),
    /// The shuffle proof (`seed`, `salt`, `commitment`) is incomplete or malformed, the commitment is
    /// not the seed's, or the seed does not give the record's decks, trophies, first player or
    /// reshuffles; [`ShuffleError::code`] tells which.
    #[error("{0}")]
    Shuffle(#[from] ShuffleError),
}

impl Game {
    /// This game as a `romirami-record/1` document.
    ///
    /// # Errors
    /// [`ExportError::NotOver`] for a game still in play ([`Game::abandon`] ends one), and
    /// [`ExportError::Names`] when `meta` names a different number of players.
    pub fn record(&self, meta: RecordMeta) -> Result<Record, ExportError> {
        let result = self.result().ok_or(ExportError::NotOver)?;
        if meta.names.len() != self.players() {
            return Err(ExportError::Names { names: meta.names.len(), players: self.players() });
        }
        let proof = meta.shuffle.map(|proof| proof.fields()).unwrap_or_default();
        Ok(Record {
            format: RECORD_FORMAT.to_owned(),
            id: meta.id,
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
            first_player: self.setup.first_player,
            trophies: self.setup.trophies,
            number_deck: self.setup.number_deck.clone(),
            contract_deck: self.setup.contract_deck.clone(),
            log: self.log.clone(),
            result,
        })
    }
}

impl Record {
    /// The starting position the record describes.
    pub fn setup(&self) -> Setup {
        Setup {
            players: self.players.len(),
            first_player: self.first_player,
            trophies: self.trophies,
            number_deck: self.number_deck.clone(),
            contract_deck: self.contract_deck.clone(),
        }
    }

    /// Replays the log through the rules from the record's deal, entry by entry, and returns the game
    /// as it stands after the last entry. It does not look at `result` (see [`Record::verify`]).
    ///
    /// # Errors
    /// The first thing that breaks a rule: the setup, or the first faulty log entry.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_with(&mut |_, _, _, _| {})
    }

    /// [`Record::replay`], calling `each` with the game, the seat, its action and the log entry that
    /// writes it just before each move is played.
    ///
    /// # Errors
    /// As [`Record::replay`].
    pub fn replay_with(&self, each: &mut dyn FnMut(&Game, Seat, &Action, &LogEntry)) -> Result<Game, ReplayError> {
        if self.format != RECORD_FORMAT {
            return Err(ReplayError::Format(self.format.chars().take(40).collect()));
        }
        if self.players.iter().zip(0u8..).any(|(player, seat)| player.seat != Seat(seat)) {
            return Err(ReplayError::Players);
        }
        let setup = self.setup();
        setup.validate()?;
        let mut game = Game::deal(setup, Shuffler::Scripted { orders: VecDeque::new(), fault: None });
        let mut index = 0;
        while index < self.log.len() {
            let entry_fault = |fault| ReplayError::Entry { index, fault };
            let Some((seat, action)) = self.log[index].action() else {
                return Err(entry_fault(EntryFault::UnexpectedShuffle));
            };
            if game.is_over() {
                return Err(entry_fault(EntryFault::AfterEnd));
            }
            let shuffles: VecDeque<Vec<Card>> = self.log[index + 1..]
                .iter()
                .map_while(|entry| match entry {
                    LogEntry::Shuffle { order } => Some(order.clone()),
                    _ => None,
                })
                .collect();
            let written = shuffles.len();
            game.shuffler = Shuffler::Scripted { orders: shuffles, fault: None };
            each(&game, seat, &action, &self.log[index]);
            game.apply(seat, &action).map_err(|e| entry_fault(EntryFault::Illegal(e)))?;
            let Shuffler::Scripted { orders, fault } = &game.shuffler else {
                unreachable!("a replay only ever holds a scripted shuffler")
            };
            let used = written - orders.len();
            match fault {
                Some(ShuffleFault::Missing) => return Err(entry_fault(EntryFault::MissingShuffle)),
                Some(ShuffleFault::NotAPermutation) => {
                    return Err(ReplayError::Entry { index: index + used, fault: EntryFault::NotAPermutation });
                }
                None if used < written => {
                    return Err(ReplayError::Entry { index: index + 1 + used, fault: EntryFault::UnexpectedShuffle });
                }
                None => {}
            }
            index += 1 + written;
        }
        Ok(game)
    }

    /// Replays the record ([`Record::replay`]), checks that its `result` is the replayed one and, when
    /// the record carries a shuffle proof, checks it ([`Record::check_shuffle`]; its fields and
    /// commitment before the replay). Returns the finished
    /// (or abandoned) game.
    ///
    /// # Errors
    /// The first faulty entry, how the result differs from the replay, or [`ReplayError::Shuffle`].
    pub fn verify(&self) -> Result<Game, ReplayError> {
        self.verify_with(&mut |_, _, _, _| {})
    }

    /// [`Record::verify`], calling `each` as [`Record::replay_with`] does.
    ///
    /// # Errors
    /// As [`Record::verify`].
    pub fn verify_with(&self, each: &mut dyn FnMut(&Game, Seat, &Action, &LogEntry)) -> Result<Game, ReplayError> {
        // The proof's fields and commitment first, as the rummy records do; what the seed gives after
        // the replay, which must stand on its own.
        self.shuffle_proof()?;
        let game = self.verify_rules(each)?;
        self.check_shuffle()?;
        Ok(game)
    }

    /// The record's shuffle proof, its commitment checked: `None` when it has none.
    ///
    /// # Errors
    /// [`ShuffleError::Fields`] or [`ShuffleError::Commitment`].
    pub fn shuffle_proof(&self) -> Result<Option<ShuffleProof>, ShuffleError> {
        ShuffleProof::from_fields(&ProofFields {
            seed: self.seed.clone(),
            salt: self.salt.clone(),
            commitment: self.commitment.clone(),
            server_seed: self.server_seed.clone(),
            contributions: self.contributions.clone(),
        })
    }

    /// Checks the record's shuffle proof, when it has one (record-format.md, "Shuffle proof"): the
    /// commitment is the SHA-256 of the seed and salt, the initial number deck, contract deck, trophy
    /// sides and first player are those [`Game::new`] deals from the seed, and every `shuffle` entry is
    /// the one the seed's generator makes when the record's moves are played on that game. Meant for a
    /// record whose moves replay ([`Record::verify`] replays first); returns the proof.
    ///
    /// # Errors
    /// [`ReplayError::Shuffle`] with the first thing that does not hold.
    pub fn check_shuffle(&self) -> Result<Option<ShuffleProof>, ReplayError> {
        let Some(proof) = self.shuffle_proof()? else { return Ok(None) };
        let not_from_seed = |what: String| ReplayError::Shuffle(ShuffleError::NotFromSeed(what));
        let mut game = Game::new(self.players.len(), proof.seed())?;
        let dealt = &game.setup;
        let field = [
            (dealt.number_deck != self.number_deck, "number_deck"),
            (dealt.contract_deck != self.contract_deck, "contract_deck"),
            (dealt.trophies != self.trophies, "trophies"),
            (dealt.first_player != self.first_player, "first_player"),
        ]
        .into_iter()
        .find_map(|(differs, name)| differs.then_some(name));
        if let Some(name) = field {
            return Err(not_from_seed(format!("`{name}`")));
        }
        // The seeded game reshuffles with its own generator; played the record's moves, it must write
        // the record's log, `shuffle` entries included.
        for entry in &self.log {
            let Some((seat, action)) = entry.action() else { continue };
            let at = game.log.len();
            game.apply(seat, &action).map_err(|_| not_from_seed(format!("the game before log entry {at}")))?;
            for (index, written) in game.log.iter().enumerate().skip(at) {
                if self.log.get(index) != Some(written) {
                    let what = match written {
                        LogEntry::Shuffle { .. } => "the reshuffle",
                        _ => "the game",
                    };
                    return Err(not_from_seed(format!("{what} at log entry {index}")));
                }
            }
        }
        if game.log.len() != self.log.len() {
            return Err(not_from_seed(format!("the reshuffle at log entry {}", game.log.len())));
        }
        Ok(Some(proof))
    }

    /// [`Record::verify`] without the shuffle proof: the replay and the result.
    fn verify_rules(&self, each: &mut dyn FnMut(&Game, Seat, &Action, &LogEntry)) -> Result<Game, ReplayError> {
        let mut game = self.replay_with(each)?;
        let claimed = &self.result;
        match (game.result(), claimed.ended_by) {
            (None, EndReason::Abandoned) => game.abandon(),
            (None, ended_by) => return Err(ReplayError::Unfinished(ended_by)),
            (Some(result), EndReason::Abandoned) => return Err(ReplayError::NotAbandoned(result.ended_by)),
            (Some(_), _) => {}
        }
        let mut replayed = game.result().ok_or(ReplayError::Unfinished(claimed.ended_by))?;
        if claimed.ended_by == EndReason::Abandoned && claimed.winners.is_empty() {
            // An abandoned game may name no winner.
            replayed.winners.clear();
        } else if claimed.ended_by == EndReason::Abandoned {
            replayed.winners = crate::scoring::winners(&replayed.scores);
        }
        if replayed != *claimed {
            return Err(ReplayError::ResultMismatch(describe_difference(claimed, &replayed)));
        }
        Ok(game)
    }
}

fn describe_difference(claimed: &GameResult, replayed: &GameResult) -> String {
    if claimed.ended_by != replayed.ended_by {
        return format!("ended_by is {:?}, the replay ends by {:?}", claimed.ended_by, replayed.ended_by);
    }
    if claimed.scores != replayed.scores {
        let show = |r: &GameResult| serde_json::to_string(&r.scores).unwrap_or_default();
        return format!("scores are {}, the replay gives {}", show(claimed), show(replayed));
    }
    if claimed.trophy_winners != replayed.trophy_winners {
        let show = |r: &GameResult| serde_json::to_string(&r.trophy_winners).unwrap_or_default();
        return format!("trophy_winners are {}, the replay gives {}", show(claimed), show(replayed));
    }
    format!("winners are {:?}, the replay gives {:?}", claimed.winners, replayed.winners)
}
