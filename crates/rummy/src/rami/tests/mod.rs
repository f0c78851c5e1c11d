//! Rami's tests: one per section of rami.md and per item of its §12 (`rules.rs`, `edge_cases.rs`),
//! property tests over random matches (`properties.rs`), golden records (`golden.rs`).

mod edge_cases;
mod golden;
mod mutations;
mod properties;
mod rules;
mod search_reference;
mod smoke;
mod support;
