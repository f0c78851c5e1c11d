//! The table's task: the thin shell around its core. It owns the command channel, wakes the core at
//! the time it asks for, carries out its effects (durable writes, whose outcomes it feeds back, the
//! lobby, the result's storage) and closes the table when the core says so.

use std::collections::VecDeque;
use std::sync::Arc;

use time::OffsetDateTime;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::info;

use super::TableCommand;
use super::core::{Effect, Input, Now, TableCore};
use super::log::TableLog;
use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, ServerMsg, TableState};

/// The time now, for the core.
pub(super) fn now() -> Now {
    Now { at: Instant::now(), wall: OffsetDateTime::now_utc() }
}

/// Runs a table until it closes: `effects` are what its construction asked for.
pub(super) async fn run(
    mut core: TableCore,
    mut log: TableLog,
    lobby: Arc<Lobby>,
    mut inbox: mpsc::Receiver<TableCommand>,
    effects: Vec<Effect>,
) {
    let mut effects = effects;
    loop {
        if carry_out(&mut core, &mut log, effects).await {
            break;
        }
        let woke = match core.deadline() {
            Some(at) => tokio::select! {
                command = inbox.recv() => command.map(Input::Command),
                () = tokio::time::sleep_until(at) => Some(Input::Timer),
            },
            None => inbox.recv().await.map(Input::Command),
        };
        let Some(input) = woke else { break };
        effects = core.step(input, now());
    }
    if core.state() != TableState::Finished {
        lobby.release_hosting(core.host());
    }
    crate::metrics::table_state(Some(core.state()), None);
    lobby.unregister(core.id());
    // Whoever sent a command while the table was closing learns that it is gone.
    inbox.close();
    while let Ok(command) = inbox.try_recv() {
        if let Some(from) = command.sender() {
            from.out.send_msg(&ServerMsg::error(
                Some(core.id()),
                None,
                ErrorCode::NoSuchTable,
                "there is no such table",
            ));
        }
    }
    info!(table = %core.id(), "table closed");
}

/// Carries out `effects` in order, and those that the outcomes of their writes lead to; returns
/// whether the table closes.
async fn carry_out(core: &mut TableCore, log: &mut TableLog, effects: Vec<Effect>) -> bool {
    let mut queue = VecDeque::from(effects);
    let mut close = false;
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Write(durable) => {
                let outcome = log.write(&durable).await;
                queue.extend(core.step(Input::Stored(outcome), now()));
            }
            Effect::StoreResult(record) => log.store_result(*record),
            Effect::Close => close = true,
        }
    }
    close
}
