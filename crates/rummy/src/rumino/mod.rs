//! Rumino (`docs/rules/rumino.md`): Italian-American knock rummy for 2 to 6 players, seven-card hands,
//! knocking, gin, the instant win of a rumino, elimination above 100 and rebuys.
//!
//! [`RuminoMatch`] is the match: created from a seed, changed only by [`RuminoMatch::apply`], seen only
//! through per-viewer views and events, exported to and replayed from `rummy-record/1`. The engine groups
//! every hand itself ([`deadwood`]), finds ruminos itself and deals the next hand itself; the players'
//! only choices are the actions of [`RuminoAction`].
//!
//! ```
//! use romirami_rummy::rumino::{RuminoAction, RuminoMatch, RuminoOptions, bot};
//! use romirami_rummy::seat::Viewer;
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//!
//! let mut game = RuminoMatch::new(3, 7, RuminoOptions::default()).expect("3 players is a valid table");
//! let mut rng = ChaCha8Rng::seed_from_u64(1);
//! while let Some(seat) = game.to_act() {
//!     let action = bot::choose(&game, seat, &mut rng);
//!     game.apply(seat, &action).expect("the bot plays legal actions");
//! }
//! assert!(!game.outcome().expect("the match is over").winners.is_empty());
//! // A spectator never sees a hand in play.
//! assert!(game.view(Viewer::Spectator).hand.is_none());
//! ```
//!
//! Where the rule book and the record format leave the engine a choice, it does this:
//! - a hand of 8 cards may hold more than one rumino: the record lists the 7 cards found by leaving out
//!   the first card that can be left out; a replay accepts any 7 of the hand (with the claimed card) that
//!   are a rumino;
//! - the discard pile is public whole (§10), not only its top card;
//! - an abandoned match names as winners the lowest totals among the players in (a replay also accepts
//!   none); a rebuy choice not yet made when a match is abandoned counts as staying out;
//! - [`RuminoMatch::result`]'s places: the winners first, then the players in by total, then the players
//!   out by total (ties share a place);
//! - a rumino found after taking from the discard pile is counted with those found after a draw
//!   (`ruminos_drawn` in the replay's tally).

mod actions;
pub mod bot;
mod check;
pub(crate) mod game;
mod lays;
mod legal;
mod options;
pub(crate) mod record;
mod replay;
mod turn;
pub(crate) mod view;

pub use actions::{RuminoAction, RuminoEntry};
pub use check::{RuminoIllegal, RuminoSetupError};
pub use game::{
    ELIMINATION_ABOVE, GIN_SCORE, HAND_SIZE, HandEnd, HandLog, HandResult, HandScore, KNOCK_LIMIT, Rebought,
    RuminoMatch, RuminoOutcome,
};
pub use lays::{Grouping, MAX_GROUPED_HAND, best_grouping, card_value, deadwood, is_lay, is_rumino};
pub use legal::RuminoLegal;
pub use options::RuminoOptions;
pub(crate) use replay::replay_checked;
pub use replay::{TALLY_KEYS, verify_record};
pub use view::{RevealedDeck, RuminoEvent, RuminoSeatView, RuminoStep, RuminoView, ShownEnd, ShownHand};

#[cfg(test)]
mod tests;
