//! What a tournament is made with: its format, table size, start and limits, checked once.

use serde::{Deserialize, Serialize};

/// A time: milliseconds since the Unix epoch. The director has no clock: every input brings the time.
pub type Millis = u64;

/// How a tournament seats its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "format")]
pub enum Format {
    /// A fixed number of rounds; each round seats every active player once, by standings.
    Swiss {
        /// How many rounds.
        rounds: u32,
    },
    /// A time window; a player who is free is seated again as soon as enough others are.
    Arena {
        /// How long the window lasts.
        minutes: u32,
    },
}

impl Format {
    /// `swiss` or `arena`, as the REST API names it.
    pub fn name(&self) -> &'static str {
        match self {
            Format::Swiss { .. } => "swiss",
            Format::Arena { .. } => "arena",
        }
    }
}

/// When a tournament starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "at")]
pub enum Start {
    /// As soon as `max_players` have joined.
    WhenFull,
    /// At this time, with whoever joined (if they fill at least one table).
    At(Millis),
}

/// Everything the director needs to know about a tournament, fixed at its creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// Swiss or arena.
    pub format: Format,
    /// Players at each table (a size the game allows: the caller checks).
    pub seats: u8,
    /// Whether every table of a round plays the same deal, scored by matchpoints.
    pub duplicate: bool,
    /// The most players who may join.
    pub max_players: u32,
    /// When it starts.
    pub start: Start,
    /// The pause between a Swiss round's last game and the next round, the countdown players see.
    pub round_pause_ms: u64,
    /// How long an arena's minute lasts: 60,000 ms, shorter only in tests.
    #[serde(default = "a_minute")]
    pub minute_ms: u64,
    /// How long a duplicate round waits for its players' contributions to its deal before the server
    /// draws the missing ones; 0: the server draws them all at once.
    #[serde(default)]
    pub deal_wait_ms: u64,
}

/// A minute, in milliseconds.
pub const MINUTE_MS: u64 = 60_000;

fn a_minute() -> u64 {
    MINUTE_MS
}

/// The limits of a tournament's shape, so that one request cannot make the director's work unbounded.
pub mod limits {
    /// The most rounds of a Swiss tournament.
    pub const MAX_ROUNDS: u32 = 30;
    /// The longest arena, in minutes (a day).
    pub const MAX_MINUTES: u32 = 24 * 60;
    /// The most players of one tournament.
    pub const MAX_PLAYERS: u32 = 2_000;
    /// The longest pause between rounds (ten minutes).
    pub const MAX_ROUND_PAUSE_MS: u64 = 10 * 60 * 1000;
}

/// Why a spec is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadSpec {
    /// A table needs at least two players.
    #[error("a table has at least 2 seats, not {0}")]
    Seats(u8),
    /// Swiss rounds out of range.
    #[error("a Swiss tournament has 1 to {max} rounds, not {0}", max = limits::MAX_ROUNDS)]
    Rounds(u32),
    /// Arena minutes out of range.
    #[error("an arena lasts 1 to {max} minutes, not {0}", max = limits::MAX_MINUTES)]
    Minutes(u32),
    /// Players out of range.
    #[error("a tournament takes {seats} to {most} players (at least one table), not {max}", most = limits::MAX_PLAYERS)]
    Players {
        /// The table size.
        seats: u8,
        /// What was asked.
        max: u32,
    },
    /// A pause out of range.
    #[error("the pause between rounds is at most {max} ms", max = limits::MAX_ROUND_PAUSE_MS)]
    Pause,
}

impl Spec {
    /// Checks the spec's numbers.
    ///
    /// # Errors
    /// [`BadSpec`], a sentence for whoever asked.
    pub fn check(&self) -> Result<(), BadSpec> {
        if self.seats < 2 {
            return Err(BadSpec::Seats(self.seats));
        }
        match self.format {
            Format::Swiss { rounds } if !(1..=limits::MAX_ROUNDS).contains(&rounds) => {
                return Err(BadSpec::Rounds(rounds));
            }
            Format::Arena { minutes } if !(1..=limits::MAX_MINUTES).contains(&minutes) => {
                return Err(BadSpec::Minutes(minutes));
            }
            _ => {}
        }
        if !(u32::from(self.seats)..=limits::MAX_PLAYERS).contains(&self.max_players) {
            return Err(BadSpec::Players { seats: self.seats, max: self.max_players });
        }
        if self.round_pause_ms > limits::MAX_ROUND_PAUSE_MS {
            return Err(BadSpec::Pause);
        }
        Ok(())
    }
}
