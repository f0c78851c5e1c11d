//! Players: guests with a display name, a public id and a secret token.
//!
//! The token is what lets a player come back to their seat; it is shown to the player once, when the
//! guest is created, and kept here only as its SHA-256 hash. Nothing else about a client is trusted.

use std::collections::HashMap;
use std::sync::Mutex;

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::protocol::{PlayerId, PlayerInfo};

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// Checks and tidies a display name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control
/// characters.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("a display name needs at least one character".into());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("a display name has at most {MAX_NAME_CHARS} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a display name cannot hold control characters".into());
    }
    Ok(name.to_owned())
}

/// A new secret token: 32 bytes from the operating system's generator, in hex.
fn new_token() -> String {
    let mut bytes = [0u8; 32];
    // The OS generator does not fail on the platforms we run on; if it ever did, a guest could not
    // be created safely, so stop rather than hand out a weak token.
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    hex::encode(bytes)
}

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Every known player, in memory.
#[derive(Debug, Default)]
pub struct Players {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    by_id: HashMap<PlayerId, PlayerInfo>,
    by_token_hash: HashMap<[u8; 32], PlayerId>,
}

impl Players {
    /// Creates a guest named `name` (already [`clean_name`]d); returns who they are and their token.
    pub fn create_guest(&self, name: String) -> (PlayerInfo, String) {
        let token = new_token();
        let info = PlayerInfo { id: PlayerId(Uuid::new_v4()), name };
        let mut inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        inner.by_token_hash.insert(hash_token(&token), info.id);
        inner.by_id.insert(info.id, info.clone());
        (info, token)
    }

    /// The player whose token this is.
    pub fn authenticate(&self, token: &str) -> Option<PlayerInfo> {
        let inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let id = inner.by_token_hash.get(&hash_token(token))?;
        inner.by_id.get(id).cloned()
    }

    /// The player with this id.
    pub fn get(&self, id: PlayerId) -> Option<PlayerInfo> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).by_id.get(&id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(clean_name("  Ana "), Ok("Ana".to_owned()));
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(25)).is_err());
        assert!(clean_name("a\nb").is_err());
    }

    #[test]
    fn a_token_finds_its_player_and_nothing_else_does() {
        let players = Players::default();
        let (ana, token) = players.create_guest("Ana".into());
        assert_eq!(token.len(), 64);
        assert_eq!(players.authenticate(&token), Some(ana.clone()));
        assert_eq!(players.authenticate("not a token"), None);
        assert_eq!(players.get(ana.id), Some(ana));
    }
}
