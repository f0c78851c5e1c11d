//! The protocol's messages as the server reads and writes them. The server seats any game, so a
//! message's game payloads — the view, the events, the legal actions, the result — are the JSON its
//! game wrote ([`Json`]), and a client's action is read as JSON for the table's game to read. On the
//! wire they are the same messages a client of that game reads with its own types.

use romirami_game::Json;

/// A message from the server, with its game payloads as JSON.
pub type ServerMsg = crate::protocol::ServerMsg<Json, Json, Json, Json>;

/// A message from a client, with its action as JSON.
pub type ClientMsg = crate::protocol::ClientMsg<serde_json::Value>;
