//! `romirami simulate --game rommi|rami|rumino`: plays complete rummy matches with the games' bots
//! ([`romirami_rummy::sim::play`]) and writes each as a `rummy-record/1` file.
//!
//! As for Romi Rami, everything about match `i` comes from the run's seed and `i` ([`GamePlan::new`]):
//! the engine's seed, the bots' seed and the record id, and, unless given, the player count (within the
//! game's range) and the options (a random table choice). Every record is replayed before it is written,
//! and the summary adds up what the replays found (deep takes, empty-stock ends, openings, gins, …).

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::ProgressBar;
use romirami_rummy::record::{GameKind, RecordMeta, RummyRecord};
use romirami_rummy::seat::MatchEnd;
use romirami_rummy::{RummyRng, sim};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::simulate::{GamePlan, SimulateArgs, file_name};

/// Bot actions after which a match is abandoned: far more than a bot match takes (a few hundred to a few
/// thousand), so it only stops a table that takes from the discard pile forever (rommi §8).
const ACTION_LIMIT: usize = 50_000;

/// What a rummy run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RummySummary {
    /// The game.
    pub game: GameKind,
    /// Matches played and written.
    pub games: u64,
    /// Matches per player count.
    pub by_players: BTreeMap<usize, u64>,
    /// Matches abandoned at the action limit.
    pub abandoned: u64,
    /// Bot actions, over all matches.
    pub actions: u64,
    /// The features the replays counted, summed over the matches.
    pub features: BTreeMap<&'static str, u64>,
    /// Wall-clock time of the run, writing included.
    pub elapsed: Duration,
    /// Where the records are.
    pub out: PathBuf,
}

impl fmt::Display for RummySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        let players: Vec<String> = self.by_players.iter().map(|(p, n)| format!("{p}p {n}")).collect();
        writeln!(
            f,
            "simulated {} {} matches ({}), {} abandoned, {} actions in {seconds:.2} s, {:.0} matches/s; records in {}",
            self.games,
            self.game,
            players.join(", "),
            self.abandoned,
            self.actions,
            self.games as f64 / seconds.max(1e-9),
            self.out.display()
        )?;
        let features: Vec<String> = self.features.iter().map(|(k, n)| format!("{k} {n}")).collect();
        write!(f, "features: {}", features.join(", "))
    }
}

/// The player count and options of match `plan` of a `game` run: those given, or drawn from the plan's
/// seeds (a player count in the game's range, evenly; a random table choice of options).
pub fn table_of(
    game: GameKind,
    plan: &GamePlan,
    players: Option<usize>,
    options: Option<&serde_json::Value>,
) -> (usize, serde_json::Value) {
    let range = sim::players(game);
    let span = (range.end() - range.start() + 1) as u64;
    // The player seed drives the bots; a second generator keyed by it draws the table, so that fixing the
    // players or the options changes nothing else.
    let mut rng = RummyRng::from_seed(plan.player_seed ^ 0x7461_626c_6521);
    let drawn = range.start() + (rng.next_u64() % span) as usize;
    let random = sim::random_options(game, &mut rng);
    (players.unwrap_or(drawn), options.cloned().unwrap_or(random))
}

/// Plays the run `args` describes for the rummy game `game` and writes every record into `args.out`.
///
/// # Errors
/// Options that are not JSON, a player count or options the game refuses, a directory or file that
/// cannot be written, or a match the engine could not play (an engine bug).
pub fn run(game: GameKind, args: &SimulateArgs, progress: &ProgressBar) -> anyhow::Result<RummySummary> {
    let start = Instant::now();
    let options: Option<serde_json::Value> =
        args.options.as_deref().map(serde_json::from_str).transpose().context("--options is not JSON")?;
    let players = args.players.map(usize::from);
    if let Some(p) = players.filter(|p| !sim::players(game).contains(p)) {
        let range = sim::players(game);
        bail!("{game} is for {} to {} players, not {p}", range.start(), range.end());
    }
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut summary = RummySummary {
        game,
        games: 0,
        by_players: BTreeMap::new(),
        abandoned: 0,
        actions: 0,
        features: BTreeMap::new(),
        elapsed: Duration::ZERO,
        out: args.out.clone(),
    };
    for index in 0..args.games {
        let plan = GamePlan::new(args.seed, index, None);
        let (players, options) = table_of(game, &plan, players, options.as_ref());
        let meta = RecordMeta {
            id: plan.id.to_string(),
            started_at: now()?,
            finished_at: String::new(),
            names: (0..players).map(|seat| format!("bot {seat}")).collect(),
            shuffle: None,
        };
        let meta = RecordMeta { finished_at: meta.started_at.clone(), ..meta };
        let played = sim::play(game, players, &options, plan.game_seed, plan.player_seed, meta, ACTION_LIMIT)
            .with_context(|| format!("match {index} (options {options})"))?;
        let mut record = played.record;
        record.finished_at = now()?;
        write_record(&args.out.join(file_name(args.seed, index)), &record)?;
        summary.games += 1;
        *summary.by_players.entry(players).or_default() += 1;
        summary.abandoned += u64::from(played.verified.result.ended_by == MatchEnd::Abandoned);
        summary.actions += played.actions as u64;
        for (feature, n) in played.verified.tally {
            *summary.features.entry(feature).or_default() += n;
        }
        progress.inc(1);
    }
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// The wall clock as the record writes times: RFC 3339 UTC with a `Z`.
fn now() -> anyhow::Result<String> {
    OffsetDateTime::now_utc().format(&Rfc3339).context("formatting the time")
}

fn write_record(path: &std::path::Path, record: &RummyRecord) -> anyhow::Result<()> {
    let mut json = serde_json::to_vec(record).context("serializing a record")?;
    json.push(b'\n');
    fs::write(path, json).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: PathBuf, games: u64, players: Option<u8>, options: Option<&str>) -> SimulateArgs {
        SimulateArgs { games, seed: 7, out, players, game: None, options: options.map(str::to_owned) }
    }

    #[test]
    fn each_game_writes_records_that_verify() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        for game in GameKind::ALL {
            let out = dir.path().join(game.name());
            let summary = run(game, &args(out.clone(), 3, None, None), &ProgressBar::hidden())?;
            assert_eq!(summary.games, 3);
            assert!(summary.to_string().contains(&format!("simulated 3 {game} matches")), "{summary}");
            for entry in fs::read_dir(&out)? {
                let json = fs::read_to_string(entry?.path())?;
                let record = romirami_rummy::record::parse(&json)?;
                assert_eq!(record.game, game);
                romirami_rummy::record::verify(&record)?;
            }
        }
        Ok(())
    }

    #[test]
    fn given_players_and_options_are_used_and_checked() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let out = dir.path().to_path_buf();
        let given = args(out.clone(), 2, Some(4), Some(r#"{"variant":"500","meld_restriction":true}"#));
        let summary = run(GameKind::Rommi, &given, &ProgressBar::hidden())?;
        assert_eq!(summary.by_players, BTreeMap::from([(4, 2)]));
        assert_eq!(summary.features.get("matches_meld_hand"), Some(&2));
        let record = romirami_rummy::record::parse(&fs::read_to_string(out.join(file_name(7, 0)))?)?;
        assert_eq!(record.options["meld_restriction"], serde_json::json!(true));
        assert!(run(GameKind::Rommi, &args(out.clone(), 1, Some(5), None), &ProgressBar::hidden()).is_err());
        assert!(
            run(GameKind::Rumino, &args(out.clone(), 1, Some(6), Some("{\"max_rebuys\":0}")), &ProgressBar::hidden())
                .is_ok()
        );
        assert!(run(GameKind::Rami, &args(out.clone(), 1, None, Some("{oops")), &ProgressBar::hidden()).is_err());
        assert!(run(GameKind::Rami, &args(out, 1, None, Some(r#"{"opening":40}"#)), &ProgressBar::hidden()).is_err());
        Ok(())
    }
}
