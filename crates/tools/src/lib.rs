//! The tools around the Romi Rami Online server, and its command line `romirami`:
//! - [`cli`]: the subcommands (`serve`, `bots`, `load`, `simulate`, `verify`, `crash`); `serve` wires
//!   the library `romirami-server` to a listener, a database and the process's signals;
//! - [`load`]: the load generator (bot games, idle connections, the echo baseline, the store alone);
//! - [`crash`]: the crash harness (SIGKILL at random moments, then checks that nothing was lost).
//!
//! The bots and the protocol client they use are the crate `romirami-client`. None of this is linked
//! into the server's library: the server knows nothing of its tools.
#![forbid(unsafe_code)]

pub mod cli;
pub mod crash;
pub mod load;
