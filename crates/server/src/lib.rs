//! The Romi Rami Online server and its command line, `romirami`.
//!
//! The rules live in [`romirami_engine`]; this crate is everything around them. Today that is the
//! command line ([`cli`]): `simulate` plays random games and writes their records, `verify` replays
//! records through the rules. The authoritative game server (axum) joins it here later, as a library
//! that the `romirami` binary only wires up.
//!
//! The commands are plain functions, so they run without the binary:
//!
//! ```
//! use romirami_server::cli::simulate::GamePlan;
//!
//! // Game 3 of a run with seed 1 is the same game whenever it is played.
//! let plan = GamePlan::new(1, 3, Some(2));
//! let first = romirami_server::cli::simulate::play(&plan)?;
//! let again = romirami_server::cli::simulate::play(&plan)?;
//! assert_eq!(first.record.log, again.record.log);
//! assert_eq!(first.record.id, again.record.id);
//! first.record.verify()?;
//! # Ok::<(), anyhow::Error>(())
//! ```
#![forbid(unsafe_code)]

pub mod cli;
