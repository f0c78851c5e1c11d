//! The game list's query string, read strictly: an unknown parameter, one given twice or a value that
//! does not parse is a 400, never ignored.

use axum::http::StatusCode;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::IntoParams;

use super::{ApiError, ApiErrorCode, cut};
use crate::store::{GameCursor, GameFilter, MAX_LIST_LIMIT, PlayerFilter};

/// The filters and paging of the game list. Every parameter is optional.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    /// Games this player played: their id, or the exact name they played under.
    pub player: Option<String>,
    /// Games that finished at this instant or later (RFC 3339, e.g. `2026-11-21T08:00:00Z`).
    #[param(value_type = Option<String>, format = DateTime)]
    pub since: Option<OffsetDateTime>,
    /// Games that finished before this instant (RFC 3339).
    #[param(value_type = Option<String>, format = DateTime)]
    pub until: Option<OffsetDateTime>,
    /// Games with this many players.
    #[param(minimum = 2, maximum = 6)]
    pub players: Option<u8>,
    /// Games of this game, by its name (`romi-rami`); a name the server does not know matches no game.
    pub game: Option<String>,
    /// How many games per page (default 20). With `Accept: application/x-ndjson`, how many games in
    /// all (default: every game that matches).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
    /// Where the page starts: the `next` of the previous page.
    #[param(value_type = Option<String>)]
    pub cursor: Option<GameCursor>,
}

/// The names [`GameQuery`] accepts.
pub const GAME_QUERY_PARAMETERS: [&str; 7] = ["player", "since", "until", "players", "game", "limit", "cursor"];

impl GameQuery {
    /// Reads a query string strictly.
    ///
    /// # Errors
    /// An unknown parameter, one given twice, or a value that does not parse or is out of range.
    pub fn parse(raw: Option<&str>) -> Result<GameQuery, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|_| ApiError::bad("the query string is not URL-encoded"))?;
        let mut query = GameQuery::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &pairs {
            let Some(known) = GAME_QUERY_PARAMETERS.iter().find(|known| *known == name) else {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    ApiErrorCode::UnknownParameter,
                    format!("unknown parameter `{}`; known: {}", cut(name), GAME_QUERY_PARAMETERS.join(", ")),
                ));
            };
            if seen.contains(known) {
                return Err(ApiError::bad(format!("`{known}` is given more than once")));
            }
            seen.push(known);
            match *known {
                "player" => {
                    if value.is_empty() {
                        return Err(ApiError::bad("`player` needs a player id or name"));
                    }
                    query.player = Some(value.clone());
                }
                "game" => {
                    if value.is_empty() {
                        return Err(ApiError::bad("`game` needs a game's name, like romi-rami"));
                    }
                    query.game = Some(value.clone());
                }
                "since" => query.since = Some(instant("since", value)?),
                "until" => query.until = Some(instant("until", value)?),
                "players" => match value.parse::<u8>() {
                    Ok(n @ 2..=6) => query.players = Some(n),
                    _ => return Err(ApiError::bad("`players` is 2 to 6 (the most any game seats)")),
                },
                "limit" => match value.parse::<u32>() {
                    Ok(n @ 1..=MAX_LIST_LIMIT) => query.limit = Some(n),
                    _ => return Err(ApiError::bad(format!("`limit` is a number from 1 to {MAX_LIST_LIMIT}"))),
                },
                _ => {
                    query.cursor = Some(
                        value.parse().map_err(|_| ApiError::bad("`cursor` is not a cursor this server gave out"))?,
                    );
                }
            }
        }
        Ok(query)
    }

    pub(super) fn filter(&self) -> GameFilter {
        GameFilter {
            player: self.player.as_deref().map(PlayerFilter::parse),
            since: self.since,
            until: self.until,
            players: self.players,
            game: self.game.clone(),
        }
    }
}

fn instant(name: &str, value: &str) -> Result<OffsetDateTime, ApiError> {
    OffsetDateTime::parse(value, &Rfc3339)
        .map_err(|_| ApiError::bad(format!("`{name}` is an RFC 3339 instant, like 2026-11-21T08:00:00Z")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(result: Result<GameQuery, ApiError>) -> ApiErrorCode {
        result.expect_err("refused").body.error.code
    }

    #[test]
    fn game_queries_are_read_strictly() {
        let query = GameQuery::parse(Some("player=Ana%20B&players=3&limit=5&since=2026-01-01T00:00:00Z"))
            .expect("a good query");
        assert_eq!(query.player.as_deref(), Some("Ana B"));
        assert_eq!((query.players, query.limit), (Some(3), Some(5)));
        assert!(query.since.is_some() && query.until.is_none() && query.cursor.is_none());
        assert!(GameQuery::parse(None).is_ok());
        let query = GameQuery::parse(Some("game=rommi")).expect("a good query");
        assert_eq!(query.filter().game.as_deref(), Some("rommi"));
        assert_eq!(code(GameQuery::parse(Some("colour=red"))), ApiErrorCode::UnknownParameter);
        for bad in [
            "players=7",
            "players=x",
            "limit=0",
            "limit=101",
            "limit=-1",
            "since=yesterday",
            "until=2026-13-01T00:00:00Z",
            "cursor=abc",
            "player=",
            "game=",
            "limit=5&limit=6",
        ] {
            assert_eq!(code(GameQuery::parse(Some(bad))), ApiErrorCode::BadParameter, "{bad}");
        }
    }
}
