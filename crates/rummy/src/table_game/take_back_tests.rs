//! Taking back at a table (`take_back.rs`): what each game allows, with the rule that makes a turn final,
//! and random matches in which every take-back puts every viewer's view back exactly as it was before
//! the step, the events only growing, the record replaying and the table's log restoring the match.

use romirami_game::{RefusalKind, TableGame};
use serde::Serialize;
use serde_json::{Value, json};

use crate::cards::RummyRng;
use crate::rami::{RamiAction, RamiMatch};
use crate::rommi::{RommiAction, RommiMatch};
use crate::rumino::{RuminoAction, RuminoMatch};
use crate::seat::{Seat, Viewer};
use crate::table_game::TableAction;

/// Every viewer's view as JSON text: the seats', then the spectator's. Without `event_count`, which a take
/// back raises like any action (its `took_back` event is new; nothing sent is withdrawn).
fn views<G: TableGame>(game: &G, players: usize) -> Vec<String> {
    let mut viewers: Vec<Viewer> = Seat::all(players).map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    viewers
        .iter()
        .map(|&v| {
            let mut view = serde_json::to_value(game.view(v)).expect("serializable");
            view.as_object_mut().expect("a view is an object").remove("event_count");
            view.to_string()
        })
        .collect()
}

fn text(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("serializable")
}

/// Plays the bots until the seat to act may play an action `wanted` picks from its legal list; returns
/// that seat and action.
fn until<G: TableGame<Action = TableAction<A>>, A: Clone>(
    game: &mut G,
    wanted: impl Fn(&A) -> bool,
) -> (Seat, TableAction<A>) {
    for _ in 0..2000 {
        let seat = game.to_act().expect("the match goes on");
        if let Some(found) = game.legal(seat).into_iter().find(|a| matches!(a, TableAction::Play(p) if wanted(p))) {
            return (seat, found);
        }
        let bot = game.bot(seat).expect("a bot action");
        game.apply(seat, &bot).expect("the bot's action is legal");
    }
    panic!("no such action came within 2000 actions");
}

/// The take from the discard pile is taken back; then a draw makes the turn final; checked for `G`,
/// whose `take` and `draw` are matched by `is_take` and `is_draw`, citing `draw_rule`.
fn take_then_draw<G, A>(players: usize, seed: u64, is_take: impl Fn(&A) -> bool, draw: A, draw_rule: &str)
where
    G: TableGame<Action = TableAction<A>> + Clone,
    A: Clone + PartialEq + std::fmt::Debug + Serialize,
{
    let mut game = G::new(players, seed, &G::Options::default()).expect("a match");
    let (seat, take) = until(&mut game, is_take);
    // At the start of a turn there is nothing to take back.
    assert!(!game.legal(seat).contains(&TableAction::TakeBack), "{}: nothing to take back yet", G::NAME);
    let refused = game.check(seat, &TableAction::TakeBack).expect_err("nothing to take back");
    assert_eq!(refused.kind, RefusalKind::Illegal);
    assert!(refused.message.contains("nothing to take back"), "{}", refused.message);

    let (before, events) = (views(&game, players), game.event_count());
    game.apply(seat, &take).expect("the take");
    assert!(game.legal(seat).contains(&TableAction::TakeBack), "{}: a take can be taken back", G::NAME);
    let other = seat.next(players);
    let refused = game.check(other, &TableAction::TakeBack).expect_err("not its turn");
    assert_eq!(refused.kind, RefusalKind::NotYourTurn, "{}", refused.message);
    let taken = game.event_count();
    game.apply(seat, &TableAction::TakeBack).expect("taken back");
    assert_eq!(views(&game, players), before, "{}: exactly as before the take", G::NAME);
    assert_eq!(game.event_count(), taken + 1, "{}: one more event, none removed", G::NAME);
    let took_back = text(&game.events_for(Viewer::Spectator, taken, 1)[0].1);
    let TableAction::Play(taken_action) = &take else { unreachable!("a play") };
    let action = serde_json::to_value(taken_action).expect("serializable");
    assert_eq!(
        serde_json::from_str::<Value>(&took_back).expect("JSON"),
        json!({ "type": "took_back", "seat": seat, "action": action }),
        "{}",
        G::NAME
    );
    assert!(events < taken);

    // A draw from the stock shows the drawer a hidden card: the turn is final.
    game.apply(seat, &TableAction::Play(draw)).expect("a draw");
    assert!(!game.legal(seat).contains(&TableAction::TakeBack));
    let refused = game.check(seat, &TableAction::TakeBack).expect_err("final");
    assert_eq!(refused.kind, RefusalKind::Illegal);
    assert!(refused.message.contains(draw_rule) && refused.message.contains("final"), "{}", refused.message);
}

#[test]
fn rommi_a_take_from_the_pile_is_taken_back_a_stock_draw_is_final() {
    // rommi §6.1 b: the top card of the discard pile; §6.1 a: the stock's top card.
    take_then_draw::<RommiMatch, _>(3, 4, |a| matches!(a, RommiAction::Take { .. }), RommiAction::Draw, "rommi §6.1 a");
}

#[test]
fn rami_a_take_from_the_pile_is_taken_back_a_stock_draw_is_final() {
    // rami §7.1 b and §7.1 a.
    take_then_draw::<RamiMatch, _>(3, 4, |a| matches!(a, RamiAction::Take), RamiAction::Draw, "rami §7.1 a");
}

#[test]
fn rumino_a_take_from_the_pile_is_taken_back_a_stock_draw_is_final() {
    // rumino §6 c and §6 b.
    take_then_draw::<RuminoMatch, _>(3, 4, |a| matches!(a, RuminoAction::Take), RuminoAction::Draw, "rumino §6 b");
}

/// A Rami turn that takes from the pile and lays a meld with it (rami §7.1 b, §7.2) is taken back step
/// by step, the meld first, back to the start of the turn; a discard ends the turn and leaves nothing to
/// take back, for anyone.
#[test]
fn rami_the_steps_of_a_turn_come_back_last_first_and_a_discard_is_final() {
    let mut found = false;
    for seed in 0..40 {
        let mut game = <RamiMatch as TableGame>::new(2, seed, &Default::default()).expect("a match");
        let mut steps: Vec<Vec<String>> = Vec::new();
        for _ in 0..400 {
            let Some(seat) = TableGame::to_act(&game) else { break };
            let bot = TableGame::bot(&game, seat).expect("a bot action");
            let playing = matches!(bot, TableAction::Play(RamiAction::Take))
                || (!steps.is_empty() && !matches!(bot, TableAction::Play(RamiAction::Discard(_))));
            if playing {
                steps.push(views(&game, 2));
            } else if steps.len() >= 2 {
                // The take and at least one play: take all of them back, the last first.
                while let Some(before) = steps.pop() {
                    TableGame::apply(&mut game, seat, &TableAction::TakeBack).expect("a step to take back");
                    assert_eq!(views(&game, 2), before);
                }
                assert!(!TableGame::legal(&game, seat).contains(&TableAction::TakeBack), "back at the start");
                found = true;
                break;
            } else {
                steps.clear();
            }
            TableGame::apply(&mut game, seat, &bot).expect("legal");
            if let TableAction::Play(RamiAction::Discard(_)) = bot {
                for any in Seat::all(2) {
                    assert!(TableGame::check(&game, any, &TableAction::TakeBack).is_err(), "a discard is final");
                }
            }
        }
        if found {
            break;
        }
    }
    assert!(found, "a take followed by a play came in 40 matches");
}

/// The JSON of `take_back` in each game's own style, and nothing else read as it.
#[test]
fn take_back_is_written_as_each_game_writes_its_actions() {
    let rommi: TableAction<RommiAction> = serde_json::from_value(json!({ "type": "take_back" })).expect("reads");
    assert_eq!((rommi.clone(), text(&rommi)), (TableAction::TakeBack, r#"{"type":"take_back"}"#.to_owned()));
    let rami: TableAction<RamiAction> = serde_json::from_value(json!("take_back")).expect("reads");
    assert_eq!(text(&rami), r#""take_back""#);
    assert!(serde_json::from_value::<TableAction<RuminoAction>>(json!({ "type": "take_back", "x": 1 })).is_err());
    assert!(serde_json::from_value::<TableAction<RamiAction>>(json!({ "type": "take_back" })).is_err());
    let draw: TableAction<RuminoAction> = serde_json::from_value(json!({ "type": "draw" })).expect("reads");
    assert_eq!(draw, TableAction::Play(RuminoAction::Draw));
}

/// Random matches of `G` through the table trait, taking back often: after each take-back every
/// viewer's view is what it was before the step taken back; the events only grow; the table's log
/// (take-backs included) replayed through a new match gives the same match; the record replays.
fn random_take_backs<G: TableGame + Clone>(players: usize, seed: u64, options: Value) -> usize
where
    G::Action: Clone + PartialEq + std::fmt::Debug,
{
    let options: G::Options = serde_json::from_value(options).expect("options");
    let mut game = G::new(players, seed, &options).expect("a match");
    let mut rng = RummyRng::from_seed(seed ^ 0x7a6e);
    let mut log: Vec<(Seat, G::Action)> = Vec::new();
    // The views before each step of the turn in play.
    let mut before: Vec<Vec<String>> = Vec::new();
    let (mut turn, mut taken_back) = ((game.round(), game.to_act()), 0);
    let take_back: G::Action = serde_json::from_value(json!({ "type": "take_back" }))
        .or_else(|_| serde_json::from_value(json!("take_back")))
        .expect("take_back reads");
    while let Some(seat) = game.to_act() {
        if log.len() >= 600 {
            game.abandon();
            break;
        }
        let legal = game.legal(seat);
        for action in &legal {
            assert_eq!(game.check(seat, action), Ok(()), "listed {action:?}");
        }
        assert_eq!(legal.contains(&take_back), game.check(seat, &take_back).is_ok(), "listed exactly when legal");
        let action = if legal.contains(&take_back) && rng.below(3) == 0 {
            take_back.clone()
        } else if rng.below(2) == 0 {
            legal[rng.below(legal.len())].clone()
        } else {
            game.bot(seat).expect("a bot action")
        };
        let (views_now, events) = (views(&game, players), game.event_count());
        game.apply(seat, &action).unwrap_or_else(|r| panic!("{action:?}: {r}"));
        log.push((seat, action.clone()));
        assert!(game.event_count() > events, "every action adds events");
        if action == take_back {
            let expected = before.pop().expect("a step was there to take back");
            assert_eq!(views(&game, players), expected, "{} seed {seed}: taken back exactly", G::NAME);
            taken_back += 1;
        } else {
            let now = (game.round(), game.to_act());
            if now != turn {
                before.clear();
            } else {
                before.push(views_now);
            }
            turn = now;
        }
    }
    // A restart replays the table's log through a new match: the same match.
    let mut restored = G::new(players, seed, &options).expect("a match");
    for (seat, action) in &log {
        restored.apply(*seat, action).expect("the log replays");
    }
    if !game.is_over() || restored.to_act().is_some() {
        restored.abandon();
    }
    assert_eq!(views(&restored, players), views(&game, players));
    assert_eq!(restored.event_count(), game.event_count());
    let record = game.record(super::tests::meta(players)).expect("over");
    let replayed = G::replay(&record).unwrap_or_else(|e| panic!("{} seed {seed}: the record replays: {e}", G::NAME));
    assert_eq!(text(&replayed.result()), text(&game.result()));
    taken_back
}

#[test]
fn random_take_backs_restore_every_view_exactly() {
    let mut counts = [0; 3];
    for seed in 0..12 {
        let players = 2 + (seed % 3) as usize;
        let variant = ["basic", "500"][seed as usize % 2];
        counts[0] += random_take_backs::<RommiMatch>(players, seed, json!({ "variant": variant }));
        counts[1] += random_take_backs::<RamiMatch>(players, seed, json!({ "match_end": { "rounds": 1 } }));
        counts[2] += random_take_backs::<RuminoMatch>(players, seed, json!({}));
    }
    eprintln!("take-backs checked: rommi {}, rami {}, rumino {}", counts[0], counts[1], counts[2]);
    assert!(counts.iter().all(|&n| n >= 10), "each game took back steps: {counts:?}");
}
