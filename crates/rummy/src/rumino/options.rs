//! The table options of rumino §2.

use serde::{Deserialize, Serialize};

/// Every table option of rumino §2, with its default.
///
/// As JSON (record format, "options"): `{ "max_rebuys": 1 }`; every option must be written out, and an
/// unknown key is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuminoOptions {
    /// How many times each player may rebuy (§9 step 4): 0, 1, 2, … Default 1 (§2 "Decided").
    pub max_rebuys: u32,
}

impl Default for RuminoOptions {
    fn default() -> RuminoOptions {
        RuminoOptions { max_rebuys: 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rumino_s2_defaults_and_strict_json() {
        assert_eq!(RuminoOptions::default().max_rebuys, 1);
        let parsed: RuminoOptions = serde_json::from_str(r#"{"max_rebuys":0}"#).expect("a valid option set");
        assert_eq!(parsed, RuminoOptions { max_rebuys: 0 });
        assert!(serde_json::from_str::<RuminoOptions>("{}").is_err(), "a missing option is refused");
        assert!(serde_json::from_str::<RuminoOptions>(r#"{"max_rebuys":1,"stake":5}"#).is_err());
        assert!(serde_json::from_str::<RuminoOptions>(r#"{"max_rebuys":-1}"#).is_err());
        assert!(serde_json::from_str::<RuminoOptions>(r#"{"max_rebuys":1.5}"#).is_err());
    }
}
