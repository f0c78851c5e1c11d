//! The conversions both backends share: every value read from a row goes through one of these, so that
//! a bad row becomes [`StoreError::Corrupt`] rather than a panic, and both backends write the same
//! values the same way.

use std::collections::HashMap;
use std::fmt;

use romirami_game::Seat;
use romirami_game::commitment::{Contribution, Salt};
use serde::Deserialize;
use time::OffsetDateTime;

use super::ratings::{RatingChange, shown};
use super::{GameSummary, MAX_SEATS, SeatResult, StoreError, StoredAction};
use crate::protocol::{Clock, SpectatorPolicy, TableId};

/// Microseconds since the Unix epoch, the precision both backends keep.
pub(super) fn micros(at: OffsetDateTime) -> i64 {
    // An i64 of microseconds spans ±292,000 years; the clamp only guards against absurd inputs.
    i64::try_from(at.unix_timestamp_nanos() / 1000).unwrap_or(if at.year() < 0 { i64::MIN } else { i64::MAX })
}

/// The instant `micros` microseconds after the Unix epoch.
pub(super) fn from_micros(micros: i64) -> Result<OffsetDateTime, StoreError> {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1000)
        .map_err(|_| StoreError::Corrupt(format!("instant {micros} is out of range")))
}

/// A seed as stored: the i64 with the same bits, since SQL has no unsigned 64-bit integer.
/// A token's hash as stored (32 bytes).
pub(super) fn token_hash(stored: &[u8]) -> Result<[u8; 32], StoreError> {
    stored.try_into().map_err(|_| StoreError::Corrupt(format!("a token hash of {} bytes, not 32", stored.len())))
}

pub(super) fn seed_to_sql(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

pub(super) fn seed_from_sql(stored: i64) -> u64 {
    u64::from_ne_bytes(stored.to_ne_bytes())
}

/// A salt as stored: its 32 bytes, or nothing for a game stored before games had one.
pub(super) fn salt_from(stored: Option<Vec<u8>>, table: &TableId) -> Result<Option<Salt>, StoreError> {
    stored
        .map(|bytes| {
            Salt::try_from(bytes.as_slice())
                .map_err(|_| StoreError::Corrupt(format!("the salt of game {table} is {} bytes, not 32", bytes.len())))
        })
        .transpose()
}

/// A game's contributions to its deal as stored: 32 bytes each, in seat order; none when `NULL`.
pub(super) fn contributions_from(stored: Option<Vec<u8>>, table: &TableId) -> Result<Vec<Contribution>, StoreError> {
    let bytes = stored.unwrap_or_default();
    if bytes.len() % 32 != 0 {
        return Err(StoreError::Corrupt(format!(
            "the contributions of game {table} are {} bytes, not a multiple of 32",
            bytes.len()
        )));
    }
    Ok(bytes.chunks_exact(32).map(|chunk| chunk.try_into().expect("32 bytes")).collect())
}

/// Contributions as stored: their bytes one after the other, `NULL` for none.
pub(super) fn contributions_to_sql(contributions: &[Contribution]) -> Option<Vec<u8>> {
    (!contributions.is_empty()).then(|| contributions.concat())
}

pub(super) fn seat_from(stored: i64) -> Result<Seat, StoreError> {
    match u8::try_from(stored) {
        Ok(seat) if seat < MAX_SEATS => Ok(Seat(seat)),
        _ => Err(StoreError::Corrupt(format!("seat {stored} is not 0 to {}", MAX_SEATS - 1))),
    }
}

pub(super) fn small_from(stored: i64, what: &str) -> Result<u8, StoreError> {
    u8::try_from(stored).map_err(|_| StoreError::Corrupt(format!("{what} {stored} is out of range")))
}

pub(super) fn count_from(stored: i64) -> Result<u32, StoreError> {
    u32::try_from(stored).map_err(|_| StoreError::Corrupt(format!("count {stored} is out of range")))
}

pub(super) fn spectators_to_sql(policy: SpectatorPolicy) -> &'static str {
    match policy {
        SpectatorPolicy::Everyone => "everyone",
        SpectatorPolicy::Link => "link",
        SpectatorPolicy::Nobody => "nobody",
    }
}

pub(super) fn spectators_from(stored: &str) -> Result<SpectatorPolicy, StoreError> {
    match stored {
        "everyone" => Ok(SpectatorPolicy::Everyone),
        "link" => Ok(SpectatorPolicy::Link),
        "nobody" => Ok(SpectatorPolicy::Nobody),
        other => Err(StoreError::Corrupt(format!("unknown spectator policy {other:?}"))),
    }
}

/// A stored action's text, checked to be JSON: the table hands it to the game as JSON.
pub(super) fn action_from_json(table: &impl fmt::Display, seq: i64, json: String) -> Result<String, StoreError> {
    match serde_json::from_str::<serde::de::IgnoredAny>(&json) {
        Ok(_) => Ok(json),
        Err(e) => Err(StoreError::Corrupt(format!("action {seq} of game {table} is not JSON: {e}"))),
    }
}

/// What the store reads of a record: what every game's record carries.
#[derive(Deserialize)]
pub(super) struct RecordHead {
    pub(super) id: uuid::Uuid,
    #[serde(with = "time::serde::rfc3339")]
    pub(super) finished_at: OffsetDateTime,
}

impl RecordHead {
    pub(super) fn of(json: &str) -> Result<RecordHead, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// A stored record's text, checked to be the record of game `table`.
pub(super) fn record_from_json(table: TableId, json: String) -> Result<String, StoreError> {
    match RecordHead::of(&json) {
        Ok(head) if head.id == table.0 => Ok(json),
        Ok(head) => Err(StoreError::Corrupt(format!("game {table} holds the record of game {}", head.id))),
        Err(e) => Err(StoreError::Corrupt(format!("the record of game {table} does not parse: {e}"))),
    }
}

/// A seat's score details as stored: JSON text.
pub(super) fn details_to_json(details: &serde_json::Value) -> Result<String, StoreError> {
    if !details.is_object() {
        return Err(StoreError::Other(format!("a seat's score details are not a JSON object: {details}")));
    }
    serde_json::to_string(details).map_err(|e| StoreError::Other(format!("cannot write score details: {e}")))
}

pub(super) fn details_from(stored: &str) -> Result<serde_json::Value, StoreError> {
    match serde_json::from_str::<serde_json::Value>(stored) {
        Ok(details) if details.is_object() => Ok(details),
        _ => Err(StoreError::Corrupt(format!("score details {stored:?} are not a JSON object"))),
    }
}

/// A table's game options as stored (`None`: no table row, read as no options).
pub(super) fn options(stored: Option<&str>) -> Result<serde_json::Value, StoreError> {
    match stored.map(serde_json::from_str::<serde_json::Value>) {
        None => Ok(serde_json::json!({})),
        Some(Ok(options)) if options.is_object() => Ok(options),
        Some(_) => Err(StoreError::Corrupt(format!("a table's options {stored:?} are not a JSON object"))),
    }
}

/// Checks that a game's log, read in order, is numbered 0, 1, 2, ... without gaps, and keeps the moves.
pub(super) fn contiguous_actions(
    table: &impl fmt::Display,
    rows: Vec<(i64, StoredAction)>,
) -> Result<Vec<StoredAction>, StoreError> {
    rows.into_iter()
        .zip(0i64..)
        .map(|((seq, action), expected)| {
            if seq == expected {
                Ok(action)
            } else {
                Err(StoreError::Corrupt(format!("game {table} has action {seq} where action {expected} belongs")))
            }
        })
        .collect()
}

/// Gives each of `games` its results from `rows` (a game's seats in order, as both back-ends read them
/// in one query). A finished game without results is corrupt.
pub(super) fn attach_results(
    games: &mut [GameSummary],
    rows: impl IntoIterator<Item = Result<(TableId, SeatResult), StoreError>>,
) -> Result<(), StoreError> {
    let mut by_game: HashMap<TableId, Vec<SeatResult>> = HashMap::with_capacity(games.len());
    for row in rows {
        let (table, result) = row?;
        by_game.entry(table).or_default().push(result);
    }
    for game in games {
        game.results = by_game.remove(&game.id).unwrap_or_default();
        if game.results.is_empty() {
            return Err(StoreError::Corrupt(format!("finished game {} has no results", game.id)));
        }
    }
    Ok(())
}

/// A seat's rating change from the `mu` before and after its game, as shown; `None` for a seat whose game
/// did not count (no `rating_changes` row).
pub(super) fn rating_change(mu_before: Option<f64>, mu_after: Option<f64>) -> Option<RatingChange> {
    Some(RatingChange { before: shown(mu_before?), after: shown(mu_after?) })
}

/// A clock's milliseconds as stored.
pub(super) fn ms_to_sql(ms: u64) -> Result<i64, StoreError> {
    i64::try_from(ms).map_err(|_| StoreError::Other(format!("{ms} ms is too long to store")))
}

pub(super) fn ms_from(stored: i64) -> Result<u64, StoreError> {
    u64::try_from(stored).map_err(|_| StoreError::Corrupt(format!("{stored} ms is negative")))
}

/// A table's clock from its two columns: both or neither.
pub(super) fn clock_from(turn_ms: Option<i64>, reserve_ms: Option<i64>) -> Result<Option<Clock>, StoreError> {
    match (turn_ms, reserve_ms) {
        (Some(turn), Some(reserve)) => Ok(Some(Clock { turn_ms: ms_from(turn)?, reserve_ms: ms_from(reserve)? })),
        (None, None) => Ok(None),
        _ => Err(StoreError::Corrupt("a clock with only one of its two times".into())),
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;
    use crate::protocol::PlayerId;
    use crate::store::GamePlayer;

    #[test]
    fn options_are_an_object_or_corrupt() {
        assert_eq!(options(None), Ok(serde_json::json!({})), "no table row: no options");
        assert_eq!(options(Some(r#"{"target":60}"#)), Ok(serde_json::json!({ "target": 60 })));
        assert!(matches!(options(Some("[1]")), Err(StoreError::Corrupt(_))));
        assert!(matches!(options(Some("{")), Err(StoreError::Corrupt(_))));
    }

    #[test]
    fn seeds_keep_every_bit() {
        for seed in [0, 1, u64::MAX, 1 << 63, 0xdead_beef_dead_beef] {
            assert_eq!(seed_from_sql(seed_to_sql(seed)), seed);
        }
    }

    #[test]
    fn instants_keep_microseconds() {
        let at = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789).expect("in range");
        let back = from_micros(micros(at)).expect("in range");
        assert_eq!(micros(back), 1_700_000_000_123_456);
        assert!(matches!(from_micros(i64::MAX), Err(StoreError::Corrupt(_))));
    }

    #[test]
    fn results_go_to_their_games_in_seat_order_and_a_game_without_is_corrupt() {
        let result = |table: TableId, seat: u8| {
            let seat = Seat(seat);
            let player = GamePlayer { seat, id: PlayerId(Uuid::new_v4()), name: format!("p{seat}"), bot: false };
            let details = serde_json::json!({ "total": 0 });
            Ok((table, SeatResult { player, score: 0, details, place: 1, winner: true, bot_actions: 0, rating: None }))
        };
        let game = |id: TableId| GameSummary {
            game: "romi-rami".into(),
            id,
            started_at: OffsetDateTime::UNIX_EPOCH,
            finished_at: OffsetDateTime::UNIX_EPOCH,
            ended_by: "market".into(),
            table_rated: true,
            options: serde_json::json!({}),
            results: Vec::new(),
        };
        let (a, b, c) = (TableId(Uuid::new_v4()), TableId(Uuid::new_v4()), TableId(Uuid::new_v4()));
        let seats = |games: &[GameSummary]| -> Vec<Vec<u8>> {
            games.iter().map(|g| g.results.iter().map(|r| r.player.seat.0).collect()).collect()
        };

        let mut games = vec![game(b), game(a)];
        attach_results(&mut games, [result(a, 0), result(a, 1), result(b, 0), result(b, 1), result(b, 2)])
            .expect("every game has results");
        assert_eq!(seats(&games), [vec![0, 1, 2], vec![0, 1]]);

        let mut games = vec![game(a), game(c)];
        let missing = attach_results(&mut games, [result(a, 0), result(a, 1)]);
        assert!(matches!(missing, Err(StoreError::Corrupt(ref m)) if m.contains(&c.to_string())), "{missing:?}");

        let mut games = vec![game(a)];
        let unreadable = attach_results(&mut games, [result(a, 0), Err(StoreError::Corrupt("bad row".into()))]);
        assert!(matches!(unreadable, Err(StoreError::Corrupt(ref m)) if m == "bad row"), "{unreadable:?}");
    }

    #[test]
    fn bad_rows_are_corrupt() {
        assert!(seat_from(5).is_ok());
        assert!(matches!(seat_from(6), Err(StoreError::Corrupt(_))));
        assert!(matches!(seat_from(-1), Err(StoreError::Corrupt(_))));
        assert!(matches!(spectators_from("all"), Err(StoreError::Corrupt(_))));
        assert!(matches!(action_from_json(&"g", 0, "{".into()), Err(StoreError::Corrupt(_))));
        assert_eq!(action_from_json(&"g", 0, r#"{"type":"pass"}"#.into()), Ok(r#"{"type":"pass"}"#.into()));
        assert!(matches!(details_from("[1]"), Err(StoreError::Corrupt(_))));
        assert!(matches!(details_from("{"), Err(StoreError::Corrupt(_))));
        let game = TableId(Uuid::new_v4());
        let record = format!(r#"{{"id":"{}","finished_at":"2026-01-01T00:00:00Z"}}"#, game.0);
        assert_eq!(record_from_json(game, record.clone()), Ok(record.clone()));
        assert!(matches!(record_from_json(TableId(Uuid::new_v4()), record), Err(StoreError::Corrupt(_))));
        assert!(matches!(record_from_json(game, r#"{"format":1}"#.into()), Err(StoreError::Corrupt(_))));
        let pass = |seat| StoredAction {
            seat: Seat(seat),
            action: r#"{"type":"pass"}"#.into(),
            by_bot: false,
            reserve_ms: None,
        };
        let gap = vec![(0, pass(0)), (2, pass(1))];
        assert!(matches!(contiguous_actions(&"g", gap), Err(StoreError::Corrupt(_))));
    }
}
