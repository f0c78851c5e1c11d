//! The tools' integration tests, in one binary: the `romirami` command line as a user runs it, the load
//! generator, the crash harness on one node and on several. `common` holds what they share.

#[allow(dead_code, reason = "each test module uses a different part")]
mod common;

mod any_game;
mod cli;
mod crash_nodes;
mod load;
mod restart;
mod serve_and_bots;
mod tournament_bots;
