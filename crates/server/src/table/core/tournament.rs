//! A tournament's table: opened by the tournament's runner with every seat taken by the players the
//! director seated there, and started at once (its players are told and come; until they do, their
//! turns run on the clock and the bot plays for whoever is away). It is never abandoned, offers no
//! rematch, and at a duplicate tournament deals the round's deal.

use super::{Control, Now, Occupant, Phase, Seating, TableCore};
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::table::options::{GameChoice, TableOptions};

/// The table a tournament opens.
#[derive(Debug)]
pub(crate) struct TournamentTable {
    /// The table's id, from the director.
    pub(crate) id: TableId,
    /// Its options: no lobby listing, the tournament's clock and rating, `tournament` set.
    pub(crate) options: TableOptions,
    /// The tournament's game and options.
    pub(crate) game: GameChoice,
    /// Its players in seat order.
    pub(crate) seats: Vec<PlayerInfo>,
    /// The round's deal, at a duplicate tournament.
    pub(crate) deal: Option<romirami_tournament::Deal>,
}

impl TableCore {
    /// A tournament's table, every seat taken, its game's start asked for at once (the effect the task
    /// carries out first). Its host is the player in seat 0 (a host's powers are over once the game
    /// started).
    pub(crate) fn tournament(plan: TournamentTable, services: super::Shared, now: Now) -> TableCore {
        let host = plan.seats.first().map_or(PlayerId(uuid::Uuid::nil()), |p| p.id);
        let count = plan.seats.len();
        let seats = plan.seats.into_iter().map(|player| Some(Occupant { player, control: Control::Player })).collect();
        let invite = plan.id.0.simple().to_string();
        let config = (plan.options, plan.game);
        let mut core =
            TableCore::new(plan.id, invite, host, config, Seating::from_occupants(seats), Phase::Waiting, services);
        core.arriving = vec![true; count];
        core.came = vec![false; count];
        core.deal = plan.deal;
        core.check_waiting(now);
        core.begin_game(None, now);
        core
    }

    /// For each seat, whether its player never came to the table since it opened: the bot played every
    /// turn of theirs. (A table brought back after a restart counts nobody absent.)
    pub(crate) fn absent_seats(&self) -> Vec<bool> {
        (0..self.seating.len()).map(|i| self.came.get(i).is_some_and(|came| !came)).collect()
    }

    /// The tournament the table's game belongs to.
    pub(crate) fn tournament_id(&self) -> Option<uuid::Uuid> {
        self.options.tournament
    }
}
