//! The HTTP side: the router, the WebSocket upgrade with its Origin check, and `run`, which serves a
//! listener until a shutdown signal and then closes every connection cleanly.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower_http::cors::{Any, CorsLayer};
use tower_http::services::{ServeDir, ServeFile};
use tracing::info;

use crate::config::Config;
use crate::heartbeat::Heartbeat;
use crate::lobby::Lobby;
use crate::players::Players;
use crate::store::{Committer, Store, StoreError, Writer};
use crate::table::{self, ConnId};

/// What every request handler and connection shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Settings and limits.
    pub config: Arc<Config>,
    /// Known players.
    pub players: Arc<Players>,
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
    /// How many connections are open; the server waits for none after a shutdown.
    connections: Arc<OpenConnections>,
    next_conn: Arc<AtomicU64>,
}

impl AppState {
    /// The server's state with these settings over `store`, with every game that was in play when the
    /// server last stopped back at its table. Starts the group-commit tasks on the current runtime.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn open(config: Config, store: Store) -> Result<AppState, StoreError> {
        let heartbeat = Heartbeat::start(config.ping_interval);
        let (committer, _task) = Committer::spawn(store.clone(), config.commit_queue, config.commit_batch);
        let (writer, _task) = Writer::spawn(store.clone(), config.write_queue, config.write_batch);
        let state = AppState {
            config: Arc::new(config),
            players: Arc::new(Players::new(store.clone(), writer.clone())),
            lobby: Arc::new(Lobby::default()),
            store,
            committer,
            writer,
            heartbeat,
            connections: Arc::default(),
            next_conn: Arc::new(AtomicU64::new(1)),
        };
        let restored = table::restore(&state.services()).await?;
        if restored > 0 {
            info!(restored, "games in play restored from the store");
        }
        Ok(state)
    }

    /// What the tables share with the rest of the server.
    pub fn services(&self) -> table::Services {
        table::Services {
            lobby: self.lobby.clone(),
            config: self.config.clone(),
            store: self.store.clone(),
            committer: self.committer.clone(),
            writer: self.writer.clone(),
        }
    }
}

/// Counts open connections, so that a shutdown can wait for the last one.
#[derive(Debug, Default)]
struct OpenConnections {
    count: AtomicU64,
    closed: Notify,
}

/// Held by a connection's task while it runs.
pub(crate) struct ConnectionGuard(Arc<OpenConnections>);

impl OpenConnections {
    fn open(this: &Arc<OpenConnections>) -> ConnectionGuard {
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
    let web_dir = state.config.web_dir.clone();
    // The REST API is public and read-only: any page may read it.
    let cors = CorsLayer::new().allow_origin(Any).allow_methods([Method::GET]);
    let router = Router::new()
        .route("/ws", get(upgrade))
        .route("/metrics", get(metrics))
        .merge(crate::api::routes().layer(cors))
        .with_state(state);
    match web_dir {
        Some(dir) => router.merge(client_files(&dir)),
        None => router,
    }
}

/// The web client's own files: its page (also at `/`), its stylesheet and its modules. Nothing else in
/// its folder is served (the folder also holds notes and the end-to-end test); other paths are 404.
fn client_files(dir: &Path) -> Router {
    let page = ServeFile::new(dir.join("index.html"));
    Router::new()
        .route_service("/", page.clone())
        .route_service("/index.html", page)
        .route_service("/style.css", ServeFile::new(dir.join("style.css")))
        .nest_service("/js", ServeDir::new(dir.join("js")))
}

/// The metrics, in the Prometheus text format (see [`crate::metrics`]).
async fn metrics() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], crate::metrics::render())
}

/// Whether a browser page from `origin` may open a socket: the server's own host, or one the operator
/// allowed. Programs send no Origin and are not asked.
fn origin_allowed(headers: &HeaderMap, config: &Config) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else { return true };
    if config.allowed_origins.iter().any(|allowed| allowed == "*" || allowed.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

async fn upgrade(State(state): State<AppState>, headers: HeaderMap, ws: WebSocketUpgrade) -> Response {
    if !origin_allowed(&headers, &state.config) {
        return (StatusCode::FORBIDDEN, "this origin may not open a game connection").into_response();
    }
    if state.heartbeat.shutting_down() {
        return (StatusCode::SERVICE_UNAVAILABLE, "the server is shutting down").into_response();
    }
    let id = ConnId(state.next_conn.fetch_add(1, Ordering::Relaxed));
    let limit = state.config.max_message_bytes.max(READ_WHOLE_BYTES);
    let guard = OpenConnections::open(&state.connections);
    let read_buffer = state.config.read_buffer_bytes;
    // Boxed: axum's upgrade task keeps the room of its callback's captures for the connection's whole
    // life, beside the connection's own state; a box is 8 bytes of it.
    let held = Box::new((state, guard));
    // Frames wait in the write buffer until the connection flushes what it wrote (`ws.rs`): one `send`
    // for all the frames queued at once. The buffer grows only as large as those batches.
    let batch = crate::ws::BATCH_BYTES;
    ws.max_message_size(limit).max_frame_size(limit).read_buffer_size(read_buffer).write_buffer_size(batch).on_upgrade(
        move |socket| {
            let (state, guard) = *held;
            crate::ws::serve(socket, state, id, guard)
        },
    )
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
    let heartbeat = state.heartbeat.clone();
    let router = app(state.clone());
    // Small frames go out at once: an `ack` must not wait for the client's delayed ACK of the `events`
    // written just before it (Nagle's algorithm would hold it back some 40 ms).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            info!("shutting down: closing connections");
            heartbeat.shut_down();
        })
        .await?;
    state.connections.all_closed().await;
    info!("every connection closed");
    Ok(())
}
