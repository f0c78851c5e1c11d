//! What every table shares with the rest of the server, and what a table's core gets of it.

use std::sync::Arc;

use super::core::{OsEntropy, Shared, TableConfig};
use crate::cluster::ownership::Ownership;
use crate::config::Config;
use crate::lobby::Lobby;
use crate::protocol::TableId;
use crate::store::{Committer, Fence, Store, StoreError, Writer};

/// What every table shares with the rest of the server.
#[derive(Clone, Debug)]
pub struct Services {
    /// The live tables.
    pub lobby: Arc<Lobby>,
    /// Settings and limits.
    pub config: Arc<Config>,
    /// What a table's core reads of `config`, made once when the server opens.
    pub(crate) table_config: Arc<TableConfig>,
    /// Where tables, games and results are kept.
    pub store: Store,
    /// Commits actions to the store in groups.
    pub committer: Committer,
    /// Commits the table's other writes (its creation, seats, start and finish) in groups.
    pub writer: Writer,
    /// In a cluster, the leases on the tables this node owns; `None` for a single server.
    pub(crate) ownership: Option<Arc<Ownership>>,
    /// Where the bots' decisions are made.
    pub(crate) bots: super::BotPool,
    /// Sends Web Push notifications.
    pub pusher: crate::push::Pusher,
}

impl Services {
    /// What a table's core gets of them.
    pub(super) fn shared(&self) -> Shared {
        Shared { lobby: self.lobby.clone(), config: self.table_config.clone(), entropy: Box::new(OsEntropy) }
    }

    /// Takes `table` for this node: `Some(None)` on a single server (nothing to take), `Some(Some(fence))`
    /// in a cluster when the lease is this node's now, `None` when another node holds it.
    pub(crate) async fn claim(&self, table: TableId) -> Result<Option<Option<Fence>>, StoreError> {
        match &self.ownership {
            None => Ok(Some(None)),
            Some(ownership) => Ok(ownership.claim(table).await?.map(Some)),
        }
    }
}

impl TableConfig {
    /// What a table needs of the server's settings (the shell's job: the core never sees `Config`).
    pub(crate) fn of(config: &Config) -> TableConfig {
        TableConfig {
            games: config.games.clone(),
            catch_up_limit: config.catch_up_limit,
            waiting_table_grace: config.waiting_table_grace,
            bot_delay: config.bot_delay,
            bot_retry: config.bot_retry,
            abandon_after: config.abandon_after,
            round_pause: config.round_pause,
            choice_time: config.choice_time,
            rematch_time: config.rematch_time,
            max_actions_per_game: config.max_actions_per_game,
            contribution_wait: config.contribution_wait,
        }
    }
}
