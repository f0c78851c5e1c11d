//! The HTTP side: the router, and `run`, which serves a listener until a shutdown signal and then
//! closes every connection cleanly. The WebSocket upgrade is in `upgrade.rs`.
//!
//! `run` is its own accept loop over hyper rather than `axum::serve`, for the limits axum does not
//! set: how long a client may take to send a request's headers (without a timer hyper waits forever,
//! and half-sent requests pile up), how large they may be, and the client's address for the
//! per-address limits.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{Method, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tower_http::add_extension::AddExtension;
use tower_http::cors::{Any, CorsLayer};
use tower_http::timeout::TimeoutLayer;
use tracing::{debug, error, info};

use crate::addresses::Addresses;
use crate::cluster::{Cluster, ClusterError};
use crate::config::Config;
use crate::heartbeat::Heartbeat;
use crate::lobby::Lobby;
use crate::names::Names;
use crate::players::Players;
use crate::store::{Committer, Store, StoreError, Writer};
use crate::table;

/// What every request handler and connection shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Settings and limits.
    pub config: Arc<Config>,
    /// Known players.
    pub players: Arc<Players>,
    /// Names kept with a password, and sign-ins.
    pub names: Arc<Names>,
    /// Live tables.
    pub lobby: Arc<Lobby>,
    /// Where everything is kept.
    pub store: Store,
    /// Commits actions in groups.
    pub committer: Committer,
    /// Commits the other writes (guests, tables, seats, starts and finishes of games) in groups.
    pub writer: Writer,
    /// Wakes the connections to ping their clients, and tells them when the server shuts down.
    pub(crate) heartbeat: Arc<Heartbeat>,
    /// Open connections and new guests per client address.
    pub(crate) addresses: Arc<Addresses>,
    /// How many connections are open; the server waits for none after a shutdown.
    pub(crate) connections: Arc<OpenConnections>,
    pub(crate) next_conn: Arc<AtomicU64>,
    /// What the tables read of `config`, made once.
    pub(crate) table_config: Arc<table::TableConfig>,
    /// This node's part in its cluster; `None` for a single server.
    pub cluster: Option<Arc<Cluster>>,
}

/// Why the server could not open.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The store could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The node could not join its cluster.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

impl AppState {
    /// The server's state with these settings over `store`, with every game that was in play when the
    /// server last stopped back at its table. Starts the group-commit tasks on the current runtime.
    ///
    /// # Errors
    /// When the store cannot be read, or the node cannot join the cluster its configuration names.
    pub async fn open(config: Config, store: Store) -> Result<AppState, OpenError> {
        let heartbeat = Heartbeat::start(config.ping_interval);
        let lobby = Arc::new(Lobby::default());
        // A node joins its cluster before it restores: the tables it restores are those it can lease.
        let cluster = match &config.cluster {
            Some(cluster) => Some(Arc::new(Cluster::join(cluster, &store, &lobby, &config.games).await?)),
            None => None,
        };
        let (committer, _task) = Committer::spawn(store.clone(), config.commit_queue, config.commit_batch);
        let (writer, _task) = Writer::spawn(store.clone(), config.write_queue, config.write_batch);
        let table_config = Arc::new(table::TableConfig::of(&config));
        let config = Arc::new(config);
        let players = Arc::new(Players::new(store.clone(), writer.clone()));
        let state = AppState {
            names: Arc::new(Names::new(store.clone(), players.clone(), config.clone())),
            config,
            players,
            lobby,
            store,
            committer,
            writer,
            heartbeat,
            addresses: Arc::default(),
            connections: Arc::default(),
            next_conn: Arc::new(AtomicU64::new(1)),
            table_config,
            cluster,
        };
        let restored = table::restore(&state.services()).await?;
        if restored > 0 {
            info!(restored, "games in play restored from the store");
        }
        if let Some(cluster) = &state.cluster {
            cluster.start_takeovers(state.services());
        }
        Ok(state)
    }

    /// What the tables share with the rest of the server.
    pub fn services(&self) -> table::Services {
        table::Services {
            lobby: self.lobby.clone(),
            config: self.config.clone(),
            table_config: self.table_config.clone(),
            store: self.store.clone(),
            committer: self.committer.clone(),
            writer: self.writer.clone(),
            ownership: self.cluster.as_ref().map(|cluster| Arc::clone(&cluster.ownership)),
        }
    }
}

/// Counts open connections, so that a shutdown can wait for the last one.
#[derive(Debug, Default)]
pub(crate) struct OpenConnections {
    count: AtomicU64,
    closed: Notify,
}

/// Held by a connection's task while it runs.
pub(crate) struct ConnectionGuard(Arc<OpenConnections>);

impl OpenConnections {
    pub(crate) fn open(this: &Arc<OpenConnections>) -> ConnectionGuard {
        this.count.fetch_add(1, Ordering::AcqRel);
        ConnectionGuard(this.clone())
    }

    async fn all_closed(&self) {
        loop {
            let closed = self.closed.notified();
            if self.count.load(Ordering::Acquire) == 0 {
                return;
            }
            closed.await;
        }
    }
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.closed.notify_waiters();
        }
    }
}

/// The largest message a connection reads to its end; [`Config::max_message_bytes`] is checked on what was
/// read, so that a client whose message is too large, up to this size, receives the 1009 close. A larger
/// one is refused at its frame's header, with the rest of it unread, and closing a socket with unread
/// input resets the connection (the close frame may then be lost).
pub(crate) const READ_WHOLE_BYTES: usize = 64 * 1024;

/// The server's routes.
pub fn app(state: AppState) -> Router {
    let config = state.config.clone();
    // The REST API is public and read-only: any page may read it.
    let cors = CorsLayer::new().allow_origin(Any).allow_methods([Method::GET]);
    let router = Router::new()
        .route("/metrics", get(metrics))
        .merge(crate::api::routes().layer(cors))
        .merge(crate::web::routes(&config.web));
    // Every request but the WebSocket's, which lives on, has a time limit.
    router
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout))
        .route("/ws", get(crate::upgrade::upgrade))
        .with_state(state)
}

/// The metrics, in the Prometheus text format (see [`crate::metrics`]).
async fn metrics() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], crate::metrics::render())
}

/// Serves `listener` until `shutdown` completes; then stops accepting, tells every connected client
/// that the server is going away, and returns once every connection has closed.
///
/// # Errors
/// When the listener fails.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let address = listener.local_addr()?;
    info!(%address, "serving");
    let router = app(state.clone());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(state.config.header_read_timeout)
        .max_header_size(state.config.max_header_bytes);
    // Each HTTP connection's task holds a receiver: `closed` tells when the last one has ended.
    let (stopping, stop) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(error).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Small frames go out at once: an `ack` must not wait for the client's delayed ACK of the
        // `events` written just before it (Nagle's algorithm would hold it back some 40 ms).
        let _ = tcp.set_nodelay(true);
        let service = TowerToHyperService::new(AddExtension::new(router.clone(), ConnectInfo(peer)));
        let connection = http.serve_connection(TokioIo::new(tcp), service).with_upgrades();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let mut connection = pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                _ = stop.changed() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = result {
                debug!(%peer, %error, "an HTTP connection ended with an error");
            }
            drop(stop);
        });
    }
    info!("shutting down: closing connections");
    drop(listener);
    state.heartbeat.shut_down();
    let _ = stopping.send(true);
    drop(stop);
    stopping.closed().await;
    state.connections.all_closed().await;
    info!("every connection closed");
    if let Some(cluster) = &state.cluster {
        // The other nodes take this node's tables over at their next round, rather than after the leases run out.
        cluster.hand_over().await;
        info!("the tables are handed over to the cluster");
    }
    Ok(())
}

/// Waits after a failed accept: at once for a connection that failed on its own, a second for a
/// failure of the server's (out of file descriptors, say), which a moment may cure.
async fn accept_failed(error: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(error.kind(), ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset)
    {
        return;
    }
    error!(%error, "accept failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
