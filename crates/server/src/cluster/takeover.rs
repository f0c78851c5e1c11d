//! A dead node's tables live on: every node looks, twice per lease length, for open tables whose lease ran
//! out, and takes over those it can lease (`table::adopt`: the game replayed from PostgreSQL's action log,
//! the waiting table with its seats). Two nodes may look at once; the lease goes to one of them. The players
//! come back to the table on any node and catch up by event number.

use std::time::Duration;

use tracing::{info, warn};

use crate::table::{self, Services};

/// Tables taken over per round at most.
const BATCH: u32 = 200;

/// Runs the takeover rounds for this node, for as long as the server runs.
pub(crate) fn start(services: Services, lease_ttl: Duration, nats: async_nats::Client) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(lease_ttl / 2).await;
            // A node cut off from the others does not take their tables: it is the one to let go.
            if nats.connection_state() != async_nats::connection::State::Connected {
                continue;
            }
            let expired = match services.store.expired_leases(BATCH).await {
                Ok(expired) => expired,
                Err(error) => {
                    warn!(%error, "the tables to take over could not be read");
                    continue;
                }
            };
            if expired.is_empty() {
                continue;
            }
            match table::adopt(&services, &expired).await {
                Ok(taken) => {
                    crate::metrics::takeovers(taken);
                    info!(taken, expired = expired.len(), "tables taken over from nodes whose leases ran out");
                }
                Err(error) => warn!(%error, "tables could not be taken over"),
            }
        }
    });
}
