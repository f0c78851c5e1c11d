//! A choice the game asks outside the turns of play — Rumino's rebuy (rumino §9 step 4): a time of its
//! own (`Config::choice_time`) while the turn clock stands still, then the bot's choice made for the
//! player, who keeps the seat.

use serde_json::{Value, json};

use super::*;

/// Every action row written, as JSON: seat, action, whether the bot played it.
fn rows(table: &Table) -> Vec<(Seat, Value, bool)> {
    table
        .writes
        .iter()
        .filter_map(|w| match w {
            Durable::Action(row) => Some((row.seat, serde_json::from_str(&row.action).expect("JSON"), row.by_bot)),
            _ => None,
        })
        .collect()
}

/// A Rumino table of Ana (seat 0) and two of the host's bots, with a turn clock of 1 s and no reserve,
/// played until Ana is asked whether to rebuy. Ana plays carelessly (she draws and throws away the first
/// card listed, never knocks) so that she is the one eliminated; the first of 40 seeds where she is asked.
/// Returns the table, Ana, when the choice is made for her, and what Ana was sent last.
fn asked() -> (Table, Client, u64, Vec<String>) {
    let games = crate::games();
    for seed in 0..40 {
        let game = GameChoice::choose(&games, Some("rumino"), Some(&json!({ "max_rebuys": 1 })), 3).expect("fits");
        let mut ana = Client::new(1, "Ana");
        let clock = Clock { turn_ms: 1000, reserve_ms: 0 };
        let mut table = Table::open_with(&ana, 3, Some(clock), game, Fixed { seed, ..Fixed::default() });
        table.join(&ana);
        table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
        table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
        let mut ms = 0;
        // What Ana was sent since her last action.
        let mut sent = Vec::new();
        while table.core.state() == TableState::Playing && ms < 10_000_000 {
            let game = table.core.game().expect("on");
            if game.to_act() != Some(Seat(0)) {
                ms += 50;
                table.at(ms);
                continue;
            }
            if game.choice() {
                let due = table.core.deadline().expect("the choice's time");
                let due = u64::try_from(due.duration_since(table.start).as_millis()).expect("small");
                sent.extend(ana.texts());
                return (table, ana, due, sent);
            }
            let legal: Vec<Value> = serde_json::from_str(game.legal(Seat(0)).get()).expect("JSON");
            let careless = legal.iter().find(|a| a["type"] == "draw" || (a["type"] == "discard" && a["gin"] == false));
            let action = careless.unwrap_or(&legal[0]).clone();
            let before = table.actions_count();
            table.command(TableCommand::Act { from: ana.from.clone(), id: 1, action: action.clone() });
            // Read as a client does: a connection that reads nothing is dropped once its outbox is full.
            sent = ana.texts();
            let refused = sent.iter().any(|text| text.contains(r#""type":"error""#));
            assert!(!refused && table.actions_count() == before + 1, "{action} is played");
        }
    }
    panic!("Ana was asked to rebuy in none of 40 matches");
}

#[test]
fn a_rebuy_has_a_time_of_its_own_then_the_bots_choice_is_made_for_the_player() {
    let (mut table, mut ana, due, sent) = asked();
    let choice_ms = u64::try_from(config().choice_time.as_millis()).expect("short");
    let asked_at = table.ms;
    assert!(due > asked_at && due <= asked_at + choice_ms, "the choice is due {choice_ms} ms after it is asked");
    // Every member is told whose choice it is and how long it has, to count it down.
    let told: Vec<Value> = sent
        .iter()
        .map(|text| serde_json::from_str::<Value>(text).expect("JSON"))
        .filter(|msg| msg["type"] == "choice")
        .collect();
    assert_eq!(told.len(), 1, "one choice message: {sent:?}");
    assert_eq!(told[0]["seat"], 0);
    let left_ms = told[0]["left_ms"].as_u64().expect("a number");
    assert!(left_ms > 0 && left_ms <= choice_ms && due - left_ms <= asked_at, "{left_ms} ms of {choice_ms}");
    let written = rows(&table).len();
    // Far beyond the turn clock's 1 s: the choice still waits for Ana, and she is not out of time.
    table.at(due - 1);
    assert_eq!(rows(&table).len(), written, "rumino §9 step 4: the choice is the player's");
    assert!(!table.bots()[0], "the turn clock stands still during a choice");
    assert!(ana.texts().iter().all(|text| !text.contains(r#""type":"error""#)));
    table.at(due);
    let made = rows(&table);
    let (seat, action, by_bot) = made.get(written).expect("the choice is made when its time runs out");
    assert_eq!((*seat, action, *by_bot), (Seat(0), &json!({ "type": "rebuy", "rebuy": true }), true), "the bot rebuys");
    assert!(!table.bots()[0], "the seat stays Ana's: only this choice was made for her");
}

#[test]
fn a_rebuy_chosen_in_time_is_the_players_and_nothing_is_chosen_after() {
    let (mut table, ana, due, _) = asked();
    let written = rows(&table).len();
    let action = json!({ "type": "rebuy", "rebuy": false });
    table.command(TableCommand::Act { from: ana.from.clone(), id: 2, action: action.clone() });
    table.at(due + 5_000);
    let made = rows(&table);
    assert_eq!(made.get(written), Some(&(Seat(0), action, false)), "Ana's own choice");
    assert!(made[written + 1..].iter().all(|(seat, _, _)| *seat != Seat(0)), "she is out: nothing more is hers");
}
