//! Rommi (`docs/rules/rommi.md`): basic rummy and 500 rummy as Board Game Arena offers them, with every
//! table option of rommi §2.
//!
//! ```
//! use romirami_rummy::rommi::{RommiMatch, RommiOptions, bot};
//! use romirami_rummy::{RummyRng, Viewer};
//!
//! let mut m = RommiMatch::new(3, 42, RommiOptions::default()).expect("3 players is a valid match");
//! let mut rng = RummyRng::from_seed(1);
//! let seat = m.to_act().expect("the first player acts");
//! let action = bot::choose(&m, seat, &mut rng).expect("the seat to act has a move");
//! m.apply(seat, &action).expect("the bot plays legal moves");
//! // A spectator sees hand sizes, never a hand.
//! let view = m.view(Viewer::Spectator);
//! assert!(view.hand.is_none());
//! assert_eq!(view.hand_sizes.iter().sum::<usize>() + view.stock + view.discard_pile.len(), 52);
//! ```

mod actions;
pub mod bot;
mod check;
mod game;
mod options;
mod plays;
mod record;
mod scoring;
mod view;

pub use actions::{RommiAction, Step};
pub use check::RommiIllegal;
pub use game::{RommiMatch, TALLY_KEYS, hand_size};
pub(crate) use options::default_target;
pub use options::{RommiOptions, Scoring, Variant};
pub use plays::{RommiLegal, can_play_containing, lay_off_candidates, meld_candidates};
pub(crate) use record::replay_checked;
pub use record::verify_record;
pub use scoring::{Where, better, hand_value, placed_value, round_scores, value};
pub use view::{RommiEvent, RommiView};

#[cfg(test)]
mod tests;
