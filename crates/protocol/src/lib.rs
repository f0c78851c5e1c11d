//! The WebSocket protocol: every message a client sends ([`ClientMsg`]) and every message the server
//! sends ([`ServerMsg`]), as JSON objects tagged by `type`. `docs/protocol.md` shows each with an example.
//!
//! Incoming text is parsed once, here, into typed messages; the rest of the server never sees JSON.
//! Outgoing messages are serialized once per kind of recipient (a seat, or the spectators) and the
//! same bytes are handed to every connection of that kind.
//!
//! The messages are in `client.rs` and `server.rs`, what they say of tables in `table.rs`, of chat and
//! presence in `together.rs`, of playing again in `rematch.rs`.
//!
//! It is a crate of its own, which needs only `romirami-game` (for [`romirami_game::Seat`]) and serde, so
//! that what parses untrusted input can be built, tested and fuzzed (`fuzz/`) without the server's network
//! and database stack; the server re-exports it as `romirami_server::protocol`. It names no game: a game's
//! payloads (its actions, views, events, legal actions and result) are type parameters, JSON in the server
//! and a game's own types in a client of that game.
#![forbid(unsafe_code)]

mod client;
mod rematch;
mod server;
mod table;
mod together;
pub use client::{ClientMsg, parse_client_msg};
pub use rematch::RematchEnd;
pub use server::{ErrorCode, ServerMsg};
pub use table::{
    Clock, ContributionFrom, Contributions, Limits, NumberedEvent, PlayerId, PlayerInfo, Role, SpectatorPolicy,
    TableId, TableState, TableSummary,
};
pub use together::{CHAT_HISTORY, ChatChannel, ChatLine, MAX_CHAT_CHARS, Presence, PresenceChange};

/// The name of the game Romi Rami, as tables, stored games and the REST API name it.
pub const ROMI_RAMI: &str = "romi-rami";

/// The protocol version the server speaks; a client says which one it speaks in its `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    /// A client message whose action is read as JSON, as the server reads it.
    fn parse(text: &str) -> Result<ClientMsg<serde_json::Value>, String> {
        parse_client_msg(text)
    }

    #[test]
    fn client_messages_parse_from_their_documented_form() {
        let hello = parse(r#"{"type":"hello","protocol":1,"name":"Ana"}"#);
        assert_eq!(hello, Ok(ClientMsg::Hello { protocol: 1, token: None, name: Some("Ana".into()) }));
        let act = parse(
            r#"{"type":"act","table":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11","id":3,"action":{"type":"take","cards":["3he","3cl"]}}"#,
        );
        assert!(matches!(act, Ok(ClientMsg::Act { id: 3, .. })), "{act:?}");
        assert!(parse(r#"{"type":"hello","protocol":1,"extra":1}"#).is_err());
        assert!(parse(r#"{"type":"nope"}"#).is_err());
        assert!(parse("not json").is_err());
        // serde quotes the unknown type; the error must be cut between characters, not inside one.
        let long = format!(r#"{{"type":"{}"}}"#, "é".repeat(120));
        assert!(parse(&long).is_err_and(|message| message.len() <= 200));
    }

    #[test]
    fn a_table_is_rated_or_casual_and_nothing_else() {
        let rated = |json: &str| match parse(json) {
            Ok(ClientMsg::CreateTable { rated, .. }) => Ok(rated),
            other => Err(format!("{other:?}")),
        };
        assert_eq!(rated(r#"{"type":"create_table","seats":2}"#), Ok(None), "rated unless said");
        assert_eq!(rated(r#"{"type":"create_table","seats":2,"rated":false}"#), Ok(Some(false)));
        assert_eq!(rated(r#"{"type":"create_table","seats":2,"rated":true}"#), Ok(Some(true)));
        for hostile in [r#""yes""#, "1", "null", "[]", r#"{"rated":true}"#] {
            let json = format!(r#"{{"type":"create_table","seats":2,"rated":{hostile}}}"#);
            // `null` reads as not said; anything but a boolean is malformed.
            assert!(rated(&json).is_err() || hostile == "null", "{json}");
        }
        // A summary written before tables were rated or casual reads as rated.
        let summary: TableSummary = serde_json::from_str(
            r#"{"id":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11","state":"waiting","host":"6f1c1f47-5a55-4d4a-9c9e-2b2f3c1d0e11",
                "public":true,"spectators":"everyone","seats":[null,null],"spectator_count":0}"#,
        )
        .expect("a summary");
        assert!(summary.rated);
    }
}
