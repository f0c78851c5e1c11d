//! `romirami`: the command line of Romi Rami Online. Run `romirami --help` for the commands.
//!
//! This file only parses the arguments and hands them to [`romirami_tools::cli::run`]; usage errors
//! exit with status 2 (clap's), failures with 1.

use std::process::ExitCode;

use clap::Parser;
use romirami_tools::cli::{self, Cli};

/// mimalloc rather than the system's allocator: glibc's keeps, and keeps growing, the large blocks that each
/// password check allocates and frees (argon2's 19 MiB), by its dynamic mmap threshold (docs/reliability.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(usage) = cli.validate() {
        usage.exit();
    }
    match cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // `{:#}` prints the whole chain of context, on one line.
            eprintln!("romirami: {err:#}");
            ExitCode::FAILURE
        }
    }
}
