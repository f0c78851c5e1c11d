//! Opening a rematch's table: the finished table's task stores the new table with its seats and points the
//! finished table to it in the store (so that its id and its link lead there after it closed); then it
//! starts the new table's task, whose first step stores its game's start.

use time::OffsetDateTime;
use tracing::info;

use super::core::{Effect, Now, RematchPlan, TableCore};
use super::port::LobbyPort;
use super::services::Services;
use crate::store::{Fence, StoreError, TableRow};

/// Opens the table `plan` describes, on this node: its core, what that asks for first, and this node's
/// lease on it, for the task to start.
///
/// # Errors
/// When the store does not take the new table or the pointer to it, or (in a cluster) its lease is
/// another node's: then no new table runs.
pub(super) async fn open(
    plan: RematchPlan,
    services: &Services,
    now: Now,
) -> Result<(TableCore, Vec<Effect>, Option<Fence>), StoreError> {
    let Some(fence) = services.claim(plan.id).await? else {
        return Err(StoreError::Other(format!("the lease of the new table {} is another node's", plan.id)));
    };
    let opened = store(&plan, services).await;
    if let Err(error) = opened {
        if let Some(ownership) = &services.ownership {
            ownership.release(plan.id);
        }
        return Err(error);
    }
    // The finished table released its host's count at its end; the rematch takes one again, over the
    // cap if need be: it replaces a table rather than adding one.
    services.lobby.reserve_hosting(plan.host, usize::MAX);
    let (from, id) = (plan.from, plan.id);
    let mut core = TableCore::rematch(plan, services.shared(), now);
    let effects = core.take_effects();
    info!(table = %from, rematch = %id, "rematch opened");
    Ok((core, effects, fence))
}

/// Stores the new table, who sits where, and the finished table's pointer to it.
async fn store(plan: &RematchPlan, services: &Services) -> Result<(), StoreError> {
    let row = TableRow {
        id: plan.id,
        game: plan.game.kind.name().into(),
        options: plan.game.options.get().to_owned(),
        host: plan.host,
        seats: plan.options.seats,
        public: plan.options.public,
        spectators: plan.options.spectators,
        created_at: OffsetDateTime::now_utc(),
        invite: plan.invite.clone(),
        clock: plan.options.clock,
        rated: plan.options.rated,
        tournament: None,
    };
    let seats: Vec<_> = plan.seats.iter().map(|o| Some((o.player.id, o.control.is_hosts_bot()))).collect();
    services.writer.create_table(&row, &[]).await?;
    services.writer.set_seats(plan.id, &seats).await?;
    services.store.set_rematch(plan.from, plan.id).await
}
