//! The lobby: the directory of every live table, and the public list that subscribers follow.
//!
//! Tables publish their summary here whenever it changes; the lobby keeps the public ones and
//! broadcasts each change, already serialized, to every subscribed connection. A subscriber that falls
//! behind the broadcast gets the whole list again.
//!
//! In a cluster, the lobby also lists the other nodes' public tables: the changes of this node's tables
//! go out to the cluster (`mirror_into`), and the others' come in (`apply_remote`, `remove_remote`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, RwLock};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{broadcast, mpsc};

use crate::protocol::{PlayerId, TableId, TableState, TableSummary};
use crate::sync::lock;
use crate::table::handle::TableHandle;
use crate::table::port::LobbyPort;
use crate::wire::ServerMsg;

/// Lobby changes buffered per subscriber before it counts as fallen behind.
const UPDATE_BUFFER: usize = 256;

/// A change of one of this node's public tables, for the rest of the cluster.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Listing {
    /// Listed, or changed (boxed: a summary is much larger than an id).
    Listed(Box<TableSummary>),
    /// No longer listed.
    Removed(TableId),
}

/// A tournament's game whose result was just stored (in a cluster also told to the other nodes, where
/// the tournament's director may be).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct TournamentGame {
    /// The tournament.
    pub(crate) tournament: uuid::Uuid,
    /// The game's table.
    pub(crate) table: TableId,
    /// For each seat, whether its player never came to the table (the bot played all their turns).
    pub(crate) absent: Vec<bool>,
    /// Whether it came from another node of the cluster (and so is not sent back to the others).
    #[serde(skip)]
    pub(crate) relayed: bool,
}

/// The live tables.
#[derive(Debug)]
pub struct Lobby {
    tables: RwLock<HashMap<TableId, TableHandle>>,
    public: Mutex<BTreeMap<TableId, TableSummary>>,
    open_by_host: Mutex<HashMap<PlayerId, usize>>,
    updates: broadcast::Sender<Utf8Bytes>,
    /// Where this node's listing changes go, in a cluster.
    mirror: OnceLock<mpsc::Sender<Listing>>,
    /// Whether a change could not be queued for the mirror: it must send every listing again.
    mirror_behind: AtomicBool,
    /// The tournaments' games of this node whose result was just stored, for the tournaments' runners
    /// (which also read the store now and then: a runner that falls behind misses nothing).
    tournament_games: broadcast::Sender<TournamentGame>,
    /// Every live table of this node by its seated players, public or not: each player's "my games".
    seated: Mutex<Seated>,
}

/// The summaries of a node's live tables, found by the players seated at them.
#[derive(Debug, Default)]
struct Seated {
    summaries: HashMap<TableId, TableSummary>,
    by_player: HashMap<PlayerId, BTreeSet<TableId>>,
}

impl Seated {
    fn players(summary: &TableSummary) -> impl Iterator<Item = PlayerId> + '_ {
        summary.seats.iter().flatten().map(|player| player.id)
    }

    fn put(&mut self, summary: &TableSummary) {
        self.remove(summary.id);
        for player in Seated::players(summary) {
            self.by_player.entry(player).or_default().insert(summary.id);
        }
        self.summaries.insert(summary.id, summary.clone());
    }

    fn remove(&mut self, id: TableId) {
        let Some(old) = self.summaries.remove(&id) else { return };
        for player in Seated::players(&old) {
            if let Some(tables) = self.by_player.get_mut(&player) {
                tables.remove(&id);
                if tables.is_empty() {
                    self.by_player.remove(&player);
                }
            }
        }
    }
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tables: RwLock::default(),
            public: Mutex::default(),
            open_by_host: Mutex::default(),
            updates: broadcast::channel(UPDATE_BUFFER).0,
            mirror: OnceLock::new(),
            mirror_behind: AtomicBool::new(false),
            tournament_games: broadcast::channel(UPDATE_BUFFER).0,
            seated: Mutex::default(),
        }
    }
}

impl Lobby {
    /// The game at `table` of `tournament` is over and its result stored.
    pub(crate) fn tournament_game_stored(&self, game: TournamentGame) {
        // Nobody listening is fine: the runner reads the store when it starts.
        let _ = self.tournament_games.send(game);
    }

    /// Follows the tournaments' games whose result is stored on this node.
    pub(crate) fn tournament_games(&self) -> broadcast::Receiver<TournamentGame> {
        self.tournament_games.subscribe()
    }

    /// The table with this id, if it is live.
    pub fn table(&self, id: TableId) -> Option<TableHandle> {
        self.tables.read().unwrap_or_else(|p| p.into_inner()).get(&id).cloned()
    }

    /// How many tables are live.
    pub fn table_count(&self) -> usize {
        self.tables.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub(crate) fn register(&self, handle: TableHandle) {
        self.tables.write().unwrap_or_else(|p| p.into_inner()).insert(handle.id, handle);
    }

    /// The summaries of this node's live tables where `player` sits (finished ones too, until they close).
    pub fn tables_of(&self, player: PlayerId) -> Vec<TableSummary> {
        let seated = lock(&self.seated);
        let ids = seated.by_player.get(&player).into_iter().flatten();
        ids.filter_map(|id| seated.summaries.get(id).cloned()).collect()
    }

    pub(crate) fn unregister(&self, id: TableId) {
        lock(&self.seated).remove(id);
        self.tables.write().unwrap_or_else(|p| p.into_inner()).remove(&id);
        self.remove_public(id);
    }

    fn remove_public(&self, id: TableId) {
        if self.unlist(id) {
            self.tell_mirror(Listing::Removed(id));
        }
    }

    /// Lists `summary`; true when that changed the list.
    fn list(&self, summary: &TableSummary) -> bool {
        let changed = lock(&self.public).insert(summary.id, summary.clone()).as_ref() != Some(summary);
        if changed {
            let _ = self.updates.send(ServerMsg::LobbyTable { table: summary.clone() }.to_json().into());
        }
        changed
    }

    /// Takes `id` off the list; true when it was listed.
    fn unlist(&self, id: TableId) -> bool {
        let listed = lock(&self.public).remove(&id).is_some();
        if listed {
            let _ = self.updates.send(ServerMsg::LobbyTableRemoved { table: id }.to_json().into());
        }
        listed
    }

    fn is_local(&self, id: TableId) -> bool {
        self.tables.read().unwrap_or_else(|p| p.into_inner()).contains_key(&id)
    }

    /// Sends this node's listing changes to `mirror` from now on, starting with every listing it has.
    pub(crate) fn mirror_into(&self, mirror: mpsc::Sender<Listing>) {
        if self.mirror.set(mirror).is_ok() {
            self.mirror_behind.store(true, Ordering::Relaxed);
        }
    }

    fn tell_mirror(&self, change: Listing) {
        if let Some(mirror) = self.mirror.get()
            && mirror.try_send(change).is_err()
        {
            // The mirror is behind (NATS is slow or away): it sends every listing again once it catches up.
            self.mirror_fell_behind();
        }
    }

    /// The mirror lost a change: it sends every listing again.
    pub(crate) fn mirror_fell_behind(&self) {
        self.mirror_behind.store(true, Ordering::Relaxed);
    }

    /// When the mirror fell behind since the last call: every public table of this node, to send again.
    pub(crate) fn listings_to_resend(&self) -> Option<Vec<TableSummary>> {
        if !self.mirror_behind.swap(false, Ordering::Relaxed) {
            return None;
        }
        let public = lock(&self.public).values().cloned().collect::<Vec<_>>();
        Some(public.into_iter().filter(|summary| self.is_local(summary.id)).collect())
    }

    /// Lists another node's public table (a change it sent through the cluster). A table this node runs
    /// is its own to list.
    pub(crate) fn apply_remote(&self, summary: &TableSummary) {
        if self.is_local(summary.id) {
            return;
        }
        if summary.public && summary.state != TableState::Finished {
            self.list(summary);
        } else {
            self.unlist(summary.id);
        }
    }

    /// Takes another node's table off the list.
    pub(crate) fn remove_remote(&self, id: TableId) {
        if !self.is_local(id) {
            self.unlist(id);
        }
    }

    /// The public tables, waiting or playing.
    pub fn public_tables(&self) -> Vec<TableSummary> {
        lock(&self.public).values().cloned().collect()
    }

    /// Follows the lobby: the current list, and a receiver of every later change.
    pub fn subscribe(&self) -> (ServerMsg, broadcast::Receiver<Utf8Bytes>) {
        // Subscribe first, so that no change between the two is lost (one may come twice).
        let receiver = self.updates.subscribe();
        (ServerMsg::Lobby { tables: self.public_tables() }, receiver)
    }
}

/// The tables' way in: each publishes its summary and counts its host's open tables here.
impl LobbyPort for Lobby {
    fn publish(&self, summary: &TableSummary) {
        lock(&self.seated).put(summary);
        if !summary.public {
            return;
        }
        // The lobby's list says nothing of turns: a move does not change it (its subscribers would be told
        // of every one). Its players' "my games" read them from `seated`.
        let listed = TableSummary { to_act: None, turn_ends_at: None, ..summary.clone() };
        let summary = &listed;
        if summary.state == TableState::Finished {
            self.remove_public(summary.id);
            return;
        }
        if self.list(summary) {
            self.tell_mirror(Listing::Listed(Box::new(summary.clone())));
        }
    }

    fn reserve_hosting(&self, host: PlayerId, max: usize) -> bool {
        let mut open = lock(&self.open_by_host);
        let count = open.entry(host).or_default();
        if *count >= max {
            return false;
        }
        *count += 1;
        true
    }

    fn release_hosting(&self, host: PlayerId) {
        let mut open = lock(&self.open_by_host);
        if let Some(count) = open.get_mut(&host) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&host);
            }
        }
    }
}
