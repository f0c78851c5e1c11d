//! What every game of Romi Rami Online shares, and the one trait through which a game sits at a table.
//!
//! A game's rules live in a crate of their own (`romirami-engine` for Romi Rami, `romirami-rummy` for
//! Rommi, Rami and Rumino): pure, deterministic, no I/O. To be played online a game implements
//! [`TableGame`]: a new game from a number of players, a seed and its options; whose turn it is; a check
//! and an apply for a seat's action; the legal actions and the bot's choice; the view and the events
//! for each viewer; the end, the result and the record. The server holds every game as a
//! [`AnyGame`] — the same trait with its payloads as JSON — and finds it by name in a [`Games`]
//! registry, so that the table, the store, the WebSocket layer and the REST API know no game's types.
//! Adding a game is one registration line (`Games::with`).

pub mod analysis;
pub mod commitment;
mod erased;
pub mod replay;
pub mod search;
mod seat;

use std::fmt;
use std::ops::RangeInclusive;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

pub use analysis::{Analysis, AnalysisScale, AnalysisSettings, Class, Decision, Summary};
pub use commitment::{Commitment, ShuffleError, ShuffleProof};
pub use erased::{AnyGame, GameKind, Games, Json, ReadAction};
pub use replay::{RecordStep, Replay, ReplayStep};
pub use search::{Budget, Level};
pub use seat::{Seat, Viewer};

/// Why an action is refused, as the table tells the player: the kind decides the protocol's error
/// code, the message is a sentence for people that cites the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What kind of refusal.
    pub kind: RefusalKind,
    /// A sentence for people, citing the rule book's section; never shows hidden information.
    pub message: String,
}

/// The kinds of refusal the protocol tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The game is over.
    GameOver,
    /// It is another seat's turn.
    NotYourTurn,
    /// The action breaks a rule.
    Illegal,
    /// The action is not an action of this game at all (it does not parse).
    Malformed,
}

impl Refusal {
    /// A refusal of `kind` with `message`.
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Refusal {
        Refusal { kind, message: message.into() }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What the record of a finished game carries besides the game itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMeta {
    /// The game's id.
    pub id: Uuid,
    /// When it started.
    pub started_at: OffsetDateTime,
    /// When it finished.
    pub finished_at: OffsetDateTime,
    /// The players' names in seat order.
    pub names: Vec<String>,
    /// The seed the game was created from and the salt of the commitment sent when it started, written
    /// into the record as `seed`, `salt` and `commitment` so that anyone can check the shuffle; `None`
    /// writes none of them.
    pub shuffle: Option<ShuffleProof>,
}

/// A finished game's result as the store and the REST API keep it, the same for every game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Why the game ended, in the game's words (`contracts`, `market`, `abandoned`, `target`, ...).
    pub ended_by: String,
    /// Every seat's result, in seat order.
    pub seats: Vec<SeatOutcome>,
}

/// One seat's result in a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatOutcome {
    /// The seat's final score (for games scored by penalty points, lower is better: `place` says).
    pub score: i64,
    /// 1 for the best; seats level share a place (1, 1, 3).
    pub place: u8,
    /// Whether the seat is among the winners (none in an abandoned game).
    pub winner: bool,
    /// The score's parts in the game's words, as a JSON object that includes `total`.
    pub details: serde_json::Value,
}

/// A game that can be played at a table. Implemented by each game's rules crate; the server holds it
/// as an [`AnyGame`].
///
/// Every method is deterministic: the same seed, options and actions give the same game.
pub trait TableGame: Sized + Send + Clone + fmt::Debug + 'static {
    /// The game's table options (targets, variants), with the rule book's defaults as `Default`.
    type Options: Serialize + DeserializeOwned + Default;
    /// A seat's move.
    type Action: Serialize + DeserializeOwned + Send + 'static;
    /// The game as one viewer may see it.
    type View: Serialize;
    /// Something that happened, as one viewer may see it.
    type Event: Serialize;
    /// The result shown when the game ends, every part revealed.
    type Result: Serialize;
    /// The record of a finished game, which replays.
    type Record: Serialize + DeserializeOwned;

    /// The game's name in the protocol, the store and the REST API (`romi-rami`).
    const NAME: &'static str;
    /// How many players it seats.
    const SEATS: RangeInclusive<usize>;
    /// Whether a client can follow the game from its events alone, folding each into the view it holds.
    /// A game whose events do not carry everything its view holds (where a card laid off sits in a run,
    /// the state of the turn) says `false`: after each batch of events the table then sends every member
    /// the game as it now stands (a `view` message), so that no client ever has to ask for it again.
    const EVENTS_CARRY_VIEW: bool = true;
    /// How many playouts the strong bot spends on a decision ([`search`]), so that its decisions take at
    /// most about 100 ms on one core of a small server.
    const STRONG_PLAYOUTS: u32 = search::DEFAULT_PLAYOUTS;
    /// How often the easy bot slips: one decision in this many is a legal action drawn at random
    /// ([`search`]).
    const EASY_SLIP_ONE_IN: u64 = 3;

    /// Checks table options a host asked for.
    ///
    /// # Errors
    /// A sentence saying what is wrong with them.
    fn check_options(options: &Self::Options, players: usize) -> Result<(), String>;

    /// A new game of `players` dealt from `seed`.
    ///
    /// # Errors
    /// When the game cannot seat `players` or the options do not fit.
    fn new(players: usize, seed: u64, options: &Self::Options) -> Result<Self, String>;

    /// The seat whose action the game waits for; `None` once it is over.
    fn to_act(&self) -> Option<Seat>;

    /// Whether `seat` may play `action` now.
    ///
    /// # Errors
    /// Why not.
    fn check(&self, seat: Seat, action: &Self::Action) -> Result<(), Refusal>;

    /// Plays `action` for `seat`, after the same check as [`TableGame::check`].
    ///
    /// # Errors
    /// Why not; the game is unchanged.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Refusal>;

    /// Plays `action` for `seat` when [`TableGame::check`] has just accepted it in this very state (the
    /// table checks an action when it arrives, stores it, then plays it): a game may skip its check here.
    /// The default checks again, as [`TableGame::apply`] does.
    ///
    /// # Errors
    /// Why not; the game is unchanged.
    fn apply_checked(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Refusal> {
        self.apply(seat, action)
    }

    /// Every distinct legal action of `seat` now (empty when it is not to act).
    fn legal(&self, seat: Seat) -> Vec<Self::Action>;

    /// The action the server's `normal` bot plays for `seat` now, when it is to act: one sensible move,
    /// cheap enough to be the strong bot's playout policy.
    fn bot(&self, seat: Seat) -> Option<Self::Action>;

    /// The action the server's bot of `level` plays for `seat` now, within `budget` ([`search`]).
    fn bot_at(&self, seat: Seat, level: Level, budget: &Budget<'_>) -> Option<Self::Action> {
        search::choose(self, seat, level, budget)
    }

    /// Whether `action` takes back a step of the turn: the bots never do.
    fn undoes(action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// A world that `seat` cannot tell from this one, for the strong bot's search: everything `seat` cannot
    /// see (the others' hands, the order of what lies face down, the generator of later shuffles and deals)
    /// dealt again from `seed`, consistently with what it can see and has seen. It reads nothing else of
    /// the hidden state: two games that differ only in what `seat` cannot see give the same world.
    fn determinize(&self, seat: Seat, seed: u64) -> Self;

    /// How well the game stands for `seat` where a playout that started from `from` stops
    /// ([`TableGame::playout_done`]), from 0 (lost) to 1 (won).
    fn value(&self, seat: Seat, from: &Self) -> f64;

    /// Whether a playout that started from `from` ends here: at the end of the game, by default (a game
    /// of several rounds may stop at the end of the round, and [`TableGame::value`] judge it there).
    fn playout_done(&self, from: &Self) -> bool {
        let _ = from;
        self.is_over()
    }

    /// The game as `viewer` may see it.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// How many events the game has had.
    fn event_count(&self) -> usize;

    /// The events from number `since` on, at most `limit` of them, each with its number, as `viewer` may see
    /// them. Its cost is that of what it returns, not of the game's whole history (a table answers a
    /// client's `history` with it, on the table's own task).
    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, Self::Event)>;

    /// Whether the game is over.
    fn is_over(&self) -> bool;

    /// The number of the round (or hand) being played, for games of several: when it changes, the table
    /// pauses so that everyone sees the round's result before the next turn's clock and bots start.
    fn round(&self) -> usize {
        0
    }

    /// Whether the seat to act is asked a choice outside the turns of play rather than to play a turn
    /// (Rumino's rebuy, rumino §9 step 4). The table gives a choice a time of its own instead of the turn
    /// clock, and when it runs out makes the choice the bot would.
    fn choice(&self) -> bool {
        false
    }

    /// Ends the game where it stands because nobody is left to play it.
    fn abandon(&mut self);

    /// The result, once the game is over.
    fn result(&self) -> Option<Self::Result>;

    /// The result as the store keeps it, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The record of the finished game. Whatever else it holds, it carries the meta's `id` (the game's
    /// id) and `finished_at` (RFC 3339) at its top level, as the store reads them from every record.
    ///
    /// # Errors
    /// When the game is not over.
    fn record(&self, meta: RecordMeta) -> Result<Self::Record, String>;

    /// Replays a record of this game through its rules, checking every step and result in it, and gives
    /// back the game as replayed (over, with the record's result).
    ///
    /// # Errors
    /// The first thing in the record that breaks a rule, or that it cannot be replayed.
    fn replay(record: &Self::Record) -> Result<Self, String> {
        Self::replay_steps(record, &mut |_| {})
    }

    /// [`TableGame::replay`], calling `each` with every seat's action the record's log holds, in order, just
    /// before it is played: the game then, the seat, the action and the log entry that writes it. The
    /// replay viewer and the analysis of a finished game walk a record this way. Entries the game writes
    /// by itself (a reshuffle, a player going out) are no actions, and choices a record keeps outside its
    /// log (Rumino's rebuys, in the round's result) are not given.
    ///
    /// # Errors
    /// As [`TableGame::replay`].
    fn replay_steps(record: &Self::Record, each: &mut dyn FnMut(RecordStep<'_, Self>)) -> Result<Self, String>;

    /// The log entry that `seat` playing `action` now would write into the record, as the record writes it
    /// (its first entry, when the action writes more than one): how the analysis names the action it
    /// would have played. `None` when the action cannot be played now.
    fn entry_for(&self, seat: Seat, action: &Self::Action) -> Option<serde_json::Value>;

    /// The unit and thresholds of the analysis of a finished game ([`analysis`]).
    const ANALYSIS: AnalysisScale;

    /// How a playout of the analysis that started from `from` stands for `seat` where it stopped
    /// ([`TableGame::playout_done`]), in [`TableGame::ANALYSIS`]'s unit, higher is better.
    fn analysis_value(&self, seat: Seat, from: &Self) -> f64;
}

/// Places from scores, best first by `better`: seats level share a place (1, 1, 3).
pub fn places<T>(scores: &[T], better: impl Fn(&T, &T) -> bool) -> Vec<u8> {
    scores
        .iter()
        .map(|score| {
            let ahead = scores.iter().filter(|other| better(other, score)).count();
            u8::try_from(ahead + 1).unwrap_or(u8::MAX)
        })
        .collect()
}
