//! Ratings: each player's skill in each game, updated after every rated game from the places of its
//! seats, by the Weng-Lin method (the Bayesian approximation that OpenSkill uses) of the `skillratings`
//! crate: every seat is a team of one, ranked by its place, so 2 to 6 players and ties (a shared
//! place) are rated as they finished.
//!
//! A game counts when its table is rated (the host's choice at creation; rated by default), it was
//! played to its end (not `abandoned`), and every seat is a named guest's or a bot's of a level. Each
//! level of the server's bot is a player of its own (`Bot · strong`, [`crate::bots`]), rated in each game
//! like anyone: so the leaderboard shows where each level stands, and beating a bot moves a person's
//! rating by what the win says of them. Every guest of the protocol names themselves in `hello` (there
//! is no anonymous guest), so a person's seat is unnamed only when its name is empty or reads as one of
//! the server's bots, which `hello` refuses to a guest ([`looks_like_a_bot`]): such a seat never counts.
//! Nor does a bot of the time before levels (no player of its own), nor the same person in two seats.
//! Two seats of one level's bot at a table are one player twice: each seat is rated as a team of its
//! own from the bot's rating, and the bot's rating becomes the mean of the seats' (one game more).
//! A player who ran out of time or left and whose seat the server's bot played for a while is still
//! rated: leaving does not spare a loss.
//!
//! Farming a bot (beating a weak level again and again) is bounded by the method itself: a result moves
//! a rating by how surprising it is, so a player rated well above a level gains a point or two from
//! beating it (a tenth of a win over an equal) and loses over ten times that when it beats them
//! (`a_win_over_a_much_weaker_bot_gains_little`): playing it again and again, the rating settles where
//! the player's true share of wins against it puts it. A bot's own rating, fed by every game anyone
//! plays against it, is sure of itself and moves little.
//!
//! A rating is `mu` (the estimate) and `sigma` (its uncertainty), 25 and 25/3 for a newcomer. What
//! people see is `mu` scaled by [`SHOWN_SCALE`] and rounded ([`Rating::shown`]): 1000 for a newcomer.
//!
//! The backends call `rate_in_order` inside the transaction that stores a game's result (and, for the
//! games stored before ratings existed, at start-up), with the current ratings of the game's players
//! read and locked in that transaction; this module holds no state and does no I/O.

use std::collections::HashMap;

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::GamePlayer;
use crate::bots::level_of;
use crate::protocol::{PlayerId, PlayerInfo, TableId};
use crate::text::looks_like_a_bot;

/// What a rating's `mu` is multiplied by to be shown: a newcomer's 25 shows as 1000.
pub const SHOWN_SCALE: f64 = 40.0;

/// How many rated games a player needs in a game to be on its leaderboard, unless the server is told
/// otherwise.
pub const DEFAULT_LEADERBOARD_MIN_GAMES: u32 = 3;

/// How an abandoned game ends, in every game's words (`romirami_game::Outcome::ended_by`).
const ABANDONED: &str = "abandoned";

/// A player's rating in one game, as the Weng-Lin method keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimate of the player's skill.
    pub mu: f64,
    /// How uncertain the estimate is (one standard deviation); it shrinks with every rated game.
    pub sigma: f64,
}

impl Rating {
    /// A newcomer's rating: 25, uncertain by 25/3.
    pub const NEW: Rating = Rating { mu: 25.0, sigma: 25.0 / 3.0 };

    /// The rating as people see it ([`shown`]).
    pub fn shown(self) -> i64 {
        shown(self.mu)
    }
}

/// A rating's `mu` as people see it: times [`SHOWN_SCALE`], rounded.
pub fn shown(mu: f64) -> i64 {
    // A rating stays within a few hundred of 25 (each game moves it by a few points at most), far
    // inside an i64; `as` saturates on anything else.
    (mu * SHOWN_SCALE).round() as i64
}

/// A seat's rating before and after a rated game, as shown ([`Rating::shown`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingChange {
    /// Before the game.
    pub before: i64,
    /// After it.
    pub after: i64,
}

/// A player's rating in one game, with the number of rated games it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// The rating.
    pub rating: Rating,
    /// How many rated games of this game the player finished.
    pub games: u32,
}

impl Standing {
    /// A player's standing before their first rated game.
    pub const NEW: Standing = Standing { rating: Rating::NEW, games: 0 };
}

/// A player's rating in one of the games they played rated.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// The game, by its name (`romi-rami`).
    pub game: String,
    /// The rating and how many rated games it rests on.
    pub standing: Standing,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardEntry {
    /// Who, with their current name.
    pub player: PlayerInfo,
    /// Their rating in the board's game and how many rated games it rests on.
    pub standing: Standing,
}

/// Where a page of a leaderboard ends: the next page starts after it. Written as an opaque string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardCursor {
    /// The last entry's `mu`.
    pub(super) mu: f64,
    /// The last entry's player, which orders players of the same `mu`.
    pub(super) id: uuid::Uuid,
}

impl std::fmt::Display for BoardCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The bits of `mu`, so that the cursor compares equal to the stored value exactly.
        write!(f, "{:016x}_{}", self.mu.to_bits(), self.id.simple())
    }
}

impl std::str::FromStr for BoardCursor {
    type Err = super::BadCursor;

    fn from_str(text: &str) -> Result<BoardCursor, super::BadCursor> {
        let (mu, id) = text.split_once('_').ok_or(super::BadCursor)?;
        // One value has one spelling: 16 hex digits of a finite number.
        if mu.len() != 16 {
            return Err(super::BadCursor);
        }
        let mu = f64::from_bits(u64::from_str_radix(mu, 16).map_err(|_| super::BadCursor)?);
        if !mu.is_finite() {
            return Err(super::BadCursor);
        }
        Ok(BoardCursor { mu, id: uuid::Uuid::parse_str(id).map_err(|_| super::BadCursor)? })
    }
}

impl BoardCursor {
    pub(super) fn after(entry: &BoardEntry) -> BoardCursor {
        BoardCursor { mu: entry.standing.rating.mu, id: entry.player.id.0 }
    }
}

/// One page of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardPage {
    /// The players, best first.
    pub entries: Vec<BoardEntry>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<BoardCursor>,
}

/// A finished game as the rating needs it, read in the transaction that rates it.
#[derive(Clone, Debug)]
pub(super) struct FinishedForRating {
    pub(super) table: TableId,
    /// The game, by its name: ratings are per game.
    pub(super) game: String,
    /// Whether the table was rated.
    pub(super) table_rated: bool,
    pub(super) ended_by: String,
    /// Each seat's player and place, in seat order.
    pub(super) seats: Vec<(GamePlayer, u8)>,
}

impl FinishedForRating {
    /// Whether the game counts for the ratings (see the module's documentation).
    pub(super) fn counts(&self) -> bool {
        let players: Vec<&GamePlayer> = self.seats.iter().map(|(p, _)| p).collect();
        unrated_because(self.table_rated, &self.ended_by, &players).is_none()
    }
}

/// Why a finished game did not count for the ratings: the first reason, in the order they are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// The host made the table casual.
    Casual,
    /// The game was stopped before its end.
    Abandoned,
    /// The host gave a seat to a bot of the time before bots had levels, which is no player of its own.
    Bot,
    /// A seat's player had no name of their own (empty, or one that reads as a bot's).
    Unnamed,
    /// The same player sat in two seats.
    SamePlayer,
}

/// Why a game of a table that was `table_rated`, which ended by `ended_by` with `players` in its seats,
/// does not count for the ratings; `None` when it counts. The one rule of what counts, which the
/// ratings and the REST API's explanation both read.
pub fn unrated_because(table_rated: bool, ended_by: &str, players: &[&GamePlayer]) -> Option<Unrated> {
    // Each person once; a level's bot may sit in several seats.
    let people = players.iter().filter(|p| !p.bot).count();
    let mut ids: Vec<PlayerId> = players.iter().filter(|p| !p.bot).map(|p| p.id).collect();
    ids.sort_unstable_by_key(|id| id.0);
    ids.dedup();
    if !table_rated {
        Some(Unrated::Casual)
    } else if ended_by == ABANDONED || players.len() < 2 {
        // (No table plays a game of fewer than two seats: such a row is taken as a game stopped.)
        Some(Unrated::Abandoned)
    } else if players.iter().any(|p| p.bot && level_of(p.id).is_none()) {
        Some(Unrated::Bot)
    } else if players.iter().any(|p| !p.bot && !named(&p.name)) {
        Some(Unrated::Unnamed)
    } else if ids.len() != people {
        Some(Unrated::SamePlayer)
    } else {
        None
    }
}

/// Whether a seat's name is one its player chose.
fn named(name: &str) -> bool {
    !name.trim().is_empty() && !looks_like_a_bot(name)
}

/// A seat's rating before and after a game, to store.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SeatChange {
    pub(super) table: TableId,
    pub(super) seat: u8,
    pub(super) player: PlayerId,
    pub(super) game: String,
    pub(super) before: Rating,
    pub(super) after: Rating,
}

/// The current standings of the players a batch of games touches, by player and game.
pub(super) type Standings = HashMap<(PlayerId, String), Standing>;

/// Rates `games` in order (each must [count](FinishedForRating::counts)), starting from `standings`
/// (a player missing there is new) and updating them; returns each seat's change, game by game.
pub(super) fn rate_in_order(games: &[FinishedForRating], standings: &mut Standings) -> Vec<SeatChange> {
    let config = WengLinConfig::new();
    let mut changes = Vec::new();
    for game in games {
        let before: Vec<Standing> = game
            .seats
            .iter()
            .map(|(p, _)| standings.get(&(p.id, game.game.clone())).copied().unwrap_or(Standing::NEW))
            .collect();
        let teams: Vec<[WengLinRating; 1]> =
            before.iter().map(|s| [WengLinRating { rating: s.rating.mu, uncertainty: s.rating.sigma }]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&game.seats)
            .map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(usize::from(*place))))
            .collect();
        let after: Vec<Rating> = weng_lin_multi_team(&ranked, &config)
            .iter()
            .zip(&before)
            .map(|(now, was)| now.first().map_or(was.rating, |r| Rating { mu: r.rating, sigma: r.uncertainty }))
            .collect();
        for ((player, _), was) in game.seats.iter().zip(before) {
            // A player in several seats (a level's bot) takes the mean of its seats' new ratings.
            let mine: Vec<Rating> =
                game.seats.iter().zip(&after).filter(|((p, _), _)| p.id == player.id).map(|(_, r)| *r).collect();
            let count = mine.len() as f64;
            let now = Rating {
                mu: mine.iter().map(|r| r.mu).sum::<f64>() / count,
                sigma: mine.iter().map(|r| r.sigma).sum::<f64>() / count,
            };
            standings.insert((player.id, game.game.clone()), Standing { rating: now, games: was.games + 1 });
            changes.push(SeatChange {
                table: game.table,
                seat: player.seat.0,
                player: player.id,
                game: game.game.clone(),
                before: was.rating,
                after: now,
            });
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use romirami_game::Seat;
    use uuid::Uuid;

    use super::*;

    fn game(places: &[u8]) -> FinishedForRating {
        FinishedForRating {
            table: TableId(Uuid::new_v4()),
            game: "rommi".into(),
            table_rated: true,
            ended_by: "target".into(),
            seats: (0u8..)
                .zip(places)
                .map(|(seat, place)| {
                    let player = GamePlayer {
                        seat: Seat(seat),
                        id: PlayerId(Uuid::new_v4()),
                        name: format!("P{seat}"),
                        bot: false,
                    };
                    (player, *place)
                })
                .collect(),
        }
    }

    #[test]
    fn two_to_six_players_move_by_their_places_and_ties_move_alike() {
        for places in [&[1, 2][..], &[2, 1, 3], &[1, 2, 2, 4], &[1, 1, 3, 4, 5], &[1, 2, 3, 4, 5, 6], &[1, 1]] {
            let game = game(places);
            assert!(game.counts());
            let changes = rate_in_order(std::slice::from_ref(&game), &mut Standings::new());
            assert_eq!(changes.len(), places.len());
            for (change, place) in changes.iter().zip(places) {
                assert_eq!(change.before, Rating::NEW);
                assert!(change.after.sigma < change.before.sigma, "every game makes a rating surer");
                let best = places.iter().min().copied();
                let worst = places.iter().max().copied();
                if best != worst && Some(*place) == best {
                    assert!(change.after.mu > change.before.mu, "{places:?}: the best place gains");
                }
                if best != worst && Some(*place) == worst {
                    assert!(change.after.mu < change.before.mu, "{places:?}: the last place loses");
                }
            }
            // Seats level share a place and, from equal ratings, move alike.
            for (a, pa) in changes.iter().zip(places) {
                for (b, pb) in changes.iter().zip(places) {
                    if pa == pb {
                        assert_eq!(a.after, b.after, "{places:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_draw_between_equals_changes_no_estimate_and_games_chain() {
        let first = game(&[1, 2]);
        let mut standings = Standings::new();
        rate_in_order(std::slice::from_ref(&first), &mut standings);
        // The same two again, the loser wins now: the second game starts from the first's ratings.
        let mut second = first.clone();
        second.table = TableId(Uuid::new_v4());
        second.seats[0].1 = 2;
        second.seats[1].1 = 1;
        let changes = rate_in_order(std::slice::from_ref(&second), &mut standings);
        assert!(changes[0].before.mu > Rating::NEW.mu && changes[1].before.mu < Rating::NEW.mu);
        assert_eq!(standings[&(first.seats[0].0.id, "rommi".to_owned())].games, 2);
        let draw = rate_in_order(&[game(&[1, 1])], &mut Standings::new());
        assert!((draw[0].after.mu - Rating::NEW.mu).abs() < 1e-9, "a draw of equals moves no estimate");
    }

    #[test]
    fn casual_abandoned_bot_unnamed_and_doubled_games_do_not_count() {
        let mut casual = game(&[1, 2]);
        casual.table_rated = false;
        let mut abandoned = game(&[1, 1]);
        abandoned.ended_by = ABANDONED.into();
        let mut bot = game(&[1, 2]);
        bot.seats[1].0.bot = true;
        let mut unnamed = game(&[1, 2]);
        unnamed.seats[0].0.name = "Bot 2".into();
        let mut blank = game(&[1, 2]);
        blank.seats[0].0.name = " ".into();
        let mut doubled = game(&[1, 2]);
        doubled.seats[1].0.id = doubled.seats[0].0.id;
        for (why, game, reason) in [
            ("casual", casual, Unrated::Casual),
            ("abandoned", abandoned, Unrated::Abandoned),
            ("bot", bot, Unrated::Bot),
            ("unnamed", unnamed, Unrated::Unnamed),
            ("blank", blank, Unrated::Unnamed),
            ("doubled", doubled, Unrated::SamePlayer),
        ] {
            assert!(!game.counts(), "a {why} game does not count");
            let players: Vec<&GamePlayer> = game.seats.iter().map(|(p, _)| p).collect();
            assert_eq!(unrated_because(game.table_rated, &game.ended_by, &players), Some(reason), "{why}");
        }
        // The first reason that applies is the one given: the host's choice first.
        let mut casual_with_a_bot = game(&[1, 2]);
        (casual_with_a_bot.table_rated, casual_with_a_bot.seats[1].0.bot) = (false, true);
        let players: Vec<&GamePlayer> = casual_with_a_bot.seats.iter().map(|(p, _)| p).collect();
        assert_eq!(unrated_because(false, "market", &players), Some(Unrated::Casual));
        assert!(!FinishedForRating { seats: game(&[1]).seats, ..game(&[1, 2]) }.counts(), "one seat");
    }

    /// Seat `seat` of `game` given to the bot of `level`.
    fn bot_at(game: &mut FinishedForRating, seat: usize, level: romirami_game::Level) {
        let player = crate::bots::player(level);
        (game.seats[seat].0.id, game.seats[seat].0.name, game.seats[seat].0.bot) = (player.id, player.name, true);
    }

    #[test]
    fn a_levels_bot_is_rated_like_a_player_and_twice_seated_takes_the_mean() {
        use romirami_game::Level;
        let mut game = game(&[1, 2, 3]);
        bot_at(&mut game, 1, Level::Strong);
        bot_at(&mut game, 2, Level::Strong);
        assert!(game.counts(), "bots of a level count, one level in two seats too");
        let mut standings = Standings::new();
        let changes = rate_in_order(std::slice::from_ref(&game), &mut standings);
        let bot = crate::bots::id(Level::Strong);
        let standing = standings[&(bot, "rommi".to_owned())];
        assert_eq!(standing.games, 1, "one game, however many seats");
        // Second and third place: the mean of a small gain and a loss.
        assert_eq!(changes[1].after, changes[2].after);
        assert_eq!(changes[1].after, standing.rating);
        assert!(changes[0].after.mu > Rating::NEW.mu, "the person who beat both gains");
        // The same person in two seats still never counts, bots or not.
        let mut doubled = game.clone();
        doubled.seats.push(doubled.seats[0].clone());
        doubled.seats[3].0.seat = Seat(3);
        assert!(!doubled.counts());
    }

    #[test]
    fn a_win_over_a_much_weaker_bot_gains_little() {
        use romirami_game::Level;
        let gain = |player: Rating, bot: Rating, places: &[u8]| {
            let mut game = game(places);
            bot_at(&mut game, 1, Level::Easy);
            let mut standings = Standings::new();
            standings.insert((game.seats[0].0.id, "rommi".into()), Standing { rating: player, games: 50 });
            standings.insert((game.seats[1].0.id, "rommi".into()), Standing { rating: bot, games: 500 });
            let change = &rate_in_order(std::slice::from_ref(&game), &mut standings)[0];
            change.after.shown() - change.before.shown()
        };
        let (sure, bot) = (Rating { mu: 35.0, sigma: 2.0 }, Rating { mu: 20.0, sigma: 1.0 });
        let against_an_equal = gain(sure, Rating { mu: 35.0, sigma: 1.0 }, &[1, 2]);
        let against_a_weak_bot = gain(sure, bot, &[1, 2]);
        assert!(against_an_equal >= 5, "{against_an_equal}");
        assert!(against_a_weak_bot * 5 <= against_an_equal, "{against_a_weak_bot} vs {against_an_equal}");
        // And a loss to it costs more than ten such wins earn: farming it pays only while the rating is
        // below what the player's true share of wins against it says.
        let loss = -gain(sure, bot, &[2, 1]);
        assert!(loss >= 10 * against_a_weak_bot.max(1), "a loss costs {loss}, a win earns {against_a_weak_bot}");
    }

    #[test]
    fn newcomers_show_1000_and_cursors_round_trip() {
        assert_eq!(Rating::NEW.shown(), 1000);
        let cursor = BoardCursor { mu: 27.123_456_789, id: Uuid::new_v4() };
        assert_eq!(cursor.to_string().parse::<BoardCursor>(), Ok(cursor));
        for bad in ["", "x_y", "7ff8000000000000_00000000000000000000000000000000", "12_", "_"] {
            assert!(bad.parse::<BoardCursor>().is_err(), "{bad}");
        }
    }
}
