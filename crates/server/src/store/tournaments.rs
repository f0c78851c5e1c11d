//! Tournaments in the store: each is its director, stored whole as JSON after every change
//! (`crate::tournament`), with the columns its lists filter on beside it.

use time::OffsetDateTime;
use uuid::Uuid;

use super::backend::Tournaments;
use super::{Fence, Store, StoreError};
use crate::protocol::{Clock, PlayerId};

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id.
    pub id: Uuid,
    /// Its game, by name.
    pub game: String,
    /// The game's options, as the JSON text the game wrote.
    pub options: String,
    /// Every game's clock.
    pub clock: Clock,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Who created it (a kept name's player).
    pub created_by: PlayerId,
    /// When.
    pub created_at: OffsetDateTime,
    /// `waiting`, `running` or `finished`.
    pub state: String,
    /// The director, as JSON (`romirami_tournament::Director`): secret included, never served as is.
    pub director: String,
}

impl Store {
    /// Stores a new tournament.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn create_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        dispatch!(self, s => s.create_tournament(row).await)
    }

    /// Stores a tournament's director and state after a change, with its winner once it is finished. In a
    /// cluster the write carries the directing node's `fence` (its lease on the tournament, kept in
    /// `table_leases` under the tournament's id): a node that lost the tournament writes nothing.
    ///
    /// # Errors
    /// When the write fails, [`StoreError::Fenced`] when `fence` is not the tournament's current lease,
    /// or there is no such tournament ([`StoreError::NotFound`]).
    pub async fn save_tournament(
        &self,
        id: Uuid,
        state: &str,
        director: &str,
        winner: Option<PlayerId>,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.save_tournament(id, state, director, winner, fence).await)
    }

    /// The tournament `id`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`], or when the store cannot be read.
    pub async fn tournament(&self, id: Uuid) -> Result<TournamentRow, StoreError> {
        dispatch!(self, s => s.tournament(id).await)?.ok_or(StoreError::NotFound)
    }

    /// The newest tournaments (at most `limit`), of one state or of every one, won by `winner` or by
    /// anyone.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn tournaments(
        &self,
        state: Option<&str>,
        winner: Option<PlayerId>,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        dispatch!(self, s => s.tournaments(state, winner, i64::from(limit)).await)
    }

    /// Every tournament not finished, oldest first: those a node directs after a start.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        dispatch!(self, s => s.unfinished_tournaments().await)
    }

    /// Tournaments not finished that no node directs (never leased, or their lease ran out), and those
    /// whose lease names `node` (a node started again under its id takes its own back at once), oldest
    /// first, at most `limit`: for a node of a cluster to take over.
    ///
    /// # Errors
    /// When the store cannot be read, or it is SQLite (leases are PostgreSQL's).
    pub async fn undirected_tournaments(
        &self,
        limit: u32,
        node: Option<&str>,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        dispatch!(self, s => s.undirected_tournaments(i64::from(limit), node).await)
    }

    /// The tables opened for the tournament `id`, oldest first (for checks: each is one of its director's).
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn tournament_tables(&self, id: Uuid) -> Result<Vec<crate::protocol::TableId>, StoreError> {
        dispatch!(self, s => s.tournament_tables(id).await)
    }

    /// How many tournaments `player` created that are not finished.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn open_tournaments_by(&self, player: PlayerId) -> Result<u32, StoreError> {
        let count = dispatch!(self, s => s.open_tournaments_by(player).await)?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }
}
