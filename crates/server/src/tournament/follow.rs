//! Who follows a tournament, and which of its games are sealed, on this node.
//!
//! - [`Followers`]: the connections that follow a tournament (`tournament_subscribe`) share one channel
//!   per tournament on each node. The runner directing it writes there when it runs here; in a cluster
//!   the director's node also publishes each change on NATS and the other nodes write it into their own
//!   channel (`cluster.rs`), so a follower on any node sees every change, and keeps following when the
//!   tournament moves to another node.
//! - [`Sealed`]: the finished games of duplicate rounds still in play, which nothing shows yet.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use romirami_tournament::Director;
use tokio::sync::broadcast;
use uuid::Uuid;

use crate::protocol::PlayerId;
use crate::sync::lock;

/// Views buffered per follower before it counts as fallen behind.
const FOLLOW_BUFFER: usize = 16;

/// What a tournament's followers receive (`tournament_subscribe`), already serialized.
#[derive(Clone, Debug)]
pub(crate) enum Follow {
    /// `tournament`: its view, for every follower.
    View(Utf8Bytes),
    /// `tournament_table`: for the followers seated at it.
    Table {
        /// Who sits there.
        seats: Vec<PlayerId>,
        /// The message.
        text: Utf8Bytes,
    },
}

/// Leaders in a partial view.
const LEADERS: usize = 50;

/// The `tournament` message of a view.
pub(crate) fn view_message(view: &str) -> Utf8Bytes {
    let tournament = serde_json::from_str(view).unwrap_or_default();
    crate::wire::ServerMsg::Tournament { tournament }.to_json().into()
}

/// The `tournament` message a runner tells its followers: the whole view while it is at most `limit`
/// bytes, or the tournament is over; else a partial one (`"partial": true`): the view without its tables
/// and byes, each round with its tables counted (`in_play`, `finished`) and a deal in the making with its
/// awaited contributions counted (`contributions.waiting`), the first [`LEADERS`] lines of
/// the standings and only their players (`players_total` counts them all). A large tournament's view
/// goes to every one of its many followers at every change it tells: the partial one is a few KB
/// whatever its size; the whole view is at `GET /api/tournaments/{id}`, and a player's own table is
/// called to them all the same (`tournament_table`).
pub(crate) fn live_message(view: &str, limit: usize) -> Utf8Bytes {
    let Ok(mut tournament) = serde_json::from_str::<serde_json::Value>(view) else { return view_message(view) };
    if view.len() <= limit || tournament["state"] == "finished" {
        return crate::wire::ServerMsg::Tournament { tournament }.to_json().into();
    }
    if let Some(standings) = tournament["standings"].as_array_mut() {
        standings.truncate(LEADERS);
    }
    let leaders: HashSet<serde_json::Value> =
        tournament["standings"].as_array().into_iter().flatten().map(|line| line["player"].clone()).collect();
    let total = tournament["players"].as_array().map_or(0, Vec::len);
    if let Some(players) = tournament["players"].as_array_mut() {
        players.retain(|player| leaders.contains(&player["id"]));
    }
    tournament["players_total"] = total.into();
    tournament["partial"] = true.into();
    for round in tournament["rounds"].as_array_mut().into_iter().flatten() {
        let tables = round["tables"].as_array().map_or(&[][..], Vec::as_slice);
        let finished = tables.iter().filter(|table| table.get("places").is_some()).count();
        round["in_play"] = (tables.len() - finished).into();
        round["finished"] = finished.into();
        round["tables"] = serde_json::Value::Array(Vec::new());
        if let Some(round) = round.as_object_mut() {
            round.remove("byes");
        }
        // A deal in the making: how many contributions are awaited, not whose.
        if let Some(asked) = round.get_mut("contributions").and_then(serde_json::Value::as_object_mut) {
            let given = asked.remove("given");
            let waiting = given
                .as_ref()
                .and_then(serde_json::Value::as_array)
                .map_or(0, |given| given.iter().filter(|g| g.as_str() == Some("waiting")).count());
            asked.remove("players");
            asked.insert("waiting".into(), waiting.into());
        }
    }
    crate::wire::ServerMsg::Tournament { tournament }.to_json().into()
}

/// The channels of the tournaments followed on this node.
#[derive(Debug, Default)]
pub(crate) struct Followers(Mutex<HashMap<Uuid, broadcast::Sender<Follow>>>);

impl Followers {
    /// Follows the tournament `id`'s changes from now on.
    pub(crate) fn subscribe(&self, id: Uuid) -> broadcast::Receiver<Follow> {
        let mut channels = lock(&self.0);
        // The channels nobody follows any more go.
        channels.retain(|_, channel| channel.receiver_count() > 0);
        channels.entry(id).or_insert_with(|| broadcast::channel(FOLLOW_BUFFER).0).subscribe()
    }

    /// Tells the followers of `id` on this node.
    pub(crate) fn send(&self, id: Uuid, follow: Follow) {
        if let Some(channel) = lock(&self.0).get(&id) {
            // Nobody following is fine.
            let _ = channel.send(follow);
        }
    }
}

/// The finished games of duplicate rounds still in play: their deal is being played at the round's other
/// tables, so nothing of them is shown (no result, record, replay or analysis) until the round is over.
/// Kept from the directors: those run here, those read from the store at the start, and (in a cluster)
/// the other nodes' news.
#[derive(Debug, Default)]
pub(crate) struct Sealed(Mutex<HashSet<Uuid>>);

/// A director's duplicate tables: those of rounds in play (sealed), those of rounds over (shown).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Sealing {
    /// The tables of duplicate rounds in play.
    pub(crate) sealed: Vec<Uuid>,
    /// The tables of duplicate rounds over.
    pub(crate) shown: Vec<Uuid>,
}

impl Sealing {
    /// The sealing of `director`'s tables.
    pub(crate) fn of(director: &Director) -> Sealing {
        let mut sealing = Sealing::default();
        for round in director.rounds.iter().filter(|round| round.deal.is_some()) {
            let list = if round.is_over() { &mut sealing.shown } else { &mut sealing.sealed };
            list.extend(round.tables.iter().map(|table| table.id));
        }
        sealing
    }
}

impl Sealed {
    /// Seals and unseals as `sealing` says.
    pub(crate) fn apply(&self, sealing: &Sealing) {
        let mut sealed = lock(&self.0);
        for table in &sealing.shown {
            sealed.remove(table);
        }
        sealed.extend(sealing.sealed.iter().copied());
    }

    /// Seals the tables of `director`'s duplicate rounds in play, and unseals those of rounds over.
    pub(crate) fn follow(&self, director: &Director) {
        self.apply(&Sealing::of(director));
    }

    /// Whether the game at `table` is sealed.
    pub(crate) fn contains(&self, table: Uuid) -> bool {
        lock(&self.0).contains(&table)
    }
}
