//! What a table is made with: the host's options and the game with its own options.

use std::sync::Arc;

use romirami_game::{GameKind, Games, Json};

use crate::protocol::{Clock, SpectatorPolicy};
use crate::store::TableRow;

/// The options a host chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableOptions {
    /// Seats, 2 to 4.
    pub seats: u8,
    /// Listed in the lobby.
    pub public: bool,
    /// Who may watch.
    pub spectators: SpectatorPolicy,
    /// The turn clock, if any.
    pub clock: Option<Clock>,
    /// Whether the game counts for the ratings (`store::ratings` says which games count).
    pub rated: bool,
    /// The tournament the table's game belongs to: then the bot plays for its absent players to the
    /// end (no abandonment), and it offers no rematch.
    pub tournament: Option<uuid::Uuid>,
}

impl TableOptions {
    /// The options of a stored table.
    pub(super) fn of(table: &TableRow) -> TableOptions {
        TableOptions {
            seats: table.seats,
            public: table.public,
            spectators: table.spectators,
            clock: table.clock,
            rated: table.rated,
            tournament: table.tournament,
        }
    }
}

/// A table's game and its options, as the game wrote them in full.
#[derive(Clone)]
pub struct GameChoice {
    /// The game.
    pub kind: Arc<dyn GameKind>,
    /// Its options.
    pub options: Json,
}

impl std::fmt::Debug for GameChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.options)
    }
}

impl GameChoice {
    /// The game a host asked for (Romi Rami when they named none) with their options, checked for a
    /// table of `seats`.
    ///
    /// # Errors
    /// A sentence for the host: the server has no such game, or the seats or options do not fit it.
    pub fn choose(
        games: &Games,
        game: Option<&str>,
        options: Option<&serde_json::Value>,
        seats: u8,
    ) -> Result<GameChoice, String> {
        let name = game.unwrap_or(crate::protocol::ROMI_RAMI);
        let Some(kind) = games.get(name) else {
            let hosted: Vec<&str> = games.names().collect();
            return Err(format!("this server has no game {name:?}; it hosts {hosted:?}"));
        };
        let options = kind.options(options, usize::from(seats))?;
        within_maxima(name, &options)?;
        Ok(GameChoice { kind: kind.clone(), options })
    }

    /// The game of a stored table.
    pub(super) fn of(table: &TableRow, games: &Games) -> Result<GameChoice, String> {
        let kind = games.get(&table.game).ok_or_else(|| format!("this server has no game {:?}", table.game))?;
        let options = serde_json::value::RawValue::from_string(table.options.clone())
            .map_err(|e| format!("the table's options do not read: {e}"))?;
        Ok(GameChoice { kind: kind.clone(), options })
    }
}

/// The longest games this server seats, per game option (docs/protocol.md, `create_table`): a rule book lets a
/// Rommi target, a Rami penalty limit or Rumino's rebuys be any number, and a table whose game would run for
/// ever holds a task, a seat and a log meanwhile. (A record from elsewhere with larger ones still verifies: the
/// games' crates take any the rule book allows.)
const MAXIMA: &[(&str, &str, u64)] =
    &[("rommi", "/target", 10_000), ("rami", "/match_end/limit", 2_000), ("rumino", "/max_rebuys", 5)];

/// Whether the game `name`'s full options (as the game wrote them) are within [`MAXIMA`].
fn within_maxima(name: &str, options: &serde_json::value::RawValue) -> Result<(), String> {
    let Ok(options) = serde_json::from_str::<serde_json::Value>(options.get()) else { return Ok(()) };
    for (game, pointer, most) in MAXIMA.iter().filter(|(game, ..)| *game == name) {
        if let Some(value) = options.pointer(pointer).and_then(serde_json::Value::as_u64)
            && value > *most
        {
            let option = pointer.trim_start_matches('/').replace('/', ".");
            return Err(format!("this server seats {game} with `{option}` at most {most}, not {value}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(game: &str, options: serde_json::Value) -> Result<GameChoice, String> {
        GameChoice::choose(&crate::games(), Some(game), Some(&options), 2)
    }

    #[test]
    fn options_beyond_the_servers_maxima_are_refused() {
        // Issue 40: a Rommi target, a Rami limit or Rumino rebuys of 2^32 - 1 were taken.
        let huge = u64::from(u32::MAX);
        for (game, options) in [
            ("rommi", serde_json::json!({ "target": huge })),
            ("rami", serde_json::json!({ "match_end": { "limit": huge } })),
            ("rumino", serde_json::json!({ "max_rebuys": huge })),
        ] {
            let refused = choose(game, options.clone()).expect_err("too long a game");
            assert!(refused.contains("at most"), "{game} {options}: {refused}");
        }
        for (game, options) in [
            ("rommi", serde_json::json!({ "target": 10_000 })),
            ("rami", serde_json::json!({ "match_end": { "limit": 2_000 } })),
            ("rumino", serde_json::json!({ "max_rebuys": 5 })),
        ] {
            assert!(choose(game, options.clone()).is_ok(), "{game} {options}");
        }
    }
}
