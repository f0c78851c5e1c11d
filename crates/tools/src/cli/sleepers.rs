//! `romirami sleepers`: what a turn-based table costs while nobody is at it (docs/performance.md,
//! "Turn-based tables"). Each round opens `--tables` turn-based tables on a running server (a day a turn),
//! each with a guest host and a bot, reads the server's resident memory (`process_resident_memory_bytes` at
//! `/metrics`) with every host at their table, then closes the hosts' connections, waits until every table
//! has gone to sleep (`romirami_tables{state="playing"}` at 0), and reads it again. The allocator keeps the
//! memory the first round's tables gave back (and reuses it): the later rounds show what sleeping tables hold.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_protocol::{Clock, SpectatorPolicy, TableState};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The arguments of `romirami sleepers`.
#[derive(Clone, Debug, clap::Args)]
pub struct SleepersArgs {
    /// The server, like http://127.0.0.1:8080 (run it with `--bot-delay-ms 1`, so that the bots move at once).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// How many turn-based tables to open.
    #[arg(long, default_value_t = 1000)]
    pub tables: usize,
    /// How many tables are opened at once.
    #[arg(long, default_value_t = 50)]
    pub concurrency: usize,
    /// How many times `--tables` are opened and let sleep: the memory the later rounds add is what the
    /// sleeping tables hold (the first round's freed memory is kept by the allocator, and reused).
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// Opens the tables, measures, and prints the figures.
///
/// # Errors
/// When the server cannot be reached, refuses a table, or the tables do not go to sleep within a minute.
pub fn run_sleepers(args: &SleepersArgs) -> anyhow::Result<()> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(measure(args))
}

async fn measure(args: &SleepersArgs) -> anyhow::Result<()> {
    let http = args.server.trim_end_matches('/').to_owned();
    let ws = super::bots::websocket_url(&http);
    let rss = || metric(&http, "process_resident_memory_bytes");
    let mib = |bytes: f64| bytes / 1_048_576.0;
    let per = |bytes: f64| bytes / args.tables as f64 / 1024.0;
    let before = rss().await?;
    println!("resident memory at the start: {:.1} MiB", mib(before));
    let mut last_asleep: Option<f64> = None;
    // The same players host every round (they come back with their tokens): what a round adds is tables.
    let mut tokens: Vec<Option<String>> = vec![None; args.tables];
    for round in 1..=args.rounds.max(1) {
        let started = Instant::now();
        let hosts = open_tables(&ws, args, &mut tokens).await?;
        let opened = started.elapsed();
        tokio::time::sleep(Duration::from_secs(2)).await;
        let awake = rss().await?;
        drop(hosts);
        let deadline = Instant::now() + Duration::from_secs(60);
        while metric(&http, "romirami_tables{state=\"playing\"}").await? > 0.0 {
            if Instant::now() > deadline {
                bail!("the tables did not all go to sleep within a minute");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let asleep = rss().await?;
        let since = last_asleep.unwrap_or(before);
        println!(
            "round {round}: {} tables opened in {:.1} s; with their hosts {:.1} MiB (+{:.1} KiB a table above the \
             round's start); all asleep {:.1} MiB (+{:.2} KiB a table above the round's start)",
            args.tables,
            opened.as_secs_f64(),
            mib(awake),
            per(awake - since),
            mib(asleep),
            per(asleep - since),
        );
        last_asleep = Some(asleep);
    }
    println!(
        "(the allocator keeps what the first round's awake tables freed; what each later round adds is what the \
         sleeping tables of the rounds before hold)"
    );
    Ok(())
}

/// Opens `args.tables` tables, `args.concurrency` at once, each hosted by the player of its `tokens` entry
/// (a new guest the first time); returns their hosts' connections.
async fn open_tables(ws: &str, args: &SleepersArgs, tokens: &mut [Option<String>]) -> anyhow::Result<Vec<Client>> {
    let mut hosts = Vec::with_capacity(args.tables);
    let mut opening = FuturesUnordered::new();
    let mut opened = Vec::with_capacity(args.tables);
    for (n, token) in tokens.iter().enumerate() {
        if opening.len() >= args.concurrency.max(1) {
            opened.push(opening.next().await.context("a table opens")??);
        }
        opening.push(open_table(ws.to_owned(), n, token.clone()));
    }
    while let Some(table) = opening.next().await {
        opened.push(table?);
    }
    for (n, host, token) in opened {
        tokens[n] = Some(token);
        hosts.push(host);
    }
    Ok(hosts)
}

/// A turn-based table with a bot, its game started, hosted by the player of `token` (a new guest without one);
/// the host's connection is what keeps it awake. Returns `n`, the connection and the host's token.
async fn open_table(ws: String, n: usize, token: Option<String>) -> anyhow::Result<(usize, Client, String)> {
    let (mut host, token) = match token {
        Some(token) => (Client::returning(&ws, &token).await?.0, token),
        None => {
            let (host, _, token) = Client::guest(&ws, &format!("Sleeper {n}")).await?;
            (host, token)
        }
    };
    let create = ClientMsg::CreateTable {
        seats: 2,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: Some(Clock::DAILY),
        game: None,
        options: None,
        rated: Some(false),
    };
    host.send(&create).await?;
    let table = host
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, .. } => Some(Ok(table.id)),
            ServerMsg::Error { code, message, .. } => Some(Err(format!("{code:?}: {message}"))),
            _ => None,
        })
        .await?
        .map_err(anyhow::Error::msg)?;
    host.send(&ClientMsg::AddBot { table, level: romirami_game::Level::Normal }).await?;
    host.wait_for(|msg| match msg {
        ServerMsg::Table { table: summary, .. } if summary.id == table && summary.state == TableState::Playing => {
            Some(())
        }
        _ => None,
    })
    .await?;
    Ok((n, host, token))
}

/// The value of the metric line starting with `name` at `/metrics`.
async fn metric(http: &str, name: &str) -> anyhow::Result<f64> {
    let address = http.strip_prefix("http://").context("the server is given as http://HOST:PORT")?;
    let mut stream = tokio::net::TcpStream::connect(address).await.context("connecting to the server")?;
    stream.write_all(format!("GET /metrics HTTP/1.0\r\nHost: {address}\r\n\r\n").as_bytes()).await?;
    let mut text = String::new();
    stream.read_to_string(&mut text).await?;
    text.lines()
        .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.trim().parse().ok()))
        .with_context(|| format!("no {name} at /metrics"))
}
