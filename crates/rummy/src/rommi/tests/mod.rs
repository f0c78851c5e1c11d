//! Rommi's tests: one per rule-book section and per item of rommi §12, property tests over random
//! matches, and golden records.

mod golden;
mod properties;
mod rules;
mod scoring;
mod support;
