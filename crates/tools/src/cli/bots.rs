//! `romirami bots`: plays complete games against a running server with bot clients, then prints a
//! summary; or, with `--tournament`, joins bot players to a tournament and plays every game they are
//! seated at until it is finished (`tournament_bots.rs`).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;

use romirami_client::ClientError;
use romirami_client::bots::play_game;
use romirami_client::family::play_match;
use romirami_protocol::TableId;

/// The arguments of `romirami bots`.
#[derive(Clone, Debug, clap::Args)]
pub struct BotsArgs {
    /// The server's WebSocket address, like ws://127.0.0.1:8080/ws (http:// is taken as ws://).
    #[arg(long)]
    pub server: String,
    /// How many games to play (not with `--tournament`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), required_unless_present = "tournament", conflicts_with = "tournament")]
    pub games: Option<u64>,
    /// A tournament to join `--players` bot players to (each plays every game it is seated at, until the
    /// tournament is finished).
    #[arg(long, requires = "players")]
    pub tournament: Option<uuid::Uuid>,
    /// Players per table, within the game's range (2 to 4 for Romi Rami); when left out, tables of 2, 3
    /// and 4 in turn. With `--tournament`: how many bot players join it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=2000))]
    pub players: Option<u32>,
    /// The game to play: romi-rami (the default), rommi, rami, rumino, or any other game the server seats.
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
    if let Some(tournament) = args.tournament {
        return super::tournament_bots::run(&url, tournament, args.players.unwrap_or(2) as usize);
    }
    let table_size = match args.players {
        Some(players) if players > 6 => bail!("a table has at most 6 players, not {players}"),
        Some(players) => Some(players as u8),
        None => None,
    };
    let games = args.games.unwrap_or(1);
    let options: Option<serde_json::Value> = match &args.options {
        Some(text) => Some(serde_json::from_str(text).context("--options is not JSON")?),
        None => None,
    };
    if args.game == "romi-rami" {
        play_all(args, games, table_size, |index, players| {
            let url = url.clone();
            async move {
                let game = play_game(&url, players, &format!("bot{index}-")).await?;
                let winners = format!("{:?}", game.result.winners);
                Ok(Played { table: game.table, elapsed: game.elapsed, actions: game.actions, winners })
            }
        })
    } else {
        // A game of the rummy family, with the family's bots.
        play_all(args, games, table_size, |index, players| {
            let (url, game, options) = (url.clone(), args.game.clone(), options.clone());
            async move {
                let played = play_match(&url, &game, options, players, &format!("bot{index}-")).await?;
                let winners = played.result["winners"].to_string();
                Ok(Played { table: played.table, elapsed: played.elapsed, actions: played.actions, winners })
            }
        })
    }
}

/// One finished game, as its line shows it.
struct Played {
    table: TableId,
    elapsed: Duration,
    actions: usize,
    winners: String,
}

/// Plays `args.games` games, `args.concurrency` at once, each by `play(index, players)`; prints a line
/// per game and a summary.
fn play_all<F>(args: &BotsArgs, games: u64, table_size: Option<u8>, play: impl Fn(u64, u8) -> F) -> anyhow::Result<()>
where
    F: Future<Output = Result<Played, ClientError>>,
{
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let start = Instant::now();
        let mut running = FuturesUnordered::new();
        let (mut started, mut finished, mut failed, mut actions) = (0u64, 0u64, 0u64, 0usize);
        loop {
            while started < games && (running.len() as u64) < args.concurrency {
                let players = table_size.unwrap_or(2 + (started % 3) as u8);
                let index = started;
                let game = play(index, players);
                running.push(async move { (index, game.await) });
                started += 1;
            }
            let Some((index, outcome)) = running.next().await else { break };
            match outcome {
                Ok(game) => {
                    finished += 1;
                    actions += game.actions;
                    println!(
                        "game {index}: table {} over in {:.2} s, {} actions, winners {}",
                        game.table,
                        game.elapsed.as_secs_f64(),
                        game.actions,
                        game.winners
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
            bail!("{failed} of {games} games failed");
        }
        Ok(())
    })
}
