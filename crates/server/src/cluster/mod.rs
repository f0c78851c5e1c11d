//! Several nodes, one site: the server processes of a cluster share one PostgreSQL database and meet on
//! NATS.
//!
//! - **Ownership** (`ownership.rs`): each table is owned by one node at a time, under a lease in
//!   PostgreSQL that the owner renews (`store::Lease`). Each grant has a new epoch, and every action the
//!   owner appends is fenced by it: a node that lost a table (paused, cut off from NATS, taken over)
//!   cannot add to its log. A node renews its leases only while its NATS connection is up, so a node cut
//!   off from the others lets its tables go.
//! - **Any node, any table** (`forward.rs`): a node forwards its connections' commands for another node's
//!   table to that node, which sends each message for such a connection back to its node alone.
//! - **Takeover** (`takeover.rs`): the open tables of a node whose leases ran out (it died, or lost NATS)
//!   are taken over by the others from PostgreSQL's action log.
//! - **One lobby** (`lobby.rs`): every node publishes its public tables' changes on NATS and lists the
//!   others', so that every node's lobby lists every node's tables, live.
//!
//! A single node with no `--cluster` has none of this: no NATS, no leases, no fences.

mod forward;
mod lobby;
pub(crate) mod ownership;
mod sign_outs;
mod takeover;

use std::sync::Arc;
use std::time::Duration;

pub(crate) use forward::Forwarding;
pub(crate) use ownership::Ownership;

/// How a node joins a cluster: a plain setting, defined with the others (`config.rs`).
pub use crate::config::ClusterConfig;

use crate::lobby::Lobby;
use crate::store::{Store, StoreError};

/// Why a node could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The store is SQLite: the nodes of a cluster must share one PostgreSQL database.
    #[error("a cluster keeps its tables in PostgreSQL: give --database-url postgres://..., not a SQLite file")]
    NeedsPostgres,
    /// NATS could not be reached.
    #[error("NATS at {url}: {reason}")]
    Nats {
        /// The server tried.
        url: String,
        /// What went wrong.
        reason: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The node could not start directing tournaments.
    #[error("the tournaments of the cluster: {0}")]
    Tournaments(String),
}

/// This node's part in the cluster.
#[derive(Debug)]
pub struct Cluster {
    /// This node's id.
    pub node: String,
    /// The cluster's name (the first part of its NATS subjects).
    name: String,
    nats: async_nats::Client,
    pub(crate) ownership: Arc<Ownership>,
    pub(crate) forwarding: Arc<Forwarding>,
    lease_ttl: Duration,
}

impl Cluster {
    /// Joins the cluster: connects to NATS, starts mirroring `lobby` through it, and starts renewing this
    /// node's leases.
    ///
    /// # Errors
    /// [`ClusterError::NeedsPostgres`] on SQLite; [`ClusterError::Nats`] when NATS cannot be reached.
    pub async fn join(
        config: &ClusterConfig,
        store: &Store,
        lobby: &Arc<Lobby>,
        games: &romirami_game::Games,
    ) -> Result<Cluster, ClusterError> {
        if matches!(store, Store::Sqlite(_)) {
            return Err(ClusterError::NeedsPostgres);
        }
        let nats_error = |reason: String| ClusterError::Nats { url: config.nats_url.clone(), reason };
        let nats = async_nats::ConnectOptions::new()
            .name(format!("romirami {}", config.node))
            .retry_on_initial_connect()
            .connection_timeout(Duration::from_secs(5))
            .connect(&config.nats_url)
            .await
            .map_err(|e| nats_error(e.to_string()))?;
        // With `retry_on_initial_connect` the call returns at once: wait for the first connection, briefly.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while nats.connection_state() != async_nats::connection::State::Connected {
            if tokio::time::Instant::now() >= deadline {
                return Err(nats_error("no connection within 5 s".into()));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let forwarding =
            Forwarding::start(&nats, &config.name, &config.node, store, lobby, games).await.map_err(nats_error)?;
        lobby::mirror(&nats, &config.name, &config.node, lobby, &forwarding).await.map_err(nats_error)?;
        let ownership = Ownership::start(config.node.clone(), store.clone(), config.lease_ttl, nats.clone());
        tracing::info!(node = %config.node, nats = %config.nats_url, "joined the cluster");
        Ok(Cluster {
            node: config.node.clone(),
            name: config.name.clone(),
            nats,
            ownership,
            forwarding,
            lease_ttl: config.lease_ttl,
        })
    }

    /// Starts taking over the tables of nodes whose leases ran out (once this node has restored its own).
    pub(crate) fn start_takeovers(&self, services: crate::table::Services) {
        takeover::start(services, self.lease_ttl, self.nats.clone());
    }

    /// Starts directing tournaments in the cluster: those no node directs, taken as their leases run out
    /// (`tournament::cluster`).
    ///
    /// # Errors
    /// When NATS refuses a subscription, or the store cannot be read.
    pub(crate) async fn direct_tournaments(
        &self,
        tournaments: &Arc<crate::tournament::Tournaments>,
        services: &crate::table::Services,
    ) -> Result<(), ClusterError> {
        tournaments
            .join_cluster(services, self.nats.clone(), &self.name, &self.node, self.lease_ttl)
            .await
            .map_err(ClusterError::Tournaments)
    }

    /// Hands this node's tables over at once (a graceful stop): their leases end now, so another node
    /// takes them at its next round; this node's tables can write nothing more.
    pub async fn hand_over(&self) {
        self.ownership.release_all().await;
    }

    /// Starts forgetting the tokens the other nodes end (`sign_outs.rs`).
    ///
    /// # Errors
    /// When NATS refuses the subscription.
    pub(crate) async fn hear_sign_outs(&self, players: Arc<crate::players::Players>) -> Result<(), ClusterError> {
        let nats_error = |reason: String| ClusterError::Nats { url: "the cluster's NATS".into(), reason };
        sign_outs::hear(&self.nats, &self.name, &self.node, players).await.map_err(nats_error)
    }

    /// Tells the other nodes that tokens ended here (this node has forgotten them already).
    pub(crate) async fn publish_sign_out(&self, ended: crate::players::SignOut) {
        sign_outs::publish(&self.nats, &self.name, &self.node, ended).await;
    }

    /// Whether the node's NATS connection is up.
    pub fn connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }
}
