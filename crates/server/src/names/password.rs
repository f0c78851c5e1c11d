//! Passwords: what one may be, and its argon2id hash (the `argon2` crate's defaults, as a PHC string
//! that carries its own salt and parameters), computed on a blocking thread, a few at a time.

use std::sync::OnceLock;
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use tokio::sync::Semaphore;

/// The fewest characters of a password.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// The most characters of a password: far more than anyone types, few enough to hash at once.
pub const MAX_PASSWORD_CHARS: usize = 128;

/// How long a hash waits for its turn before the request is answered that the server is busy.
const HASH_TURN_WAIT: Duration = Duration::from_secs(10);

/// A password as it is hashed: in Unicode compatibility form (NFKC), so that the same password typed on
/// two keyboards is one password, as NIST SP 800-63B advises.
///
/// # Errors
/// A sentence saying what is wrong (too short, too long), safe to send back.
pub fn check_password(password: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization;
    // Counted before the normal form too, so that a huge input is refused before any work on it.
    if password.len() > 4 * MAX_PASSWORD_CHARS {
        return Err(format!("a password has at most {MAX_PASSWORD_CHARS} characters"));
    }
    let normal: String = password.nfkc().collect();
    match normal.chars().count() {
        n if n < MIN_PASSWORD_CHARS => Err(format!("a password has at least {MIN_PASSWORD_CHARS} characters")),
        n if n > MAX_PASSWORD_CHARS => Err(format!("a password has at most {MAX_PASSWORD_CHARS} characters")),
        _ => Ok(normal),
    }
}

/// Why a hash could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Too many hashes waited for their turn.
    #[error("the server is busy checking passwords")]
    Busy,
    /// The hashing failed (a blocking thread could not run it, say).
    #[error("the password could not be hashed: {0}")]
    Failed(String),
}

/// Hashes and checks passwords, at most a few at once, on threads of its own: each hash takes some 19 MiB
/// (argon2id with OWASP's parameters: 19 MiB, 2 passes, 1 lane, the `argon2` crate's defaults) and a core
/// for tens of milliseconds, so a flood of sign-ins waits its turn rather than filling the memory. The threads
/// are a fixed few, not the runtime's blocking pool: the memory allocator keeps what each thread that ever
/// hashed freed (one arena a thread), and hundreds of blocking threads kept about 1.1 GB after a burst of 400
/// sign-ins (docs/reliability.md).
#[derive(Debug)]
pub struct Hasher {
    turns: Semaphore,
    jobs: std::sync::mpsc::Sender<Job>,
}

/// A hash to compute on one of the hasher's threads.
type Job = Box<dyn FnOnce() + Send>;

impl Hasher {
    /// A hasher that computes at most `at_once` hashes at a time (at least one), on as many threads of its own.
    pub fn new(at_once: usize) -> Hasher {
        let at_once = at_once.max(1);
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = std::sync::Arc::new(std::sync::Mutex::new(queue));
        for n in 0..at_once {
            let queue = std::sync::Arc::clone(&queue);
            // A thread that cannot start leaves the others; with none, every hash answers `Failed`.
            let _ = std::thread::Builder::new().name(format!("romirami-hash-{n}")).spawn(move || {
                loop {
                    // The hasher is gone when its sender is: the thread ends.
                    let job = match queue.lock() {
                        Ok(queue) => queue.recv(),
                        Err(poisoned) => poisoned.into_inner().recv(),
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                }
            });
        }
        Hasher { turns: Semaphore::new(at_once), jobs }
    }

    /// Runs `work` on one of the hasher's threads in its turn, so that no table's task waits for it.
    async fn in_turn<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, HashError> {
        let turn = match tokio::time::timeout(HASH_TURN_WAIT, self.turns.acquire()).await {
            Ok(Ok(turn)) => turn,
            // The semaphore is never closed: only the wait can fail.
            _ => return Err(HashError::Busy),
        };
        let (done, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(work());
        });
        self.jobs.send(job).map_err(|_| HashError::Failed("no hashing thread runs".into()))?;
        let answer = answer.await.map_err(|_| HashError::Failed("the hashing thread stopped".into()));
        drop(turn);
        answer
    }

    /// The PHC string of `password` (already [`check_password`]ed) with a new random salt.
    ///
    /// # Errors
    /// When the server is too busy, or the hash cannot be computed.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| HashError::Failed(e.to_string()))?;
        let salt = SaltString::encode_b64(&salt).map_err(|e| HashError::Failed(e.to_string()))?;
        self.in_turn(move || Argon2::default().hash_password(password.as_bytes(), &salt).map(|hash| hash.to_string()))
            .await?
            .map_err(|e| HashError::Failed(e.to_string()))
    }

    /// Whether `password` matches the PHC string `stored`; with `None` (no such name), the same work is
    /// done against a hash nothing matches, so that how long the answer takes does not tell.
    ///
    /// # Errors
    /// When the server is too busy, or the hash cannot be computed.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, HashError> {
        let known = stored.is_some();
        self.in_turn(move || {
            let stored = stored.unwrap_or_else(stand_in);
            // A stored hash that does not parse matches nothing.
            let Ok(parsed) = PasswordHash::new(&stored) else { return false };
            Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
        })
        .await
        .map(|matched| matched && known)
    }
}

/// A hash with the default parameters of a password nobody knows, to check against when there is no
/// such name: computed once, on the first blocking thread that needs it.
fn stand_in() -> String {
    static STAND_IN: OnceLock<String> = OnceLock::new();
    STAND_IN
        .get_or_init(|| {
            let mut bytes = [0u8; 48];
            // Were the OS generator to fail, zeros still do: a check against this hash is never accepted
            // (`verify` answers false without a name).
            let _ = getrandom::fill(&mut bytes);
            SaltString::encode_b64(&bytes[..16])
                .ok()
                .and_then(|salt| Argon2::default().hash_password(&bytes[16..], &salt).ok().map(|h| h.to_string()))
                .unwrap_or_default()
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_checked_and_put_in_one_form() {
        assert!(check_password("").is_err());
        assert!(check_password("seven77").is_err());
        assert_eq!(check_password("eight888"), Ok("eight888".to_owned()));
        assert!(check_password(&"x".repeat(MAX_PASSWORD_CHARS)).is_ok());
        assert!(check_password(&"x".repeat(MAX_PASSWORD_CHARS + 1)).is_err());
        assert!(check_password(&"x".repeat(1_000_000)).is_err());
        // A full-width password is its plain form.
        assert_eq!(check_password("\u{ff50}\u{ff41}\u{ff53}\u{ff53}word1"), Ok("password1".to_owned()));
    }

    #[tokio::test]
    async fn a_hash_matches_its_password_only() {
        let hasher = Hasher::new(2);
        let hash = hasher.hash("correct horse".into()).await.expect("hashed");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert!(hasher.verify("correct horse".into(), Some(hash.clone())).await.expect("checked"));
        assert!(!hasher.verify("correct horsf".into(), Some(hash.clone())).await.expect("checked"));
        assert!(!hasher.verify("correct horse".into(), None).await.expect("checked"), "no name, no match");
        assert!(!hasher.verify("correct horse".into(), Some("not a hash".into())).await.expect("checked"));
        let again = hasher.hash("correct horse".into()).await.expect("hashed");
        assert_ne!(hash, again, "each hash has its own salt");
    }

    #[tokio::test]
    async fn an_unknown_name_costs_the_same_hash_as_a_wrong_password() {
        // Issue 40: unknown names and wrong passwords must take the same time (18.29 vs 18.37 ms medians when
        // measured). Held here without a clock: the stand-in a missing name is checked against is an argon2id
        // hash with the very parameters (memory, passes, lanes, output) of every stored one, so both do the
        // same work.
        let stored = Hasher::new(1).hash("a password".into()).await.expect("hashed");
        let stand_in = stand_in();
        let shape = |phc: &str| {
            let parsed = PasswordHash::new(phc).expect("a PHC string");
            (parsed.algorithm.to_string(), parsed.version, parsed.params.to_string(), parsed.hash.map(|h| h.len()))
        };
        assert_eq!(shape(&stand_in), shape(&stored));
    }
}
