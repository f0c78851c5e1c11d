//! In-crate tests that need the game's private state: rule-by-rule examples and property tests.

mod golden;
mod properties;
mod redeal;
mod rules;
mod search;
mod shuffle;
pub(crate) mod support;
