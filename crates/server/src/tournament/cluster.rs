//! Tournaments in a cluster: one node directs each tournament, under a lease like a table's (kept in
//! `table_leases` under the tournament's id, renewed with the node's other leases, fencing every save of
//! the director); any node answers for it.
//!
//! - `CLUSTER.node.NODE.tournaments`: join, withdraw and pause requests for the tournaments NODE directs,
//!   sent by the node that got them over REST (NATS request and reply).
//! - `CLUSTER.tournament.ID`: the directing node's news of tournament ID — its view, a table's call, and
//!   which of its duplicate tables are sealed — which every node writes into its followers' channel.
//! - `CLUSTER.tournament_games`: each node's tournament games as their results are stored, for the
//!   director wherever it runs (it also reads the store now and then, so a lost message loses nothing).
//! - Takeover: every node looks, twice per lease length, for unfinished tournaments without a current
//!   lease (their node died, or never took one) and directs those whose lease it gets. The director is
//!   read back from the store as last saved: its planned tables open again only if they were never
//!   stored, so nothing is paired twice.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use romirami_tournament::Refusal;
use serde::{Deserialize, Serialize};
use tracing::{info, warn};
use uuid::Uuid;

use super::follow::{Follow, Sealing};
use super::{TournamentError, Tournaments};
use crate::lobby::TournamentGame;
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::table::Services;

/// How long a node waits for the directing node's answer.
const ASK_TIMEOUT: Duration = Duration::from_secs(5);
/// Tournaments taken over per round at most.
const BATCH: u32 = 50;

/// This node's way to the others.
#[derive(Clone, Debug)]
pub(crate) struct Link {
    nats: async_nats::Client,
    cluster: String,
    node: String,
}

/// What the directing node tells the others of a tournament.
#[derive(Debug, Serialize, Deserialize)]
struct News {
    /// The node that directs it.
    node: String,
    /// Its `tournament` message (its view), when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    view: Option<String>,
    /// A table's call (`tournament_table`), for the players seated at it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    table: Option<(Vec<PlayerId>, String)>,
    /// Its duplicate tables, sealed or shown.
    sealing: Sealing,
}

/// A request for the directing node.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Request {
    /// A player joins.
    Join { tournament: Uuid, player: PlayerInfo },
    /// A player withdraws.
    Withdraw { tournament: Uuid, player: PlayerId },
    /// A player pauses in an arena, or comes back.
    Pause { tournament: Uuid, player: PlayerId, paused: bool },
    /// A player contributes to a duplicate round's deal.
    Contribute { tournament: Uuid, player: PlayerId, value: romirami_game::commitment::Contribution },
}

impl Request {
    /// The tournament asked about.
    pub(crate) fn tournament(&self) -> Uuid {
        match self {
            Request::Join { tournament, .. }
            | Request::Withdraw { tournament, .. }
            | Request::Pause { tournament, .. }
            | Request::Contribute { tournament, .. } => *tournament,
        }
    }
}

/// The directing node's answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Done,
    Refused(Refusal),
    Unavailable,
}

impl Link {
    /// The link of `node` in `cluster`.
    pub(crate) fn new(nats: async_nats::Client, cluster: &str, node: &str) -> Link {
        Link { nats, cluster: cluster.to_owned(), node: node.to_owned() }
    }

    /// This node's id.
    pub(crate) fn node(&self) -> &str {
        &self.node
    }

    fn connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Tells the other nodes of a change of the tournament `id` this node directs.
    pub(crate) fn publish(&self, id: Uuid, follow: Option<&Follow>, sealing: Sealing) {
        let (mut view, mut table) = (None, None);
        match follow {
            Some(Follow::View(text)) => view = Some(text.as_str().to_owned()),
            Some(Follow::Table { seats, text }) => table = Some((seats.clone(), text.as_str().to_owned())),
            None => {}
        }
        let news = News { node: self.node.clone(), view, table, sealing };
        let Ok(body) = serde_json::to_vec(&news) else { return };
        let (nats, subject) = (self.nats.clone(), format!("{}.tournament.{id}", self.cluster));
        tokio::spawn(async move {
            if let Err(error) = nats.publish(subject, body.into()).await {
                warn!(tournament = %id, %error, "a tournament's news was not published");
            }
        });
    }

    /// Asks `owner`, the node directing the request's tournament.
    pub(crate) async fn ask(&self, owner: &str, request: &Request) -> Result<(), TournamentError> {
        let body = serde_json::to_vec(request).map_err(|_| TournamentError::Unavailable)?;
        let subject = format!("{}.node.{owner}.tournaments", self.cluster);
        let answer = tokio::time::timeout(ASK_TIMEOUT, self.nats.request(subject, body.into())).await;
        let Ok(Ok(message)) = answer else {
            warn!(tournament = %request.tournament(), owner, "the node directing a tournament did not answer");
            return Err(TournamentError::Unavailable);
        };
        match serde_json::from_slice(&message.payload) {
            Ok(Reply::Done) => Ok(()),
            Ok(Reply::Refused(refusal)) => Err(TournamentError::Refused(refusal)),
            Ok(Reply::Unavailable) | Err(_) => Err(TournamentError::Unavailable),
        }
    }
}

/// Starts this node's part: answering requests, relaying news and games, taking tournaments over.
///
/// # Errors
/// When NATS refuses a subscription.
pub(crate) async fn start(
    tournaments: &Arc<Tournaments>,
    link: Link,
    services: Services,
    lease_ttl: Duration,
) -> Result<(), String> {
    let requests = link.nats.subscribe(format!("{}.node.{}.tournaments", link.cluster, link.node));
    let news = link.nats.subscribe(format!("{}.tournament.*", link.cluster));
    let games = link.nats.subscribe(format!("{}.tournament_games", link.cluster));
    let (requests, news, games) = (
        requests.await.map_err(|e| e.to_string())?,
        news.await.map_err(|e| e.to_string())?,
        games.await.map_err(|e| e.to_string())?,
    );
    tokio::spawn(answer_requests(Arc::clone(tournaments), link.clone(), services.clone(), requests));
    tokio::spawn(relay_news(Arc::clone(tournaments), link.clone(), news));
    tokio::spawn(relay_games(link.clone(), services.clone(), games));
    tokio::spawn(take_over(Arc::clone(tournaments), link, services, lease_ttl));
    Ok(())
}

async fn answer_requests(
    tournaments: Arc<Tournaments>,
    link: Link,
    services: Services,
    mut requests: async_nats::Subscriber,
) {
    while let Some(message) = requests.next().await {
        let Some(reply_to) = message.reply.clone() else { continue };
        let (tournaments, nats, services) = (Arc::clone(&tournaments), link.nats.clone(), services.clone());
        tokio::spawn(async move {
            let reply = match serde_json::from_slice::<Request>(&message.payload) {
                Ok(request) => match tournaments.ask_here(&services, request).await {
                    Ok(()) => Reply::Done,
                    Err(TournamentError::Refused(refusal)) => Reply::Refused(refusal),
                    Err(_) => Reply::Unavailable,
                },
                Err(error) => {
                    warn!(%error, "a tournament request from another node does not read");
                    Reply::Unavailable
                }
            };
            if let Ok(body) = serde_json::to_vec(&reply) {
                let _ = nats.publish(reply_to, body.into()).await;
            }
        });
    }
}

async fn relay_news(tournaments: Arc<Tournaments>, link: Link, mut news: async_nats::Subscriber) {
    while let Some(message) = news.next().await {
        let Some(id) = message.subject.rsplit('.').next().and_then(|id| Uuid::parse_str(id).ok()) else { continue };
        let news: News = match serde_json::from_slice(&message.payload) {
            Ok(news) => news,
            Err(error) => {
                warn!(%error, "a tournament's news from another node does not read");
                continue;
            }
        };
        // This node's own news reached its followers already.
        if news.node == link.node {
            continue;
        }
        tournaments.shared.sealed.apply(&news.sealing);
        if let Some(message) = news.view {
            tournaments.shared.followers.send(id, Follow::View(message.into()));
        }
        if let Some((seats, text)) = news.table {
            tournaments.shared.followers.send(id, Follow::Table { seats, text: text.into() });
        }
    }
}

/// A tournament game as it crosses NATS: from the node whose table stored it.
#[derive(Debug, Serialize, Deserialize)]
struct Game {
    node: String,
    game: TournamentGame,
}

async fn relay_games(link: Link, services: Services, mut others: async_nats::Subscriber) {
    let mut own = services.lobby.tournament_games();
    loop {
        tokio::select! {
            game = own.recv() => match game {
                Ok(game) if !game.relayed => {
                    let Ok(body) = serde_json::to_vec(&Game { node: link.node.clone(), game }) else { continue };
                    let subject = format!("{}.tournament_games", link.cluster);
                    if let Err(error) = link.nats.publish(subject, body.into()).await {
                        warn!(%error, "a tournament's game was not told to the other nodes");
                    }
                }
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            message = others.next() => {
                let Some(message) = message else { return };
                match serde_json::from_slice::<Game>(&message.payload) {
                    Ok(Game { node, mut game }) if node != link.node => {
                        game.relayed = true;
                        services.lobby.tournament_game_stored(game);
                    }
                    Ok(_) => {}
                    Err(error) => warn!(%error, "a tournament's game from another node does not read"),
                }
            }
        }
    }
}

async fn take_over(tournaments: Arc<Tournaments>, link: Link, services: Services, lease_ttl: Duration) {
    // At the start, this node's own too: a node started again under its id takes them back at once (a
    // new grant fences its former life), as it does its tables. Later, its own are directed here already.
    let mut own = Some(link.node.clone());
    loop {
        // A node cut off from the others does not take their tournaments: it is the one to let go.
        if link.connected() {
            match services.store.undirected_tournaments(BATCH, own.take().as_deref()).await {
                Ok(rows) => {
                    let mut taken = 0;
                    for row in rows {
                        let id = row.id;
                        match services.claim(TableId(id)).await {
                            Ok(Some(fence)) => {
                                if tournaments.direct_stored(row, &services, fence) {
                                    taken += 1;
                                }
                            }
                            Ok(None) => {}
                            Err(error) => warn!(tournament = %id, %error, "a tournament's lease could not be taken"),
                        }
                    }
                    if taken > 0 {
                        info!(taken, "tournaments directed here from now on");
                    }
                }
                Err(error) => warn!(%error, "the tournaments to direct could not be read"),
            }
        }
        tokio::time::sleep(lease_ttl / 2).await;
    }
}
