//! Opening a client WebSocket the way the load generator does: from a chosen local address, with
//! `TCP_NODELAY`, and with small buffers so that one process can hold tens of thousands.

use std::net::{IpAddr, SocketAddr};

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

/// Connects to `ws://server{path}`, from `source` when given (port chosen by the system).
///
/// # Errors
/// When the TCP connection or the WebSocket handshake fails.
pub async fn connect(server: SocketAddr, path: &str, source: Option<IpAddr>) -> Result<Ws, tungstenite::Error> {
    let socket = if server.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    if let Some(ip) = source {
        socket.bind(SocketAddr::new(ip, 0))?;
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
