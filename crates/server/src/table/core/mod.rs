//! The table's rules as a state machine with no I/O and no clock of its own ("sans-I/O").
//!
//! [`TableCore::step`] takes one [`Input`] — a client's command, a timer that fired, the outcome of a
//! durable write — together with the current time ([`Now`]), and returns the [`Effect`]s the table's
//! task must carry out: write this durably and then report back, store the finished game, close.
//! Messages to the members go straight into their outboxes, and the table's summary and its host's
//! count of open tables straight into the lobby ([`LobbyPort`]): both are in-memory and synchronous, so what a
//! member is told and what the lobby knows never run ahead of each other, and a test reads both as a
//! client would. [`TableCore::deadline`] says when the core wants to be woken with [`Input::Timer`].
//!
//! A write that must succeed before the table goes on (a seat, a game's start, an action) is the last
//! effect of its step: the core remembers what it was doing ([`Pending`]) and continues when its
//! outcome comes back as [`Input::Stored`]. Nothing is acknowledged or shown before its write
//! succeeded; a failed write changes nothing but the refusal it earns.
//!
//! So every rule of the table — seating, clocks, stand-in bots, reclaiming a seat, abandonment,
//! restore, every refusal — is tested by feeding inputs and a fake time (`core/tests.rs`), in
//! microseconds, without sockets or sleeps.

mod dealing;
mod entropy;
mod play;
mod presence;
mod rematch;
mod restore;
mod seats;
mod settings;
mod sleep;
mod talk;
#[cfg(test)]
mod tests;
mod think;
mod tournament;
mod views;

use std::sync::Arc;

pub(crate) use self::entropy::{Entropy, OsEntropy};
pub(crate) use self::rematch::RematchPlan;
pub(crate) use self::settings::TableConfig;
pub(crate) use self::think::{BotTurn, Thought};
pub(crate) use self::tournament::TournamentTable;

use romirami_game::commitment::ShuffleProof;
use romirami_game::{AnyGame, GameKind, Json, ReadAction, Seat};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::time::Instant;
use tracing::info;

use super::chat::Chat;
use super::clock::TurnClock;
use super::handle::{Sender, TableCommand};
use super::members::Members;
use super::options::{GameChoice, TableOptions};
use super::port::LobbyPort;
use super::seating::{Control, Occupant, Seating};
use crate::protocol::{
    ChatLine, ContributionFrom, Contributions, ErrorCode, PlayerId, PlayerInfo, Role, TableId, TableState, TableSummary,
};
use crate::store::{ActionRow, ChatRow, FinishedGame, GamePlayer, StoreError};
use crate::wire::ServerMsg;

/// The sentence sent with [`ErrorCode::Unavailable`].
pub(crate) const UNAVAILABLE: &str =
    "the server cannot reach its database right now; nothing was done, try again in a moment";

/// The current time, as the core sees it: given with every input, never read by the core itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Now {
    /// For timers and clocks.
    pub(crate) at: Instant,
    /// For what is stored and shown (when a game started or finished).
    pub(crate) wall: OffsetDateTime,
}

impl Now {
    /// The wall time of the instant `at`, before or after now: what is stored and shown of a clock's instants.
    pub(crate) fn wall_at(&self, at: Instant) -> OffsetDateTime {
        if at >= self.at { self.wall + (at - self.at) } else { self.wall - (self.at - at) }
    }
}

/// What wakes the core.
#[derive(Debug)]
pub(crate) enum Input {
    /// A request from a connection.
    Command(TableCommand),
    /// The time the core asked for with [`TableCore::deadline`] has come.
    Timer,
    /// The outcome of the durable write that the last step asked for.
    Stored(Result<(), StoreError>),
    /// The finished game's result, asked for with [`Effect::StoreResult`], is stored (or will never
    /// be: the failure is logged): the table closes once nobody is at it.
    ResultStored,
    /// The bot's decision that [`Effect::Think`] asked for.
    Thought(think::Thought),
    /// This node lost the table's lease (its renewal found the lease gone, or a write was fenced):
    /// another node has the table, or will, and this one must not show a game that moves on there.
    LeaseLost,
}

/// A write that must be durable before the table goes on.
#[derive(Clone, Debug)]
pub(crate) enum Durable {
    /// Who sits where while the table waits (each seat's player, and whether the host's bot plays it).
    Seats(Vec<Option<(PlayerId, bool)>>),
    /// The start of the game: its seed and salt (whose `Debug` shows neither) and its players.
    Start { shuffle: ShuffleProof, players: Vec<GamePlayer>, started_at: OffsetDateTime },
    /// The next action of the game's log.
    Action(ActionRow),
    /// A chat message, kept with the table.
    Chat(ChatRow),
}

/// What the table's task must do.
#[derive(Debug)]
pub(crate) enum Effect {
    /// Make this write durable, then feed its outcome back as [`Input::Stored`] before anything else.
    Write(Durable),
    /// Store the finished game's record and results, in the background, until the database takes it;
    /// then feed [`Input::ResultStored`].
    StoreResult(Box<FinishedGame>),
    /// Open the table of a rematch and start its game, then feed the outcome back as [`Input::Stored`]
    /// before anything else.
    OpenRematch(Box<RematchPlan>),
    /// Have the bot's decision made away from the table's task, on the server's bot pool, and feed it
    /// back as [`Input::Thought`] whenever it comes (other inputs may come first).
    Think(Box<think::BotTurn>),
    /// Tell these players' devices (Web Push), never waiting: the notice is queued, or dropped.
    Notify(crate::push::Notice),
    /// A turn-based table nobody is at: store this row, then stop (the table is woken from the store by
    /// the next visitor or its timer); if the row cannot be stored, feed nothing and call
    /// [`TableCore::stay_awake`].
    Sleep(Box<crate::store::SleepRow>),
    /// The table closes: its task ends, and whoever still writes to it learns that it is gone.
    Close,
}

/// What a table's core shares with the rest of the server.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The lobby, as far as a table is concerned: its public list and each host's count of open tables.
    pub(crate) lobby: Arc<dyn LobbyPort>,
    /// What a table needs of the server's settings.
    pub(crate) config: Arc<TableConfig>,
    /// Where fresh seeds and ids come from.
    pub(crate) entropy: Box<dyn Entropy>,
}

/// Who plays an action: a person on a connection, or the server's bot.
#[derive(Debug)]
enum Actor {
    Person { from: Sender, id: u64, received: Instant },
    Bot,
}

/// What the core waits for the store to confirm.
#[derive(Debug)]
enum Pending {
    /// `from` took `seat` before the start.
    Seat { from: Sender, seat: Seat, since: Option<usize> },
    /// `from`, the host, gave `seat` to a bot.
    Bot { from: Sender, seat: Seat },
    /// The game starts with this seed and salt; `from` asked for it (or took the last seat); nobody did
    /// at a rematch's table, which starts as it opens.
    Start { from: Option<Sender>, shuffle: ShuffleProof, started_at: OffsetDateTime },
    /// `seat` plays `action`.
    Action { seat: Seat, action: ReadAction, by: Actor },
    /// `from` said `line` in the chat.
    Chat { from: Sender, line: ChatLine },
    /// The rematch's table `next` is being opened.
    Rematch { next: TableId },
    /// A write whose failure is only logged (a seat freed: the seat is free either way).
    Logged,
}

/// A game in play or over, with what the table keeps beside it.
#[derive(Debug)]
struct Play {
    game: Box<dyn AnyGame>,
    clock: Option<TurnClock>,
    /// The seat whose turn it is, as of the last action.
    to_act: Option<Seat>,
    /// When the running turn ends (its reserve included), as of its start; `None` without a clock.
    turn_ends_at: Option<OffsetDateTime>,
    /// When the bot plays its next action.
    bot_due: Option<Instant>,
    /// Whether the bot's decision is awaited ([`Effect::Think`]).
    thinking: bool,
    /// When the choice the seat to act is asked (outside the turns) is made for its player.
    choice_due: Option<Instant>,
    /// When the game ends as abandoned because no player is connected.
    abandon_due: Option<Instant>,
    /// Actions in the stored log so far: the number of the next one.
    actions: u32,
    /// The game's round (or hand), as of the last action.
    round: usize,
    /// Until when the table pauses after a round ended: the next turn's clock and bot start then.
    pause_until: Option<Instant>,
    started_at: OffsetDateTime,
    /// The seed and salt of the commitment sent at the start, revealed by the record at the end; `None`
    /// for a game stored before games had a salt, whose record carries no proof.
    shuffle: Option<ShuffleProof>,
    /// Who gave each seat's contribution to the deal, as the members are told it; `None` for a game
    /// dealt from the server's seed alone, or brought back from the store (which keeps the values only).
    contributed: Option<Vec<ContributionFrom>>,
}

impl Play {
    /// The commitment to the game's seed, as members are told it.
    fn commitment(&self) -> Option<String> {
        self.shuffle.as_ref().map(|proof| proof.commitment().to_hex())
    }
}

/// Where the table stands.
#[derive(Debug)]
enum Phase {
    Waiting,
    Playing(Box<Play>),
    Finished(Box<Play>),
}

/// One table's state and rules.
#[derive(Debug)]
pub(crate) struct TableCore {
    id: TableId,
    invite: String,
    host: PlayerId,
    options: TableOptions,
    /// The table's game, which deals its games.
    kind: Arc<dyn GameKind>,
    /// The game's options, as the game wrote them in full.
    game_options: Json,
    seating: Seating,
    members: Members,
    /// The players' and the spectators' chats.
    chat: Chat,
    /// Each seat's presence as the members were last told it during the game.
    told_presence: Vec<Option<crate::protocol::Presence>>,
    /// For each seat, whether its player is on their way from the game before (a rematch's table opens
    /// and starts before they arrive): their arrival is no coming back, and is not told as one.
    arriving: Vec<bool>,
    /// At a tournament's table, for each seat, whether its player came to the table (joined it) since it
    /// opened: one who never did was played by the bot throughout, and is counted absent.
    came: Vec<bool>,
    phase: Phase,
    pending: Option<Pending>,
    /// When a waiting table closes because no seated person is connected.
    waiting_due: Option<Instant>,
    /// Whether the finished game's result is stored: then the table closes once nobody is at it.
    result_stored: bool,
    /// The finished game's offer to play again, once it is over.
    rematch: Option<rematch::Rematch>,
    /// At a table of a duplicate tournament, the round's deal: its game is dealt from it.
    deal: Option<romirami_tournament::Deal>,
    /// While the game starts: the seats' contributions to its deal, gathered before it is dealt.
    dealing: Option<Box<dealing::Dealing>>,
    /// Whether the core said [`Effect::Close`]: it wants nothing more.
    closed: bool,
    lobby: Arc<dyn LobbyPort>,
    config: Arc<TableConfig>,
    entropy: Box<dyn Entropy>,
    effects: Vec<Effect>,
}

impl TableCore {
    /// A new table hosted by `host`, seated in seat 0. The caller checked `options` and stored it.
    pub(crate) fn open(
        id: TableId,
        invite: String,
        host: PlayerInfo,
        options: TableOptions,
        game: GameChoice,
        services: Shared,
        now: Now,
    ) -> TableCore {
        let mut seating = Seating::empty(options.seats);
        seating.sit(Seat(0), Occupant { player: host.clone(), control: Control::Player });
        let mut core = TableCore::new(id, invite, host.id, (options, game), seating, Phase::Waiting, services);
        core.check_waiting(now);
        core
    }

    fn new(
        id: TableId,
        invite: String,
        host: PlayerId,
        (options, game): (TableOptions, GameChoice),
        seating: Seating,
        phase: Phase,
        services: Shared,
    ) -> TableCore {
        let Shared { lobby, config, entropy } = services;
        TableCore {
            id,
            invite,
            host,
            options,
            kind: game.kind,
            game_options: game.options,
            seating,
            members: Members::default(),
            chat: Chat::default(),
            told_presence: Vec::new(),
            arriving: Vec::new(),
            came: Vec::new(),
            phase,
            pending: None,
            waiting_due: None,
            result_stored: false,
            rematch: None,
            deal: None,
            dealing: None,
            closed: false,
            lobby,
            config,
            entropy,
            effects: Vec::new(),
        }
    }

    /// The chat as the store kept it, for a table brought back after a restart.
    pub(crate) fn restore_chat(&mut self, lines: Vec<ChatLine>) {
        self.chat = Chat::restored(lines);
    }

    /// The table's id.
    pub(crate) fn id(&self) -> TableId {
        self.id
    }

    /// The host, who holds one of their open tables in the lobby's count while the game is not over.
    pub(crate) fn host(&self) -> PlayerId {
        self.host
    }

    /// The games the server seats (a finished table's game is read back from the store by them).
    pub(crate) fn games(&self) -> &romirami_game::Games {
        &self.config.games
    }

    /// Whether the seats may still change: the table waits for its game, and is not dealing it.
    fn seats_open(&self) -> bool {
        self.state() == TableState::Waiting && self.dealing.is_none()
    }

    /// Where the table stands.
    pub(crate) fn state(&self) -> TableState {
        match self.phase {
            Phase::Waiting => TableState::Waiting,
            Phase::Playing(_) => TableState::Playing,
            Phase::Finished(_) => TableState::Finished,
        }
    }

    /// Takes the effects of the last step (they were also returned by [`TableCore::step`]); for the
    /// table's constructors, which may have effects of their own (a restored game that is over).
    pub(crate) fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Handles one input at `now` and returns what the task must do.
    pub(crate) fn step(&mut self, input: Input, now: Now) -> Vec<Effect> {
        match input {
            Input::LeaseLost => {
                // Nothing more happens here: the members are told where to go, and the table closes.
                self.lease_lost();
                return self.take_effects();
            }
            Input::Command(command) => self.command(command, now),
            Input::Timer => self.timer(now),
            Input::Stored(outcome) => self.stored(outcome, now),
            Input::ResultStored => self.result_stored = true,
            Input::Thought(thought) => self.thought(thought, now),
        }
        self.drop_members(now);
        self.sweep_presence();
        // A finished table keeps its game while someone looks at it; once nobody does and its result
        // is stored, it closes: whoever comes later reads the game from the store (`super::finished`).
        // A rematch offer still open closes with it: nobody is left to answer it here.
        if self.result_stored && self.members.is_empty() && !self.closed {
            self.close();
        }
        self.sleep_if_idle(now);
        self.take_effects()
    }

    /// When the core wants [`Input::Timer`]: the earliest thing it does by itself.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        if self.pending.is_some() || self.closed {
            return None;
        }
        match &self.phase {
            Phase::Waiting => self.dealing.as_ref().map_or(self.waiting_due, |dealing| Some(dealing.due())),
            Phase::Playing(play) => self.next_timer(play).map(|(at, _)| at),
            Phase::Finished(_) => self.rematch_due(),
        }
    }

    fn command(&mut self, command: TableCommand, now: Now) {
        if self.pending.is_some() {
            // The task feeds the outcome of a write before any other input; a command cannot come now.
            if let Some(from) = command.sender() {
                self.error(from, ErrorCode::Internal, "the table is busy; try again");
            }
            return;
        }
        if let TableCommand::Join { from, invite, .. } | TableCommand::Watch { from, invite, .. } = &command
            && self.point_to_rematch(from, invite.as_deref())
        {
            return;
        }
        match command {
            TableCommand::Contribute { from, value } => self.contribute(&from, value, now),
            TableCommand::Join { from, invite, since } => self.join(from, invite.as_deref(), since, now),
            TableCommand::Watch { from, invite, since } => self.watch(from, invite.as_deref(), since, now),
            TableCommand::Leave { from } => self.leave(&from, now),
            TableCommand::Detach { conn } => self.detach(conn, now),
            TableCommand::Start { from } => self.start(from, now),
            TableCommand::Kick { from, seat } => self.kick(&from, seat, now),
            TableCommand::AddBot { from, level } => self.add_bot(from, level),
            TableCommand::History { from, from_event } => self.history(&from, from_event),
            TableCommand::Act { from, id, action } => self.act(from, id, action, now),
            TableCommand::Chat { from, text } => self.say(from, &text, now),
            TableCommand::Mute { from, player, muted } => self.mute(&from, player, muted),
            TableCommand::Rematch { from, accept } => self.answer_rematch(&from, accept, now),
            TableCommand::Moderate { act, .. } => self.moderate(act, now),
        }
    }

    fn stored(&mut self, outcome: Result<(), StoreError>, now: Now) {
        let Some(pending) = self.pending.take() else {
            return tracing::error!(table = %self.id, "a write's outcome came, but none was asked for");
        };
        match pending {
            Pending::Seat { from, seat, since } => self.seat_stored(from, seat, since, outcome, now),
            Pending::Bot { from, seat } => self.bot_stored(from, seat, outcome, now),
            Pending::Start { from, shuffle, started_at } => {
                self.start_stored(from, shuffle, started_at, outcome, now);
            }
            Pending::Action { seat, action, by } => self.action_stored(seat, &action, by, outcome, now),
            Pending::Chat { from, line } => self.said(&from, line, outcome),
            Pending::Rematch { next } => self.rematch_opened(next, outcome, now),
            Pending::Logged => {
                if let Err(error) = outcome {
                    tracing::warn!(table = %self.id, %error, "a freed seat could not be stored");
                }
            }
        }
    }

    fn timer(&mut self, now: Now) {
        match &self.phase {
            Phase::Waiting if self.dealing.is_some() => self.dealing_timer(now),
            Phase::Waiting => {
                if self.waiting_due.is_some_and(|due| due <= now.at) {
                    info!(table = %self.id, "no seated player came back to the waiting table: closing it");
                    self.close_waiting();
                }
            }
            Phase::Playing(_) => self.play_timer(now),
            Phase::Finished(_) => self.rematch_timer(now),
        }
    }

    /// Says that the table closes.
    fn close(&mut self) {
        self.closed = true;
        self.effects.push(Effect::Close);
    }

    /// Asks for a durable write and waits for its outcome.
    fn write(&mut self, durable: Durable, then: Pending) {
        self.effects.push(Effect::Write(durable));
        self.pending = Some(then);
    }

    fn error(&self, to: &Sender, code: ErrorCode, message: impl Into<String>) {
        to.out.send_msg(&ServerMsg::error(Some(self.id), None, code, message));
    }

    fn publish(&self) {
        self.lobby.publish(&self.public_summary());
    }

    /// The table as the lobby lists it: without its seats' presence, which is its members' business
    /// (and would send every lobby subscriber an update each time a player's connection comes or goes).
    pub(crate) fn public_summary(&self) -> TableSummary {
        TableSummary { presence: Vec::new(), ..self.summary() }
    }

    /// The table as its members see it.
    pub(crate) fn summary(&self) -> TableSummary {
        TableSummary {
            id: self.id,
            game: self.kind.name().into(),
            state: self.state(),
            host: self.host,
            public: self.options.public,
            spectators: self.options.spectators,
            seats: self.seating.players(),
            spectator_count: self.members.spectators(),
            clock: self.options.clock,
            bots: self.seating.bots(),
            levels: self.seating.levels(),
            shuffle: match &self.phase {
                Phase::Playing(play) | Phase::Finished(play) => play.commitment(),
                Phase::Waiting => self.dealing.as_ref().map(|dealing| dealing.commitment()),
            },
            contributions: match &self.phase {
                Phase::Playing(play) | Phase::Finished(play) => {
                    play.contributed.clone().map(|seats| Contributions { seats, remaining_ms: None })
                }
                Phase::Waiting => self.dealing.as_ref().map(|dealing| dealing.contributions()),
            },
            options: serde_json::from_str(self.game_options.get()).ok(),
            presence: self.presences(),
            rated: self.options.rated,
            tournament: self.options.tournament,
            to_act: match &self.phase {
                Phase::Playing(play) => play.to_act,
                _ => None,
            },
            turn_ends_at: match &self.phase {
                Phase::Playing(play) => play.turn_ends_at.and_then(|at| at.format(&Rfc3339).ok()),
                _ => None,
            },
        }
    }

    /// Whoever is `conn`'s role at the table.
    fn role_of(&self, conn: super::outbox::ConnId) -> Option<Role> {
        self.members.get(conn).map(|m| m.role)
    }
}
