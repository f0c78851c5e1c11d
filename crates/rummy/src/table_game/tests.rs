//! The three games played only through [`TableGame`] and through its JSON form ([`AnyGame`]): bot
//! matches to their end, every bot action checked, records replayed to the same result and outcome,
//! spectators never shown a card drawn from the stock, and option checks.

use std::collections::BTreeMap;

use romirami_game::{AnyGame, Games, RefusalKind, TableGame};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::cards::Card;
use crate::rami::{RamiAction, RamiMatch};
use crate::record::RummyRecord;
use crate::rommi::{RommiAction, RommiMatch};
use crate::rumino::{RuminoAction, RuminoMatch};
use crate::seat::{MatchEnd, MatchResult, Seat, Viewer};
use crate::table_game::TableAction;

/// What the tests need to look at beyond the trait.
trait Probe: TableGame<Result = MatchResult, Record = RummyRecord, Action: std::fmt::Debug> + Clone {
    /// `seat`'s hand as its own view shows it.
    fn hand(&self, seat: Seat) -> Vec<Card>;
    /// Whether the spectator's view holds a hand.
    fn spectator_sees_a_hand(&self) -> bool;
    /// Whether `action` is a draw from the stock.
    fn is_draw(action: &Self::Action) -> bool;
}

impl Probe for RommiMatch {
    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.view(Viewer::Seat(seat)).hand.unwrap_or_default()
    }
    fn spectator_sees_a_hand(&self) -> bool {
        self.view(Viewer::Spectator).hand.is_some()
    }
    fn is_draw(action: &TableAction<RommiAction>) -> bool {
        matches!(action, TableAction::Play(RommiAction::Draw))
    }
}

impl Probe for RamiMatch {
    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.view(Viewer::Seat(seat)).hand.unwrap_or_default()
    }
    fn spectator_sees_a_hand(&self) -> bool {
        self.view(Viewer::Spectator).hand.is_some()
    }
    fn is_draw(action: &TableAction<RamiAction>) -> bool {
        matches!(action, TableAction::Play(RamiAction::Draw))
    }
}

impl Probe for RuminoMatch {
    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.view(Viewer::Seat(seat)).hand.unwrap_or_default()
    }
    fn spectator_sees_a_hand(&self) -> bool {
        self.view(Viewer::Spectator).hand.is_some()
    }
    fn is_draw(action: &TableAction<RuminoAction>) -> bool {
        matches!(action, TableAction::Play(RuminoAction::Draw))
    }
}

/// Every card code in `value`, counted.
fn codes(value: &Value, out: &mut BTreeMap<Card, usize>) {
    match value {
        Value::String(s) => {
            if let Ok(card) = s.parse::<Card>() {
                *out.entry(card).or_default() += 1;
            }
        }
        Value::Array(items) => items.iter().for_each(|v| codes(v, out)),
        Value::Object(map) => map.values().for_each(|v| codes(v, out)),
        _ => {}
    }
}

fn codes_of(value: &impl serde::Serialize) -> BTreeMap<Card, usize> {
    let mut out = BTreeMap::new();
    codes(&serde_json::to_value(value).expect("serializable"), &mut out);
    out
}

fn raw(value: &impl serde::Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("serializable")
}

fn value(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("serializable")
}

pub(super) fn meta(players: usize) -> romirami_game::RecordMeta {
    romirami_game::RecordMeta {
        id: "5f0c2a9e-1b2c-4d3e-8f90-a1b2c3d4e5f6".parse().expect("a UUID"),
        started_at: time::macros::datetime!(2026-11-21 09:00 UTC),
        finished_at: time::macros::datetime!(2026-11-21 10:48:00.5 +01:00),
        names: (0..players).map(|i| format!("P{i}")).collect(),
        shuffle: None,
    }
}

fn games() -> Games {
    Games::new().with::<RommiMatch>().with::<RamiMatch>().with::<RuminoMatch>()
}

/// What one match measured.
#[derive(Default)]
struct Measured {
    actions: usize,
    /// The longest legal list, and all lists summed, in play steps.
    most_legal: usize,
    legal_total: usize,
    abandoned: bool,
}

/// Plays a match of `G` with `options` to its end (abandoned after `cap` actions) with the bots, through
/// the trait and, in step, through the JSON form, checking everything on the way.
fn play<G: Probe>(players: usize, seed: u64, options: Value, cap: usize) -> Measured {
    let kind = games().get(G::NAME).expect("registered").clone();
    let written = kind.options(Some(&value(&options)), players).expect("valid options");
    let typed: G::Options = serde_json::from_str(written.get()).expect("options as written read back");
    let mut game = G::new(players, seed, &typed).expect("a match");
    let mut any: Box<dyn AnyGame> = kind.new_game(players, seed, &written).expect("a match");
    let mut measured = Measured::default();
    let tag = format!("{} {players}p seed {seed} {options}", G::NAME);

    // The deal shows spectators the upcard alone.
    if !game.is_over() {
        let shown = codes_of(&game.events_for(Viewer::Spectator, 0, usize::MAX));
        let pile = codes_of(&game.view(Viewer::Spectator));
        assert!(shown.keys().all(|c| pile.contains_key(c)), "{tag}: the deal shows {shown:?}");
    }
    while let Some(seat) = game.to_act() {
        assert_eq!(any.to_act(), Some(seat), "{tag}");
        if measured.actions >= cap {
            game.abandon();
            any.abandon();
            measured.abandoned = true;
            break;
        }
        let legal = game.legal(seat);
        assert!(!legal.is_empty(), "{tag}: the seat to act has no legal action");
        measured.most_legal = measured.most_legal.max(legal.len());
        measured.legal_total += legal.len();
        for action in &legal {
            assert_eq!(game.check(seat, action), Ok(()), "{tag}: listed {action:?}");
        }
        let action = game.bot(seat).expect("the seat to act has a bot action");
        game.check(seat, &action).unwrap_or_else(|r| panic!("{tag}: the bot's action is refused: {r}"));
        for other in Seat::all(players).filter(|&s| s != seat) {
            assert!(game.legal(other).is_empty() && game.bot(other).is_none(), "{tag}");
            let refused = game.check(other, &action).expect_err("not its turn");
            assert_eq!(refused.kind, RefusalKind::NotYourTurn, "{tag}: {refused}");
        }
        // The JSON form: the same check, the same bot, the same action applied.
        let canonical = any.read_checked(seat, &value(&action)).expect("the JSON action is accepted");
        assert_eq!(any.bot(seat).map(|b| b.text().get().to_owned()), Some(canonical.text().get().to_owned()), "{tag}");
        assert_eq!(any.legal(seat).get(), raw(&legal).get(), "{tag}");

        let (round, hand, events) = (game.round(), game.hand(seat), game.event_count());
        let seen_before = codes_of(&game.view(Viewer::Spectator));
        game.apply(seat, &action).unwrap_or_else(|r| panic!("{tag}: {action:?} refused: {r}"));
        // Both ways in: the action as the table keeps it once read, and as the store gives it back.
        if measured.actions % 2 == 0 {
            any.play(seat, &canonical).expect("the action read applies it too");
        } else {
            any.apply(seat, canonical.text().get()).expect("the JSON form applies it too");
        }
        measured.actions += 1;
        assert_eq!(any.event_count(), game.event_count(), "{tag}");
        assert!(!game.spectator_sees_a_hand(), "{tag}: a spectator sees a hand");
        // Every view says how many events there were, so a client given it knows where the events resume.
        for viewer in [Viewer::Spectator, Viewer::Seat(seat)] {
            assert_eq!(value(&game.view(viewer))["event_count"], json!(game.event_count()), "{tag}");
        }

        // A card drawn from the stock: nobody else sees it, until the round ends.
        if G::is_draw(&action) && game.round() == round && !game.is_over() {
            let mut drawn = codes_of(&game.hand(seat));
            for card in hand {
                if let Some(n) = drawn.get_mut(&card) {
                    *n -= 1;
                }
            }
            drawn.retain(|_, n| *n > 0);
            let &card = drawn.keys().next().expect("a draw adds a card to the hand");
            let mut viewers = vec![Viewer::Spectator];
            viewers.extend(Seat::all(players).filter(|&s| s != seat).map(Viewer::Seat));
            for viewer in viewers {
                let told = codes_of(&game.events_for(viewer, events, usize::MAX));
                assert!(!told.contains_key(&card), "{tag}: {viewer:?} is told of the drawn {card}");
            }
            let seen = codes_of(&game.view(Viewer::Spectator));
            assert!(seen.get(&card) <= seen_before.get(&card), "{tag}: a spectator sees the drawn {card}");
        }
    }
    assert!(game.is_over() && any.is_over(), "{tag}");
    assert!(game.legal(Seat(0)).is_empty() && game.bot(Seat(0)).is_none());

    let result = game.result().expect("a result once over");
    let outcome = game.outcome().expect("an outcome once over");
    assert_eq!(any.result().map(|r| r.get().to_owned()), Some(raw(&result).get().to_owned()), "{tag}");
    assert_eq!(any.outcome().as_ref(), Some(&outcome), "{tag}");
    assert_eq!(outcome.ended_by, serde_json::to_value(result.ended_by).expect("serializable"), "{tag}");
    assert_eq!(measured.abandoned, result.ended_by == MatchEnd::Abandoned, "{tag}");
    for (i, seat) in outcome.seats.iter().enumerate() {
        assert_eq!(seat.score, result.totals[i], "{tag}");
        assert_eq!(seat.place, result.places[i], "{tag}: places");
        let won = result.winners.contains(&Seat(i as u8)) && !measured.abandoned;
        assert_eq!(seat.winner, won, "{tag}");
        assert_eq!(seat.details["total"], json!(result.totals[i]), "{tag}");
        assert!(seat.details["rounds"].is_array(), "{tag}");
    }
    if !measured.abandoned {
        assert!(outcome.seats.iter().any(|s| s.winner && s.place == 1), "{tag}");
    }

    // Once over, further actions are refused as such.
    let refused = game.check(Seat(0), &a_draw::<G>()).expect_err("over");
    assert_eq!(refused.kind, RefusalKind::GameOver, "{tag}");

    // With the shuffle proof of the match's seed, which the replay checks.
    let meta = || romirami_game::RecordMeta {
        shuffle: Some(romirami_game::ShuffleProof::new(seed, [7; 32])),
        ..meta(players)
    };
    let record = game.record(meta()).expect("a record once over");
    assert_eq!(record.seed, Some(seed.to_string()), "{tag}");
    assert_eq!(any.record(meta()).expect("a record").get(), raw(&record).get(), "{tag}");
    assert_eq!(record.finished_at, "2026-11-21T09:48:00.5Z", "{tag}");
    let replayed = G::replay(&record).unwrap_or_else(|e| panic!("{tag}: the record does not replay: {e}"));
    assert_eq!(replayed.result(), Some(result), "{tag}");
    assert_eq!(replayed.outcome(), Some(outcome), "{tag}");
    measured
}

/// A draw from the stock, in the game's JSON.
fn a_draw<G: Probe>() -> G::Action {
    serde_json::from_value(json!({ "type": "draw" }))
        .or_else(|_| serde_json::from_value(json!("draw")))
        .expect("a draw parses in every game")
}

/// Plays `seeds` matches of `G` at each table size with each of `options`, and says how long the legal
/// lists were.
fn play_many<G: Probe>(seeds: u64, options: &[Value], cap: usize) {
    let (mut most, mut total, mut steps, mut abandoned, mut matches) = (0, 0, 0, 0, 0);
    for players in G::SEATS {
        for (k, options) in options.iter().enumerate() {
            for seed in 0..seeds {
                let m = play::<G>(players, seed * 31 + k as u64 * 7 + players as u64, options.clone(), cap);
                most = most.max(m.most_legal);
                total += m.legal_total;
                steps += m.actions;
                abandoned += usize::from(m.abandoned);
                matches += 1;
            }
        }
    }
    eprintln!(
        "{}: {matches} matches, {steps} actions, {abandoned} abandoned; legal actions: at most {most}, {:.1} on average",
        G::NAME,
        total as f64 / steps.max(1) as f64
    );
    assert!(most <= 300, "{}: a legal list of {most} actions", G::NAME);
}

#[test]
fn rommi_bot_matches_play_through_the_table_trait_and_replay() {
    let options = [
        json!({ "target": 40 }),
        json!({ "variant": "500", "target": 60 }),
        json!({ "scoring": "negative", "target": 30, "meld_restriction": true }),
        json!({ "scoring": "meld_hand", "target": 30, "simple_scoring": true }),
    ];
    play_many::<RommiMatch>(2, &options, 1500);
}

#[test]
fn rami_bot_matches_play_through_the_table_trait_and_replay() {
    let options =
        [json!({}), json!({ "opening": 30, "match_end": { "limit": 80 } }), json!({ "match_end": { "rounds": 1 } })];
    play_many::<RamiMatch>(1, &options, 3000);
}

#[test]
fn rumino_bot_matches_play_through_the_table_trait_and_replay() {
    let options = [json!({}), json!({ "max_rebuys": 0 }), json!({ "max_rebuys": 2 })];
    play_many::<RuminoMatch>(2, &options, 3000);
}

/// A match abandoned in its first round: no winner, a record that replays to the same outcome.
#[test]
fn an_abandoned_match_names_no_winner_and_replays() {
    for seed in 0..3 {
        let rommi = play::<RommiMatch>(3, seed, json!({}), 5);
        let rami = play::<RamiMatch>(4, seed, json!({}), 7);
        let rumino = play::<RuminoMatch>(5, seed, json!({}), 3);
        assert!(rommi.abandoned && rami.abandoned && rumino.abandoned);
    }
}

#[test]
fn options_default_to_the_rule_books_and_out_of_range_ones_are_refused() {
    let games = games();
    let options = |name: &str, given: Option<Value>, players: usize| {
        games.get(name).expect("registered").options(given.as_ref(), players).map(|o| o.get().to_owned())
    };
    // Rommi §2: written in full, the scoring following the variant and the target the scoring.
    assert_eq!(
        options("rommi", None, 3).expect("defaults"),
        r#"{"variant":"basic","scoring":"positive","simple_scoring":false,"meld_restriction":false,"target":100}"#
    );
    let five = options("rommi", Some(json!({ "variant": "500" })), 2).expect("valid");
    assert!(five.contains(r#""scoring":"meld_hand""#) && five.contains(r#""target":500"#), "{five}");
    let negative = options("rommi", Some(json!({ "variant": "500", "scoring": "negative" })), 2).expect("valid");
    assert!(negative.contains(r#""target":100"#), "{negative}");
    assert!(options("rommi", Some(json!({ "target": 0 })), 2).is_err());
    assert!(options("rommi", Some(json!({ "jokers": true })), 2).is_err());
    assert!(options("rommi", None, 1).is_err() && options("rommi", None, 5).is_err());
    assert_eq!(RommiMatch::check_options(&Default::default(), 5).map_err(|e| e.contains("§1")), Err(true));

    // Rami §2: one round per player unless set.
    assert_eq!(options("rami", None, 4).expect("defaults"), r#"{"opening":51}"#);
    let m = <RamiMatch as TableGame>::new(4, 1, &Default::default()).expect("a match");
    assert_eq!(m.options(), crate::rami::RamiOptions::defaults(4));
    assert!(options("rami", Some(json!({ "opening": 30, "match_end": { "limit": 500 } })), 5).is_ok());
    for bad in
        [json!({ "opening": 40 }), json!({ "match_end": { "rounds": 0 } }), json!({ "match_end": { "rounds": 21 } })]
    {
        assert!(options("rami", Some(bad.clone()), 3).is_err(), "{bad}");
    }
    assert!(options("rami", Some(json!({ "match_end": { "limit": 0 } })), 3).is_err());
    assert!(options("rami", None, 1).is_err() && options("rami", None, 6).is_err());
    let typed = super::RamiTableOptions { match_end: Some(crate::rami::MatchEnd::Rounds(21)), ..Default::default() };
    assert!(RamiMatch::check_options(&typed, 3).is_err());

    // Rumino §2: one rebuy.
    assert_eq!(options("rumino", None, 6).expect("defaults"), r#"{"max_rebuys":1}"#);
    assert_eq!(options("rumino", Some(json!({})), 2).expect("defaults"), r#"{"max_rebuys":1}"#);
    assert!(options("rumino", Some(json!({ "max_rebuys": -1 })), 3).is_err());
    assert!(options("rumino", Some(json!({ "stake": 5 })), 3).is_err());
    assert!(options("rumino", None, 1).is_err() && options("rumino", None, 7).is_err());
    assert!(<RuminoMatch as TableGame>::new(7, 1, &Default::default()).is_err());
}

/// Refusals carry their kind and cite the rule book; a malformed JSON action is malformed.
#[test]
fn refusals_say_their_kind_and_cite_the_rule() {
    let games = games();
    let mut any = games.get("rami").expect("registered").new_game(3, 9, &raw(&json!({}))).expect("a match");
    let seat = any.to_act().expect("a seat to act");
    let other = seat.next(3);
    let refused = any.read_checked(other, &value(&json!("draw"))).expect_err("not its turn");
    assert_eq!(refused.kind, RefusalKind::NotYourTurn);
    let refused = any.read_checked(seat, &value(&json!({ "discard": "Qs" }))).expect_err("a draw first");
    assert_eq!(refused.kind, RefusalKind::Illegal);
    assert!(refused.message.contains("rami §7.1"), "{}", refused.message);
    assert_eq!(
        any.read_checked(seat, &value(&json!({ "fly": 1 }))).expect_err("no such action").kind,
        RefusalKind::Malformed
    );
    any.abandon();
    assert_eq!(any.read_checked(seat, &value(&json!("draw"))).expect_err("over").kind, RefusalKind::GameOver);
    assert_eq!(any.outcome().expect("over").ended_by, "abandoned");

    let mut rommi = <RommiMatch as TableGame>::new(2, 3, &Default::default()).expect("a match");
    let seat = TableGame::to_act(&rommi).expect("a seat");
    let refused =
        TableGame::check(&rommi, seat, &TableAction::Play(RommiAction::EndRound)).expect_err("the stock is full");
    assert!(refused.message.contains("rommi §6.1 d") && refused.kind == RefusalKind::Illegal);
    TableGame::abandon(&mut rommi);
    assert_eq!(
        TableGame::check(&rommi, seat, &TableAction::Play(RommiAction::Draw)).map_err(|r| r.kind),
        Err(RefusalKind::GameOver)
    );

    let rumino = <RuminoMatch as TableGame>::new(3, 3, &Default::default()).expect("a match");
    let seat = TableGame::to_act(&rumino).expect("a seat");
    let refused = TableGame::check(&rumino, seat, &TableAction::Play(RuminoAction::Rebuy { rebuy: true }))
        .expect_err("no rebuy now");
    assert!(refused.message.contains("rumino §9") && refused.kind == RefusalKind::Illegal, "{}", refused.message);
}

/// The bot is a function of the match: the same state, the same action.
#[test]
fn bots_are_deterministic() {
    let a = <RamiMatch as TableGame>::new(3, 5, &Default::default()).expect("a match");
    let b = a.clone();
    let seat = TableGame::to_act(&a).expect("a seat");
    assert_eq!(TableGame::bot(&a, seat), TableGame::bot(&b, seat));
    let r = <RuminoMatch as TableGame>::new(4, 5, &Default::default()).expect("a match");
    let seat = TableGame::to_act(&r).expect("a seat");
    assert_eq!(TableGame::bot(&r, seat), TableGame::bot(&r.clone(), seat));
}
