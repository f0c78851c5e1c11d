//! Rami, French rummy, played as Rami 51 or Rami 30 (`docs/rules/rami.md`).
//!
//! [`RamiMatch`] is the match: rounds dealt from a seeded generator, turns checked against the rule
//! book (every refusal, a [`RamiIllegal`], names its section), views per viewer, and a record in
//! `rummy-record/1` that replays.
//!
//! ```
//! use romirami_rummy::rami::{RamiAction, RamiMatch, RamiOptions, bot};
//! use romirami_rummy::{RummyRng, Viewer, record};
//!
//! let mut game = RamiMatch::new(3, 42, RamiOptions::defaults(3)).expect("3 players is a table");
//! let seat = game.to_act().expect("the seat after the dealer starts");
//! let hand = game.view(Viewer::Seat(seat)).hand.expect("a player sees their hand");
//!
//! // A turn starts with a draw (rami §7.1): a discard first is refused, naming the rule.
//! let refused = game.apply(seat, &RamiAction::Discard(hand[0])).unwrap_err();
//! assert_eq!(refused.rule(), "§7.1");
//! game.apply(seat, &RamiAction::Draw).expect("a draw from the stock");
//!
//! // Bots play the match out; spectators never see a hand; the record replays.
//! let mut rng = RummyRng::from_seed(1);
//! while let Some(seat) = game.to_act() {
//!     let action = bot::choose(&game, seat, &mut rng).expect("the seat to act has an action");
//!     game.apply(seat, &action).expect("the bot plays legally");
//! }
//! assert!(game.view(Viewer::Spectator).hand.is_none());
//! let meta = record::RecordMeta {
//!     id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".into(),
//!     started_at: "2026-11-21T10:00:00Z".into(),
//!     finished_at: "2026-11-21T10:48:00Z".into(),
//!     names: vec!["Ana".into(), "Bo".into(), "Cy".into()],
//!     shuffle: None,
//! };
//! let verified = record::verify(&game.record(meta).expect("the match is over")).expect("it replays");
//! assert_eq!(Some(verified.result), game.result());
//! ```

mod actions;
pub mod bot;
mod candidates;
pub(crate) mod cardkit;
mod check;
pub(crate) mod game;
mod legal;
mod melds;
mod options;
mod play;
mod record;
mod scoring;
mod search;
pub(crate) mod view;

pub use actions::{MeldCards, RamiAction};
pub use check::{RamiIllegal, RamiSetupError};
pub use game::{HAND_SIZE, Owes, RamiMatch};
pub use legal::{RamiLegal, is_valid_meld, opening_value};
pub use melds::{is_pure_run, meld_value, penalty_value};
pub use options::{MatchEnd, Opening, RamiOptions};
pub use record::{Observer, TALLY_KEYS, replay, replay_with, verify_record};
pub use scoring::{NOT_OPENED, match_end, score_round, winners};
pub use view::{RamiEvent, RamiView, RoundSummary};

#[cfg(test)]
mod tests;
