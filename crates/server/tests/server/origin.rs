//! The Origin check on the WebSocket upgrade: a browser page from another site may not open a game
//! connection unless the operator allows its origin.

use crate::common;

use common::{TestServer, quick_close};
use romirami_server::config::Config;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

async fn connect_from(url: &str, origin: Option<&str>) -> Result<(), u16> {
    let mut request = url.into_client_request().expect("a valid url");
    if let Some(origin) = origin {
        request.headers_mut().insert("Origin", HeaderValue::from_str(origin).expect("a header value"));
    }
    match connect_async(request).await {
        Ok(_) => Ok(()),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(other) => panic!("unexpected failure: {other}"),
    }
}

#[tokio::test]
async fn only_the_servers_own_and_allowed_origins_may_connect() {
    let server =
        TestServer::start(Config { allowed_origins: vec!["https://friends.example".into()], ..quick_close() }).await;
    let host = server.url.trim_start_matches("ws://").trim_end_matches("/ws").to_owned();
    assert_eq!(connect_from(&server.url, None).await, Ok(()), "programs send no Origin");
    assert_eq!(connect_from(&server.url, Some(&format!("http://{host}"))).await, Ok(()), "the server's own pages");
    assert_eq!(connect_from(&server.url, Some("https://friends.example")).await, Ok(()), "an allowed origin");
    assert_eq!(connect_from(&server.url, Some("https://evil.example")).await, Err(403));
    assert_eq!(connect_from(&server.url, Some("null")).await, Err(403));
    server.shutdown().await;
}

#[tokio::test]
async fn a_star_allows_every_origin() {
    let server = TestServer::start(Config { allowed_origins: vec!["*".into()], ..quick_close() }).await;
    assert_eq!(connect_from(&server.url, Some("https://anyone.example")).await, Ok(()));
    server.shutdown().await;
}
