//! Tables: one task owns each table, its seats, its members' connections and its game.
//!
//! Nothing is acknowledged before it is stored: a table is written when it opens, its seats when they
//! change, its game's seed and players when it starts, and each action is committed to the game's log
//! (through the group [`Committer`]) after the engine checked it and before it is applied, acknowledged
//! or shown to anyone. When the database does not answer, the request is refused with
//! [`ErrorCode::Unavailable`] and nothing changes. [`restore`] brings back the games in play after a
//! restart from that log.
//!
//! A table may have a turn clock (module `clock`). A seat whose player runs out of time, or leaves a started
//! game, is played by the server's bot ([`crate::bots::choose`]) until the player comes back: they get the
//! seat back at the start of their next turn. The host may also give seats to bots before the start. When
//! no player is left at all, the game ends as abandoned and is stored.
//!
//! A [`TableHandle`] is a cheap clone that sends [`TableCommand`]s on a bounded channel; the task
//! applies them one at a time, so a table never needs a lock. The task answers a command, and tells
//! everyone at the table what changed, by writing into each member's [`Outbox`]: serialized once per
//! kind of recipient (each seat, the spectators), filtered by the engine for what it may see (§6).

mod clock;
mod outbox;

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use romirami_engine::{Game, IllegalAction, RecordMeta, Seat, Viewer};
use time::OffsetDateTime;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::{debug, error, info, warn};

pub use outbox::{ConnId, Outbox, OutboxQueue, Outgoing, TooSlow, TryRecvError};

use self::clock::TurnClock;
use crate::bots::choose;
use crate::config::Config;
use crate::lobby::Lobby;
use crate::protocol::{
    Clock, ErrorCode, NumberedEvent, PlayerId, PlayerInfo, Role, ServerMsg, SpectatorPolicy, TableId, TableState,
    TableSummary,
};
use crate::store::{ActionRow, Committer, GamePlayer, Store, StoreError, TableRow, UnfinishedGame, Writer};

/// What every table shares with the rest of the server.
#[derive(Clone, Debug)]
pub struct Services {
    /// The live tables.
    pub lobby: Arc<Lobby>,
    /// Settings and limits.
    pub config: Arc<Config>,
    /// Where tables, games and results are kept.
    pub store: Store,
    /// Commits actions to the store in groups.
    pub committer: Committer,
    /// Commits the table's other writes (its creation, seats, start and finish) in groups.
    pub writer: Writer,
}

/// The sentence sent with [`ErrorCode::Unavailable`].
const UNAVAILABLE: &str = "the server cannot reach its database right now; nothing was done, try again in a moment";

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
        /// The action.
        action: romirami_engine::Action,
    },
}

impl TableCommand {
    /// The connection that sent the command, for the ones that expect an answer.
    fn sender(&self) -> Option<&Sender> {
        match self {
            TableCommand::Join { from, .. }
            | TableCommand::Watch { from, .. }
            | TableCommand::Leave { from }
            | TableCommand::Start { from }
            | TableCommand::Kick { from, .. }
            | TableCommand::AddBot { from }
            | TableCommand::Act { from, .. } => Some(from),
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
    /// Sends a command to the table; false when the table is gone.
    pub async fn send(&self, command: TableCommand) -> bool {
        self.commands.send(command).await.is_ok()
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
    host: PlayerInfo,
    services: &Services,
) -> Result<Created, (ErrorCode, String)> {
    let Services { lobby, config, .. } = services;
    if !(2..=4).contains(&options.seats) {
        return Err((ErrorCode::BadOptions, format!("a table has 2 to 4 seats, not {}", options.seats)));
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
    let row = TableRow {
        id,
        host: host.id,
        seats: options.seats,
        public: options.public,
        spectators: options.spectators,
        created_at: OffsetDateTime::now_utc(),
        invite: invite.clone(),
        clock: options.clock,
    };
    if let Err(error) = services.writer.create_table(&row, &[Some(host.id)]).await {
        warn!(%error, "a table could not be stored");
        lobby.release_hosting(host.id);
        return Err((ErrorCode::Unavailable, UNAVAILABLE.into()));
    }
    let mut seats = vec![None; usize::from(options.seats)];
    seats[0] = Some(host.clone());
    let table = Table {
        id,
        invite: invite.clone(),
        host: host.id,
        options,
        bots: vec![false; seats.len()],
        seats,
        control: Vec::new(),
        clock: None,
        to_act: None,
        bot_due: None,
        abandon_due: None,
        state: TableState::Waiting,
        game: None,
        actions: 0,
        log_unsure: false,
        started_at: None,
        members: HashMap::new(),
        lobby: lobby.clone(),
        config: config.clone(),
        store: services.store.clone(),
        committer: services.committer.clone(),
        writer: services.writer.clone(),
    };
    let summary = table.summary();
    let handle = table.launch();
    info!(table = %id, seats = options.seats, public = options.public, "table opened");
    Ok(Created { handle, summary, invite })
}

/// Brings back every game the store holds as in play, each at its own table with its players seated,
/// as it stood after its last stored action; a game that turns out to be over is finished. Games that
/// do not replay are logged and left in the store.
///
/// # Errors
/// When the store cannot be read.
pub async fn restore(services: &Services) -> Result<usize, StoreError> {
    let games = services.store.unfinished_games().await?;
    let mut restored = 0;
    for unfinished in games {
        let id = unfinished.table.id;
        match Table::restored(unfinished, services) {
            Ok(table) => {
                let over = table.state == TableState::Finished;
                if over {
                    table.store_result();
                } else {
                    table.lobby.reserve_hosting(table.host, usize::MAX);
                }
                table.launch();
                restored += 1;
            }
            Err(problem) => error!(table = %id, %problem, "a stored game does not replay; it stays in the store"),
        }
    }
    Ok(restored)
}

/// A connection at the table.
#[derive(Debug)]
struct Member {
    player: PlayerInfo,
    role: Role,
    out: Outbox,
}

/// Why a table's task woke up.
enum Wake {
    Command(TableCommand),
    Timer(Timer),
}

/// What a table does by itself.
#[derive(Clone, Copy, Debug)]
enum Timer {
    /// The bot plays the seat to act.
    Bot,
    /// The seat to act is out of time.
    OutOfTime(Seat),
    /// No player came back in time.
    Abandon,
}

/// Who plays a seat of a game in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    /// Its player.
    Player,
    /// The bot, for good: the host gave the seat to a bot.
    Bot,
    /// The bot, while its player is out of time or gone; `back` once the player has come back, so
    /// that they get the seat at the start of their next turn.
    Stand { back: bool },
}

/// The table's state, owned by its task.
struct Table {
    id: TableId,
    invite: String,
    host: PlayerId,
    options: TableOptions,
    /// Before the start, one entry per seat the host asked for; from the start, the seated players in
    /// engine seat order.
    seats: Vec<Option<PlayerInfo>>,
    /// Beside `seats`: whether the host gave the seat to a bot.
    bots: Vec<bool>,
    /// From the start, who plays each seat.
    control: Vec<Control>,
    /// From the start, the turn clock, if the table has one.
    clock: Option<TurnClock>,
    /// The seat whose turn it is, as of the last action.
    to_act: Option<Seat>,
    /// When the bot plays its next action.
    bot_due: Option<Instant>,
    /// When the game ends as abandoned because no player is connected.
    abandon_due: Option<Instant>,
    state: TableState,
    game: Option<Game>,
    /// Actions applied to the game so far: the number of the next one in the stored log.
    actions: u32,
    /// Whether the last commit failed: the log may then hold one row past `actions`.
    log_unsure: bool,
    /// When the game started.
    started_at: Option<OffsetDateTime>,
    members: HashMap<ConnId, Member>,
    lobby: Arc<Lobby>,
    config: Arc<Config>,
    store: Store,
    committer: Committer,
    writer: Writer,
}

impl Table {
    /// A table for a game read back from the store. Its players get their seats back (the clock takes
    /// them over again if they do not come); the running turn starts afresh.
    fn restored(stored: UnfinishedGame, services: &Services) -> Result<Table, String> {
        let UnfinishedGame { table, seed, started_at, players, actions } = stored;
        let mut game = Game::new(players.len(), seed).map_err(|e| e.to_string())?;
        let mut reserves = vec![None; players.len()];
        for (n, stored) in actions.iter().enumerate() {
            game.apply(stored.seat, &stored.action).map_err(|e| format!("stored action {n} is refused: {e}"))?;
            if let Some(reserve) = reserves.get_mut(stored.seat.index()) {
                *reserve = stored.reserve_ms.or(*reserve);
            }
        }
        if players.iter().zip(0u8..).any(|(p, seat)| p.seat != Seat(seat)) {
            return Err("the stored players are not seats 0 to n-1".into());
        }
        let state = if game.is_over() { TableState::Finished } else { TableState::Playing };
        let mut restored = Table {
            id: table.id,
            invite: table.invite,
            host: table.host,
            options: TableOptions {
                seats: table.seats,
                public: table.public,
                spectators: table.spectators,
                clock: table.clock,
            },
            bots: players.iter().map(|p| p.bot).collect(),
            control: players.iter().map(|p| if p.bot { Control::Bot } else { Control::Player }).collect(),
            clock: table.clock.map(|clock| TurnClock::new(clock, reserves)),
            seats: players.into_iter().map(|p| Some(PlayerInfo { id: p.id, name: p.name })).collect(),
            to_act: None,
            bot_due: None,
            abandon_due: None,
            state,
            game: Some(game),
            actions: u32::try_from(actions.len()).map_err(|_| "too many stored actions".to_owned())?,
            log_unsure: false,
            started_at: Some(started_at),
            members: HashMap::new(),
            lobby: services.lobby.clone(),
            config: services.config.clone(),
            store: services.store.clone(),
            committer: services.committer.clone(),
            writer: services.writer.clone(),
        };
        if state == TableState::Playing {
            restored.turn_changed();
            // Nobody is connected yet: the players have the usual while to come back.
            restored.check_presence();
        }
        Ok(restored)
    }

    /// Starts the table's task, lists it in the lobby, and returns its handle.
    fn launch(self) -> TableHandle {
        let (commands, inbox) = mpsc::channel(self.config.table_queue);
        let handle = TableHandle { id: self.id, commands };
        self.lobby.register(handle.clone());
        self.publish();
        crate::metrics::table_state(None, Some(self.state));
        tokio::spawn(self.run(inbox));
        handle
    }

    async fn run(mut self, mut inbox: mpsc::Receiver<TableCommand>) {
        loop {
            let expiry = (self.state == TableState::Finished && self.members.is_empty())
                .then(|| Instant::now() + self.config.finished_table_ttl);
            let timer = self.next_timer();
            let woke = match (expiry, timer) {
                (Some(deadline), _) => tokio::select! {
                    command = inbox.recv() => command.map(Wake::Command),
                    () = tokio::time::sleep_until(deadline) => None,
                },
                (None, Some((at, timer))) => tokio::select! {
                    command = inbox.recv() => command.map(Wake::Command),
                    () = tokio::time::sleep_until(at) => Some(Wake::Timer(timer)),
                },
                (None, None) => inbox.recv().await.map(Wake::Command),
            };
            match woke {
                None => break,
                Some(Wake::Command(command)) => self.handle(command).await,
                Some(Wake::Timer(timer)) => self.on_timer(timer).await,
            }
            let humans = self.seats.iter().zip(&self.bots).filter(|(seat, bot)| seat.is_some() && !**bot).count();
            if self.state == TableState::Waiting && humans == 0 {
                debug!(table = %self.id, "no player is seated before the start: closing");
                break;
            }
        }
        if self.state != TableState::Finished {
            self.lobby.release_hosting(self.host);
        }
        crate::metrics::table_state(Some(self.state), None);
        self.lobby.unregister(self.id);
        // Whoever sent a command while the table was closing learns that it is gone.
        inbox.close();
        while let Ok(command) = inbox.try_recv() {
            if let Some(from) = command.sender() {
                from.out.send_msg(&ServerMsg::error(
                    Some(self.id),
                    None,
                    ErrorCode::NoSuchTable,
                    "there is no such table",
                ));
            }
        }
        info!(table = %self.id, "table closed");
    }

    /// The next thing the table does by itself, and when.
    fn next_timer(&self) -> Option<(Instant, Timer)> {
        if self.state != TableState::Playing {
            return None;
        }
        let out_of_time = self.clock.as_ref().and_then(TurnClock::deadline).and_then(|(seat, at)| {
            (self.control.get(seat.index()) == Some(&Control::Player)).then_some((at, Timer::OutOfTime(seat)))
        });
        [out_of_time, self.bot_due.map(|at| (at, Timer::Bot)), self.abandon_due.map(|at| (at, Timer::Abandon))]
            .into_iter()
            .flatten()
            .min_by_key(|(at, _)| *at)
    }

    async fn on_timer(&mut self, timer: Timer) {
        match timer {
            Timer::Bot => {
                self.bot_due = None;
                self.bot_plays().await;
            }
            Timer::OutOfTime(seat) => {
                info!(table = %self.id, %seat, "out of time: the bot plays the seat");
                if let Some(clock) = &mut self.clock {
                    clock.run_out(seat);
                }
                self.stand_in(seat);
            }
            Timer::Abandon => {
                self.abandon_due = None;
                info!(table = %self.id, "no player came back: the game is abandoned");
                self.abandon();
            }
        }
    }

    async fn handle(&mut self, command: TableCommand) {
        match command {
            TableCommand::Join { from, invite, since } => self.join(from, invite.as_deref(), since).await,
            TableCommand::Watch { from, invite, since } => self.watch(from, invite.as_deref(), since).await,
            TableCommand::Leave { from } => self.leave(&from).await,
            TableCommand::Detach { conn } => {
                if let Some(member) = self.members.remove(&conn) {
                    match member.role {
                        Role::Spectator => self.publish(),
                        Role::Seat(_) => self.check_presence(),
                    }
                }
            }
            TableCommand::Start { from } => self.start(&from).await,
            TableCommand::Kick { from, seat } => self.kick(&from, seat).await,
            TableCommand::AddBot { from } => self.add_bot(&from).await,
            TableCommand::Act { from, id, action } => self.act(&from, id, action).await,
        }
    }

    fn summary(&self) -> TableSummary {
        TableSummary {
            id: self.id,
            state: self.state,
            host: self.host,
            public: self.options.public,
            spectators: self.options.spectators,
            seats: self.seats.clone(),
            spectator_count: self.members.values().filter(|m| m.role == Role::Spectator).count(),
            clock: self.options.clock,
            bots: if self.control.is_empty() {
                self.bots.clone()
            } else {
                self.control.iter().map(|c| *c != Control::Player).collect()
            },
        }
    }

    fn publish(&self) {
        self.lobby.publish(&self.summary());
    }

    fn error(&self, to: &Sender, code: ErrorCode, message: impl Into<String>) {
        to.out.send_msg(&ServerMsg::error(Some(self.id), None, code, message));
    }

    fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats.iter().position(|s| s.as_ref().is_some_and(|p| p.id == player)).map(|i| Seat(i as u8))
    }

    async fn join(&mut self, from: Sender, invite: Option<&str>, since: Option<usize>) {
        let seat = match self.seat_of(from.player.id) {
            Some(seat) => seat,
            None => {
                if !self.options.public && invite != Some(self.invite.as_str()) {
                    // A private table does not admit to existing without its link.
                    return self.error(&from, ErrorCode::NoSuchTable, "there is no such table");
                }
                if self.state != TableState::Waiting {
                    return self.error(&from, ErrorCode::AlreadyStarted, "the game has started; you can watch it");
                }
                let Some(free) = self.seats.iter().position(Option::is_none) else {
                    return self.error(&from, ErrorCode::TableFull, "every seat is taken");
                };
                self.seats[free] = Some(from.player.clone());
                self.bots[free] = false;
                if let Err(error) = self.store_seats().await {
                    warn!(table = %self.id, %error, "a seat could not be stored");
                    self.seats[free] = None;
                    return self.error(&from, ErrorCode::Unavailable, UNAVAILABLE);
                }
                Seat(free as u8)
            }
        };
        if self.state == TableState::Playing {
            // Before the newcomer is a member: it catches up below, the others learn who plays the seat.
            self.come_back(seat);
        }
        let role = Role::Seat(seat);
        self.members.insert(from.conn, Member { player: from.player.clone(), role, out: from.out.clone() });
        if self.state == TableState::Waiting {
            if self.seats.iter().all(Option::is_some) {
                self.begin_game(&from).await;
            } else {
                self.send_tables();
                self.publish();
            }
        } else {
            self.catch_up(from.conn, since);
        }
    }

    async fn watch(&mut self, from: Sender, invite: Option<&str>, since: Option<usize>) {
        if self.seat_of(from.player.id).is_some() {
            // A player watching their own table is back at their seat: they keep playing it.
            return self.join(from, invite, since).await;
        }
        let has_link = invite == Some(self.invite.as_str());
        if !self.options.public && !has_link {
            return self.error(&from, ErrorCode::NoSuchTable, "there is no such table");
        }
        let allowed = match self.options.spectators {
            SpectatorPolicy::Everyone => true,
            SpectatorPolicy::Link => has_link,
            SpectatorPolicy::Nobody => false,
        };
        if !allowed {
            return self.error(&from, ErrorCode::SpectatingNotAllowed, "this table does not let you watch");
        }
        self.members.insert(from.conn, Member { player: from.player, role: Role::Spectator, out: from.out });
        self.catch_up(from.conn, since);
        self.publish();
    }

    async fn leave(&mut self, from: &Sender) {
        let Some(member) = self.members.remove(&from.conn) else {
            return self.error(from, ErrorCode::NotSeated, "you are not at this table");
        };
        match (member.role, self.state) {
            (Role::Seat(seat), TableState::Waiting) => {
                self.free_seat(seat);
                self.store_seats_or_log().await;
            }
            (Role::Seat(seat), TableState::Playing) => {
                info!(table = %self.id, %seat, "a player left: the bot plays the seat");
                self.stand_in(seat);
            }
            _ => {}
        }
        from.out.send_msg(&ServerMsg::Left { table: self.id });
        self.send_tables();
        self.publish();
    }

    /// Frees a seat before the start, with every connection of its player; hands the table to another
    /// seated player when the host goes.
    fn free_seat(&mut self, seat: Seat) {
        let Some(player) = self.seats[seat.index()].take() else { return };
        self.bots[seat.index()] = false;
        let gone: Vec<ConnId> =
            self.members.iter().filter(|(_, m)| m.player.id == player.id).map(|(conn, _)| *conn).collect();
        for conn in gone {
            if let Some(member) = self.members.remove(&conn) {
                member.out.send_msg(&ServerMsg::Left { table: self.id });
            }
        }
        if player.id == self.host {
            let next_player = self.seats.iter().zip(&self.bots).find_map(|(s, bot)| s.as_ref().filter(|_| !*bot));
            if let Some(next) = next_player {
                self.lobby.release_hosting(self.host);
                self.host = next.id;
                // The new host's count may go over the cap by this one table; it is theirs by chance.
                self.lobby.reserve_hosting(self.host, usize::MAX);
            }
        }
    }

    async fn kick(&mut self, from: &Sender, seat: Seat) {
        if from.player.id != self.host {
            return self.error(from, ErrorCode::NotHost, "only the host can remove a player");
        }
        if self.state != TableState::Waiting {
            return self.error(from, ErrorCode::AlreadyStarted, "players cannot be removed once the game has started");
        }
        match self.seats.get(seat.index()) {
            Some(Some(player)) if player.id != self.host => {}
            Some(Some(_)) => return self.error(from, ErrorCode::BadOptions, "the host cannot remove themselves"),
            _ => return self.error(from, ErrorCode::NotSeated, format!("{seat} is empty")),
        }
        self.free_seat(seat);
        self.store_seats_or_log().await;
        self.send_tables();
        self.publish();
    }

    /// The host gives the first free seat to a bot, stored as a player of its own.
    async fn add_bot(&mut self, from: &Sender) {
        if from.player.id != self.host {
            return self.error(from, ErrorCode::NotHost, "only the host can add a bot");
        }
        if self.state != TableState::Waiting {
            return self.error(from, ErrorCode::AlreadyStarted, "bots can only be added before the start");
        }
        let Some(free) = self.seats.iter().position(Option::is_none) else {
            return self.error(from, ErrorCode::TableFull, "every seat is taken");
        };
        let bot = PlayerInfo { id: PlayerId(uuid::Uuid::new_v4()), name: format!("Bot {}", free + 1) };
        // A bot has no token: its stored hash is of random bytes nobody knows.
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).expect("the operating system's random generator failed");
        self.seats[free] = Some(bot.clone());
        self.bots[free] = true;
        let stored = async {
            self.writer.save_player(&bot, &crate::players::hash_token(&hex::encode(secret))).await?;
            self.store_seats().await
        };
        if let Err(error) = stored.await {
            warn!(table = %self.id, %error, "a bot could not be stored");
            self.seats[free] = None;
            self.bots[free] = false;
            return self.error(from, ErrorCode::Unavailable, UNAVAILABLE);
        }
        if self.seats.iter().all(Option::is_some) {
            self.begin_game(from).await;
        } else {
            self.send_tables();
            self.publish();
        }
    }

    /// Writes who sits where before the start.
    async fn store_seats(&self) -> Result<(), StoreError> {
        let seats: Vec<Option<PlayerId>> = self.seats.iter().map(|s| s.as_ref().map(|p| p.id)).collect();
        self.writer.set_seats(self.id, &seats).await
    }

    /// Writes who sits where after someone left: the seat is free either way (a table that waits is not
    /// restored after a restart), so a failure is only logged.
    async fn store_seats_or_log(&self) {
        if self.seats.iter().any(Option::is_some) {
            if let Err(error) = self.store_seats().await {
                warn!(table = %self.id, %error, "a freed seat could not be stored");
            }
        }
    }

    async fn start(&mut self, from: &Sender) {
        if from.player.id != self.host {
            return self.error(from, ErrorCode::NotHost, "only the host can start the game");
        }
        if self.state != TableState::Waiting {
            return self.error(from, ErrorCode::AlreadyStarted, "the game has already started");
        }
        if self.seats.iter().flatten().count() < 2 {
            return self.error(from, ErrorCode::NotEnoughPlayers, "a game needs at least 2 players");
        }
        self.begin_game(from).await;
    }

    /// Deals the game to the seated players, in seat order, once its seed and players are stored; when
    /// they cannot be, the table keeps waiting and `from` is told.
    async fn begin_game(&mut self, from: &Sender) {
        let mut seed = [0u8; 8];
        // The OS generator does not fail where we run; a game without a fresh seed must not start.
        getrandom::fill(&mut seed).expect("the operating system's random generator failed");
        let seed = u64::from_le_bytes(seed);
        let players: Vec<GamePlayer> = (0u8..)
            .zip(self.seats.iter().zip(&self.bots).filter_map(|(p, bot)| p.as_ref().map(|p| (p, *bot))))
            .map(|(seat, (p, bot))| GamePlayer { seat: Seat(seat), id: p.id, name: p.name.clone(), bot })
            .collect();
        let started_at = OffsetDateTime::now_utc();
        if let Err(error) = self.writer.start_game(self.id, seed, &players, started_at).await {
            warn!(table = %self.id, %error, "a game could not be stored at its start");
            self.send_tables();
            self.publish();
            return self.error(from, ErrorCode::Unavailable, UNAVAILABLE);
        }
        let seated: Vec<(Option<PlayerInfo>, bool)> =
            self.seats.drain(..).zip(self.bots.drain(..)).filter(|(p, _)| p.is_some()).collect();
        (self.seats, self.bots) = seated.into_iter().unzip();
        self.control = self.bots.iter().map(|bot| if *bot { Control::Bot } else { Control::Player }).collect();
        self.clock = self.options.clock.map(|clock| TurnClock::new(clock, vec![None; self.seats.len()]));
        // Members' seat numbers follow the players to their places in the game.
        for member in self.members.values_mut() {
            if let Role::Seat(_) = member.role {
                let index = self.seats.iter().position(|s| s.as_ref().is_some_and(|p| p.id == member.player.id));
                member.role = index.map_or(Role::Spectator, |i| Role::Seat(Seat(i as u8)));
            }
        }
        let game = Game::new(self.seats.len(), seed).expect("2 to 4 seated players");
        self.game = Some(game);
        self.started_at = Some(started_at);
        crate::metrics::table_state(Some(self.state), Some(TableState::Playing));
        self.state = TableState::Playing;
        info!(table = %self.id, players = self.seats.len(), "game started");
        self.turn_changed();
        self.send_tables();
        self.send_clocks();
        self.send_turn();
        self.publish();
    }

    fn viewer(role: Role) -> Viewer {
        match role {
            Role::Seat(seat) => Viewer::Seat(seat),
            Role::Spectator => Viewer::Spectator,
        }
    }

    fn table_msg(&self, role: Role) -> ServerMsg {
        ServerMsg::Table {
            table: self.summary(),
            role,
            view: self.game.as_ref().map(|game| Box::new(game.view(Table::viewer(role)))),
        }
    }

    /// Sends every member the full table, serialized once per role.
    fn send_tables(&mut self) {
        let mut cache: HashMap<Role, Utf8Bytes> = HashMap::new();
        let mut slow = Vec::new();
        for (conn, member) in &self.members {
            let text = cache.entry(member.role).or_insert_with(|| self.table_msg(member.role).to_json().into());
            if !member.out.send(Outgoing::Text(text.clone())) {
                slow.push(*conn);
            }
        }
        self.drop_members(&slow);
    }

    /// Brings one member up to date: the events after `since` when there are few enough, otherwise the
    /// full table.
    fn catch_up(&mut self, conn: ConnId, since: Option<usize>) {
        let Some(member) = self.members.get(&conn) else { return };
        let role = member.role;
        let msg = match (&self.game, since) {
            (Some(game), Some(since))
                if since <= game.event_count() && game.event_count() - since <= self.config.catch_up_limit =>
            {
                ServerMsg::Events { table: self.id, events: self.events(game, Table::viewer(role), since) }
            }
            _ => self.table_msg(role),
        };
        let ok = member.out.send_msg(&msg) && self.clocks_msg().is_none_or(|clocks| member.out.send_msg(&clocks));
        if ok {
            self.send_turn_to(conn);
        } else {
            self.drop_members(&[conn]);
        }
    }

    fn events(&self, game: &Game, viewer: Viewer, since: usize) -> Vec<NumberedEvent> {
        game.events_for(viewer, since).map(|(n, event)| NumberedEvent { n, event }).collect()
    }

    /// Tells the seat to act what it may do, on each of its connections.
    fn send_turn(&mut self) {
        let Some(game) = &self.game else { return };
        let Some(seat) = game.to_act() else { return };
        if self.control.get(seat.index()) != Some(&Control::Player) {
            return;
        }
        let text: Utf8Bytes = ServerMsg::YourTurn { table: self.id, legal: game.legal_actions(seat) }.to_json().into();
        let mut slow = Vec::new();
        for (conn, member) in &self.members {
            if member.role == Role::Seat(seat) && !member.out.send(Outgoing::Text(text.clone())) {
                slow.push(*conn);
            }
        }
        self.drop_members(&slow);
    }

    fn send_turn_to(&mut self, conn: ConnId) {
        let Some(game) = &self.game else { return };
        let (Some(seat), Some(member)) = (game.to_act(), self.members.get(&conn)) else { return };
        if member.role == Role::Seat(seat) && self.control.get(seat.index()) == Some(&Control::Player) {
            member.out.send_msg(&ServerMsg::YourTurn { table: self.id, legal: game.legal_actions(seat) });
        }
    }

    /// A seated player's action: refused unless the seat is theirs to play now.
    async fn act(&mut self, from: &Sender, id: u64, action: romirami_engine::Action) {
        let received = std::time::Instant::now();
        let table = self.id;
        let refuse = |code, message: String| {
            from.out.send_msg(&ServerMsg::error(Some(table), Some(id), code, message));
        };
        let Some(Member { role: Role::Seat(seat), .. }) = self.members.get(&from.conn) else {
            return refuse(ErrorCode::NotSeated, "you do not have a seat at this table".into());
        };
        let seat = *seat;
        if self.state == TableState::Playing && self.control.get(seat.index()) != Some(&Control::Player) {
            return refuse(
                ErrorCode::NotYourTurn,
                "the bot is playing your seat; join the table again to have it back at your next turn".into(),
            );
        }
        match self.play(seat, action, false).await {
            Ok(events) => {
                from.out.send_msg(&ServerMsg::Ack { table: self.id, id, events });
                crate::metrics::action_applied(received);
                self.after_play();
            }
            Err((code, message)) => refuse(code, message),
        }
    }

    /// Plays an action for `seat`: the engine checks it, the store commits it to the game's log, then it
    /// is applied and every member is told its events. Returns the game's event count after it. A
    /// refused or unstored action changes nothing. The caller then calls [`Table::after_play`].
    async fn play(
        &mut self,
        seat: Seat,
        action: romirami_engine::Action,
        by_bot: bool,
    ) -> Result<usize, (ErrorCode, String)> {
        let Some(game) = self.game.as_ref() else {
            return Err((ErrorCode::NotStarted, "the game has not started".into()));
        };
        if let Err(illegal) = game.check(seat, &action) {
            let code = match illegal {
                IllegalAction::GameOver => ErrorCode::GameOver,
                IllegalAction::NotYourTurn { .. } => ErrorCode::NotYourTurn,
                _ => ErrorCode::IllegalAction,
            };
            return Err((code, illegal.to_string()));
        }
        let reserve_ms = self.clock.as_ref().map(|clock| clock.reserve_at(seat, Instant::now()));
        let row = ActionRow { table: self.id, seq: self.actions, seat, action, by_bot, reserve_ms };
        if let Err(error) = self.store_action(row).await {
            warn!(table = %self.id, %error, "an action could not be stored; it was not played");
            return Err((ErrorCode::Unavailable, UNAVAILABLE.into()));
        }
        self.actions += 1;
        let Some(game) = self.game.as_mut() else {
            return Err((ErrorCode::Internal, "the server could not play this action".into()));
        };
        let first = game.event_count();
        if let Err(illegal) = game.apply(seat, &action) {
            // `check` accepted it and nothing ran in between: this cannot happen.
            error!(table = %self.id, %illegal, "an action the engine checked was refused when applied");
            return Err((ErrorCode::Internal, "the server could not play this action".into()));
        }
        let events = game.event_count();
        self.broadcast_events(first);
        Ok(events)
    }

    /// Commits `row`, the next action, to the game's log. The log holds only what was acknowledged: after
    /// a commit that failed, perhaps after the row was written, what lies past the acknowledged actions
    /// is cleared first. A number already taken means such a row is there though no commit of this
    /// table failed: one that a server killed before answering had sent, committed by its database
    /// after this server read the log back at its restart. It is cleared the same way, and the row
    /// goes once more.
    async fn store_action(&mut self, row: ActionRow) -> Result<(), StoreError> {
        let mut cleared_duplicate = false;
        loop {
            if self.log_unsure {
                self.store.truncate_actions(self.id, self.actions).await?;
                self.log_unsure = false;
            }
            match self.committer.commit(row.clone()).await {
                Ok(()) => return Ok(()),
                Err(StoreError::Duplicate(_)) if !cleared_duplicate => {
                    warn!(table = %self.id, seq = self.actions, "an unacknowledged action was in the log; clearing it");
                    cleared_duplicate = true;
                    self.log_unsure = true;
                }
                Err(error) => {
                    self.log_unsure = true;
                    return Err(error);
                }
            }
        }
    }

    /// After an action: the end of the game, or the next turn (with its clocks, its `your_turn` and,
    /// for a seat the bot plays, the bot's next move).
    fn after_play(&mut self) {
        if self.game.as_ref().is_some_and(Game::is_over) {
            self.finish();
        } else if self.turn_changed() {
            self.send_clocks();
            self.send_turn();
            self.publish();
        } else {
            self.send_turn();
        }
    }

    /// Follows the seat to act: a new turn starts its clock, and gives the seat back to its player if
    /// they came back; the bot is scheduled when it plays the seat. Returns whether a new turn started.
    fn turn_changed(&mut self) -> bool {
        let to_act = self.game.as_ref().and_then(Game::to_act);
        let now = Instant::now();
        let changed = to_act != self.to_act;
        if changed {
            let control = &self.control;
            if let Some(clock) = &mut self.clock {
                clock.turn_to(to_act, now, |seat| control.get(seat.index()) == Some(&Control::Player));
            }
            self.to_act = to_act;
            if let Some(seat) = to_act {
                if let Some(control @ Control::Stand { back: true }) = self.control.get_mut(seat.index()) {
                    info!(table = %self.id, %seat, "the player has their seat back");
                    *control = Control::Player;
                    // Everyone's summary shows who plays each seat.
                    self.send_tables();
                }
            }
        }
        self.bot_due = match to_act.and_then(|seat| self.control.get(seat.index())) {
            Some(Control::Bot | Control::Stand { .. }) => Some(self.bot_due.unwrap_or(now + self.config.bot_delay)),
            _ => None,
        };
        changed
    }

    /// The bot plays the seat to act.
    async fn bot_plays(&mut self) {
        let Some(seat) = self.game.as_ref().and_then(Game::to_act) else { return };
        if self.control.get(seat.index()) == Some(&Control::Player) {
            return;
        }
        let Some(action) = self.game.as_ref().and_then(|game| choose(&game.legal_actions(seat))) else {
            return error!(table = %self.id, %seat, "the bot found no legal action");
        };
        match self.play(seat, action, true).await {
            Ok(_) => self.after_play(),
            Err((code, message)) => {
                warn!(table = %self.id, %seat, ?code, message, "the bot could not play; trying again shortly");
                self.bot_due = Some(Instant::now() + self.config.bot_retry);
            }
        }
    }

    /// The bot plays `seat` until its player comes back (it ran out of time, or left).
    fn stand_in(&mut self, seat: Seat) {
        if let Some(control @ (Control::Player | Control::Stand { .. })) = self.control.get_mut(seat.index()) {
            *control = Control::Stand { back: false };
        }
        self.turn_changed();
        self.send_clocks();
        self.publish();
        self.send_tables();
        self.check_presence();
    }

    /// The player of `seat` joined again: the seat is theirs now, or at the start of their next turn if
    /// the bot is in the middle of this one.
    fn come_back(&mut self, seat: Seat) {
        self.abandon_due = None;
        let mid_turn = self.to_act == Some(seat);
        if let Some(control @ Control::Stand { .. }) = self.control.get_mut(seat.index()) {
            *control = if mid_turn { Control::Stand { back: true } } else { Control::Player };
            if !mid_turn {
                self.send_tables();
            }
            self.publish();
        }
    }

    /// Ends the game as abandoned when every player has left, and schedules that end when none is
    /// connected (they have [`Config::abandon_after`] to come back).
    fn check_presence(&mut self) {
        if self.state != TableState::Playing {
            return;
        }
        let players: Vec<usize> = (0..self.control.len()).filter(|&i| self.control[i] != Control::Bot).collect();
        let connected = |i: usize| self.members.values().any(|m| m.role == Role::Seat(Seat(i as u8)));
        if players.iter().all(|&i| !connected(i)) {
            if players.iter().all(|&i| self.control[i] == Control::Stand { back: false }) {
                info!(table = %self.id, "every player has left: the game is abandoned");
                return self.abandon();
            }
            if self.abandon_due.is_none() {
                self.abandon_due = Some(Instant::now() + self.config.abandon_after);
            }
        } else {
            self.abandon_due = None;
        }
    }

    /// Ends the game where it stands, as abandoned (§4 does not end it; nobody is left to play it).
    fn abandon(&mut self) {
        let Some(game) = self.game.as_mut() else { return };
        if game.is_over() {
            return;
        }
        let first = game.event_count();
        game.abandon();
        self.broadcast_events(first);
        self.finish();
    }

    /// Tells every member the clocks, if the table has them.
    fn send_clocks(&mut self) {
        let Some(msg) = self.clocks_msg() else { return };
        self.send_to_every_member(msg.to_json().into());
    }

    /// Sends `text` to every member, forgetting those too slow to take it.
    fn send_to_every_member(&mut self, text: Utf8Bytes) {
        let slow: Vec<ConnId> = self
            .members
            .iter()
            .filter(|(_, m)| !m.out.send(Outgoing::Text(text.clone())))
            .map(|(conn, _)| *conn)
            .collect();
        self.drop_members(&slow);
    }

    fn clocks_msg(&self) -> Option<ServerMsg> {
        let clock = self.clock.as_ref()?;
        if self.state != TableState::Playing {
            return None;
        }
        let (to_act, turn_ms, reserves_ms) = clock.snapshot(Instant::now());
        Some(ServerMsg::Clocks { table: self.id, to_act, turn_ms, reserves_ms })
    }

    /// Sends every member the events from `first` on, filtered and serialized once per role.
    fn broadcast_events(&mut self, first: usize) {
        let Some(game) = &self.game else { return };
        let mut cache: HashMap<Role, Utf8Bytes> = HashMap::new();
        let mut slow = Vec::new();
        for (conn, member) in &self.members {
            let text = cache.entry(member.role).or_insert_with(|| {
                let events = self.events(game, Table::viewer(member.role), first);
                ServerMsg::Events { table: self.id, events }.to_json().into()
            });
            if !member.out.send(Outgoing::Text(text.clone())) {
                slow.push(*conn);
            }
        }
        self.drop_members(&slow);
    }

    fn finish(&mut self) {
        crate::metrics::table_state(Some(self.state), Some(TableState::Finished));
        self.state = TableState::Finished;
        (self.bot_due, self.abandon_due, self.to_act) = (None, None, None);
        self.lobby.release_hosting(self.host);
        self.store_result();
        if let Some(result) = self.game.as_ref().and_then(Game::result) {
            info!(table = %self.id, winners = ?result.winners, "game over");
            self.send_to_every_member(ServerMsg::GameOver { table: self.id, result }.to_json().into());
        }
        self.publish();
    }

    /// Stores the finished game's record and results, in the background through the writer's group
    /// commit, trying again while the database is unavailable: the game's log is already stored, so a
    /// server that stops before this succeeds finishes the game again when it restores it.
    fn store_result(&self) {
        let Some(game) = &self.game else { return };
        let meta = RecordMeta {
            id: self.id.0,
            started_at: self.started_at.unwrap_or_else(OffsetDateTime::now_utc),
            finished_at: OffsetDateTime::now_utc(),
            names: self.seats.iter().map(|s| s.as_ref().map_or_else(String::new, |p| p.name.clone())).collect(),
        };
        let record = match game.record(meta) {
            Ok(record) => record,
            Err(problem) => return error!(table = %self.id, %problem, "a finished game has no record"),
        };
        let (writer, table) = (self.writer.clone(), self.id);
        tokio::spawn(async move {
            let mut pause = std::time::Duration::from_millis(100);
            loop {
                match writer.finish_game(table, record.clone()).await {
                    Ok(()) => return debug!(%table, "result stored"),
                    Err(StoreError::Unavailable(error)) => {
                        warn!(%table, %error, "the result could not be stored yet; trying again");
                        tokio::time::sleep(pause).await;
                        pause = (pause * 2).min(std::time::Duration::from_secs(10));
                    }
                    Err(error) => return error!(%table, %error, "the result could not be stored"),
                }
            }
        });
    }

    /// Forgets members whose outbox is full or closed; their connections close themselves.
    fn drop_members(&mut self, conns: &[ConnId]) {
        for conn in conns {
            self.members.remove(conn);
        }
    }
}
