//! What every request handler and connection shares ([`AppState`]), how it opens over a store (bringing
//! back the tables that were open), and the count of open connections a shutdown waits for.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::Notify;
use tracing::info;

use romirami_game::AnalysisSettings;

use crate::addresses::Addresses;
use crate::analyst::Analyst;
use crate::cluster::{Cluster, ClusterError};
use crate::config::Config;
use crate::heartbeat::Heartbeat;
use crate::lobby::Lobby;
use crate::moderation::Moderation;
use crate::names::Names;
use crate::players::Players;
use crate::push::{Pusher, vapid::VapidError};
use crate::store::{Committer, Store, StoreError, Writer};
use crate::table;
use crate::tournament::Tournaments;

/// What every request handler and connection shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Settings and limits.
    pub config: Arc<Config>,
    /// Known players.
    pub players: Arc<Players>,
    /// Names kept with a password, and sign-ins.
    pub names: Arc<Names>,
    /// The bans in force.
    pub moderation: Arc<Moderation>,
    /// Live tables.
    pub lobby: Arc<Lobby>,
    /// Where everything is kept.
    pub store: Store,
    /// Commits actions in groups.
    pub committer: Committer,
    /// Commits the other writes (guests, tables, seats, starts and finishes of games) in groups.
    pub writer: Writer,
    /// Wakes the connections to ping their clients, and tells them when the server shuts down.
    pub(crate) heartbeat: Arc<Heartbeat>,
    /// Open connections and new guests per client address.
    pub(crate) addresses: Arc<Addresses>,
    /// How many connections are open; the server waits for none after a shutdown.
    pub(crate) connections: Arc<OpenConnections>,
    pub(crate) next_conn: Arc<AtomicU64>,
    /// What the tables read of `config`, made once.
    pub(crate) table_config: Arc<table::TableConfig>,
    /// Where the bots' decisions are made.
    pub(crate) bots: table::BotPool,
    /// This node's part in its cluster; `None` for a single server.
    pub cluster: Option<Arc<Cluster>>,
    /// Makes the analyses of finished games, one at a time.
    pub analyst: Arc<Analyst>,
    /// The tournaments this node directs.
    pub tournaments: Arc<Tournaments>,
    /// Sends Web Push notifications.
    pub pusher: Pusher,
}

/// Why the server could not open.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The store could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The node could not join its cluster.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The VAPID key given or kept is not one.
    #[error(transparent)]
    Push(#[from] VapidError),
}

impl AppState {
    /// The server's state with these settings over `store`, with every game that was in play when the
    /// server last stopped back at its table. Starts the group-commit tasks on the current runtime.
    ///
    /// # Errors
    /// When the store cannot be read, or the node cannot join the cluster its configuration names.
    pub async fn open(config: Config, store: Store) -> Result<AppState, OpenError> {
        let heartbeat = Heartbeat::start(config.ping_interval);
        let lobby = Arc::new(Lobby::default());
        // A node joins its cluster before it restores: the tables it restores are those it can lease.
        let cluster = match &config.cluster {
            Some(cluster) => Some(Arc::new(Cluster::join(cluster, &store, &lobby, &config.games).await?)),
            None => None,
        };
        let (committer, _task) = Committer::spawn(store.clone(), config.commit_queue, config.commit_batch);
        let (writer, _task) = Writer::spawn(store.clone(), config.write_queue, config.write_batch);
        let table_config = Arc::new(table::TableConfig::of(&config));
        let bots = table::BotPool::new(config.bot_threads, config.bot_think_time);
        let analysis = AnalysisSettings { playouts: config.analysis_playouts, seed: 0 };
        let analyst = Analyst::start(store.clone(), config.games.clone(), analysis, config.analysis_queue);
        let pusher = Pusher::start(&config.push, store.clone()).await?;
        // Kept names are compared by their key (`text::name_key`), which became stricter (case folding and
        // look-alike letters): the stored keys follow it.
        let rekeyed = store.rekey_claimed_names(crate::text::name_key, crate::text::name_skeleton).await?;
        if rekeyed > 0 {
            info!(rekeyed, "kept names given their stricter key");
        }
        let config = Arc::new(config);
        let players = Arc::new(Players::new(store.clone(), writer.clone()));
        let moderation = Moderation::start(store.clone(), players.clone()).await?;
        let state = AppState {
            names: Arc::new(Names::new(store.clone(), players.clone(), config.clone(), moderation.clone())),
            moderation,
            config,
            players,
            lobby,
            store,
            committer,
            writer,
            heartbeat,
            addresses: Arc::default(),
            connections: Arc::default(),
            next_conn: Arc::new(AtomicU64::new(1)),
            table_config,
            bots,
            cluster,
            analyst,
            tournaments: Arc::default(),
            pusher,
        };
        let restored = table::restore(&state.services()).await?;
        if restored > 0 {
            info!(restored, "games in play restored from the store");
        }
        table::sleep::start_waking(state.services(), state.config.wake_interval);
        if let Some(cluster) = &state.cluster {
            cluster.hear_sign_outs(state.players.clone()).await?;
            cluster.start_takeovers(state.services());
            // In a cluster each tournament is directed by one node under a lease, taken over when it runs out.
            cluster.direct_tournaments(&state.tournaments, &state.services()).await?;
        } else {
            // A single server directs every tournament it stored.
            let directed = state.tournaments.restore(&state.services()).await?;
            if directed > 0 {
                info!(directed, "tournaments directed again");
            }
        }
        Ok(state)
    }

    /// Tells the rest of the cluster, if any, that tokens ended here ([`Players`] forgot them on this node).
    pub(crate) async fn tell_sign_out(&self, ended: crate::players::SignOut) {
        if let Some(cluster) = &self.cluster {
            cluster.publish_sign_out(ended).await;
        }
    }

    /// The table `id` as it lives now: on this node, on another node of the cluster (its commands forwarded
    /// there), or asleep in the store (woken for whoever asks); `None` when it is none of these.
    ///
    /// # Errors
    /// When a sleeping table cannot be woken (the store does not answer).
    pub(crate) async fn live_table(
        &self,
        id: crate::protocol::TableId,
    ) -> Result<Option<table::TableHandle>, StoreError> {
        if let Some(handle) = self.lobby.table(id) {
            return Ok(Some(handle));
        }
        if let Some(cluster) = &self.cluster
            && let Some(handle) = cluster.forwarding.table(id).await
        {
            return Ok(Some(handle));
        }
        table::sleep::wake(&self.services(), id).await
    }

    /// What the tables share with the rest of the server.
    pub fn services(&self) -> table::Services {
        table::Services {
            lobby: self.lobby.clone(),
            config: self.config.clone(),
            table_config: self.table_config.clone(),
            store: self.store.clone(),
            committer: self.committer.clone(),
            writer: self.writer.clone(),
            ownership: self.cluster.as_ref().map(|cluster| Arc::clone(&cluster.ownership)),
            bots: self.bots.clone(),
            pusher: self.pusher.clone(),
        }
    }
}

/// Counts open connections, so that a shutdown can wait for the last one.
#[derive(Debug, Default)]
pub(crate) struct OpenConnections {
    count: AtomicU64,
    closed: Notify,
}

/// Held by a connection's task while it runs.
pub(crate) struct ConnectionGuard(Arc<OpenConnections>);

impl OpenConnections {
    pub(crate) fn open(this: &Arc<OpenConnections>) -> ConnectionGuard {
        this.count.fetch_add(1, Ordering::AcqRel);
        ConnectionGuard(this.clone())
    }

    pub(crate) async fn all_closed(&self) {
        loop {
            let closed = self.closed.notified();
            if self.count.load(Ordering::Acquire) == 0 {
                return;
            }
            closed.await;
        }
    }
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.closed.notify_waiters();
        }
    }
}
