//! Tournaments (docs/tournaments.md): Swiss and arena for every game, with duplicate deals.
//!
//! The rules are the director's (`romirami_tournament`, a core with no I/O). Here: creating one
//! (checked against the game: its table sizes and options), the runner that directs each tournament not
//! finished on this node (`runner.rs`), the requests that reach it (join, withdraw, pause), and what
//! anyone may read of one (its view, built from the stored director). A tournament's games are
//! ordinary games at ordinary tables (`table::tournament`).

mod cluster;
pub(crate) mod follow;
pub(crate) mod runner;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use romirami_tournament::{Director, Format, Refusal, Spec, Start};
use serde::Serialize;
use time::OffsetDateTime;
use tokio::sync::{broadcast, mpsc, oneshot};

use self::cluster::{Link, Request};
pub(crate) use self::follow::{Follow, view_message};
use self::follow::{Followers, Sealed};
use tracing::warn;
use utoipa::ToSchema;
use uuid::Uuid;

use self::runner::{Command, Runner};
use crate::protocol::{Clock, PlayerId, PlayerInfo, TableId};
use crate::store::{Fence, StoreError, TournamentRow};
use crate::sync::lock;
use crate::table::{GameChoice, Services};

/// Requests queued per runner before the sender waits.
const COMMAND_QUEUE: usize = 64;

/// What a new tournament is, as its creator asks (the body of `POST /api/tournaments`, read).
#[derive(Clone, Debug)]
pub struct NewTournament {
    /// The game, by name.
    pub game: String,
    /// Swiss (with its rounds) or arena (with its minutes).
    pub format: Format,
    /// Players per table.
    pub seats: u8,
    /// Every game's clock.
    pub clock: Clock,
    /// When it starts.
    pub start: Start,
    /// The most players.
    pub max_players: u32,
    /// Every table of a round plays the same deal.
    pub duplicate: bool,
    /// The game's options.
    pub options: Option<serde_json::Value>,
    /// Whether its games count for the ratings.
    pub rated: bool,
}

/// Why a tournament request fails.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The tournament asked for cannot be (a sentence for the creator).
    #[error("{0}")]
    Bad(String),
    /// The creator has as many tournaments open as allowed.
    #[error("you already have {0} tournaments that are not finished")]
    TooMany(u32),
    /// No such tournament.
    #[error("there is no such tournament")]
    NotFound,
    /// The director refuses.
    #[error("{0}")]
    Refused(Refusal),
    /// The store does not answer, or the tournament is directed by a node that cannot be reached now.
    #[error("the tournament cannot be reached now; try again later")]
    Unavailable,
}

impl From<StoreError> for TournamentError {
    fn from(error: StoreError) -> TournamentError {
        match error {
            StoreError::NotFound => TournamentError::NotFound,
            other => {
                warn!(error = %other, "a tournament request found the store failing");
                TournamentError::Unavailable
            }
        }
    }
}

/// A runner on this node.
#[derive(Debug, Clone)]
struct Live {
    commands: mpsc::Sender<Command>,
}

/// What the runners of this node share with the rest of it.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    /// The followers of tournaments on this node.
    pub(crate) followers: Followers,
    /// The games not to show yet.
    pub(crate) sealed: Sealed,
    /// The other nodes, in a cluster.
    pub(crate) link: OnceLock<Link>,
}

/// The tournaments this node directs, and what it knows of those directed elsewhere.
#[derive(Debug, Default)]
pub struct Tournaments {
    live: Mutex<HashMap<Uuid, Live>>,
    shared: Arc<Shared>,
}

/// A tournament as anyone may see it (`GET /api/tournaments/{id}`): its stored facts and its director's
/// view. Times are milliseconds since the Unix epoch.
#[derive(Serialize, ToSchema)]
pub struct TournamentJson {
    /// Its id.
    #[schema(value_type = String, format = Uuid)]
    pub id: Uuid,
    /// Its game.
    pub game: String,
    /// The game's options, in full.
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    /// Every game's clock.
    pub clock: Clock,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Who created it.
    pub created_by: PlayerId,
    /// When (RFC 3339).
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    /// What its director shows.
    #[serde(flatten)]
    pub view: romirami_tournament::View,
}

/// The JSON of `GET /api/tournaments/{id}` for the tournament `row` directed by `director`.
pub(crate) fn view_json(row: &TournamentRow, director: &Director) -> String {
    let options = serde_json::from_str(&row.options).unwrap_or_else(|_| serde_json::json!({}));
    let view = TournamentJson {
        id: row.id,
        game: row.game.clone(),
        options,
        clock: row.clock,
        rated: row.rated,
        created_by: row.created_by,
        created_at: row.created_at,
        view: director.view(),
    };
    serde_json::to_string(&view).unwrap_or_else(|_| "{}".into())
}

/// The director stored in `row`.
fn director_of(row: &TournamentRow) -> Result<Director, StoreError> {
    serde_json::from_str(&row.director).map_err(|e| StoreError::Corrupt(format!("tournament {}: {e}", row.id)))
}

impl Tournaments {
    /// Creates a tournament for `creator` (who keeps their name) and starts directing it here.
    ///
    /// # Errors
    /// [`TournamentError::Bad`] for a game, size, clock or shape that cannot be;
    /// [`TournamentError::TooMany`]; [`TournamentError::Unavailable`].
    pub async fn create(
        &self,
        services: &Services,
        creator: &PlayerInfo,
        new: NewTournament,
    ) -> Result<Uuid, TournamentError> {
        let game = GameChoice::choose(&services.config.games, Some(&new.game), new.options.as_ref(), new.seats)
            .map_err(TournamentError::Bad)?;
        if !game.kind.seats().contains(&usize::from(new.seats)) {
            let (min, max) = (*game.kind.seats().start(), *game.kind.seats().end());
            return Err(TournamentError::Bad(format!("{} is played by {min} to {max} players", new.game)));
        }
        if !new.clock.is_valid() {
            return Err(TournamentError::Bad(format!(
                "a turn lasts {} ms to {} ms, and a reserve at most {} ms",
                Clock::MIN_TURN_MS,
                Clock::MAX_MS,
                Clock::MAX_MS
            )));
        }
        let pause = u64::try_from(services.config.tournament_round_pause.as_millis()).unwrap_or(u64::MAX);
        let spec = Spec {
            format: new.format,
            seats: new.seats,
            duplicate: new.duplicate,
            max_players: new.max_players,
            start: new.start,
            round_pause_ms: pause,
            minute_ms: u64::try_from(services.config.tournament_minute.as_millis()).unwrap_or(u64::MAX).max(1),
            // A duplicate round's players contribute to its deal as a table's do, for as long.
            deal_wait_ms: u64::try_from(services.config.contribution_wait.as_millis()).unwrap_or(u64::MAX),
        };
        spec.check().map_err(|e| TournamentError::Bad(e.to_string()))?;
        let most = services.config.max_open_tournaments_per_player;
        if services.store.open_tournaments_by(creator.id).await? >= most {
            return Err(TournamentError::TooMany(most));
        }
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(|_| TournamentError::Unavailable)?;
        let director = Director::new(spec, secret);
        let row = TournamentRow {
            id: Uuid::new_v4(),
            game: game.kind.name().to_owned(),
            options: game.options.get().to_owned(),
            clock: new.clock,
            rated: new.rated,
            created_by: creator.id,
            created_at: OffsetDateTime::now_utc(),
            state: director.phase.name().to_owned(),
            director: serde_json::to_string(&director).map_err(|_| TournamentError::Unavailable)?,
        };
        // In a cluster the new tournament is this node's: its id is fresh, so its lease is free.
        let Some(fence) = services.claim(TableId(row.id)).await? else { return Err(TournamentError::Unavailable) };
        services.store.create_tournament(&row).await?;
        let id = row.id;
        self.direct(row, director, game, services.clone(), fence);
        Ok(id)
    }

    /// Starts the runner of `row` here, under `fence` in a cluster.
    fn direct(
        &self,
        row: TournamentRow,
        director: Director,
        game: GameChoice,
        services: Services,
        fence: Option<Fence>,
    ) {
        let (commands, inbox) = mpsc::channel(COMMAND_QUEUE);
        let id = row.id;
        let mut live = lock(&self.live);
        // The runners of finished tournaments are gone: their entries go too.
        live.retain(|_, runner| !runner.commands.is_closed());
        live.insert(id, Live { commands });
        drop(live);
        self.shared.sealed.follow(&director);
        let runner = Runner::new(row, director, game, services, Arc::clone(&self.shared), fence);
        tokio::spawn(runner.run(inbox));
    }

    /// Whether a runner directs `id` on this node.
    fn directs(&self, id: Uuid) -> bool {
        lock(&self.live).get(&id).is_some_and(|live| !live.commands.is_closed())
    }

    /// Directs the stored tournament `row` here (its lease, in a cluster, is `fence`), unless it is
    /// directed here already or does not read. Whether it now is.
    fn direct_stored(&self, row: TournamentRow, services: &Services, fence: Option<Fence>) -> bool {
        if self.directs(row.id) {
            return false;
        }
        let director = match director_of(&row) {
            Ok(director) => director,
            Err(error) => {
                warn!(tournament = %row.id, %error, "a stored tournament does not read; it stays in the store");
                return false;
            }
        };
        let options = serde_json::from_str(&row.options).ok();
        match GameChoice::choose(&services.config.games, Some(&row.game), options.as_ref(), director.spec.seats) {
            Ok(game) => {
                self.direct(row, director, game, services.clone(), fence);
                true
            }
            Err(problem) => {
                warn!(tournament = %row.id, %problem, "a stored tournament's game cannot be played here");
                false
            }
        }
    }

    /// Directs here every tournament the store holds as not finished (a single server after a start).
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn restore(&self, services: &Services) -> Result<usize, StoreError> {
        let rows = services.store.unfinished_tournaments().await?;
        Ok(rows.into_iter().filter(|row| self.direct_stored(row.clone(), services, None)).count())
    }

    /// Joins this node's cluster: seals what the stored tournaments seal, answers for the tournaments it
    /// directs, follows the others', and takes over those no node directs (`cluster.rs`).
    ///
    /// # Errors
    /// When the store cannot be read or NATS refuses a subscription.
    pub(crate) async fn join_cluster(
        self: &Arc<Self>,
        services: &Services,
        nats: async_nats::Client,
        cluster: &str,
        node: &str,
        lease_ttl: std::time::Duration,
    ) -> Result<(), String> {
        self.seal_stored(services).await.map_err(|e| e.to_string())?;
        let link = Link::new(nats, cluster, node);
        let _ = self.shared.link.set(link.clone());
        cluster::start(self, link, services.clone(), lease_ttl).await
    }

    /// Seals the games of the duplicate rounds in play of every stored tournament.
    async fn seal_stored(&self, services: &Services) -> Result<(), StoreError> {
        for row in services.store.unfinished_tournaments().await? {
            if let Ok(director) = director_of(&row) {
                self.shared.sealed.follow(&director);
            }
        }
        Ok(())
    }

    /// Asks for `request`: of the runner here, or (in a cluster) of the node that directs the tournament.
    async fn ask(&self, services: &Services, request: Request) -> Result<(), TournamentError> {
        let id = request.tournament();
        if !self.directs(id)
            && let Some(link) = self.shared.link.get()
            && let Some(lease) = services.store.lease(TableId(id)).await?
            && lease.fence.node != link.node()
            && lease.expires_at > OffsetDateTime::now_utc()
        {
            return link.ask(&lease.fence.node, &request).await;
        }
        self.ask_here(services, request).await
    }

    /// Asks the runner of this node for `request`.
    async fn ask_here(&self, services: &Services, request: Request) -> Result<(), TournamentError> {
        let id = request.tournament();
        let live = lock(&self.live).get(&id).cloned();
        let Some(live) = live.filter(|live| !live.commands.is_closed()) else {
            // Not directed here: finished (or no such tournament), or another node's, or none's for a
            // moment (its node died, and another takes it over).
            let row = services.store.tournament(id).await?;
            return Err(if row.state == "finished" {
                TournamentError::Refused(Refusal::Closed)
            } else {
                TournamentError::Unavailable
            });
        };
        let (reply, answer) = oneshot::channel();
        let command = match request {
            Request::Join { player, .. } => Command::Join { player, reply },
            Request::Withdraw { player, .. } => Command::Withdraw { player, reply },
            Request::Pause { player, paused, .. } => Command::Pause { player, paused, reply },
            Request::Contribute { player, value, .. } => Command::Contribute { player, value, reply },
        };
        live.commands.send(command).await.map_err(|_| TournamentError::Refused(Refusal::Closed))?;
        match answer.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(Some(refusal))) => Err(TournamentError::Refused(refusal)),
            Ok(Err(None)) => Err(TournamentError::Unavailable),
            // The runner ended meanwhile: the tournament finished, or moved to another node.
            Err(_) => match services.store.tournament(id).await?.state.as_str() {
                "finished" => Err(TournamentError::Refused(Refusal::Closed)),
                _ => Err(TournamentError::Unavailable),
            },
        }
    }

    /// `player` joins the tournament `id`.
    ///
    /// # Errors
    /// See [`TournamentError`].
    pub async fn join(&self, services: &Services, id: Uuid, player: PlayerInfo) -> Result<(), TournamentError> {
        self.ask(services, Request::Join { tournament: id, player }).await
    }

    /// `player` withdraws from the tournament `id`.
    ///
    /// # Errors
    /// See [`TournamentError`].
    pub async fn withdraw(&self, services: &Services, id: Uuid, player: PlayerId) -> Result<(), TournamentError> {
        self.ask(services, Request::Withdraw { tournament: id, player }).await
    }

    /// `player` pauses in the arena `id`, or comes back.
    ///
    /// # Errors
    /// See [`TournamentError`].
    pub async fn pause(
        &self,
        services: &Services,
        id: Uuid,
        player: PlayerId,
        paused: bool,
    ) -> Result<(), TournamentError> {
        self.ask(services, Request::Pause { tournament: id, player, paused }).await
    }

    /// `player` contributes `value` to the deal of the tournament `id`'s duplicate round being dealt.
    ///
    /// # Errors
    /// See [`TournamentError`].
    pub async fn contribute(
        &self,
        services: &Services,
        id: Uuid,
        player: PlayerId,
        value: romirami_game::commitment::Contribution,
    ) -> Result<(), TournamentError> {
        self.ask(services, Request::Contribute { tournament: id, player, value }).await
    }

    /// What anyone may see of the tournament `id`, as JSON.
    ///
    /// # Errors
    /// [`StoreError::NotFound`], or when the store cannot be read or holds a bad director.
    pub async fn view(services: &Services, id: Uuid) -> Result<String, StoreError> {
        let row = services.store.tournament(id).await?;
        Ok(view_json(&row, &director_of(&row)?))
    }

    /// The newest tournaments (of `state`, or every one; won by `winner`, or by anyone), each as its view.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn list(
        services: &Services,
        state: Option<&str>,
        winner: Option<PlayerId>,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        let rows = services.store.tournaments(state, winner, limit).await?;
        Ok(rows.iter().filter_map(|row| Some(view_json(row, &director_of(row).ok()?))).collect())
    }

    /// Whether the finished game at `table` belongs to a duplicate round still in play: nothing of it is
    /// shown until every table of its round finished.
    pub fn is_sealed(&self, table: TableId) -> bool {
        self.shared.sealed.contains(table.0)
    }

    /// Stops every runner of this node (at a shutdown): each ends at its next step, with everything it
    /// did stored.
    pub fn stop_all(&self) {
        lock(&self.live).clear();
    }

    /// Follows the tournament `id`'s changes, wherever it is directed.
    pub(crate) fn follow(&self, id: Uuid) -> broadcast::Receiver<Follow> {
        self.shared.followers.subscribe(id)
    }
}
