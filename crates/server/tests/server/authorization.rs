//! The authorization matrix: every client message type, sent by every kind of sender, is accepted or
//! refused with the error code `docs/protocol.md` (section 13) documents, and a refused message changes
//! nothing: the sender gets exactly one `error`, the table's other members get nothing, and a spectator
//! who asks again sees the same table (no new event, the same view or the same seats).
//!
//! Each cell gets a fresh table, so that accepted messages cannot disturb the next cell. `join`,
//! `watch`, `leave`, `act`, `chat`, `mute` and `rematch` are sent at a 2-seat table whose game is on, at the
//! owner's turn (`mute` names the seated player); `start` and `kick` at a 3-seat table that waits with 2
//! players seated; the others beside the playing table.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use common::{Follower, TestServer, create_table, guest, recv, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_engine::{Action, Cards, Seat};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, PROTOCOL_VERSION, PlayerId, SpectatorPolicy, TableId, TableSummary};

/// The `id` of the probe act that marks the end of a cell's answers.
const PROBE: u64 = 999_999;

/// Who sends the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Sender {
    /// The table's host, seated in seat 0; at the playing table it is also the seat to act.
    Owner,
    /// Another seated player.
    Seated,
    /// A connection watching the table.
    Spectator,
    /// A greeted player who is not at the table.
    Stranger,
    /// A connection whose `hello` carried a token nobody has.
    BadToken,
    /// A greeted player, about another private table that is in play, without its invite key.
    OtherTable,
    /// A greeted player, about a table id that does not exist.
    UnknownTable,
}

const SENDERS: [Sender; 7] = [
    Sender::Owner,
    Sender::Seated,
    Sender::Spectator,
    Sender::Stranger,
    Sender::BadToken,
    Sender::OtherTable,
    Sender::UnknownTable,
];

/// Which message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Hello,
    LobbySubscribe,
    LobbyUnsubscribe,
    CreateTable,
    Join,
    Watch,
    Leave,
    Start,
    Kick,
    AddBot,
    Act,
    Chat,
    Mute,
    Rematch,
}

const KINDS: [Kind; 14] = [
    Kind::Hello,
    Kind::LobbySubscribe,
    Kind::LobbyUnsubscribe,
    Kind::CreateTable,
    Kind::Join,
    Kind::Watch,
    Kind::Leave,
    Kind::Start,
    Kind::Kick,
    Kind::AddBot,
    Kind::Act,
    Kind::Chat,
    Kind::Mute,
    Kind::Rematch,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Hello => "hello",
            Kind::LobbySubscribe => "lobby_subscribe",
            Kind::LobbyUnsubscribe => "lobby_unsubscribe",
            Kind::CreateTable => "create_table",
            Kind::Join => "join",
            Kind::Watch => "watch",
            Kind::Leave => "leave",
            Kind::Start => "start",
            Kind::Kick => "kick",
            Kind::AddBot => "add_bot",
            Kind::Act => "act",
            Kind::Chat => "chat",
            Kind::Mute => "mute",
            Kind::Rematch => "rematch",
        }
    }

    /// `start` and `kick` are about a table that waits; the rest about a game in play.
    fn waiting(self) -> bool {
        matches!(self, Kind::Start | Kind::Kick | Kind::AddBot)
    }
}

impl Sender {
    fn name(self) -> &'static str {
        match self {
            Sender::Owner => "owner",
            Sender::Seated => "seated",
            Sender::Spectator => "spectator",
            Sender::Stranger => "stranger",
            Sender::BadToken => "bad token",
            Sender::OtherTable => "other table",
            Sender::UnknownTable => "unknown table",
        }
    }
}

/// What a cell must come to: accepted, with the first message of the answer (`None`: no answer at all),
/// or refused with a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Ok(Option<&'static str>),
    Refused(ErrorCode),
}

impl Outcome {
    fn cell(self) -> String {
        match self {
            Outcome::Ok(_) => "ok".into(),
            Outcome::Refused(code) => code_name(code),
        }
    }
}

fn code_name(code: ErrorCode) -> String {
    serde_json::to_value(code).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// The documented answer for each cell (docs/protocol.md sections 5, 11, 13 and 16).
fn expected(sender: Sender, kind: Kind) -> Outcome {
    use ErrorCode as E;
    use Outcome::{Ok, Refused};
    if sender == Sender::BadToken {
        return Refused(if kind == Kind::Hello { E::BadToken } else { E::HelloFirst });
    }
    match kind {
        Kind::Hello => return Refused(E::AlreadyGreeted),
        Kind::LobbySubscribe => return Ok(Some("lobby")),
        Kind::LobbyUnsubscribe => return Ok(None),
        Kind::CreateTable => return Ok(Some("table_created")),
        _ => {}
    }
    match (sender, kind) {
        (Sender::UnknownTable, _) => Refused(E::NoSuchTable),
        (Sender::Owner, Kind::Join | Kind::Watch | Kind::Start | Kind::Kick | Kind::AddBot) => Ok(Some("table")),
        (Sender::Owner, Kind::Leave) => Ok(Some("left")),
        (Sender::Owner, Kind::Act) => Ok(Some("events")),
        (Sender::Seated, Kind::Join | Kind::Watch) => Ok(Some("table")),
        (Sender::Seated, Kind::Leave) => Ok(Some("left")),
        (Sender::Seated, Kind::Act) => Refused(E::NotYourTurn),
        (Sender::Spectator | Sender::Stranger, Kind::Join) => Refused(E::AlreadyStarted),
        (Sender::Spectator | Sender::Stranger, Kind::Watch) => Ok(Some("table")),
        (Sender::Spectator, Kind::Leave) => Ok(Some("left")),
        (Sender::OtherTable, Kind::Join | Kind::Watch) => Refused(E::NoSuchTable),
        // Whoever is at the table chats: the players in their chat, a spectator in the spectators'.
        (Sender::Owner | Sender::Seated | Sender::Spectator, Kind::Chat) => Ok(Some("chat")),
        // Anyone at the table mutes another player for themselves; nobody mutes themselves.
        (Sender::Owner | Sender::Spectator, Kind::Mute) => Ok(Some("muted")),
        (Sender::Seated, Kind::Mute) => Refused(E::BadMute),
        // Only the game's players answer a rematch, once the game is over (after it: `tests/server/rematch.rs`).
        (Sender::Owner | Sender::Seated, Kind::Rematch) => Refused(E::NotFinished),
        (_, Kind::Rematch) => Refused(E::NotSeated),
        (_, Kind::Leave | Kind::Act | Kind::Chat | Kind::Mute) => Refused(E::NotSeated),
        (_, Kind::Start | Kind::Kick | Kind::AddBot) => Refused(E::NotHost),
        (Sender::BadToken, _)
        | (_, Kind::Hello | Kind::LobbySubscribe | Kind::LobbyUnsubscribe | Kind::CreateTable) => {
            unreachable!("answered above")
        }
    }
}

fn kind_of(msg: &ServerMsg) -> String {
    serde_json::to_value(msg).ok().and_then(|v| v["type"].as_str().map(str::to_owned)).unwrap_or_default()
}

/// An act that is never legal: it is refused at every table with its id, so its answer marks the end of
/// whatever the table had to send before it.
fn probe(table: TableId) -> ClientMsg {
    ClientMsg::Act { table, id: PROBE, action: Action::Take { cards: Cards::EMPTY } }
}

/// Sends the probe about `table` and returns every message that came before its answer.
async fn quiesce(client: &mut Client, table: TableId) -> Vec<ServerMsg> {
    send(client, probe(table)).await;
    let mut before = Vec::new();
    loop {
        match recv(client).await {
            ServerMsg::Error { id: Some(PROBE), .. } => return before,
            other => before.push(other),
        }
    }
}

/// A private 2-seat table in play, at which the senders of the `other table` row have no seat and no key.
struct OtherTable {
    id: TableId,
    invite: String,
    _players: [Client; 2],
}

impl OtherTable {
    async fn new(url: &str) -> OtherTable {
        let (mut host, _, _) = guest(url, "Private host").await;
        let (mut other, _, _) = guest(url, "Private guest").await;
        let (summary, invite) = create_table(&mut host, 2, false, SpectatorPolicy::Everyone).await;
        send(&mut other, ClientMsg::Join { table: summary.id, invite: Some(invite.clone()), since: None }).await;
        quiesce(&mut host, summary.id).await;
        quiesce(&mut other, summary.id).await;
        OtherTable { id: summary.id, invite, _players: [host, other] }
    }
}

/// The players every cell reuses, on new connections (coming back with a token is quicker than storing
/// a new guest); each cell's owner is a new guest, since a player hosts at most 5 open tables.
struct Cast {
    seated: String,
    spectator: String,
    stranger: String,
    observer: String,
}

impl Cast {
    async fn new(url: &str) -> Cast {
        let mut tokens = Vec::new();
        for name in ["Seated", "Spectator", "Stranger", "Observer"] {
            let (client, _, token) = guest(url, name).await;
            client.close().await.ok();
            tokens.push(token);
        }
        let [seated, spectator, stranger, observer] = <[String; 4]>::try_from(tokens).expect("four");
        Cast { seated, spectator, stranger, observer }
    }

    async fn connect(&self, url: &str, token: &str) -> Client {
        Client::returning(url, token).await.expect("welcomed back").0
    }
}

/// One cell's world: a fresh table with its owner, a seated player, a spectator, a stranger and an
/// observer (a second spectator, of this table and of the other table, who checks that nothing changed).
struct Scene {
    table: TableId,
    owner: Follower,
    seated: Follower,
    spectator: Client,
    stranger: Client,
    observer: Client,
    /// The seated player, whom `mute` names.
    seated_id: PlayerId,
    /// The table as the observer saw it before the cell: its summary and, in play, its view as JSON.
    before: (TableSummary, Option<serde_json::Value>),
    /// The other table as the observer saw it before the cell.
    other_before: (TableSummary, Option<serde_json::Value>),
    events: usize,
}

/// Watches `table` (with `invite`) and returns its summary and view.
async fn look(
    client: &mut Client,
    table: TableId,
    invite: Option<String>,
) -> (TableSummary, Option<serde_json::Value>) {
    send(client, ClientMsg::Watch { table, invite, since: None }).await;
    match recv(client).await {
        ServerMsg::Table { table: summary, view, .. } if summary.id == table => {
            (summary, view.map(|v| serde_json::to_value(*v).expect("a view serializes")))
        }
        other => panic!("expected the table, got {other:?}"),
    }
}

impl Scene {
    async fn new(url: &str, waiting: bool, other: &OtherTable, cast: &Cast) -> Scene {
        let (mut owner, _, _) = guest(url, "Owner").await;
        let (mut seated, seated_player) = Client::returning(url, &cast.seated).await.expect("welcomed back");
        let seats = if waiting { 3 } else { 2 };
        let (summary, _) = create_table(&mut owner, seats, true, SpectatorPolicy::Everyone).await;
        let table = summary.id;
        send(&mut seated, ClientMsg::Join { table, invite: None, since: None }).await;
        let mut owner = Follower::new(owner, table, 0);
        let mut seated = Follower::new(seated, table, 0);
        if !waiting {
            // Play the seated player's turns until the owner (seat 0) is to act.
            owner.until(|p| p.to_act.is_some()).await;
            seated.until(|p| p.to_act.is_some()).await;
            while seated.to_act == Some(Seat(1)) {
                seated.until(|p| p.turn.is_some()).await;
                let action = choose(seated.turn.as_deref().expect("a turn")).expect("a legal action");
                let id = seated.act(action).await;
                seated.until(|p| p.acks.last().is_some_and(|(acked, _)| *acked == id)).await;
            }
            owner.until(|p| p.to_act == Some(Seat(0)) && p.turn.is_some()).await;
            seated.until(|p| p.next == owner.next).await;
        }
        // The seated player first: once its join is answered, the owner's probe comes after what it caused.
        for player in [&mut seated, &mut owner] {
            for msg in quiesce(&mut player.client, table).await {
                player.observe(&msg);
            }
        }
        let mut spectator = cast.connect(url, &cast.spectator).await;
        send(&mut spectator, ClientMsg::Watch { table, invite: None, since: None }).await;
        quiesce(&mut spectator, table).await;
        let stranger = cast.connect(url, &cast.stranger).await;
        let mut observer = cast.connect(url, &cast.observer).await;
        let before = look(&mut observer, table, None).await;
        let other_before = look(&mut observer, other.id, Some(other.invite.clone())).await;
        let events = owner.next;
        let seated_id = seated_player.id;
        Scene { table, owner, seated, spectator, stranger, observer, seated_id, before, other_before, events }
    }
}

/// The message of `kind` as `sender` sends it.
fn message(kind: Kind, sender: Sender, scene: &Scene, other: &OtherTable, unknown: TableId) -> ClientMsg {
    let table = match sender {
        Sender::OtherTable => other.id,
        Sender::UnknownTable => unknown,
        _ => scene.table,
    };
    match kind {
        Kind::Hello => ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: None, name: Some("Again".into()) },
        Kind::LobbySubscribe => ClientMsg::LobbySubscribe,
        Kind::LobbyUnsubscribe => ClientMsg::LobbyUnsubscribe,
        Kind::CreateTable => ClientMsg::CreateTable {
            seats: 2,
            public: false,
            spectators: SpectatorPolicy::Nobody,
            clock: None,
            game: None,
            options: None,
            rated: None,
        },
        Kind::Join => ClientMsg::Join { table, invite: None, since: None },
        Kind::Watch => ClientMsg::Watch { table, invite: None, since: None },
        Kind::Leave => ClientMsg::Leave { table },
        Kind::Start => ClientMsg::Start { table },
        Kind::Kick => ClientMsg::Kick { table, seat: Seat(1) },
        Kind::AddBot => ClientMsg::AddBot { table, level: romirami_game::Level::Normal },
        Kind::Act => {
            // The action the owner may play now: legal for the owner, and the same one for everyone else.
            let action = scene.owner.turn.as_deref().and_then(choose).unwrap_or(Action::Pass);
            ClientMsg::Act { table, id: 1, action }
        }
        Kind::Chat => ClientMsg::Chat { table, text: "hello".into() },
        Kind::Mute => ClientMsg::Mute { table, player: scene.seated_id, muted: true },
        Kind::Rematch => ClientMsg::Rematch { table, accept: true },
    }
}

/// Sends one cell's message and returns what it came to, and the kinds of the messages that answered it.
async fn run_cell(url: &str, sender: Sender, kind: Kind, other: &OtherTable, cast: &Cast) -> (Outcome, Vec<String>) {
    let mut scene = Scene::new(url, kind.waiting(), other, cast).await;
    let unknown = TableId(uuid::Uuid::new_v4());
    let msg = message(kind, sender, &scene, other, unknown);
    let table = scene.table;
    // The probe must go where the message went: answers from two tables may come in either order.
    let probed = msg.table().unwrap_or(table);
    let mut bad = None;
    let client = match sender {
        Sender::Owner => &mut scene.owner.client,
        Sender::Seated => &mut scene.seated.client,
        Sender::Spectator => &mut scene.spectator,
        Sender::Stranger | Sender::OtherTable | Sender::UnknownTable => &mut scene.stranger,
        Sender::BadToken => {
            let mut client = Client::connect(url).await.expect("connects");
            let token = "0".repeat(64);
            send(&mut client, ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: Some(token), name: None }).await;
            match recv(&mut client).await {
                ServerMsg::Error { code: ErrorCode::BadToken, .. } => {}
                other => panic!("a bad token is refused, got {other:?}"),
            }
            bad.insert(client)
        }
    };
    let hello = match (&msg, sender) {
        (ClientMsg::Hello { .. }, Sender::BadToken) => {
            ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: Some("f".repeat(64)), name: None }
        }
        _ => msg,
    };
    send(client, hello).await;
    let answers = if sender == Sender::BadToken {
        // Nothing reaches a table before `welcome`: the one answer is the connection's own.
        vec![recv(client).await]
    } else {
        quiesce(client, probed).await
    };
    let kinds: Vec<String> = answers.iter().map(kind_of).collect();
    let outcome = match answers.iter().find_map(|m| match m {
        ServerMsg::Error { code, .. } => Some(*code),
        _ => None,
    }) {
        Some(code) => {
            assert_eq!(
                answers.len(),
                1,
                "{} {}: a refusal is the only answer: {answers:?}",
                sender.name(),
                kind.name()
            );
            Outcome::Refused(code)
        }
        None => Outcome::Ok(None),
    };
    if let Outcome::Refused(_) = outcome {
        // Nothing reached anyone else: the observer's probe of each table comes back with nothing before it.
        let seen = quiesce(&mut scene.observer, table).await;
        assert!(seen.is_empty(), "{} {}: the observer was sent {seen:?}", sender.name(), kind.name());
        let seen = quiesce(&mut scene.observer, other.id).await;
        assert!(seen.is_empty(), "{} {}: the observer was sent {seen:?}", sender.name(), kind.name());
        let others = [(Sender::Owner, &mut scene.owner), (Sender::Seated, &mut scene.seated)];
        for (label, player) in others.into_iter().filter(|(who, _)| *who != sender) {
            let label = label.name();
            let seen = quiesce(&mut player.client, table).await;
            assert!(seen.is_empty(), "{} {}: the {label} player was sent {seen:?}", sender.name(), kind.name());
        }
        // Asked again, the tables are as they were: no event since, the same view or seats.
        if !kind.waiting() {
            send(&mut scene.observer, ClientMsg::Watch { table, invite: None, since: Some(scene.events) }).await;
            match recv(&mut scene.observer).await {
                ServerMsg::Events { events, .. } => {
                    assert!(events.is_empty(), "{} {}: events {events:?}", sender.name(), kind.name());
                }
                other => panic!("expected no events, got {other:?}"),
            }
        }
        let after = look(&mut scene.observer, table, None).await;
        assert_eq!(after, scene.before, "{} {}: the table changed", sender.name(), kind.name());
        let after = look(&mut scene.observer, other.id, Some(other.invite.clone())).await;
        assert_eq!(after, scene.other_before, "{} {}: the other table changed", sender.name(), kind.name());
    }
    let outcome = match outcome {
        Outcome::Ok(_) => Outcome::Ok(None),
        refused => refused,
    };
    (outcome, kinds)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_from_every_sender_is_accepted_or_refused_as_documented() {
    let started = std::time::Instant::now();
    // Strikes and rate are not what this test is about; each cell uses fresh connections anyway.
    let server = TestServer::start(Config { max_strikes: 1000.0, ..common::fast() }).await;
    let url = server.url.clone();
    let other = OtherTable::new(&url).await;
    let cast = Cast::new(&url).await;
    let mut got: BTreeMap<(Sender, Kind), (Outcome, Vec<String>)> = BTreeMap::new();
    for sender in SENDERS {
        for kind in KINDS {
            got.insert((sender, kind), run_cell(&url, sender, kind, &other, &cast).await);
        }
    }

    // The matrix, then every difference from the documented one.
    let width = 19;
    let mut table = format!("{:<14}", "sender \\ msg");
    for kind in KINDS {
        write!(table, "{:<width$}", kind.name()).ok();
    }
    let mut wrong = Vec::new();
    for sender in SENDERS {
        write!(table, "\n{:<14}", sender.name()).ok();
        for kind in KINDS {
            let (outcome, kinds) = &got[&(sender, kind)];
            let want = expected(sender, kind);
            let mark = if outcome.cell() == want.cell() { "" } else { "!" };
            write!(table, "{:<width$}", format!("{mark}{}", outcome.cell())).ok();
            let answered_as_documented = match want {
                Outcome::Ok(Some(first)) => kinds.first().map(String::as_str) == Some(first),
                Outcome::Ok(None) => kinds.is_empty(),
                Outcome::Refused(_) => true,
            };
            if !mark.is_empty() || !answered_as_documented {
                wrong.push(format!(
                    "{} {}: got {} answered by {kinds:?}, documented {want:?}",
                    sender.name(),
                    kind.name(),
                    outcome.cell()
                ));
            }
        }
    }
    let refused = got.values().filter(|(o, _)| matches!(o, Outcome::Refused(_))).count();
    println!(
        "authorization matrix ({} cells, {refused} refused, {:.1} s):",
        got.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{table}");
    assert!(wrong.is_empty(), "cells that differ from docs/protocol.md:\n{}", wrong.join("\n"));
    // The server is still healthy after it all.
    let health = common::http_get(&format!("{}/api/health", server.http()), "application/json").await;
    assert_eq!(health.status, 200, "{}", health.body);
    server.shutdown().await;
}
