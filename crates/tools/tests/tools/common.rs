//! What the tools' integration tests share: a real server in this process on a free port, and a
//! PostgreSQL database of their own (the same file as the server's tests use, `support/pg.rs`).

use std::net::SocketAddr;

use romirami_server::config::Config;
use romirami_server::store::Store;
use romirami_server::{AppState, run};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process on 127.0.0.1 and a free port, with a SQLite database of its own.
pub(crate) struct TestServer {
    /// `127.0.0.1:PORT`
    pub(crate) addr: SocketAddr,
    /// The folder of its SQLite database, removed with the server.
    _dir: tempfile::TempDir,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Starts a server with `config`.
    pub(crate) async fn start(config: Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("bound");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("games.db").display());
        let store = Store::connect(&url).await.expect("the database opens");
        let state = AppState::open(config, store).await.expect("the server state opens");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(listener, state, async {
            stopped.await.ok();
        }));
        TestServer { addr, _dir: dir, stop, task }
    }

    /// Shuts the server down gracefully and waits until every connection is closed.
    pub(crate) async fn shutdown(self) {
        self.stop.send(()).ok();
        self.task.await.expect("server task").expect("server ran");
    }
}

/// The default limits, but with a rate limit that whole bot games at full speed stay far below: for
/// tests that are not about the rate limit.
pub(crate) fn fast() -> Config {
    Config {
        messages_per_second: 5000.0,
        message_burst: 5000.0,
        frames_per_second: 10_000.0,
        frame_burst: 10_000.0,
        ..Config::default()
    }
}

#[path = "../../../server/tests/support/pg.rs"]
mod pg;
#[allow(unused_imports, reason = "each test file uses a different part")]
pub(crate) use pg::PgDatabase;

/// The `romirami` binary, to run with arguments: it reads no `ROMIRAMI_*` setting from the environment
/// the tests run in, so that a developer's own settings (a cluster, say) cannot change what is tested.
pub(crate) fn romirami() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_romirami"));
    for name in romirami_tools::crash::inherited_settings() {
        command.env_remove(name);
    }
    command
}

/// Starts `romirami serve` on a free port over the SQLite file `database` with `extra` arguments, quiet;
/// returns the process and the address it prints (`127.0.0.1:PORT`).
pub(crate) fn serve(database: &str, extra: &[&str]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut server = romirami()
        .args(["serve", "--listen", "127.0.0.1:0", "--database-url", database])
        .args(extra)
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let stdout = server.stdout.take().expect("piped stdout");
    let mut first_line = String::new();
    BufReader::new(stdout).read_line(&mut first_line).expect("the server prints its address");
    let address = first_line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {first_line:?}"))
        .to_owned();
    (server, address)
}
