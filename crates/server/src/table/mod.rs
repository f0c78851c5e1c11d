//! Tables: one task owns each table, its seats, its members' connections and its game.
//!
//! The table's rules live in `core`, a state machine with no I/O and no clock: it takes a command, a
//! timer, the outcome of a write or a lost lease, with the time, and returns effects; it reaches the lobby
//! only through `port`. `task` is the thin shell that runs it: it owns the command channel, sleeps until
//! the core's next deadline, and carries out the effects through the table's durable log (`log`). Who
//! sits where and who plays each seat is `seating`; the connections and the per-role fan-out are
//! `members`; the turn clock is `clock`; how the rest of the server speaks to a table is `handle`.
//!
//! Nothing is acknowledged before it is stored: a table is written when it opens, its seats when they
//! change, its game's seed and players when it starts, and each action is committed to the game's log
//! after the engine checked it and before it is applied, acknowledged or shown to anyone. When the
//! database does not answer, the request is refused with [`ErrorCode::Unavailable`] and nothing
//! changes. [`restore`] brings back the tables after a restart: the games in play from their logs,
//! and the tables that wait with their seats.
//!
//! A table may have a turn clock. A seat whose player runs out of time, or leaves a started game, is
//! played by the server's bot (the game's, `TableGame::bot`) until the player comes back: they get the seat
//! back at the start of their next turn. The host may also give seats to bots before the start. When
//! no player is left at all, the game ends as abandoned and is stored. A waiting table none of whose
//! seated players is connected closes after a grace.
//!
//! A [`TableHandle`] is a cheap clone that sends [`TableCommand`]s on a bounded channel; the task
//! applies them one at a time, so a table never needs a lock.

mod chat;
mod clock;
mod core;
pub(crate) mod finished;
pub(crate) mod handle;
mod log;
mod members;
mod options;
mod outbox;
pub(crate) mod port;
mod rematch;
mod seating;
mod services;
pub mod sleep;
mod task;
mod thinking;
pub(crate) mod tournament;

use time::OffsetDateTime;
use tracing::{error, info, warn};

pub use handle::{ModerationAct, Sender, TableCommand, TableHandle};
pub use options::{GameChoice, TableOptions};
pub use outbox::{ConnId, Outbox, OutboxQueue, Outgoing, TooSlow, TryRecvError};
pub use services::Services;

use self::core::TableCore;
pub(crate) use self::core::UNAVAILABLE;
pub(crate) use self::core::{TableConfig, TournamentTable};
use self::port::LobbyPort;
pub(crate) use self::thinking::BotPool;
use crate::protocol::{Clock, ErrorCode, PlayerInfo, TableId, TableSummary};
use crate::store::{StoreError, TableRow};

/// What the host gets back from [`create`].
#[derive(Debug)]
pub struct Created {
    /// The table.
    pub handle: TableHandle,
    /// Its summary as created.
    pub summary: TableSummary,
    /// The invite key.
    pub invite: String,
}

/// Opens a table hosted by `host` (seated in seat 0), stores it, and starts its task.
///
/// # Errors
/// [`ErrorCode::BadOptions`] for a seat count outside 2 to 4, [`ErrorCode::TooManyTables`] when the
/// host already hosts as many open tables as allowed, [`ErrorCode::Unavailable`] when the table cannot
/// be stored.
pub async fn create(
    options: TableOptions,
    game: GameChoice,
    host: PlayerInfo,
    services: &Services,
) -> Result<Created, (ErrorCode, String)> {
    let Services { lobby, config, .. } = services;
    let seats = game.kind.seats();
    if !seats.contains(&usize::from(options.seats)) {
        let (min, max) = (seats.start(), seats.end());
        return Err((ErrorCode::BadOptions, format!("a table has {min} to {max} seats, not {}", options.seats)));
    }
    if options.clock.is_some_and(|clock| !clock.is_valid()) {
        return Err((
            ErrorCode::BadOptions,
            format!(
                "a turn lasts {} ms to {} ms, and a reserve at most {} ms",
                Clock::MIN_TURN_MS,
                Clock::MAX_MS,
                Clock::MAX_MS
            ),
        ));
    }
    if options.clock.is_some_and(Clock::is_turn_based) {
        // Sleeping turn-based tables hold no memory, but rows: a player hosts a bounded number of them too.
        match services.store.sleeping_tables_hosted_by(host.id).await {
            Ok(asleep) if asleep >= config.max_sleeping_tables_per_player as i64 => {
                return Err((
                    ErrorCode::TooManyTables,
                    format!("you already host {asleep} turn-based tables waiting for their players"),
                ));
            }
            Ok(_) => {}
            Err(_) => return Err((ErrorCode::Unavailable, UNAVAILABLE.into())),
        }
    }
    if !lobby.reserve_hosting(host.id, config.max_open_tables_per_player) {
        return Err((
            ErrorCode::TooManyTables,
            format!("you already host {} open tables", config.max_open_tables_per_player),
        ));
    }
    let id = TableId(uuid::Uuid::new_v4());
    let invite = uuid::Uuid::new_v4().simple().to_string();
    // In a cluster the new table is this node's: its id is fresh, so its lease is free.
    let fence = match services.claim(id).await {
        Ok(Some(fence)) => fence,
        Ok(None) | Err(_) => {
            lobby.release_hosting(host.id);
            return Err((ErrorCode::Unavailable, UNAVAILABLE.into()));
        }
    };
    let row = TableRow {
        id,
        game: game.kind.name().into(),
        options: game.options.get().to_owned(),
        host: host.id,
        seats: options.seats,
        public: options.public,
        spectators: options.spectators,
        created_at: OffsetDateTime::now_utc(),
        invite: invite.clone(),
        clock: options.clock,
        rated: options.rated,
        tournament: None,
    };
    if let Err(error) = services.writer.create_table(&row, &[Some(host.id)]).await {
        warn!(%error, "a table could not be stored");
        lobby.release_hosting(host.id);
        return Err((ErrorCode::Unavailable, UNAVAILABLE.into()));
    }
    let core = TableCore::open(id, invite.clone(), host, options, game, services.shared(), task::now());
    let summary = core.public_summary();
    let handle = task::launch(core, Vec::new(), fence, services);
    info!(table = %id, seats = options.seats, public = options.public, "table opened");
    Ok(Created { handle, summary, invite })
}

/// Brings back every table the store holds as open: each game in play at its own table with its
/// players seated, as it stood after its last stored action (a game that turns out to be over is
/// finished), and each table that waits with its seats. Games that do not replay are logged and left
/// in the store. Returns how many tables came back.
///
/// # Errors
/// When the store cannot be read.
pub async fn restore(services: &Services) -> Result<usize, StoreError> {
    restore_these(services, None).await
}

/// Takes over the tables `ids` (open tables whose lease ran out: a dead node's), as [`restore`] brings
/// them back: those whose lease this node gets. Returns how many it took.
///
/// # Errors
/// When the store cannot be read.
pub async fn adopt(services: &Services, ids: &[TableId]) -> Result<usize, StoreError> {
    restore_these(services, Some(ids)).await
}

/// Restores the open tables among `only` (every one when `None`), but those asleep (`sleep.rs`).
async fn restore_these(services: &Services, only: Option<&[TableId]>) -> Result<usize, StoreError> {
    let store = &services.store;
    let games = match only {
        None => store.unfinished_games().await?,
        Some(ids) => store.unfinished_games_among(ids).await?,
    };
    let waiting = match only {
        None => store.waiting_tables().await?,
        Some(ids) => store.waiting_tables_among(ids).await?,
    };
    // At the start, every open table is read: the sleeping ones stay asleep. A takeover's tables are none of
    // them (`expired_leases` leaves sleeping tables out).
    let asleep: std::collections::HashSet<TableId> = match only {
        None => store.sleeping_ids().await?.into_iter().collect(),
        Some(_) => std::collections::HashSet::new(),
    };
    let mut restored = 0;
    // A table this node runs already is not restored twice (its lease may have lapsed for a moment); a
    // sleeping one waits for its visitor or its timer.
    let wanted = |id: TableId| services.lobby.table(id).is_none() && !asleep.contains(&id);
    for unfinished in games.into_iter().filter(|game| wanted(game.table.id)) {
        let id = unfinished.table.id;
        let Some(fence) = services.claim(id).await? else { continue };
        let chat = services.store.chat(id).await?;
        match TableCore::restored(unfinished, services.shared(), task::now()) {
            Ok(mut core) => {
                core.restore_chat(chat);
                let effects = core.take_effects();
                task::launch(core, effects, fence, services);
                restored += 1;
            }
            Err(problem) => error!(table = %id, %problem, "a stored game does not replay; it stays in the store"),
        }
    }
    // A tournament's table that waits was stored and never started: its runner starts it (`tournament.rs`).
    let waiting = waiting.into_iter().filter(|table| table.table.tournament.is_none());
    for waiting in waiting.filter(|table| wanted(table.table.id)) {
        let id = waiting.table.id;
        let Some(fence) = services.claim(id).await? else { continue };
        let chat = services.store.chat(id).await?;
        match TableCore::restored_waiting(waiting, services.shared(), task::now()) {
            Ok(mut core) => {
                core.restore_chat(chat);
                task::launch(core, Vec::new(), fence, services);
                restored += 1;
            }
            Err(problem) => error!(table = %id, %problem, "a stored table cannot be opened; it stays in the store"),
        }
    }
    Ok(restored)
}

/// Brings back the turn-based table `id`, woken from its sleep (its row is deleted, its lease `fence` taken):
/// its running turn started at `turn_since`.
///
/// # Errors
/// When the store cannot be read.
async fn restore_woken(
    services: &Services,
    id: TableId,
    fence: Option<crate::store::Fence>,
    turn_since: OffsetDateTime,
) -> Result<(), StoreError> {
    let chat = services.store.chat(id).await?;
    let now = task::now();
    let core = if let Some(unfinished) = services.store.unfinished_games_among(&[id]).await?.pop() {
        TableCore::restored(unfinished, services.shared(), now).map(|mut core| {
            core.resume_turn(turn_since, now);
            core
        })
    } else if let Some(waiting) = services.store.waiting_tables_among(&[id]).await?.pop() {
        TableCore::restored_waiting(waiting, services.shared(), now)
    } else {
        return Err(StoreError::NotFound);
    };
    match core {
        Ok(mut core) => {
            core.restore_chat(chat);
            let effects = core.take_effects();
            task::launch(core, effects, fence, services);
            Ok(())
        }
        Err(problem) => {
            error!(table = %id, %problem, "a sleeping table does not replay; it stays in the store");
            Err(StoreError::Corrupt(problem))
        }
    }
}
