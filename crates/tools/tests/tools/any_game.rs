//! A game the tools were never told of reaches them through the registry alone: "pile", the server
//! tests' toy game (`crates/server/tests/support/pile.rs`), added to a registry beside the server's
//! games, is simulated (`simulate --game pile`, its own bot in both seats) into records that
//! `verify --game pile` replays, and a record tampered with is refused.

use std::fs;
use std::process::ExitCode;

use clap::Parser;
use romirami_tools::cli::{self, Cli};

#[path = "../../../server/tests/support/pile.rs"]
#[allow(dead_code, reason = "the server's tests use more of it")]
mod pile;

fn registry() -> romirami_game::Games {
    romirami_server::games().with::<pile::Pile>()
}

fn run(args: &[&str]) -> anyhow::Result<ExitCode> {
    let cli = Cli::try_parse_from(std::iter::once("romirami").chain(args.iter().copied()))?;
    cli::run_with(cli, &registry())
}

#[test]
fn a_game_added_to_the_registry_is_simulated_and_verified_by_the_tools() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let out = dir.path().to_str().expect("a UTF-8 path");
    let simulated = run(&[
        "simulate",
        "--game",
        "pile",
        "--games",
        "3",
        "--seed",
        "5",
        "--out",
        out,
        "--options",
        r#"{"pile":9}"#,
    ])?;
    assert_eq!(simulated, ExitCode::SUCCESS);
    let files: Vec<_> = fs::read_dir(dir.path())?.collect::<Result<_, _>>()?;
    assert_eq!(files.len(), 3, "one record a match");
    for file in &files {
        let record: serde_json::Value = serde_json::from_str(&fs::read_to_string(file.path())?)?;
        assert_eq!(record["format"], "pile-record/1", "the game's own record");
        assert_eq!(record["options"]["pile"], 9, "the options given");
    }
    assert_eq!(run(&["verify", "--game", "pile", out])?, ExitCode::SUCCESS);

    // A record whose moves were changed no longer replays: the game's own check, through the registry.
    let first = files[0].path();
    let mut record: serde_json::Value = serde_json::from_str(&fs::read_to_string(&first)?)?;
    record["actions"][0][1] = serde_json::json!(7);
    fs::write(&first, record.to_string())?;
    assert_eq!(run(&["verify", "--game", "pile", out])?, ExitCode::FAILURE);
    // Without the game in its registry, the binary's tools know no pile.
    let unknown = Cli::try_parse_from(["romirami", "verify", "--game", "pile", out])?;
    assert!(unknown.validate().is_err(), "no game called pile in the server's registry");
    Ok(())
}
