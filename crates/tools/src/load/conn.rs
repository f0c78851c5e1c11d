//! Opening a client WebSocket the way the load generator does: from a chosen local address, with
//! `TCP_NODELAY`, and with small buffers so that one process can hold tens of thousands.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU32, Ordering};

use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, protocol::WebSocketConfig};

/// A client connection of the load generator.
pub type Ws = WebSocketStream<TcpStream>;

/// The buffers of every WebSocket the load generator opens (and of the echo server): a 1 KiB read
/// buffer, and frames written straight to the socket. A larger message is still read whole.
pub fn small_buffers() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(1024).write_buffer_size(0).max_message_size(Some(1 << 20))
}

/// Hands out the local ports of one source address in turn, so that binding does not make the system
/// search its ephemeral range for a free port (a search that grows with every port in use: past about
/// 100,000 connections on one machine, each `bind(ip, 0)` took milliseconds). One worker owns its
/// source address, so its ports are its own.
#[derive(Debug, Default)]
pub struct Ports(AtomicU32);

impl Ports {
    /// The lowest port handed out; below are the well-known ports.
    const FIRST: u32 = 1024;

    fn next(&self) -> u16 {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        // 1024 + (n mod 64512) is at most 65535.
        u16::try_from(Ports::FIRST + n % (65536 - Ports::FIRST)).unwrap_or(u16::MAX)
    }
}

/// Connects to `ws://server{path}`, from `source` when given, on the next of its `ports` that is free.
///
/// # Errors
/// When the TCP connection or the WebSocket handshake fails.
pub async fn connect(
    server: SocketAddr,
    path: &str,
    source: Option<IpAddr>,
    ports: &Ports,
) -> Result<Ws, tungstenite::Error> {
    let new_socket = || if server.is_ipv4() { TcpSocket::new_v4() } else { TcpSocket::new_v6() };
    let mut socket = new_socket()?;
    if let Some(ip) = source {
        // A port still held by an earlier run's closed connection (TIME_WAIT) may be reused; one held by
        // a live socket is skipped.
        let mut tries = 0;
        loop {
            socket.set_reuseaddr(true)?;
            match socket.bind(SocketAddr::new(ip, ports.next())) {
                Ok(()) => break,
                Err(error) if tries < 100 && error.kind() == std::io::ErrorKind::AddrInUse => {
                    tries += 1;
                    socket = new_socket()?;
                }
                Err(error) => return Err(error.into()),
            }
        }
    }
    let stream = socket.connect(server).await?;
    stream.set_nodelay(true)?;
    let url = format!("ws://{server}{path}");
    let (ws, _) = tokio_tungstenite::client_async_with_config(url, stream, Some(small_buffers())).await?;
    Ok(ws)
}

/// The `"type"` of a server message, read from its start without parsing the rest: the server writes
/// `type` first (`{"type":"events",...`).
pub fn message_type(text: &str) -> &str {
    text.strip_prefix(r#"{"type":""#).and_then(|rest| rest.split('"').next()).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_type_is_read_from_the_start_of_a_message() {
        assert_eq!(message_type(r#"{"type":"events","table":"x"}"#), "events");
        assert_eq!(message_type(r#"{"type":"ack"}"#), "ack");
        assert_eq!(message_type(r#"{"table":"x","type":"ack"}"#), "");
        assert_eq!(message_type("not json"), "");
    }
}
