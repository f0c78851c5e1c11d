//! `romirami bots --tournament ID --players N`: N bot guests join a tournament over REST and play every
//! game they are seated at (`romirami_client::tournament`) until it is finished; then the standings are
//! printed. A tournament can so be filled and load-tested from the command line.

use std::time::Instant;

use anyhow::{Context, bail};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use romirami_client::Client;
use romirami_client::tournament::{TournamentPlayer, http_base, join};
use romirami_protocol::PlayerId;
use serde_json::Value;

/// Joins `players` bots to `tournament` on the server at `url` (its WebSocket address) and plays it out.
///
/// # Errors
/// When the runtime cannot start, a bot cannot join, or a bot's play fails.
pub(super) fn run(url: &str, tournament: uuid::Uuid, players: usize) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let http = http_base(url);
        let start = Instant::now();
        let mut running = FuturesUnordered::new();
        let mut game = None;
        // A suffix of the process and the time, so that two runs' bots do not share names.
        let tag = format!("{:04x}", (std::process::id() ^ start.elapsed().subsec_nanos()) & 0xffff);
        for i in 0..players {
            let name = format!("Entrant {tag}-{}", i + 1);
            let (client, me, token) = Client::guest(url, &name).await.with_context(|| format!("{name} connects"))?;
            let view = join(&http, tournament, &token).await.with_context(|| format!("{name} joins"))?;
            let name_of_game = view["game"].as_str().unwrap_or("romi-rami").to_owned();
            game.get_or_insert(name_of_game.clone());
            // Each contributes to its duplicate rounds' deals, as the web page does.
            let player =
                TournamentPlayer::new(PlayerId(me.id.0), tournament, &name_of_game).contributing(&http, &token);
            running.push(async move {
                let (mut client, mut player) = (client, player);
                let played = player.play(&mut client).await;
                (name, played)
            });
        }
        println!("{players} bots joined tournament {tournament} ({})", game.as_deref().unwrap_or("?"));
        let (mut failed, mut tables, mut last_view) = (0, 0, Value::Null);
        while let Some((name, played)) = running.next().await {
            match played {
                Ok(played) => {
                    tables += played.tables.len();
                    last_view = played.last_view;
                }
                Err(error) => {
                    failed += 1;
                    println!("{name}: failed: {error}");
                }
            }
        }
        println!(
            "{} games played by {players} bots in {:.1} s; the tournament is {}",
            tables,
            start.elapsed().as_secs_f64(),
            last_view["state"].as_str().unwrap_or("?")
        );
        let names: std::collections::HashMap<&str, &str> = last_view["players"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
            .collect();
        for (place, line) in last_view["standings"].as_array().into_iter().flatten().enumerate().take(10) {
            let name = line["player"].as_str().and_then(|id| names.get(id)).copied().unwrap_or("?");
            println!("{:>3}. {name:<24} {:>6} points, {} games", place + 1, line["points"], line["games"]);
        }
        if failed > 0 {
            bail!("{failed} of {players} bots failed");
        }
        Ok(())
    })
}
