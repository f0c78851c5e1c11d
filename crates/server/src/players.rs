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
use tokio::sync::{Semaphore, SemaphorePermit};
use uuid::Uuid;

use crate::protocol::{PlayerId, PlayerInfo};
use crate::store::{Store, StoreError, Writer};

/// The longest display name, in visible characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The most combining marks a name may stack on one character: enough for any script's accents,
/// too few to draw over the lines around it.
const MAX_MARKS_PER_CHAR: usize = 3;

/// Checks and tidies a display name. The name is put in Unicode normal form C (so that the same name
/// typed two ways is stored one way), its runs of spaces become one space and it is trimmed; then it
/// must have 1 to [`MAX_NAME_CHARS`] visible characters (combining marks ride on the character before
/// them). Refused: control, format (bidirectional overrides, zero-width characters, tags),
/// private-use, unassigned and line-separator characters, which can hide or reorder what others see;
/// and names that read as one of the server's own bots ("Bot 1", "bot 3"; see [`looks_like_a_bot`]).
/// Markup such as `<b>` is plain text to the server: clients show names as text.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_name(name: &str) -> Result<String, String> {
    let cleaned = clean_text(name, MAX_NAME_CHARS, "a display name")?;
    if looks_like_a_bot(&cleaned) {
        return Err("that name reads as one of the server's bots; choose another".into());
    }
    Ok(cleaned)
}

/// Checks and tidies a chat message by the same rules as a display name ([`clean_name`]: normal form
/// C, runs of spaces made one, the same characters refused), with up to
/// [`crate::protocol::MAX_CHAT_CHARS`] visible characters; a message may read like anything.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_chat(text: &str) -> Result<String, String> {
    clean_text(text, crate::protocol::MAX_CHAT_CHARS, "a chat message")
}

/// The rules [`clean_name`] and [`clean_chat`] share, for `what` with at most `max` visible characters.
fn clean_text(text: &str, max: usize, what: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory as G, GeneralCategoryGroup, UnicodeGeneralCategory};

    let mut cleaned = String::with_capacity(text.len());
    let (mut visible, mut marks) = (0, 0);
    for c in text.nfc() {
        match c.general_category() {
            G::Control
            | G::Format
            | G::PrivateUse
            | G::Surrogate
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator => {
                return Err(format!(
                    "{what} cannot hold invisible, control or private-use characters (U+{:04X})",
                    u32::from(c)
                ));
            }
            G::SpaceSeparator => {
                if !cleaned.is_empty() && !cleaned.ends_with(' ') {
                    cleaned.push(' ');
                }
                marks = 0;
            }
            _ if c.general_category_group() == GeneralCategoryGroup::Mark => {
                marks += 1;
                if cleaned.is_empty() || cleaned.ends_with(' ') || marks > MAX_MARKS_PER_CHAR {
                    return Err(format!("{what}'s accents must each sit on a letter, a few at most"));
                }
                cleaned.push(c);
            }
            _ => {
                visible += 1;
                marks = 0;
                cleaned.push(c);
            }
        }
        if visible > max {
            return Err(format!("{what} has at most {max} characters"));
        }
    }
    let cleaned = cleaned.trim_end().to_owned();
    if cleaned.is_empty() {
        return Err(format!("{what} needs at least one character"));
    }
    Ok(cleaned)
}

/// Whether `name` could pass for a bot the server seats: those are named "Bot" and a number ("Bot 1"),
/// so that in any case, width (compatibility form: "ｂｏｔ２") or spacing, or with a mark between
/// ("BOT-3", "Bot #2"), is taken. A number after another ("bot3-1") is not a bot's name.
pub fn looks_like_a_bot(name: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;

    let folded: String = name.nfkc().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect();
    let Some(rest) = folded.strip_prefix("bot") else { return false };
    let number = rest.trim_start_matches(['-', '_', '.', ':', '#']);
    !number.is_empty() && number.chars().all(|c| c.is_ascii_digit())
}

/// A display name as names are compared for a claim ([`crate::names`]): in Unicode compatibility form
/// (NFKC: full-width and other look-alike forms become the plain ones) and lower case, so that nobody
/// can take a claimed name again in another case or width. Applied to a [`clean_name`]d name.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    // Lower-casing can leave a string out of the normal form: normalize once more.
    name.nfkc().flat_map(char::to_lowercase).collect::<String>().nfkc().collect()
}

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
}

impl Players {
    /// Players kept in `store`, new ones written through `writer` (a writer of the same store).
    pub fn new(store: Store, writer: Writer) -> Players {
        Players { store, writer, by_token_hash: Mutex::default(), store_turns: Semaphore::new(STORE_TURNS) }
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

    /// Creates and stores a guest named `name` (already [`clean_name`]d); returns who they are and their
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

    /// A new token for `player`, who signed in: it is stored beside the tokens they have, all of
    /// which keep working.
    ///
    /// # Errors
    /// When the store cannot write it; then there is no such token.
    pub async fn issue_token(&self, player: &PlayerInfo) -> Result<String, StoreError> {
        let token = new_token();
        let hash = hash_token(&token);
        self.store.add_token(player.id, &hash).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(clean_name("  Ana "), Ok("Ana".to_owned()));
        assert_eq!(clean_name("Ana \u{3000}  Lu"), Ok("Ana Lu".to_owned()), "runs of spaces become one");
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(25)).is_err());
        assert_eq!(clean_name(&"x".repeat(24)), Ok("x".repeat(24)));
        assert!(clean_name("a\nb").is_err());
    }

    #[test]
    fn names_are_stored_in_one_normal_form() {
        // "é" as e and a combining acute becomes the one character é.
        assert_eq!(clean_name("Re\u{301}my"), Ok("R\u{e9}my".to_owned()));
        // Accents ride on their letter: 24 letters with accents are 24 characters.
        assert!(clean_name(&"e\u{301}\u{302}".repeat(24)).is_ok());
        assert!(clean_name("a\u{301}\u{302}\u{303}\u{304}\u{305}").is_err(), "a stack of marks");
        assert!(clean_name("\u{301}a").is_err(), "a mark on nothing");
    }

    #[test]
    fn hidden_and_reordering_characters_are_refused() {
        for name in ["\u{200b}", "\u{202e}evil", "\u{e0001}tag", "a\u{200d}b", "\u{e000}", "a\u{2028}b", "\u{feff}Ana"]
        {
            assert!(clean_name(name).is_err(), "{name:?} is refused");
        }
    }

    #[test]
    fn names_of_the_servers_bots_are_refused() {
        for name in ["Bot 1", "bot 3", "BOT4", " Bot  2 ", "Bot-3", "Bot #2", "\u{ff42}\u{ff4f}\u{ff54}\u{ff12}"] {
            assert!(clean_name(name).is_err(), "{name:?} reads as a bot");
        }
        for name in ["Bot", "Bottom 1", "Robot 2", "Bot one", "Abbot 1", "bot3-1"] {
            assert!(clean_name(name).is_ok(), "{name:?} is a person's name");
        }
    }

    #[test]
    fn names_compare_in_any_case_and_width() {
        assert_eq!(name_key("Ana"), "ana");
        assert_eq!(name_key("\u{ff21}\u{ff2e}\u{ff21}"), "ana", "full width");
        assert_eq!(name_key("R\u{c9}MY"), name_key("r\u{e9}my"));
        assert_eq!(name_key("Stra\u{df}e"), "stra\u{df}e");
        assert_ne!(name_key("Ana"), name_key("Ana Lu"));
    }

    #[test]
    fn markup_is_kept_as_text() {
        assert_eq!(clean_name("<img src=x onerror=a()>"), Ok("<img src=x onerror=a()>".to_owned()));
    }

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
        let second = restarted.issue_token(&ana).await.expect("stored");
        assert_ne!(second, token);
        let store = Store::connect(&url).await.expect("the store opens");
        let again = Players::new(store.clone(), Writer::spawn(store, 16, 16).0);
        assert_eq!(again.authenticate(&second).await, Ok(Some(ana.clone())));
        assert_eq!(again.authenticate(&token).await, Ok(Some(ana)));
    }
}
