//! The check of a record's random outcomes against its seed (rummy-record-format.md, "Shuffle proof"),
//! made while the record is replayed: every time the replay takes a dealer, a deck or a reshuffle from the
//! record, it also draws it from the seed's generator, in the order live play draws them, and the first
//! one that differs is kept.

use romirami_game::ShuffleError;

use super::{At, RecordError};
use crate::cards::{Card, DeckSpec, RummyRng};
use crate::seat::Seat;

/// The seed's generator, following a replay, and the first outcome that is not the seed's.
#[derive(Clone, Debug)]
pub(crate) struct SeedCheck {
    rng: RummyRng,
    fault: Option<(At, String)>,
}

impl SeedCheck {
    /// A check of the match created from `seed`.
    pub(crate) fn new(seed: u64) -> SeedCheck {
        SeedCheck { rng: RummyRng::from_seed(seed), fault: None }
    }

    fn differs(&mut self, at: At, what: String) {
        self.fault.get_or_insert((at, what));
    }

    /// Round 1's dealer, drawn as `below(players)`.
    pub(crate) fn dealer(&mut self, players: usize, given: Seat) {
        if self.rng.below(players.max(1)) != given.index() {
            self.differs(At { round: Some(1), entry: None }, "round 1's `dealer`".into());
        }
    }

    /// Round `round`'s deck, `spec` shuffled.
    pub(crate) fn deck(&mut self, round: u32, spec: DeckSpec, given: &[Card]) {
        if spec.shuffled(&mut self.rng) != given {
            self.differs(At { round: Some(round), entry: None }, format!("round {round}'s `deck`"));
        }
    }

    /// The reshuffle written at `entry` of round `round`: `pile` (the discard pile under its top card,
    /// bottom first) shuffled.
    pub(crate) fn reshuffle(&mut self, round: u32, entry: usize, pile: &[Card], given: &[Card]) {
        let mut order = pile.to_vec();
        self.rng.shuffle(&mut order);
        if order != given {
            self.differs(At { round: Some(round), entry: Some(entry) }, "the reshuffle".into());
        }
    }

    /// The first outcome that was not the seed's.
    ///
    /// # Errors
    /// [`RecordError::Shuffle`] with [`ShuffleError::NotFromSeed`].
    pub(crate) fn result(&self) -> Result<(), RecordError> {
        match &self.fault {
            None => Ok(()),
            Some((at, what)) => {
                Err(RecordError::Shuffle { at: at.clone(), error: ShuffleError::NotFromSeed(what.clone()) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use romirami_game::ShuffleProof;
    use serde_json::json;

    use super::*;
    use crate::record::{self, GameKind, LogEntry, RecordMeta, RummyRecord};
    use crate::{rami, rommi, rumino, sim};

    const SALT: [u8; 32] = [0xc3; 32];

    fn meta(players: usize, shuffle: Option<ShuffleProof>) -> RecordMeta {
        RecordMeta {
            id: "00000000-0000-4000-8000-000000000007".into(),
            started_at: "2026-11-21T10:00:00Z".into(),
            finished_at: "2026-11-21T10:00:01Z".into(),
            names: vec![String::new(); players],
            shuffle,
        }
    }

    fn options(game: GameKind) -> serde_json::Value {
        match game {
            GameKind::Rommi => json!({ "variant": "500" }),
            GameKind::Rami => json!({ "match_end": { "rounds": 3 } }),
            GameKind::Rumino => json!({ "max_rebuys": 1 }),
        }
    }

    /// A bot match of `game` from `seed`, with its shuffle proof.
    fn played(game: GameKind, players: usize, seed: u64) -> RummyRecord {
        let meta = meta(players, Some(ShuffleProof::new(seed, SALT)));
        sim::play(game, players, &options(game), seed, seed ^ 0x55, meta, 20_000).expect("plays").record
    }

    fn code(record: &RummyRecord) -> Result<(), &'static str> {
        record::verify(record).map(|_| ()).map_err(|e| e.code())
    }

    fn claiming(record: &RummyRecord, seed: u64) -> RummyRecord {
        let fields = ShuffleProof::new(seed, SALT).fields();
        RummyRecord { seed: fields.seed, salt: fields.salt, commitment: fields.commitment, ..record.clone() }
    }

    #[test]
    fn records_dealt_from_the_seats_contributions_verify_and_refuse_any_change() {
        for game in GameKind::ALL {
            let proof = ShuffleProof::contributed(4, SALT, vec![[1; 32], [2; 32], [3; 32]]);
            let meta = meta(3, Some(proof.clone()));
            let record = sim::play(game, 3, &options(game), proof.seed(), 5, meta, 20_000).expect("plays").record;
            assert_eq!(record.server_seed.as_deref(), Some("4"), "{game}");
            assert_eq!(record.contributions.as_ref().map(Vec::len), Some(3), "{game}");
            let read = record::parse(&serde_json::to_string(&record).expect("serializes")).expect("reads back");
            assert_eq!(code(&read), Ok(()), "{game}");
            // Any field changed alone is refused; all made consistent with a change, the decks refuse it.
            let mut contribution = record.clone();
            contribution.contributions.as_mut().expect("three")[2] = "04".repeat(32);
            assert_eq!(code(&contribution), Err("shuffle_derivation"), "{game}");
            let server_seed = RummyRecord { server_seed: Some("5".into()), ..record.clone() };
            assert_eq!(code(&server_seed), Err("shuffle_commitment"), "{game}");
            let salt = RummyRecord { salt: Some("c4".repeat(32)), ..record.clone() };
            assert_eq!(code(&salt), Err("shuffle_commitment"), "{game}");
            for changed in [
                ShuffleProof::contributed(4, SALT, vec![[1; 32], [2; 32], [4; 32]]),
                ShuffleProof::contributed(5, SALT, vec![[1; 32], [2; 32], [3; 32]]),
                ShuffleProof::contributed(4, [0xc4; 32], vec![[1; 32], [2; 32], [3; 32]]),
            ] {
                let fields = changed.fields();
                let claimed = RummyRecord {
                    seed: fields.seed,
                    salt: fields.salt,
                    commitment: fields.commitment,
                    server_seed: fields.server_seed,
                    contributions: fields.contributions,
                    ..record.clone()
                };
                assert_eq!(code(&claimed), Err("shuffle_not_from_seed"), "{game}");
            }
        }
    }

    #[test]
    fn records_with_their_proof_verify_reshuffles_included() {
        for game in GameKind::ALL {
            let mut reshuffles = 0;
            // A dozen matches, and for Rami more until one reshuffles (Rommi never does; Rumino's bots
            // seldom do: rumino/tests/records.rs has a match of random moves that does).
            for seed in 0..300 {
                if seed >= 12 && (reshuffles > 0 || game != GameKind::Rami) {
                    break;
                }
                let record = played(game, 2 + (seed % 3) as usize, seed);
                assert_eq!(record.seed, Some(seed.to_string()));
                let json = serde_json::to_string(&record).expect("serializes");
                let read = record::parse(&json).expect("reads back");
                assert_eq!(read, record);
                assert_eq!(code(&read), Ok(()), "{game} seed {seed}");
                reshuffles += read.rounds.iter().flat_map(|r| &r.log).filter(|e| e.kind() == "reshuffle").count();
            }
            assert!(game != GameKind::Rami || reshuffles > 0, "{game}: some match reshuffles");
        }
    }

    #[test]
    fn a_record_without_the_fields_verifies_as_before() {
        let record = RummyRecord { seed: None, salt: None, commitment: None, ..played(GameKind::Rami, 3, 1) };
        let json = serde_json::to_string(&record).expect("serializes");
        assert!(!json.contains("\"seed\"") && !json.contains("\"salt\"") && !json.contains("\"commitment\""));
        assert_eq!(code(&record), Ok(()));
    }

    #[test]
    fn a_changed_seed_salt_or_commitment_is_refused() {
        for game in GameKind::ALL {
            let record = played(game, 3, 4);
            let seed = RummyRecord { seed: Some("5".into()), ..record.clone() };
            assert_eq!(code(&seed), Err("shuffle_commitment"), "{game}");
            let salt = RummyRecord { salt: Some("c4".repeat(32)), ..record.clone() };
            assert_eq!(code(&salt), Err("shuffle_commitment"), "{game}");
            let commitment =
                RummyRecord { commitment: Some(romirami_game::commitment::commit(4, &[0xc4; 32])), ..record.clone() };
            assert_eq!(code(&commitment), Err("shuffle_commitment"), "{game}");
            let err = record::verify(&commitment).expect_err("refused");
            assert_eq!(
                err.to_string(),
                "match: shuffle proof: the commitment is not the SHA-256 of the seed and the salt"
            );
            let partial = RummyRecord { commitment: None, ..record.clone() };
            assert_eq!(code(&partial), Err("shuffle_fields"), "{game}");
        }
    }

    #[test]
    fn decks_not_from_the_seed_are_refused() {
        for game in GameKind::ALL {
            let record = played(game, 3, 4);
            // Seeds honestly committed whose dealer or first deck are not the record's.
            for other in [5, 6, 7] {
                let err = record::verify(&claiming(&record, other)).expect_err("refused");
                assert_eq!(err.code(), "shuffle_not_from_seed", "{game}: {err}");
                let RecordError::Shuffle { at, .. } = &err else { unreachable!("the code says so") };
                assert_eq!(*at, At { round: Some(1), entry: None }, "{game}: {err}");
            }
            assert_eq!(code(&claiming(&record, 4)), Ok(()));
        }
        let err = record::verify(&claiming(&played(GameKind::Rommi, 2, 1), 2)).expect_err("refused");
        assert!(err.to_string().starts_with("round 1: shuffle proof: round 1's `"), "{err}");
    }

    /// Plays `m` out with `choose`, abandoning after `limit` actions.
    fn play_out<M, A>(
        m: &mut M,
        to_act: impl Fn(&M) -> Option<Seat>,
        choose: impl Fn(&M, Seat, &mut RummyRng) -> Option<A>,
        apply: impl Fn(&mut M, Seat, &A) -> bool,
        abandon: impl Fn(&mut M),
    ) {
        let mut rng = RummyRng::from_seed(99);
        for _ in 0..20_000 {
            let Some(seat) = to_act(m) else { return };
            let action = choose(m, seat, &mut rng).expect("the bot has a move");
            assert!(apply(m, seat, &action), "the bot's move is legal");
        }
        abandon(m);
    }

    /// Where the first outcome drawn after the first deal is: the first reshuffle of round 1, or else
    /// round 2's deck.
    fn after_the_first_deal(record: &RummyRecord) -> At {
        let first = &record.rounds[0];
        match first.log.iter().position(|entry| matches!(entry, LogEntry::Reshuffle { .. })) {
            Some(entry) => At { round: Some(1), entry: Some(entry) },
            None => At { round: Some(2), entry: None },
        }
    }

    fn assert_refused_at(record: &RummyRecord, at: At) {
        let err = record::verify(record).expect_err("refused");
        assert_eq!(err.code(), "shuffle_not_from_seed", "{err}");
        let RecordError::Shuffle { at: found, .. } = &err else { unreachable!("the code says so") };
        assert_eq!(*found, at, "{err}");
    }

    #[test]
    fn a_later_deck_or_reshuffle_not_from_the_seed_is_refused() {
        let proof = Some(ShuffleProof::new(8, SALT));
        // Dealt from the seed; every later draw from another generator.
        let mut m = rommi::RommiMatch::new(3, 8, rommi::RommiOptions::default()).expect("a match");
        m.rng = RummyRng::from_seed(9);
        play_out(
            &mut m,
            rommi::RommiMatch::to_act,
            rommi::bot::choose,
            |m, seat, a| m.apply(seat, a).is_ok(),
            rommi::RommiMatch::abandon,
        );
        let record = m.record(meta(3, proof.clone())).expect("over");
        assert!(record.rounds.len() >= 2, "the match has a second round");
        assert_refused_at(&record, At { round: Some(2), entry: None });

        let options = rami::RamiOptions::from_json_with_defaults(&options(GameKind::Rami), 3).expect("options");
        let mut m = rami::RamiMatch::new(3, 8, options).expect("a match");
        m.source = rami::game::Source::Random(RummyRng::from_seed(9));
        play_out(
            &mut m,
            rami::RamiMatch::to_act,
            rami::bot::choose,
            |m, seat, a| m.apply(seat, a).is_ok(),
            rami::RamiMatch::abandon,
        );
        let record = m.record(meta(3, proof.clone())).expect("over");
        assert_refused_at(&record, after_the_first_deal(&record));

        let mut m = rumino::RuminoMatch::new(3, 8, rumino::RuminoOptions::default()).expect("a match");
        m.source = rumino::game::Source::Random(RummyRng::from_seed(9));
        play_out(
            &mut m,
            rumino::RuminoMatch::to_act,
            // Random moves that neither knock nor declare gin, so that the stock runs out.
            |m, seat, rng| {
                let legal = m.legal_actions(seat);
                let long: Vec<_> = legal
                    .iter()
                    .filter(|a| {
                        !matches!(a, rumino::RuminoAction::Knock | rumino::RuminoAction::Discard { gin: true, .. })
                    })
                    .copied()
                    .collect();
                let from = if long.is_empty() { &legal } else { &long };
                Some(from[rng.below(from.len())])
            },
            |m, seat, a| m.apply(seat, a).is_ok(),
            rumino::RuminoMatch::abandon,
        );
        let record = m.record(meta(3, proof.clone())).expect("over");
        let at = after_the_first_deal(&record);
        assert!(at.entry.is_some(), "the first hand reshuffles");
        assert_refused_at(&record, at);
    }
}
