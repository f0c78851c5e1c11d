//! `romirami`: the command line of Romi Rami Online. Run `romirami --help` for the commands.
//!
//! This file only parses the arguments and hands them to [`romirami_tools::cli::run`]; usage errors
//! exit with status 2 (clap's), failures with 1.

use std::process::ExitCode;

use clap::Parser;
use romirami_tools::cli::{self, Cli};

fn main() -> ExitCode {
    match cli::run(Cli::parse()) {
        Ok(code) => code,
        Err(err) => {
            // `{:#}` prints the whole chain of context, on one line.
            eprintln!("romirami: {err:#}");
            ExitCode::FAILURE
        }
    }
}
