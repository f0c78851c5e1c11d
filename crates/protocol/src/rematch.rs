//! Playing again: how a rematch offer ends when it does not start a new game.

use serde::{Deserialize, Serialize};

/// Why a rematch offer closed without a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RematchEnd {
    /// A player said no (the message names their seat).
    Declined,
    /// Not every player said yes in time.
    TimedOut,
    /// Every player said yes, but the server could not open the new table (its database did not
    /// answer); nothing was started.
    Failed,
}
