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

/// A table command as it crosses NATS.
#[derive(Debug, Serialize, Deserialize)]
struct Forward {
    /// The node holding the connection.
    origin: String,
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
    Join { invite: Option<String>, since: Option<usize> },
    Watch { invite: Option<String>, since: Option<usize> },
    Leave,
    Detach,
    Start,
    Kick { seat: romirami_game::Seat },
    AddBot,
    History { from_event: usize },
    Act { id: u64, action: serde_json::Value },
    Chat { text: String },
    Mute { player: crate::protocol::PlayerId, muted: bool },
    Rematch { accept: bool },
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
    /// Owner side: the other nodes' connections at this node's tables.
    proxies: Mutex<HashMap<(String, u64), Sender>>,
    next_proxy: AtomicU64,
}

/// A remote table, on the origin.
#[derive(Debug)]
struct Remote {
    handle: TableHandle,
    owner: String,
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
        let (commands, inbox) = mpsc::channel(QUEUE);
        let handle = TableHandle::new(id, commands);
        let stop = Arc::new(Notify::new());
        let remote = Remote { handle: handle.clone(), owner: lease.fence.node.clone(), stop: Arc::clone(&stop) };
        lock(&self.remote).insert(id, remote);
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
            let forward = Forward { origin: self.node.clone(), conn: conn.0, player, table, command };
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
        lock(&self.remote).remove(&table);
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
            let conn = message.headers.as_ref().and_then(|h| h.get("conn")).and_then(|v| v.as_str().parse().ok());
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
        let key = (forward.origin.clone(), forward.conn);
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
    fn proxy(&self, key: (String, u64), player: PlayerInfo) -> Sender {
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
                headers.insert("conn", key.1.to_string().as_str());
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
        TableCommand::AddBot { .. } => Command::AddBot,
        TableCommand::History { from_event, .. } => Command::History { from_event },
        TableCommand::Act { id, action, .. } => Command::Act { id, action },
        TableCommand::Chat { text, .. } => Command::Chat { text },
        TableCommand::Mute { player, muted, .. } => Command::Mute { player, muted },
        TableCommand::Rematch { accept, .. } => Command::Rematch { accept },
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
        Command::AddBot => TableCommand::AddBot { from },
        Command::History { from_event } => TableCommand::History { from, from_event },
        Command::Act { id, action } => TableCommand::Act { from, id, action },
        Command::Chat { text } => TableCommand::Chat { from, text },
        Command::Mute { player, muted } => TableCommand::Mute { from, player, muted },
        Command::Rematch { accept } => TableCommand::Rematch { from, accept },
    }
}
