//! A client of the Romi Rami Online protocol over a real WebSocket, and bot players built on it
//! ([`bots`]): what the server's integration tests, `romirami bots`, the load generator and the crash
//! harness use, and a reference for writing other clients. It knows the server only by its messages
//! (`romirami-protocol`).
//!
//! A guest on a running server, then a whole game of three bot players at a private table:
//!
//! ```no_run
//! # async fn demo() -> Result<(), romirami_client::ClientError> {
//! use romirami_client::{Client, bots};
//! use romirami_client::romi_rami::{ClientMsg, ServerMsg};
//!
//! let url = "ws://127.0.0.1:8080/ws";
//! let (mut ana, player, _token) = Client::guest(url, "Ana").await?;
//! ana.send(&ClientMsg::LobbySubscribe).await?;
//! let tables = ana.wait_for(|msg| match msg {
//!     ServerMsg::Lobby { tables } => Some(tables.len()),
//!     _ => None,
//! }).await?;
//! println!("{} sees {tables} public tables", player.name);
//!
//! let game = bots::play_game(url, 3, "player").await?;
//! println!("{} actions, winners {:?}", game.actions, game.result.winners);
//! # Ok(())
//! # }
//! ```

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use romirami_protocol::{Limits, PROTOCOL_VERSION, PlayerInfo};

use crate::romi_rami::{ClientMsg, ServerMsg};

use crate::pace::Pace;

pub mod bots;
pub mod family;
mod pace;
pub mod romi_rami;
pub mod tournament;

/// Why a client call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The WebSocket failed.
    #[error("websocket: {0}")]
    Socket(#[from] tokio_tungstenite::tungstenite::Error),
    /// The server sent something that is not a message of the protocol.
    #[error("unreadable message from the server: {0}")]
    Unreadable(String),
    /// The server closed the connection.
    #[error("the server closed the connection{}", .0.as_ref().map(|(c, r)| format!(" ({c}: {r})")).unwrap_or_default())]
    Closed(Option<(u16, String)>),
    /// Nothing arrived in time.
    #[error("no message from the server in {0:?}")]
    Timeout(Duration),
    /// The server answered something unexpected.
    #[error("unexpected answer: {0}")]
    Unexpected(String),
}

/// One connection to a server.
#[derive(Debug)]
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, when recording is on (for tests that search frames).
    pub recorded: Option<Vec<String>>,
    /// Paces sends to the server's announced rate, once welcomed.
    pace: Option<Pace>,
}

/// Keeps sends under the server's announced rate limit, with a margin.
fn pace(limits: Limits) -> Pace {
    // Keep a tenth below the limit: the server counts arrivals, which network jitter can bunch.
    Pace::new((limits.message_burst * 0.5).max(1.0), limits.messages_per_second * 0.9)
}

impl Client {
    /// Connects to `url` (e.g. `ws://127.0.0.1:8080/ws`).
    ///
    /// # Errors
    /// When the connection or the upgrade fails.
    pub async fn connect(url: &str) -> Result<Client, ClientError> {
        let (socket, _) = connect_async(url).await?;
        Ok(Client { socket, recorded: None, pace: None })
    }

    /// Connects and says hello as a new guest named `name`; returns the client, who it is and its token.
    ///
    /// # Errors
    /// When connecting fails or the server refuses.
    pub async fn guest(url: &str, name: &str) -> Result<(Client, PlayerInfo, String), ClientError> {
        let mut client = Client::connect(url).await?;
        client.send(&ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: None, name: Some(name.to_owned()) }).await?;
        match client.recv().await? {
            ServerMsg::Welcome { player, token: Some(token), limits, .. } => {
                client.pace = Some(pace(limits));
                Ok((client, player, token))
            }
            other => Err(ClientError::Unexpected(format!("{other:?}"))),
        }
    }

    /// Connects and says hello with a returning player's token.
    ///
    /// # Errors
    /// When connecting fails or the server refuses.
    pub async fn returning(url: &str, token: &str) -> Result<(Client, PlayerInfo), ClientError> {
        let mut client = Client::connect(url).await?;
        client
            .send(&ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: Some(token.to_owned()), name: None })
            .await?;
        match client.recv().await? {
            ServerMsg::Welcome { player, limits, .. } => {
                client.pace = Some(pace(limits));
                Ok((client, player))
            }
            other => Err(ClientError::Unexpected(format!("{other:?}"))),
        }
    }

    /// Sends a message.
    ///
    /// # Errors
    /// When the socket fails.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        if let Some(pace) = &mut self.pace {
            pace.wait().await;
        }
        let text = serde_json::to_string(msg).map_err(|e| ClientError::Unreadable(e.to_string()))?;
        self.send_raw(Message::text(text)).await
    }

    /// Sends a message written as JSON (for a game whose types this crate does not know).
    ///
    /// # Errors
    /// When the socket fails.
    pub async fn send_json(&mut self, msg: &serde_json::Value) -> Result<(), ClientError> {
        if let Some(pace) = &mut self.pace {
            pace.wait().await;
        }
        self.send_raw(Message::text(msg.to_string())).await
    }

    /// Sends any frame, well-formed or not (for tests of bad input).
    ///
    /// # Errors
    /// When the socket fails.
    pub async fn send_raw(&mut self, message: Message) -> Result<(), ClientError> {
        Ok(self.socket.send(message).await?)
    }

    /// The next message, waiting at most 10 seconds.
    ///
    /// # Errors
    /// When the socket fails or closes, a frame is not a protocol message, or nothing comes in time.
    pub async fn recv(&mut self) -> Result<ServerMsg, ClientError> {
        self.recv_within(Duration::from_secs(10)).await
    }

    /// The next message, waiting at most `limit`.
    ///
    /// # Errors
    /// As [`Client::recv`].
    pub async fn recv_within(&mut self, limit: Duration) -> Result<ServerMsg, ClientError> {
        self.recv_as(limit).await
    }

    /// The next message read as `T` (for example `serde_json::Value`, for a game whose types this
    /// crate does not know), waiting at most `limit`.
    ///
    /// # Errors
    /// As [`Client::recv`].
    pub async fn recv_as<T: serde::de::DeserializeOwned>(&mut self, limit: Duration) -> Result<T, ClientError> {
        // One deadline for the whole wait: pings skipped on the way do not extend it.
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let frame =
                tokio::time::timeout_at(deadline, self.socket.next()).await.map_err(|_| ClientError::Timeout(limit))?;
            match frame {
                None => return Err(ClientError::Closed(None)),
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Text(text))) => {
                    if let Some(recorded) = &mut self.recorded {
                        recorded.push(text.to_string());
                    }
                    return serde_json::from_str(&text).map_err(|e| ClientError::Unreadable(format!("{e}: {text}")));
                }
                Some(Ok(Message::Close(frame))) => {
                    return Err(ClientError::Closed(frame.map(|f| (u16::from(f.code), f.reason.to_string()))));
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Waits for the first message for which `pick` returns something, skipping others.
    ///
    /// # Errors
    /// As [`Client::recv`].
    pub async fn wait_for<T>(&mut self, mut pick: impl FnMut(&ServerMsg) -> Option<T>) -> Result<T, ClientError> {
        loop {
            let msg = self.recv().await?;
            if let Some(found) = pick(&msg) {
                return Ok(found);
            }
        }
    }

    /// Closes the connection.
    ///
    /// # Errors
    /// When the socket fails.
    pub async fn close(mut self) -> Result<(), ClientError> {
        Ok(self.socket.close(None).await?)
    }
}
