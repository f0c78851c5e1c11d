//! The `romirami` binary as a user runs it: `simulate` writes records that `verify` accepts, runs repeat,
//! and `verify` reports tampered or unreadable records by file name, with the status a script can test.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

/// Runs the real binary with `args`.
fn romirami(args: &[&str]) -> Output {
    crate::common::romirami().args(args).output().expect("the romirami binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `simulate` into `out` and checks that it succeeded.
fn simulate(games: u32, seed: u64, out: &Path, extra: &[&str]) {
    let (games, seed) = (games.to_string(), seed.to_string());
    let out = out.to_str().expect("temporary paths are UTF-8");
    let mut args = vec!["simulate", "--games", &games, "--seed", &seed, "--out", out];
    args.extend_from_slice(extra);
    let output = romirami(&args);
    assert!(output.status.success(), "simulate failed: {}", stderr(&output));
    assert!(stdout(&output).starts_with(&format!("simulated {games} games")), "{}", stdout(&output));
}

fn verify(paths: &[&Path]) -> Output {
    let mut args = vec!["verify"];
    args.extend(paths.iter().map(|p| p.to_str().expect("temporary paths are UTF-8")));
    romirami(&args)
}

/// The record files of `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        fs::read_dir(dir).expect("the directory lists").map(|entry| entry.expect("an entry").path()).collect();
    files.sort();
    files
}

/// The text of a record with the values of `started_at` and `finished_at` blanked out, and nothing else
/// changed.
fn without_timestamps(text: &str) -> String {
    let mut text = text.to_owned();
    for key in ["\"started_at\":\"", "\"finished_at\":\""] {
        let start = text.find(key).expect("a record has both timestamps") + key.len();
        let end = start + text[start..].find('"').expect("the timestamp string ends");
        text.replace_range(start..end, "");
    }
    text
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).expect("the record reads")).expect("the record is JSON")
}

fn write_json(path: &Path, value: &Value) {
    fs::write(path, value.to_string()).expect("the record writes");
}

#[test]
fn simulated_records_verify() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("records");
    simulate(30, 1, &out, &[]);
    let files = files(&out);
    assert_eq!(files.len(), 30);
    let player_counts: Vec<usize> =
        files.iter().map(|f| read_json(f)["players"].as_array().expect("players is a list").len()).collect();
    for players in 2..=4 {
        assert!(player_counts.contains(&players), "a mixed run has {players}-player games: {player_counts:?}");
    }

    let output = verify(&[&out]);
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
    assert_eq!(stdout(&output), "30 records, 30 valid, 0 invalid\n");
}

#[test]
fn the_same_seed_gives_the_same_records() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (first, second, other) = (dir.path().join("a"), dir.path().join("b"), dir.path().join("c"));
    simulate(12, 7, &first, &[]);
    simulate(12, 7, &second, &[]);
    simulate(12, 8, &other, &[]);

    let names = |dir: &Path| -> Vec<_> { files(dir).iter().map(|f| f.file_name().map(ToOwned::to_owned)).collect() };
    assert_eq!(names(&first), names(&second));
    let mut ids = Vec::new();
    for (a, b) in files(&first).iter().zip(files(&second)) {
        let (a_text, b_text) = (fs::read_to_string(a).expect("reads"), fs::read_to_string(&b).expect("reads"));
        assert_eq!(without_timestamps(&a_text), without_timestamps(&b_text), "{} differs", b.display());
        ids.push(read_json(a)["id"].clone());
    }
    ids.sort_by_key(ToString::to_string);
    ids.dedup();
    assert_eq!(ids.len(), 12, "every game has its own id");

    for (a, c) in files(&first).iter().zip(files(&other)) {
        assert_ne!(read_json(a)["number_deck"], read_json(&c)["number_deck"], "another seed deals other games");
    }
}

#[test]
fn players_fixes_the_table_size() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    simulate(5, 3, dir.path(), &["--players", "4"]);
    for file in files(dir.path()) {
        assert_eq!(read_json(&file)["players"].as_array().map(Vec::len), Some(4));
    }
}

#[test]
fn tampered_records_are_reported_by_name_with_a_reason() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    simulate(3, 5, dir.path(), &[]);
    let [card_changed, score_changed, untouched] = <[PathBuf; 3]>::try_from(files(dir.path())).expect("3 records");

    // The first move takes from the dealt market: make it take a card that is not there.
    let mut record = read_json(&card_changed);
    let players = record["players"].as_array().expect("players is a list").len();
    let dealt = 3 * players;
    let market: Vec<Value> = record["number_deck"].as_array().expect("a deck")[dealt..dealt + 6].to_vec();
    let absent = ["1", "2", "3", "4", "5"]
        .iter()
        .flat_map(|n| ["ch", "di", "he", "cl"].map(|suit| json!(format!("{n}{suit}"))))
        .find(|card| !market.contains(card))
        .expect("6 market cards leave some of the 20 kinds out");
    assert!(record["log"][0]["take"].is_array(), "a game opens with a take");
    record["log"][0]["take"] = json!([absent]);
    write_json(&card_changed, &record);

    let mut record = read_json(&score_changed);
    let total = record["result"]["scores"][0]["total"].as_u64().expect("a total");
    record["result"]["scores"][0]["total"] = json!(total + 1);
    write_json(&score_changed, &record);

    let output = verify(&[dir.path()]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report = stdout(&output);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 3, "{report}");
    assert!(lines[0].starts_with(&format!("{}: log entry 0: ", card_changed.display())), "{report}");
    assert!(lines[0].contains("not all in the number market (§3 step 1)"), "{report}");
    assert!(lines[1].starts_with(&format!("{}: the result does not match", score_changed.display())), "{report}");
    assert!(!report.contains(&untouched.display().to_string()), "{report}");
    assert_eq!(lines[2], "3 records, 1 valid, 2 invalid");
}

#[test]
fn unreadable_records_are_reported_not_fatal() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    simulate(1, 2, dir.path(), &[]);
    let garbage = dir.path().join("garbage.json");
    fs::write(&garbage, "this is not { json").expect("writes");
    let truncated = dir.path().join("truncated.json");
    let good = files(dir.path()).into_iter().find(|f| f != &garbage).expect("the simulated record");
    let text = fs::read_to_string(&good).expect("reads");
    fs::write(&truncated, &text[..text.len() / 2]).expect("writes");
    let missing = dir.path().join("missing.json");

    let output = verify(&[dir.path(), &missing]);
    assert_eq!(output.status.code(), Some(1));
    let report = stdout(&output);
    assert!(report.contains(&format!("{}: malformed record: ", garbage.display())), "{report}");
    assert!(report.contains(&format!("{}: malformed record: ", truncated.display())), "{report}");
    assert!(report.contains(&format!("{}: cannot read: ", missing.display())), "{report}");
    assert!(report.ends_with("4 records, 1 valid, 3 invalid\n"), "{report}");
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().to_str().expect("temporary paths are UTF-8");
    for args in [
        &["simulate", "--games", "2", "--seed", "1", "--out", out, "--players", "5"][..],
        &["simulate", "--games", "2", "--seed", "1", "--out", out, "--game", "rommi", "--players", "5"],
        &["simulate", "--games", "2", "--seed", "1", "--out", out, "--game", "gin"],
        &["simulate", "--games", "0", "--seed", "1", "--out", out],
        &["simulate", "--games", "2", "--out", out],
        &["verify"],
        &["frobnicate"],
    ] {
        let output = romirami(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).starts_with("error: "), "{args:?}: {}", stderr(&output));
    }
    let output = romirami(&["simulate", "--games", "2", "--seed", "1", "--out", out, "--players", "5"]);
    assert!(stderr(&output).contains("--players"), "{}", stderr(&output));
    assert!(fs::read_dir(dir.path()).expect("lists").next().is_none(), "a usage error writes nothing");
}

#[test]
fn rummy_games_simulate_and_verify() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for game in ["rommi", "rami", "rumino"] {
        let out = dir.path().join(game);
        let output = romirami(&[
            "simulate",
            "--game",
            game,
            "--games",
            "2",
            "--seed",
            "4",
            "--out",
            out.to_str().expect("UTF-8"),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).starts_with(&format!("simulated 2 {game} matches")), "{}", stdout(&output));
        assert!(stdout(&output).contains("\nfeatures: "), "{}", stdout(&output));
    }
    let output = verify(&[&dir.path().join("rommi"), &dir.path().join("rami"), &dir.path().join("rumino")]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let report = stdout(&output);
    assert!(report.starts_with("6 records, 6 valid, 0 invalid\nrommi: 2 valid records; features: "), "{report}");
    assert!(report.contains("\nrami: 2 valid records; ") && report.contains("\nrumino: 2 valid records; "), "{report}");
}

#[test]
fn the_same_seed_gives_the_same_rummy_matches() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for game in ["rommi", "rami", "rumino"] {
        let [first, second, other] = ["a", "b", "c"].map(|name| dir.path().join(format!("{game}-{name}")));
        for (out, seed) in [(&first, "3"), (&second, "3"), (&other, "4")] {
            let out = out.to_str().expect("UTF-8");
            let output = romirami(&["simulate", "--game", game, "--games", "3", "--seed", seed, "--out", out]);
            assert!(output.status.success(), "{}", stderr(&output));
        }
        // Everything but when the matches were played is the seed's.
        let untimed = |file: &PathBuf| {
            let mut record = read_json(file);
            for key in ["started_at", "finished_at"] {
                record.as_object_mut().expect("a record is an object").remove(key);
            }
            record
        };
        let (a, b, c) = (files(&first), files(&second), files(&other));
        assert_eq!(a.len(), 3);
        assert_eq!(a.iter().map(untimed).collect::<Vec<_>>(), b.iter().map(untimed).collect::<Vec<_>>(), "{game}");
        assert_ne!(a.iter().map(untimed).collect::<Vec<_>>(), c.iter().map(untimed).collect::<Vec<_>>(), "{game}");
    }
}

#[test]
fn an_empty_directory_is_not_a_clean_run() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let output = verify(&[dir.path()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).ends_with("0 records, 0 valid, 0 invalid\n"), "{}", stdout(&output));
}
