//! A WebSocket client that speaks the protocol as plain JSON, for games whose types the client crate
//! does not know: it sends `serde_json::Value`s and reads every message as one, keeping their texts.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

pub(crate) struct JsonWs {
    socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    /// Every text received, in order.
    pub(crate) texts: Vec<String>,
}

impl JsonWs {
    /// A new guest called `name`, welcomed.
    pub(crate) async fn guest(url: &str, name: &str) -> JsonWs {
        JsonWs::hello(url, json!({ "type": "hello", "protocol": 1, "name": name })).await.0
    }

    /// A new guest called `name`, welcomed, connecting through a proxy that says the client is `address`
    /// (`X-Forwarded-For`: the server must trust the loopback proxy).
    pub(crate) async fn guest_from(url: &str, name: &str, address: &str) -> JsonWs {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = url.into_client_request().expect("a request");
        request.headers_mut().insert("x-forwarded-for", address.parse().expect("a header value"));
        let (socket, _) = tokio_tungstenite::connect_async(request).await.expect("connects");
        let mut client = JsonWs { socket, texts: Vec::new() };
        client.send(json!({ "type": "hello", "protocol": 1, "name": name })).await;
        let welcome = client.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client
    }

    /// A connection greeted with `hello` (a name, or a returning player's token); the `welcome` too.
    pub(crate) async fn hello(url: &str, hello: Value) -> (JsonWs, Value) {
        let (socket, _) = tokio_tungstenite::connect_async(url).await.expect("connects");
        let mut client = JsonWs { socket, texts: Vec::new() };
        client.send(hello).await;
        let welcome = client.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        (client, welcome)
    }

    pub(crate) async fn send(&mut self, msg: Value) {
        self.socket.send(Message::text(msg.to_string())).await.expect("sent");
    }

    /// The next message, within `limit`.
    pub(crate) async fn recv_within(&mut self, limit: Duration) -> Value {
        loop {
            let frame = tokio::time::timeout(limit, self.socket.next())
                .await
                .expect("a message in time")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(text) = frame {
                self.texts.push(text.to_string());
                return serde_json::from_str(&text).expect("JSON");
            }
        }
    }

    pub(crate) async fn recv(&mut self) -> Value {
        self.recv_within(Duration::from_secs(10)).await
    }

    /// Reads until a message of `kind` comes, within `limit` for each; returns it.
    pub(crate) async fn wait_for_type(&mut self, kind: &str, limit: Duration) -> Value {
        loop {
            let msg = self.recv_within(limit).await;
            if msg["type"] == kind {
                return msg;
            }
        }
    }
}
