//! The check of one finished game: the stored record replays, and the actions each seat's bot saw
//! acknowledged, played in turn from the game's seed, make exactly the stored game.
//!
//! The bots know only their own actions, not the order of the seats' turns, and not whether the one
//! action a seat sent just before a kill was stored. Both come from the game itself: a new game from
//! the record's seed asks each turn for the seat to act, which plays its next action; an unanswered
//! action is first tried as stored, and when the game that follows stops matching, as dropped
//! (backtracking, as a parser does). After every action the new game's events, as every seat and a
//! spectator see them, must be the stored game's. It must end where the stored game ended, with every
//! acknowledged action played: none lost, none doubled.

use romirami_game::{AnyGame, GameKind, Json, Seat, Viewer};
use serde_json::Value;

use super::seat::Life;

/// How often the check may go back on an unanswered action before it gives up: each kill leaves at
/// most one per game, and a wrong guess shows within a turn or two.
const MAX_BACKTRACKS: usize = 10_000;

/// What the check of one game found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Checked {
    /// The stored game's result, as `game_over` shows it.
    pub result: Option<Value>,
    /// Actions in the stored game, each one a seat's acknowledged or unanswered action.
    pub actions: usize,
    /// Unanswered actions that turned out to be stored.
    pub unanswered_stored: usize,
}

/// A seat's next action, as its bot knew it.
#[derive(Clone, Copy, Debug)]
enum Item<'a> {
    /// Acknowledged: it must be in the game.
    Acknowledged(&'a Value),
    /// Sent just before a kill and never answered: in the game or not.
    Unanswered(&'a Value),
}

/// A point where an unanswered action was taken as stored, to go back to.
struct Choice {
    cursors: Vec<usize>,
    seat: usize,
    steps: usize,
    stored: usize,
}

/// The stored game's events, as each viewer saw them.
struct Target {
    viewers: Vec<Viewer>,
    events: Vec<Vec<(usize, Json)>>,
    count: usize,
}

impl Target {
    /// Whether `game`'s events from `since` on are the stored game's, for every viewer.
    fn matches(&self, game: &dyn AnyGame, since: usize) -> bool {
        let until = game.event_count();
        self.viewers.iter().zip(&self.events).all(|(viewer, stored)| {
            let start = stored.partition_point(|(n, _)| *n < since);
            let end = stored.partition_point(|(n, _)| *n < until);
            let new = game.events_for(*viewer, since, usize::MAX);
            new.len() == end - start
                && new.iter().zip(&stored[start..end]).all(|(a, b)| a.0 == b.0 && a.1.get() == b.1.get())
        })
    }
}

/// Checks one finished game: `record` (the stored record) of `kind`, created with `options` (as the
/// host gave them), whose seat `i` was played by a bot that lived `lives[i]`.
///
/// # Errors
/// A sentence saying what does not hold.
pub(super) fn check(
    kind: &dyn GameKind,
    options: Option<&Value>,
    record: &str,
    lives: &[&[Life]],
) -> Result<Checked, String> {
    let stored = kind.replay(record).map_err(|e| format!("the record does not replay: {e}"))?;
    let seed = serde_json::from_str::<Value>(record)
        .ok()
        .and_then(|r| r.get("seed").and_then(Value::as_str).and_then(|s| s.parse::<u64>().ok()))
        .ok_or("the record carries no seed")?;
    let players = lives.len();
    let options = kind.options(options, players)?;
    let viewers: Vec<Viewer> =
        std::iter::once(Viewer::Spectator).chain((0..players).map(|s| Viewer::Seat(seat(s)))).collect();
    let events = viewers.iter().map(|v| stored.events_for(*v, 0, usize::MAX)).collect();
    let target = Target { viewers, events, count: stored.event_count() };
    let queues: Vec<Vec<Item<'_>>> = lives
        .iter()
        .map(|lives| {
            lives
                .iter()
                .flat_map(|life| {
                    life.acknowledged
                        .iter()
                        .map(Item::Acknowledged)
                        .chain(life.unanswered.as_ref().map(Item::Unanswered))
                })
                .collect()
        })
        .collect();
    let new_game = || kind.new_game(players, seed, &options);
    let mut game = new_game()?;
    let mut cursors = vec![0; players];
    let mut steps: Vec<(Seat, Json)> = Vec::new();
    let mut stored_unanswered = 0;
    let mut choices: Vec<Choice> = Vec::new();
    let (mut backtracks, mut furthest) = (0, (0, String::new()));
    loop {
        let failure =
            match step(game.as_mut(), &target, &queues, &mut cursors, &mut choices, steps.len(), stored_unanswered) {
                Ok(Step::Over) => {
                    let result = stored.result().and_then(|r| serde_json::from_str(r.get()).ok());
                    return Ok(Checked { result, actions: steps.len(), unanswered_stored: stored_unanswered });
                }
                Ok(Step::Played(seat, action, unanswered)) => {
                    steps.push((seat, action));
                    stored_unanswered += usize::from(unanswered);
                    continue;
                }
                Err(failure) => failure,
            };
        if steps.len() >= furthest.0 {
            furthest = (steps.len(), failure);
        }
        let Some(choice) = choices.pop() else {
            return Err(format!("after the game's first {} actions, {}", furthest.0, furthest.1));
        };
        backtracks += 1;
        if backtracks > MAX_BACKTRACKS {
            return Err(format!("no way through after {MAX_BACKTRACKS} tries; furthest: {}", furthest.1));
        }
        // Go back to the choice and take the unanswered action as dropped.
        cursors = choice.cursors;
        cursors[choice.seat] += 1;
        steps.truncate(choice.steps);
        stored_unanswered = choice.stored;
        game = new_game()?;
        for (seat, action) in &steps {
            game.apply(*seat, action.get()).map_err(|e| format!("replaying the checked actions again: {e}"))?;
        }
    }
}

fn seat(index: usize) -> Seat {
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}

/// What one step of the search did.
enum Step {
    /// The game is over, as the stored one, and every acknowledged action is in it.
    Over,
    /// The seat to act played its next action (as written canonically; whether it was unanswered).
    Played(Seat, Json, bool),
}

/// Plays the next action of the seat to act, or checks the end.
fn step(
    game: &mut dyn AnyGame,
    target: &Target,
    queues: &[Vec<Item<'_>>],
    cursors: &mut [usize],
    choices: &mut Vec<Choice>,
    steps: usize,
    stored: usize,
) -> Result<Step, String> {
    if game.is_over() {
        if game.event_count() != target.count {
            return Err(format!(
                "the game ends after {} events, the stored one after {}",
                game.event_count(),
                target.count
            ));
        }
        for (s, queue) in queues.iter().enumerate() {
            if let Some(Item::Acknowledged(action)) =
                queue[cursors[s]..].iter().find(|i| matches!(i, Item::Acknowledged(_)))
            {
                return Err(format!("seat {s}'s acknowledged action {action} is not in the stored game"));
            }
        }
        return Ok(Step::Over);
    }
    let to_act = game.to_act().ok_or("nobody is to act in a game that is not over")?;
    let s = to_act.index();
    let (action, unanswered) = match queues.get(s).and_then(|q| q.get(cursors[s])) {
        Some(Item::Acknowledged(action)) => (*action, false),
        Some(Item::Unanswered(action)) => {
            choices.push(Choice { cursors: cursors.to_vec(), seat: s, steps, stored });
            (*action, true)
        }
        None => return Err(format!("seat {s} is to act, but its bot has no action left")),
    };
    let refused = |e: romirami_game::Refusal| format!("seat {s}'s {action} is refused: {e}");
    let read = game.read_checked(to_act, action).map_err(refused)?;
    let before = game.event_count();
    game.play(to_act, &read).map_err(refused)?;
    let canonical = read.text().to_owned();
    if !target.matches(game, before) {
        return Err(format!("seat {s}'s {action} does not give the stored game's events"));
    }
    cursors[s] += 1;
    Ok(Step::Played(to_act, canonical, unanswered))
}

#[cfg(test)]
mod tests {
    use super::*;
    use romirami_game::{RecordMeta, ShuffleProof};

    /// A finished game of `game` played by its own bot from `seed`: its record, and each seat's actions
    /// in order.
    fn played(game: &str, options: Option<&Value>, players: usize, seed: u64) -> (String, Vec<Vec<Value>>) {
        let games = romirami_server::games();
        let kind = games.get(game).expect("a game of the server");
        let options = kind.options(options, players).expect("options");
        let mut play = kind.new_game(players, seed, &options).expect("a game");
        let mut actions = vec![Vec::new(); players];
        while let Some(seat) = play.to_act() {
            let action = play.bot(seat).expect("the bot plays");
            play.apply(seat, action.text().get()).expect("the bot's action is legal");
            actions[seat.index()].push(serde_json::from_str(action.text().get()).expect("JSON"));
        }
        let now = time::OffsetDateTime::now_utc();
        let meta = RecordMeta {
            id: uuid::Uuid::new_v4(),
            started_at: now,
            finished_at: now,
            names: (0..players).map(|s| format!("p{s}")).collect(),
            shuffle: Some(ShuffleProof::new(seed, [7; 32])),
        };
        (play.record(meta).expect("a record").get().to_owned(), actions)
    }

    fn run(game: &str, options: Option<&Value>, record: &str, lives: &[Vec<Life>]) -> Result<Checked, String> {
        let games = romirami_server::games();
        let lives: Vec<&[Life]> = lives.iter().map(Vec::as_slice).collect();
        check(games.get(game).expect("a game").as_ref(), options, record, &lives)
    }

    fn life(acknowledged: &[Value], unanswered: Option<&Value>) -> Life {
        Life { acknowledged: acknowledged.to_vec(), unanswered: unanswered.cloned() }
    }

    #[test]
    fn every_game_passes_with_its_actions_split_across_lives_and_fails_with_one_lost_or_doubled() {
        for game in super::super::every_game() {
            let options = super::super::table_options(game);
            let (record, actions) = played(game, options.as_ref(), 3, 11);
            let whole: Vec<Vec<Life>> = actions.iter().map(|a| vec![life(a, None)]).collect();
            let checked = run(game, options.as_ref(), &record, &whole).unwrap_or_else(|e| panic!("{game}: {e}"));
            assert_eq!(checked.actions, actions.iter().map(Vec::len).sum::<usize>(), "{game}");
            assert!(checked.result.is_some(), "{game}");

            // Seat 0's third action sent before a kill: stored (then not sent again) or dropped (then
            // sent again in the next life); an unanswered action that is not the next one is dropped.
            let a = &actions[0];
            let mut stored = whole.clone();
            stored[0] = vec![life(&a[..2], Some(&a[2])), life(&a[3..], None)];
            assert_eq!(run(game, options.as_ref(), &record, &stored).map(|c| c.unanswered_stored), Ok(1), "{game}");
            let mut dropped = whole.clone();
            dropped[0] = vec![life(&a[..2], Some(&a[2])), life(&a[2..], None)];
            assert_eq!(run(game, options.as_ref(), &record, &dropped).map(|c| c.unanswered_stored), Ok(0), "{game}");

            let mut lost = whole.clone();
            lost[0] = vec![life(&a[..2], None), life(&a[3..], None)];
            assert!(run(game, options.as_ref(), &record, &lost).is_err(), "{game}: an acknowledged action lost");
            let mut doubled = whole.clone();
            doubled[0] = vec![life(&a[..3], None), life(&a[2..], None)];
            assert!(run(game, options.as_ref(), &record, &doubled).is_err(), "{game}: an action doubled");
            let mut extra = whole.clone();
            extra[1][0].acknowledged.push(a[0].clone());
            assert!(run(game, options.as_ref(), &record, &extra).is_err(), "{game}: an action nobody stored");
        }
    }

    #[test]
    fn a_record_that_does_not_replay_or_has_no_seed_fails() {
        let (record, actions) = played("rommi", None, 2, 5);
        let lives: Vec<Vec<Life>> = actions.iter().map(|a| vec![life(a, None)]).collect();
        let mut unseeded: Value = serde_json::from_str(&record).expect("JSON");
        for field in ["seed", "salt", "commitment"] {
            unseeded.as_object_mut().expect("an object").remove(field);
        }
        let error = run("rommi", None, &unseeded.to_string(), &lives).expect_err("no seed");
        assert!(error.contains("no seed"), "{error}");
        let error = run("rami", None, &record, &lives).expect_err("another game's record");
        assert!(error.contains("does not replay"), "{error}");
    }
}
