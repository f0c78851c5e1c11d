//! A raw WebSocket client for attacks: it connects from a chosen loopback address (so that the
//! per-address limits can tell attackers from healthy players), writes frames byte for byte, and reads
//! what the server sent until the connection ends.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use romirami_client::romi_rami::ServerMsg;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The longest an attack connection waits for the server to end it.
const END_WAIT: Duration = Duration::from_secs(10);

/// A client frame with `first` (FIN and opcode) and `payload`, masked as a client's must be.
pub(crate) fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x5a, 0x13, 0xc4, 0x7e];
    let mut bytes = vec![first];
    match payload.len() {
        len @ 0..=125 => bytes.push(0x80 | len as u8),
        len => {
            bytes.push(0x80 | 126);
            bytes.extend_from_slice(&u16::try_from(len).expect("a short frame").to_be_bytes());
        }
    }
    bytes.extend_from_slice(&mask);
    bytes.extend(payload.iter().enumerate().map(|(i, byte)| byte ^ mask[i % 4]));
    bytes
}

/// An open attack connection.
pub(crate) struct Raw {
    stream: TcpStream,
    /// What the server sent after its upgrade answer, not yet parsed.
    buffer: Vec<u8>,
}

/// How an attack connection ended: the server's messages and its close frame, if one came.
#[derive(Debug)]
#[allow(dead_code, reason = "each attack file reads a different part")]
pub(crate) struct Ending {
    pub(crate) messages: Vec<ServerMsg>,
    pub(crate) close: Option<(u16, String)>,
}

impl Ending {
    /// The close as `code reason`, or `dropped` without a close frame.
    pub(crate) fn close_name(&self) -> String {
        self.close.as_ref().map_or_else(|| "dropped".to_owned(), |(code, reason)| format!("{code} {reason}"))
    }
}

impl Raw {
    /// Connects from `from` to the server at `server` and upgrades to a WebSocket.
    pub(crate) async fn connect(server: SocketAddr, from: IpAddr) -> Raw {
        let socket = TcpSocket::new_v4().expect("a socket");
        socket.bind(SocketAddr::new(from, 0)).expect("a loopback source address");
        let mut stream = socket.connect(server).await.expect("connects");
        let request = format!(
            "GET /ws HTTP/1.1\r\nHost: {server}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.expect("the upgrade request is sent");
        let mut buffer = Vec::new();
        let end = loop {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let mut chunk = [0u8; 1024];
            let read = stream.read(&mut chunk).await.expect("the upgrade answer");
            assert!(read > 0, "the server closed during the upgrade");
            buffer.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
        assert!(head.starts_with("HTTP/1.1 101"), "the upgrade was refused: {head}");
        buffer.drain(..end);
        Raw { stream, buffer }
    }

    /// Writes `bytes`; false once the server has closed the connection.
    pub(crate) async fn write(&mut self, bytes: &[u8]) -> bool {
        self.stream.write_all(bytes).await.is_ok()
    }

    /// Sends a text message.
    pub(crate) async fn text(&mut self, text: &str) -> bool {
        self.write(&frame(0x81, text.as_bytes())).await
    }

    /// Reads until the server ends the connection (within a bounded wait); returns what it sent.
    pub(crate) async fn finish(mut self) -> Ending {
        let mut rest = Vec::new();
        // A reset after the last frame ends the stream as well as a clean close does.
        let _ = tokio::time::timeout(END_WAIT, self.stream.read_to_end(&mut rest)).await;
        self.buffer.extend_from_slice(&rest);
        let mut messages = Vec::new();
        let mut close = None;
        let mut bytes = &self.buffer[..];
        while bytes.len() >= 2 {
            let (len, header) = match bytes[1] & 0x7f {
                126 if bytes.len() >= 4 => (usize::from(u16::from_be_bytes([bytes[2], bytes[3]])), 4),
                126 | 127 => break,
                len => (usize::from(len), 2),
            };
            let Some(payload) = bytes.get(header..header + len) else { break };
            match bytes[0] & 0x0f {
                1 => messages.push(serde_json::from_slice(payload).expect("a message of the protocol")),
                8 if payload.len() >= 2 => {
                    let reason = String::from_utf8_lossy(&payload[2..]).into_owned();
                    close = Some((u16::from_be_bytes([payload[0], payload[1]]), reason));
                }
                _ => {}
            }
            bytes = &bytes[header + len..];
        }
        Ending { messages, close }
    }
}
