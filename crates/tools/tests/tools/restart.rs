//! Restarts: bot games of every game the server seats (Romi Rami, Rommi, Rami and Rumino, two tables of
//! each) on a `romirami serve` process that is killed with SIGKILL at random moments and started again
//! on the same database (SQLite, and PostgreSQL from `DATABASE_URL`, mandatory in CI). Every game must
//! finish with the result its record replays to, and every action a bot saw acknowledged must be in the
//! game exactly once (see `romirami_tools::crash`).

use crate::common;

use common::PgDatabase;
use romirami_tools::crash::{CrashOptions, CrashReport, every_game, run};

fn options(database_url: String, kills: usize, seed: u64) -> CrashOptions {
    CrashOptions {
        binary: env!("CARGO_BIN_EXE_romirami").into(),
        database_url,
        nodes: 1,
        cluster: None,
        kills,
        tables: 8,
        games: every_game(),
        actions_between_kills: (5, 40),
        seed,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_sigkill_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("crash.db").display());
    let report = run(&options(url, 20, 7)).await.unwrap_or_else(|e| panic!("{e}"));
    println!("SQLite: {report}");
    assert_eq!(report.kills, 20, "{report}");
    assert_every_game(&report);
    assert!(report.checked >= report.acknowledged && report.acknowledged > 0, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_sigkill_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    let report = run(&options(database.url.clone(), 5, 8)).await.unwrap_or_else(|e| panic!("{e}"));
    println!("PostgreSQL: {report}");
    assert_eq!(report.kills, 5, "{report}");
    assert_every_game(&report);
    database.drop_database().await;
}

/// Every game was played to its end at two tables at least.
fn assert_every_game(report: &CrashReport) {
    for game in every_game() {
        assert!(report.by_game.get(game).is_some_and(|n| *n >= 2), "{game}: {report}");
    }
}
