//! Turn-based tables (`core/sleep.rs`) and turn pushes (`core/presence.rs`): a table whose turn is longer than
//! ten minutes sleeps when nobody is at it, with its running turn's start and end, and is never abandoned
//! or closed for being alone; each of its turns is pushed to its player. A live table pushes a turn only
//! to a player who is away from it.

use super::*;
use crate::push::{Notice, NoticeKind};
use crate::store::SleepRow;

/// A day a turn, an hour of reserve.
const DAILY: Clock = Clock { turn_ms: 86_400_000, reserve_ms: 3_600_000 };

fn sleep_row(table: &Table) -> Option<&SleepRow> {
    table.effects.iter().find_map(|effect| match effect {
        Effect::Sleep(row) => Some(&**row),
        _ => None,
    })
}

fn notices(table: &mut Table) -> Vec<Notice> {
    let (notices, others) = std::mem::take(&mut table.effects)
        .into_iter()
        .partition::<Vec<_>, _>(|effect| matches!(effect, Effect::Notify(_)));
    table.effects = others;
    notices
        .into_iter()
        .filter_map(|effect| match effect {
            Effect::Notify(notice) => Some(notice),
            _ => None,
        })
        .collect()
}

/// Plays the turn of the seat to act, as its player, until the turn moves on.
fn play_a_turn(table: &mut Table, player: &Client) {
    let seat = table.to_act().expect("a turn");
    while table.to_act() == Some(seat) && table.core.state() == TableState::Playing {
        let legal = table.legal(seat);
        table.act(player, romirami_engine::bot::choose(&legal).expect("a legal action"));
    }
}

#[test]
fn a_turn_based_game_nobody_is_at_sleeps_with_its_turns_start_and_end_and_is_never_abandoned() {
    let (mut table, ana, bruno) = started(Some(DAILY));
    table.command(TableCommand::Detach { conn: ana.from.conn });
    assert!(sleep_row(&table).is_none(), "Bruno is still there");
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    let row = sleep_row(&table).expect("nobody is there: the table sleeps").clone();
    assert_eq!(row.table, table.core.id());
    assert_eq!(row.to_act, table.to_act());
    assert_eq!(row.players, [ana.from.player.id, bruno.from.player.id]);
    let turn_and_reserve = time::Duration::milliseconds((DAILY.turn_ms + DAILY.reserve_ms) as i64);
    assert_eq!(row.wake_at, Some(row.turn_since + turn_and_reserve), "it wakes when the turn ends");
    assert!(!table.closed(), "asleep, not closed");
    assert_eq!(table.core.state(), TableState::Playing);
    table.at(11 * 60_000);
    assert!(!table.effects.iter().any(|e| matches!(e, Effect::StoreResult(_))), "not abandoned after ten minutes");
}

#[test]
fn a_turn_based_table_that_waits_for_players_sleeps_instead_of_closing() {
    let ana = Client::new(1, "Ana");
    let mut table = Table::open(&ana, 2, Some(DAILY));
    table.join(&ana);
    table.command(TableCommand::Detach { conn: ana.from.conn });
    let row = sleep_row(&table).expect("the host went: the table sleeps").clone();
    assert_eq!((row.to_act, row.wake_at), (None, None), "only a visitor wakes a waiting table");
    table.at(24 * 3_600_000);
    assert!(!table.closed(), "a turn-based table waits for its players as long as they take");
}

#[test]
fn every_turn_at_a_turn_based_table_is_pushed_to_its_player_even_one_at_the_table() {
    let (mut table, mut ana, mut bruno) = started(Some(DAILY));
    let first = table.to_act().expect("a turn");
    let pushed = notices(&mut table);
    assert_eq!(pushed.len(), 1, "the first turn: {pushed:?}");
    let ids = [ana.from.player.id, bruno.from.player.id];
    let seat_player = |seat: Seat| ids[seat.index()];
    assert_eq!((pushed[0].kind, pushed[0].players.clone()), (NoticeKind::Turn, vec![seat_player(first)]));
    let (player, _) = by_turn(&table, &mut ana, &mut bruno);
    let player = player.clone_sender();
    play_a_turn(&mut table, &player);
    let next = table.to_act().expect("the next turn");
    let pushed = notices(&mut table);
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    assert_eq!(pushed[0].players, vec![seat_player(next)], "pushed although its player is at the table");
    assert_eq!(pushed[0].game, "romi-rami");
}

#[test]
fn a_live_table_pushes_a_turn_only_to_a_player_away_from_it() {
    let (mut table, mut ana, mut bruno) = started(None);
    assert!(notices(&mut table).is_empty(), "both are at the table");
    // Whoever is not to act goes away; the other plays their turn: the one away is told.
    let (player, away) = by_turn(&table, &mut ana, &mut bruno);
    let (player, away) = (player.clone_sender(), away.clone_sender());
    table.command(TableCommand::Detach { conn: away.from.conn });
    play_a_turn(&mut table, &player);
    let pushed = notices(&mut table);
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    assert_eq!((pushed[0].kind, pushed[0].players.clone()), (NoticeKind::Turn, vec![away.from.player.id]));
    assert!(sleep_row(&table).is_none(), "a live table never sleeps");
}

#[test]
fn leaving_a_turn_based_game_is_going_away_for_now_the_seat_stays_its_players() {
    let (mut table, ana, bruno) = started(Some(DAILY));
    for player in [&ana, &bruno] {
        table.command(TableCommand::Leave { from: player.from.clone() });
    }
    assert_eq!(table.bots(), [false, false], "no bot takes the seats of players who went away");
    assert!(sleep_row(&table).is_some(), "nobody is there: the table sleeps");
}
