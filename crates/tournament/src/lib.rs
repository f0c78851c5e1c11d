//! The tournament director of Romi Rami Online (docs/tournaments.md): Swiss and arena tournaments for
//! any game and table size, duplicate deals scored by matchpoints, points, tiebreaks and standings.
//!
//! Like a table's core, the director is a state machine with no I/O and no clock: [`Director`] takes
//! joins, withdrawals, pauses, finished games and the time (milliseconds, from the caller) and returns
//! [`Effect`]s for its runner in the server to carry out. Its tests use a fake time. It is stored whole
//! (serde) after every change, so a tournament survives a restart.

mod deals;
mod director;
mod hex32;
mod pairing;
mod spec;
mod standings;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use deals::Deal;
pub use director::{ABSENCES, Director, Effect, OpenTable, Refusal};
pub use pairing::REPEAT_WAIT_MS;
pub use spec::{BadSpec, Format, MINUTE_MS, Millis, Spec, Start, limits};
pub use standings::{BYE_POINTS, Standing, place_points};
pub use state::{Dealing, Entrant, Phase, PlayerKey, Round, SeatResult, Status, Table, TableKey};
pub use view::{ContributionsView, PlayerView, RoundView, StandingView, TableView, View};
