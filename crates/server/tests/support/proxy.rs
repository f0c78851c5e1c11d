//! A TCP proxy to one upstream address that can cut every connection through it (and turn new ones away),
//! and later let them through again: a network partition between the server and a service it needs
//! (PostgreSQL in outage.rs, NATS in cluster_failover.rs).

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A TCP proxy to one upstream address that can be cut and restored.
pub(crate) struct Proxy {
    /// Where to connect instead of the upstream.
    pub(crate) addr: SocketAddr,
    up: watch::Sender<bool>,
    /// Connections let through so far.
    pub(crate) accepted: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Proxy {
    /// A proxy to `upstream` (`host:port`), letting connections through.
    pub(crate) async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("bound");
        let (up, watching) = watch::channel(true);
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let count = accepted.clone();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !*watching.borrow() {
                    // Cut: the connection is closed at once, as a database that is gone would.
                    drop(client);
                    continue;
                }
                count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let mut cut = watching.clone();
                let upstream = upstream.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(&upstream).await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.wait_for(|up| !*up) => {}
                    }
                    // Both sockets drop here: the cut closes every proxied connection.
                });
            }
        });
        Proxy { addr, up, accepted }
    }

    /// Cuts every connection, and turns new ones away until [`Proxy::restore`].
    pub(crate) fn cut(&self) {
        self.up.send_replace(false);
    }

    /// Lets connections through again.
    #[allow(dead_code, reason = "not every test restores")]
    pub(crate) fn restore(&self) {
        self.up.send_replace(true);
    }
}
