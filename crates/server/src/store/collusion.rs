//! The collusion signal, in the store: where players connect from (as keys of their addresses, never the
//! addresses), and the pairs of players who share an address and sit at the same rated tables again and
//! again (`migrations/*/…_player_addresses.sql`), for admins to look at (`GET /api/admin/collusion`).

use time::OffsetDateTime;

use super::backend::Collusion;
use super::{Store, StoreError};
use crate::protocol::{PlayerId, PlayerInfo};

/// Two players who share an address and have sat at rated tables together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedPair {
    /// The two players, the smaller id first.
    pub players: [PlayerInfo; 2],
    /// How many addresses (keys) both have said hello from.
    pub addresses: i64,
    /// How many rated tables both sat at (their games started).
    pub tables: i64,
    /// When the last of those games started.
    pub last_at: OffsetDateTime,
}

impl Store {
    /// Notes that `player` said hello from the address whose key is `key` (`addresses::address_key`).
    ///
    /// # Errors
    /// When the write fails.
    pub async fn note_address(&self, player: PlayerId, key: &[u8; 32]) -> Result<(), StoreError> {
        dispatch!(self, s => s.note_address(player, key, OffsetDateTime::now_utc()).await)
    }

    /// The pairs of players who share an address and sat at `min_tables` rated tables together or more,
    /// the most tables first (at most `limit`).
    ///
    /// # Errors
    /// When the query fails.
    pub async fn shared_address_pairs(&self, min_tables: i64, limit: i64) -> Result<Vec<SharedPair>, StoreError> {
        dispatch!(self, s => s.shared_address_pairs(min_tables, limit).await)
    }
}
