//! What the server's test binaries share: a real server in the test process (`common`), raw and JSON
//! WebSocket clients, PostgreSQL databases and clusters of their own, a TCP proxy, and `pile`, a toy game.

#![allow(dead_code, reason = "each test module uses a different part")]

pub(crate) mod cluster;
pub(crate) mod common;
pub(crate) mod healthy;
pub(crate) mod json_ws;
pub(crate) mod pg;
pub(crate) mod pile;
pub(crate) mod proxy;
pub(crate) mod raw;
