//! The rules of Romi Rami as pure, deterministic state transitions.
//!
//! This crate is the rule book of `docs/rules/romi-rami.md` in code: no async, no I/O, no clock; every
//! random outcome comes from a generator seeded when the game is created, so a seed and a list of actions
//! always give the same game. Players see the game only through [`Game::view`] and
//! [`Game::events_for`], redacted per [`Viewer`] (§6). Finished games export to, and replay from, the
//! `romirami-record/1` format ([`Record`]).
//!
//! A whole turn:
//!
//! ```
//! use romirami_engine::{Action, Game, Phase, TurnStep, Viewer};
//!
//! let mut game = Game::new(2, 42).expect("2 players is a valid game");
//! let Phase::Playing { seat, step: TurnStep::Take } = game.phase() else { panic!("a game starts with a take") };
//!
//! // §3 step 1: take from the number market. Every legal action is listed; take the first take offered.
//! let take = game.legal_actions(seat)[0];
//! game.apply(seat, &take).expect("listed actions are legal");
//!
//! // §3 step 2: complete a contract when one can be filled, then pass; refills follow automatically.
//! if let Some(complete) = game.legal_actions(seat).into_iter().find(|a| matches!(a, Action::Complete { .. })) {
//!     game.apply(seat, &complete).expect("listed actions are legal");
//! }
//! game.apply(seat, &Action::Pass).expect("passing ends the contract step");
//!
//! // A spectator sees the public state and what happened, never a hand.
//! let view = game.view(Viewer::Spectator);
//! assert!(view.hand.is_none());
//! assert_eq!(view.number_market.iter().flatten().count(), 6);
//! for (number, event) in game.events_for(Viewer::Spectator, 0) {
//!     println!("{number}: {}", serde_json::to_string(&event).unwrap());
//! }
//! ```
//!
//! Illegal actions are refused with the rule they break, and change nothing:
//!
//! ```
//! use romirami_engine::{Action, Cards, Game, Seat};
//!
//! let mut game = Game::new(3, 7).unwrap();
//! let seat = game.to_act().unwrap();
//! let err = game.apply(seat, &Action::Take { cards: Cards::EMPTY }).unwrap_err();
//! assert_eq!((err.code(), err.rule()), ("take_count", "§3 step 1"));
//! let other = Seat((seat.0 + 1) % 3);
//! assert_eq!(game.apply(other, &Action::Pass).unwrap_err().code(), "not_your_turn");
//! ```
#![forbid(unsafe_code)]

mod action;
pub mod bot;
mod cards;
mod contracts;
mod error;
mod game;
mod legal;
mod player;
mod random;
mod record;
mod scoring;
mod search;
mod table_game;
mod trophies;
mod view;

pub use action::{Action, EndReason, Phase, Seat, TurnStep};
pub use cards::{BadCardCode, CARD_KINDS, Card, Cards, NUMBERS, Suit};
pub use contracts::{CONTRACT_COUNT, Contract, ContractId, Requirement};
pub use error::{IllegalAction, SetupError};
pub use game::{
    Applied, CONTRACT_MARKET_SLOTS, Game, HAND_LIMIT, HAND_MINIMUM, NUMBER_MARKET_SLOTS, STARTING_HAND, Setup,
    contract_target,
};
pub use player::RandomPlayer;
pub use random::GameRng;
pub use record::{EntryFault, ExportError, LogEntry, RECORD_FORMAT, Record, RecordMeta, RecordPlayer, ReplayError};
pub use romirami_game::{ShuffleError, ShuffleProof};
pub use scoring::{GameResult, ScoreBreakdown, TrophyWinners, winners};
pub use table_game::RomiRamiOptions;
pub use trophies::{Trophy, TrophyIcon};
pub use view::{SeatScore, SeatView, View, Viewer, VisibleEvent};

#[cfg(test)]
mod tests;
