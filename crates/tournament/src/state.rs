//! What a tournament holds: its players, and its rounds with their tables and results. The standings are
//! computed from these (`standings.rs`), never kept beside them.

use serde::{Deserialize, Serialize};

use romirami_game::commitment::Contribution;

use crate::deals::Deal;
use crate::spec::Millis;

/// A player, by the server's player id.
pub type PlayerKey = uuid::Uuid;
/// A table (and its game), by the server's table id.
pub type TableKey = uuid::Uuid;

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Taking joins; no table yet.
    Waiting,
    /// Playing.
    Running,
    /// Over: every table finished (or it never filled a table).
    Finished,
}

impl Phase {
    /// `waiting`, `running` or `finished`, as the REST API names it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Running => "running",
            Phase::Finished => "finished",
        }
    }
}

/// Whether a player is seated in the next rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Seated whenever a table is formed.
    Active,
    /// In an arena, not seated until they come back.
    Paused,
    /// Left at their request: kept in the standings, seated no more.
    Withdrawn,
    /// Withdrawn by the director after [`crate::ABSENCES`] games in a row played by the bot.
    Absent,
}

/// A player of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// The player.
    pub id: PlayerKey,
    /// Their name when they joined.
    pub name: String,
    /// Seated or not.
    pub status: Status,
    /// Games in a row in which the bot played every one of their turns.
    pub absences: u8,
    /// Since when they wait for a table (arena), when they are free.
    pub free_since: Millis,
}

/// One round (in an arena, one pairing: every table opened at once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// 1, 2, ...
    pub n: u32,
    /// In a duplicate tournament, the deal every table of the round plays.
    pub deal: Option<Deal>,
    /// Its tables.
    pub tables: Vec<Table>,
    /// The players left out of it when the numbers do not divide (Swiss).
    pub byes: Vec<PlayerKey>,
    /// When it was paired.
    pub started_at: Millis,
    /// In a duplicate tournament, the round's deal in the making: who gave their contribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealing: Option<Dealing>,
}

/// A duplicate round's deal in the making: every player of the round adds a contribution to it, as at a
/// table of its own, and its tables open once every one is in, or at `until`, when the server draws the
/// missing ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dealing {
    /// Until when the players' contributions are awaited.
    pub until: Millis,
    /// The round's players in the round's order: its tables in order, each in seat order.
    pub players: Vec<PlayerKey>,
    /// Each player's contribution once given. Shown to nobody before the deal is made: a player who saw
    /// the others' could choose theirs to steer it.
    #[serde(with = "crate::hex32::options")]
    values: Vec<Option<Contribution>>,
    /// Whether the server drew each (its player gave none in time).
    pub drawn: Vec<bool>,
}

impl Dealing {
    /// A deal that awaits the contributions of `players` until `until`.
    pub(crate) fn new(players: Vec<PlayerKey>, until: Millis) -> Dealing {
        let count = players.len();
        Dealing { until, players, values: vec![None; count], drawn: vec![false; count] }
    }

    /// Whether some contribution is still awaited.
    pub fn awaits(&self) -> bool {
        self.values.iter().any(Option::is_none)
    }

    /// Where `player` gives, if they are of the round.
    pub(crate) fn index_of(&self, player: PlayerKey) -> Option<usize> {
        self.players.iter().position(|p| *p == player)
    }

    /// Whether the `index`-th player's contribution is in.
    pub(crate) fn has(&self, index: usize) -> bool {
        self.values.get(index).is_some_and(Option::is_some)
    }

    /// The `index`-th player's contribution, given or drawn.
    pub(crate) fn set(&mut self, index: usize, value: &Contribution, drawn: bool) {
        if let (Some(slot), Some(by_server)) = (self.values.get_mut(index), self.drawn.get_mut(index)) {
            *slot = Some(*value);
            *by_server = drawn;
        }
    }

    /// The contributions in order, once every one is in.
    pub(crate) fn values(&self) -> Option<Vec<Contribution>> {
        self.values.iter().copied().collect()
    }
}

impl Round {
    /// Whether the round's deal still awaits contributions (its tables are not open yet).
    pub fn is_dealing(&self) -> bool {
        self.dealing.as_ref().is_some_and(Dealing::awaits)
    }

    /// Whether every table of the round finished.
    pub fn is_over(&self) -> bool {
        self.tables.iter().all(|table| table.results.is_some())
    }
}

/// A table of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Its id, which is its game's id.
    pub id: TableKey,
    /// Who sits where, in seat order.
    pub seats: Vec<PlayerKey>,
    /// Each seat's result, once the game finished.
    pub results: Option<Vec<SeatResult>>,
}

/// One seat's result at a finished table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatResult {
    /// 1 for the best; seats level share a place (1, 1, 3).
    pub place: u8,
    /// How far the seat's score is ahead of the mean of the others' at its table, in the game's points
    /// and direction (positive is good, whether the game counts penalty points or not): what tells two
    /// equal places apart when duplicate deals are compared.
    pub margin: i64,
    /// Whether the bot played every one of the seat's turns.
    pub absent: bool,
}

impl SeatResult {
    /// The results of a finished game from its places and scores by seat (as `romirami_game::Outcome`
    /// gives them) and whether each seat's player was absent. Which way scores count is read off the
    /// places: a seat placed better with a higher score means higher is better. When no two seats
    /// with different places have different scores, every margin is 0.
    pub fn of_game(places: &[u8], scores: &[i64], absent: &[bool]) -> Vec<SeatResult> {
        let mut direction = 0i64;
        for (i, (&place_i, &score_i)) in places.iter().zip(scores).enumerate() {
            for (&place_j, &score_j) in places.iter().zip(scores).skip(i + 1) {
                if place_i != place_j && score_i != score_j && direction == 0 {
                    let better_scores_higher = (place_i < place_j) == (score_i > score_j);
                    direction = if better_scores_higher { 1 } else { -1 };
                }
            }
        }
        let count = i64::try_from(scores.len()).unwrap_or(i64::MAX).max(2);
        let total: i64 = scores.iter().sum();
        places
            .iter()
            .zip(scores)
            .enumerate()
            .map(|(seat, (&place, &score))| {
                // Ahead of the others' mean, in whole points (rounded toward zero).
                let others = (total - score) / (count - 1);
                SeatResult {
                    place,
                    margin: direction * (score - others),
                    absent: absent.get(seat).copied().unwrap_or(false),
                }
            })
            .collect()
    }
}
