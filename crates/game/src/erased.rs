//! The server's side of [`TableGame`]: the same game with its payloads as JSON text, so that one table
//! core, one store and one protocol layer hold any game, and a registry that finds a game by name.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::ops::RangeInclusive;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::analysis::{self, Analysis, AnalysisSettings};
use crate::replay::{self, Replay};
use crate::{Budget, Level, Outcome, RecordMeta, Refusal, RefusalKind, Seat, TableGame, Viewer};

/// A payload as JSON text, written once and sent or stored as it is.
pub type Json = Box<RawValue>;

fn json(value: &impl Serialize) -> Json {
    // The games' payloads are plain data with string keys: writing them cannot fail.
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| RawValue::from_string("null".to_owned()).unwrap_or_else(|_| unreachable!("null is JSON")))
}

/// An action read once into its game's own type, with the JSON text its game writes for it (what the
/// store keeps). The table reads a client's action when it arrives and keeps it so until it is played.
pub struct ReadAction {
    game: &'static str,
    text: Json,
    action: Box<dyn Any + Send>,
}

impl ReadAction {
    /// The action as its game writes it.
    pub fn text(&self) -> &RawValue {
        &self.text
    }

    /// The game's action, when it is one of `G`'s.
    fn of<G: TableGame>(&self) -> Result<&G::Action, Refusal> {
        self.action.downcast_ref::<G::Action>().ok_or_else(|| self.not_of::<G>())
    }

    fn not_of<G: TableGame>(&self) -> Refusal {
        Refusal::new(RefusalKind::Malformed, format!("an action of {}, not of {}", self.game, G::NAME))
    }
}

impl fmt::Debug for ReadAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} action {}", self.game, self.text.get())
    }
}

/// A game in play, whichever it is, with JSON payloads. Every [`TableGame`] is one.
pub trait AnyGame: Send + fmt::Debug {
    /// The game's name (`romi-rami`).
    fn name(&self) -> &'static str;
    /// The seat whose action the game waits for.
    fn to_act(&self) -> Option<Seat>;
    /// Reads `action` as this game's action, once: the result is kept in the game's own type.
    ///
    /// # Errors
    /// [`RefusalKind::Malformed`] when it is not an action of this game.
    fn read(&self, action: &serde_json::Value) -> Result<ReadAction, Refusal>;
    /// Whether `seat` may play `action` now.
    ///
    /// # Errors
    /// Why not.
    fn check(&self, seat: Seat, action: &ReadAction) -> Result<(), Refusal>;
    /// [`AnyGame::read`], then [`AnyGame::check`]: the action read, when `seat` may play it now.
    ///
    /// # Errors
    /// Why not.
    fn read_checked(&self, seat: Seat, action: &serde_json::Value) -> Result<ReadAction, Refusal> {
        let read = self.read(action)?;
        self.check(seat, &read)?;
        Ok(read)
    }
    /// Plays an action that [`AnyGame::check`] accepted in this very state ([`TableGame::apply_checked`]).
    ///
    /// # Errors
    /// Why not; the game is unchanged.
    fn play(&mut self, seat: Seat, action: &ReadAction) -> Result<(), Refusal>;
    /// Plays a stored action, given as JSON text, checking it first.
    ///
    /// # Errors
    /// Why not; the game is unchanged.
    fn apply(&mut self, seat: Seat, action: &str) -> Result<(), Refusal>;
    /// The legal actions of `seat`, as a JSON array.
    fn legal(&self, seat: Seat) -> Json;
    /// The `normal` bot's action for `seat`.
    fn bot(&self, seat: Seat) -> Option<ReadAction>;
    /// The action of the bot of `level` for `seat`, within `budget` ([`TableGame::bot_at`]).
    fn bot_at(&self, seat: Seat, level: Level, budget: &Budget<'_>) -> Option<ReadAction>;
    /// A copy of the game, for a bot to think about away from its table (the server's bot pool).
    fn clone_game(&self) -> Box<dyn AnyGame>;
    /// The game as `viewer` may see it.
    fn view(&self, viewer: Viewer) -> Json;
    /// How many events the game has had.
    fn event_count(&self) -> usize;
    /// Whether a client can follow the game from its events alone ([`TableGame::EVENTS_CARRY_VIEW`]).
    fn events_carry_view(&self) -> bool;
    /// The events from `since` on (at most `limit`), numbered, as `viewer` may see them.
    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, Json)>;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The round (or hand) being played.
    fn round(&self) -> usize;
    /// Whether the seat to act is asked a choice outside the turns ([`TableGame::choice`]).
    fn choice(&self) -> bool;
    /// Ends the game as abandoned.
    fn abandon(&mut self);
    /// The result shown at the end.
    fn result(&self) -> Option<Json>;
    /// The result as the store keeps it.
    fn outcome(&self) -> Option<Outcome>;
    /// The record of the finished game.
    ///
    /// # Errors
    /// When the game is not over.
    fn record(&self, meta: RecordMeta) -> Result<Json, String>;
}

/// Reads `action` as `G`'s, and writes it back as `G` writes it: to see that no field was ignored, and as
/// the text the store keeps.
fn decode<G: TableGame>(action: &serde_json::Value) -> Result<(G::Action, Json), Refusal> {
    let decoded = G::Action::deserialize(action).map_err(|e| malformed::<G>(&e))?;
    let written = serde_json::to_value(&decoded).map_err(|e| malformed::<G>(&e))?;
    // serde lets an internally tagged unit variant ignore fields it does not know, whatever the game
    // says; an action is refused unless every field it has is one the game writes back.
    if let (Some(given), serde_json::Value::Object(written)) = (action.as_object(), &written) {
        if let Some(unknown) = given.keys().find(|key| !written.contains_key(*key)) {
            return Err(Refusal::new(
                RefusalKind::Malformed,
                format!("not an action of {}: unknown field `{unknown}`", G::NAME),
            ));
        }
    }
    // The text is written from the game's own type, in its fields' order (a `Value` sorts them).
    let text = json(&decoded);
    Ok((decoded, text))
}

/// A bot's action, as if read.
fn read<G: TableGame>(action: G::Action) -> ReadAction {
    ReadAction { game: G::NAME, text: json(&action), action: Box::new(action) }
}

fn malformed<G: TableGame>(e: &serde_json::Error) -> Refusal {
    {
        let mut message = format!("not an action of {}: {e}", G::NAME);
        // The message may quote the client's text: keep it short.
        let end = (0..=message.len().min(200)).rev().find(|&i| message.is_char_boundary(i)).unwrap_or(0);
        message.truncate(end);
        Refusal::new(RefusalKind::Malformed, message)
    }
}

impl<G: TableGame> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn to_act(&self) -> Option<Seat> {
        TableGame::to_act(self)
    }

    fn read(&self, action: &serde_json::Value) -> Result<ReadAction, Refusal> {
        let (action, text) = decode::<G>(action)?;
        Ok(ReadAction { game: G::NAME, text, action: Box::new(action) })
    }

    fn check(&self, seat: Seat, action: &ReadAction) -> Result<(), Refusal> {
        TableGame::check(self, seat, action.of::<G>()?)
    }

    fn play(&mut self, seat: Seat, action: &ReadAction) -> Result<(), Refusal> {
        TableGame::apply_checked(self, seat, action.of::<G>()?)
    }

    fn apply(&mut self, seat: Seat, action: &str) -> Result<(), Refusal> {
        let action: G::Action = serde_json::from_str(action).map_err(|e| malformed::<G>(&e))?;
        TableGame::apply(self, seat, &action)
    }

    fn legal(&self, seat: Seat) -> Json {
        json(&TableGame::legal(self, seat))
    }

    fn bot(&self, seat: Seat) -> Option<ReadAction> {
        TableGame::bot(self, seat).map(read::<G>)
    }

    fn bot_at(&self, seat: Seat, level: Level, budget: &Budget<'_>) -> Option<ReadAction> {
        TableGame::bot_at(self, seat, level, budget).map(read::<G>)
    }

    fn clone_game(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn view(&self, viewer: Viewer) -> Json {
        json(&TableGame::view(self, viewer))
    }

    fn event_count(&self) -> usize {
        TableGame::event_count(self)
    }

    fn events_carry_view(&self) -> bool {
        G::EVENTS_CARRY_VIEW
    }

    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, Json)> {
        TableGame::events_for(self, viewer, since, limit).into_iter().map(|(n, event)| (n, json(&event))).collect()
    }

    fn is_over(&self) -> bool {
        TableGame::is_over(self)
    }

    fn round(&self) -> usize {
        TableGame::round(self)
    }

    fn choice(&self) -> bool {
        TableGame::choice(self)
    }

    fn abandon(&mut self) {
        TableGame::abandon(self);
    }

    fn result(&self) -> Option<Json> {
        TableGame::result(self).map(|result| json(&result))
    }

    fn outcome(&self) -> Option<Outcome> {
        TableGame::outcome(self)
    }

    fn record(&self, meta: RecordMeta) -> Result<Json, String> {
        TableGame::record(self, meta).map(|record| json(&record))
    }
}

/// A game the server can seat: its name, its seats, its options, and new games of it.
pub trait GameKind: Send + Sync {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// How many players it seats.
    fn seats(&self) -> RangeInclusive<usize>;
    /// Reads a host's options for a table of `players` (the defaults when `None`) and returns them
    /// written in full, as the table keeps and stores them.
    ///
    /// # Errors
    /// A sentence saying what is wrong with them.
    fn options(&self, options: Option<&serde_json::Value>, players: usize) -> Result<Json, String>;
    /// A new game of `players` from `seed` with `options` as [`GameKind::options`] wrote them.
    ///
    /// # Errors
    /// When the players or options do not fit.
    fn new_game(&self, players: usize, seed: u64, options: &RawValue) -> Result<Box<dyn AnyGame>, String>;
    /// The finished game a record (JSON text) tells, replayed.
    ///
    /// # Errors
    /// When the record does not read or replay.
    fn replay(&self, record: &str) -> Result<Box<dyn AnyGame>, String>;
    /// The record (JSON text) step by step, for the replay viewer ([`replay`]).
    ///
    /// # Errors
    /// When the record does not read or replay.
    fn replay_steps(&self, record: &str) -> Result<Replay, String>;
    /// The analysis of `seat` of the finished game a record tells ([`analysis`]), calling
    /// `progress(done, total)` as decisions are judged.
    ///
    /// # Errors
    /// When the record does not read or replay, or has no such seat.
    fn analyse(
        &self,
        record: &str,
        seat: Seat,
        settings: &AnalysisSettings,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Analysis, String>;
}

impl fmt::Debug for dyn GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The [`GameKind`] of a [`TableGame`].
struct Kind<G>(PhantomData<fn() -> G>);

impl<G: TableGame> GameKind for Kind<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn seats(&self) -> RangeInclusive<usize> {
        G::SEATS
    }

    fn options(&self, options: Option<&serde_json::Value>, players: usize) -> Result<Json, String> {
        let options: G::Options = match options {
            Some(value) => G::Options::deserialize(value).map_err(|e| format!("bad options for {}: {e}", G::NAME))?,
            None => G::Options::default(),
        };
        if !G::SEATS.contains(&players) {
            let (min, max) = (G::SEATS.start(), G::SEATS.end());
            return Err(format!("{} is played by {min} to {max} players", G::NAME));
        }
        G::check_options(&options, players)?;
        Ok(json(&options))
    }

    fn new_game(&self, players: usize, seed: u64, options: &RawValue) -> Result<Box<dyn AnyGame>, String> {
        let options: G::Options =
            serde_json::from_str(options.get()).map_err(|e| format!("bad options for {}: {e}", G::NAME))?;
        Ok(Box::new(G::new(players, seed, &options)?))
    }

    fn replay(&self, record: &str) -> Result<Box<dyn AnyGame>, String> {
        let record: G::Record = serde_json::from_str(record).map_err(|e| format!("the record does not read: {e}"))?;
        Ok(Box::new(G::replay(&record)?))
    }

    fn replay_steps(&self, record: &str) -> Result<Replay, String> {
        let (record, players) = read_record::<G>(record)?;
        replay::replay_of::<G>(&record, players)
    }

    fn analyse(
        &self,
        record: &str,
        seat: Seat,
        settings: &AnalysisSettings,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Analysis, String> {
        let (record, players) = read_record::<G>(record)?;
        if seat.index() >= players {
            return Err(format!("the game has {players} seats; there is no seat {}", seat.0));
        }
        analysis::analyse::<G>(&record, seat, settings, progress)
    }
}

/// A record of `G` and its number of seats: the length of its `players` list, which every record format
/// of ours has.
fn read_record<G: TableGame>(text: &str) -> Result<(G::Record, usize), String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("the record does not read: {e}"))?;
    let players = value.get("players").and_then(serde_json::Value::as_array).map_or(0, Vec::len);
    let record = G::Record::deserialize(value).map_err(|e| format!("the record does not read: {e}"))?;
    Ok((record, players))
}

/// The games a server seats, by name.
#[derive(Clone, Default)]
pub struct Games {
    by_name: BTreeMap<&'static str, Arc<dyn GameKind>>,
}

impl Games {
    /// No game yet.
    pub fn new() -> Games {
        Games::default()
    }

    /// These games and `G`.
    #[must_use]
    pub fn with<G: TableGame>(mut self) -> Games {
        self.by_name.insert(G::NAME, Arc::new(Kind::<G>(PhantomData)));
        self
    }

    /// The game called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn GameKind>> {
        self.by_name.get(name)
    }

    /// The names of every game, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.by_name.keys().copied()
    }
}

impl fmt::Debug for Games {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.by_name.keys()).finish()
    }
}
