//! The server's bots as players: each level (`easy`, `normal`, `strong`) is one player of its own, with
//! a fixed id and the name `Bot · <level>`, stored by the migrations of both backends with a token hash
//! that no token has (so nobody can sign in as a bot). Every seat a host gives to a bot of a level is
//! that player's, two at one table included; so the level is known wherever the player is (a waiting
//! table restored, a game's players, its results and record), and each level of each game has a rating
//! of its own (`crate::store::ratings`).
//!
//! A person's seat that the server's bot plays for a while (its player ran out of time or left) stays
//! the person's: that stand-in plays at `normal` and is no player.

use romirami_game::Level;
use uuid::Uuid;

use crate::protocol::{PlayerId, PlayerInfo};

/// The level's player's id: `b0700000-0000-4000-8000-00000000000n`, n = 1 (easy), 2 (normal), 3 (strong),
/// as the migrations insert them.
pub fn id(level: Level) -> PlayerId {
    let n: u128 = match level {
        Level::Easy => 1,
        Level::Normal => 2,
        Level::Strong => 3,
    };
    PlayerId(Uuid::from_u128(0xb070_0000_0000_4000_8000_0000_0000_0000 | n))
}

/// A SQL `LIKE` pattern that every level's player's id matches, written as text (lower-case hyphenated,
/// as SQLite stores ids and as PostgreSQL writes a `uuid` cast to text), and no other id of the store:
/// the others are random (version 4), and the chance that one begins with these 35 characters is nil.
pub const ID_PATTERN: &str = "b0700000-0000-4000-8000-00000000000_";

/// The level's player, with its name (`Bot · strong`).
pub fn player(level: Level) -> PlayerInfo {
    PlayerInfo { id: id(level), name: format!("Bot · {level}") }
}

/// The level whose player `id` is, if it is a bot's.
pub fn level_of(id: PlayerId) -> Option<Level> {
    Level::ALL.into_iter().find(|&level| self::id(level) == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_is_one_player_and_is_known_by_its_id() {
        for level in Level::ALL {
            assert_eq!(level_of(player(level).id), Some(level));
            assert!(crate::text::looks_like_a_bot(&player(level).name), "{level}: no guest may take the name");
        }
        assert_eq!(id(Level::Strong).0.to_string(), "b0700000-0000-4000-8000-000000000003");
        assert_eq!(level_of(PlayerId(Uuid::new_v4())), None);
        for level in Level::ALL {
            let id = id(level).0.to_string();
            assert!(id.starts_with(&ID_PATTERN[..ID_PATTERN.len() - 1]) && id.len() == ID_PATTERN.len());
        }
    }
}
