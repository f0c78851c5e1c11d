//! What anyone may see of a tournament: its players, rounds, tables and standings, and its times. Never
//! its secret nor a round's deal, only the deal's commitment.

use serde::Serialize;
use utoipa::ToSchema;

use crate::deals::Deal;
use crate::director::Director;
use crate::spec::Millis;
use crate::state::{PlayerKey, Status, TableKey};

/// A tournament as the REST API and the live messages show it (the server adds its id, game and
/// options).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct View {
    /// `swiss` or `arena`.
    #[schema(value_type = String)]
    pub format: &'static str,
    /// Whether every table of a round plays the same deal.
    pub duplicate: bool,
    /// `waiting`, `running` or `finished`.
    #[schema(value_type = String)]
    pub state: &'static str,
    /// Players at each table.
    pub seats: u8,
    /// Swiss: how many rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds_planned: Option<u32>,
    /// Arena: how long the window lasts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// The most players.
    pub max_players: u32,
    /// When it starts (a start "when full" has none until it started).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<Millis>,
    /// When the next Swiss round is paired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_round_at: Option<Millis>,
    /// When an arena's window closes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<Millis>,
    /// Everyone who joined, in the order they joined.
    pub players: Vec<PlayerView>,
    /// The rounds (an arena's pairings).
    pub rounds: Vec<RoundView>,
    /// Best first.
    pub standings: Vec<StandingView>,
}

/// A duplicate round's deal in the making (never the values given: see `state::Dealing`).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ContributionsView {
    /// The round's players, in the order their contributions enter the deal.
    #[schema(value_type = Vec<String>)]
    pub players: Vec<PlayerKey>,
    /// Each one's: `waiting`, `player` (given by the player) or `server` (drawn by the server).
    #[schema(value_type = Vec<String>)]
    pub given: Vec<&'static str>,
    /// Until when they are awaited (Unix milliseconds).
    pub until: Millis,
}

/// A player of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerView {
    /// The player's id.
    #[schema(value_type = String, format = Uuid)]
    pub id: PlayerKey,
    /// Their name.
    pub name: String,
    /// `active`, `paused`, `withdrawn` or `absent` (withdrawn after games left to the bot).
    pub status: Status,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct RoundView {
    /// 1, 2, ...
    pub n: u32,
    /// The commitment to the round's deal (duplicate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_commitment: Option<String>,
    /// Its deal in the making (duplicate): whose contributions are in. Its tables open (and are shown)
    /// once all are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contributions: Option<ContributionsView>,
    /// Its tables.
    pub tables: Vec<TableView>,
    /// Who sat out with a bye.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<String>)]
    pub byes: Vec<PlayerKey>,
}

/// A table of a round.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TableView {
    /// The table (its game's id).
    #[schema(value_type = String, format = Uuid)]
    pub table: TableKey,
    /// Its players in seat order.
    #[schema(value_type = Vec<String>)]
    pub seats: Vec<PlayerKey>,
    /// Each seat's place, once finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u8>>,
    /// Each seat's tournament points, once finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<f64>>,
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct StandingView {
    /// The player.
    #[schema(value_type = String, format = Uuid)]
    pub player: PlayerKey,
    /// Points (to three decimals).
    pub points: f64,
    /// Games finished.
    pub games: u32,
    /// What breaks a tie on points (to three decimals).
    pub tiebreak: f64,
}

/// To three decimals, so that a third reads 0.333.
fn rounded(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl Director {
    /// What anyone may see.
    pub fn view(&self) -> View {
        let (rounds_planned, minutes) = match self.spec.format {
            crate::Format::Swiss { rounds } => (Some(rounds), None),
            crate::Format::Arena { minutes } => (None, Some(minutes)),
        };
        let starts_at = self.started_at.or(match self.spec.start {
            crate::Start::At(at) => Some(at),
            crate::Start::WhenFull => None,
        });
        View {
            format: self.spec.format.name(),
            duplicate: self.spec.duplicate,
            state: self.phase.name(),
            seats: self.spec.seats,
            rounds_planned,
            minutes,
            max_players: self.spec.max_players,
            starts_at,
            next_round_at: self.next_round_at,
            ends_at: self.ends_at(),
            players: self
                .players
                .iter()
                .map(|e| PlayerView { id: e.id, name: e.name.clone(), status: e.status })
                .collect(),
            rounds: self
                .rounds
                .iter()
                .map(|round| RoundView {
                    n: round.n,
                    seed_commitment: round.deal.as_ref().map(Deal::commitment),
                    contributions: round.dealing.as_ref().map(|dealing| ContributionsView {
                        players: dealing.players.clone(),
                        given: (0..dealing.players.len())
                            .map(|i| match (dealing.has(i), dealing.drawn.get(i).copied().unwrap_or(false)) {
                                (false, _) => "waiting",
                                (true, false) => "player",
                                (true, true) => "server",
                            })
                            .collect(),
                        until: dealing.until,
                    }),
                    // A round whose deal is being made has no table open yet: none is shown.
                    tables: round
                        .tables
                        .iter()
                        .filter(|_| !round.is_dealing())
                        .map(|table| TableView {
                            table: table.id,
                            seats: table.seats.clone(),
                            places: table.results.as_ref().map(|r| r.iter().map(|s| s.place).collect()),
                            points: crate::standings::table_points(round, table)
                                .map(|points| points.into_iter().map(rounded).collect()),
                        })
                        .collect(),
                    byes: round.byes.clone(),
                })
                .collect(),
            standings: self
                .standings()
                .into_iter()
                .map(|line| StandingView {
                    player: line.player,
                    points: rounded(line.points),
                    games: line.games,
                    tiebreak: rounded(line.tiebreak),
                })
                .collect(),
        }
    }
}
