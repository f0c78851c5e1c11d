//! `romirami verify`: replays `romirami-record/1` files through the rules ([`Record::verify`]) and
//! reports each one that cannot be read, is not a record, or breaks a rule.
//!
//! A record is checked in two stages, as everything that comes in from outside: first parsed into the
//! plain [`Record`] type (a wrong shape, an unknown card code or a missing field is *malformed*), then
//! replayed from its deal (a move that breaks a rule or a result that does not match is *illegal*).

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use romirami_engine::{Record, ReplayError};

/// The arguments of `romirami verify`.
#[derive(Clone, Debug, clap::Args)]
#[command(after_help = "Exit status: 0 when every record is valid; 1 when one is not, or when no record was found.")]
pub struct VerifyArgs {
    /// Record files, or directories whose `*.json` files are checked (not recursively), in name order.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
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
}

/// Parses `json` as a record and replays it.
///
/// # Errors
/// [`Problem::Malformed`] when it is not a record, [`Problem::Illegal`] when it breaks a rule.
pub fn check_json(json: &[u8]) -> Result<Record, Problem> {
    let record: Record = serde_json::from_slice(json)?;
    record.verify()?;
    Ok(record)
}

/// Reads the file at `path` and checks it ([`check_json`]).
///
/// # Errors
/// [`Problem::Unreadable`] when the file cannot be read, otherwise as [`check_json`].
pub fn check_file(path: &Path) -> Result<Record, Problem> {
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Records checked, valid or not (a directory that cannot be listed counts as one).
    pub records: usize,
    /// Those that are not valid.
    pub invalid: usize,
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
        write!(f, "{} records, {} valid, {} invalid", self.records, self.valid(), self.invalid)
    }
}

/// Checks every record `args.paths` stand for, in order, and writes to `out` one line `path: reason`
/// per record that is not valid, then the summary line ([`Report`]'s `Display`).
///
/// # Errors
/// Only when `out` cannot be written: a bad record is a line of the report, not an error.
pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> anyhow::Result<Report> {
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
            if let Err(problem) = check_file(&file) {
                report.invalid += 1;
                writeln!(out, "{}: {problem}", file.display())?;
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
    use romirami_engine::{Game, RandomPlayer, RecordMeta};
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
        };
        Ok(serde_json::to_string(&game.record(meta)?)?)
    }

    fn verify(paths: &[&Path]) -> anyhow::Result<(Report, String)> {
        let args = VerifyArgs { paths: paths.iter().map(|p| p.to_path_buf()).collect() };
        let mut out = Vec::new();
        let report = run(&args, &mut out)?;
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
        assert_eq!(report, Report { records: 2, invalid: 0 });
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
        assert_eq!(report, Report { records: 3, invalid: 2 });
        assert!(!report.all_valid());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[0].starts_with(&format!("{}: malformed record: ", bad.display())), "{out}");
        assert!(lines[1].starts_with(&format!("{}: cannot read: ", missing.display())), "{out}");
        assert_eq!(lines[2], "3 records, 1 valid, 2 invalid");
        Ok(())
    }

    #[test]
    fn finding_no_record_fails() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let (report, out) = verify(&[dir.path()])?;
        assert_eq!(report, Report { records: 0, invalid: 0 });
        assert!(!report.all_valid());
        assert!(out.ends_with("0 records, 0 valid, 0 invalid\n"), "{out}");
        Ok(())
    }
}
