//! `romirami verify`: replays record files through the rules and reports each one that cannot be read,
//! is not a record, or breaks a rule. Both formats are accepted, told apart by their `format`:
//! `romirami-record/1` ([`Record::verify`]) and the rummy games' `rummy-record/1`
//! ([`romirami_rummy::record::verify`]); for the latter the summary also counts, per game, the features
//! the replays found (deep takes, openings, gins, …).
//!
//! A record is checked in two stages, as everything that comes in from outside: first parsed into the
//! plain [`Record`] type (a wrong shape, an unknown card code or a missing field is *malformed*), then
//! replayed from its deal (a move that breaks a rule or a result that does not match is *illegal*).

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use romirami_engine::{Record, ReplayError};
use romirami_game::Games;
use romirami_rummy::record::{self as rummy, GameKind, RecordError, Verified};

/// The arguments of `romirami verify`.
#[derive(Clone, Debug, clap::Args)]
#[command(after_help = "Exit status: 0 when every record is valid; 1 when one is not, or when no record was found.")]
pub struct VerifyArgs {
    /// Record files, or directories whose `*.json` files are checked (not recursively), in name order.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Replay every record as a record of this game of the registry, by the game's own replay (for a
    /// game whose records are in neither built-in format); without it, the format a record names says.
    #[arg(long, value_name = "NAME")]
    pub game: Option<String>,
}

/// Why a record file is not a valid record.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    /// The file (or the directory that should hold records) cannot be read.
    #[error("cannot read: {0}")]
    Unreadable(#[from] io::Error),
    /// The file is not a `romirami-record/1` JSON document.
    #[error("malformed record: {0}")]
    Malformed(#[from] serde_json::Error),
    /// The record breaks a rule of the game or of the format.
    #[error("{0}")]
    Illegal(#[from] ReplayError),
    /// A `rummy-record/1` document that is malformed or breaks a rule of its game (its `Display` says
    /// which, with the round, the entry and the rule).
    #[error("{0}")]
    Rummy(#[from] RecordError),
}

/// A valid record, of either format.
#[derive(Clone, Debug)]
pub enum Checked {
    /// A `romirami-record/1` game.
    RomiRami(Box<Record>),
    /// A `rummy-record/1` match, with what its replay found.
    Rummy(Box<Verified>),
}

/// Only the `format` of a document, to tell the two formats apart before reading either.
#[derive(serde::Deserialize)]
struct Format {
    format: Option<String>,
}

/// Parses `json` as a record of the format its `format` names and replays it.
///
/// # Errors
/// [`Problem::Malformed`] when it is not a record, [`Problem::Illegal`] when it breaks a rule;
/// [`Problem::Rummy`] for either in a `rummy-record/1` document.
pub fn check_json(json: &[u8]) -> Result<Checked, Problem> {
    let Format { format } = serde_json::from_slice(json)?;
    if format.as_deref() == Some(rummy::RECORD_FORMAT) {
        let text = std::str::from_utf8(json).map_err(|e| RecordError::Malformed(e.to_string()))?;
        let verified = rummy::verify(&rummy::parse(text)?)?;
        return Ok(Checked::Rummy(Box::new(verified)));
    }
    let record: Record = serde_json::from_slice(json)?;
    record.verify()?;
    Ok(Checked::RomiRami(Box::new(record)))
}

/// Reads the file at `path` and checks it ([`check_json`]).
///
/// # Errors
/// [`Problem::Unreadable`] when the file cannot be read, otherwise as [`check_json`].
pub fn check_file(path: &Path) -> Result<Checked, Problem> {
    check_json(&fs::read(path)?)
}

/// The record files `path` stands for: the `*.json` files directly inside it, sorted by name, when it
/// is a directory; otherwise `path` itself, whatever its name (so a missing file is reported when it
/// is read).
///
/// # Errors
/// When `path` is a directory that cannot be listed.
pub fn record_files(path: &Path) -> io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in fs::read_dir(path)? {
        let file = entry?.path();
        if file.extension().is_some_and(|ext| ext == "json") && !file.is_dir() {
            files.push(file);
        }
    }
    files.sort();
    Ok(files)
}

/// The outcome of a `verify` run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Records checked, valid or not (a directory that cannot be listed counts as one).
    pub records: usize,
    /// Those that are not valid.
    pub invalid: usize,
    /// Per rummy game: its valid records and the features their replays counted.
    pub rummy: BTreeMap<GameKind, (usize, BTreeMap<&'static str, u64>)>,
}

impl Report {
    /// Records that replayed and whose result matched.
    pub fn valid(&self) -> usize {
        self.records - self.invalid
    }

    /// Whether the run passes: at least one record, and none invalid. Finding no record at all fails,
    /// so that a wrong path or an empty directory is not taken for a clean run.
    pub fn all_valid(&self) -> bool {
        self.records > 0 && self.invalid == 0
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} records, {} valid, {} invalid", self.records, self.valid(), self.invalid)?;
        for (game, (records, features)) in &self.rummy {
            let features: Vec<String> = features.iter().map(|(k, n)| format!("{k} {n}")).collect();
            write!(f, "\n{game}: {records} valid records; features: {}", features.join(", "))?;
        }
        Ok(())
    }
}

/// Checks every record `args.paths` stand for, in order (as records of `args.game`, a game of `games`,
/// when it is given), and writes to `out` one line `path: reason`
/// per record that is not valid, then the summary line ([`Report`]'s `Display`).
///
/// # Errors
/// Only when `out` cannot be written: a bad record is a line of the report, not an error.
pub fn run(args: &VerifyArgs, games: &Games, out: &mut dyn Write) -> anyhow::Result<Report> {
    let kind = args.game.as_deref().map(|name| super::any_game::game(games, name)).transpose()?;
    let mut report = Report::default();
    for path in &args.paths {
        let files = match record_files(path) {
            Ok(files) => files,
            Err(err) => {
                report.records += 1;
                report.invalid += 1;
                writeln!(out, "{}: {}", path.display(), Problem::Unreadable(err))?;
                continue;
            }
        };
        for file in files {
            report.records += 1;
            if let Some(kind) = kind {
                if let Err(problem) = super::any_game::verify_file(kind, &file) {
                    report.invalid += 1;
                    writeln!(out, "{}: {problem}", file.display())?;
                }
                continue;
            }
            match check_file(&file) {
                Ok(Checked::RomiRami(_)) => {}
                Ok(Checked::Rummy(verified)) => {
                    let (records, features) = report.rummy.entry(verified.game).or_default();
                    *records += 1;
                    for (feature, n) in verified.tally {
                        *features.entry(feature).or_default() += n;
                    }
                }
                Err(problem) => {
                    report.invalid += 1;
                    writeln!(out, "{}: {problem}", file.display())?;
                }
            }
        }
    }
    if report.records == 0 {
        writeln!(out, "no record found: a directory is searched for *.json files")?;
    }
    writeln!(out, "{report}")?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use romirami_engine::{Game, RandomPlayer, RecordMeta, ShuffleProof};
    use time::OffsetDateTime;

    use super::*;

    fn record_json(seed: u64) -> anyhow::Result<String> {
        let mut game = Game::new(2, seed)?;
        RandomPlayer::new(seed).play_out(&mut game);
        let meta = RecordMeta {
            id: uuid::Uuid::from_u128(u128::from(seed)),
            started_at: OffsetDateTime::UNIX_EPOCH,
            finished_at: OffsetDateTime::UNIX_EPOCH,
            names: vec!["a".into(), "b".into()],
            shuffle: None,
        };
        Ok(serde_json::to_string(&game.record(meta)?)?)
    }

    fn verify(paths: &[&Path]) -> anyhow::Result<(Report, String)> {
        let args = VerifyArgs { paths: paths.iter().map(|p| p.to_path_buf()).collect(), game: None };
        let mut out = Vec::new();
        let report = run(&args, &romirami_server::games(), &mut out)?;
        Ok((report, String::from_utf8(out)?))
    }

    #[test]
    fn problems_are_told_apart() -> anyhow::Result<()> {
        let json = record_json(1)?;
        assert!(check_json(json.as_bytes()).is_ok());
        assert!(matches!(check_json(b"{"), Err(Problem::Malformed(_))));
        assert!(matches!(
            check_json(json.replacen("\"format\":\"romirami-record/1\"", "\"format\":\"pgn\"", 1).as_bytes()),
            Err(Problem::Illegal(ReplayError::Format(_)))
        ));
        let mut value: serde_json::Value = serde_json::from_str(&json)?;
        value["result"]["scores"][0]["total"] = serde_json::json!(999);
        let err = check_json(value.to_string().as_bytes()).expect_err("a wrong score is caught");
        assert!(matches!(err, Problem::Illegal(ReplayError::ResultMismatch(_))), "{err}");
        assert!(matches!(check_file(Path::new("/nonexistent/record.json")), Err(Problem::Unreadable(_))));
        Ok(())
    }

    #[test]
    fn directories_are_read_for_json_files_in_name_order() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        fs::write(dir.path().join("b.json"), record_json(2)?)?;
        fs::write(dir.path().join("a.json"), record_json(1)?)?;
        fs::write(dir.path().join("notes.txt"), "not a record")?;
        fs::create_dir(dir.path().join("sub.json"))?;
        let files = record_files(dir.path())?;
        assert_eq!(files, [dir.path().join("a.json"), dir.path().join("b.json")]);

        let (report, out) = verify(&[dir.path()])?;
        assert_eq!((report.records, report.invalid), (2, 0));
        assert!(report.all_valid());
        assert_eq!(out, "2 records, 2 valid, 0 invalid\n");
        Ok(())
    }

    #[test]
    fn each_bad_record_gets_a_line_and_the_rest_are_still_checked() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let bad = dir.path().join("bad.json");
        fs::write(&bad, "[1, 2")?;
        let good = dir.path().join("good.json");
        fs::write(&good, record_json(3)?)?;
        let missing = dir.path().join("missing.json");
        let (report, out) = verify(&[&bad, &missing, &good])?;
        assert_eq!((report.records, report.invalid), (3, 2));
        assert!(!report.all_valid());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[0].starts_with(&format!("{}: malformed record: ", bad.display())), "{out}");
        assert!(lines[1].starts_with(&format!("{}: cannot read: ", missing.display())), "{out}");
        assert_eq!(lines[2], "3 records, 1 valid, 2 invalid");
        Ok(())
    }

    #[test]
    fn rummy_records_are_checked_and_their_features_counted() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let meta = romirami_rummy::record::RecordMeta {
            id: "00000000-0000-4000-8000-000000000000".into(),
            started_at: "2026-11-21T10:00:00Z".into(),
            finished_at: "2026-11-21T10:00:00Z".into(),
            names: vec![String::new(); 3],
            shuffle: None,
        };
        let options = serde_json::json!({ "variant": "500" });
        let played = romirami_rummy::sim::play(GameKind::Rommi, 3, &options, 1, 2, meta, 50_000)?;
        let json = serde_json::to_string(&played.record)?;
        fs::write(dir.path().join("a.json"), &json)?;
        fs::write(dir.path().join("b.json"), record_json(4)?)?;
        let mut broken: serde_json::Value = serde_json::from_str(&json)?;
        broken["result"]["totals"][0] = serde_json::json!(-1);
        fs::write(dir.path().join("c.json"), broken.to_string())?;
        broken["rounds"][0]["extra"] = serde_json::json!(1);
        fs::write(dir.path().join("d.json"), broken.to_string())?;
        let (report, out) = verify(&[dir.path()])?;
        assert_eq!((report.records, report.invalid), (4, 2), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].contains("c.json: match: rommi §10: the totals are"), "{out}");
        assert!(lines[1].contains("d.json: malformed record: "), "{out}");
        assert_eq!(lines[2], "4 records, 2 valid, 2 invalid");
        assert!(lines[3].starts_with("rommi: 1 valid records; features: "), "{out}");
        assert!(lines[3].contains("matches_meld_hand 1"), "{out}");
        Ok(())
    }

    /// Writes `value` into `dir` as `name`.
    fn write(dir: &Path, name: &str, value: &serde_json::Value) -> anyhow::Result<()> {
        Ok(fs::write(dir.join(name), value.to_string())?)
    }

    /// `record` with its proof fields replaced by those of `seed` and `salt`, the commitment recomputed.
    /// `record` claiming to be dealt with `proof`, every proof field consistent with it.
    fn claiming(record: &serde_json::Value, proof: &ShuffleProof) -> serde_json::Value {
        let fields = proof.fields();
        let mut record = record.clone();
        record["seed"] = fields.seed.into();
        record["salt"] = fields.salt.into();
        record["commitment"] = fields.commitment.into();
        record["server_seed"] = fields.server_seed.into();
        record["contributions"] = fields.contributions.into();
        record
    }

    #[test]
    fn shuffle_proofs_are_checked_in_both_formats() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let salt = [0x3c; 32];
        // Dealt from the server's seed 5 and the three seats' contributions.
        let proof = ShuffleProof::contributed(5, salt, vec![[1; 32], [2; 32], [3; 32]]);
        let mut game = Game::new(3, proof.seed())?;
        RandomPlayer::new(5).play_out(&mut game);
        let meta = RecordMeta {
            id: uuid::Uuid::from_u128(5),
            started_at: OffsetDateTime::UNIX_EPOCH,
            finished_at: OffsetDateTime::UNIX_EPOCH,
            names: vec!["a".into(), "b".into(), "c".into()],
            shuffle: Some(proof.clone()),
        };
        let romirami = serde_json::to_value(game.record(meta)?)?;
        let rummy_meta = romirami_rummy::record::RecordMeta {
            id: "00000000-0000-4000-8000-000000000005".into(),
            started_at: "2026-11-21T10:00:00Z".into(),
            finished_at: "2026-11-21T10:00:00Z".into(),
            names: vec![String::new(); 3],
            shuffle: Some(proof.clone()),
        };
        let options = serde_json::json!({ "match_end": { "rounds": 2 } });
        let played = romirami_rummy::sim::play(GameKind::Rami, 3, &options, proof.seed(), 6, rummy_meta, 50_000)?;
        let rummy = serde_json::to_value(&played.record)?;
        for (format, good) in [("a", &romirami), ("b", &rummy)] {
            assert_eq!(good["server_seed"], "5");
            write(dir.path(), &format!("{format}0-good.json"), good)?;
            let mut changed = good.clone();
            changed["seed"] = "6".into();
            write(dir.path(), &format!("{format}1-seed.json"), &changed)?;
            let mut changed = good.clone();
            changed["salt"] = "3d".repeat(32).into();
            write(dir.path(), &format!("{format}2-salt.json"), &changed)?;
            let mut changed = good.clone();
            changed["commitment"] = ShuffleProof::new(5, [0x3d; 32]).commitment().to_hex().into();
            write(dir.path(), &format!("{format}3-commitment.json"), &changed)?;
            let other = ShuffleProof::contributed(5, salt, vec![[1; 32], [2; 32], [4; 32]]);
            write(dir.path(), &format!("{format}4-decks.json"), &claiming(good, &other))?;
            let mut changed = good.clone();
            changed.as_object_mut().map(|o| o.remove("salt"));
            write(dir.path(), &format!("{format}5-partial.json"), &changed)?;
            let mut changed = good.clone();
            for key in ["seed", "salt", "commitment", "server_seed", "contributions"] {
                changed.as_object_mut().map(|o| o.remove(key));
            }
            write(dir.path(), &format!("{format}6-none.json"), &changed)?;
            let mut changed = good.clone();
            changed["contributions"][1] = "22".repeat(32).into();
            write(dir.path(), &format!("{format}7-contribution.json"), &changed)?;
            let mut changed = good.clone();
            changed["server_seed"] = "6".into();
            write(dir.path(), &format!("{format}8-server-seed.json"), &changed)?;
        }
        let (report, out) = verify(&[dir.path()])?;
        assert_eq!((report.records, report.invalid), (18, 14), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        let commitment = "shuffle proof: the commitment is not the SHA-256 of the seed and the salt";
        let derivation =
            "shuffle proof: the seed is not the one derived from the server's seed, the salt and the contributions";
        let partial = "shuffle proof: `seed`, `salt` and `commitment` go together";
        let expected = [
            format!("a1-seed.json: {derivation}"),
            format!("a2-salt.json: {commitment}"),
            format!("a3-commitment.json: {commitment}"),
            "a4-decks.json: shuffle proof: `number_deck` is not what the seed gives".to_owned(),
            format!("a5-partial.json: {partial}"),
            format!("a7-contribution.json: {derivation}"),
            format!("a8-server-seed.json: {commitment}"),
            format!("b1-seed.json: match: {derivation}"),
            format!("b2-salt.json: match: {commitment}"),
            format!("b3-commitment.json: match: {commitment}"),
            "b4-decks.json: round 1: shuffle proof: round 1's `".to_owned(),
            format!("b5-partial.json: match: {partial}"),
            format!("b7-contribution.json: match: {derivation}"),
            format!("b8-server-seed.json: match: {commitment}"),
        ];
        for (line, expected) in lines.iter().zip(&expected) {
            let (path, reason) = line.split_once(": ").expect("path: reason");
            let (file, message) = expected.split_once(": ").expect("file: reason");
            assert!(path.ends_with(file) && reason.starts_with(message), "{line} is not {expected}\n{out}");
        }
        assert_eq!(lines[14], "18 records, 4 valid, 14 invalid", "{out}");
        Ok(())
    }

    #[test]
    fn finding_no_record_fails() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let (report, out) = verify(&[dir.path()])?;
        assert_eq!((report.records, report.invalid), (0, 0));
        assert!(!report.all_valid());
        assert!(out.ends_with("0 records, 0 valid, 0 invalid\n"), "{out}");
        Ok(())
    }
}
