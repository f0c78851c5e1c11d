//! [`Collusion`] on SQLite.

use time::OffsetDateTime;

use super::{SqliteStore, id_text, uuid_from};
use crate::protocol::{PlayerId, PlayerInfo};
use crate::store::backend::Collusion;
use crate::store::collusion::SharedPair;
use crate::store::{StoreError, codec};

impl Collusion for SqliteStore {
    async fn note_address(&self, player: PlayerId, key: &[u8; 32], at: OffsetDateTime) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO player_addresses (player_id, address_key, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (player_id, address_key) DO UPDATE SET last_seen = excluded.last_seen",
        )
        .bind(id_text(player.0))
        .bind(key.as_slice())
        .bind(codec::micros(at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn shared_address_pairs(&self, min_tables: i64, limit: i64) -> Result<Vec<SharedPair>, StoreError> {
        type Row = (String, String, String, String, i64, i64, i64);
        let rows: Vec<Row> = sqlx::query_as(
            "WITH shared AS (
                 SELECT a.player_id AS p1, b.player_id AS p2, COUNT(*) AS addresses
                 FROM player_addresses a JOIN player_addresses b
                     ON b.address_key = a.address_key AND b.player_id > a.player_id
                 GROUP BY a.player_id, b.player_id
             ), together AS (
                 SELECT s.p1, s.p2, s.addresses, COUNT(*) AS tables, MAX(g.started_at) AS last_at
                 FROM shared s
                 JOIN game_players x ON x.player_id = s.p1
                 JOIN game_players y ON y.table_id = x.table_id AND y.player_id = s.p2
                 JOIN games g ON g.table_id = x.table_id
                 JOIN tables t ON t.id = x.table_id AND t.rated
                 GROUP BY s.p1, s.p2, s.addresses
             )
             SELECT t.p1, a.name, t.p2, b.name, t.addresses, t.tables, t.last_at
             FROM together t JOIN players a ON a.id = t.p1 JOIN players b ON b.id = t.p2
             WHERE t.tables >= ?1 AND a.deleted_at IS NULL AND b.deleted_at IS NULL
             ORDER BY t.tables DESC, t.last_at DESC LIMIT ?2",
        )
        .bind(min_tables)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(p1, n1, p2, n2, addresses, tables, last_at)| {
                Ok(SharedPair {
                    players: [
                        PlayerInfo { id: PlayerId(uuid_from(&p1)?), name: n1 },
                        PlayerInfo { id: PlayerId(uuid_from(&p2)?), name: n2 },
                    ],
                    addresses,
                    tables,
                    last_at: codec::from_micros(last_at)?,
                })
            })
            .collect()
    }
}
