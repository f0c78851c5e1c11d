//! Where a tournament's tables' ids and duplicate deals come from: its secret, drawn once at its creation
//! and never shown, and a number. So a director that restarts before its tables opened opens the very
//! same tables again (the same ids: never a table twice), and a duplicate round's deal is fixed before
//! any table of it opens.

use romirami_game::commitment::{self, Contribution, Salt, ShuffleProof};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A tournament's secret: 32 random bytes from the caller. It seeds duplicate deals, so it is as
/// hidden as a table's seed: stored with the director, never in a view, a log line or a message.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Secret(#[serde(with = "crate::hex32::one")] pub [u8; 32]);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// A duplicate round's deal: the server's seed for the round and the salt of its commitment (the same at
/// every table, so every table tells the same commitment), and the contributions of the round's players,
/// from which the seed every table deals from is derived as a table's is (`romirami_game::commitment`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    /// The server's seed for the round, committed to before any contribution.
    pub seed: u64,
    /// The commitment's salt.
    #[serde(with = "crate::hex32::one")]
    pub salt: Salt,
    /// The round's players' contributions in the round's order (its tables in order, each in seat order);
    /// none while they are awaited, and none in a round dealt from the server's seed alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "crate::hex32::list")]
    pub contributions: Vec<Contribution>,
}

impl std::fmt::Debug for Deal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Deal({}, {} contributions)", self.commitment(), self.contributions.len())
    }
}

impl Deal {
    /// The public commitment to the deal (`romirami_game::commitment`), told before any of its games.
    pub fn commitment(&self) -> String {
        commitment::commit(self.seed, &self.salt)
    }

    /// The proof every table of the round deals from and writes in its record.
    pub fn proof(&self) -> ShuffleProof {
        ShuffleProof::contributed(self.seed, self.salt, self.contributions.clone())
    }
}

impl Secret {
    /// 32 bytes of `what` and `n` hashed with the secret.
    fn derive(&self, what: &[u8], n: u64) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update(self.0);
        hash.update(what);
        hash.update(n.to_le_bytes());
        hash.finalize().into()
    }

    /// The id of the tournament's `n`-th table: a version-4 UUID nobody can tell from a random one.
    pub(crate) fn table_id(&self, n: u64) -> uuid::Uuid {
        let bytes = self.derive(b"table", n);
        let mut id = [0u8; 16];
        id.copy_from_slice(&bytes[..16]);
        uuid::Builder::from_random_bytes(id).into_uuid()
    }

    /// The deal of the tournament's `n`-th duplicate round.
    pub(crate) fn deal(&self, n: u64) -> Deal {
        let seed_bytes = self.derive(b"seed", n);
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&seed_bytes[..8]);
        Deal { seed: u64::from_le_bytes(seed), salt: self.derive(b"salt", n), contributions: Vec::new() }
    }

    /// The contribution the server draws for the `index`-th player of the `round`-th duplicate round who
    /// gave none in time: as unknown to the players as the round's seed.
    pub(crate) fn contribution(&self, round: u32, index: usize) -> Contribution {
        self.derive(b"contribution", (u64::from(round) << 32) | index as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_deals_are_fixed_by_the_secret_and_differ_by_number() {
        let secret = Secret([7; 32]);
        assert_eq!(secret.table_id(3), Secret([7; 32]).table_id(3));
        assert_ne!(secret.table_id(3), secret.table_id(4));
        assert_ne!(secret.table_id(3), Secret([8; 32]).table_id(3));
        assert_eq!(secret.table_id(3).get_version_num(), 4);
        assert_eq!(secret.deal(1), secret.deal(1));
        assert_ne!(secret.deal(1).seed, secret.deal(2).seed);
        assert!(commitment::check(&secret.deal(1).commitment(), secret.deal(1).seed, &secret.deal(1).salt));
        assert_ne!(secret.contribution(1, 0), secret.contribution(1, 1));
        assert_ne!(secret.contribution(1, 0), secret.contribution(2, 0));
    }

    #[test]
    fn the_secret_and_deals_never_print() {
        let secret = Secret([7; 32]);
        let deal = Deal { contributions: vec![secret.contribution(1, 0)], ..secret.deal(1) };
        assert!(!format!("{secret:?}").contains("0707"));
        assert!(!format!("{deal:?}").contains(&deal.seed.to_string()));
        // Stored, they read back.
        let json = serde_json::to_string(&(&secret, &deal)).expect("JSON");
        let back: (Secret, Deal) = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, (secret, deal));
    }
}
