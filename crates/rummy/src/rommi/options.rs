//! Rommi's table options (rommi §2), each with its default.

use serde::{Deserialize, Serialize};

use crate::melds::MeldRules;
use crate::seat::SetupError;

/// Basic rummy or 500 rummy (rommi §2): fixes where aces go and whether the discard pile is splayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// Basic rummy: low aces, only the top discard may be taken.
    #[serde(rename = "basic")]
    Basic,
    /// 500 rummy: versatile aces, a splayed discard pile (deep takes, rommi §6.1 c).
    #[serde(rename = "500")]
    FiveHundred,
}

/// How rounds are scored (rommi §9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// §9.1: the player who goes out scores the others' hands; higher totals win.
    Positive,
    /// §9.2: melded minus hand for everyone; higher totals win.
    MeldHand,
    /// §9.3: hand values as penalties; lower totals win.
    Negative,
}

/// Every option of rommi §2. In a record all five are written out (`deny_unknown_fields`, none defaulted);
/// [`RommiOptions::from_partial`] fills the defaults for a table being set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RommiOptions {
    /// `basic` or `500`.
    pub variant: Variant,
    /// The scoring mode.
    pub scoring: Scoring,
    /// Rommi §4's simple card values.
    pub simple_scoring: bool,
    /// Rommi §6.2: one new meld per turn, lay-offs only after one's own meld.
    pub meld_restriction: bool,
    /// Rommi §10: the match ends once a total reaches it; at least 1.
    pub target: u32,
}

/// Options as a table creator may give them: any subset, the rest defaulted.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartialOptions {
    variant: Option<Variant>,
    scoring: Option<Scoring>,
    simple_scoring: Option<bool>,
    meld_restriction: Option<bool>,
    target: Option<u32>,
}

impl Default for RommiOptions {
    fn default() -> RommiOptions {
        RommiOptions::for_variant(Variant::Basic)
    }
}

impl RommiOptions {
    /// The defaults of rommi §2 for `variant`: `positive` scoring with `basic`, `meld_hand` with `500`;
    /// target 100, or 500 with `meld_hand`.
    pub fn for_variant(variant: Variant) -> RommiOptions {
        let scoring = match variant {
            Variant::Basic => Scoring::Positive,
            Variant::FiveHundred => Scoring::MeldHand,
        };
        RommiOptions {
            variant,
            scoring,
            simple_scoring: false,
            meld_restriction: false,
            target: default_target(scoring),
        }
    }

    /// Options from JSON holding any of the five keys; the others take their defaults (the scoring's
    /// default follows the variant, the target's the scoring).
    ///
    /// # Errors
    /// [`SetupError::Options`] for an unknown key, a wrong type or a value rommi §2 does not allow.
    pub fn from_partial(json: &serde_json::Value) -> Result<RommiOptions, SetupError> {
        let partial: PartialOptions =
            serde_json::from_value(json.clone()).map_err(|e| SetupError::Options(format!("rommi options: {e}")))?;
        let mut options = RommiOptions::for_variant(partial.variant.unwrap_or(Variant::Basic));
        if let Some(scoring) = partial.scoring {
            options.scoring = scoring;
            options.target = default_target(scoring);
        }
        options.simple_scoring = partial.simple_scoring.unwrap_or(false);
        options.meld_restriction = partial.meld_restriction.unwrap_or(false);
        options.target = partial.target.unwrap_or(options.target);
        options.validate()?;
        Ok(options)
    }

    /// Checks the values rommi §2 allows.
    ///
    /// # Errors
    /// [`SetupError::Options`] for a target of 0.
    pub fn validate(&self) -> Result<(), SetupError> {
        if self.target == 0 {
            return Err(SetupError::Options("rommi §2: the target is a whole number of at least 1".into()));
        }
        Ok(())
    }

    /// The meld rules of the variant (rommi §3).
    pub fn meld_rules(&self) -> &'static MeldRules {
        match self.variant {
            Variant::Basic => &MeldRules::ROMMI_BASIC,
            Variant::FiveHundred => &MeldRules::ROMMI_500,
        }
    }

    /// Every combination of options with `target`: 2 variants x 3 scorings x 2 x 2 = 24.
    pub fn all_with_target(target: u32) -> impl Iterator<Item = RommiOptions> {
        [Variant::Basic, Variant::FiveHundred].into_iter().flat_map(move |variant| {
            [Scoring::Positive, Scoring::MeldHand, Scoring::Negative].into_iter().flat_map(move |scoring| {
                [(false, false), (false, true), (true, false), (true, true)].into_iter().map(
                    move |(simple_scoring, meld_restriction)| RommiOptions {
                        variant,
                        scoring,
                        simple_scoring,
                        meld_restriction,
                        target,
                    },
                )
            })
        })
    }
}

/// Rommi §2: 500 with `meld_hand`, else 100.
pub(crate) fn default_target(scoring: Scoring) -> u32 {
    match scoring {
        Scoring::MeldHand => 500,
        Scoring::Positive | Scoring::Negative => 100,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rommi §2: every option and its default.
    #[test]
    fn rommi_2_defaults_follow_the_variant_and_the_scoring() {
        let basic = RommiOptions::default();
        assert_eq!((basic.variant, basic.scoring, basic.target), (Variant::Basic, Scoring::Positive, 100));
        assert!(!basic.simple_scoring && !basic.meld_restriction);
        let five = RommiOptions::from_partial(&serde_json::json!({ "variant": "500" })).expect("valid");
        assert_eq!((five.scoring, five.target), (Scoring::MeldHand, 500));
        let negative = RommiOptions::from_partial(&serde_json::json!({ "variant": "500", "scoring": "negative" }));
        assert_eq!(negative.map(|o| o.target), Ok(100));
        assert!(RommiOptions::from_partial(&serde_json::json!({ "target": 0 })).is_err());
        assert!(RommiOptions::from_partial(&serde_json::json!({ "jokers": true })).is_err());
        assert!(RommiOptions::from_partial(&serde_json::json!({ "variant": "gin" })).is_err());
    }

    #[test]
    fn a_record_writes_every_option() {
        let json = serde_json::to_value(RommiOptions::default()).expect("serializable");
        assert_eq!(
            json,
            serde_json::json!({ "variant": "basic", "scoring": "positive", "simple_scoring": false,
                                "meld_restriction": false, "target": 100 })
        );
        let missing = serde_json::json!({ "variant": "basic", "scoring": "positive", "target": 100 });
        assert!(serde_json::from_value::<RommiOptions>(missing).is_err());
        assert_eq!(RommiOptions::all_with_target(10).count(), 24);
    }
}
