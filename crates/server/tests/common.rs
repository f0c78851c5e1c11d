//! What the server's integration tests share: a real server on a free port.

#![allow(dead_code, reason = "each test file uses a different part")]

use romirami_server::config::Config;
use romirami_server::{AppState, run};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process on 127.0.0.1 and a free port.
pub(crate) struct TestServer {
    /// `ws://127.0.0.1:PORT/ws`
    pub(crate) url: String,
    /// The state it serves, to look inside.
    pub(crate) state: AppState,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    /// Starts a server with `config`.
    pub(crate) async fn start(config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let url = format!("ws://{}/ws", listener.local_addr().expect("bound"));
        let state = AppState::new(config);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(listener, state.clone(), async {
            stopped.await.ok();
        }));
        TestServer { url, state, stop: Some(stop), task: Some(task) }
    }

    /// Starts a server with the default limits.
    pub(crate) async fn default() -> TestServer {
        TestServer::start(Config::default()).await
    }

    /// Shuts the server down gracefully and waits until every connection is closed.
    pub(crate) async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            stop.send(()).ok();
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("server ran");
        }
    }
}
