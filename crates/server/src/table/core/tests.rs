//! The table's rules, driven by commands and a fake time: no socket, no sleep, no database. Each test
//! plays the part of the task (it answers the core's writes) and reads the members' outboxes as their
//! clients would.

use std::sync::Arc;
use std::time::Duration;

use romirami_engine::{Action, Seat};
use time::OffsetDateTime;
use tokio::time::Instant;
use uuid::Uuid;

use super::{Durable, Effect, Entropy, Input, Now, Shared, TableCore};
use crate::config::Config;
use crate::lobby::Lobby;
use crate::protocol::{Clock, ErrorCode, PlayerId, PlayerInfo, Role, ServerMsg, SpectatorPolicy, TableId, TableState};
use crate::store::{GamePlayer, StoreError, StoredAction, TableRow, UnfinishedGame};
use crate::table::outbox::{ConnId, Outbox, OutboxQueue, Outgoing};
use crate::table::{Sender, TableCommand, TableOptions};

/// Fixed "randomness": every seed is 7, ids count up.
#[derive(Debug, Default)]
struct Fixed(u128);

impl Entropy for Fixed {
    fn seed(&mut self) -> u64 {
        7
    }
    fn secret(&mut self) -> [u8; 32] {
        [1; 32]
    }
    fn id(&mut self) -> Uuid {
        self.0 += 1;
        Uuid::from_u128(self.0)
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
        let mut messages = Vec::new();
        while let Ok(Outgoing::Text(text)) = self.inbox.try_recv() {
            messages.push(serde_json::from_str(text.as_str()).expect("the server's messages parse"));
        }
        messages
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
    lobby: Arc<Lobby>,
    start: Instant,
    ms: u64,
    store_fails: bool,
    /// Whether the store refuses the start of a game (and only that).
    starts_fail: bool,
    /// Every durable write asked for, in order.
    writes: Vec<Durable>,
    /// Every other effect, in order.
    effects: Vec<Effect>,
}

fn config() -> Config {
    Config {
        bot_delay: Duration::from_millis(100),
        bot_retry: Duration::from_millis(500),
        abandon_after: Duration::from_secs(60),
        waiting_table_grace: Duration::from_secs(30),
        ..Config::default()
    }
}

fn shared(lobby: &Arc<Lobby>) -> Shared {
    Shared { lobby: lobby.clone(), config: Arc::new(config()), entropy: Box::new(Fixed::default()) }
}

impl Table {
    fn open(host: &Client, seats: u8, clock: Option<Clock>) -> Table {
        let lobby = Arc::new(Lobby::default());
        let options = TableOptions { seats, public: true, spectators: SpectatorPolicy::Link, clock };
        let start = Instant::now();
        let now = Now { at: start, wall: OffsetDateTime::UNIX_EPOCH };
        let id = TableId(Uuid::from_u128(1));
        let core = TableCore::open(id, "key".into(), host.from.player.clone(), options, shared(&lobby), now);
        Table::around(core, lobby, start)
    }

    /// A table around `core`, whose fake time starts at `start`, with a store that answers.
    fn around(core: TableCore, lobby: Arc<Lobby>, start: Instant) -> Table {
        Table {
            core,
            lobby,
            start,
            ms: 0,
            store_fails: false,
            starts_fail: false,
            writes: Vec::new(),
            effects: Vec::new(),
        }
    }

    fn now(&self) -> Now {
        Now { at: self.start + Duration::from_millis(self.ms), wall: OffsetDateTime::UNIX_EPOCH }
    }

    /// Feeds `input`, answering every write as the store would, as the table's task does.
    fn feed(&mut self, input: Input) {
        let mut effects = self.core.step(input, self.now());
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
                Durable::Action(row) => {
                    Some((row.seat, serde_json::from_str(&row.action).expect("an action's JSON"), row.by_bot))
                }
                _ => None,
            })
            .collect()
    }

    fn to_act(&self) -> Option<Seat> {
        self.core.game().and_then(romirami_engine::Game::to_act)
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

#[test]
fn a_full_table_starts_and_every_seat_is_stored_first() {
    let (mut ana, mut bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    assert!(table.writes.is_empty(), "the host's seat was stored with the table");
    table.join(&bruno);
    assert!(matches!(table.writes.last(), Some(Durable::Start { seed: 7, players, .. }) if players.len() == 2));
    assert_eq!(table.core.state(), TableState::Playing);
    assert_eq!(table.lobby.public_tables()[0].state, TableState::Playing);
    for client in [&mut ana, &mut bruno] {
        assert!(client.messages().iter().any(|m| matches!(m, ServerMsg::Table { view: Some(_), .. })));
    }
}

#[test]
fn every_seating_refusal_has_its_code() {
    let (mut ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    // Only the host starts, kicks and adds bots; a game needs two players.
    table.command(TableCommand::Start { from: bruno.from.clone() });
    table.command(TableCommand::Kick { from: bruno.from.clone(), seat: Seat(0) });
    table.command(TableCommand::AddBot { from: bruno.from.clone() });
    assert_eq!(bruno.errors(), vec![ErrorCode::NotHost; 3]);
    ana.messages();
    table.command(TableCommand::Start { from: ana.from.clone() });
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(0) });
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(1) });
    assert_eq!(ana.errors(), vec![ErrorCode::NotEnoughPlayers, ErrorCode::BadOptions, ErrorCode::NotSeated]);
    // Not a member: nothing to leave, no seat to act from; the game has not started.
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    table.act(&ana, Action::Pass);
    assert_eq!(bruno.errors(), vec![ErrorCode::NotSeated]);
    assert_eq!(ana.errors(), vec![ErrorCode::NotStarted]);
    // Watching needs the link here (spectators: link); a private table would not even admit to exist.
    table.command(TableCommand::Watch { from: cleo.from.clone(), invite: None, since: None });
    assert_eq!(cleo.errors(), vec![ErrorCode::SpectatingNotAllowed]);
    table.join(&bruno);
    table.join(&cleo);
    assert_eq!(cleo.errors(), vec![ErrorCode::AlreadyStarted]);
    table.command(TableCommand::AddBot { from: ana.from.clone() });
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(1) });
    table.command(TableCommand::Start { from: ana.from.clone() });
    assert_eq!(ana.errors(), vec![ErrorCode::AlreadyStarted; 3]);
}

#[test]
fn a_private_table_does_not_admit_to_exist_without_its_link_and_a_full_one_refuses() {
    let (ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let lobby = Arc::new(Lobby::default());
    let options = TableOptions { seats: 3, public: false, spectators: SpectatorPolicy::Everyone, clock: None };
    let now = Now { at: Instant::now(), wall: OffsetDateTime::UNIX_EPOCH };
    let core =
        TableCore::open(TableId(Uuid::nil()), "key".into(), ana.from.player.clone(), options, shared(&lobby), now);
    let mut table = Table::around(core, lobby, now.at);
    table.command(TableCommand::Join { from: bruno.from.clone(), invite: None, since: None });
    table.command(TableCommand::Watch { from: bruno.from.clone(), invite: Some("nope".into()), since: None });
    assert_eq!(bruno.errors(), vec![ErrorCode::NoSuchTable; 2]);
    assert!(table.lobby.public_tables().is_empty(), "a private table is not listed");
    table.join(&bruno);
    table.command(TableCommand::AddBot { from: ana.from.clone() });
    assert_eq!(table.core.state(), TableState::Playing, "the bot took the last seat: the game starts");
    table.join(&cleo);
    assert_eq!(cleo.errors(), vec![ErrorCode::AlreadyStarted]);
}

#[test]
fn a_refused_write_changes_nothing_and_says_unavailable() {
    let (mut ana, mut bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    table.store_fails = true;
    table.join(&bruno);
    assert_eq!(bruno.errors(), vec![ErrorCode::Unavailable]);
    assert_eq!(table.core.summary().seats[1], None, "the seat is free again");
    table.store_fails = false;
    table.join(&bruno);
    let (mut ana2, mut bruno2) = (ana.second_connection(11), bruno.second_connection(12));
    table.join(&ana2);
    table.join(&bruno2);
    ana.messages();
    let (actor, _) = by_turn(&table, &mut ana2, &mut bruno2);
    let legal = actor.turn().expect("a turn");
    table.store_fails = true;
    let events = table.core.game().map(romirami_engine::Game::event_count);
    table.act(&actor.clone_sender(), legal[0]);
    assert_eq!(actor.errors(), vec![ErrorCode::Unavailable]);
    assert_eq!(table.core.game().map(romirami_engine::Game::event_count), events, "nothing was applied");
    table.store_fails = false;
    table.act(&actor.clone_sender(), legal[0]);
    assert!(actor.messages().iter().any(|m| matches!(m, ServerMsg::Ack { .. })));
    let seqs: Vec<u32> =
        table.writes.iter().filter_map(|w| if let Durable::Action(row) = w { Some(row.seq) } else { None }).collect();
    assert_eq!(seqs, vec![0, 0], "the refused action's number is used again");
}

impl Client {
    /// A client that sends as this one (its outbox is this one's).
    fn clone_sender(&self) -> Client {
        let (_, inbox, _) = Outbox::new(1);
        Client { from: self.from.clone(), inbox }
    }
}

#[test]
fn play_refusals_name_the_turn_and_the_rules() {
    let (mut table, mut ana, mut bruno) = started(None);
    let (actor, other) = by_turn(&table, &mut ana, &mut bruno);
    let legal = actor.turn();
    assert!(legal.is_none(), "the turn came with the start");
    table.act(&other.clone_sender(), Action::Pass);
    assert_eq!(other.errors(), vec![ErrorCode::NotYourTurn]);
    table.act(&actor.clone_sender(), Action::Discard { cards: romirami_engine::Cards::EMPTY });
    assert_eq!(actor.errors(), vec![ErrorCode::IllegalAction]);
    // §7: nothing to take back at the start of a turn.
    table.act(&actor.clone_sender(), Action::TakeBack);
    assert_eq!(actor.errors(), vec![ErrorCode::IllegalAction]);
    assert!(table.actions_written().is_empty(), "nothing refused is written");
}

#[test]
fn a_take_back_undoes_the_last_step_of_ones_turn_only() {
    let (mut table, mut ana, mut bruno) = started(None);
    let seat = table.to_act().expect("on");
    let (actor, _) = by_turn(&table, &mut ana, &mut bruno);
    let game = table.core.game().expect("on");
    let take = game.legal_actions(seat).into_iter().find(|a| matches!(a, Action::Take { .. })).expect("a take");
    table.act(&actor.clone_sender(), take);
    let legal = actor.turn().expect("the turn goes on");
    assert!(legal.contains(&Action::TakeBack), "§7: a take can be taken back");
    table.act(&actor.clone_sender(), Action::TakeBack);
    assert!(actor.messages().iter().any(|m| matches!(m, ServerMsg::Ack { .. })));
    assert_eq!(table.to_act(), Some(seat));
    assert_eq!(table.actions_written().len(), 2, "the take-back is in the log too");
}

#[test]
fn a_player_out_of_time_is_played_by_the_bot_until_their_next_turn_after_coming_back() {
    let clock = Clock { turn_ms: 1000, reserve_ms: 2000 };
    let (mut table, ana, bruno) = started(Some(clock));
    let seat = table.to_act().expect("on");
    // 1 s of turn, then 2 s of reserve: out of time at 3 s, not before.
    table.at(2999);
    assert!(table.actions_written().is_empty());
    assert_eq!(table.bots(), vec![false, false]);
    table.at(3000);
    assert!(table.bots()[seat.index()], "the bot stands in");
    // The bot plays after its delay, its moves marked as the bot's, until the turn passes.
    table.at(3100);
    assert!(table.actions_written().iter().all(|(s, _, by_bot)| *s == seat && *by_bot));
    assert!(!table.actions_written().is_empty());
    let (player, other_player) = if seat == Seat(0) { (&ana, &bruno) } else { (&bruno, &ana) };
    // Coming back mid-turn: the seat stays the bot's until the turn has passed.
    table.join(player);
    let mut ms = 3100;
    while table.to_act() == Some(seat) {
        ms += 100;
        table.at(ms);
    }
    assert!(table.bots()[seat.index()], "the bot finishes the turn it started");
    // The other seat's player has the full turn: nothing runs out before its 1 s + 2 s.
    let other = table.to_act().expect("on");
    let before = table.actions_written().len();
    table.at(ms + 2999);
    assert_eq!(table.actions_written().len(), before, "{other} keeps its turn");
    // The other plays its turn; at the next one the seat is its player's again.
    while table.to_act() == Some(other) {
        let legal = table.core.game().expect("on").legal_actions(other);
        let action = legal.iter().copied().find(|a| *a != Action::TakeBack).expect("a move");
        table.act(other_player, action);
    }
    assert_eq!(table.to_act(), Some(seat));
    assert!(!table.bots()[seat.index()], "the player has their seat back");
}

#[test]
fn the_reserve_is_spent_only_beyond_the_turn_time_and_shown_in_the_clocks() {
    let clock = Clock { turn_ms: 1000, reserve_ms: 5000 };
    let (mut table, mut ana, mut bruno) = started(Some(clock));
    let seat = table.to_act().expect("on");
    table.at(1500);
    let (actor, _) = by_turn(&table, &mut ana, &mut bruno);
    let legal = table.core.game().expect("on").legal_actions(seat);
    let action = legal.iter().copied().find(|a| matches!(a, Action::Pass)).unwrap_or(legal[0]);
    table.act(&actor.clone_sender(), action);
    let reserve = table.actions_written()[0];
    assert_eq!(reserve.0, seat);
    let written = table.writes.iter().find_map(|w| if let Durable::Action(row) = w { row.reserve_ms } else { None });
    assert_eq!(written, Some(4500), "0.5 s over the turn time comes off the reserve");
    let clocks = actor.messages().into_iter().filter(|m| matches!(m, ServerMsg::Clocks { .. })).count();
    assert!(clocks > 0 || table.to_act() == Some(seat), "a new turn sends the clocks");
}

#[test]
fn a_player_who_leaves_is_played_by_the_bot_and_the_game_is_abandoned_when_all_have_left() {
    let (mut table, ana, bruno) = started(None);
    table.command(TableCommand::Leave { from: ana.from.clone() });
    assert_eq!(table.bots(), vec![true, false]);
    assert_eq!(table.core.state(), TableState::Playing);
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    assert_eq!(table.core.state(), TableState::Finished, "nobody is left to play");
    assert!(table.effects.iter().any(|e| matches!(e, Effect::StoreResult(_))));
    assert!(table.lobby.public_tables().is_empty(), "a finished table leaves the lobby");
}

#[test]
fn a_game_nobody_is_connected_to_is_abandoned_after_the_grace_unless_someone_comes_back() {
    let (mut table, ana, bruno) = started(None);
    table.command(TableCommand::Detach { conn: ana.from.conn });
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    table.at(59_000);
    table.join(&ana);
    table.at(200_000);
    assert_eq!(table.core.state(), TableState::Playing, "Ana came back in time");
    table.command(TableCommand::Detach { conn: ana.from.conn });
    table.at(200_000 + 60_000);
    assert_eq!(table.core.state(), TableState::Finished, "abandoned");
    // Once its result is stored and nobody is at it, a finished table keeps nothing: it closes.
    assert!(!table.closed());
    table.feed(Input::ResultStored);
    assert!(table.closed());
}

#[test]
fn bots_play_a_whole_game_at_the_table() {
    let host = Client::new(1, "Ana");
    let mut table = Table::open(&host, 3, None);
    table.join(&host);
    table.command(TableCommand::AddBot { from: host.from.clone() });
    table.command(TableCommand::AddBot { from: host.from.clone() });
    assert_eq!(table.core.summary().seats.iter().flatten().filter(|p| p.name.starts_with("Bot")).count(), 2);
    table.command(TableCommand::Leave { from: host.from.clone() });
    let mut ms = 0;
    while table.core.state() == TableState::Playing && ms < 10_000_000 {
        ms += 100;
        table.at(ms);
    }
    assert_eq!(table.core.state(), TableState::Finished);
    assert!(table.actions_written().iter().all(|(_, _, by_bot)| *by_bot));
}

#[test]
fn a_waiting_table_closes_when_its_last_person_leaves_or_none_comes_back() {
    let (ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 3, None);
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Leave { from: ana.from.clone() });
    assert_eq!(table.core.host(), bruno.from.player.id, "the next seated player hosts the table");
    assert!(!table.closed());
    // Bruno's connection drops without leaving: the table waits for him, then closes.
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    table.at(29_999);
    assert!(!table.closed());
    table.at(30_000);
    assert!(table.closed());
    assert!(matches!(table.writes.last(), Some(Durable::Seats(seats)) if seats.iter().all(Option::is_none)));
}

#[test]
fn a_reconnecting_member_catches_up_by_event_number() {
    let (mut table, mut ana, mut bruno) = started(None);
    let (actor, _) = by_turn(&table, &mut ana, &mut bruno);
    let seat = table.to_act().expect("on");
    let take = table.core.game().expect("on").legal_actions(seat)[0];
    table.act(&actor.clone_sender(), take);
    let mut again = actor.second_connection(21);
    table.command(TableCommand::Join { from: again.from.clone(), invite: None, since: Some(0) });
    let messages = again.messages();
    assert!(
        matches!(messages.first(), Some(ServerMsg::Events { events, .. }) if events.first().is_some_and(|e| e.n == 0)),
        "{messages:?}"
    );
    let mut far = actor.second_connection(22);
    table.command(TableCommand::Join { from: far.from.clone(), invite: None, since: Some(10_000) });
    assert!(matches!(far.messages().first(), Some(ServerMsg::Table { role: Role::Seat(_), .. })));
}

#[test]
fn a_restored_game_replays_its_log_and_waits_for_its_players() {
    let (ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut game = romirami_engine::Game::new(2, 7).expect("2 players");
    let mut actions = Vec::new();
    for _ in 0..3 {
        let seat = game.to_act().expect("on");
        let action = game.legal_actions(seat)[0];
        game.apply(seat, &action).expect("legal");
        let action = serde_json::to_string(&action).expect("JSON");
        actions.push(StoredAction { seat, action, by_bot: false, reserve_ms: None });
    }
    let players = [&ana, &bruno]
        .iter()
        .zip(0u8..)
        .map(|(c, seat)| GamePlayer {
            seat: Seat(seat),
            id: c.from.player.id,
            name: c.from.player.name.clone(),
            bot: false,
        })
        .collect();
    let table = TableRow {
        id: TableId(Uuid::nil()),
        game: crate::protocol::ROMI_RAMI.into(),
        host: ana.from.player.id,
        seats: 2,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: OffsetDateTime::UNIX_EPOCH,
        invite: "key".into(),
        clock: None,
        options: "{}".into(),
    };
    let stored = UnfinishedGame { table, seed: 7, started_at: OffsetDateTime::UNIX_EPOCH, players, actions };
    let lobby = Arc::new(Lobby::default());
    let start = Instant::now();
    let now = Now { at: start, wall: OffsetDateTime::UNIX_EPOCH };
    let core = TableCore::restored(stored.clone(), shared(&lobby), now).expect("it replays");
    assert_eq!(core.game().map(romirami_engine::Game::event_count), Some(game.event_count()));
    let mut restored = Table::around(core, lobby, start);
    assert!(restored.core.deadline().is_some(), "the abandonment grace runs while nobody is connected");
    restored.at(60_000);
    assert_eq!(restored.core.state(), TableState::Finished, "nobody came back");
    // A log the rules refuse does not come back.
    let stored_again = stored.clone();
    let mut broken = stored;
    let pass = serde_json::to_string(&Action::Pass).expect("JSON");
    broken.actions.push(StoredAction { seat: Seat(5), action: pass, by_bot: false, reserve_ms: None });
    assert!(TableCore::restored(broken, shared(&Arc::new(Lobby::default())), now).is_err());
    // Nor does one that holds no action of the game.
    let mut unreadable = stored_again;
    unreadable.actions.push(StoredAction {
        seat: Seat(0),
        action: r#"{"type":"fly"}"#.into(),
        by_bot: false,
        reserve_ms: None,
    });
    assert!(TableCore::restored(unreadable, shared(&Arc::new(Lobby::default())), now).is_err());
}

#[test]
fn spectators_never_see_a_hand() {
    let (mut table, _ana, _bruno) = started(None);
    let mut watcher = Client::new(9, "Cleo");
    table.command(TableCommand::Watch { from: watcher.from.clone(), invite: Some("key".into()), since: None });
    let messages = watcher.messages();
    let Some(ServerMsg::Table { view: Some(view), role: Role::Spectator, .. }) = messages.first() else {
        panic!("{messages:?}")
    };
    assert!(view.hand.is_none(), "a spectator's view holds no hand");
    assert_eq!(table.core.summary().spectator_count, 1);
}

#[test]
fn a_full_table_whose_start_was_not_stored_keeps_waiting_and_refuses_newcomers() {
    let (ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    table.starts_fail = true;
    table.join(&bruno);
    assert_eq!(bruno.errors(), vec![ErrorCode::Unavailable], "the game could not start");
    assert_eq!(table.core.state(), TableState::Waiting);
    table.join(&cleo);
    assert_eq!(cleo.errors(), vec![ErrorCode::TableFull]);
    // Once the store is back, the host starts it.
    table.starts_fail = false;
    table.command(TableCommand::Start { from: ana.from.clone() });
    assert_eq!(table.core.state(), TableState::Playing);
}

#[test]
fn an_action_after_the_end_is_refused_as_game_over() {
    let host = Client::new(1, "Ana");
    let mut table = Table::open(&host, 2, None);
    table.join(&host);
    table.command(TableCommand::AddBot { from: host.from.clone() });
    // Ana leaves: the bot plays both seats to the end; her connection comes back to the finished table.
    table.command(TableCommand::Leave { from: host.from.clone() });
    let mut ms = 0;
    while table.core.state() == TableState::Playing && ms < 10_000_000 {
        ms += 100;
        table.at(ms);
    }
    assert_eq!(table.core.state(), TableState::Finished);
    let mut back = host.second_connection(7);
    table.join(&back);
    assert!(matches!(back.messages().first(), Some(ServerMsg::Table { role: Role::Seat(Seat(0)), .. })));
    table.act(&back.clone_sender(), Action::Pass);
    assert_eq!(back.errors(), vec![ErrorCode::GameOver]);
    // The finished table stays while someone is at it, stored or not; it closes when they go.
    table.feed(Input::ResultStored);
    assert!(!table.closed(), "Ana is still looking at it");
    table.command(TableCommand::Detach { conn: back.from.conn });
    assert!(table.closed());
}
