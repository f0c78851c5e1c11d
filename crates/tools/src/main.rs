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

/// mimalloc 3's `mi_option_purge_delay` (its `include/mimalloc.h`), which libmimalloc-sys does not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Memory freed goes back to the system at once. mimalloc's default waits a second, then gives it back only
/// when the thread that freed it allocates again: the hashing threads, idle after a burst of sign-ins, kept
/// their blocks (docs/reliability.md, "Memory under sign-in bursts"). `MIMALLOC_PURGE_DELAY` set in the
/// environment (in milliseconds) wins, to compare.
#[allow(unsafe_code)]
fn give_freed_memory_back() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's integer options, from the main thread before any other thread
        // exists; every value is valid for it.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}

fn main() -> ExitCode {
    give_freed_memory_back();
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

#[cfg(test)]
mod tests {
    /// The option set at start is the purge delay: mimalloc 3's default for it is a second.
    #[test]
    #[allow(unsafe_code)]
    fn the_option_set_at_start_is_mimallocs_purge_delay() {
        // SAFETY: reads one of mimalloc's integer options.
        let delay = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(delay, 1000, "mimalloc's purge delay option, in milliseconds");
        }
    }
}
