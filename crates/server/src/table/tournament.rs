//! Opening a tournament's table (`core/tournament.rs` says how it plays): stored with its players in
//! their seats, then started on this node. Opening a table that is live or whose game is stored already
//! does nothing, so a runner that restarts may ask for every table its director planned. A table stored
//! whose game never started (its node stopped in between) is started here: restoring a server brings
//! back no tournament table that waits (`restore_these`), the runner does.

use time::OffsetDateTime;
use tracing::info;

use super::core::{TableCore, TournamentTable};
use super::services::Services;
use super::task;
use crate::store::{StoreError, TableRow};

/// Opens the table `plan` describes, unless it is live or its game stored already. Whether it opened it.
///
/// # Errors
/// When the store does not take it, or (in a cluster) its lease is another node's.
pub(crate) async fn open(plan: TournamentTable, services: &Services) -> Result<bool, StoreError> {
    if services.lobby.table(plan.id).is_some() {
        return Ok(false);
    }
    let stored = match services.store.table(plan.id).await {
        // Its game stored: it is live where its lease is (restored there after a restart), or finished.
        Ok(_) if services.store.waiting_tables_among(&[plan.id]).await?.is_empty() => return Ok(false),
        // Stored, its game never started.
        Ok(_) => true,
        Err(StoreError::NotFound) => false,
        Err(error) => return Err(error),
    };
    let Some(fence) = services.claim(plan.id).await? else {
        // Another node's: it runs there.
        return if stored {
            Ok(false)
        } else {
            Err(StoreError::Other(format!("the lease of the tournament's table {} is another node's", plan.id)))
        };
    };
    if stored {
        return Ok(launch(plan, fence, services));
    }
    let row = TableRow {
        id: plan.id,
        game: plan.game.kind.name().into(),
        options: plan.game.options.get().to_owned(),
        host: plan.seats.first().map(|p| p.id).ok_or_else(|| StoreError::Other("a table without players".into()))?,
        seats: plan.options.seats,
        public: false,
        spectators: plan.options.spectators,
        created_at: OffsetDateTime::now_utc(),
        invite: plan.id.0.simple().to_string(),
        clock: plan.options.clock,
        rated: plan.options.rated,
        tournament: plan.options.tournament,
    };
    let seats: Vec<_> = plan.seats.iter().map(|p| Some(p.id)).collect();
    if let Err(error) = services.writer.create_table(&row, &seats).await {
        if let Some(ownership) = &services.ownership {
            ownership.release(plan.id);
        }
        return Err(error);
    }
    Ok(launch(plan, fence, services))
}

/// Starts the stored table `plan` on this node.
fn launch(plan: TournamentTable, fence: Option<crate::store::Fence>, services: &Services) -> bool {
    let id = plan.id;
    let mut core = TableCore::tournament(plan, services.shared(), task::now());
    let effects = core.take_effects();
    task::launch(core, effects, fence, services);
    info!(table = %id, "a tournament's table opened");
    true
}
