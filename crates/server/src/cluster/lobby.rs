//! One lobby for the whole cluster, over plain NATS subjects (no JetStream: nothing here needs to outlive
//! the nodes, which hold the truth).
//!
//! - `CLUSTER.lobby`: each node publishes its public tables' changes (listed or changed, removed), and lists
//!   the others' as they arrive.
//! - `CLUSTER.nodes`: each node says it is alive every [`BEAT`]; a node that joins says `hello`, and every node
//!   that hears a hello publishes all its listings again, so the newcomer's lobby is complete at once. The
//!   listings of a node not heard of for [`SILENCE`] (it died) leave every lobby; its tables come back under
//!   their new owner.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::warn;

use super::Forwarding;
use crate::lobby::{Listing, Lobby};
use crate::protocol::{TableId, TableSummary};

/// How often a node says it is alive.
const BEAT: Duration = Duration::from_secs(1);
/// How long a node may be silent before its listings leave the other lobbies.
const SILENCE: Duration = Duration::from_secs(4);
/// Listing changes waiting for NATS before the lobby counts the mirror as behind.
const QUEUE: usize = 4096;

/// A message on `CLUSTER.lobby`.
#[derive(Debug, Serialize, Deserialize)]
struct Change {
    /// The node that owns the table.
    node: String,
    /// The table listed or changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    listed: Option<TableSummary>,
    /// The table no longer listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    removed: Option<TableId>,
}

/// A message on `CLUSTER.nodes`.
#[derive(Debug, Serialize, Deserialize)]
struct Beat {
    /// The node that is alive.
    node: String,
    /// Whether it just joined (everyone sends their listings again).
    #[serde(default)]
    hello: bool,
}

/// Starts mirroring `lobby` through the cluster `cluster` as `node`.
pub(super) async fn mirror(
    nats: &async_nats::Client,
    cluster: &str,
    node: &str,
    lobby: &Arc<Lobby>,
    forwarding: &Arc<Forwarding>,
) -> Result<(), String> {
    let subjects = Subjects { lobby: format!("{cluster}.lobby"), nodes: format!("{cluster}.nodes") };
    let changes = nats.subscribe(subjects.lobby.clone()).await.map_err(|e| e.to_string())?;
    let beats = nats.subscribe(subjects.nodes.clone()).await.map_err(|e| e.to_string())?;
    let (sender, queue) = mpsc::channel(QUEUE);
    lobby.mirror_into(sender);
    let mirror = Mirror {
        nats: nats.clone(),
        node: node.to_owned(),
        subjects,
        lobby: Arc::clone(lobby),
        forwarding: Arc::clone(forwarding),
    };
    mirror.beat(true).await;
    tokio::spawn(mirror.run(queue, changes, beats));
    Ok(())
}

struct Subjects {
    lobby: String,
    nodes: String,
}

struct Mirror {
    nats: async_nats::Client,
    node: String,
    subjects: Subjects,
    lobby: Arc<Lobby>,
    /// Told when a node is gone, so that this node's players at its tables join them again.
    forwarding: Arc<Forwarding>,
}

impl Mirror {
    async fn run(
        self,
        mut queue: mpsc::Receiver<Listing>,
        mut changes: async_nats::Subscriber,
        mut beats: async_nats::Subscriber,
    ) {
        // The other nodes' listed tables, by owner, and when each node was last heard of.
        let mut owners: HashMap<TableId, String> = HashMap::new();
        let mut heard: HashMap<String, Instant> = HashMap::new();
        let mut tick = tokio::time::interval(BEAT);
        loop {
            tokio::select! {
                listing = queue.recv() => match listing {
                    Some(listing) => self.send(listing).await,
                    None => return,
                },
                Some(message) = changes.next() => match serde_json::from_slice::<Change>(&message.payload) {
                    Ok(change) if change.node == self.node => {}
                    Ok(change) => {
                        heard.insert(change.node.clone(), Instant::now());
                        if let Some(table) = change.listed {
                            owners.insert(table.id, change.node);
                            self.lobby.apply_remote(&table);
                        }
                        if let Some(id) = change.removed {
                            owners.remove(&id);
                            self.lobby.remove_remote(id);
                        }
                    }
                    Err(error) => warn!(%error, "a lobby change from the cluster does not read"),
                },
                Some(message) = beats.next() => match serde_json::from_slice::<Beat>(&message.payload) {
                    Ok(beat) if beat.node == self.node => {}
                    Ok(beat) => {
                        if beat.hello {
                            self.lobby.mirror_fell_behind();
                            // A node that says hello has just started. If it ran before under this id (killed
                            // and restarted before it was missed), the tables it ran went with that process,
                            // and this node's connections at them are members of nothing: they join again.
                            self.forwarding.node_gone(&beat.node);
                        }
                        heard.insert(beat.node, Instant::now());
                    }
                    Err(error) => warn!(%error, "a node's beat does not read"),
                },
                _ = tick.tick() => {
                    self.beat(false).await;
                    if let Some(listings) = self.lobby.listings_to_resend() {
                        for table in listings {
                            self.send(Listing::Listed(Box::new(table))).await;
                        }
                    }
                    // A node silent for too long is gone: its tables leave the lobby until their new owner
                    // lists them.
                    let now = Instant::now();
                    heard.retain(|node, at| {
                        let alive = now.duration_since(*at) < SILENCE;
                        if !alive {
                            warn!(%node, "a node of the cluster is silent: its tables move");
                            self.forwarding.node_gone(node);
                        }
                        alive
                    });
                    for node in self.forwarding.unheard_owners(|node| heard.contains_key(node), SILENCE) {
                        warn!(%node, "a table's owner was never heard of: its tables move");
                        self.forwarding.node_gone(&node);
                    }
                    owners.retain(|table, owner| {
                        let alive = heard.contains_key(owner);
                        if !alive {
                            self.lobby.remove_remote(*table);
                        }
                        alive
                    });
                }
            }
        }
    }

    async fn send(&self, listing: Listing) {
        let change = match listing {
            Listing::Listed(table) => Change { node: self.node.clone(), listed: Some(*table), removed: None },
            Listing::Removed(id) => Change { node: self.node.clone(), listed: None, removed: Some(id) },
        };
        self.publish(&self.subjects.lobby, &change).await;
    }

    async fn beat(&self, hello: bool) {
        self.publish(&self.subjects.nodes, &Beat { node: self.node.clone(), hello }).await;
    }

    async fn publish(&self, subject: &str, message: &impl Serialize) {
        let payload = match serde_json::to_vec(message) {
            Ok(payload) => payload,
            Err(error) => return warn!(%error, "a cluster message does not write"),
        };
        if let Err(error) = self.nats.publish(subject.to_owned(), payload.into()).await {
            warn!(%error, "a lobby change did not reach the cluster; every listing goes again");
            self.lobby.mirror_fell_behind();
        }
    }
}
