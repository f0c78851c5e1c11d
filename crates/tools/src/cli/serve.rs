//! `romirami serve`: runs the game server until ctrl-c or SIGTERM ([`romirami_server::serve`]).

use std::net::SocketAddr;

use romirami_server::config::Config;
use romirami_server::serve::{self, Serve};

/// The arguments of `romirami serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "ROMIRAMI_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
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
    /// The folder of the web client to serve at `/` (default: `web/` here, or in the source tree).
    #[arg(long, env = "ROMIRAMI_WEB_DIR")]
    pub web_dir: Option<std::path::PathBuf>,
    /// Messages a connection may send per second, on average (raise it for load tests that play fast).
    #[arg(long, default_value_t = Config::default().messages_per_second)]
    pub messages_per_second: f64,
    /// Messages a connection may send in a burst above the average.
    #[arg(long, default_value_t = Config::default().message_burst)]
    pub message_burst: f64,
    /// The read buffer of each WebSocket, in bytes: what one read takes at most, held by every
    /// connection for its life.
    #[arg(long, default_value_t = Config::default().read_buffer_bytes)]
    pub read_buffer_bytes: usize,
}

/// Serves until ctrl-c or SIGTERM, then shuts down gracefully.
///
/// # Errors
/// When the runtime cannot start, the database cannot be opened or the address cannot be bound.
pub fn run_serve(args: &ServeArgs) -> anyhow::Result<()> {
    init_tracing();
    let config = Config {
        allowed_origins: args.allowed_origins.clone(),
        web_dir: args.web_dir.clone().or_else(romirami_server::config::default_web_dir),
        messages_per_second: args.messages_per_second,
        message_burst: args.message_burst,
        read_buffer_bytes: args.read_buffer_bytes,
        bot_delay: std::time::Duration::from_millis(args.bot_delay_ms),
        ..Config::default()
    };
    serve::run_until_signal(Serve { listen: args.listen, database_url: args.database_url.clone(), config })
}

/// Logs to standard error, filtered by `RUST_LOG` (default `info`).
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}
