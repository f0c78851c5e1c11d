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

use std::collections::HashMap;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use romirami_protocol::{Limits, PROTOCOL_VERSION, PlayerInfo, TableId};

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
    /// Whether the client sends its seat's contribution to a deal by itself (as the web client does) when
    /// a table it sits at asks for it; on unless [`Client::contribute_by_hand`].
    contributes: bool,
    /// The contribution this client sent to each table's deal.
    contributed: HashMap<TableId, String>,
    /// Whether it sent one by itself.
    contributed_by_itself: bool,
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
        Ok(Client {
            socket,
            recorded: None,
            pace: None,
            contributes: true,
            contributed: HashMap::new(),
            contributed_by_itself: false,
        })
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

    /// From now on the client sends no contribution to a deal by itself: the caller sends its own
    /// (`contribute`), or the server draws the seat's.
    pub fn contribute_by_hand(&mut self) {
        self.contributes = false;
    }

    /// The contribution (64 hex digits) this client sent to `table`'s deal, by itself or by hand.
    pub fn contribution(&self, table: TableId) -> Option<&str> {
        self.contributed.get(&table).map(String::as_str)
    }

    /// A `table` message in `text` whose deal waits for this client's seat: the table and the seat's
    /// turn to contribute. A cheap look at the text first: most frames are not one.
    fn asked_to_contribute(&self, text: &str) -> Option<TableId> {
        if !self.contributes || !text.contains("\"contributions\"") || !text.contains("\"waiting\"") {
            return None;
        }
        let msg: serde_json::Value = serde_json::from_str(text).ok()?;
        if msg["type"] != "table" {
            return None;
        }
        let seat = msg["role"]["seat"].as_u64()?;
        let table: TableId = serde_json::from_value(msg["table"]["id"].clone()).ok()?;
        let waiting = msg["table"]["contributions"]["seats"].get(usize::try_from(seat).ok()?)? == "waiting";
        (waiting && !self.contributed.contains_key(&table)).then_some(table)
    }

    /// Whether `text` refuses a contribution that came after the deal was made.
    fn late_contribution(text: &str) -> bool {
        text.contains("\"not_dealing\"")
            && serde_json::from_str::<serde_json::Value>(text).is_ok_and(|msg| msg["code"] == "not_dealing")
    }

    /// Sends `value` as this client's seat's contribution to `table`'s deal.
    ///
    /// # Errors
    /// When the socket fails.
    pub async fn contribute(&mut self, table: TableId, value: &str) -> Result<(), ClientError> {
        self.contributed.insert(table, value.to_owned());
        self.send(&ClientMsg::Contribute { table, value: value.to_owned() }).await
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
                    if let Some(table) = self.asked_to_contribute(&text) {
                        let mut value = [0u8; 32];
                        getrandom::fill(&mut value).map_err(|e| ClientError::Unexpected(e.to_string()))?;
                        self.contribute(table, &hex::encode(value)).await?;
                        self.contributed_by_itself = true;
                    }
                    if self.contributed_by_itself && Client::late_contribution(&text) {
                        // The answer to a contribution the client sent by itself, read after the deal was
                        // made without it (the server drew the seat's): the caller never asked for it.
                        continue;
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
