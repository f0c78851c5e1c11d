//! The writes other than actions, as the [`Writer`](super::Writer) gathers them and the backends write
//! them in batches, and the checks of a finish that both backends make before they write it.

use std::collections::HashSet;

use romirami_game::commitment::{Contribution, Salt, ShuffleProof};
use time::OffsetDateTime;

use super::codec::{RecordHead, details_to_json};
use super::{FinishedGame, GamePlayer, MAX_SEATS, Outcome, SeatResult, StoreError, TableRow};
use crate::protocol::{PlayerId, PlayerInfo, TableId};

/// One durable write other than an action: what [`Store::write`] writes in batches, for the
/// [`Writer`].
#[derive(Clone, Debug)]
pub(crate) enum Write {
    /// Stores a player, or renames one already stored.
    Player { player: PlayerInfo, token_hash: [u8; 32], at: OffsetDateTime },
    /// Stores a new table, and who sits where at it (`seats[i]` is seat `i`'s player).
    Table { table: TableRow, seats: Vec<Option<PlayerId>> },
    /// Replaces who sits where at a table that waits for its game: each seat's player, and whether
    /// the host gave it to a bot.
    Seats { table: TableId, seats: Vec<Option<(PlayerId, bool)>> },
    /// Stores the start of a table's game, with the salt of the commitment to its seed.
    Start {
        table: TableId,
        seed: u64,
        salt: Option<Salt>,
        contributions: Vec<Contribution>,
        players: Vec<GamePlayer>,
        started_at: OffsetDateTime,
    },
    /// Stores the end of a table's game: its record (whose `id` is the table's, see [`Write::finish`])
    /// and a result per seat, finished at the record's `finished_at`.
    Finish { table: TableId, finished: Box<FinishedGame>, finished_at: OffsetDateTime },
}

impl Write {
    /// The start of `table`'s game dealt with `shuffle`.
    pub(super) fn start(
        table: TableId,
        shuffle: &ShuffleProof,
        players: &[GamePlayer],
        started_at: OffsetDateTime,
    ) -> Write {
        Write::Start {
            table,
            seed: shuffle.server_seed,
            salt: Some(shuffle.salt),
            contributions: shuffle.contributions.clone(),
            players: players.to_vec(),
            started_at,
        }
    }

    pub(super) fn player(player: &PlayerInfo, token_hash: &[u8; 32]) -> Write {
        Write::Player { player: player.clone(), token_hash: *token_hash, at: OffsetDateTime::now_utc() }
    }

    /// The finish of `table`'s game, its record read here, by the caller, rather than by the task that
    /// writes the batch.
    pub(super) fn finish(table: TableId, finished: FinishedGame) -> Result<Write, StoreError> {
        let head = RecordHead::of(&finished.record)
            .map_err(|e| StoreError::Other(format!("the record of game {table} does not say which game it is: {e}")))?;
        if head.id != table.0 {
            return Err(StoreError::Other(format!("the record of game {} is not the record of {table}", head.id)));
        }
        Ok(Write::Finish { table, finished: Box::new(finished), finished_at: head.finished_at })
    }
}

/// A game's start, as a batch writes it.
pub(super) struct Start<'a> {
    pub(super) table: TableId,
    pub(super) seed: u64,
    /// The salt of the commitment to the seed; `None` for a game without a shuffle proof.
    pub(super) salt: Option<&'a Salt>,
    /// The seats' contributions to the deal; none for a game dealt from the seed alone.
    pub(super) contributions: &'a [Contribution],
    pub(super) players: &'a [GamePlayer],
    pub(super) started_at: OffsetDateTime,
}

/// A seat row: the table, the seat's number, its player, and whether the host gave it to a bot.
pub(super) type SeatRowOf = (TableId, i16, PlayerId, bool);

/// The writes of a batch by kind, each with its index in the batch: the backends write each kind with
/// one statement (PostgreSQL) or in one loop (SQLite), in this order, so that a write never depends on
/// a later kind.
#[derive(Default)]
pub(super) struct WritesByKind<'a> {
    pub(super) players: Vec<(&'a PlayerInfo, &'a [u8; 32], OffsetDateTime)>,
    pub(super) tables: Vec<&'a TableRow>,
    /// The seat rows of the new tables: table, seat number, player.
    pub(super) table_seats: Vec<SeatRowOf>,
    /// Tables whose seats are replaced (their other rows deleted).
    pub(super) reseated: Vec<TableId>,
    /// Their new seat rows.
    pub(super) seats: Vec<SeatRowOf>,
    pub(super) starts: Vec<Start<'a>>,
    pub(super) finishes: Vec<(usize, TableId, &'a FinishedGame, OffsetDateTime)>,
}

impl<'a> WritesByKind<'a> {
    pub(super) fn of(batch: &'a [Write]) -> WritesByKind<'a> {
        let mut kinds = WritesByKind::default();
        fn seat_rows(table: TableId, seats: &[Option<(PlayerId, bool)>]) -> impl Iterator<Item = SeatRowOf> + '_ {
            (0i16..).zip(seats).filter_map(move |(seat, taken)| taken.map(|(p, bot)| (table, seat, p, bot)))
        }
        for (index, write) in batch.iter().enumerate() {
            match write {
                Write::Player { player, token_hash, at } => kinds.players.push((player, token_hash, *at)),
                Write::Table { table, seats } => {
                    kinds.tables.push(table);
                    let seats: Vec<_> = seats.iter().map(|s| s.map(|p| (p, false))).collect();
                    kinds.table_seats.extend(seat_rows(table.id, &seats));
                }
                Write::Seats { table, seats } => {
                    kinds.reseated.push(*table);
                    kinds.seats.extend(seat_rows(*table, seats));
                }
                Write::Start { table, seed, salt, contributions, players, started_at } => {
                    kinds.starts.push(Start {
                        table: *table,
                        seed: *seed,
                        salt: salt.as_ref(),
                        contributions,
                        players,
                        started_at: *started_at,
                    });
                }
                Write::Finish { table, finished, finished_at } => {
                    kinds.finishes.push((index, *table, finished, *finished_at));
                }
            }
        }
        kinds
    }

    /// How many of the kinds are present: with one, the backend's batch can be a single statement.
    pub(super) fn kinds(&self) -> usize {
        [
            self.players.is_empty(),
            self.tables.is_empty(),
            self.reseated.is_empty(),
            self.starts.is_empty(),
            self.finishes.is_empty(),
        ]
        .iter()
        .filter(|empty| !**empty)
        .count()
    }
}

/// What a batch's finishes found when they read their games: `Ok` with the results to write, or the
/// error of that one finish.
pub(super) fn check_finish(
    table: TableId,
    outcome: &Outcome,
    finished: Option<bool>,
    players: &[GamePlayer],
    finishing: &mut HashSet<TableId>,
) -> Result<Vec<SeatResult>, StoreError> {
    match finished {
        None => return Err(StoreError::NotFound),
        Some(true) => return Err(StoreError::Other(format!("game {table} is already finished"))),
        Some(false) => {}
    }
    let results = seat_results(outcome, players)?;
    // Two finishes of one game in one batch: the second finds it finished.
    if !finishing.insert(table) {
        return Err(StoreError::Other(format!("game {table} is already finished")));
    }
    Ok(results)
}

/// Checks a finished game's outcome: one seat per player, each with a place among them and its
/// details a JSON object. Returns each seat's details as the text stored.
pub(super) fn checked_outcome(outcome: &Outcome) -> Result<Vec<String>, StoreError> {
    let seats = outcome.seats.len();
    if seats == 0 || seats > usize::from(MAX_SEATS) {
        return Err(StoreError::Other(format!("an outcome of {seats} seats")));
    }
    if outcome.ended_by.is_empty() {
        return Err(StoreError::Other("an outcome that does not say how the game ended".into()));
    }
    outcome
        .seats
        .iter()
        .map(|seat| {
            if seat.place == 0 || usize::from(seat.place) > seats {
                return Err(StoreError::Other(format!("place {} among {seats} seats", seat.place)));
            }
            details_to_json(&seat.details)
        })
        .collect()
}

/// The result rows of a finished game: one per seat, from its outcome and the players as the game
/// started.
pub(super) fn seat_results(outcome: &Outcome, players: &[GamePlayer]) -> Result<Vec<SeatResult>, StoreError> {
    checked_outcome(outcome)?;
    if outcome.seats.len() != players.len() {
        return Err(StoreError::Other(format!(
            "the outcome has {} seats, the game {} players",
            outcome.seats.len(),
            players.len()
        )));
    }
    players
        .iter()
        .map(|player| {
            let seat = outcome
                .seats
                .get(player.seat.index())
                .ok_or_else(|| StoreError::Other(format!("the outcome has no {}", player.seat)))?;
            Ok(SeatResult {
                player: player.clone(),
                score: seat.score,
                details: seat.details.clone(),
                place: seat.place,
                winner: seat.winner,
                bot_actions: 0,
                rating: None,
            })
        })
        .collect()
}
