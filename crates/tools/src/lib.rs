//! The tools around the Romi Rami Online server, and its command line `romirami`:
//! - [`cli`]: the subcommands (`serve`, `bots`, `load`, `simulate`, `verify`, `crash`); `serve` wires
//!   the library `romirami-server` to a listener, a database and the process's signals;
//! - [`load`]: the load generator (bot games, idle connections, the echo baseline, the store alone);
//! - [`crash`]: the crash harness (SIGKILL at random moments, then checks that nothing was lost);
//! - [`duel`]: the server's bot levels against each other, on paired deals.
//!
//! The bots and the protocol client they use are the crate `romirami-client`. None of this is linked
//! into the server's library: the server knows nothing of its tools.
//!
//! The commands run without the binary: `simulate` writes records that `verify` accepts.
//!
//! ```
//! use clap::Parser;
//! use romirami_tools::cli::{self, Cli};
//!
//! let dir = tempfile::tempdir()?;
//! let out = dir.path().to_str().expect("a UTF-8 path");
//! let simulate = Cli::try_parse_from(["romirami", "simulate", "--games", "2", "--seed", "7", "--out", out])?;
//! assert_eq!(cli::run(simulate)?, std::process::ExitCode::SUCCESS);
//! let verify = Cli::try_parse_from(["romirami", "verify", out])?;
//! assert_eq!(cli::run(verify)?, std::process::ExitCode::SUCCESS);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod cli;
pub mod crash;
pub mod duel;
pub mod load;
