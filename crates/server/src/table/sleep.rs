//! Waking turn-based tables (docs/architecture.md, "Turn-based tables"). A sleeping table has a row in the
//! store (`sleeping_tables`) and nothing in memory. It is woken by:
//! - a visitor: a join, watch or move for a table not in the lobby looks for its row ([`wake`]);
//! - its timer: every node looks every [`Config::wake_interval`](crate::config::Config::wake_interval) for
//!   sleeping tables whose running turn has ended ([`start_waking`]), and wakes them, so that the clock's
//!   end (the bot stands in) happens whoever is there.
//!
//! Waking takes the table's lease first (in a cluster only one node can), deletes the row, and brings the
//! table back as a restart does, its running turn's clock started when it started, not when it woke.

use std::time::Duration;

use tokio::sync::Mutex;
use tracing::{info, warn};

use super::handle::{TableCommand, TableHandle};
use super::{Services, restore_woken};
use crate::protocol::TableId;
use crate::store::StoreError;

/// One wake at a time on this node: two visitors of one sleeping table wake it once.
static WAKING: Mutex<()> = Mutex::const_new(());

/// How many due tables one round wakes at most.
const WAKE_BATCH: i64 = 100;

/// The live table `id`, woken from its sleep if it sleeps; `None` when it neither lives here nor sleeps
/// (or another node woke it first: it lives there).
///
/// # Errors
/// When the store cannot be read or written.
pub async fn wake(services: &Services, id: TableId) -> Result<Option<TableHandle>, StoreError> {
    if let Some(handle) = services.lobby.table(id) {
        return Ok(Some(handle));
    }
    // A table that does not sleep (most requests for a table not here: a finished game, a bad id) costs
    // one read, and never waits for another table's waking.
    if services.store.sleeping(id).await?.is_none() {
        return Ok(None);
    }
    let _turn = WAKING.lock().await;
    if let Some(handle) = services.lobby.table(id) {
        return Ok(Some(handle));
    }
    let Some(row) = services.store.sleeping(id).await? else { return Ok(services.lobby.table(id)) };
    // In a cluster, the node whose lease it is wakes it; a single server takes it as it is.
    let Some(fence) = services.claim(id).await? else { return Ok(None) };
    if !services.store.delete_sleeping(id).await? {
        return Ok(services.lobby.table(id));
    }
    info!(table = %id, "a turn-based table wakes");
    restore_woken(services, id, fence, row.turn_since).await?;
    Ok(services.lobby.table(id))
}

/// Wakes `id` and hands it `commands` (sent while it was falling asleep).
pub(super) async fn wake_for(services: Services, id: TableId, commands: Vec<TableCommand>) {
    match wake(&services, id).await {
        Ok(Some(handle)) => {
            for command in commands {
                if let Err(command) = handle.send_or_return(command).await {
                    gone(&command, id);
                }
            }
        }
        Ok(None) => commands.iter().for_each(|command| gone(command, id)),
        Err(error) => {
            warn!(table = %id, %error, "a turn-based table could not be woken");
            commands.iter().for_each(|command| gone(command, id));
        }
    }
}

/// Tells the sender of `command` that the table is not here (it may try again: it lives elsewhere).
fn gone(command: &TableCommand, id: TableId) {
    if let Some(from) = command.sender() {
        let message = crate::wire::ServerMsg::error(
            Some(id),
            None,
            crate::protocol::ErrorCode::Unavailable,
            "the table is waking up elsewhere; try again",
        );
        from.out.send_msg(&message);
    }
}

/// Wakes, every `interval`, the sleeping tables whose running turn has ended.
pub fn start_waking(services: Services, interval: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let due = match services.store.due_sleepers(time::OffsetDateTime::now_utc(), WAKE_BATCH).await {
                Ok(due) => due,
                Err(error) => {
                    warn!(%error, "the sleeping tables due to wake could not be read");
                    continue;
                }
            };
            for id in due {
                if let Err(error) = wake(&services, id).await {
                    warn!(table = %id, %error, "a turn-based table due to wake could not be woken");
                }
            }
        }
    });
}
