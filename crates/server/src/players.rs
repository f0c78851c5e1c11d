//! Players: guests with a display name, a public id and a secret token.
//!
//! The token is what lets a player come back to their seat, also after a server restart; it is shown to
//! the player once, when the guest is created, and kept (in the store and in memory) only as its SHA-256
//! hash. Nothing else about a client is trusted. [`Players`] keeps the players seen since the start in
//! memory, in front of the store.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::{Semaphore, SemaphorePermit, watch};
use uuid::Uuid;

use crate::protocol::{PlayerId, PlayerInfo};
use crate::store::{Store, StoreError, Writer};

/// A new secret token: 32 bytes from the operating system's generator, in hex.
fn new_token() -> String {
    let mut bytes = [0u8; 32];
    // The OS generator does not fail on the platforms we run on; if it ever did, a guest could not
    // be created safely, so stop rather than hand out a weak token.
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    hex::encode(bytes)
}

/// The SHA-256 hash of a token: the only form in which a token is kept.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Hellos with a token that ask the store at once. The others wait for their turn before their query is built: when
/// thousands of clients greet at once (a reconnect storm, the load tool), each would otherwise hold its
/// query's buffers while waiting for one of the pool's connections, a peak of memory that the
/// allocator keeps long after it is freed.
const STORE_TURNS: usize = 16;

/// How long a hello waits for its turn at the store before it is answered that the store is
/// unavailable, as a query waits for one of the pool's connections.
const STORE_TURN_WAIT: Duration = Duration::from_secs(5);

/// Every player: the store, with the players seen since the start kept in memory.
#[derive(Debug)]
pub struct Players {
    store: Store,
    /// Writes new guests, in a group commit with other set-up writes.
    writer: Writer,
    by_token_hash: Mutex<HashMap<[u8; 32], PlayerInfo>>,
    store_turns: Semaphore,
    /// Counts the sign-outs this node heard of (its own and, in a cluster, the other nodes'): each open
    /// connection watches it and, when it moves, checks that its token still signs in ([`Players::still_signed_in`]).
    sign_outs: watch::Sender<u64>,
}

/// Tokens ended: one, or every token of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignOut {
    /// The token with this hash.
    Token([u8; 32]),
    /// Every token of this player's.
    Player(PlayerId),
}

impl Players {
    /// Players kept in `store`, new ones written through `writer` (a writer of the same store).
    pub fn new(store: Store, writer: Writer) -> Players {
        Players {
            store,
            writer,
            by_token_hash: Mutex::default(),
            store_turns: Semaphore::new(STORE_TURNS),
            sign_outs: watch::Sender::new(0),
        }
    }

    /// Waits for a turn to ask the store.
    pub(crate) async fn store_turn(&self) -> Result<SemaphorePermit<'_>, StoreError> {
        match tokio::time::timeout(STORE_TURN_WAIT, self.store_turns.acquire()).await {
            Ok(Ok(turn)) => Ok(turn),
            // The semaphore is never closed: only the wait can fail.
            _ => Err(StoreError::Unavailable("too many players are waiting for the database".into())),
        }
    }

    fn remember(&self, hash: [u8; 32], player: &PlayerInfo) {
        self.by_token_hash.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(hash, player.clone());
    }

    /// Creates and stores a guest named `name` (already [`clean_name`](crate::text::clean_name)d); returns who they are and their
    /// token.
    ///
    /// # Errors
    /// When the store cannot write the player; then there is no such guest.
    pub async fn create_guest(&self, name: String) -> Result<(PlayerInfo, String), StoreError> {
        let token = new_token();
        let hash = hash_token(&token);
        let player = PlayerInfo { id: PlayerId(Uuid::new_v4()), name };
        // The writer queues new guests and writes them in groups: no turn needed.
        self.writer.save_player(&player, &hash).await?;
        self.remember(hash, &player);
        Ok((player, token))
    }

    /// A new token for `player`, who signed in from the browser that named itself `device`: it is stored
    /// beside the tokens they have, all of which keep working.
    ///
    /// # Errors
    /// When the store cannot write it; then there is no such token.
    pub async fn issue_token(&self, player: &PlayerInfo, device: Option<&str>) -> Result<String, StoreError> {
        let token = new_token();
        let hash = hash_token(&token);
        self.store.add_token(player.id, &hash, device).await?;
        self.remember(hash, player);
        Ok(token)
    }

    /// The player whose token this is; `Ok(None)` when no player has it.
    ///
    /// # Errors
    /// When the store cannot be asked.
    pub async fn authenticate(&self, token: &str) -> Result<Option<PlayerInfo>, StoreError> {
        let hash = hash_token(token);
        let known = self.by_token_hash.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&hash).cloned();
        if let Some(player) = known {
            return Ok(Some(player));
        }
        let turn = self.store_turn().await?;
        let stored = self.store.player_by_token_hash(&hash).await;
        drop(turn);
        match stored {
            Ok(player) => {
                self.remember(hash, &player);
                Ok(Some(player))
            }
            Err(StoreError::NotFound) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

impl Players {
    /// Ends the token `token`: from now on it finds nobody, and the connections that said hello with it
    /// close. Returns whose it was (`None`: no live token).
    ///
    /// # Errors
    /// When the store cannot be written; then the token still works.
    pub async fn sign_out(&self, token: &str) -> Result<Option<PlayerId>, StoreError> {
        let hash = hash_token(token);
        let player = self.store.remove_token(&hash).await?;
        self.forget(SignOut::Token(hash));
        Ok(player)
    }

    /// Ends every token of `player`'s but `keep` (a token of theirs) when given. Returns how many ended.
    ///
    /// # Errors
    /// When the store cannot be written; then the tokens still work.
    pub async fn sign_out_everywhere(&self, player: PlayerId, keep: Option<&str>) -> Result<u64, StoreError> {
        let keep = keep.map(hash_token);
        let ended = self.store.remove_tokens(player, keep.as_ref()).await?;
        // The kept token is forgotten too: the store, asked again, still knows it.
        self.forget(SignOut::Player(player));
        Ok(ended)
    }

    /// Forgets ended tokens, which the store no longer has (this node's own sign-outs, or another node's, heard
    /// over the cluster), and tells the open connections to check theirs.
    pub fn forget(&self, ended: SignOut) {
        let mut cache = self.by_token_hash.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match ended {
            SignOut::Token(hash) => {
                cache.remove(&hash);
            }
            SignOut::Player(player) => cache.retain(|_, known| known.id != player),
        }
        drop(cache);
        self.sign_outs.send_modify(|count| *count += 1);
    }

    /// Whether the token whose hash this is still finds its player: from memory, else from the store. A
    /// store that does not answer leaves the token live (an outage signs nobody out).
    pub async fn still_signed_in(&self, hash: &[u8; 32]) -> bool {
        if self.by_token_hash.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).contains_key(hash) {
            return true;
        }
        match self.store.player_by_token_hash(hash).await {
            Ok(player) => {
                self.remember(*hash, &player);
                true
            }
            Err(StoreError::NotFound) => false,
            Err(_) => true,
        }
    }

    /// Tells the open connections to check their player again (a ban was made).
    pub fn recheck(&self) {
        self.sign_outs.send_modify(|count| *count += 1);
    }

    /// The sign-outs' counter, for a connection to watch.
    pub(crate) fn watch_sign_outs(&self) -> watch::Receiver<u64> {
        self.sign_outs.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_token_finds_its_player_also_after_a_restart_and_nothing_else_does() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("players.db").display());
        let store = Store::connect(&url).await.expect("the store opens");
        let players = Players::new(store.clone(), Writer::spawn(store, 16, 16).0);
        let (ana, token) = players.create_guest("Ana".into()).await.expect("stored");
        assert_eq!(token.len(), 64);
        assert_eq!(players.authenticate(&token).await, Ok(Some(ana.clone())));
        assert_eq!(players.authenticate("not a token").await, Ok(None));
        // A new server on the same database knows the token, from the store.
        let store = Store::connect(&url).await.expect("the store opens");
        let restarted = Players::new(store.clone(), Writer::spawn(store, 16, 16).0);
        assert_eq!(restarted.authenticate(&token).await, Ok(Some(ana.clone())));
        // A token given at a sign-in finds the same player, and the first one still does.
        let second = restarted.issue_token(&ana, Some("Test browser")).await.expect("stored");
        assert_ne!(second, token);
        let store = Store::connect(&url).await.expect("the store opens");
        let again = Players::new(store.clone(), Writer::spawn(store, 16, 16).0);
        assert_eq!(again.authenticate(&second).await, Ok(Some(ana.clone())));
        assert_eq!(again.authenticate(&token).await, Ok(Some(ana)));
    }
}
