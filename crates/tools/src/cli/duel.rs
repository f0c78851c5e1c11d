//! `romirami duel`: the server's bot levels against each other, with paired deals ([`crate::duel`]).

use std::fs;
use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args;
use romirami_game::Level;

use crate::duel::{DuelOptions, DuelReport, run};

/// The arguments of `romirami duel`.
#[derive(Debug, Args)]
pub struct DuelArgs {
    /// The game, by its name: romi-rami, rommi, rami or rumino.
    #[arg(long)]
    pub game: String,
    /// How many seats; the levels of `--seats` fill them.
    #[arg(long)]
    pub players: usize,
    /// The level of each seat, in order: easy, normal or strong (e.g. `strong,normal`). Each deal is played
    /// once for each rotation of this list.
    #[arg(long, value_delimiter = ',', value_parser = parse_level)]
    pub seats: Vec<Level>,
    /// How many deals; each is played once per rotation of the seats (`--players` games).
    #[arg(long, default_value_t = 100)]
    pub matches: u64,
    /// Seeds the deals and the bots' decisions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The strong bot's playouts per decision (the game's own number when left out: 400 in every game).
    #[arg(long)]
    pub playouts: Option<u32>,
    /// The game's table options as JSON (the rule book's defaults when left out).
    #[arg(long)]
    pub options: Option<String>,
    /// Writes each game's record into this folder (`romirami verify` checks them).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Writes the figures as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Prints no line of the figures so far (by default one every twentieth of the run, on standard error).
    #[arg(long)]
    pub quiet: bool,
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::from_name(text).ok_or_else(|| format!("{text}: a level is easy, normal or strong"))
}

/// Runs the duel `args` describe; writes the JSON figures when asked.
///
/// # Errors
/// A seat list that does not fill `--players` seats, options that are not JSON, or what [`run`] refuses.
pub fn run_duel(args: &DuelArgs) -> anyhow::Result<DuelReport> {
    if args.seats.len() != args.players {
        return Err(anyhow!("--seats names {} levels for --players {}", args.seats.len(), args.players));
    }
    let options = args.options.as_deref().map(serde_json::from_str).transpose().context("--options is not JSON")?;
    let report = run(&DuelOptions {
        game: args.game.clone(),
        seats: args.seats.clone(),
        options,
        matches: args.matches,
        seed: args.seed,
        playouts: args.playouts,
        threads: args.threads,
        out: args.out.clone(),
        progress: !args.quiet,
    })?;
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(report)
}
