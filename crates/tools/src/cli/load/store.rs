//! `romirami load --persist`: the store alone under load, games set up, played and finished, and
//! actions committed one at a time.

use std::time::Duration;

use anyhow::Context;
use romirami_server::store::Store;
use serde::Serialize;

use super::LoadArgs;
use super::report::{Percentiles, percentiles};
use crate::load::persist;

/// What `--persist` measured, as written with `--json`.
#[derive(Debug, Serialize)]
struct PersistReport {
    games: u64,
    games_per_second: f64,
    tables_set_up_per_second: f64,
    setup_writes_per_second: f64,
    setup_transactions: u64,
    games_with_actions_per_second: f64,
    game_actions_per_second: f64,
    game_latency_ms: Percentiles,
    tables: usize,
    actions: u64,
    transactions: u64,
    actions_per_second: f64,
    rows_per_transaction: f64,
    commit_latency_ms: Percentiles,
}

/// Runs `--persist` against the database at `url`, printing what it measured.
pub(super) async fn run_persist(args: &LoadArgs, url: &str) -> anyhow::Result<()> {
    let store = Store::connect(url).await.context("connecting to the database")?;
    let games = persist::games(&store, args.games, usize::from(args.players), args.concurrency).await?;
    let games_per_second = games.games as f64 / games.finish_seconds;
    let lifecycle_per_second = games.games as f64 / (games.setup_seconds + games.play_seconds + games.finish_seconds);
    let tables_set_up_per_second = games.games as f64 / games.setup_seconds;
    let setup_writes_per_second = games.setup_writes as f64 / games.setup_seconds;
    println!(
        "games: {} {}-player tables set up in {:.2} s ({:.0} tables/s; {:.0} durable writes/s: guests, tables, seats, starts; {} writes in {} transactions)",
        games.games,
        args.players,
        games.setup_seconds,
        tables_set_up_per_second,
        setup_writes_per_second,
        games.setup_writes,
        games.setup_transactions,
    );
    println!(
        "  {} action rows stored in {:.2} s, then finished in {:.2} s: {:.0} finished games/s ({:.0} games/s with their set-up and actions)",
        games.actions, games.play_seconds, games.finish_seconds, games_per_second, lifecycle_per_second,
    );
    let game_latency = percentiles(&games.latency_us);
    println!(
        "  finishing one game ms: p50 {:.2} p99 {:.2} max {:.2}",
        game_latency.p50, game_latency.p99, game_latency.max
    );
    let actions = persist::actions(&store, args.tables, Duration::from_secs_f64(args.duration), args.max_batch).await?;
    let commit_latency = percentiles(&actions.latency_us);
    let actions_per_second = actions.actions as f64 / actions.seconds;
    let rows_per_transaction = actions.actions as f64 / actions.transactions.max(1) as f64;
    println!(
        "actions: {} tables committing one action at a time: {:.0} actions/s in {} transactions ({:.1} rows each)",
        args.tables, actions_per_second, actions.transactions, rows_per_transaction
    );
    println!(
        "  submit to durable ms: p50 {:.2} p95 {:.2} p99 {:.2} max {:.2}",
        commit_latency.p50, commit_latency.p95, commit_latency.p99, commit_latency.max
    );
    store.close().await;
    if let Some(path) = &args.json {
        let report = PersistReport {
            games: games.games,
            games_per_second,
            tables_set_up_per_second,
            setup_writes_per_second,
            setup_transactions: games.setup_transactions,
            games_with_actions_per_second: lifecycle_per_second,
            game_actions_per_second: games.actions as f64 / games.play_seconds,
            game_latency_ms: game_latency,
            tables: args.tables,
            actions: actions.actions,
            transactions: actions.transactions,
            actions_per_second,
            rows_per_transaction,
            commit_latency_ms: commit_latency,
        };
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
