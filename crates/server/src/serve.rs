//! Serving from a process: what `romirami serve` (in `romirami-tools`) does once its arguments are
//! parsed. Opens the store, binds the address, restores the games in play, announces itself on standard
//! output and serves until ctrl-c or SIGTERM, then shuts down gracefully.

use std::net::SocketAddr;

use anyhow::Context;

use crate::config::Config;
use crate::store::Store;
use crate::{AppState, run};

/// Where to serve, and with what.
#[derive(Clone, Debug)]
pub struct Serve {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// The database: `sqlite://path` (created when missing) or `postgres://user@host/db`.
    pub database_url: String,
    /// Every limit of the server.
    pub config: Config,
}

/// Serves `serve` on a runtime of its own until ctrl-c or SIGTERM, then shuts down gracefully.
///
/// # Errors
/// When the runtime cannot start, the database cannot be opened, the address cannot be bound or the games
/// in play cannot be restored.
pub fn run_until_signal(serve: Serve) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    // Each connection is a file: take every one the system allows this process.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let Serve { listen, database_url, config } = serve;
    runtime.block_on(async {
        let store = Store::connect(&database_url)
            .await
            .with_context(|| format!("opening the database {}", redact_url(&database_url)))?;
        let listener = tokio::net::TcpListener::bind(listen).await.with_context(|| format!("binding {listen}"))?;
        let address = listener.local_addr()?;
        let state = AppState::open(config, store).await.context("restoring the games in play")?;
        // One write, whose failure is not the server's (whoever reads standard output may have stopped).
        let banner = format!(
            "Romi Rami Online is listening on http://{address}/ (WebSocket at ws://{address}/ws)\n\
             Games are stored in {}\n",
            redact_url(&database_url)
        );
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

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(super::redact_url("postgres://ana:secret@db/romi"), "postgres://ana:***@db/romi");
        assert_eq!(super::redact_url("postgres://ana@db/romi"), "postgres://ana@db/romi");
        assert_eq!(super::redact_url("sqlite://romirami.db"), "sqlite://romirami.db");
    }
}
