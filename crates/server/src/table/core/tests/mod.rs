//! The table's rules, driven by commands and a fake time: no socket, no sleep, no database. Each test
//! plays the part of the task (it answers the core's writes) and reads the members' outboxes as their
//! clients would.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use romirami_engine::{Action, Seat};
use romirami_game::commitment::Salt;
use time::OffsetDateTime;
use tokio::time::Instant;
use uuid::Uuid;

use super::{BotTurn, Durable, Effect, Entropy, Input, Now, RematchPlan, Shared, TableConfig, TableCore};
use crate::config::Config;
use romirami_client::romi_rami::ServerMsg;

use crate::protocol::{
    Clock, ErrorCode, PlayerId, PlayerInfo, Role, SpectatorPolicy, TableId, TableState, TableSummary,
};
use crate::store::{GamePlayer, StoreError, StoredAction, TableRow, UnfinishedGame};
use crate::sync::lock;
use crate::table::handle::{Sender, TableCommand};
use crate::table::options::{GameChoice, TableOptions};
use crate::table::outbox::{ConnId, Outbox, OutboxQueue, Outgoing};
use crate::table::port::LobbyPort;

/// Fixed "randomness": every seed is `seed` (7 unless a test says; each draw adds `seed_step`, 0
/// unless a test says), every salt `salt`, ids count up.
#[derive(Debug)]
struct Fixed {
    ids: u128,
    seed: u64,
    seed_step: u64,
    salt: Salt,
}

impl Default for Fixed {
    fn default() -> Fixed {
        Fixed { ids: 0, seed: 7, seed_step: 0, salt: [2; 32] }
    }
}

impl Entropy for Fixed {
    fn seed(&mut self) -> u64 {
        let seed = self.seed;
        self.seed += self.seed_step;
        seed
    }
    fn salt(&mut self) -> Salt {
        self.salt
    }
    fn contribution(&mut self) -> [u8; 32] {
        [3; 32]
    }
    fn id(&mut self) -> Uuid {
        self.ids += 1;
        Uuid::from_u128(self.ids)
    }
}

/// The lobby as a table sees it (its port): what each table last published, and each host's open tables.
#[derive(Debug, Default)]
struct Listings {
    published: Mutex<BTreeMap<TableId, TableSummary>>,
    hosting: Mutex<HashMap<PlayerId, usize>>,
}

impl LobbyPort for Listings {
    fn publish(&self, summary: &TableSummary) {
        lock(&self.published).insert(summary.id, summary.clone());
    }

    fn reserve_hosting(&self, host: PlayerId, max: usize) -> bool {
        let mut hosting = lock(&self.hosting);
        let count = hosting.entry(host).or_default();
        (*count < max).then(|| *count += 1).is_some()
    }

    fn release_hosting(&self, host: PlayerId) {
        let mut hosting = lock(&self.hosting);
        let count = hosting.entry(host).or_default();
        *count = count.saturating_sub(1);
    }
}

impl Listings {
    /// The tables a lobby lists: the public ones, as last published, not finished.
    fn public_tables(&self) -> Vec<TableSummary> {
        let published = lock(&self.published);
        published.values().filter(|t| t.public && t.state != TableState::Finished).cloned().collect()
    }

    /// How many open tables `host` holds in the count.
    fn hosting(&self, host: PlayerId) -> usize {
        lock(&self.hosting).get(&host).copied().unwrap_or(0)
    }
}

/// A connection as a client sees it: what it sends with, and what it was sent.
struct Client {
    from: Sender,
    inbox: OutboxQueue,
}

impl Client {
    fn new(conn: u64, name: &str) -> Client {
        let (out, inbox, _) = Outbox::new(256);
        let player = PlayerInfo { id: PlayerId(Uuid::from_u128(1000 + u128::from(conn))), name: name.into() };
        Client { from: Sender { conn: ConnId(conn), player, out }, inbox }
    }

    /// Another connection of the same player.
    fn second_connection(&self, conn: u64) -> Client {
        let (out, inbox, _) = Outbox::new(256);
        Client { from: Sender { conn: ConnId(conn), player: self.from.player.clone(), out }, inbox }
    }

    /// Everything sent to it since the last call.
    fn messages(&mut self) -> Vec<ServerMsg> {
        self.texts().iter().map(|text| serde_json::from_str(text).expect("the server's messages parse")).collect()
    }

    /// Everything sent to it since the last call, as the text sent.
    fn texts(&mut self) -> Vec<String> {
        let mut texts = Vec::new();
        while let Ok(Outgoing::Text(text)) = self.inbox.try_recv() {
            texts.push(text.as_str().to_owned());
        }
        texts
    }

    /// The codes of the errors sent to it since the last call.
    fn errors(&mut self) -> Vec<ErrorCode> {
        self.messages()
            .into_iter()
            .filter_map(|msg| match msg {
                ServerMsg::Error { code, .. } => Some(code),
                _ => None,
            })
            .collect()
    }

    /// The legal actions of the last `your_turn` sent to it since the last call.
    fn turn(&mut self) -> Option<Vec<Action>> {
        self.messages().into_iter().rev().find_map(|msg| match msg {
            ServerMsg::YourTurn { legal, .. } => Some(legal),
            _ => None,
        })
    }
}

/// A table and its clock: `at(ms)` is the fake time, the store answers as `store_fails` says.
struct Table {
    core: TableCore,
    lobby: Arc<Listings>,
    start: Instant,
    ms: u64,
    store_fails: bool,
    /// Whether the store refuses the start of a game (and only that).
    starts_fail: bool,
    /// Every durable write asked for, in order.
    writes: Vec<Durable>,
    /// Every other effect, in order.
    effects: Vec<Effect>,
    /// Every rematch's table the core asked to open (the store takes it unless `store_fails`).
    rematches: Vec<RematchPlan>,
    /// The bot's decisions asked for and not answered yet, when the test answers them itself
    /// ([`Table::hold_thoughts`]); `None`: the bot thinks at once.
    held: Option<Vec<BotTurn>>,
}

/// The tests' settings: the server's defaults, with shorter waits.
fn config() -> TableConfig {
    TableConfig {
        bot_delay: Duration::from_millis(100),
        bot_retry: Duration::from_millis(500),
        abandon_after: Duration::from_secs(60),
        waiting_table_grace: Duration::from_secs(30),
        // The server draws every seat's contribution at once; `dealing.rs` tests the wait for them.
        contribution_wait: Duration::ZERO,
        ..TableConfig::of(&Config::default())
    }
}

fn romi_rami() -> GameChoice {
    GameChoice::choose(&crate::games(), None, None, 2).expect("Romi Rami is seated")
}

fn shared(lobby: &Arc<Listings>) -> Shared {
    shared_with(lobby, Fixed::default())
}

fn shared_with(lobby: &Arc<Listings>, entropy: Fixed) -> Shared {
    shared_configured(lobby, entropy, config())
}

fn shared_configured(lobby: &Arc<Listings>, entropy: Fixed, config: TableConfig) -> Shared {
    Shared { lobby: lobby.clone(), config: Arc::new(config), entropy: Box::new(entropy) }
}

impl Table {
    fn open(host: &Client, seats: u8, clock: Option<Clock>) -> Table {
        Table::open_game(host, seats, clock, romi_rami())
    }

    /// A table of `game`, as [`Table::open`].
    fn open_game(host: &Client, seats: u8, clock: Option<Clock>, game: GameChoice) -> Table {
        Table::open_with(host, seats, clock, game, Fixed::default())
    }

    /// A table of `game` whose randomness is `entropy`.
    fn open_with(host: &Client, seats: u8, clock: Option<Clock>, game: GameChoice, entropy: Fixed) -> Table {
        Table::open_configured(host, seats, clock, game, entropy, config())
    }

    /// A table as [`Table::open_with`] under `config` rather than the tests' usual one.
    fn open_configured(
        host: &Client,
        seats: u8,
        clock: Option<Clock>,
        game: GameChoice,
        entropy: Fixed,
        config: TableConfig,
    ) -> Table {
        let lobby = Arc::new(Listings::default());
        let options = TableOptions {
            seats,
            public: true,
            spectators: SpectatorPolicy::Link,
            clock,
            rated: true,
            tournament: None,
        };
        let start = Instant::now();
        let now = Now { at: start, wall: OffsetDateTime::UNIX_EPOCH };
        let id = TableId(Uuid::from_u128(1));
        let core = TableCore::open(
            id,
            "key".into(),
            host.from.player.clone(),
            options,
            game,
            shared_configured(&lobby, entropy, config),
            now,
        );
        Table::around(core, lobby, start)
    }

    /// A table around `core`, whose fake time starts at `start`, with a store that answers.
    fn around(core: TableCore, lobby: Arc<Listings>, start: Instant) -> Table {
        Table {
            core,
            lobby,
            start,
            ms: 0,
            store_fails: false,
            starts_fail: false,
            writes: Vec::new(),
            effects: Vec::new(),
            rematches: Vec::new(),
            held: None,
        }
    }

    /// From now on the bot's decisions wait until the test answers them ([`Table::think`]).
    fn hold_thoughts(&mut self) {
        self.held = Some(Vec::new());
    }

    /// The decisions asked for and not answered yet.
    fn held(&self) -> &[BotTurn] {
        self.held.as_deref().unwrap_or_default()
    }

    /// Answers the decisions held so far, as the bot pool would.
    fn think(&mut self) {
        for turn in self.held.as_mut().map(std::mem::take).unwrap_or_default() {
            self.feed(Input::Thought(turn.think(None)));
        }
    }

    fn now(&self) -> Now {
        Now { at: self.start + Duration::from_millis(self.ms), wall: OffsetDateTime::UNIX_EPOCH }
    }

    /// Feeds `input`, answering every write as the store would, as the table's task does.
    fn feed(&mut self, input: Input) {
        let effects = self.core.step(input, self.now());
        self.answer(effects);
    }

    /// Carries out `effects` as the table's task would, answering every write as the store would.
    fn answer(&mut self, mut effects: Vec<Effect>) {
        while !effects.is_empty() {
            let mut next = Vec::new();
            for effect in effects {
                match effect {
                    Effect::Write(durable) => {
                        let refused =
                            self.store_fails || (self.starts_fail && matches!(durable, Durable::Start { .. }));
                        let outcome = if refused { Err(StoreError::Unavailable("down".into())) } else { Ok(()) };
                        self.writes.push(durable);
                        next.extend(self.core.step(Input::Stored(outcome), self.now()));
                    }
                    Effect::OpenRematch(plan) => {
                        let outcome =
                            if self.store_fails { Err(StoreError::Unavailable("down".into())) } else { Ok(()) };
                        self.rematches.push(*plan);
                        next.extend(self.core.step(Input::Stored(outcome), self.now()));
                    }
                    // The bot thinks within its playouts (no clock in these tests): at once, or when the
                    // test says.
                    Effect::Think(turn) => match &mut self.held {
                        Some(held) => held.push(*turn),
                        None => next.extend(self.core.step(Input::Thought(turn.think(None)), self.now())),
                    },
                    other => self.effects.push(other),
                }
            }
            effects = next;
        }
    }

    fn command(&mut self, command: TableCommand) {
        self.feed(Input::Command(command));
    }

    fn join(&mut self, client: &Client) {
        self.command(TableCommand::Join { from: client.from.clone(), invite: Some("key".into()), since: None });
    }

    fn act(&mut self, client: &Client, action: Action) {
        let action = serde_json::to_value(action).expect("an action writes");
        self.command(TableCommand::Act { from: client.from.clone(), id: 1, action });
    }

    /// Moves the fake time to `ms` and fires every timer due by then, in order.
    fn at(&mut self, ms: u64) {
        while let Some(due) = self.core.deadline() {
            let due_ms = u64::try_from(due.duration_since(self.start).as_millis()).expect("small");
            if due_ms > ms {
                break;
            }
            self.ms = self.ms.max(due_ms);
            self.feed(Input::Timer);
        }
        self.ms = ms;
    }

    fn closed(&self) -> bool {
        self.effects.iter().any(|e| matches!(e, Effect::Close))
    }

    fn actions_written(&self) -> Vec<(Seat, Action, bool)> {
        self.writes
            .iter()
            .filter_map(|w| match w {
                Durable::Action(row) => Some((row.seat, serde_json::from_str(&row.action).expect("reads"), row.by_bot)),
                _ => None,
            })
            .collect()
    }

    /// How many actions of any game were written.
    fn actions_count(&self) -> usize {
        self.writes.iter().filter(|w| matches!(w, Durable::Action(_))).count()
    }

    fn to_act(&self) -> Option<Seat> {
        self.core.game().and_then(|game| game.to_act())
    }

    /// The legal actions of `seat` as the game lists them.
    fn legal(&self, seat: Seat) -> Vec<Action> {
        let legal = self.core.game().expect("on").legal(seat);
        serde_json::from_str(legal.get()).expect("Romi Rami's actions")
    }

    fn event_count(&self) -> Option<usize> {
        self.core.game().map(|game| game.event_count())
    }

    /// The game's round, 0 before the start.
    fn round(&self) -> usize {
        self.core.game().map_or(0, |game| game.round())
    }

    fn bots(&self) -> Vec<bool> {
        self.core.summary().bots
    }
}

/// Two players at a started table: Ana (seat 0, host) and Bruno.
fn started(clock: Option<Clock>) -> (Table, Client, Client) {
    let (mut ana, mut bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 2, clock);
    table.join(&ana);
    table.join(&bruno);
    assert_eq!(table.core.state(), TableState::Playing);
    ana.messages();
    bruno.messages();
    (table, ana, bruno)
}

/// The client whose seat is to act, and the other.
fn by_turn<'a>(table: &Table, ana: &'a mut Client, bruno: &'a mut Client) -> (&'a mut Client, &'a mut Client) {
    if table.to_act() == Some(Seat(0)) { (ana, bruno) } else { (bruno, ana) }
}

impl Client {
    /// A client that sends as this one (its outbox is this one's).
    fn clone_sender(&self) -> Client {
        let (_, inbox, _) = Outbox::new(1);
        Client { from: self.from.clone(), inbox }
    }
}

mod choice;
mod dealing;
mod lease;
mod play;
mod rematch;
mod seating;
mod shuffle;
mod thinking;
mod together;
mod turn_based;
