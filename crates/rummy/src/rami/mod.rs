//! Rami, French rummy, played as Rami 51 or Rami 30 (`docs/rules/rami.md`).
//!
//! [`RamiMatch`] is the match: rounds dealt from a seeded generator, turns checked against the rule
//! book (every refusal, a [`RamiIllegal`], names its section), views per viewer, and a record in
//! `rummy-record/1` that replays.

mod actions;
pub mod bot;
mod cardkit;
mod check;
mod game;
mod legal;
mod melds;
mod options;
mod play;
mod record;
mod scoring;
mod search;
mod view;

pub use actions::{MeldCards, RamiAction};
pub use check::{RamiIllegal, RamiSetupError};
pub use game::{HAND_SIZE, Owes, RamiMatch};
pub use legal::{RamiLegal, is_valid_meld, opening_value};
pub use melds::{is_pure_run, meld_value, penalty_value};
pub use options::{MatchEnd, Opening, RamiOptions};
pub use record::{replay, verify_record};
pub use scoring::{NOT_OPENED, match_end, score_round, winners};
pub use view::{RamiEvent, RamiView, RoundSummary, TableMeld};

#[cfg(test)]
mod tests;
