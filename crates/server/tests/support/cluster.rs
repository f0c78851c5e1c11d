//! What the cluster's tests share: the NATS server, a node of a named cluster, a fresh cluster name.

use std::time::Duration;

use romirami_server::cluster::ClusterConfig;
use romirami_server::config::Config;
use romirami_server::store::Store;
use tokio::net::TcpListener;

use crate::common::{TestServer, fast};

/// The NATS server the tests use, or `None` (outside CI) when none answers.
pub(crate) async fn nats_url() -> Option<String> {
    let url = std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    let address = url.trim_start_matches("nats://").to_owned();
    if tokio::net::TcpStream::connect(&address).await.is_ok() {
        return Some(url);
    }
    assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test the cluster: start nats-server -js");
    eprintln!("skipped: no NATS server at {url}");
    None
}

/// A node of the cluster `name` over the database at `database`.
pub(crate) async fn node(nats: &str, name: &str, node: &str, database: &str, lease: Duration) -> TestServer {
    node_with(nats, name, node, database, lease, |_| {}).await
}

/// A node as [`node`], its configuration changed by `change`.
pub(crate) async fn node_with(
    nats: &str,
    name: &str,
    node: &str,
    database: &str,
    lease: Duration,
    change: impl FnOnce(&mut Config),
) -> TestServer {
    let mut cluster = ClusterConfig::new(nats, Some(node.into()));
    cluster.name = name.into();
    cluster.lease_ttl = lease;
    let mut config = Config { cluster: Some(cluster), bot_delay: Duration::from_millis(10), ..fast() };
    change(&mut config);
    let store = Store::connect(database).await.expect("the database opens");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    TestServer::start_with(listener, config, store).await
}

pub(crate) fn cluster_name() -> String {
    format!("test-{}", &uuid::Uuid::new_v4().simple().to_string()[..12])
}
