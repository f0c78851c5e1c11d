//! A tournament's runner: the task that owns its director on this node and carries out what it asks.
//!
//! Every change is stored before anything is done about it: the director (with the tables it planned)
//! is written, then its tables are opened. A table's id and deal come from the director, and opening a
//! table that is live or stored does nothing (`table::tournament::open`), so a runner that starts again
//! (after a restart, or on another node) asks for every table the stored director has open, and
//! nothing is seated twice. Results come from the tables of this node as they are stored (the lobby's
//! `tournament_games`) and, every [`SWEEP`], from the store for every open table (a table on another
//! node, or one that finished while no runner listened). The results of one [`TICK`] are stored and
//! carried out together at its end, and views are spaced by their size (see [`Runner::tell`]): a
//! 1,000-player arena's games end many times a second (docs/performance.md, "Tournaments").

use std::time::Duration;

use std::sync::Arc;

use romirami_tournament::{Director, Effect, OpenTable, Phase, Refusal, SeatResult};
use tokio::sync::{Notify, broadcast, mpsc, oneshot};
use tracing::{info, warn};

use crate::lobby::TournamentGame;
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::store::{Fence, StoreError, TournamentRow};
use crate::table::{self, GameChoice, Services, TableOptions, TournamentTable};

use super::follow::Sealing;

/// How often the runner tells its director the time.
const TICK: Duration = Duration::from_secs(1);
/// How often it reads the results of its open tables from the store, and opens again any it planned.
const SWEEP: Duration = Duration::from_secs(10);
/// What the followers of one tournament are sent per second at most, in bytes of views (counting one
/// view per player): a large tournament changes at every game's end, so its views are spaced out (see
/// [`Runner::tell`]).
const VIEW_BYTES_PER_SECOND: f64 = 5_000_000.0;
/// The longest a change waits to be told.
const LONGEST_VIEW_WAIT: Duration = Duration::from_secs(30);

/// A runner's answer: done, refused by the director, or `Err(None)` when the store did not take the
/// change (then nothing changed).
pub(crate) type Answer = Result<(), Option<Refusal>>;

/// What the rest of the server asks of a runner.
#[derive(Debug)]
pub(crate) enum Command {
    /// A player joins.
    Join { player: PlayerInfo, reply: oneshot::Sender<Answer> },
    /// A player withdraws.
    Withdraw { player: PlayerId, reply: oneshot::Sender<Answer> },
    /// A player pauses in an arena, or comes back.
    Pause { player: PlayerId, paused: bool, reply: oneshot::Sender<Answer> },
    /// A player contributes to a duplicate round's deal.
    Contribute { player: PlayerId, value: romirami_game::commitment::Contribution, reply: oneshot::Sender<Answer> },
}

/// The runner of one tournament.
pub(crate) struct Runner {
    row: TournamentRow,
    director: Director,
    game: GameChoice,
    services: Services,
    /// Whether the director changed since it was last stored.
    dirty: bool,
    /// The followers, the sealed games and the other nodes.
    shared: Arc<super::Shared>,
    /// This node's lease on the tournament, in a cluster: every save presents it.
    fence: Option<Fence>,
    /// Whether the lease was lost (another node directs the tournament now): the runner stops.
    gone: bool,
    /// When the followers were last sent a view, of which phase, and whether a change since waits.
    told_at: Option<tokio::time::Instant>,
    told_phase: Option<&'static str>,
    told_bytes: usize,
    untold: bool,
    /// What games' results asked for, carried out at the next tick: a large arena's games end many
    /// times a second, and each change stores the whole director, so those of one tick are stored once.
    pending: Vec<Effect>,
}

/// The time now, as the director counts it.
pub(crate) fn now_ms() -> u64 {
    let now = time::OffsetDateTime::now_utc();
    u64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap_or(0)
}

impl Runner {
    pub(crate) fn new(
        row: TournamentRow,
        director: Director,
        game: GameChoice,
        services: Services,
        shared: Arc<super::Shared>,
        fence: Option<Fence>,
    ) -> Runner {
        Runner {
            row,
            director,
            game,
            services,
            dirty: false,
            shared,
            fence,
            gone: false,
            told_at: None,
            told_phase: None,
            told_bytes: 0,
            untold: false,
            pending: Vec::new(),
        }
    }

    /// Runs until the tournament is finished and stored.
    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let id = self.row.id;
        let mut games = self.services.lobby.tournament_games();
        let mut tick = tokio::time::interval(TICK);
        let mut sweep = tokio::time::interval(SWEEP);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let lost = self.services.ownership.as_ref().and_then(|ownership| ownership.lost_signal(TableId(id)));
        info!(tournament = %id, state = self.director.phase.name(), "tournament directed here");
        loop {
            tokio::select! {
                () = lease_lost(lost.as_deref()) => self.gone = true,
                command = commands.recv() => match command {
                    Some(command) => self.command(command).await,
                    None => return,
                },
                _ = tick.tick() => {
                    let mut effects = std::mem::take(&mut self.pending);
                    effects.extend(timed(|| self.director.tick(now_ms())));
                    self.carry_out(effects).await;
                    if self.untold {
                        self.tell();
                    }
                }
                _ = sweep.tick() => self.sweep().await,
                game = games.recv() => match game {
                    Ok(TournamentGame { tournament, table, absent, .. }) if tournament == id => {
                        self.result_of(table, &absent).await;
                    }
                    Ok(_) => {}
                    // Fallen behind: the store has every result.
                    Err(broadcast::error::RecvError::Lagged(_)) => self.sweep().await,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
            }
            if self.gone {
                info!(tournament = %id, "the tournament's lease was lost: another node directs it now");
                return;
            }
            if self.director.phase == Phase::Finished && !self.dirty && self.pending.is_empty() {
                info!(tournament = %id, "tournament finished");
                if let Some(ownership) = &self.services.ownership {
                    ownership.release(TableId(id));
                }
                return;
            }
        }
    }

    async fn command(&mut self, command: Command) {
        let now = now_ms();
        let (before, was_dirty) = (self.director.clone(), self.dirty);
        let (outcome, reply) = match command {
            Command::Join { player, reply } => (timed(|| self.director.join(player.id.0, &player.name, now)), reply),
            Command::Withdraw { player, reply } => (timed(|| self.director.withdraw(player.0)), reply),
            Command::Pause { player, paused, reply } => (timed(|| self.director.pause(player.0, paused, now)), reply),
            Command::Contribute { player, value, reply } => {
                (timed(|| self.director.contribute(player.0, &value)), reply)
            }
        };
        match outcome {
            Ok(effects) => {
                // The answer waits for the store: a join that is answered is kept.
                self.carry_out(effects).await;
                if self.dirty {
                    // Not stored: as if it had not been asked.
                    (self.director, self.dirty) = (before, was_dirty);
                    let _ = reply.send(Err(None));
                } else {
                    let _ = reply.send(Ok(()));
                }
            }
            Err(refusal) => {
                let _ = reply.send(Err(Some(refusal)));
            }
        }
    }

    /// Stores the director if it changed, then opens the tables it asked for (only once it is stored).
    async fn carry_out(&mut self, effects: Vec<Effect>) {
        let mut opens = Vec::new();
        for effect in effects {
            match effect {
                Effect::Changed => self.dirty = true,
                Effect::Open(table) => opens.push(table),
            }
        }
        let changed = self.dirty;
        // Sealed before its tables open, unsealed once the round is over: here, and on the other nodes.
        self.shared.sealed.follow(&self.director);
        if self.dirty && !self.save().await {
            // Not stored: nothing is opened; the next sweep stores it and opens what it planned.
            return;
        }
        if let (true, false, Some(link)) = (changed, opens.is_empty(), self.shared.link.get()) {
            link.publish(self.row.id, None, Sealing::of(&self.director));
        }
        for table in opens {
            self.open(table).await;
        }
        // Told once its tables are open: a player who reads their table in it finds it there.
        if changed {
            self.tell();
        }
    }

    /// Tells the followers the tournament as it is: at once when nothing was told for a while, when it
    /// starts or ends; else at the next tick that is due. A view goes to every follower, so views are
    /// spaced by their size times the players, within [`VIEW_BYTES_PER_SECOND`] and at most
    /// [`LONGEST_VIEW_WAIT`] apart; a large tournament's is told partial (`follow::live_message`), and a
    /// player's own table is called at once all the same (`tournament_table`).
    fn tell(&mut self) {
        let players = self.director.players.len().max(1) as f64;
        let spacing = Duration::from_secs_f64(self.told_bytes as f64 * players / VIEW_BYTES_PER_SECOND)
            .clamp(TICK, LONGEST_VIEW_WAIT);
        let phase_changed = self.told_phase != Some(self.director.phase.name());
        let due = self.told_at.is_none_or(|at| at.elapsed() >= spacing);
        if !(due || phase_changed) {
            self.untold = true;
            return;
        }
        let view = super::view_json(&self.row, &self.director);
        let message = super::follow::live_message(&view, self.services.config.tournament_live_view_bytes);
        (self.told_at, self.told_phase, self.told_bytes, self.untold) =
            (Some(tokio::time::Instant::now()), Some(self.director.phase.name()), message.len(), false);
        self.send(super::Follow::View(message));
    }

    /// Tells the followers on every node.
    fn send(&self, follow: super::Follow) {
        if let Some(link) = self.shared.link.get() {
            link.publish(self.row.id, Some(&follow), Sealing::of(&self.director));
        }
        self.shared.followers.send(self.row.id, follow);
    }

    /// Writes the director. Whether it is stored.
    async fn save(&mut self) -> bool {
        let Ok(text) = serde_json::to_string(&self.director) else { return false };
        let winner = (self.director.phase == Phase::Finished)
            .then(|| self.director.standings().first().map(|line| PlayerId(line.player)))
            .flatten();
        let (id, phase, fence) = (self.row.id, self.director.phase.name(), self.fence.as_ref());
        match self.services.store.save_tournament(id, phase, &text, winner, fence).await {
            Ok(()) => {
                self.dirty = false;
                true
            }
            Err(StoreError::Fenced(reason)) => {
                warn!(tournament = %id, %reason, "a tournament's save was fenced: its lease is another node's");
                self.gone = true;
                false
            }
            Err(error) => {
                warn!(tournament = %self.row.id, %error, "a tournament could not be stored");
                false
            }
        }
    }

    /// Opens a table the director planned (nothing if it is open already).
    async fn open(&self, plan: OpenTable) {
        let seats = plan
            .seats
            .iter()
            .map(|key| {
                let name = self.director.players.iter().find(|e| e.id == *key).map(|e| e.name.clone());
                PlayerInfo { id: PlayerId(*key), name: name.unwrap_or_default() }
            })
            .collect();
        let options = TableOptions {
            seats: self.director.spec.seats,
            public: false,
            // A duplicate deal is being played at the round's other tables: nobody watches it live.
            spectators: if plan.deal.is_some() {
                crate::protocol::SpectatorPolicy::Nobody
            } else {
                crate::protocol::SpectatorPolicy::Everyone
            },
            clock: Some(self.row.clock),
            rated: self.row.rated,
            tournament: Some(self.row.id),
        };
        let table = TournamentTable {
            id: TableId(plan.table),
            options,
            game: self.game.clone(),
            seats,
            deal: plan.deal.clone(),
        };
        match table::tournament::open(table, &self.services).await {
            // Open already (a sweep, or a runner that started again): its players were called.
            Ok(false) => {}
            Ok(true) => {
                let seats: Vec<PlayerId> = plan.seats.iter().map(|p| PlayerId(*p)).collect();
                self.services.pusher.notify(crate::push::Notice {
                    players: seats.clone(),
                    kind: crate::push::NoticeKind::TournamentTable,
                    table: TableId(plan.table),
                    game: self.row.game.clone(),
                });
                let message = crate::wire::ServerMsg::TournamentTable {
                    tournament: self.row.id,
                    table: TableId(plan.table),
                    round: plan.round,
                    seats: seats.clone(),
                };
                self.send(super::Follow::Table { seats, text: message.to_json().into() });
            }
            Err(error) => {
                warn!(tournament = %self.row.id, table = %plan.table, %error, "a tournament's table could not open");
            }
        }
    }

    /// What the store knows: every open table's result, and the tables to open again.
    async fn sweep(&mut self) {
        if self.dirty {
            if !self.save().await {
                return;
            }
            self.tell();
        }
        let open: Vec<uuid::Uuid> = self.director.open_tables().map(|(_, t)| t.id).collect();
        for table in open {
            match self.services.store.game(TableId(table)).await {
                // A table still live on this node tells its result itself, with who was absent.
                Ok(_) if self.services.lobby.table(TableId(table)).is_some() => {}
                Ok(_) => self.result_of(TableId(table), &[]).await,
                Err(StoreError::NotFound) => {
                    if let Some(plan) = self.director.plan_of(table) {
                        self.open(plan).await;
                    }
                }
                Err(error) => warn!(tournament = %self.row.id, %error, "a tournament's table could not be read"),
            }
        }
    }

    /// The finished game at `table`, read from the store, told to the director.
    async fn result_of(&mut self, table: TableId, absent: &[bool]) {
        let summary = match self.services.store.game(table).await {
            Ok(summary) => summary,
            Err(error) => {
                warn!(tournament = %self.row.id, %table, %error, "a tournament's result could not be read");
                return;
            }
        };
        let places: Vec<u8> = summary.results.iter().map(|r| r.place).collect();
        let scores: Vec<i64> = summary.results.iter().map(|r| r.score).collect();
        let results = SeatResult::of_game(&places, &scores, absent);
        match timed(|| self.director.finished(table.0, &results, now_ms())) {
            // Stored and carried out at the next tick, with the other results of this one.
            Ok(effects) => self.pending.extend(effects),
            Err(refusal) => warn!(tournament = %self.row.id, %table, %refusal, "a tournament's result does not fit"),
        }
    }
}

/// Waits for the renewal to find the tournament's lease gone; never without a lease (a single server).
async fn lease_lost(lost: Option<&Notify>) {
    match lost {
        Some(lost) => lost.notified().await,
        None => std::future::pending().await,
    }
}

/// Runs a step of the director, and counts its time when it seated players (`metrics.rs`).
fn timed<T: Seated>(step: impl FnOnce() -> T) -> T {
    let began = std::time::Instant::now();
    let effects = step();
    if effects.seated() {
        crate::metrics::tournament_pairing(began.elapsed());
    }
    effects
}

/// What a step of the director returned: whether it opened tables.
trait Seated {
    fn seated(&self) -> bool;
}

impl Seated for Vec<Effect> {
    fn seated(&self) -> bool {
        self.iter().any(|effect| matches!(effect, Effect::Open(_)))
    }
}

impl<E> Seated for Result<Vec<Effect>, E> {
    fn seated(&self) -> bool {
        self.as_ref().is_ok_and(Seated::seated)
    }
}
