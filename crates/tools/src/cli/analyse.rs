//! `romirami analyse`: the analysis of finished games' records (docs/analysis.md), as the server makes it
//! for `GET /api/games/{id}/analysis`, from the command line: each seat's decisions judged by the strong
//! bot from the seat's view, counted per record and seat. With `--stability` every analysis is made a
//! second time with another seed, and the share of decisions whose class both agree on is reported: how
//! far one analysis can be trusted.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use romirami_game::{Analysis, AnalysisSettings, Games, Seat};
use serde::Serialize;

use super::verify::record_files;

/// The arguments of `romirami analyse`.
#[derive(Clone, Debug, clap::Args)]
pub struct AnalyseArgs {
    /// Record files, or directories whose `*.json` files are analysed (not recursively), in name order.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The seat to analyse; every seat when omitted.
    #[arg(long)]
    pub seat: Option<u8>,
    /// Playouts per decision (the server's default when omitted).
    #[arg(long, default_value_t = romirami_server::config::Config::default().analysis_playouts)]
    pub playouts: u32,
    /// The seed of the worlds drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Analyse everything a second time with another seed, and report how often both agree on a
    /// decision's class.
    #[arg(long)]
    pub stability: bool,
    /// Analyses made at once, each on a thread of its own.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Writes every analysis (and its second, with `--stability`) to this file as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// One record's seat, analysed (twice with `--stability`).
#[derive(Debug, Serialize)]
struct Analysed {
    file: String,
    analysis: Analysis,
    #[serde(skip_serializing_if = "Option::is_none")]
    again: Option<Analysis>,
    seconds: f64,
}

/// The name of the game a record is of, by its format.
fn game_of(record: &serde_json::Value) -> anyhow::Result<String> {
    match record["format"].as_str() {
        Some("romirami-record/1") => Ok(romirami_protocol::ROMI_RAMI.to_owned()),
        Some("rummy-record/1") => record["game"].as_str().map(str::to_owned).context("a rummy record names its game"),
        other => bail!("not a record of a known format: {other:?}"),
    }
}

/// Runs `romirami analyse`, writing a line per record and seat, then the totals, to `out`.
///
/// # Errors
/// A file that cannot be read or is not a record that replays; an output that cannot be written.
pub fn run(args: &AnalyseArgs, games: &Games, out: &mut impl Write) -> anyhow::Result<()> {
    let mut jobs = Vec::new();
    for path in &args.paths {
        for file in record_files(path).with_context(|| format!("reading {}", path.display()))? {
            let text = fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let value: serde_json::Value = serde_json::from_str(&text).with_context(|| file.display().to_string())?;
            let name = game_of(&value).with_context(|| file.display().to_string())?;
            let players = value["players"].as_array().map_or(0, Vec::len);
            let seats: Vec<u8> = match args.seat {
                Some(seat) => vec![seat],
                None => (0..u8::try_from(players).unwrap_or(0)).collect(),
            };
            let text = std::sync::Arc::new(text);
            for seat in seats {
                jobs.push((file.display().to_string(), name.clone(), text.clone(), Seat(seat)));
            }
        }
    }
    let next = Mutex::new(0usize);
    let done: Mutex<Vec<(usize, anyhow::Result<Analysed>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut next = next.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        *next += 1;
                        *next - 1
                    };
                    let Some((file, name, text, seat)) = jobs.get(i) else { break };
                    let result = analyse(args, games, file, name, text, *seat);
                    done.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((i, result));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_by_key(|(i, _)| *i);
    let mut all = Vec::new();
    for (_, result) in done {
        all.push(result?);
    }
    let (mut decisions, mut agree) = (0usize, 0usize);
    for a in &all {
        let s = &a.analysis.summary;
        write!(
            out,
            "{} seat {}: {} decisions, {} inaccuracies, {} mistakes, {} blunders, {} {} lost ({:.1} s)",
            a.file,
            a.analysis.seat.0,
            s.decisions,
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            s.points_lost,
            a.analysis.unit,
            a.seconds
        )?;
        if let Some(again) = &a.again {
            let same = a.analysis.decisions.iter().zip(&again.decisions).filter(|(x, y)| x.class == y.class).count();
            decisions += a.analysis.decisions.len();
            agree += same;
            write!(out, "; the second analysis agrees on {same} of {}", a.analysis.decisions.len())?;
        }
        writeln!(out)?;
    }
    if args.stability && decisions > 0 {
        let share = agree as f64 / decisions as f64;
        let (low, high) = crate::duel::wilson(agree as f64, decisions as f64);
        writeln!(
            out,
            "stability: two analyses with different seeds agree on the class of {agree} of {decisions} decisions: \
             {:.1}% (95% Wilson interval {:.1}–{:.1}%), {} playouts per decision",
            100.0 * share,
            100.0 * low,
            100.0 * high,
            args.playouts
        )?;
    }
    if let Some(path) = &args.json {
        fs::write(path, serde_json::to_string_pretty(&all)?).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn analyse(
    args: &AnalyseArgs,
    games: &Games,
    file: &str,
    name: &str,
    text: &str,
    seat: Seat,
) -> anyhow::Result<Analysed> {
    let kind = games.get(name).with_context(|| format!("{file}: this binary does not know the game {name}"))?;
    let started = Instant::now();
    let once = |seed: u64| {
        let settings = AnalysisSettings { playouts: args.playouts.max(1), seed };
        kind.analyse(text, seat, &settings, &mut |_, _| {}).map_err(|e| anyhow::anyhow!("{file}: {e}"))
    };
    let analysis = once(args.seed)?;
    let again = if args.stability { Some(once(args.seed ^ 0x5eed_5eed_5eed_5eed)?) } else { None };
    Ok(Analysed { file: file.to_owned(), analysis, again, seconds: started.elapsed().as_secs_f64() })
}
