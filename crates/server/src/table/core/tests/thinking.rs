//! The bot's decisions away from the table's task: asked with the seat's level, answered whenever they
//! come, dropped when the game moved on meanwhile; the table answers everything else while it waits.

use romirami_game::Level;

use super::*;

/// Plays Ana's turns (the normal bot's action) until the bot is asked to decide, at most `ms` of fake time.
fn until_the_bot_is_asked(table: &mut Table, ana: &Client, ms: &mut u64) {
    while table.held().is_empty() && table.core.state() == TableState::Playing && *ms < 1_000_000 {
        if table.to_act() == Some(Seat(0)) && !table.core.summary().bots[0] {
            let action = table.core.game().and_then(|game| game.bot(Seat(0))).expect("Ana's turn");
            let action = serde_json::from_str(action.text().get()).expect("an action reads");
            table.command(TableCommand::Act { from: ana.from.clone(), id: 1, action });
        }
        *ms += 100;
        table.at(*ms);
    }
}

#[test]
fn the_hosts_strong_bot_is_asked_at_its_level_and_the_table_goes_on_while_it_thinks() {
    let mut ana = Client::new(1, "Ana");
    let mut table = Table::open(&ana, 2, None);
    table.hold_thoughts();
    table.join(&ana);
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: Level::Strong });
    let mut ms = 0;
    until_the_bot_is_asked(&mut table, &ana, &mut ms);
    assert_eq!(table.held().len(), 1);
    assert_eq!((table.held()[0].seat(), table.held()[0].level()), (Seat(1), Level::Strong));
    let before = table.actions_count();
    // While it thinks: the chat is answered, and no second decision is asked however long it takes.
    ana.messages();
    table.command(TableCommand::Chat { from: ana.from.clone(), text: "hello".into() });
    assert!(ana.messages().iter().any(|m| matches!(m, ServerMsg::Chat { .. })), "the chat goes on");
    table.at(ms + 60_000);
    assert_eq!(table.held().len(), 1, "one decision at a time");
    assert_eq!(table.actions_count(), before);
    // Its answer is played, as the bot's.
    table.think();
    assert_eq!(table.actions_count(), before + 1);
    assert!(table.actions_written().last().is_some_and(|(seat, _, by_bot)| *seat == Seat(1) && *by_bot));
}

#[test]
fn a_stand_in_plays_at_normal_and_a_decision_that_comes_after_the_end_is_dropped() {
    let (mut table, ana, bruno) = started(None);
    table.hold_thoughts();
    // Whoever is to act leaves: the bot stands in for them, at `normal`.
    let (leaver, stayer) = if table.to_act() == Some(Seat(0)) { (&ana, &bruno) } else { (&bruno, &ana) };
    let seat = table.to_act().expect("a turn");
    table.command(TableCommand::Leave { from: leaver.from.clone() });
    table.at(1_000);
    assert_eq!(table.held().len(), 1);
    assert_eq!((table.held()[0].seat(), table.held()[0].level()), (seat, Level::Normal));
    // The other player leaves too before the bot answers: the game ends, and the answer comes too late.
    table.command(TableCommand::Leave { from: stayer.from.clone() });
    assert_eq!(table.core.state(), TableState::Finished);
    let before = table.actions_count();
    table.think();
    assert_eq!(table.actions_count(), before, "nothing is played after the end");
}
