//! Sign-outs across the cluster (`CLUSTER.sign_outs`): every node keeps the tokens it has seen in memory
//! ([`Players`]), so a token ended on one node must be forgotten by the others too, and their connections
//! that said hello with it closed. The node that ended it publishes what ended; every other node forgets
//! it ([`Players::forget`]), and each of its connections asks the store whether its own token still
//! signs in. The store is the truth: a message lost while a node is cut off from NATS leaves that node's
//! memory of the token until it restarts, which is why a node cut off from NATS also lets its tables go.

use std::sync::Arc;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tracing::warn;
use uuid::Uuid;

use crate::players::{Players, SignOut};
use crate::protocol::PlayerId;

/// A sign-out as published: one token (by its SHA-256 hash, in hex: never the token) or a player's every token.
#[derive(Debug, Serialize, Deserialize)]
struct Published {
    node: String,
    #[serde(default)]
    token_hash: Option<String>,
    #[serde(default)]
    player: Option<Uuid>,
}

/// The subject of a cluster's sign-outs.
pub(super) fn subject(cluster: &str) -> String {
    format!("{cluster}.sign_outs")
}

/// Publishes `ended`, which this node `node` has already forgotten.
pub(super) async fn publish(nats: &async_nats::Client, cluster: &str, node: &str, ended: SignOut) {
    let message = match ended {
        SignOut::Token(hash) => Published { node: node.to_owned(), token_hash: Some(hex::encode(hash)), player: None },
        SignOut::Player(player) => Published { node: node.to_owned(), token_hash: None, player: Some(player.0) },
    };
    let Ok(payload) = serde_json::to_vec(&message) else { return };
    if let Err(error) = nats.publish(subject(cluster), payload.into()).await {
        warn!(%error, "a sign-out did not reach the cluster; the other nodes ask the store at their next restart");
    }
}

/// Hears the other nodes' sign-outs and forgets them in `players`, for as long as the node runs.
///
/// # Errors
/// When NATS refuses the subscription.
pub(super) async fn hear(
    nats: &async_nats::Client,
    cluster: &str,
    node: &str,
    players: Arc<Players>,
) -> Result<(), String> {
    let mut heard = nats.subscribe(subject(cluster)).await.map_err(|e| e.to_string())?;
    let node = node.to_owned();
    tokio::spawn(async move {
        while let Some(message) = heard.next().await {
            let Ok(published) = serde_json::from_slice::<Published>(&message.payload) else {
                warn!("a sign-out from the cluster does not read; ignored");
                continue;
            };
            if published.node == node {
                continue;
            }
            let hash =
                published.token_hash.and_then(|hex| hex::decode(hex).ok()).and_then(|b| <[u8; 32]>::try_from(b).ok());
            match (hash, published.player) {
                (Some(hash), _) => players.forget(SignOut::Token(hash)),
                (None, Some(player)) => players.forget(SignOut::Player(PlayerId(player))),
                (None, None) => warn!("a sign-out from the cluster names nothing; ignored"),
            }
        }
    });
    Ok(())
}
