//! Trophy tiles (§1.3): four double-sided tiles, one side of each in play.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::Suit;

/// A trophy: the side of a tile that is in play (§1.3). Its record code is its serde name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Trophy {
    /// Tile 1, side A: most cherry contracts, 3 points.
    Cherries,
    /// Tile 2, side A: most heart contracts, 3 points.
    Hearts,
    /// Tile 3, side A: most clover contracts, 3 points.
    Clovers,
    /// Tile 4, side A: most diamond contracts, 3 points.
    Diamonds,
    /// Tile 1, side B: most 2-card size icons, 5 points.
    Combo2,
    /// Tile 2, side B: most 3-card size icons, 4 points.
    Combo3,
    /// Tile 3, side B: most 4-card size icons, 3 points.
    Combo4,
    /// Tile 4, side B: most 5-card size icons, 2 points.
    Combo5,
}

/// What a trophy counts on a player's contracts (§5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrophyIcon {
    /// Contract cards of this suit.
    Suit(Suit),
    /// Size icons (requirements) of this size.
    Size(u8),
}

impl Trophy {
    /// The two sides of each tile, tile 1 to 4: `(side A, side B)`.
    pub const TILES: [(Trophy, Trophy); 4] = [
        (Trophy::Cherries, Trophy::Combo2),
        (Trophy::Hearts, Trophy::Combo3),
        (Trophy::Clovers, Trophy::Combo4),
        (Trophy::Diamonds, Trophy::Combo5),
    ];

    /// The tile (0 to 3) this trophy is a side of.
    pub const fn tile(self) -> usize {
        match self {
            Trophy::Cherries | Trophy::Combo2 => 0,
            Trophy::Hearts | Trophy::Combo3 => 1,
            Trophy::Clovers | Trophy::Combo4 => 2,
            Trophy::Diamonds | Trophy::Combo5 => 3,
        }
    }

    /// The points printed on this side (§1.3).
    pub const fn points(self) -> u8 {
        match self {
            Trophy::Cherries | Trophy::Hearts | Trophy::Clovers | Trophy::Diamonds => 3,
            Trophy::Combo2 => 5,
            Trophy::Combo3 => 4,
            Trophy::Combo4 => 3,
            Trophy::Combo5 => 2,
        }
    }

    /// What the trophy counts.
    pub const fn icon(self) -> TrophyIcon {
        match self {
            Trophy::Cherries => TrophyIcon::Suit(Suit::Cherry),
            Trophy::Hearts => TrophyIcon::Suit(Suit::Heart),
            Trophy::Clovers => TrophyIcon::Suit(Suit::Clover),
            Trophy::Diamonds => TrophyIcon::Suit(Suit::Diamond),
            Trophy::Combo2 => TrophyIcon::Size(2),
            Trophy::Combo3 => TrophyIcon::Size(3),
            Trophy::Combo4 => TrophyIcon::Size(4),
            Trophy::Combo5 => TrophyIcon::Size(5),
        }
    }

    /// The record code (`cherries`, `combo3`, ...).
    pub const fn code(self) -> &'static str {
        match self {
            Trophy::Cherries => "cherries",
            Trophy::Hearts => "hearts",
            Trophy::Clovers => "clovers",
            Trophy::Diamonds => "diamonds",
            Trophy::Combo2 => "combo2",
            Trophy::Combo3 => "combo3",
            Trophy::Combo4 => "combo4",
            Trophy::Combo5 => "combo5",
        }
    }
}

impl fmt::Display for Trophy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
