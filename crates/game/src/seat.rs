//! Seats and viewers: the same for every game.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, 0 to n−1 in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into per-seat lists.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat in seat order at a table of `players`, wrapping around.
    pub const fn next(self, players: usize) -> Seat {
        Seat(((self.0 as usize + 1) % players) as u8)
    }

    /// Seats 0 to `players` − 1.
    pub fn all(players: usize) -> impl Iterator<Item = Seat> {
        (0..players).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking at a game: a player, who sees their own hidden cards, or anyone else, who sees what
/// is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Anyone else: the public information only.
    Spectator,
}

impl Viewer {
    /// Whether this viewer is the player in `seat`.
    pub fn is(self, seat: Seat) -> bool {
        self == Viewer::Seat(seat)
    }
}
