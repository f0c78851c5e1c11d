//! Game records from anywhere (a file, the REST API, a database row): arbitrary bytes read as a
//! `romirami-record/1` record, then replayed and verified. Nothing panics; a record that verifies
//! replays to a finished (or abandoned) game, and writes back to JSON that reads to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romirami_engine::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<Record>(data) else { return };
    let _ = record.replay();
    if let Ok(game) = record.verify() {
        assert!(game.result().is_some(), "a verified record ends its game");
        let json = serde_json::to_string(&record).expect("a record serializes");
        let again: Record = serde_json::from_str(&json).expect("a written record reads back");
        assert_eq!(again, record);
    }
});
