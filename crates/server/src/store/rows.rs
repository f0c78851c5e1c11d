//! Rows read alike by both backends, mapped to the store's types once.
//!
//! The two schemas name their columns alike and differ in how a few values are kept: an id is
//! hyphenated TEXT in SQLite and `uuid` in PostgreSQL, an instant INTEGER microseconds or `timestamptz`,
//! a small number INTEGER or `int2`/`int4`, a flag INTEGER or `boolean`. Each backend says how it reads
//! those from its own row type ([`Columns`], in its `columns.rs`); the functions here read every row
//! that both backends select with the same columns, whichever backend it came from. Every value goes
//! through a check ([`codec`](super::codec)), so a bad row is [`StoreError::Corrupt`], never a panic.

use time::OffsetDateTime;
use uuid::Uuid;

use super::chat;
use super::stats::PlaceRow;
use super::{
    BoardEntry, Claim, GamePlayer, GameSummary, PlayerRating, Rating, SeatResult, Standing, StoreError, StoredAction,
    StoredTable, TableRow, UnfinishedGame, WaitingTable, codec,
};
use crate::protocol::{ChatLine, PlayerId, PlayerInfo, TableId, TableState};

/// How a backend reads the values of a column from one of its rows, whatever its SQL type for them.
/// A value of another type, or `NULL` where a value must be, is [`StoreError::Corrupt`].
pub(super) trait Columns {
    /// An id.
    fn uuid(&self, column: &str) -> Result<Uuid, StoreError>;
    /// An id, or `NULL`.
    fn opt_uuid(&self, column: &str) -> Result<Option<Uuid>, StoreError>;
    /// An integer of any width.
    fn int(&self, column: &str) -> Result<i64, StoreError>;
    /// An integer of any width, or `NULL`.
    fn opt_int(&self, column: &str) -> Result<Option<i64>, StoreError>;
    /// An instant, to the microsecond.
    fn instant(&self, column: &str) -> Result<OffsetDateTime, StoreError>;
    /// A flag.
    fn flag(&self, column: &str) -> Result<bool, StoreError>;
    /// A flag, or `NULL`.
    fn opt_flag(&self, column: &str) -> Result<Option<bool>, StoreError>;
    /// Text.
    fn text(&self, column: &str) -> Result<String, StoreError>;
    /// Text, or `NULL`.
    fn opt_text(&self, column: &str) -> Result<Option<String>, StoreError>;
    /// A floating-point number.
    fn real(&self, column: &str) -> Result<f64, StoreError>;
    /// A floating-point number, or `NULL`.
    fn opt_real(&self, column: &str) -> Result<Option<f64>, StoreError>;
    /// Bytes, or `NULL`.
    fn opt_bytes(&self, column: &str) -> Result<Option<Vec<u8>>, StoreError>;
}

/// The [`Columns`] getters of the types that both drivers read as they are (text, flags, floating-point
/// numbers, bytes), for a backend's `impl Columns` to include.
macro_rules! plain_columns {
    () => {
        fn text(&self, column: &str) -> Result<String, StoreError> {
            Ok(sqlx::Row::try_get(self, column)?)
        }
        fn opt_text(&self, column: &str) -> Result<Option<String>, StoreError> {
            Ok(sqlx::Row::try_get(self, column)?)
        }
        fn flag(&self, column: &str) -> Result<bool, StoreError> {
            Ok(sqlx::Row::try_get(self, column)?)
        }
        fn real(&self, column: &str) -> Result<f64, StoreError> {
            Ok(sqlx::Row::try_get(self, column)?)
        }
        fn opt_real(&self, column: &str) -> Result<Option<f64>, StoreError> {
            Ok(sqlx::Row::try_get(self, column)?)
        }
        fn opt_bytes(&self, column: &str) -> Result<Option<Vec<u8>>, StoreError> {
            Ok(sqlx::Row::try_get(self, column)?)
        }
    };
}
pub(super) use plain_columns;

/// A player, from the columns `id_column` and `name`.
pub(super) fn player_info(row: &impl Columns, id_column: &str) -> Result<PlayerInfo, StoreError> {
    Ok(PlayerInfo { id: PlayerId(row.uuid(id_column)?), name: row.text("name")? })
}

/// A `game_players` row: `seat`, `player_id`, `name`, `bot`.
pub(super) fn game_player(row: &impl Columns) -> Result<GamePlayer, StoreError> {
    Ok(GamePlayer {
        seat: codec::seat_from(row.int("seat")?)?,
        id: PlayerId(row.uuid("player_id")?),
        name: row.text("name")?,
        bot: row.flag("bot")?,
    })
}

/// A `tables` row: `host`, `seat_count`, `public`, `spectators`, `created_at`, `invite`, `turn_ms`,
/// `reserve_ms`, `game`, `options`, `rated` (the table's id is the caller's).
pub(super) fn table_row(id: TableId, row: &impl Columns) -> Result<TableRow, StoreError> {
    Ok(TableRow {
        id,
        game: row.text("game")?,
        host: PlayerId(row.uuid("host")?),
        seats: codec::small_from(row.int("seat_count")?, "seat count")?,
        public: row.flag("public")?,
        spectators: codec::spectators_from(&row.text("spectators")?)?,
        created_at: row.instant("created_at")?,
        invite: row.text("invite")?,
        clock: codec::clock_from(row.opt_int("turn_ms")?, row.opt_int("reserve_ms")?)?,
        options: row.text("options")?,
        rated: row.flag("rated")?,
        tournament: row.opt_uuid("tournament")?,
    })
}

/// A table's row with its `state` (`waiting`, `playing`, `finished`; `NULL` for a table that closed before
/// its start) and `old_bot`, as the backends' `table` reads them.
pub(super) fn stored_table(id: TableId, row: &impl Columns) -> Result<StoredTable, StoreError> {
    let state = match row.opt_text("state")?.as_deref() {
        Some("waiting") => TableState::Waiting,
        Some("playing") => TableState::Playing,
        Some("finished") => TableState::Finished,
        Some(other) => return Err(StoreError::Corrupt(format!("table {id} is `{other}`"))),
        None => return Err(StoreError::NotFound),
    };
    Ok(StoredTable { table: table_row(id, row)?, state, old_bot: row.flag("old_bot")? })
}

/// The rows of a waiting table's seats (`seat`, `player_id`, `name`, `bot`) in their places.
pub(super) fn waiting_table<R: Columns>(table: TableRow, rows: &[R]) -> Result<WaitingTable, StoreError> {
    let mut seats = vec![None; usize::from(table.seats)];
    for row in rows {
        let seat = codec::seat_from(row.int("seat")?)?;
        let slot = seats.get_mut(seat.index()).ok_or_else(|| StoreError::Corrupt(format!("{seat} of {}", table.id)))?;
        *slot = Some((player_info(row, "player_id")?, row.flag("bot")?));
    }
    Ok(WaitingTable { table, seats })
}

/// An unfinished game from its head (`seed`, `salt`, `contributions`, `started_at` and its table's columns, as
/// [`table_row`] reads them), its players and its log's rows (`seq`, `seat`, `action`, `by_bot`,
/// `reserve_ms`, by `seq`).
pub(super) fn unfinished_game<R: Columns>(
    id: TableId,
    head: &impl Columns,
    players: Vec<GamePlayer>,
    log: &[R],
) -> Result<UnfinishedGame, StoreError> {
    let actions = log
        .iter()
        .map(|row| {
            let seq = row.int("seq")?;
            let action = StoredAction {
                seat: codec::seat_from(row.int("seat")?)?,
                action: codec::action_from_json(&id, seq, row.text("action")?)?,
                by_bot: row.flag("by_bot")?,
                reserve_ms: row.opt_int("reserve_ms")?.map(codec::ms_from).transpose()?,
            };
            Ok((seq, action))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(UnfinishedGame {
        table: table_row(id, head)?,
        seed: codec::seed_from_sql(head.int("seed")?),
        salt: codec::salt_from(head.opt_bytes("salt")?, &id)?,
        contributions: codec::contributions_from(head.opt_bytes("contributions")?, &id)?,
        started_at: head.instant("started_at")?,
        players,
        actions: codec::contiguous_actions(&id, actions)?,
    })
}

/// A finished game's row, without its results: `table_id`, `game`, `started_at`, `finished_at`,
/// `ended_by`, and its table's `table_rated` and `options` (`NULL` for a game without its table's row).
pub(super) fn game_head(row: &impl Columns) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: TableId(row.uuid("table_id")?),
        game: row.text("game")?,
        started_at: row.instant("started_at")?,
        finished_at: row.instant("finished_at")?,
        ended_by: row.text("ended_by")?,
        // Every game has its table's row; a table stored before tables were rated or casual is rated.
        table_rated: row.opt_flag("table_rated")?.unwrap_or(true),
        options: codec::options(row.opt_text("options")?.as_deref())?,
        results: Vec::new(),
    })
}

/// A seat's result, and its game: `table_id`, the [`game_player`]'s columns, `score`, `details`,
/// `place`, `winner`, `bot_actions`, and the rating change's `mu_before` and `mu_after` (`NULL` for a
/// game that did not count).
pub(super) fn seat_result(row: &impl Columns) -> Result<(TableId, SeatResult), StoreError> {
    Ok((
        TableId(row.uuid("table_id")?),
        SeatResult {
            player: game_player(row)?,
            score: row.int("score")?,
            details: codec::details_from(&row.text("details")?)?,
            place: codec::small_from(row.int("place")?, "place")?,
            winner: row.flag("winner")?,
            bot_actions: codec::count_from(row.int("bot_actions")?)?,
            rating: codec::rating_change(row.opt_real("mu_before")?, row.opt_real("mu_after")?),
        },
    ))
}

/// A player's results in one game at one place: `game`, `place`, `games`, `wins`, `score`.
pub(super) fn place_row(row: &impl Columns) -> Result<PlaceRow, StoreError> {
    Ok(PlaceRow {
        game: row.text("game")?,
        place: row.int("place")?,
        games: row.int("games")?,
        wins: row.int("wins")?,
        score: row.int("score")?,
    })
}

/// A `ratings` row's `mu`, `sigma` and `games`.
pub(super) fn standing(row: &impl Columns) -> Result<Standing, StoreError> {
    Ok(Standing {
        rating: Rating { mu: row.real("mu")?, sigma: row.real("sigma")? },
        games: codec::count_from(row.int("games")?)?,
    })
}

/// A leaderboard's line: `player_id`, `name` and the [`standing`].
pub(super) fn board_entry(row: &impl Columns) -> Result<BoardEntry, StoreError> {
    Ok(BoardEntry { player: player_info(row, "player_id")?, standing: standing(row)? })
}

/// A player's rating in a game: `game` and the [`standing`].
pub(super) fn player_rating(row: &impl Columns) -> Result<PlayerRating, StoreError> {
    Ok(PlayerRating { game: row.text("game")?, standing: standing(row)? })
}

/// A claim on a name: the player's `id` and `name`, and `password_hash`.
pub(super) fn claim(row: &impl Columns) -> Result<Claim, StoreError> {
    Ok(Claim { player: player_info(row, "id")?, password_hash: row.text("password_hash")? })
}

/// A chat message: `n`, `player_id`, `name`, `channel`, `text`.
pub(super) fn chat_line(row: &impl Columns) -> Result<ChatLine, StoreError> {
    chat::line(row.int("n")?, player_info(row, "player_id")?, &row.text("channel")?, row.text("text")?)
}

/// A `tournaments` row: `id`, `game`, `options`, `turn_ms`, `reserve_ms`, `rated`, `created_by`,
/// `created_at`, `state`, `director`.
pub(super) fn tournament_row(row: &impl Columns) -> Result<super::TournamentRow, StoreError> {
    let clock = codec::clock_from(row.opt_int("turn_ms")?, row.opt_int("reserve_ms")?)?;
    Ok(super::TournamentRow {
        id: row.uuid("id")?,
        game: row.text("game")?,
        options: row.text("options")?,
        clock: clock.ok_or_else(|| StoreError::Corrupt("a tournament without a clock".into()))?,
        rated: row.flag("rated")?,
        created_by: PlayerId(row.uuid("created_by")?),
        created_at: row.instant("created_at")?,
        state: row.text("state")?,
        director: row.text("director")?,
    })
}
