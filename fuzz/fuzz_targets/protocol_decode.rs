//! The server's parser of client messages (`romirami_protocol::parse_client_msg`, what `ws.rs` calls on every
//! text frame, with the action read as JSON as the server reads it) on arbitrary text: it never panics, a refusal's sentence stays within 200 bytes, and a
//! message it accepts writes back to JSON that parses to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romirami_protocol::{ClientMsg, parse_client_msg};

/// What the server reads: a client message whose action is JSON, for the table's game to read.
type Msg = ClientMsg<serde_json::Value>;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_client_msg::<serde_json::Value>(text) {
        Ok(msg) => {
            let json = serde_json::to_string(&msg).expect("a parsed message serializes");
            assert_eq!(parse_client_msg::<serde_json::Value>(&json).as_ref(), Ok::<&Msg, _>(&msg), "{json}");
        }
        Err(reason) => assert!(reason.len() <= 200, "a refusal's sentence is cut to 200 bytes: {reason}"),
    }
});
