//! The HTTP side: the router, and `run`, which serves a listener until a shutdown signal and then
//! closes every connection cleanly. The WebSocket upgrade is in `upgrade.rs`.
//!
//! `run` is its own accept loop over hyper rather than `axum::serve`, for the limits axum does not
//! set: how long a client may take to send a request's headers (without a timer hyper waits forever,
//! and half-sent requests pile up), how large they may be, and the client's address for the
//! per-address limits.

use std::future::Future;
use std::pin::pin;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{Method, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::add_extension::AddExtension;
use tower_http::cors::{Any, CorsLayer};
use tower_http::timeout::TimeoutLayer;
use tracing::{debug, error, info};

pub use crate::state::{AppState, OpenError};

/// The server's routes.
pub fn app(state: AppState) -> Router {
    let config = state.config.clone();
    // The REST API is public and read-only: any page may read it.
    let cors = CorsLayer::new().allow_origin(Any).allow_methods([Method::GET]);
    let router = Router::new()
        .route("/metrics", get(metrics))
        .merge(crate::api::routes().layer(cors))
        .merge(crate::web::routes(&config.web))
        .layer(axum::middleware::from_fn(crate::web::refuse_frames));
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
    // What the tournaments' runners did is stored; they stop here (a node that starts directs them again).
    state.tournaments.stop_all();
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
