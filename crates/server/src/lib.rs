//! The Romi Rami Online server, as a library: `romirami serve` (crate `romirami-tools`) wires it to a
//! listener, a database and the process's signals.
//!
//! The rules live in [`romirami_engine`]; this crate is everything around them:
//! - [`server`]: the axum router and [`run`], which serves a listener until shutdown;
//! - [`ws`] and [`protocol`]: one WebSocket connection and the messages it speaks (the messages are the
//!   crate `romirami-protocol`, re-exported here); [`frames`]: the count of every frame a client
//!   sends; [`addresses`]: the limits per client address;
//! - [`table`]: one task per table, owning its game; [`lobby`]: the live tables;
//! - [`bots`]: the server's bots as players, one per level;
//! - [`players`]: guests and their tokens; [`names`]: names kept with a password, and signing in; [`config`]: every limit; [`metrics`]: `GET /metrics`;
//! - [`store`]: PostgreSQL or SQLite: tables, the action log of every game, finished games;
//! - [`api`]: the REST API over finished games, players and live tables, with its OpenAPI document;
//!   [`analyst`]: the analyses of finished games it serves, one at a time.
//!
//! A client of the protocol and bot players are the crate `romirami-client`; the command line, the load
//! generator and the crash harness are `romirami-tools`.
//!
//! A server on a free port with a SQLite file, shut down again:
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use romirami_server::{AppState, config::Config, run, store::Store};
//!
//! let dir = tempfile::tempdir()?;
//! let store = Store::connect(&format!("sqlite://{}", dir.path().join("games.db").display())).await?;
//! let state = AppState::open(Config::default(), store).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! let server = tokio::spawn(run(listener, state, async { stopped.await.ok(); }));
//! stop.send(()).ok();
//! server.await??;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```
#![forbid(unsafe_code)]

pub mod addresses;
pub mod analyst;
pub mod api;
pub mod bots;
pub mod cluster;
pub mod config;
pub mod frames;
mod heartbeat;
pub mod lobby;
pub mod metrics;
pub mod moderation;
pub mod names;
pub mod players;
pub mod push;
pub use romirami_protocol as protocol;
mod rate;
pub mod server;
mod state;
pub mod store;
mod sync;
pub mod table;
pub mod text;
pub mod tournament;
mod upgrade;
pub mod web;
pub mod wire;
pub mod ws;

pub use server::{app, run};
pub use state::{AppState, OpenError};

/// The games this server seats. Adding a game is a line here (and its renderer in `web/`).
pub fn games() -> romirami_game::Games {
    romirami_game::Games::new()
        .with::<romirami_engine::Game>()
        .with::<romirami_rummy::rommi::RommiMatch>()
        .with::<romirami_rummy::rami::RamiMatch>()
        .with::<romirami_rummy::rumino::RuminoMatch>()
}
