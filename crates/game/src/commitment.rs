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
//! The game is not dealt from the server's seed alone: at the start every seat contributes 32 random
//! bytes (its client draws them; the server draws them for a seat that sends none, bots' seats too), and
//! the game's seed is derived from the server's seed, the salt and the contributions in seat order
//! ([`derive_seed`], an HMAC-SHA256). The server committed before any contribution was sent, so it cannot
//! pick the deal; a player, who knows neither the seed nor the salt, cannot steer it.
//!
//! A record carries the proof as optional top-level fields (both record formats): `seed` (the game's,
//! a `u64` as a decimal string, so that JavaScript numbers do not round it), `salt` and `commitment`
//! (lower-case hex), and `server_seed` (decimal) with `contributions` (64 lower-case hex digits each, in
//! seat order). Records written before players contributed carry only the first three, the commitment
//! then to `seed` itself. [`ShuffleProof::from_fields`] reads them and checks the commitment and the
//! derivation; what the seed must give is each game's own derivation, checked by its record's verify.

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

/// How many bytes a seat's contribution to the deal has.
pub const CONTRIBUTION_LEN: usize = 32;

/// A seat's contribution to the deal: [`CONTRIBUTION_LEN`] random bytes its client drew (or the server,
/// for a seat that sent none).
pub type Contribution = [u8; CONTRIBUTION_LEN];

/// The bytes the derivation's message starts with (see [`derive_seed`]).
pub const DEAL_DOMAIN: &[u8; 15] = b"romirami-deal/1";

/// The game's seed from the server's seed, the salt and the seats' contributions in seat order: the first
/// 8 bytes, big-endian, of HMAC-SHA256 keyed by the server's seed (8 bytes big-endian) ‖ salt over
/// [`DEAL_DOMAIN`] ‖ contribution of seat 0 ‖ contribution of seat 1 ‖ …
///
/// The server committed to its seed and salt before any contribution was sent, so it cannot choose the
/// deal by choosing them afterwards; a player, who knows neither, cannot steer it by choosing their own.
pub fn derive_seed(server_seed: u64, salt: &Salt, contributions: &[Contribution]) -> u64 {
    use hmac::{Hmac, Mac};
    let mut key = [0u8; 8 + SALT_LEN];
    key[..8].copy_from_slice(&server_seed.to_be_bytes());
    key[8..].copy_from_slice(salt);
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&key).expect("HMAC takes a key of any length");
    mac.update(DEAL_DOMAIN);
    for contribution in contributions {
        mac.update(contribution);
    }
    let digest = mac.finalize().into_bytes();
    u64::from_be_bytes(digest[..8].try_into().expect("SHA-256 gives 32 bytes"))
}

/// Reads a contribution: exactly 64 lower-case hex digits.
pub fn contribution_from_hex(text: &str) -> Option<Contribution> {
    lower_hex::<CONTRIBUTION_LEN>(text)
}

/// What a finished game reveals so that its shuffle can be checked: the seed the server committed to
/// before the start, the salt of that commitment, and the seats' contributions, from which the game's
/// seed is derived ([`ShuffleProof::seed`]).
///
/// Its `Debug` output shows none of them: a game in play must not leak its seed into a log line.
#[derive(Clone, PartialEq, Eq)]
pub struct ShuffleProof {
    /// The seed the server drew and committed to.
    pub server_seed: u64,
    /// The salt of the commitment.
    pub salt: Salt,
    /// The seats' contributions in seat order; none for a game dealt from the server's seed alone (games
    /// stored before players contributed, and records written then).
    pub contributions: Vec<Contribution>,
}

impl fmt::Debug for ShuffleProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ShuffleProof { .. }")
    }
}

/// The record fields of a shuffle proof, as written (both record formats): `seed` (the game's, decimal),
/// `salt` and `commitment` (lower-case hex), and with the players' contributions `server_seed` (decimal)
/// and `contributions` (64 lower-case hex digits each, in seat order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofFields {
    /// The game's seed in decimal.
    pub seed: Option<String>,
    /// The salt, 64 lower-case hex digits.
    pub salt: Option<String>,
    /// The commitment, 64 lower-case hex digits.
    pub commitment: Option<String>,
    /// The server's seed in decimal (with contributions).
    pub server_seed: Option<String>,
    /// The seats' contributions (with a server seed).
    pub contributions: Option<Vec<String>>,
}

impl ShuffleProof {
    /// A proof of a game dealt from the server's `seed` alone, committed to with `salt`.
    pub fn new(seed: u64, salt: Salt) -> ShuffleProof {
        ShuffleProof { server_seed: seed, salt, contributions: Vec::new() }
    }

    /// A proof of a game dealt from the server's seed and the seats' contributions.
    pub fn contributed(server_seed: u64, salt: Salt, contributions: Vec<Contribution>) -> ShuffleProof {
        ShuffleProof { server_seed, salt, contributions }
    }

    /// The seed the game is dealt from: derived from the contributions ([`derive_seed`]), or the server's
    /// own when there are none.
    pub fn seed(&self) -> u64 {
        if self.contributions.is_empty() {
            self.server_seed
        } else {
            derive_seed(self.server_seed, &self.salt, &self.contributions)
        }
    }

    /// The commitment sent when the game started (to the server's seed).
    pub fn commitment(&self) -> Commitment {
        Commitment::of(self.server_seed, &self.salt)
    }

    /// The record fields of this proof, the commitment and the game's seed computed.
    pub fn fields(&self) -> ProofFields {
        let contributed = !self.contributions.is_empty();
        ProofFields {
            seed: Some(self.seed().to_string()),
            salt: Some(hex::encode(self.salt)),
            commitment: Some(commit(self.server_seed, &self.salt)),
            server_seed: contributed.then(|| self.server_seed.to_string()),
            contributions: contributed.then(|| self.contributions.iter().map(hex::encode).collect()),
        }
    }

    /// Reads a record's proof fields: none of them (an older record, or a game without a proof) is
    /// `Ok(None)`. Either `seed`, `salt` and `commitment` (a game dealt from the server's seed alone), or
    /// those with `server_seed` and `contributions`; well formed, with a commitment that is the one of the
    /// server's seed and salt, and a seed derived from them and the contributions, is the proof, whose
    /// seed the caller then checks against the game's decks.
    ///
    /// # Errors
    /// [`ShuffleError::Fields`] when some are missing or one is malformed (a seed that is not a decimal
    /// `u64` without leading zeros, a salt, commitment or contribution that is not 64 lower-case hex
    /// digits, no contributions); [`ShuffleError::Commitment`] when the commitment is not the one of the
    /// server's seed and salt; [`ShuffleError::Derivation`] when the seed is not the one derived.
    pub fn from_fields(fields: &ProofFields) -> Result<Option<ShuffleProof>, ShuffleError> {
        let ProofFields { seed, salt, commitment, server_seed, contributions } = fields;
        let (seed, salt, commitment) = match (seed, salt, commitment, server_seed, contributions) {
            (None, None, None, None, None) => return Ok(None),
            (Some(seed), Some(salt), Some(commitment), _, _) => (seed, salt, commitment),
            _ => {
                return Err(ShuffleError::Fields(
                    "`seed`, `salt` and `commitment` go together (with `server_seed` and `contributions`, or \
                     without both): all or none"
                        .into(),
                ));
            }
        };
        let decimal = |field: &str, text: &str| {
            parse_seed(text).ok_or_else(|| {
                ShuffleError::Fields(format!(
                    "`{field}` is a decimal string of a 64-bit unsigned number, without leading zeros"
                ))
            })
        };
        let seed = decimal("seed", seed)?;
        let salt = lower_hex::<SALT_LEN>(salt)
            .ok_or_else(|| ShuffleError::Fields("`salt` is 64 lower-case hex digits (32 bytes)".into()))?;
        let commitment =
            Commitment::from_hex(commitment).map_err(|e| ShuffleError::Fields(format!("`commitment`: {e}")))?;
        let proof = match (server_seed, contributions) {
            (None, None) => ShuffleProof::new(seed, salt),
            (Some(server_seed), Some(contributions)) => {
                let server_seed = decimal("server_seed", server_seed)?;
                if contributions.is_empty() {
                    return Err(ShuffleError::Fields("`contributions` has one value per seat, not none".into()));
                }
                let contributions = contributions
                    .iter()
                    .enumerate()
                    .map(|(i, text)| {
                        contribution_from_hex(text).ok_or_else(|| {
                            ShuffleError::Fields(format!("`contributions[{i}]` is 64 lower-case hex digits (32 bytes)"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                ShuffleProof::contributed(server_seed, salt, contributions)
            }
            _ => {
                return Err(ShuffleError::Fields("`server_seed` and `contributions` go together: both or none".into()));
            }
        };
        if proof.commitment() != commitment {
            return Err(ShuffleError::Commitment);
        }
        if proof.seed() != seed {
            return Err(ShuffleError::Derivation);
        }
        Ok(Some(proof))
    }
}

/// Why a record's shuffle proof does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShuffleError {
    /// The fields are incomplete or malformed.
    Fields(String),
    /// The commitment is not the SHA-256 of the (server's) seed and salt.
    Commitment,
    /// The game's seed is not the one derived from the server's seed, the salt and the contributions.
    Derivation,
    /// The seed does not give what the record says: a deck, the deal, the first player or dealer, or a
    /// reshuffle (the sentence says which, and where).
    NotFromSeed(String),
}

impl ShuffleError {
    /// A stable code: `shuffle_fields`, `shuffle_commitment`, `shuffle_derivation` or `shuffle_not_from_seed`.
    pub const fn code(&self) -> &'static str {
        match self {
            ShuffleError::Fields(_) => "shuffle_fields",
            ShuffleError::Commitment => "shuffle_commitment",
            ShuffleError::Derivation => "shuffle_derivation",
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
            ShuffleError::Derivation => f.write_str(
                "shuffle proof: the seed is not the one derived from the server's seed, the salt and the contributions",
            ),
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
        assert_eq!(fields.seed.as_deref(), Some("18446744073709551615"));
        assert_eq!(fields.salt, Some("ab".repeat(32)));
        assert_eq!((&fields.server_seed, &fields.contributions), (&None, &None));
        let read = |seed: &str, salt: &str, commitment: &str| {
            ShuffleProof::from_fields(&ProofFields {
                seed: Some(seed.into()),
                salt: Some(salt.into()),
                commitment: Some(commitment.into()),
                ..ProofFields::default()
            })
        };
        let (seed, salt, commitment) = (
            fields.seed.clone().expect("written"),
            fields.salt.clone().expect("written"),
            fields.commitment.clone().expect("written"),
        );
        assert_eq!(read(&seed, &salt, &commitment), Ok(Some(proof.clone())));
        assert_eq!(ShuffleProof::from_fields(&ProofFields::default()), Ok(None));
        let code = |r: Result<Option<ShuffleProof>, ShuffleError>| r.map_err(|e| e.code());
        let only_seed = ProofFields { seed: Some("1".into()), ..ProofFields::default() };
        assert_eq!(code(ShuffleProof::from_fields(&only_seed)), Err("shuffle_fields"));
        for bad_seed in ["", "01", "-1", "+1", " 1", "18446744073709551616", "1e3"] {
            assert_eq!(code(read(bad_seed, &salt, &commitment)), Err("shuffle_fields"), "{bad_seed:?}");
        }
        assert_eq!(code(read(&seed, &salt.to_uppercase(), &commitment)), Err("shuffle_fields"));
        assert_eq!(code(read(&seed, &salt[2..], &commitment)), Err("shuffle_fields"));
        assert_eq!(code(read("0", &salt, &commitment)), Err("shuffle_commitment"));
        assert_eq!(code(read(&seed, &"cd".repeat(32), &commitment)), Err("shuffle_commitment"));
        assert_eq!(code(read(&seed, &salt, &commit(1, &proof.salt))), Err("shuffle_commitment"));
    }

    /// The derivation's test vector of `docs/rules/record-format.md`: the commitment's vector, with seat 0
    /// contributing 32 bytes of 0x11 and seat 1 32 bytes of 0x22.
    const VECTOR_DEAL_SEED: u64 = 14_750_675_990_998_364_322;

    #[test]
    fn the_derivation_is_the_documented_hmac() {
        use hmac::{Hmac, Mac};
        let contributions = [[0x11; 32], [0x22; 32]];
        let mut key = VECTOR_SEED.to_be_bytes().to_vec();
        key.extend(0u8..32);
        let mut message = b"romirami-deal/1".to_vec();
        message.extend([0x11; 32]);
        message.extend([0x22; 32]);
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("any key");
        mac.update(&message);
        let digest = mac.finalize().into_bytes();
        let expected = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
        assert_eq!(derive_seed(VECTOR_SEED, &vector_salt(), &contributions), expected);
        assert_eq!(expected, VECTOR_DEAL_SEED, "the documented vector");
        // Each contribution, and its place, changes the seed.
        assert_ne!(derive_seed(VECTOR_SEED, &vector_salt(), &[[0x22; 32], [0x11; 32]]), expected);
        assert_ne!(derive_seed(VECTOR_SEED, &vector_salt(), &[[0x11; 32], [0x23; 32]]), expected);
        assert_ne!(derive_seed(VECTOR_SEED, &vector_salt(), &[[0x11; 32]]), expected);
    }

    #[test]
    fn contributed_fields_read_back_and_any_change_is_refused() {
        let proof = ShuffleProof::contributed(VECTOR_SEED, vector_salt(), vec![[0x11; 32], [0x22; 32]]);
        let fields = proof.fields();
        assert_eq!(fields.server_seed.as_deref(), Some("1234567890123456789"));
        assert_eq!(fields.seed, Some(VECTOR_DEAL_SEED.to_string()));
        assert_eq!(fields.contributions, Some(vec!["11".repeat(32), "22".repeat(32)]));
        assert_eq!(fields.commitment.as_deref(), Some(VECTOR_COMMITMENT));
        assert_eq!(ShuffleProof::from_fields(&fields), Ok(Some(proof.clone())));
        assert_eq!(proof.seed(), VECTOR_DEAL_SEED);
        let code = |fields: ProofFields| ShuffleProof::from_fields(&fields).map_err(|e| e.code());
        let mut changed = fields.clone();
        changed.contributions.as_mut().expect("two")[1] = "23".repeat(32);
        assert_eq!(code(changed), Err("shuffle_derivation"));
        let mut fewer = fields.clone();
        fewer.contributions.as_mut().expect("two").pop();
        assert_eq!(code(fewer), Err("shuffle_derivation"));
        assert_eq!(code(ProofFields { seed: Some("7".into()), ..fields.clone() }), Err("shuffle_derivation"));
        assert_eq!(code(ProofFields { salt: Some("cd".repeat(32)), ..fields.clone() }), Err("shuffle_commitment"));
        assert_eq!(code(ProofFields { server_seed: Some("7".into()), ..fields.clone() }), Err("shuffle_commitment"));
        assert_eq!(code(ProofFields { contributions: None, ..fields.clone() }), Err("shuffle_fields"));
        assert_eq!(code(ProofFields { server_seed: None, ..fields.clone() }), Err("shuffle_fields"));
        assert_eq!(code(ProofFields { contributions: Some(vec![]), ..fields.clone() }), Err("shuffle_fields"));
        assert_eq!(code(ProofFields { contributions: Some(vec!["AA".repeat(32)]), ..fields }), Err("shuffle_fields"));
    }

    #[test]
    fn a_proof_does_not_show_its_seed_in_debug() {
        let proof = ShuffleProof::contributed(987_654_321, [7; SALT_LEN], vec![[9; 32]]);
        let shown = format!("{proof:?}");
        assert!(!shown.contains("987654321") && !shown.contains(&proof.seed().to_string()) && !shown.contains("9, 9"));
    }
}
