//! Several nodes: bot games of every game on a cluster of three `romirami serve` nodes (PostgreSQL from
//! `DATABASE_URL`, NATS from `NATS_URL`; both mandatory in CI), each seat's bot connected to a node in turn,
//! while a random node is killed with SIGKILL 20 times and started again, under its id or a new one. Every
//! game must finish with the result its record replays to, and every action a bot saw acknowledged must be
//! in the game exactly once, however its table moved between nodes (see `romirami_tools::crash`).

use crate::common;

use common::PgDatabase;
use romirami_tools::crash::{ClusterOptions, CrashOptions, TournamentCrashOptions, every_game, run, run_tournament};

/// The NATS server the test uses, or `None` (outside CI) when none answers.
async fn nats_url() -> Option<String> {
    let url = std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    if tokio::net::TcpStream::connect(url.trim_start_matches("nats://")).await.is_ok() {
        return Some(url);
    }
    assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test the cluster: start nats-server -js");
    eprintln!("skipped: no NATS server at {url}");
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_sigkill_of_random_nodes_of_a_cluster() {
    let Some(nats_url) = nats_url().await else { return };
    let Some(database) = PgDatabase::create().await else { return };
    let options = CrashOptions {
        binary: env!("CARGO_BIN_EXE_romirami").into(),
        database_url: database.url.clone(),
        nodes: 3,
        cluster: Some(ClusterOptions {
            nats_url,
            name: format!("crash-test-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            lease: std::time::Duration::from_millis(1500),
        }),
        kills: 20,
        tables: 8,
        games: every_game(),
        actions_between_kills: (5, 40),
        seed: 9,
    };
    let report = run(&options).await.unwrap_or_else(|e| panic!("{e}"));
    println!("three nodes: {report}");
    assert_eq!(report.kills, 20, "{report}");
    assert!(report.new_ids > 0 && report.new_ids < 20, "both ways back are taken: {report}");
    for game in every_game() {
        assert!(report.by_game.get(game).is_some_and(|n| *n >= 2), "{game}: {report}");
    }
    assert!(report.checked >= report.acknowledged && report.acknowledged > 0, "{report}");
    assert!(report.failover.resumed > 0 && report.failover.gaps > 0, "the kills hit tables: {report}");
    database.drop_database().await;
}

/// The tournament mode: a Swiss of 8 bot players over 3 rounds on three nodes, every other kill hitting the
/// node that directs it (see `romirami_tools::crash::run_tournament` for what it checks).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_survives_sigkill_of_the_node_directing_it() {
    let Some(nats_url) = nats_url().await else { return };
    let Some(database) = PgDatabase::create().await else { return };
    let options = TournamentCrashOptions {
        binary: env!("CARGO_BIN_EXE_romirami").into(),
        database_url: database.url.clone(),
        nodes: 3,
        cluster: Some(ClusterOptions {
            nats_url,
            name: format!("crash-tournament-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            lease: std::time::Duration::from_millis(1500),
        }),
        game: "rommi",
        players: 8,
        rounds: 3,
        kills: 6,
        seed: 5,
    };
    let report = run_tournament(&options).await.unwrap_or_else(|e| panic!("{e}"));
    println!("{report}");
    assert_eq!((report.rounds, report.games), (3, 12), "{report}");
    assert!(report.director_kills > 0, "the directing node was killed: {report}");
    database.drop_database().await;
}
