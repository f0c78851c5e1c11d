//! Rummy records from anywhere: arbitrary bytes read as a `rummy-record/1` document of any of the three
//! games (Rommi, Rami, Rumino), then replayed and checked. Nothing panics; a record is malformed or
//! breaks a rule, or it verifies, and then it writes back to JSON that reads to the same record and
//! verifies to the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romirami_rummy::record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(parsed) = record::parse(text) else { return };
    if let Ok(verified) = record::verify(&parsed) {
        assert_eq!(verified.game, parsed.game);
        let json = serde_json::to_string(&parsed).expect("a record serializes");
        let again = record::parse(&json).expect("a written record reads back");
        assert_eq!(again, parsed);
        assert_eq!(record::verify(&again).expect("it verifies again"), verified);
    }
});
