//! What the tools' integration tests share: a real server in this process on a free port, and a
//! PostgreSQL database of their own (the server's tests have the same two in theirs).

#![allow(dead_code, reason = "each test file uses a different part")]

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

/// A PostgreSQL database made for one test, on the server that `TEST_DATABASE_URL` or `DATABASE_URL`
/// names; dropped by [`PgDatabase::drop_database`].
pub(crate) struct PgDatabase {
    admin: sqlx::PgPool,
    name: String,
    /// The URL of the new database.
    pub(crate) url: String,
}

impl PgDatabase {
    /// A fresh database, or `None` when no PostgreSQL server is configured (outside CI only: with
    /// `CI=true` a missing one fails the test).
    pub(crate) async fn create() -> Option<PgDatabase> {
        let admin_url = ["TEST_DATABASE_URL", "DATABASE_URL"]
            .iter()
            .filter_map(|name| std::env::var(name).ok())
            .find(|url| url.starts_with("postgres://") || url.starts_with("postgresql://"));
        let Some(admin_url) = admin_url else {
            assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test PostgreSQL: set DATABASE_URL");
            eprintln!("skipped: no postgres:// URL in TEST_DATABASE_URL or DATABASE_URL");
            return None;
        };
        let name = format!("romirami_test_{}", uuid::Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&admin_url).await.expect("the PostgreSQL server answers");
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await.expect("create a database");
        let (base, query) = admin_url.split_once('?').map_or((admin_url.as_str(), None), |(b, q)| (b, Some(q)));
        let authority = base.find("://").map_or(0, |i| i + 3);
        let path = base[authority..].find('/').map_or(base.len(), |i| authority + i);
        let query = query.map(|q| format!("?{q}")).unwrap_or_default();
        let url = format!("{}/{name}{query}", &base[..path]);
        Some(PgDatabase { admin, name, url })
    }

    /// Drops the database.
    pub(crate) async fn drop_database(self) {
        sqlx::query(&format!("DROP DATABASE {} WITH (FORCE)", self.name))
            .execute(&self.admin)
            .await
            .expect("drop the test database");
        self.admin.close().await;
    }
}
