//! The server's stand-in bot, which plays the seat of a player who left: the engine's
//! [`romirami_engine::bot::choose`], named here for the table.

pub use romirami_engine::bot::choose;
