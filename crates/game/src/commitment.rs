//! A shuffle anyone can check: the commitment to a game's seed that every member receives when the game
//! starts, and the check of the seed and salt that the finished game's record reveals.
//!
//! The commitment is the SHA-256 of this byte string, written as 64 lower-case hex digits:
//!
//! | bytes | what |
//! | --- | --- |
//! | 18 | the ASCII text `romirami-shuffle/1` ([`DOMAIN`]) |
//! | 8 | the seed, a `u64`, big-endian |
//! | 32 | the salt ([`SALT_LEN`] random bytes) |
//!
//! 58 bytes in all, with no separator and no length prefix. A browser recomputes it with Web Crypto:
//! `crypto.subtle.digest("SHA-256", bytes)`, the seed written with
//! `DataView.setBigUint64(18, BigInt(seed), false)`. The test vector of `docs/rules/record-format.md`
//! ("Shuffle proof") is checked below.
//!
//! A record carries the proof as three optional top-level fields (both record formats): `seed` (the
//! `u64` as a decimal string, so that JavaScript numbers do not round it), `salt` and `commitment` (lower-case
//! hex). [`ShuffleProof::from_fields`] reads them and checks the commitment; what the seed must give is
//! each game's own derivation, checked by its record's verify.

use std::fmt;

use sha2::{Digest, Sha256};

/// The bytes the commitment's input starts with, naming the scheme and its version.
pub const DOMAIN: &[u8; 18] = b"romirami-shuffle/1";

/// How many bytes of salt: random, fresh for every game, never reused.
pub const SALT_LEN: usize = 32;

/// A salt: [`SALT_LEN`] random bytes.
pub type Salt = [u8; SALT_LEN];

/// The SHA-256 commitment to a seed and a salt (see the module's documentation for the bytes hashed).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment(pub [u8; 32]);

impl Commitment {
    /// The commitment to `seed` with `salt`.
    pub fn of(seed: u64, salt: &Salt) -> Commitment {
        let mut hash = Sha256::new();
        hash.update(DOMAIN);
        hash.update(seed.to_be_bytes());
        hash.update(salt);
        Commitment(hash.finalize().into())
    }

    /// The commitment as 64 lower-case hex digits, as it is sent and written in records.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Reads 64 lower-case hex digits.
    ///
    /// # Errors
    /// A sentence when `text` is not 64 lower-case hex digits.
    pub fn from_hex(text: &str) -> Result<Commitment, String> {
        lower_hex::<32>(text).map(Commitment).ok_or_else(|| "the commitment is not 64 lower-case hex digits".into())
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({})", self.to_hex())
    }
}

/// The commitment to `seed` with `salt`, as 64 lower-case hex digits: SHA-256 over
/// [`DOMAIN`] ‖ `seed` as 8 bytes big-endian ‖ `salt`.
pub fn commit(seed: u64, salt: &Salt) -> String {
    Commitment::of(seed, salt).to_hex()
}

/// Whether `commitment` (hex, as [`commit`] writes it) is the commitment to `seed` with `salt`.
/// Upper-case or malformed hex is not.
pub fn check(commitment: &str, seed: u64, salt: &Salt) -> bool {
    Commitment::from_hex(commitment).is_ok_and(|c| c == Commitment::of(seed, salt))
}

/// What a finished game reveals so that its shuffle can be checked: the seed the game was dealt from and
/// the salt of the commitment sent when it started.
///
/// Its `Debug` output shows neither: a game in play must not leak its seed into a log line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ShuffleProof {
    /// The seed the game was created from (`TableGame::new`).
    pub seed: u64,
    /// The salt of the commitment.
    pub salt: Salt,
}

impl fmt::Debug for ShuffleProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ShuffleProof { .. }")
    }
}

/// The three record fields of a shuffle proof, as written: `seed` (decimal), `salt` and `commitment`
/// (lower-case hex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFields {
    /// The seed in decimal.
    pub seed: String,
    /// The salt, 64 lower-case hex digits.
    pub salt: String,
    /// The commitment, 64 lower-case hex digits.
    pub commitment: String,
}

impl ShuffleProof {
    /// A proof of `seed` with `salt`.
    pub fn new(seed: u64, salt: Salt) -> ShuffleProof {
        ShuffleProof { seed, salt }
    }

    /// The commitment sent when the game started.
    pub fn commitment(&self) -> Commitment {
        Commitment::of(self.seed, &self.salt)
    }

    /// The record fields of this proof, the commitment computed.
    pub fn fields(&self) -> ProofFields {
        ProofFields {
            seed: self.seed.to_string(),
            salt: hex::encode(self.salt),
            commitment: commit(self.seed, &self.salt),
        }
    }

    /// Reads a record's three fields: none of them (an older record, or a game without a proof) is
    /// `Ok(None)`; all three, well formed, with a commitment that is the one of the seed and salt, is the
    /// proof, whose seed the caller then checks against the game's decks.
    ///
    /// # Errors
    /// [`ShuffleError::Fields`] when only some are there or one is malformed (a seed that is not a
    /// decimal `u64` without leading zeros, a salt or commitment that is not 64 lower-case hex digits);
    /// [`ShuffleError::Commitment`] when the commitment is not the one of the seed and salt.
    pub fn from_fields(
        seed: Option<&str>,
        salt: Option<&str>,
        commitment: Option<&str>,
    ) -> Result<Option<ShuffleProof>, ShuffleError> {
        let (seed, salt, commitment) = match (seed, salt, commitment) {
            (None, None, None) => return Ok(None),
            (Some(seed), Some(salt), Some(commitment)) => (seed, salt, commitment),
            _ => {
                return Err(ShuffleError::Fields(
                    "`seed`, `salt` and `commitment` go together: all three or none".into(),
                ));
            }
        };
        let seed = parse_seed(seed).ok_or_else(|| {
            ShuffleError::Fields("`seed` is a decimal string of a 64-bit unsigned number, without leading zeros".into())
        })?;
        let salt = lower_hex::<SALT_LEN>(salt)
            .ok_or_else(|| ShuffleError::Fields("`salt` is 64 lower-case hex digits (32 bytes)".into()))?;
        let commitment =
            Commitment::from_hex(commitment).map_err(|e| ShuffleError::Fields(format!("`commitment`: {e}")))?;
        let proof = ShuffleProof { seed, salt };
        if proof.commitment() != commitment {
            return Err(ShuffleError::Commitment);
        }
        Ok(Some(proof))
    }
}

/// Why a record's shuffle proof does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShuffleError {
    /// The fields are incomplete or malformed.
    Fields(String),
    /// The commitment is not the SHA-256 of the seed and salt.
    Commitment,
    /// The seed does not give what the record says: a deck, the deal, the first player or dealer, or a
    /// reshuffle (the sentence says which, and where).
    NotFromSeed(String),
}

impl ShuffleError {
    /// A stable code: `shuffle_fields`, `shuffle_commitment` or `shuffle_not_from_seed`.
    pub const fn code(&self) -> &'static str {
        match self {
            ShuffleError::Fields(_) => "shuffle_fields",
            ShuffleError::Commitment => "shuffle_commitment",
            ShuffleError::NotFromSeed(_) => "shuffle_not_from_seed",
        }
    }
}

impl fmt::Display for ShuffleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShuffleError::Fields(what) => write!(f, "shuffle proof: {what}"),
            ShuffleError::Commitment => {
                f.write_str("shuffle proof: the commitment is not the SHA-256 of the seed and the salt")
            }
            ShuffleError::NotFromSeed(what) => write!(f, "shuffle proof: {what} is not what the seed gives"),
        }
    }
}

impl std::error::Error for ShuffleError {}

/// A decimal `u64` without sign, spaces or leading zeros.
fn parse_seed(text: &str) -> Option<u64> {
    let canonical =
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
}

/// `N` bytes from exactly `2 * N` lower-case hex digits.
fn lower_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut bytes = [0u8; N];
    hex::decode_to_slice(text, &mut bytes).ok()?;
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector of `docs/rules/record-format.md`: seed 1234567890123456789, salt the bytes 0 to 31.
    const VECTOR_SEED: u64 = 1_234_567_890_123_456_789;
    const VECTOR_COMMITMENT: &str = "8172b88cfc15a4642043f9a7e644221bd959cd1057625a00a13e07b037182384";

    fn vector_salt() -> Salt {
        std::array::from_fn(|i| i as u8)
    }

    #[test]
    fn the_test_vector_holds() {
        assert_eq!(commit(VECTOR_SEED, &vector_salt()), VECTOR_COMMITMENT);
        assert!(check(VECTOR_COMMITMENT, VECTOR_SEED, &vector_salt()));
    }

    #[test]
    fn the_bytes_hashed_are_the_documented_ones() {
        let mut input = Vec::new();
        input.extend_from_slice(b"romirami-shuffle/1");
        input.extend_from_slice(&[0x11, 0x22, 0x10, 0xf4, 0x7d, 0xe9, 0x81, 0x15]);
        input.extend(0u8..32);
        assert_eq!(input.len(), 58);
        assert_eq!(VECTOR_SEED.to_be_bytes(), input[18..26]);
        assert_eq!(hex::encode(Sha256::digest(&input)), commit(VECTOR_SEED, &vector_salt()));
    }

    #[test]
    fn another_seed_salt_or_commitment_does_not_check() {
        let salt = vector_salt();
        let commitment = commit(VECTOR_SEED, &salt);
        assert!(!check(&commitment, VECTOR_SEED + 1, &salt));
        let mut other = salt;
        other[31] ^= 1;
        assert!(!check(&commitment, VECTOR_SEED, &other));
        assert!(!check(&commitment.to_uppercase(), VECTOR_SEED, &salt));
        assert!(!check(&commitment[1..], VECTOR_SEED, &salt));
        assert!(!check("", VECTOR_SEED, &salt));
    }

    #[test]
    fn record_fields_read_back_and_are_checked() {
        let proof = ShuffleProof::new(u64::MAX, [0xab; SALT_LEN]);
        let fields = proof.fields();
        assert_eq!(fields.seed, "18446744073709551615");
        assert_eq!(fields.salt, "ab".repeat(32));
        let read = |seed: &str, salt: &str, commitment: &str| {
            ShuffleProof::from_fields(Some(seed), Some(salt), Some(commitment))
        };
        assert_eq!(read(&fields.seed, &fields.salt, &fields.commitment), Ok(Some(proof)));
        assert_eq!(ShuffleProof::from_fields(None, None, None), Ok(None));
        let code = |r: Result<Option<ShuffleProof>, ShuffleError>| r.map_err(|e| e.code());
        assert_eq!(code(ShuffleProof::from_fields(Some("1"), None, None)), Err("shuffle_fields"));
        for bad_seed in ["", "01", "-1", "+1", " 1", "18446744073709551616", "1e3"] {
            assert_eq!(code(read(bad_seed, &fields.salt, &fields.commitment)), Err("shuffle_fields"), "{bad_seed:?}");
        }
        assert_eq!(code(read(&fields.seed, &fields.salt.to_uppercase(), &fields.commitment)), Err("shuffle_fields"));
        assert_eq!(code(read(&fields.seed, &fields.salt[2..], &fields.commitment)), Err("shuffle_fields"));
        assert_eq!(code(read("0", &fields.salt, &fields.commitment)), Err("shuffle_commitment"));
        assert_eq!(code(read(&fields.seed, &"cd".repeat(32), &fields.commitment)), Err("shuffle_commitment"));
        assert_eq!(code(read(&fields.seed, &fields.salt, &commit(1, &proof.salt))), Err("shuffle_commitment"));
    }

    #[test]
    fn a_proof_does_not_show_its_seed_in_debug() {
        let proof = ShuffleProof::new(987_654_321, [7; SALT_LEN]);
        assert!(!format!("{proof:?}").contains("987654321"));
    }
}
