//! No hidden card or seed in any message, log line or REST answer. A binary of its own: it keeps every
//! log line of its process (`romirami_testlog::Everything`), which no other test's server should add to.

#[path = "../support/mod.rs"]
mod support;

#[allow(unused_imports, reason = "the support modules reach each other through the crate's root")]
use support::{cluster as cluster_support, common, healthy, json_ws, pg, pile, proxy, raw};

mod hidden_information;
mod hidden_information_rummy;

/// Held by each test that reads every log line of the process, so that none reads another's.
static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
