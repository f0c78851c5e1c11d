//! `romirami simulate`: plays complete games with uniformly random legal actions
//! ([`RandomPlayer`]) and writes each one as a `romirami-record/1` file.
//!
//! Everything about game `i` of a run comes from the run's seed and `i` alone ([`GamePlan::new`]): its
//! player count (unless `--players` fixes it), the engine's seed, the random player's seed and the
//! record id. So a run repeats exactly (the same files, byte for byte, but for `started_at` and
//! `finished_at`, which are the wall clock) and any one game can be played again without the others.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use romirami_engine::{Game, RandomPlayer, Record, RecordMeta};
use time::OffsetDateTime;
use uuid::Uuid;

/// The arguments of `romirami simulate`.
#[derive(Clone, Debug, clap::Args)]
pub struct SimulateArgs {
    /// How many games to play (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// The seed of the run: each game's deal, moves and record id derive from it and the game's index.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// The directory to write the records into, one file per game; created if missing.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Players at every table: 2 to 4 for Romi Rami and Rommi, to 5 for Rami, to 6 for Rumino. When
    /// omitted, each game's count is drawn from the seed.
    #[arg(long, value_name = "2..6", value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// The game to play, by its name in the registry: `romi-rami` (the default, random legal moves,
    /// records in `romirami-record/1`), `rommi`, `rami` or `rumino` (their bots, records in
    /// `rummy-record/1`), or any other game the server seats (its own bot, its own records).
    #[arg(long, value_name = "NAME")]
    pub game: Option<String>,
    /// The game's table options as JSON, any subset (the rest take their defaults); when omitted, a
    /// rummy game's options are a random table choice drawn from the seed, another game's its defaults.
    #[arg(long, value_name = "JSON", requires = "game")]
    pub options: Option<String>,
}

/// What one game of a run is, derived from the run's seed and the game's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlan {
    /// The game's position in the run, from 0.
    pub index: u64,
    /// How many players, 2 to 4.
    pub players: usize,
    /// The seed of the engine's generator ([`Game::new`]): the deal and every reshuffle.
    pub game_seed: u64,
    /// The seed of the [`RandomPlayer`] that chooses every seat's moves.
    pub player_seed: u64,
    /// The record's id.
    pub id: Uuid,
}

/// The last 16 bytes of the key of a plan's generator, so that its stream differs from the engine's
/// own `GameRng::from_seed(seed)` (whose key ends in zeros).
const PLAN_DOMAIN: &[u8; 16] = b"romirami:simulat";

impl GamePlan {
    /// The plan of game `index` of the run seeded with `seed`; `players` fixes the player count,
    /// otherwise it is drawn (2, 3 or 4, evenly).
    ///
    /// The draws come from a ChaCha8 stream keyed by the seed, the index and a fixed domain tag, in a
    /// fixed order: the game seed, the player seed, the player count, the 16 bytes of the id. The count
    /// is drawn even when `players` is given, so the other values do not depend on it. Changing any of
    /// this changes every simulated game: treat it as a breaking change.
    pub fn new(seed: u64, index: u64, players: Option<usize>) -> GamePlan {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&index.to_le_bytes());
        key[16..].copy_from_slice(PLAN_DOMAIN);
        let mut rng = ChaCha8Rng::from_seed(key);
        let game_seed = rng.next_u64();
        let player_seed = rng.next_u64();
        // The bias of `% 3` on 64 random bits is about 1e-19: invisible in any run.
        let drawn_players = 2 + (rng.next_u64() % 3) as usize;
        let mut id = [0u8; 16];
        rng.fill_bytes(&mut id);
        GamePlan {
            index,
            players: players.unwrap_or(drawn_players),
            game_seed,
            player_seed,
            // A version-4 id like the server's, but from seeded bytes, so a re-run gives the same ids.
            id: uuid::Builder::from_random_bytes(id).into_uuid(),
        }
    }
}

/// A finished simulated game.
#[derive(Clone, Debug)]
pub struct Simulated {
    /// The `romirami-record/1` document written for the game.
    pub record: Record,
    /// How many actions were applied to play it.
    pub actions: usize,
}

/// Plays the game `plan` describes to its end with random legal actions, and exports its record.
/// Seat `n` is named `random n`; the timestamps are the wall clock around the game.
///
/// # Errors
/// When the engine refuses the plan or stops before the game is over: both are engine bugs, since the
/// plan's player count is 2 to 4 and [`RandomPlayer`] only plays listed legal actions.
pub fn play(plan: &GamePlan) -> anyhow::Result<Simulated> {
    let started_at = OffsetDateTime::now_utc();
    let mut game = Game::new(plan.players, plan.game_seed).with_context(|| format!("game {}", plan.index))?;
    let actions = RandomPlayer::new(plan.player_seed).play_out(&mut game);
    if !game.is_over() {
        bail!(
            "game {} (game seed {}, player seed {}) stopped after {actions} actions before it was over: \
             a legal action was refused",
            plan.index,
            plan.game_seed,
            plan.player_seed
        );
    }
    let meta = RecordMeta {
        id: plan.id,
        started_at,
        finished_at: OffsetDateTime::now_utc(),
        names: (0..plan.players).map(|seat| format!("random {seat}")).collect(),
        shuffle: None,
    };
    let record = game.record(meta).with_context(|| format!("exporting game {}", plan.index))?;
    Ok(Simulated { record, actions })
}

/// The file name of game `index` of the run seeded with `seed`: `seed<S>-<index>.json`, the index
/// zero-padded to six digits so that name order is play order (up to a million games), and runs of
/// different seeds can share a directory.
pub fn file_name(seed: u64, index: u64) -> String {
    format!("seed{seed}-{index:06}.json")
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games played and written.
    pub games: u64,
    /// Games per player count: 2, 3 and 4 players.
    pub by_players: [u64; 3],
    /// Actions applied, over all games.
    pub actions: u64,
    /// Wall-clock time of the whole run, writing included.
    pub elapsed: Duration,
    /// Where the records are.
    pub out: PathBuf,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        let [two, three, four] = self.by_players;
        write!(
            f,
            "simulated {} games (2p {two}, 3p {three}, 4p {four}), {} actions in {seconds:.2} s, \
             {:.0} games/s; records in {}",
            self.games,
            self.actions,
            self.games as f64 / seconds.max(1e-9),
            self.out.display()
        )
    }
}

/// A progress bar for `games` games on standard error; it draws nothing when standard error is not a
/// terminal.
pub fn progress_bar(games: u64) -> ProgressBar {
    let style = ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} games, {elapsed} elapsed, ETA {eta}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr()).with_style(style)
}

/// Plays the run `args` describes and writes every record into `args.out`, advancing `progress` once
/// per game. Existing files of the same names are replaced.
///
/// # Errors
/// When the directory cannot be created, a record cannot be written, or a game fails ([`play`]).
pub fn run(args: &SimulateArgs, progress: &ProgressBar) -> anyhow::Result<Summary> {
    let start = Instant::now();
    if let Some(players) = args.players.filter(|&p| p > 4) {
        bail!("Romi Rami is for 2 to 4 players, not {players}");
    }
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut summary =
        Summary { games: 0, by_players: [0; 3], actions: 0, elapsed: Duration::ZERO, out: args.out.clone() };
    for index in 0..args.games {
        let plan = GamePlan::new(args.seed, index, args.players.map(usize::from));
        let game = play(&plan)?;
        write_record(&args.out.join(file_name(args.seed, index)), &game.record)?;
        summary.games += 1;
        summary.by_players[plan.players - 2] += 1;
        summary.actions += game.actions as u64;
        progress.inc(1);
    }
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// Writes `record` as one line of compact JSON.
fn write_record(path: &Path, record: &Record) -> anyhow::Result<()> {
    let mut json = serde_json::to_vec(record).context("serializing a record")?;
    json.push(b'\n');
    fs::write(path, json).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_depends_on_the_seed_and_the_index_only() {
        assert_eq!(GamePlan::new(1, 5, None), GamePlan::new(1, 5, None));
        assert_ne!(GamePlan::new(1, 5, None), GamePlan::new(1, 6, None));
        assert_ne!(GamePlan::new(1, 5, None), GamePlan::new(2, 5, None));
        let fixed = GamePlan::new(1, 5, Some(4));
        let drawn = GamePlan::new(1, 5, None);
        assert_eq!((fixed.game_seed, fixed.player_seed, fixed.id), (drawn.game_seed, drawn.player_seed, drawn.id));
        assert_eq!(fixed.players, 4);
    }

    #[test]
    fn plans_are_fixed_for_a_seed() {
        // If this changes, a seed no longer gives the games (and ids) it gave before.
        let plan = GamePlan::new(1, 0, None);
        assert_eq!(plan, GOLDEN_SEED_1_GAME_0);
        assert_eq!(plan.id.get_version_num(), 4);
    }

    const GOLDEN_SEED_1_GAME_0: GamePlan = GamePlan {
        index: 0,
        players: 2,
        game_seed: 6_773_150_444_668_274_908,
        player_seed: 18_052_105_892_525_109_448,
        id: Uuid::from_u128(0x7b583ef9_6643_4621_8c85_da56e2f6966d),
    };

    #[test]
    fn mixed_runs_have_every_player_count() {
        let mut seen = [0; 3];
        for index in 0..300 {
            seen[GamePlan::new(9, index, None).players - 2] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    }

    #[test]
    fn a_run_writes_one_verifiable_record_per_game() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let out = dir.path().join("new").join("records");
        let args = SimulateArgs { games: 4, seed: 3, out: out.clone(), players: Some(3), game: None, options: None };
        let summary = run(&args, &ProgressBar::hidden())?;
        assert_eq!((summary.games, summary.by_players), (4, [0, 4, 0]));
        assert!(summary.actions > 0);
        let mut names: Vec<String> = fs::read_dir(&out)?
            .map(|entry| Ok(entry?.file_name().to_string_lossy().into_owned()))
            .collect::<anyhow::Result<_>>()?;
        names.sort();
        assert_eq!(names, ["seed3-000000.json", "seed3-000001.json", "seed3-000002.json", "seed3-000003.json"]);
        for (index, name) in (0..).zip(&names) {
            let record: Record = serde_json::from_slice(&fs::read(out.join(name))?)?;
            assert_eq!(record.id, GamePlan::new(3, index, None).id);
            assert_eq!(record.players.len(), 3);
            record.verify()?;
        }
        assert!(summary.to_string().starts_with("simulated 4 games (2p 0, 3p 4, 4p 0), "));
        Ok(())
    }

    #[test]
    fn an_unwritable_directory_is_an_error() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let file = dir.path().join("a file");
        fs::write(&file, "")?;
        let args = SimulateArgs { games: 1, seed: 0, out: file, players: None, game: None, options: None };
        let err = run(&args, &ProgressBar::hidden()).expect_err("a file is not a directory");
        assert!(format!("{err:#}").contains("a file"), "{err:#}");
        Ok(())
    }
}
