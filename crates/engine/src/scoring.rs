//! Scoring (§5): contracts, trophies, suit bonus, the unused Star, and the winners.

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::action::{EndReason, Seat};
use crate::game::Game;
use crate::trophies::{Trophy, TrophyIcon};

/// One seat's score, part by part (§5), as the record format writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreBreakdown {
    /// Whose score this is.
    pub seat: Seat,
    /// The sum of the four parts.
    pub total: u32,
    /// §5.1: points printed on the seat's contracts.
    pub contracts: u32,
    /// §5.2: points of the trophies the seat wins.
    pub trophies: u32,
    /// §5.3: one point per card in the suit bonus pile.
    pub suit_bonus: u32,
    /// §5.4: one point if the Star was never used.
    pub star: u32,
}

/// Which seat wins each trophy in play, tile 1 to 4; `None` when nobody does (§5.2: a tie wins nothing).
///
/// Serialized as a JSON object from trophy code to seat or `null`, in tile order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrophyWinners(pub [(Trophy, Option<Seat>); 4]);

impl Serialize for TrophyWinners {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        for (trophy, seat) in &self.0 {
            map.serialize_entry(trophy.code(), seat)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for TrophyWinners {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TrophyWinners, D::Error> {
        let map = std::collections::BTreeMap::<Trophy, Option<Seat>>::deserialize(deserializer)?;
        let mut tiles: [Option<(Trophy, Option<Seat>)>; 4] = [None; 4];
        for (trophy, seat) in map {
            let tile = &mut tiles[trophy.tile()];
            if tile.is_some() {
                return Err(serde::de::Error::custom("both sides of one trophy tile are listed"));
            }
            *tile = Some((trophy, seat));
        }
        let mut winners = [(Trophy::Cherries, None); 4];
        for (i, tile) in tiles.into_iter().enumerate() {
            winners[i] =
                tile.ok_or_else(|| serde::de::Error::custom(format!("no winner listed for tile {}", i + 1)))?;
        }
        Ok(TrophyWinners(winners))
    }
}

/// The outcome of a game as the record format writes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// Why the game ended.
    pub ended_by: EndReason,
    /// Every seat's score, in seat order.
    pub scores: Vec<ScoreBreakdown>,
    /// Who wins each trophy.
    pub trophy_winners: TrophyWinners,
    /// The seats that won: more than one on a shared win (§5), none for an abandoned game.
    pub winners: Vec<Seat>,
}

impl Game {
    /// How many icons of `trophy` the seat's contracts show (§5.2).
    pub(crate) fn trophy_icons(&self, seat: Seat, trophy: Trophy) -> usize {
        let contracts = &self.seats[seat.index()].contracts;
        match trophy.icon() {
            TrophyIcon::Suit(suit) => contracts.iter().filter(|c| c.contract().suit == suit).count(),
            TrophyIcon::Size(size) => {
                contracts.iter().flat_map(|c| c.contract().requirements.iter()).filter(|r| r.size() == size).count()
            }
        }
    }

    /// Who wins each trophy if the game ended now (§5.2). Public: it only looks at contracts.
    pub fn trophy_winners(&self) -> TrophyWinners {
        TrophyWinners(self.setup.trophies.map(|trophy| {
            let counts: Vec<usize> = self.seats_iter().map(|seat| self.trophy_icons(seat, trophy)).collect();
            let most = counts.iter().copied().max().unwrap_or(0);
            let mut leaders = self.seats_iter().filter(|seat| counts[seat.index()] == most);
            let winner = match (leaders.next(), leaders.next()) {
                (Some(only), None) if most > 0 => Some(only),
                _ => None,
            };
            (trophy, winner)
        }))
    }

    /// Every seat in seat order.
    pub(crate) fn seats_iter(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.players() as u8).map(Seat)
    }

    /// The seat's score as it would be if the game ended now, every part included (§5). It holds the
    /// size of the suit bonus pile, which is private to the seat until the game is over (§6).
    pub(crate) fn score(&self, seat: Seat, trophy_winners: &TrophyWinners) -> ScoreBreakdown {
        let state = &self.seats[seat.index()];
        let contracts = state.contracts.iter().map(|c| u32::from(c.contract().score)).sum();
        let trophies = trophy_winners
            .0
            .iter()
            .filter(|(_, winner)| *winner == Some(seat))
            .map(|(trophy, _)| u32::from(trophy.points()))
            .sum();
        let suit_bonus = state.suit_bonus.len() as u32;
        let star = u32::from(!state.star_used);
        ScoreBreakdown { seat, total: contracts + trophies + suit_bonus + star, contracts, trophies, suit_bonus, star }
    }

    /// The result of §5 as it stands now, ended by `ended_by`.
    pub(crate) fn result_as(&self, ended_by: EndReason) -> GameResult {
        let trophy_winners = self.trophy_winners();
        let scores: Vec<ScoreBreakdown> = self.seats_iter().map(|seat| self.score(seat, &trophy_winners)).collect();
        let winners = if ended_by == EndReason::Abandoned { Vec::new() } else { winners(&scores) };
        GameResult { ended_by, scores, trophy_winners, winners }
    }

    /// The final result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        match self.phase {
            crate::action::Phase::Over { ended_by } => Some(self.result_as(ended_by)),
            crate::action::Phase::Playing { .. } => None,
        }
    }
}

/// §5: the highest total wins; a tie goes to the most suit bonus cards; a tie after that is shared.
pub fn winners(scores: &[ScoreBreakdown]) -> Vec<Seat> {
    let best = scores.iter().map(|s| (s.total, s.suit_bonus)).max();
    scores.iter().filter(|s| Some((s.total, s.suit_bonus)) == best).map(|s| s.seat).collect()
}
