use super::support::*;
use crate::rami::RamiOptions;

#[test]
fn bots_finish_matches_and_records_verify() {
    let mut totals = std::collections::BTreeMap::new();
    for seed in 0..20 {
        let players = 2 + (seed % 4) as usize;
        for options in RamiOptions::samples(players) {
            let mut game = new_match(players, seed, options);
            play_out(&mut game, seed);
            let verified = round_trip(&game);
            assert_eq!(Some(verified.result), game.result());
            for (k, v) in verified.tally {
                *totals.entry(k).or_insert(0) += v;
            }
        }
    }
    eprintln!("{totals:?}");
}
