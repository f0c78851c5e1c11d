//! The table's task: the thin shell around its core. It owns the command channel, wakes the core at
//! the time it asks for, carries out its effects (durable writes, whose outcomes it feeds back, the
//! lobby, the result's storage) and closes the table when the core says so.

use std::collections::VecDeque;
use time::OffsetDateTime;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tracing::{info, warn};

use super::core::{Effect, Input, Now, TableCore};
use super::handle::{TableCommand, TableHandle};
use super::log::TableLog;
use super::port::LobbyPort;
use super::services::Services;
use super::{finished, rematch};
use crate::protocol::{ErrorCode, TableState};
use crate::store::{Fence, StoreError};
use crate::wire::ServerMsg;

/// The time now, for the core.
pub(super) fn now() -> Now {
    Now { at: Instant::now(), wall: OffsetDateTime::now_utc() }
}

/// Starts a table's task, lists it in the lobby, and returns its handle. `fence` is the node's lease on
/// the table, in a cluster.
pub(super) fn launch(core: TableCore, effects: Vec<Effect>, fence: Option<Fence>, services: &Services) -> TableHandle {
    let (commands, inbox) = mpsc::channel(services.config.table_queue);
    let handle = TableHandle::new(core.id(), commands);
    services.lobby.register(handle.clone());
    services.lobby.publish(&core.public_summary());
    crate::metrics::table_state(None, Some(core.state()));
    let mut log = TableLog::new(core.id(), services.store.clone(), services.committer.clone(), services.writer.clone());
    log.fence_with(fence);
    tokio::spawn(run(core, log, services.clone(), inbox, effects));
    handle
}

/// Runs a table until it closes: `effects` are what its construction asked for.
async fn run(
    mut core: TableCore,
    mut log: TableLog,
    services: Services,
    mut inbox: mpsc::Receiver<TableCommand>,
    effects: Vec<Effect>,
) {
    let mut effects = effects;
    let mut result_stored = None;
    // The bot's decisions come back here; the core awaits at most one at a time.
    let (thoughts_back, mut thoughts) = mpsc::unbounded_channel();
    let context = Context { services: &services, thoughts: &thoughts_back };
    let mut lease_lost = false;
    let mut slept = false;
    let lost = services.ownership.as_ref().and_then(|ownership| ownership.lost_signal(core.id()));
    loop {
        let woke = match carry_out(&mut core, &mut log, &context, effects, &mut result_stored).await {
            Closing::No => {
                let deadline = core.deadline();
                tokio::select! {
                    command = inbox.recv() => command.map(Input::Command),
                    // Never `None`: this task holds a sender.
                    Some(thought) = thoughts.recv() => Some(Input::Thought(thought)),
                    () = sleep_until(deadline) => Some(Input::Timer),
                    () = stored(&mut result_stored) => Some(Input::ResultStored),
                    // The lease's renewal found it gone.
                    () = signalled(lost.as_deref()) => Some(Input::LeaseLost),
                }
            }
            Closing::Yes => break,
            Closing::Sleep => {
                slept = true;
                break;
            }
            // A write was fenced: the core refused it, and now learns why.
            Closing::LeaseLost => Some(Input::LeaseLost),
        };
        let Some(input) = woke else { break };
        // The core decides what a lost lease means for the table (it closes); the lease is the task's to
        // forget rather than release, below.
        lease_lost |= matches!(input, Input::LeaseLost);
        if let (Input::ResultStored, Some(tournament)) = (&input, core.tournament_id()) {
            let absent = core.absent_seats();
            services.lobby.tournament_game_stored(crate::lobby::TournamentGame {
                tournament,
                table: core.id(),
                absent,
                relayed: false,
            });
        }
        effects = core.step(input, now());
    }
    let Services { lobby, ownership, .. } = &services;
    if core.state() != TableState::Finished {
        lobby.release_hosting(core.host());
    }
    crate::metrics::table_state(Some(core.state()), None);
    lobby.unregister(core.id());
    if let Some(ownership) = ownership {
        if lease_lost {
            // Another node has the table, or will: its members find it there when they come back.
            warn!(table = %core.id(), "the table's lease is lost: it closes here");
            ownership.forget(core.id());
        } else if slept {
            // Asleep: whichever node its next visitor comes to wakes it, at once.
            ownership.release_now(core.id()).await;
        } else {
            ownership.release(core.id());
        }
    }
    inbox.close();
    if slept {
        // Whoever sent a command while the table was falling asleep wakes it (it is stored as asleep now). A
        // connection that closed meanwhile (`Detach`) asks nothing of it: woken for that, the table would go back
        // to sleep at once, its row deleted and written again under whoever reads it.
        let commands: Vec<TableCommand> = std::iter::from_fn(|| inbox.try_recv().ok())
            .filter(|command| !matches!(command, TableCommand::Detach { .. }))
            .collect();
        if !commands.is_empty() {
            tokio::spawn(super::sleep::wake_for(services.clone(), core.id(), commands));
        }
        info!(table = %core.id(), "table asleep");
        return;
    }
    // Whoever sent a command while the table was closing learns that it is gone, or reads its finished
    // game from the store.
    while let Ok(command) = inbox.try_recv() {
        let answered = match &command {
            TableCommand::Join { from, invite, .. } => {
                finished::answer((log.store(), core.games()), core.id(), from, invite.as_deref(), false).await
            }
            TableCommand::Watch { from, invite, .. } => {
                finished::answer((log.store(), core.games()), core.id(), from, invite.as_deref(), true).await
            }
            _ => false,
        };
        if let (false, Some(from)) = (answered, command.sender()) {
            let gone = ServerMsg::error(Some(core.id()), None, ErrorCode::NoSuchTable, "there is no such table");
            from.out.send_msg(&gone);
        }
    }
    info!(table = %core.id(), "table closed");
}

/// Sleeps until `deadline`, or for ever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Waits until `signal` is given, or for ever without one.
async fn signalled(signal: Option<&tokio::sync::Notify>) {
    match signal {
        Some(signal) => signal.notified().await,
        None => std::future::pending().await,
    }
}

/// Waits until the result being stored is done, or for ever when none is.
async fn stored(result: &mut Option<oneshot::Receiver<()>>) {
    match result {
        Some(done) => {
            // Stored, or given up on (the sender dropped): either way the table is done with it.
            let _ = done.await;
            *result = None;
        }
        None => std::future::pending().await,
    }
}

/// Whether the table closes after a round of effects.
enum Closing {
    /// It goes on.
    No,
    /// Its core says so.
    Yes,
    /// Its lease is another node's (a write was fenced): it must not act for the table any more.
    LeaseLost,
    /// A turn-based table nobody is at: its sleep is stored, and the next visitor or timer wakes it.
    Sleep,
}

/// What carrying out an effect needs beside the table's core and log.
struct Context<'a> {
    services: &'a Services,
    /// Where the bot's decisions are sent back to this table.
    thoughts: &'a mpsc::UnboundedSender<super::core::Thought>,
}

/// Carries out `effects` in order, and those that the outcomes of their writes lead to; says whether
/// the table closes.
async fn carry_out(
    core: &mut TableCore,
    log: &mut TableLog,
    context: &Context<'_>,
    effects: Vec<Effect>,
    result_stored: &mut Option<oneshot::Receiver<()>>,
) -> Closing {
    let services = context.services;
    let mut queue = VecDeque::from(effects);
    let mut close = Closing::No;
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Write(durable) => {
                let outcome = log.write(&durable).await;
                if matches!(outcome, Err(StoreError::Fenced(_))) {
                    // The core refuses what it asked for (nothing was written); the table stops here.
                    close = Closing::LeaseLost;
                }
                queue.extend(core.step(Input::Stored(outcome), now()));
            }
            Effect::OpenRematch(plan) => {
                // Boxed: opening a table waits on the store, and would otherwise widen every table's task.
                let opened = Box::pin(rematch::open(*plan, services, now())).await;
                // The new table's task starts here, where tasks start (rematch.rs only stores it).
                let outcome = opened.map(|(next, effects, fence)| {
                    launch(next, effects, fence, services);
                });
                queue.extend(core.step(Input::Stored(outcome), now()));
            }
            Effect::Think(turn) => services.bots.think(*turn, context.thoughts.clone()),
            Effect::StoreResult(finished) => *result_stored = Some(log.store_result(*finished)),
            Effect::Notify(notice) => services.pusher.notify(notice),
            Effect::Sleep(row) => match services.store.put_sleeping(&row).await {
                Ok(()) if matches!(close, Closing::No) => close = Closing::Sleep,
                Ok(()) => {}
                Err(error) => {
                    tracing::warn!(table = %row.table, %error, "a turn-based table could not go to sleep: it stays awake");
                    core.stay_awake();
                }
            },
            Effect::Close if matches!(close, Closing::No) => close = Closing::Yes,
            Effect::Close => {}
        }
    }
    close
}
