//! The table options of rami §2, as a record's `options` writes them.

use rand_core::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Which opening rule the table plays (rami §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// Rami 51: at least 51 points, with a run without a joker.
    #[default]
    Rami51,
    /// Rami 30: at least 30 points, sets alone are enough.
    Rami30,
}

impl Opening {
    /// The points the opening's melds must reach together.
    pub const fn threshold(self) -> u32 {
        match self {
            Opening::Rami51 => 51,
            Opening::Rami30 => 30,
        }
    }

    /// Whether the opening must include a run without a joker (tierce franche).
    pub const fn needs_pure_run(self) -> bool {
        matches!(self, Opening::Rami51)
    }
}

impl Serialize for Opening {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(self.threshold())
    }
}

impl<'de> Deserialize<'de> for Opening {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Opening, D::Error> {
        match u64::deserialize(deserializer)? {
            51 => Ok(Opening::Rami51),
            30 => Ok(Opening::Rami30),
            other => Err(serde::de::Error::custom(format!("rami §2: `opening` is 51 or 30, not {other}"))),
        }
    }
}

/// When the match ends (rami §2, §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchEnd {
    /// After round N, N from 1 to 20.
    Rounds(u32),
    /// After the first round after which some total is P or more, P ≥ 1.
    Limit(u32),
}

impl MatchEnd {
    /// The penalty limit when `limit` is chosen without a number (rami §2).
    pub const DEFAULT_LIMIT: u32 = 500;
    /// The most rounds `rounds N` allows.
    pub const MAX_ROUNDS: u32 = 20;

    /// The default for `players`: one round per player, so that each seat deals once.
    pub const fn default_for(players: usize) -> MatchEnd {
        MatchEnd::Rounds(players as u32)
    }

    fn validate(self) -> Result<MatchEnd, String> {
        match self {
            MatchEnd::Rounds(n) if !(1..=MatchEnd::MAX_ROUNDS).contains(&n) => {
                Err(format!("rami §2: `rounds` is from 1 to 20, not {n}"))
            }
            MatchEnd::Limit(0) => Err("rami §2: `limit` is at least 1".to_owned()),
            ok => Ok(ok),
        }
    }
}

/// The JSON shape of [`MatchEnd`]: `{ "rounds": N }` or `{ "limit": P }`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum RawMatchEnd {
    Rounds(u32),
    Limit(u32),
}

impl Serialize for MatchEnd {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            MatchEnd::Rounds(n) => RawMatchEnd::Rounds(n),
            MatchEnd::Limit(p) => RawMatchEnd::Limit(p),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for MatchEnd {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<MatchEnd, D::Error> {
        let end = match RawMatchEnd::deserialize(deserializer)? {
            RawMatchEnd::Rounds(n) => MatchEnd::Rounds(n),
            RawMatchEnd::Limit(p) => MatchEnd::Limit(p),
        };
        end.validate().map_err(serde::de::Error::custom)
    }
}

/// Every table option of rami §2. A record writes each one out; [`RamiOptions::defaults`] gives the
/// table defaults for a player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RamiOptions {
    /// Rami 51 or Rami 30.
    pub opening: Opening,
    /// How the match ends.
    pub match_end: MatchEnd,
}

impl RamiOptions {
    /// The defaults of rami §2 for `players`: Rami 51, one round per player.
    pub const fn defaults(players: usize) -> RamiOptions {
        RamiOptions { opening: Opening::Rami51, match_end: MatchEnd::default_for(players) }
    }

    /// The tables the property tests play for `players`: both openings, each with three match
    /// lengths (the default, one round, a limit of 150).
    pub fn samples(players: usize) -> Vec<RamiOptions> {
        let ends = [MatchEnd::default_for(players), MatchEnd::Rounds(1), MatchEnd::Limit(150)];
        [Opening::Rami51, Opening::Rami30]
            .into_iter()
            .flat_map(|opening| ends.into_iter().map(move |match_end| RamiOptions { opening, match_end }))
            .collect()
    }

    /// Options drawn at random for `players`, for simulations: either opening, and a match of the
    /// default length, of 1 to 3 rounds, or to a limit of 100 to 300.
    pub fn random(players: usize, rng: &mut (impl Rng + ?Sized)) -> RamiOptions {
        let opening = if rng.next_u32() % 2 == 0 { Opening::Rami51 } else { Opening::Rami30 };
        let match_end = match crate::cards::below(rng, 3) {
            0 => MatchEnd::default_for(players),
            1 => MatchEnd::Rounds(1 + crate::cards::below(rng, 3) as u32),
            _ => MatchEnd::Limit(100 + 50 * crate::cards::below(rng, 5) as u32),
        };
        RamiOptions { opening, match_end }
    }

    /// Options from JSON where a missing key takes its default for `players` (an unknown key or a
    /// value §2 does not allow is still refused). A record's options use the strict
    /// [`Deserialize`] instead, which requires every key.
    ///
    /// # Errors
    /// The first key or value that §2 does not allow.
    pub fn from_json_with_defaults(json: &serde_json::Value, players: usize) -> Result<RamiOptions, String> {
        let mut full = serde_json::to_value(RamiOptions::defaults(players)).map_err(|e| e.to_string())?;
        let (Some(given), Some(target)) = (json.as_object(), full.as_object_mut()) else {
            return Err("rami §2: the options are a JSON object".to_owned());
        };
        for (key, value) in given {
            target.insert(key.clone(), value.clone());
        }
        serde_json::from_value(full).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rami §2: the options, their JSON and their defaults.
    #[test]
    fn section_2_options_round_trip_and_refuse_what_the_table_does_not_allow() {
        let options = RamiOptions::defaults(3);
        let json = serde_json::to_string(&options).expect("options serialize");
        assert_eq!(json, r#"{"opening":51,"match_end":{"rounds":3}}"#);
        assert_eq!(serde_json::from_str::<RamiOptions>(&json).expect("round trip"), options);
        let limit: RamiOptions = serde_json::from_str(r#"{"opening":30,"match_end":{"limit":500}}"#).expect("valid");
        assert_eq!(limit, RamiOptions { opening: Opening::Rami30, match_end: MatchEnd::Limit(500) });
        for bad in [
            r#"{"opening":40,"match_end":{"rounds":3}}"#,
            r#"{"opening":51,"match_end":{"rounds":0}}"#,
            r#"{"opening":51,"match_end":{"rounds":21}}"#,
            r#"{"opening":51,"match_end":{"limit":0}}"#,
            r#"{"opening":51}"#,
            r#"{"opening":51,"match_end":{"rounds":3},"jokers":2}"#,
            r#"{"opening":51,"match_end":{"rounds":3,"limit":4}}"#,
        ] {
            assert!(serde_json::from_str::<RamiOptions>(bad).is_err(), "{bad}");
        }
        let partial = serde_json::json!({ "opening": 30 });
        assert_eq!(
            RamiOptions::from_json_with_defaults(&partial, 4),
            Ok(RamiOptions { opening: Opening::Rami30, match_end: MatchEnd::Rounds(4) })
        );
        assert!(RamiOptions::from_json_with_defaults(&serde_json::json!({ "x": 1 }), 4).is_err());
    }

    /// rami §2: random options are options the table allows, and cover both openings and both ends.
    #[test]
    fn random_options_are_valid() {
        let mut rng = crate::cards::RummyRng::from_seed(3);
        let drawn: Vec<RamiOptions> = (0..200).map(|i| RamiOptions::random(2 + i % 4, &mut rng)).collect();
        for options in &drawn {
            let json = serde_json::to_value(options).expect("options serialize");
            assert_eq!(serde_json::from_value::<RamiOptions>(json).ok(), Some(*options));
        }
        assert!(
            drawn.iter().any(|o| o.opening == Opening::Rami30) && drawn.iter().any(|o| o.opening == Opening::Rami51)
        );
        assert!(drawn.iter().any(|o| matches!(o.match_end, MatchEnd::Limit(_))));
    }
}
