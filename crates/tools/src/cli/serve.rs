//! `romirami serve`: runs the game server (the library `romirami-server`) until ctrl-c or SIGTERM. This
//! is all the wiring: arguments, logging, the runtime, the store, the listener, the signals.

use std::net::SocketAddr;

use anyhow::Context;
use romirami_server::cluster::ClusterConfig;
use romirami_server::config::Config;
use romirami_server::store::Store;
use romirami_server::web::WebClient;
use romirami_server::{AppState, run};

/// The arguments of `romirami serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "ROMIRAMI_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// How log lines are written to standard error: `text` for people (coloured on a terminal only), or
    /// `json`, one JSON object a line, for log collectors. `RUST_LOG` filters them (default `info`).
    #[arg(long, env = "ROMIRAMI_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// An origin (like `https://example.org`) whose pages may connect, besides the server's own; `*` for
    /// any. May be given more than once.
    #[arg(long = "allow-origin", env = "ROMIRAMI_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// The database: `sqlite://path` (created when missing) or `postgres://user@host/db`.
    #[arg(long, env = "DATABASE_URL", default_value = romirami_server::store::DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// How long the server's bot waits before each of its moves, in milliseconds.
    #[arg(long, env = "ROMIRAMI_BOT_DELAY_MS", default_value_t = 700)]
    pub bot_delay_ms: u64,
    /// How long a starting game waits for its players' contributions to the deal, in milliseconds; then
    /// the server draws the missing ones itself.
    #[arg(long, env = "ROMIRAMI_CONTRIBUTION_WAIT_MS", default_value_t = 3000)]
    pub contribution_wait_ms: u64,
    /// How many bot decisions are made at once, each on a thread of its own (default: half the cores).
    #[arg(long, env = "ROMIRAMI_BOT_THREADS", default_value_t = Config::default().bot_threads)]
    pub bot_threads: usize,
    /// How long one decision of the server's bot may take, in milliseconds: the strong bot plays the best
    /// move it has found by then.
    #[arg(long, env = "ROMIRAMI_BOT_THINK_MS", default_value_t = 100)]
    pub bot_think_ms: u64,
    /// Playouts per decision of the analysis of a finished game (`GET /api/games/{id}/analysis`): more is
    /// steadier and slower (docs/analysis.md).
    #[arg(long, env = "ROMIRAMI_ANALYSIS_PLAYOUTS", default_value_t = Config::default().analysis_playouts)]
    pub analysis_playouts: u32,
    /// Analyses that may wait their turn (one is made at a time); more requests are answered 429.
    #[arg(long, default_value_t = Config::default().analysis_queue)]
    pub analysis_queue: usize,
    /// A folder of the web client to serve at `/` instead of the one built into this binary (to work on
    /// the client: `--web-dir web` serves the checkout's files as they are saved).
    #[arg(long, env = "ROMIRAMI_WEB_DIR")]
    pub web_dir: Option<std::path::PathBuf>,
    /// Messages a connection may send per second, on average (raise it for load tests that play fast).
    /// The budget of frames of any kind is twice the messages', as by default.
    #[arg(long, default_value_t = Config::default().messages_per_second)]
    pub messages_per_second: f64,
    /// Messages a connection may send in a burst above the average.
    #[arg(long, default_value_t = Config::default().message_burst)]
    pub message_burst: f64,
    /// The read buffer of each WebSocket, in bytes: what one read takes at most, held by every
    /// connection for its life.
    #[arg(long, default_value_t = Config::default().read_buffer_bytes)]
    pub read_buffer_bytes: usize,
    /// A reverse proxy whose `X-Forwarded-For` names the client's address (docs/protocol.md section 2).
    /// May be given more than once.
    #[arg(long = "trusted-proxy", env = "ROMIRAMI_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Open WebSocket connections per client address (loopback addresses are spared).
    #[arg(long, default_value_t = Config::default().max_connections_per_address)]
    pub max_connections_per_address: usize,
    /// New guests per client address per minute.
    #[arg(long, default_value_t = Config::default().guests_per_address_per_minute)]
    pub guests_per_address_per_minute: f64,
    /// Live tables on the server.
    #[arg(long, default_value_t = Config::default().max_live_tables)]
    pub max_live_tables: usize,
    /// How long a table pauses between the rounds of a rummy game, in milliseconds (so that people see
    /// the round's result); the crash harness and the load generator's bots need none.
    #[arg(long, env = "ROMIRAMI_ROUND_PAUSE_MS", default_value_t = 4000)]
    pub round_pause_ms: u64,
    /// How long a player has for a choice outside the turns (Rumino's rebuy), in milliseconds, while the
    /// turn clock stands still; then the bot's choice is made for them.
    #[arg(long, env = "ROMIRAMI_CHOICE_MS", default_value_t = 30_000)]
    pub choice_ms: u64,
    /// How long the players of a finished game have to say yes to playing again, in milliseconds; then
    /// the offer closes (docs/protocol.md section 11c).
    #[arg(long, env = "ROMIRAMI_REMATCH_MS", default_value_t = 60_000)]
    pub rematch_ms: u64,
    /// The pause between a Swiss round's last game and the next round, in milliseconds: the countdown
    /// players see (docs/tournaments.md).
    #[arg(long, env = "ROMIRAMI_TOURNAMENT_ROUND_PAUSE_MS", default_value_t = 30_000)]
    pub tournament_round_pause_ms: u64,
    /// A tournament's view larger than this many bytes is told live as its leaders and counts, not whole
    /// (docs/tournaments.md, "Live").
    #[arg(long, env = "ROMIRAMI_TOURNAMENT_LIVE_VIEW_BYTES", default_value_t = 65_536)]
    pub tournament_live_view_bytes: usize,
    /// Run as a node of a cluster that meets on this NATS server (`nats://HOST:PORT`); needs a PostgreSQL
    /// `--database-url` shared by every node (docs/architecture.md, "Several nodes").
    #[arg(long, env = "ROMIRAMI_CLUSTER")]
    pub cluster: Option<String>,
    /// The cluster's name, shared by its nodes (several clusters may meet on one NATS server).
    #[arg(long, env = "ROMIRAMI_CLUSTER_NAME", default_value = "romirami")]
    pub cluster_name: String,
    /// This node's id in the cluster (default: a fresh random one). A node restarted with the same id takes
    /// its tables back at once instead of after their leases run out.
    #[arg(long, env = "ROMIRAMI_NODE_ID")]
    pub node_id: Option<String>,
    /// How long a table's lease lasts unless renewed, in milliseconds: a dead node's tables wait this long.
    #[arg(long, default_value_t = 5000)]
    pub lease_ms: u64,
    /// The VAPID private key pushes are signed with (base64url of its 32 bytes). Default: the one kept in the
    /// database, made at the first start (docs/push.md: back it up with the database).
    #[arg(long, env = "ROMIRAMI_VAPID_PRIVATE_KEY", hide_env_values = true)]
    pub vapid_private_key: Option<String>,
    /// Where push services may write about this server's pushes: a `mailto:` or `https:` URL (VAPID's
    /// subject; some push services refuse pushes without a real one).
    #[arg(long, env = "ROMIRAMI_PUSH_CONTACT", default_value = "mailto:admin@localhost")]
    pub push_contact: String,
    /// An endpoint prefix pushes may be posted to besides the known browser push services (a self-hosted
    /// push service; a test's local one). May be given more than once.
    #[arg(long = "push-allow-endpoint", env = "ROMIRAMI_PUSH_ALLOW_ENDPOINTS", value_delimiter = ',')]
    pub push_allow_endpoints: Vec<String>,
    /// Rated games of a game a player needs to be on its leaderboard.
    #[arg(long, default_value_t = Config::default().leaderboard_min_games)]
    pub leaderboard_min_games: u32,
}

/// Serves until ctrl-c or SIGTERM, then shuts down gracefully.
///
/// # Errors
/// When the runtime cannot start or the address cannot be bound.
pub fn run_serve(args: &ServeArgs) -> anyhow::Result<()> {
    init_tracing(args.log_format);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    // Each connection is a file: take every one the system allows this process.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    runtime.block_on(async {
        let store = Store::connect(&args.database_url)
            .await
            .with_context(|| format!("opening the database {}", redact_url(&args.database_url)))?;
        let listener =
            tokio::net::TcpListener::bind(args.listen).await.with_context(|| format!("binding {}", args.listen))?;
        let address = listener.local_addr()?;
        let config = Config {
            allowed_origins: args.allowed_origins.clone(),
            web: args.web_dir.clone().map_or(WebClient::Embedded, WebClient::Folder),
            messages_per_second: args.messages_per_second,
            message_burst: args.message_burst,
            // Every message is at least one frame: the frames' looser budget follows the messages'.
            frames_per_second: 2.0 * args.messages_per_second,
            frame_burst: 2.0 * args.message_burst,
            read_buffer_bytes: args.read_buffer_bytes,
            trusted_proxies: args.trusted_proxies.clone(),
            max_connections_per_address: args.max_connections_per_address,
            guests_per_address_per_minute: args.guests_per_address_per_minute,
            max_live_tables: args.max_live_tables,
            leaderboard_min_games: args.leaderboard_min_games,
            bot_delay: std::time::Duration::from_millis(args.bot_delay_ms),
            contribution_wait: std::time::Duration::from_millis(args.contribution_wait_ms),
            bot_threads: args.bot_threads,
            bot_think_time: std::time::Duration::from_millis(args.bot_think_ms),
            analysis_playouts: args.analysis_playouts.max(1),
            analysis_queue: args.analysis_queue.max(1),
            round_pause: std::time::Duration::from_millis(args.round_pause_ms),
            choice_time: std::time::Duration::from_millis(args.choice_ms),
            rematch_time: std::time::Duration::from_millis(args.rematch_ms),
            tournament_round_pause: std::time::Duration::from_millis(args.tournament_round_pause_ms),
            tournament_live_view_bytes: args.tournament_live_view_bytes,
            push: romirami_server::push::PushConfig {
                vapid_private_key: args.vapid_private_key.clone(),
                contact: args.push_contact.clone(),
                allow_endpoints: args.push_allow_endpoints.clone(),
                ..romirami_server::push::PushConfig::default()
            },
            cluster: args.cluster.as_ref().map(|nats| {
                let mut cluster = ClusterConfig::new(nats.clone(), args.node_id.clone());
                cluster.name = args.cluster_name.clone();
                cluster.lease_ttl = std::time::Duration::from_millis(args.lease_ms.max(300));
                cluster
            }),
            ..Config::default()
        };
        let state =
            AppState::open(config, store).await.context("opening the server (its cluster, the games in play)")?;
        // One write, whose failure is not the server's (whoever reads standard output may have stopped).
        let mut banner = format!(
            "Romi Rami Online is listening on http://{address}/ (WebSocket at ws://{address}/ws)\n\
             Games are stored in {}\n",
            redact_url(&args.database_url)
        );
        if let (Some(cluster), Some(nats)) = (&state.cluster, &args.cluster) {
            banner += &format!("Node {} of the cluster {} (NATS at {nats})\n", cluster.node, args.cluster_name);
        }
        let _ = std::io::Write::write_all(&mut std::io::stdout(), banner.as_bytes());
        run(listener, state, shutdown_signal()).await.context("serving")
    })
}

/// A database URL without its password, for messages.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

/// Completes on ctrl-c, or on SIGTERM where there is one.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// How `serve` writes its log lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Lines for people; coloured only when standard error is a terminal.
    Text,
    /// One JSON object a line (`timestamp`, `level`, `target`, `fields`), for log collectors.
    Json,
}

/// Logs to standard error in `format`, filtered by `RUST_LOG` (default `info`).
fn init_tracing(format: LogFormat) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(super::redact_url("postgres://ana:secret@db/romi"), "postgres://ana:***@db/romi");
        assert_eq!(super::redact_url("postgres://ana@db/romi"), "postgres://ana@db/romi");
        assert_eq!(super::redact_url("sqlite://romirami.db"), "sqlite://romirami.db");
    }
}
