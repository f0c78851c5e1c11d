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
