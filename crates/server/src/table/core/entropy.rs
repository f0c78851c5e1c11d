//! Where a table's randomness comes from: the operating system's generator in the server, fixed values
//! in tests.

use romirami_game::commitment::{Contribution, Salt};

/// Where to get the table's randomness: fresh seeds and ids. The server uses the operating system's
/// generator; tests give fixed values.
pub(crate) trait Entropy: Send + std::fmt::Debug {
    /// A fresh game seed, which nobody may predict.
    fn seed(&mut self) -> u64;
    /// A fresh salt for the commitment to a game's seed (`romirami_game::commitment`): sent with
    /// nothing else, never reused.
    fn salt(&mut self) -> Salt;
    /// A seat's contribution to a deal, drawn by the server for a bot's seat or a seat that sent none.
    fn contribution(&mut self) -> Contribution;
    /// A fresh id (a rematch's table).
    fn id(&mut self) -> uuid::Uuid;
}

/// The operating system's random generator.
#[derive(Debug, Default)]
pub(crate) struct OsEntropy;

impl OsEntropy {
    /// 32 fresh random bytes.
    fn bytes() -> [u8; 32] {
        let mut bytes = [0u8; 32];
        // The OS generator does not fail where we run; a game without a fresh seed must not start.
        getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
        bytes
    }
}

impl Entropy for OsEntropy {
    fn seed(&mut self) -> u64 {
        u64::from_le_bytes(OsEntropy::bytes()[..8].try_into().unwrap_or_default())
    }

    fn salt(&mut self) -> Salt {
        OsEntropy::bytes()
    }

    fn contribution(&mut self) -> Contribution {
        OsEntropy::bytes()
    }

    fn id(&mut self) -> uuid::Uuid {
        uuid::Uuid::new_v4()
    }
}
