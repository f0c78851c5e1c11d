//! Rumino's tests: one per rule-book section and per edge case of §11, property tests, golden records.

mod lays;
pub(crate) mod matches;
mod properties;
mod records;
pub(crate) mod support;
mod turns;
