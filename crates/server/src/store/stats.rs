//! Players' statistics, added up the same way for both backends: each backend reads a player's results
//! grouped by game and place ([`PlaceRow`], read by [`rows::place_row`](super::rows::place_row)), in its
//! own SQL; the figures per game and over every game are made here. They are what every game's result
//! has (`Outcome`): a score, a place and a win.

use super::{GameSummary, PlayerStats, StoreError};
use crate::protocol::PlayerInfo;

/// A player's results in one game at one place, as a backend reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PlaceRow {
    /// The game's name.
    pub game: String,
    /// The place, 1 for the best.
    pub place: i64,
    /// Finished games of this game the player ended in this place.
    pub games: i64,
    /// How many of those they won.
    pub wins: i64,
    /// The sum of their scores in those games.
    pub score: i64,
}

/// A player's figures in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameStats {
    /// The game, by its name (`romi-rami`).
    pub game: String,
    /// Finished games of it they played.
    pub games_played: u64,
    /// Games they won (a shared win counts).
    pub wins: u64,
    /// How often they ended in each place: `places[0]` first, `places[1]` second, and so on to the worst
    /// place they had.
    pub places: Vec<u64>,
    /// Their average score, in the game's own scoring (where penalty points count, lower is better).
    pub average_score: f64,
    /// Their average place (1 is the best).
    pub average_place: f64,
}

fn count(value: i64, what: &str) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreError::Corrupt(format!("{what} is {value}")))
}

/// Adds `rows` (sorted by game) up into figures per game.
///
/// # Errors
/// [`StoreError::Corrupt`] for a negative count or a place out of range.
pub(super) fn by_game(rows: &[PlaceRow]) -> Result<Vec<GameStats>, StoreError> {
    let mut games: Vec<GameStats> = Vec::new();
    let mut sums: Vec<(i64, u64)> = Vec::new();
    for row in rows {
        let place = match usize::try_from(row.place) {
            Ok(place) if (1..=usize::from(super::MAX_SEATS)).contains(&place) => place,
            _ => return Err(StoreError::Corrupt(format!("place {} is out of range", row.place))),
        };
        if games.last().is_none_or(|last| last.game != row.game) {
            games.push(GameStats {
                game: row.game.clone(),
                games_played: 0,
                wins: 0,
                places: Vec::new(),
                average_score: 0.0,
                average_place: 0.0,
            });
            sums.push((0, 0));
        }
        let (Some(stats), Some((score, places))) = (games.last_mut(), sums.last_mut()) else { continue };
        let played = count(row.games, "a count of games")?;
        stats.games_played += played;
        stats.wins += count(row.wins, "a count of wins")?;
        if stats.places.len() < place {
            stats.places.resize(place, 0);
        }
        stats.places[place - 1] += played;
        *score += row.score;
        *places += played * place as u64;
    }
    for (stats, (score, places)) in games.iter_mut().zip(sums) {
        let played = stats.games_played.max(1) as f64;
        stats.average_score = score as f64 / played;
        stats.average_place = places as f64 / played;
    }
    Ok(games)
}

impl PlayerStats {
    /// A player's statistics from their results by game and place and their latest games.
    ///
    /// # Errors
    /// As [`by_game`].
    pub(super) fn assemble(
        player: PlayerInfo,
        rows: &[PlaceRow],
        recent: Vec<GameSummary>,
    ) -> Result<PlayerStats, StoreError> {
        let by_game = by_game(rows)?;
        let games_played = by_game.iter().map(|g| g.games_played).sum::<u64>();
        let score: i64 = rows.iter().map(|row| row.score).sum();
        Ok(PlayerStats {
            player,
            games_played,
            wins: by_game.iter().map(|g| g.wins).sum(),
            average_score: (games_played > 0).then(|| score as f64 / games_played as f64),
            by_game,
            recent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: &str, place: i64, games: i64, wins: i64, score: i64) -> PlaceRow {
        PlaceRow { game: game.into(), place, games, wins, score }
    }

    #[test]
    fn results_add_up_per_game_and_over_every_game() {
        let rows = [row("rami", 1, 2, 2, 0), row("rami", 3, 1, 0, 90), row("romi-rami", 2, 4, 1, 80)];
        let player = PlayerInfo { id: crate::protocol::PlayerId(uuid::Uuid::nil()), name: "Ana".into() };
        let stats = PlayerStats::assemble(player, &rows, Vec::new()).expect("figures");
        assert_eq!((stats.games_played, stats.wins), (7, 3));
        assert_eq!(stats.average_score, Some(170.0 / 7.0));
        let rami = &stats.by_game[0];
        assert_eq!((rami.game.as_str(), rami.games_played, rami.wins), ("rami", 3, 2));
        assert_eq!(rami.places, [2, 0, 1]);
        assert_eq!((rami.average_score, rami.average_place), (30.0, 5.0 / 3.0));
        let romi = &stats.by_game[1];
        assert_eq!((romi.places.as_slice(), romi.average_place, romi.average_score), (&[0, 4][..], 2.0, 20.0));
    }

    #[test]
    fn no_results_give_no_figures_and_bad_rows_are_corrupt() {
        let player = PlayerInfo { id: crate::protocol::PlayerId(uuid::Uuid::nil()), name: "Bo".into() };
        let stats = PlayerStats::assemble(player, &[], Vec::new()).expect("figures");
        assert_eq!((stats.games_played, stats.average_score, stats.by_game.len()), (0, None, 0));
        assert!(matches!(by_game(&[row("rommi", 0, 1, 0, 0)]), Err(StoreError::Corrupt(_))));
        assert!(matches!(by_game(&[row("rommi", 7, 1, 0, 0)]), Err(StoreError::Corrupt(_))));
        assert!(matches!(by_game(&[row("rommi", 1, -1, 0, 0)]), Err(StoreError::Corrupt(_))));
    }
}
