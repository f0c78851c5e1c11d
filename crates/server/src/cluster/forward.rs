//! Any node, any table: a client connects to any node and plays, watches or hosts at any table. The node
//! that holds the client's connection (the origin) forwards its table commands to the table's owner over
//! NATS, and the owner sends each message meant for that connection back to the origin alone.
//!
//! - `CLUSTER.node.NODE.in`: the commands for the tables NODE owns, each with the origin node, the origin's
//!   connection number and the player (a [`Forward`]).
//! - `CLUSTER.node.NODE.out`: the messages for NODE's connections, each the text the table wrote for that one
//!   connection, with the connection's number in the `conn` header. What a seat may see goes only to the
//!   node holding that seat's connection: no other node receives it.
//!
//! On the origin, a remote table is a [`TableHandle`] like a local one, whose commands a small task
//! forwards; ws.rs does not know the difference. On the owner, each remote connection is a member of the
//! table like a local one, whose outbox a small task drains onto NATS.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, mpsc};
use tracing::{debug, warn};

use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, PlayerInfo, TableId};
use crate::store::Store;
use crate::sync::lock;
use crate::table::{ConnId, Outbox, Outgoing, Sender, TableCommand, TableHandle, finished};
use crate::wire::ServerMsg;

/// A remote table's forwarding task on the origin ends after this long without a command; the next command
/// finds the table again.
const IDLE: Duration = Duration::from_secs(600);
/// Commands waiting for NATS, per remote table.
const QUEUE: usize = 256;
/// Messages waiting for NATS, per remote connection on the owner.
const OUTBOX: usize = 1024;
/// The owner numbers its remote connections from here, apart from its own connections' numbers.
const FIRST_PROXY: u64 = 1 << 48;
/// The header of an owner's news that it does not run a table (its id), on the origin's `out` subject.
const NOT_HERE: &str = "not-here";
/// The header naming the node that sends that news.
const OWNER: &str = "owner";
/// The header naming the origin's process a message is for.
const INCARNATION: &str = "incarnation";

/// A table command as it crosses NATS.
#[derive(Debug, Serialize, Deserialize)]
struct Forward {
    /// The node holding the connection.
    origin: String,
    /// The origin's process (its [`Forwarding::incarnation`]): a node restarted under its id numbers its
    /// connections from the start again, and must not be taken for the one before.
    #[serde(default)]
    incarnation: u64,
    /// The connection's number there.
    conn: u64,
    /// The connection's player (none for a detach).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<PlayerInfo>,
    /// The table.
    table: TableId,
    /// What the connection asks.
    command: Command,
}

/// The table commands, without their sender.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Command {
    Join {
        invite: Option<String>,
        since: Option<usize>,
    },
    Watch {
        invite: Option<String>,
        since: Option<usize>,
    },
    Leave,
    Detach,
    Start,
    Kick {
        seat: romirami_game::Seat,
    },
    AddBot {
        #[serde(default)]
        level: romirami_game::Level,
    },
    History {
        from_event: usize,
    },
    Act {
        id: u64,
        action: serde_json::Value,
    },
    Chat {
        text: String,
    },
    Mute {
        player: crate::protocol::PlayerId,
        muted: bool,
    },
    Contribute {
        value: romirami_game::commitment::Contribution,
    },
    Rematch {
        accept: bool,
    },
    Moderate {
        act: crate::table::ModerationAct,
    },
}

/// This node's forwarding, both ways.
#[derive(Debug)]
pub(crate) struct Forwarding {
    node: String,
    cluster: String,
    nats: async_nats::Client,
    store: Store,
    lobby: Arc<Lobby>,
    games: romirami_game::Games,
    /// Origin side: this node's connections that have commands at remote tables, by number.
    local: Mutex<HashMap<ConnId, Outbox>>,
    /// Origin side: the remote tables in use, by id.
    remote: Mutex<HashMap<TableId, Remote>>,
    /// Origin side: this node's connections that joined or watch each remote table.
    members: Mutex<HashMap<TableId, HashSet<ConnId>>>,
    /// This process, among the lives of this node id: a random number drawn at start.
    incarnation: u64,
    /// Owner side: the other nodes' connections at this node's tables, by node, its incarnation and the
    /// connection's number there.
    proxies: Mutex<HashMap<(String, u64, u64), Sender>>,
    next_proxy: AtomicU64,
}

/// A remote table, on the origin.
#[derive(Debug)]
struct Remote {
    handle: TableHandle,
    owner: String,
    /// Since when this node forwards to that owner.
    since: std::time::Instant,
    /// Stops the forwarding task: the owner is gone.
    stop: Arc<Notify>,
}

impl Forwarding {
    /// Starts forwarding for `node`: subscribes to its two subjects and runs their tasks.
    pub(super) async fn start(
        nats: &async_nats::Client,
        cluster: &str,
        node: &str,
        store: &Store,
        lobby: &Arc<Lobby>,
        games: &romirami_game::Games,
    ) -> Result<Arc<Forwarding>, String> {
        let inbox = nats.subscribe(format!("{cluster}.node.{node}.in")).await.map_err(|e| e.to_string())?;
        let outbox = nats.subscribe(format!("{cluster}.node.{node}.out")).await.map_err(|e| e.to_string())?;
        let forwarding = Arc::new(Forwarding {
            node: node.into(),
            cluster: cluster.into(),
            nats: nats.clone(),
            store: store.clone(),
            lobby: Arc::clone(lobby),
            games: games.clone(),
            local: Mutex::default(),
            remote: Mutex::default(),
            members: Mutex::default(),
            incarnation: uuid::Uuid::new_v4().as_u64_pair().0,
            proxies: Mutex::default(),
            next_proxy: AtomicU64::new(FIRST_PROXY),
        });
        tokio::spawn(Arc::clone(&forwarding).serve_inbox(inbox));
        tokio::spawn(Arc::clone(&forwarding).deliver(outbox));
        Ok(forwarding)
    }

    /// The table `id` when another node owns it: a handle whose commands go to that node.
    pub(crate) async fn table(self: &Arc<Self>, id: TableId) -> Option<TableHandle> {
        if let Some(remote) = lock(&self.remote).get(&id).filter(|r| !r.handle.is_closed()) {
            return Some(remote.handle.clone());
        }
        let lease = match self.store.lease(id).await {
            Ok(lease) => lease?,
            Err(error) => {
                warn!(table = %id, %error, "a table's owner could not be looked up");
                return None;
            }
        };
        if lease.fence.node == self.node || lease.expires_at <= time::OffsetDateTime::now_utc() {
            return None;
        }
        // Several connections may look the owner up at once: the first to get here makes the one remote table
        // they all share. (Another one, out of the map, would be missed when its owner is gone, and its
        // connections would forward to a dead node.)
        let mut remotes = lock(&self.remote);
        if let Some(remote) = remotes.get(&id).filter(|r| !r.handle.is_closed()) {
            return Some(remote.handle.clone());
        }
        let (commands, inbox) = mpsc::channel(QUEUE);
        let handle = TableHandle::new(id, commands);
        let stop = Arc::new(Notify::new());
        let remote = Remote {
            handle: handle.clone(),
            owner: lease.fence.node.clone(),
            since: std::time::Instant::now(),
            stop: Arc::clone(&stop),
        };
        debug!(table = %id, owner = %lease.fence.node, node = %self.node, "forwarding to the table's owner");
        remotes.insert(id, remote);
        tokio::spawn(Arc::clone(self).forward(id, lease.fence.node, inbox, stop));
        Some(handle)
    }

    /// A node is gone (it stopped saying it is alive): this node's connections at its tables are told that
    /// their table moves, and join it again wherever it is taken over.
    pub(crate) fn node_gone(&self, node: &str) {
        let gone: Vec<(TableId, Arc<Notify>)> = lock(&self.remote)
            .iter()
            .filter(|(_, remote)| remote.owner == node)
            .map(|(id, remote)| (*id, Arc::clone(&remote.stop)))
            .collect();
        for (table, stop) in gone {
            debug!(%table, owner = %node, node = %self.node, "the table's owner is gone");
            lock(&self.remote).remove(&table);
            stop.notify_one();
            let conns = lock(&self.members).remove(&table).unwrap_or_default();
            let moved = ServerMsg::error(
                Some(table),
                None,
                ErrorCode::TableMoved,
                "this table moved to another server of the site; join it again to carry on",
            );
            for conn in conns {
                if let Some(outbox) = lock(&self.local).get(&conn) {
                    outbox.send_msg(&moved);
                }
            }
        }
    }

    /// The owners this node has forwarded to for at least `silence` and that `heard` has not heard of: gone,
    /// as far as this node can tell. (A node that started after an owner died never hears that owner, so its
    /// silence is not noticed as a node going quiet: without this, its connections would forward to a dead
    /// node for ever.)
    pub(crate) fn unheard_owners(&self, heard: impl Fn(&str) -> bool, silence: Duration) -> Vec<String> {
        let mut owners: Vec<String> = lock(&self.remote)
            .values()
            .filter(|remote| remote.since.elapsed() >= silence && !heard(&remote.owner))
            .map(|remote| remote.owner.clone())
            .collect();
        owners.sort_unstable();
        owners.dedup();
        owners
    }

    /// Origin side: forwards a remote table's commands to its owner, until idle.
    async fn forward(
        self: Arc<Self>,
        table: TableId,
        owner: String,
        mut commands: mpsc::Receiver<TableCommand>,
        stop: Arc<Notify>,
    ) {
        let subject = format!("{}.node.{owner}.in", self.cluster);
        loop {
            let command = tokio::select! {
                command = tokio::time::timeout(IDLE, commands.recv()) => match command {
                    Ok(Some(command)) => command,
                    _ => break,
                },
                () = stop.notified() => return,
            };
            let (conn, player, command) = match command {
                TableCommand::Detach { conn } => {
                    self.remember(table, conn, false);
                    (conn, None, Command::Detach)
                }
                other => {
                    let Some(from) = other.sender().cloned() else { continue };
                    lock(&self.local).insert(from.conn, from.out.clone());
                    match &other {
                        TableCommand::Join { .. } | TableCommand::Watch { .. } => self.remember(table, from.conn, true),
                        TableCommand::Leave { .. } => self.remember(table, from.conn, false),
                        _ => {}
                    }
                    (from.conn, Some(from.player.clone()), wire(other))
                }
            };
            let forward = Forward {
                origin: self.node.clone(),
                incarnation: self.incarnation,
                conn: conn.0,
                player,
                table,
                command,
            };
            match serde_json::to_vec(&forward) {
                Ok(payload) => {
                    crate::metrics::forwarded("commands_out");
                    if let Err(error) = self.nats.publish(subject.clone(), payload.into()).await {
                        warn!(%table, %error, "a command could not be forwarded to the table's node");
                    }
                }
                Err(error) => warn!(%error, "a forwarded command does not write"),
            }
        }
        // Idle: this remote table goes (unless it was replaced already).
        let mut remotes = lock(&self.remote);
        if remotes.get(&table).is_some_and(|remote| Arc::ptr_eq(&remote.stop, &stop)) {
            remotes.remove(&table);
        }
    }

    /// Origin side: notes that this node's connection `conn` is (or is no longer) at the remote `table`.
    fn remember(&self, table: TableId, conn: ConnId, at: bool) {
        let mut members = lock(&self.members);
        if at {
            members.entry(table).or_default().insert(conn);
        } else if let Some(conns) = members.get_mut(&table) {
            conns.remove(&conn);
            if conns.is_empty() {
                members.remove(&table);
            }
        }
    }

    /// Origin side: hands each message from an owner to the connection it is for.
    async fn deliver(self: Arc<Self>, mut messages: async_nats::Subscriber) {
        while let Some(message) = messages.next().await {
            let header = |name: &str| message.headers.as_ref().and_then(|h| h.get(name)).map(|v| v.as_str().to_owned());
            if let (Some(table), Some(owner)) = (header(NOT_HERE), header(OWNER)) {
                match table.parse() {
                    Ok(table) => self.forget_owner(TableId(table), &owner),
                    Err(_) => warn!("another node's news of a table names no table"),
                }
                continue;
            }
            // A message for the connections of this node's previous process (killed and restarted under
            // this id) is for nobody here: this process numbers its own connections from the start again.
            if header(INCARNATION).and_then(|v| v.parse::<u64>().ok()).is_some_and(|i| i != self.incarnation) {
                continue;
            }
            let conn = header("conn").and_then(|v| v.parse().ok());
            let (Some(conn), Ok(text)) = (conn, String::from_utf8(message.payload.to_vec())) else {
                warn!("a message from another node has no connection or is not text");
                continue;
            };
            crate::metrics::forwarded("messages_in");
            let outbox = lock(&self.local).get(&ConnId(conn)).cloned();
            if let Some(outbox) = outbox
                && !outbox.send(Outgoing::Text(text.into()))
            {
                lock(&self.local).remove(&ConnId(conn));
            }
        }
    }

    /// Owner side: runs the commands other nodes forward to this node's tables.
    async fn serve_inbox(self: Arc<Self>, mut inbox: async_nats::Subscriber) {
        while let Some(message) = inbox.next().await {
            let forward: Forward = match serde_json::from_slice(&message.payload) {
                Ok(forward) => forward,
                Err(error) => {
                    warn!(%error, "a forwarded command does not read");
                    continue;
                }
            };
            crate::metrics::forwarded("commands_in");
            self.run(forward).await;
        }
    }

    async fn run(&self, forward: Forward) {
        let key = (forward.origin.clone(), forward.incarnation, forward.conn);
        let table = forward.table;
        if let Command::Detach = forward.command {
            let proxy = lock(&self.proxies).remove(&key);
            if let (Some(proxy), Some(handle)) = (proxy, self.lobby.table(table)) {
                handle.send(TableCommand::Detach { conn: proxy.conn }).await;
            }
            return;
        }
        let Some(player) = forward.player else { return };
        let from = self.proxy(key, player);
        let command = unwire(forward.command, from.clone());
        let command = match self.lobby.table(table) {
            Some(handle) => match handle.send_or_return(command).await {
                Ok(()) => return,
                Err(command) => command,
            },
            None => command,
        };
        if !self.answer_finished(table, &command).await {
            debug!(%table, "a forwarded command for a table this node does not run");
            let id = match &command {
                TableCommand::Act { id, .. } => Some(*id),
                _ => None,
            };
            from.out.send_msg(&ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table"));
            self.not_here(&forward.origin, table).await;
        }
    }

    /// Owner side: tells the node `origin` that this node does not run `table` (it lost it, or has not taken
    /// it back yet after a restart), so that the origin looks its owner up again at the next command rather
    /// than forwarding to this node for ever.
    async fn not_here(&self, origin: &str, table: TableId) {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(NOT_HERE, table.0.to_string().as_str());
        headers.insert(OWNER, self.node.as_str());
        let subject = format!("{}.node.{origin}.out", self.cluster);
        if let Err(error) = self.nats.publish_with_headers(subject, headers, bytes::Bytes::new()).await {
            warn!(%table, %error, "another node was not told that a table is not here");
        }
    }

    /// Origin side: `owner` says it does not run `table`: the next command looks its owner up again (the
    /// connections there were told, by `table_moved` or `no_such_table`, and join it again).
    fn forget_owner(&self, table: TableId, owner: &str) {
        let mut remote = lock(&self.remote);
        if remote.get(&table).is_some_and(|r| r.owner == owner)
            && let Some(gone) = remote.remove(&table)
        {
            gone.stop.notify_one();
        }
    }

    /// A `join` or `watch` of a table that finished here is answered from the store, as ws.rs does.
    async fn answer_finished(&self, table: TableId, command: &TableCommand) -> bool {
        let games = (&self.store, &self.games);
        match command {
            TableCommand::Join { from, invite, .. } => {
                finished::answer(games, table, from, invite.as_deref(), false).await
            }
            TableCommand::Watch { from, invite, .. } => {
                finished::answer(games, table, from, invite.as_deref(), true).await
            }
            _ => false,
        }
    }

    /// The member that stands for another node's connection: made at its first command, with a task that
    /// sends what the table writes it to that node.
    fn proxy(&self, key: (String, u64, u64), player: PlayerInfo) -> Sender {
        let mut proxies = lock(&self.proxies);
        if let Some(sender) = proxies.get(&key) {
            return sender.clone();
        }
        let (out, mut queue, _too_slow) = Outbox::new(OUTBOX);
        let conn = ConnId(self.next_proxy.fetch_add(1, Ordering::Relaxed));
        let sender = Sender { conn, player, out };
        proxies.insert(key.clone(), sender.clone());
        let (nats, subject) = (self.nats.clone(), format!("{}.node.{}.out", self.cluster, key.0));
        tokio::spawn(async move {
            while let Some(Outgoing::Text(text)) = queue.recv().await {
                let mut headers = async_nats::HeaderMap::new();
                headers.insert("conn", key.2.to_string().as_str());
                headers.insert(INCARNATION, key.1.to_string().as_str());
                let payload = bytes::Bytes::copy_from_slice(text.as_str().as_bytes());
                crate::metrics::forwarded("messages_out");
                if let Err(error) = nats.publish_with_headers(subject.clone(), headers, payload).await {
                    warn!(%error, "a message for another node's connection was not sent");
                }
            }
        });
        sender
    }
}

/// A command as it crosses NATS.
fn wire(command: TableCommand) -> Command {
    match command {
        TableCommand::Join { invite, since, .. } => Command::Join { invite, since },
        TableCommand::Watch { invite, since, .. } => Command::Watch { invite, since },
        TableCommand::Leave { .. } => Command::Leave,
        TableCommand::Detach { .. } => Command::Detach,
        TableCommand::Start { .. } => Command::Start,
        TableCommand::Kick { seat, .. } => Command::Kick { seat },
        TableCommand::AddBot { level, .. } => Command::AddBot { level },
        TableCommand::History { from_event, .. } => Command::History { from_event },
        TableCommand::Act { id, action, .. } => Command::Act { id, action },
        TableCommand::Chat { text, .. } => Command::Chat { text },
        TableCommand::Mute { player, muted, .. } => Command::Mute { player, muted },
        TableCommand::Contribute { value, .. } => Command::Contribute { value },
        TableCommand::Rematch { accept, .. } => Command::Rematch { accept },
        TableCommand::Moderate { act, .. } => Command::Moderate { act },
    }
}

/// A command from NATS, sent by `from`.
fn unwire(command: Command, from: Sender) -> TableCommand {
    match command {
        Command::Join { invite, since } => TableCommand::Join { from, invite, since },
        Command::Watch { invite, since } => TableCommand::Watch { from, invite, since },
        Command::Leave => TableCommand::Leave { from },
        Command::Detach => TableCommand::Detach { conn: from.conn },
        Command::Start => TableCommand::Start { from },
        Command::Kick { seat } => TableCommand::Kick { from, seat },
        Command::AddBot { level } => TableCommand::AddBot { from, level },
        Command::History { from_event } => TableCommand::History { from, from_event },
        Command::Act { id, action } => TableCommand::Act { from, id, action },
        Command::Chat { text } => TableCommand::Chat { from, text },
        Command::Mute { player, muted } => TableCommand::Mute { from, player, muted },
        Command::Contribute { value } => TableCommand::Contribute { from, value },
        Command::Rematch { accept } => TableCommand::Rematch { from, accept },
        Command::Moderate { act } => TableCommand::Moderate { from, act },
    }
}
