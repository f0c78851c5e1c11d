//! The rummy family of Romi Rami Online — Rommi (`docs/rules/rommi.md`), Rami (`rami.md`) and Rumino
//! (`rumino.md`) — as pure, deterministic state transitions, with their `rummy-record/1` records
//! (`rummy-record-format.md`).
//!
//! No async, no I/O, no clock: every deal comes from a generator seeded when a match is created
//! ([`RummyRng`]), so a seed and a list of actions always give the same match. The parts the three games
//! share live here: [`Card`] and its codes, each game's deck ([`DeckSpec`]), meld checking parameterized
//! by each game's rules ([`MeldRules`], [`Meld`]), [`Seat`] and [`Viewer`], and the record ([`record`]).
//!
//! Melds follow each book's §3, positions fixed when laid:
//!
//! ```
//! use romirami_rummy::{Meld, MeldId, MeldRules, Seat, parse_cards};
//!
//! let qka = parse_cards("Qh Kh Ah").unwrap();
//! // Rommi basic: aces are low only (rommi §3.2).
//! assert!(Meld::new(MeldId(1), Seat(0), &qka, None, &MeldRules::ROMMI_BASIC).is_err());
//! // Rommi 500: the ace goes high, to position 14.
//! let meld = Meld::new(MeldId(1), Seat(0), &qka, None, &MeldRules::ROMMI_500).unwrap();
//! assert_eq!(meld.ends(), Some((12, 14)));
//! ```
//!
//! A deck is shuffled by a seeded generator, the same on every machine:
//!
//! ```
//! use romirami_rummy::{DeckSpec, RummyRng};
//!
//! let deck = DeckSpec::DOUBLE.shuffled(&mut RummyRng::from_seed(7));
//! assert_eq!(deck.len(), 108);
//! assert_eq!(deck, DeckSpec::DOUBLE.shuffled(&mut RummyRng::from_seed(7)));
//! ```
#![forbid(unsafe_code)]

pub mod cards;
pub mod melds;
pub mod rami;
pub mod record;
pub mod rommi;
pub mod rumino;
pub mod seat;
pub mod sim;
pub mod table_game;

pub use cards::{BadCode, Card, DeckSpec, Rank, RummyRng, Suit, below, parse_cards};
pub use melds::{Aces, JokerFor, Jokers, Meld, MeldError, MeldId, MeldKind, MeldRules, Placed, SetSuits, forms_group};
pub use record::{GameKind, RecordError, RecordMeta, RummyRecord, Verified};
pub use seat::{Better, MatchEnd, MatchResult, Seat, SetupError, Viewer, best_seats, places};
pub use table_game::{RamiTableOptions, RommiTableOptions, RuminoTableOptions};
