//! Tables: one task owns each table, its seats, its members' connections and its game.
//!
//! The table's rules live in `core`, a state machine with no I/O and no clock: it takes a command, a
//! timer or the outcome of a write, with the time, and returns effects. `task` is the thin shell that
//! runs it: it owns the command channel, sleeps until the core's next deadline, and carries out the
//! effects through the table's durable log (`log`) and the [`Lobby`]. Who sits where and who plays
//! each seat is `seating`; the connections and the per-role fan-out are `members`; the turn clock
//! is `clock`.
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
mod log;
mod members;
mod outbox;
mod rematch;
mod seating;
mod task;

use std::sync::Arc;

use romirami_game::{GameKind, Games, Json, Seat};
use time::OffsetDateTime;
use tokio::sync::mpsc;
use tracing::{error, info, warn};

pub use outbox::{ConnId, Outbox, OutboxQueue, Outgoing, TooSlow, TryRecvError};

pub(crate) use self::core::TableConfig;
use self::core::{Effect, OsEntropy, Shared, TableCore, UNAVAILABLE};
use self::log::TableLog;
use crate::cluster::Ownership;
use crate::config::Config;
use crate::lobby::Lobby;
use crate::protocol::{Clock, ErrorCode, PlayerInfo, SpectatorPolicy, TableId, TableSummary};
use crate::store::{Committer, Fence, Store, StoreError, TableRow, Writer};

/// What every table shares with the rest of the server.
#[derive(Clone, Debug)]
pub struct Services {
    /// The live tables.
    pub lobby: Arc<Lobby>,
    /// Settings and limits.
    pub config: Arc<Config>,
    /// What a table's core reads of `config`, made once when the server opens.
    pub(crate) table_config: Arc<TableConfig>,
    /// Where tables, games and results are kept.
    pub store: Store,
    /// Commits actions to the store in groups.
    pub committer: Committer,
    /// Commits the table's other writes (its creation, seats, start and finish) in groups.
    pub writer: Writer,
    /// In a cluster, the leases on the tables this node owns; `None` for a single server.
    pub(crate) ownership: Option<Arc<Ownership>>,
}

impl Services {
    /// What a table's core gets of them.
    fn shared(&self) -> Shared {
        Shared { lobby: self.lobby.clone(), config: self.table_config.clone(), entropy: Box::new(OsEntropy) }
    }
}

impl TableConfig {
    /// What a table needs of the server's settings (the shell's job: the core never sees `Config`).
    pub(crate) fn of(config: &Config) -> TableConfig {
        TableConfig {
            games: config.games.clone(),
            catch_up_limit: config.catch_up_limit,
            waiting_table_grace: config.waiting_table_grace,
            bot_delay: config.bot_delay,
            bot_retry: config.bot_retry,
            abandon_after: config.abandon_after,
            round_pause: config.round_pause,
            choice_time: config.choice_time,
            rematch_time: config.rematch_time,
            max_actions_per_game: config.max_actions_per_game,
        }
    }
}

/// Who sends a command: a connection, with its player and its outbox.
#[derive(Clone, Debug)]
pub struct Sender {
    /// The connection.
    pub conn: ConnId,
    /// The player it speaks for.
    pub player: PlayerInfo,
    /// Where answers go.
    pub out: Outbox,
}

/// A request to a table.
#[derive(Debug)]
pub enum TableCommand {
    /// Sit down, or come back to one's seat.
    Join {
        /// Who.
        from: Sender,
        /// The invite key, if the client has the link.
        invite: Option<String>,
        /// Events the client already has.
        since: Option<usize>,
    },
    /// Watch.
    Watch {
        /// Who.
        from: Sender,
        /// The invite key, if the client has the link.
        invite: Option<String>,
        /// Events the client already has.
        since: Option<usize>,
    },
    /// Stop watching, or give up one's seat before the start.
    Leave {
        /// Who.
        from: Sender,
    },
    /// The connection closed: it is no longer a member (a seat stays its player's).
    Detach {
        /// The connection.
        conn: ConnId,
    },
    /// The host starts the game.
    Start {
        /// Who.
        from: Sender,
    },
    /// A member asks for earlier events, for its log.
    History {
        /// Who.
        from: Sender,
        /// The first event wanted.
        from_event: usize,
    },
    /// The host frees a seat before the start.
    Kick {
        /// Who.
        from: Sender,
        /// The seat.
        seat: Seat,
    },
    /// The host gives the first free seat to a bot before the start.
    AddBot {
        /// Who.
        from: Sender,
    },
    /// Play an action.
    Act {
        /// Who.
        from: Sender,
        /// The client's id for the action.
        id: u64,
        /// The action, as JSON for the table's game to read.
        action: serde_json::Value,
    },
    /// Say something in the table's chat.
    Chat {
        /// Who.
        from: Sender,
        /// What, as the client sent it (the table checks it).
        text: String,
    },
    /// Mute another player's chat for oneself, or hear them again.
    Mute {
        /// Who.
        from: Sender,
        /// Whom.
        player: crate::protocol::PlayerId,
        /// Mute, or hear again.
        muted: bool,
    },
    /// A player of the finished game says yes (or no) to playing again.
    Rematch {
        /// Who.
        from: Sender,
        /// Yes, or no.
        accept: bool,
    },
}

impl TableCommand {
    /// The connection that sent the command, for the ones that expect an answer.
    pub(crate) fn sender(&self) -> Option<&Sender> {
        match self {
            TableCommand::Join { from, .. }
            | TableCommand::Watch { from, .. }
            | TableCommand::Leave { from }
            | TableCommand::Start { from }
            | TableCommand::Kick { from, .. }
            | TableCommand::AddBot { from }
            | TableCommand::History { from, .. }
            | TableCommand::Act { from, .. }
            | TableCommand::Chat { from, .. }
            | TableCommand::Mute { from, .. }
            | TableCommand::Rematch { from, .. } => Some(from),
            TableCommand::Detach { .. } => None,
        }
    }
}

/// A cheap handle on a table's task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// The table's id.
    pub id: TableId,
    commands: mpsc::Sender<TableCommand>,
}

impl TableHandle {
    /// A handle whose commands go to `commands`: a table's task, or (in a cluster) the task that forwards
    /// them to the node that runs the table.
    pub(crate) fn new(id: TableId, commands: mpsc::Sender<TableCommand>) -> TableHandle {
        TableHandle { id, commands }
    }

    /// Whether whoever took the commands has stopped.
    pub(crate) fn is_closed(&self) -> bool {
        self.commands.is_closed()
    }

    /// Sends a command to the table; false when the table is gone.
    pub async fn send(&self, command: TableCommand) -> bool {
        self.commands.send(command).await.is_ok()
    }

    /// Sends a command to the table, or gives it back when the table is gone.
    ///
    /// # Errors
    /// The command, when the table's task has ended.
    pub async fn send_or_return(&self, command: TableCommand) -> Result<(), TableCommand> {
        self.commands.send(command).await.map_err(|returned| returned.0)
    }
}

/// The options a host chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableOptions {
    /// Seats, 2 to 4.
    pub seats: u8,
    /// Listed in the lobby.
    pub public: bool,
    /// Who may watch.
    pub spectators: SpectatorPolicy,
    /// The turn clock, if any.
    pub clock: Option<Clock>,
    /// Whether the game counts for the ratings (`store::ratings` says which games count).
    pub rated: bool,
}

impl TableOptions {
    /// The options of a stored table.
    fn of(table: &TableRow) -> TableOptions {
        TableOptions {
            seats: table.seats,
            public: table.public,
            spectators: table.spectators,
            clock: table.clock,
            rated: table.rated,
        }
    }
}

/// A table's game and its options, as the game wrote them in full.
#[derive(Clone)]
pub struct GameChoice {
    /// The game.
    pub kind: Arc<dyn GameKind>,
    /// Its options.
    pub options: Json,
}

impl std::fmt::Debug for GameChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.options)
    }
}

impl GameChoice {
    /// The game a host asked for (Romi Rami when they named none) with their options, checked for a
    /// table of `seats`.
    ///
    /// # Errors
    /// A sentence for the host: the server has no such game, or the seats or options do not fit it.
    pub fn choose(
        games: &Games,
        game: Option<&str>,
        options: Option<&serde_json::Value>,
        seats: u8,
    ) -> Result<GameChoice, String> {
        let name = game.unwrap_or(crate::protocol::ROMI_RAMI);
        let Some(kind) = games.get(name) else {
            let hosted: Vec<&str> = games.names().collect();
            return Err(format!("this server has no game {name:?}; it hosts {hosted:?}"));
        };
        let options = kind.options(options, usize::from(seats))?;
        Ok(GameChoice { kind: kind.clone(), options })
    }

    /// The game of a stored table.
    fn of(table: &TableRow, games: &Games) -> Result<GameChoice, String> {
        let kind = games.get(&table.game).ok_or_else(|| format!("this server has no game {:?}", table.game))?;
        let options = serde_json::value::RawValue::from_string(table.options.clone())
            .map_err(|e| format!("the table's options do not read: {e}"))?;
        Ok(GameChoice { kind: kind.clone(), options })
    }
}

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
    if !lobby.reserve_hosting(host.id, config.max_open_tables_per_player) {
        return Err((
            ErrorCode::TooManyTables,
            format!("you already host {} open tables", config.max_open_tables_per_player),
        ));
    }
    let id = TableId(uuid::Uuid::new_v4());
    let invite = uuid::Uuid::new_v4().simple().to_string();
    // In a cluster the new table is this node's: its id is fresh, so its lease is free.
    let fence = match claim(services, id).await {
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
    };
    if let Err(error) = services.writer.create_table(&row, &[Some(host.id)]).await {
        warn!(%error, "a table could not be stored");
        lobby.release_hosting(host.id);
        return Err((ErrorCode::Unavailable, UNAVAILABLE.into()));
    }
    let core = TableCore::open(id, invite.clone(), host, options, game, services.shared(), task::now());
    let summary = core.public_summary();
    let handle = launch(core, Vec::new(), fence, services);
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

/// Restores the open tables among `only` (every one when `None`).
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
    let mut restored = 0;
    // A table this node runs already is not restored twice (its lease may have lapsed for a moment).
    let wanted = |id: TableId| services.lobby.table(id).is_none();
    for unfinished in games.into_iter().filter(|game| wanted(game.table.id)) {
        let id = unfinished.table.id;
        let Some(fence) = claim(services, id).await? else { continue };
        let chat = services.store.chat(id).await?;
        match TableCore::restored(unfinished, services.shared(), task::now()) {
            Ok(mut core) => {
                core.restore_chat(chat);
                let effects = core.take_effects();
                launch(core, effects, fence, services);
                restored += 1;
            }
            Err(problem) => error!(table = %id, %problem, "a stored game does not replay; it stays in the store"),
        }
    }
    for waiting in waiting.into_iter().filter(|table| wanted(table.table.id)) {
        let id = waiting.table.id;
        let Some(fence) = claim(services, id).await? else { continue };
        let chat = services.store.chat(id).await?;
        match TableCore::restored_waiting(waiting, services.shared(), task::now()) {
            Ok(mut core) => {
                core.restore_chat(chat);
                launch(core, Vec::new(), fence, services);
                restored += 1;
            }
            Err(problem) => error!(table = %id, %problem, "a stored table cannot be opened; it stays in the store"),
        }
    }
    Ok(restored)
}

/// Takes `table` for this node: `Some(None)` on a single server (nothing to take), `Some(Some(fence))` in
/// a cluster when the lease is this node's now, `None` when another node holds it.
async fn claim(services: &Services, table: TableId) -> Result<Option<Option<Fence>>, StoreError> {
    match &services.ownership {
        None => Ok(Some(None)),
        Some(ownership) => Ok(ownership.claim(table).await?.map(Some)),
    }
}

/// Starts a table's task, lists it in the lobby, and returns its handle. `fence` is the node's lease on
/// the table, in a cluster.
fn launch(core: TableCore, effects: Vec<Effect>, fence: Option<Fence>, services: &Services) -> TableHandle {
    let (commands, inbox) = mpsc::channel(services.config.table_queue);
    let handle = TableHandle { id: core.id(), commands };
    services.lobby.register(handle.clone());
    services.lobby.publish(&core.public_summary());
    crate::metrics::table_state(None, Some(core.state()));
    let mut log = TableLog::new(core.id(), services.store.clone(), services.committer.clone(), services.writer.clone());
    log.fence_with(fence);
    tokio::spawn(task::run(core, log, services.clone(), inbox, effects));
    handle
}
