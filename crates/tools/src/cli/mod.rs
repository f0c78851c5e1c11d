//! The `romirami` command line (`serve`, `bots`, `load`, `simulate`, `verify`, `crash`, `duel`, `analyse`, `admin`): one module per
//! subcommand, each with its clap arguments and a `run` function that returns [`anyhow::Result`], so the
//! commands can be called and tested without the binary.
//!
//! Output conventions: results and per-item problems go to standard output, progress bars to standard
//! error. Exit status 0 means success, 1 a failure (or, for `verify`, an invalid record), 2 a usage
//! error (reported by clap before any command runs).

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

pub mod admin;
pub mod analyse;
pub mod any_game;
pub mod bots;
pub mod crash;
pub mod duel;
pub mod load;
pub mod rummy_simulate;
pub mod serve;
pub mod simulate;
pub mod sleepers;
mod tournament_bots;
pub mod verify;

/// The arguments of `romirami`.
#[derive(Debug, Parser)]
#[command(name = "romirami", version, about = "Romi Rami Online: the game server, its bots, and game-record tools.")]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Checks what clap's per-argument parsers cannot see: that the `--game` of `simulate` or `verify` is a
    /// game of the binary's registry (`romirami_server::games()`), and that `simulate --players` is in
    /// its range of seats. The error is a usage error (exit status 2), like clap's own.
    ///
    /// # Errors
    /// The usage error to print.
    pub fn validate(&self) -> Result<(), clap::Error> {
        let usage = |message: String| Err(Cli::command().error(ErrorKind::ValueValidation, message));
        let games = romirami_server::games();
        let (Command::Simulate(simulate::SimulateArgs { game, .. }) | Command::Verify(verify::VerifyArgs { game, .. })) =
            &self.command
        else {
            return Ok(());
        };
        let Some(kind) = game.as_deref().map_or(games.get(romirami_protocol::ROMI_RAMI), |name| games.get(name)) else {
            let names: Vec<&str> = games.names().collect();
            return usage(format!(
                "--game {}: no such game (the games are {})",
                game.as_deref().unwrap_or(""),
                names.join(", ")
            ));
        };
        let Command::Simulate(args) = &self.command else { return Ok(()) };
        let range = kind.seats();
        match args.players.map(usize::from) {
            Some(players) if !range.contains(&players) => usage(format!(
                "--players {players}: {} is for {} to {} players",
                kind.name(),
                range.start(),
                range.end()
            )),
            _ => Ok(()),
        }
    }
}

/// One variant per subcommand, holding its parsed arguments.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the game server until ctrl-c or SIGTERM.
    Serve(serve::ServeArgs),
    /// Play complete games on a running server with bot clients.
    Bots(bots::BotsArgs),
    /// Load a running server (play games, or hold idle connections), or measure the echo baseline or the
    /// store, and report connections, actions/s, latency and memory.
    Load(load::LoadArgs),
    /// Play complete games with random legal moves (Romi Rami) or bots (`--game` rommi, rami, rumino, or
    /// any game of the registry) and write one record file per game.
    Simulate(simulate::SimulateArgs),
    /// Replay record files through the rules and report every record that breaks one.
    Verify(verify::VerifyArgs),
    /// Play bot games on a server process that is killed (SIGKILL) at random moments and restarted,
    /// then check that every game finished and no acknowledged action was lost or doubled.
    Crash(crash::CrashArgs),
    /// Play the server's bot levels against each other on paired deals, and report each level's win
    /// share, points and decision times.
    Duel(duel::DuelArgs),
    /// Analyse finished games' records: each seat's decisions judged by the strong bot from the seat's
    /// view, as the server's `GET /api/games/{id}/analysis` does.
    Analyse(analyse::AnalyseArgs),
    /// Measure what turn-based tables cost while nobody is at them: open many on a running server, then
    /// let them sleep, and report its resident memory.
    Sleepers(sleepers::SleepersArgs),
    /// Name the players who may moderate (`grant NAME`, `revoke NAME`), on the server's database.
    Admin(admin::AdminArgs),
}

/// Runs the command `cli` names, writing its results to standard output.
///
/// Returns the process's exit status: [`ExitCode::SUCCESS`], or [`ExitCode::FAILURE`] when `verify`
/// found an invalid record (or none at all).
///
/// # Errors
/// What stopped the command: for `simulate`, a directory or file it could not write, or a game the
/// engine could not finish; for `verify`, standard output that could not be written.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    run_with(cli, &romirami_server::games())
}

/// Runs the command `cli` names as [`run`] does, with `games` as the registry of games that `simulate`
/// and `verify --game` know (the binary's is `romirami_server::games()`; a test adds a game of its own).
///
/// # Errors
/// As [`run`].
pub fn run_with(cli: Cli, games: &romirami_game::Games) -> anyhow::Result<ExitCode> {
    let mut stdout = io::stdout().lock();
    match cli.command {
        Command::Analyse(args) => {
            analyse::run(&args, games, &mut stdout)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve(args) => {
            serve::run_serve(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Admin(args) => {
            admin::run_admin(&args, &mut stdout)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Sleepers(args) => {
            sleepers::run_sleepers(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bots(args) => {
            bots::run_bots(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Load(args) => {
            load::run_load(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate(args) => {
            let progress = simulate::progress_bar(args.games);
            // Romi Rami and the rummy family have simulators of their own (random legal moves; the
            // family's bots with the features their replays count); any other game plays its own bot.
            let summary = match args.game.as_deref() {
                None | Some(romirami_protocol::ROMI_RAMI) => simulate::run(&args, &progress)?.to_string(),
                Some(name) => match name.parse::<romirami_rummy::record::GameKind>() {
                    Ok(rummy) => rummy_simulate::run(rummy, &args, &progress)?.to_string(),
                    Err(_) => any_game::simulate(games, name, &args, &progress)?.to_string(),
                },
            };
            progress.finish_and_clear();
            writeln!(stdout, "{summary}")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Duel(args) => {
            let report = duel::run_duel(&args)?;
            write!(stdout, "{report}")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Crash(args) => {
            let report = crash::run_crash(&args)?;
            writeln!(stdout, "{report}")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify(args) => {
            let report = verify::run(&args, games, &mut stdout)?;
            Ok(if report.all_valid() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn arguments_are_validated_before_anything_runs() {
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("romirami").chain(args.iter().copied())).and_then(|cli| cli.validate())
        };
        assert!(parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x"]).is_ok());
        assert!(parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--players", "4"]).is_ok());
        assert!(parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--players", "7"]).is_err());
        assert!(parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--players", "5"]).is_err());
        assert!(
            parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--game", "rami", "--players", "5"])
                .is_ok()
        );
        assert!(
            parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--game", "rommi", "--players", "5"])
                .is_err()
        );
        assert!(
            parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--game", "rumino", "--players", "6"])
                .is_ok()
        );
        assert!(parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--game", "poker"]).is_err());
        assert!(
            parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--options", "{}"]).is_err(),
            "options need a game"
        );
        assert!(
            parse(&["simulate", "--games", "1", "--seed", "1", "--out", "x", "--game", "rommi", "--options", "{}"])
                .is_ok()
        );
        assert!(parse(&["simulate", "--games", "3", "--seed", "1", "--out", "x", "--players", "1"]).is_err());
        assert!(parse(&["simulate", "--games", "0", "--seed", "1", "--out", "x"]).is_err());
        assert!(parse(&["simulate", "--games", "3", "--seed", "1"]).is_err(), "--out is required");
        assert!(parse(&["verify"]).is_err(), "verify needs a path");
        assert!(parse(&["verify", "a.json", "records"]).is_ok());
    }
}
