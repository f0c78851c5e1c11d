//! `romirami simulate --game NAME` for a game of the registry that has no simulator of its own, and
//! `romirami verify --game NAME`: they know a game only through the registry (`romirami_server::games()`
//! for the command line, or the registry a caller gives), as the server does: a match is played by the
//! game's own bot in every seat through the erased game ([`romirami_game::AnyGame`]), its record is
//! replayed by the game before it is written, and a record is checked by the game's own replay.
//!
//! As for the built-in simulators, everything about match `i` comes from the run's seed and `i`
//! ([`GamePlan::new`]): the game's seed, the record id and, unless given, the player count.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use indicatif::ProgressBar;
use romirami_game::{GameKind, Games, RecordMeta};
use time::OffsetDateTime;

use super::simulate::{GamePlan, SimulateArgs, file_name};

/// Bot actions after which a match is given up as endless: far more than any game's match takes.
pub(crate) const ACTION_LIMIT: usize = 50_000;

/// The game called `name` in `games`, or an error that lists the games there are.
///
/// # Errors
/// When `games` holds no game of that name.
pub fn game<'a>(games: &'a Games, name: &str) -> anyhow::Result<&'a dyn GameKind> {
    games.get(name).map(|kind| kind.as_ref()).ok_or_else(|| {
        let names: Vec<&str> = games.names().collect();
        anyhow!("no game called {name} (the games are {})", names.join(", "))
    })
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnySummary {
    /// The game's name.
    pub game: &'static str,
    /// Matches played and written.
    pub games: u64,
    /// Matches per player count.
    pub by_players: BTreeMap<usize, u64>,
    /// Bot actions, over all matches.
    pub actions: u64,
    /// Wall-clock time of the run, writing included.
    pub elapsed: Duration,
    /// Where the records are.
    pub out: PathBuf,
}

impl fmt::Display for AnySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        let players: Vec<String> = self.by_players.iter().map(|(p, n)| format!("{p}p {n}")).collect();
        write!(
            f,
            "simulated {} {} matches ({}), {} actions in {seconds:.2} s; records in {}",
            self.games,
            self.game,
            players.join(", "),
            self.actions,
            self.out.display()
        )
    }
}

/// Plays one match of `kind` between its bots and gives its record (as the game wrote it) and how many
/// actions were played; the record is replayed by the game before it is given.
///
/// # Errors
/// Options or a player count the game refuses, a bot action the game refuses, a match longer than
/// 50,000 actions, or a record that does not replay: all but the first are bugs of the game.
pub fn play(
    kind: &dyn GameKind,
    players: usize,
    options: Option<&serde_json::Value>,
    seed: u64,
    meta: RecordMeta,
) -> anyhow::Result<(String, usize)> {
    let options = kind.options(options, players).map_err(|e| anyhow!(e))?;
    let mut game = kind.new_game(players, seed, &options).map_err(|e| anyhow!(e))?;
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        if actions == ACTION_LIMIT {
            bail!("{}: no end after {ACTION_LIMIT} bot actions", kind.name());
        }
        let action = game.bot(seat).ok_or_else(|| anyhow!("{}: the bot has no action for {seat}", kind.name()))?;
        game.apply(seat, action.text().get())
            .map_err(|refusal| anyhow!("{}: the bot's {action:?} was refused: {refusal:?}", kind.name()))?;
        actions += 1;
    }
    let record = game.record(meta).map_err(|e| anyhow!(e))?;
    kind.replay(record.get()).map_err(|e| anyhow!("{}: the record written does not replay: {e}", kind.name()))?;
    Ok((record.get().to_owned(), actions))
}

/// Plays the run `args` describes for the game `name` of `games` and writes every record into
/// `args.out`, advancing `progress` once per match.
///
/// # Errors
/// An unknown game, options that are not JSON, a player count or options the game refuses, a file that
/// cannot be written, or a match that fails ([`play`]).
pub fn simulate(games: &Games, name: &str, args: &SimulateArgs, progress: &ProgressBar) -> anyhow::Result<AnySummary> {
    let start = Instant::now();
    let kind = game(games, name)?;
    let options: Option<serde_json::Value> =
        args.options.as_deref().map(serde_json::from_str).transpose().context("--options is not JSON")?;
    let seats = kind.seats();
    if let Some(p) = args.players.map(usize::from).filter(|p| !seats.contains(p)) {
        bail!("{name} is for {} to {} players, not {p}", seats.start(), seats.end());
    }
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut summary = AnySummary {
        game: kind.name(),
        games: 0,
        by_players: BTreeMap::new(),
        actions: 0,
        elapsed: Duration::ZERO,
        out: args.out.clone(),
    };
    let span = (seats.end() - seats.start() + 1) as u64;
    for index in 0..args.games {
        let plan = GamePlan::new(args.seed, index, None);
        // The player seed draws the count: the game's own bot needs no seed.
        let players = args.players.map_or(seats.start() + (plan.player_seed % span) as usize, usize::from);
        let now = OffsetDateTime::now_utc();
        let meta = RecordMeta {
            id: plan.id,
            started_at: now,
            finished_at: now,
            names: (0..players).map(|seat| format!("bot {seat}")).collect(),
            shuffle: None,
        };
        let (record, actions) =
            play(kind, players, options.as_ref(), plan.game_seed, meta).with_context(|| format!("match {index}"))?;
        let path = args.out.join(file_name(args.seed, index));
        fs::write(&path, record + "\n").with_context(|| format!("writing {}", path.display()))?;
        summary.games += 1;
        *summary.by_players.entry(players).or_default() += 1;
        summary.actions += actions as u64;
        progress.inc(1);
    }
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// Replays the record in the file at `path` as a record of `kind`.
///
/// # Errors
/// A sentence: the file cannot be read, or the game's replay refuses the record.
pub fn verify_file(kind: &dyn GameKind, path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    kind.replay(&text).map(|_| ()).map_err(|e| format!("not a valid {} record: {e}", kind.name()))
}
