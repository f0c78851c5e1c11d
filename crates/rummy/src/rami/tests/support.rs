//! Helpers shared by Rami's tests.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::rami::{RamiMatch, RamiOptions, bot};

/// Plays `game` to its end with the bot in every seat; returns how many actions it applied.
pub(super) fn play_out(game: &mut RamiMatch, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let action = bot::choose(game, seat, &mut rng).expect("the bot acts on its turn");
        if let Err(e) = game.apply(seat, &action) {
            panic!("the bot's {action:?} was refused: {e}");
        }
        actions += 1;
        assert!(actions < 100_000, "a match ends");
    }
    actions
}

/// A new match.
pub(super) fn new_match(players: usize, seed: u64, options: RamiOptions) -> RamiMatch {
    RamiMatch::new(players, seed, options).expect("2 to 5 players")
}

/// Meta data for a record.
pub(super) fn meta(players: usize) -> crate::record::RecordMeta {
    crate::record::RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".to_owned(),
        started_at: "2026-11-21T10:00:00Z".to_owned(),
        finished_at: "2026-11-21T10:48:00Z".to_owned(),
        names: (0..players).map(|i| format!("P{i}")).collect(),
        shuffle: None,
    }
}

/// The match's record, written as JSON, read back and verified; the verified result and tally.
pub(super) fn round_trip(game: &RamiMatch) -> crate::record::Verified {
    let record = game.record(meta(game.players())).expect("an over match exports");
    let json = serde_json::to_string(&record).expect("a record serializes");
    let parsed = crate::record::parse(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(parsed, record);
    crate::record::verify(&parsed).unwrap_or_else(|e| panic!("{e}"))
}

/// Cards from their codes, for tests.
pub(super) fn cards(codes: &str) -> Vec<crate::cards::Card> {
    crate::cards::parse_cards(codes).expect("test cards are valid codes")
}

/// One card from its code.
pub(super) fn card(code: &str) -> crate::cards::Card {
    code.parse().expect("a test card is a valid code")
}

/// A match set up for a rule test: `hands` by seat, the discard pile bottom first, the stock top first;
/// seat 0 to act, before its draw, round 1 dealt by the last seat. The cards need not make a deck: a
/// rule test looks at one turn, not at a record.
pub(super) fn table(options: RamiOptions, hands: &[&str], discard: &str, stock: &str) -> RamiMatch {
    use super::super::cardkit::Hand;
    use super::super::game::{Phase, Turn};
    use crate::seat::Seat;
    let players = hands.len();
    let mut game = new_match(players, 1, options);
    game.round.dealer = Seat(players as u8 - 1);
    game.round.hands = hands.iter().map(|h| Hand::from_cards(&cards(h))).collect();
    game.round.discard = cards(discard);
    game.round.stock = cards(stock).into_iter().rev().collect();
    game.phase = Phase::Turn(Turn { seat: Seat(0), drew: false, opened_now: false, owes: None });
    game
}

/// Rami 51 options for `players` with the default match length.
pub(super) fn rami51(players: usize) -> RamiOptions {
    RamiOptions::defaults(players)
}

/// Rami 30 options for `players` with the default match length.
pub(super) fn rami30(players: usize) -> RamiOptions {
    RamiOptions { opening: crate::rami::Opening::Rami30, ..RamiOptions::defaults(players) }
}

/// A meld of these cards with this joker statement.
pub(super) fn meld(codes: &str, joker: Option<&str>) -> crate::rami::MeldCards {
    crate::rami::MeldCards::new(
        cards(codes),
        joker.map(|j| serde_json::from_value(serde_json::json!(j)).expect("a joker statement")),
    )
}

/// The seat's hand, sorted.
pub(super) fn hand_of(game: &RamiMatch, seat: u8) -> Vec<crate::cards::Card> {
    game.round.hands[usize::from(seat)].cards()
}

/// Puts a meld of `codes` laid by `owner` on the table, with the next id; returns its id.
pub(super) fn put_meld(game: &mut RamiMatch, owner: u8, codes: &str, joker: Option<&str>) -> crate::melds::MeldId {
    let spec = meld(codes, joker);
    let id = crate::melds::MeldId(game.round.melds.len() as u32 + 1);
    let built =
        crate::melds::Meld::new(id, crate::seat::Seat(owner), &spec.cards, spec.joker, super::super::melds::RULES)
            .expect("a test meld is valid");
    game.round.melds.push(built);
    id
}

/// Applies `action` for `seat`, which must be accepted.
pub(super) fn ok(game: &mut RamiMatch, seat: u8, action: crate::rami::RamiAction) {
    if let Err(e) = game.apply(crate::seat::Seat(seat), &action) {
        panic!("{action:?} by seat {seat} was refused: {e}");
    }
}

/// Applies `action` for `seat`, which must be refused with a message starting with `message`; checks
/// that the match did not change.
pub(super) fn refused(game: &mut RamiMatch, seat: u8, action: crate::rami::RamiAction, message: &str) {
    let before = format!("{:?}", game.view(crate::seat::Viewer::Seat(crate::seat::Seat(seat))));
    let events = game.event_count();
    match game.apply(crate::seat::Seat(seat), &action) {
        Ok(()) => panic!("{action:?} by seat {seat} was accepted"),
        Err(e) => assert!(e.to_string().starts_with(message), "{action:?}: `{e}` does not start with `{message}`"),
    }
    assert_eq!(format!("{:?}", game.view(crate::seat::Viewer::Seat(crate::seat::Seat(seat)))), before);
    assert_eq!(game.event_count(), events);
}
