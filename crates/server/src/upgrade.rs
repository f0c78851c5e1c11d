//! The WebSocket upgrade at `/ws`: the Origin check, the client address's connection limit, and the
//! handshake (RFC 6455 section 4.2).
//!
//! The handshake is done here rather than by axum's `WebSocketUpgrade` so that the upgraded byte
//! stream goes through [`FrameMeter`], which counts every frame the client sends: axum hands out a
//! socket whose stream cannot be wrapped.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::close_code;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio::time::timeout;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tracing::debug;

use crate::addresses::{Addresses, client_address};
use crate::config::Config;
use crate::frames::FrameMeter;
use crate::protocol::ErrorCode;
use crate::state::{AppState, OpenConnections};
use crate::table::ConnId;
use crate::wire::ServerMsg;
use crate::ws::Socket;

/// The largest message a connection reads to its end; [`Config::max_message_bytes`] is checked on what was
/// read, so that a client whose message is too large, up to this size, receives the 1009 close. A larger
/// one is refused at its frame's header, with the rest of it unread, and closing a socket with unread
/// input resets the connection (the close frame may then be lost).
pub(crate) const READ_WHOLE_BYTES: usize = 64 * 1024;

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

/// Whether the header `name` holds `token` in its comma-separated list, in any case.
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|item| item.trim().eq_ignore_ascii_case(token))
}

/// `GET /ws`: checks the request and answers `101 Switching Protocols`; the connection then runs in a
/// task of its own (`ws.rs`).
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
) -> Response {
    let headers = request.headers();
    if !origin_allowed(headers, &state.config) {
        return (StatusCode::FORBIDDEN, "this origin may not open a game connection").into_response();
    }
    if !has_token(headers, header::CONNECTION, "upgrade") || !has_token(headers, header::UPGRADE, "websocket") {
        return (StatusCode::UPGRADE_REQUIRED, "this is the game's WebSocket: connect with a WebSocket client")
            .into_response();
    }
    if headers.get(header::SEC_WEBSOCKET_VERSION).is_none_or(|version| version != "13") {
        return (StatusCode::BAD_REQUEST, "only WebSocket version 13 is spoken here").into_response();
    }
    let Some(accept) = headers.get(header::SEC_WEBSOCKET_KEY).map(|key| derive_accept_key(key.as_bytes())) else {
        return (StatusCode::BAD_REQUEST, "the Sec-WebSocket-Key header is missing").into_response();
    };
    if state.heartbeat.shutting_down() {
        return (StatusCode::SERVICE_UNAVAILABLE, "the server is shutting down").into_response();
    }
    let Some(on_upgrade) = request.extensions_mut().remove::<hyper::upgrade::OnUpgrade>() else {
        return (StatusCode::UPGRADE_REQUIRED, "this connection cannot be upgraded").into_response();
    };
    let address = client_address(peer, request.headers(), &state.config);
    // A refused address still gets its socket, so that a browser, which cannot read an HTTP answer to
    // an upgrade, learns why: an error with its code, then a close.
    let slot = Addresses::open(&state.addresses, address, &state.config);
    let id = ConnId(state.next_conn.fetch_add(1, Ordering::Relaxed));
    let guard = OpenConnections::open(&state.connections);
    // Boxed: the task keeps the room of what it captures for the connection's whole life, beside the
    // connection's own state; a box is 8 bytes of it.
    let held = Box::new((state, guard, slot));
    tokio::spawn(async move {
        let upgraded = match on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(error) => return debug!(%error, "the upgrade did not complete"),
        };
        let (state, guard, slot) = *held;
        let socket = socket(TokioIo::new(upgraded), &state.config).await;
        match slot {
            Ok(slot) => crate::ws::serve(socket, state, id, guard, address, slot).await,
            Err(()) => refuse_too_many(socket, &state.config).await,
        }
    });
    let mut response = StatusCode::SWITCHING_PROTOCOLS.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    if let Ok(accept) = HeaderValue::from_str(&accept) {
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    response
}

/// The WebSocket over an upgraded connection, every frame counted.
async fn socket(io: TokioIo<hyper::upgrade::Upgraded>, config: &Arc<Config>) -> Socket {
    let limit = config.max_message_bytes.max(READ_WHOLE_BYTES);
    // Frames wait in the write buffer until the connection flushes what it wrote (`ws.rs`): one `send`
    // for all the frames queued at once. The buffer grows only as large as those batches.
    let settings = WebSocketConfig::default()
        .max_message_size(Some(limit))
        .max_frame_size(Some(limit))
        .read_buffer_size(config.read_buffer_bytes)
        .write_buffer_size(crate::ws::BATCH_BYTES);
    WebSocketStream::from_raw_socket(FrameMeter::new(io, config), Role::Server, Some(settings)).await
}

/// Answers a connection whose address has as many open as allowed: an error saying so, then a 1008
/// close (a browser cannot read an HTTP refusal of its upgrade).
async fn refuse_too_many(mut socket: Socket, config: &Config) {
    crate::metrics::closed("too many connections");
    let error = ServerMsg::error(
        None,
        None,
        ErrorCode::TooManyConnections,
        format!(
            "your address has {} game connections open, as many as this server allows; close one to open another",
            config.max_connections_per_address
        ),
    );
    let close = CloseFrame { code: close_code::POLICY.into(), reason: "too many connections".into() };
    let _ = timeout(config.write_timeout, async {
        socket.feed(Message::Text(error.to_json().into())).await?;
        socket.send(Message::Close(Some(close))).await
    })
    .await;
    let _ = timeout(config.close_linger, async { while let Some(Ok(_)) = socket.next().await {} }).await;
}
