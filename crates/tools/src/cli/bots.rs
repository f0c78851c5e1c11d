//! `romirami bots`: plays complete games against a running server with bot clients, then prints a
//! summary.

use std::time::Instant;

use anyhow::{Context, bail};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;

use romirami_client::bots::play_game;
use romirami_client::family::play_match;

/// The arguments of `romirami bots`.
#[derive(Clone, Debug, clap::Args)]
pub struct BotsArgs {
    /// The server's WebSocket address, like ws://127.0.0.1:8080/ws (http:// is taken as ws://).
    #[arg(long)]
    pub server: String,
    /// How many games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Players per table, within the game's range (2 to 4 for Romi Rami); when left out, tables of 2, 3
    /// and 4 in turn.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// The game to play: romi-rami (the default), rommi, rami or rumino.
    #[arg(long, default_value = "romi-rami")]
    pub game: String,
    /// The game's table options as JSON (a rummy game's target or rounds); the rule book's defaults
    /// when left out.
    #[arg(long)]
    pub options: Option<String>,
    /// How many games at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub concurrency: u64,
}

/// The WebSocket address of a server given as `ws://`, `http://` or a bare host and port.
pub fn websocket_url(server: &str) -> String {
    let server = server.trim_end_matches('/');
    let base = if let Some(rest) = server.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if let Some(rest) = server.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if server.starts_with("ws://") || server.starts_with("wss://") {
        server.to_owned()
    } else {
        format!("ws://{server}")
    };
    if base.ends_with("/ws") { base } else { format!("{base}/ws") }
}

/// Plays the games and prints one line per game and a summary.
///
/// # Errors
/// When the runtime cannot start, or any game fails.
pub fn run_bots(args: &BotsArgs) -> anyhow::Result<()> {
    let url = websocket_url(&args.server);
    let options: Option<serde_json::Value> = match &args.options {
        Some(text) => Some(serde_json::from_str(text).context("--options is not JSON")?),
        None => None,
    };
    if args.game != "romi-rami" {
        return run_family(args, &url, options.as_ref());
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let start = Instant::now();
        let mut running = FuturesUnordered::new();
        let (mut started, mut finished, mut failed, mut actions) = (0u64, 0u64, 0u64, 0usize);
        loop {
            while started < args.games && (running.len() as u64) < args.concurrency {
                let players = args.players.unwrap_or(2 + (started % 3) as u8);
                let url = url.clone();
                let index = started;
                running.push(async move { (index, play_game(&url, players, &format!("bot{index}-")).await) });
                started += 1;
            }
            let Some((index, outcome)) = running.next().await else { break };
            match outcome {
                Ok(game) => {
                    finished += 1;
                    actions += game.actions;
                    println!(
                        "game {index}: table {} over in {:.2} s, {} actions, winners {:?}",
                        game.table,
                        game.elapsed.as_secs_f64(),
                        game.actions,
                        game.result.winners
                    );
                }
                Err(error) => {
                    failed += 1;
                    println!("game {index}: failed: {error}");
                }
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{finished} games finished, {failed} failed, {actions} actions in {seconds:.2} s ({:.0} actions/s)",
            actions as f64 / seconds.max(1e-9)
        );
        if failed > 0 {
            bail!("{failed} of {} games failed", args.games);
        }
        Ok(())
    })
}

/// `romirami bots --game` for a game of the rummy family: the same loop, with the family's bots.
fn run_family(args: &BotsArgs, url: &str, options: Option<&serde_json::Value>) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let start = Instant::now();
        let mut running = FuturesUnordered::new();
        let (mut started, mut finished, mut failed, mut actions) = (0u64, 0u64, 0u64, 0usize);
        loop {
            while started < args.games && (running.len() as u64) < args.concurrency {
                let players = args.players.unwrap_or(2 + (started % 3) as u8);
                let (url, game, options, index) = (url.to_owned(), args.game.clone(), options.cloned(), started);
                running.push(async move {
                    (index, play_match(&url, &game, options, players, &format!("bot{index}-")).await)
                });
                started += 1;
            }
            let Some((index, outcome)) = running.next().await else { break };
            match outcome {
                Ok(game) => {
                    finished += 1;
                    actions += game.actions;
                    println!(
                        "match {index}: table {} over in {:.2} s, {} actions, winners {}",
                        game.table,
                        game.elapsed.as_secs_f64(),
                        game.actions,
                        game.result["winners"]
                    );
                }
                Err(error) => {
                    failed += 1;
                    println!("match {index}: failed: {error}");
                }
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        println!("{finished} matches of {} finished, {failed} failed, {actions} actions in {seconds:.2} s", args.game);
        if failed > 0 {
            bail!("{failed} of {} matches failed", args.games);
        }
        Ok(())
    })
}
