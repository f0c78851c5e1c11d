//! Being at a table together: presence as the others see it, and the two chats (limits, hostile text,
//! the spectators' chat kept apart during the game and merged after it, history, mutes).

use super::*;
use crate::protocol::{CHAT_HISTORY, ChatChannel, ChatLine, Presence, PresenceChange};

fn presences(client: &mut Client) -> Vec<(Seat, Presence, PresenceChange)> {
    client
        .messages()
        .into_iter()
        .filter_map(|msg| match msg {
            ServerMsg::Presence { seat, presence, change, .. } => Some((seat, presence, change)),
            _ => None,
        })
        .collect()
}

/// The chat messages sent to `client` since the last call: `(history?, texts)` per message.
fn chats(client: &mut Client) -> Vec<(bool, Vec<String>)> {
    let texts = |lines: Vec<ChatLine>| lines.into_iter().map(|line| line.text).collect();
    client
        .messages()
        .into_iter()
        .filter_map(|msg| match msg {
            ServerMsg::Chat { lines, .. } => Some((false, texts(lines))),
            ServerMsg::ChatHistory { lines, .. } => Some((true, texts(lines))),
            _ => None,
        })
        .collect()
}

fn say(table: &mut Table, client: &Client, text: &str) {
    table.command(TableCommand::Chat { from: client.from.clone(), text: text.into() });
}

fn watch(table: &mut Table, client: &Client) {
    table.command(TableCommand::Watch { from: client.from.clone(), invite: Some("key".into()), since: None });
}

#[test]
fn the_others_see_a_player_go_away_come_back_and_leave() {
    let (mut table, mut ana, mut bruno) = started(None);
    assert_eq!(table.core.summary().presence, vec![Some(Presence::Here); 2]);
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    assert_eq!(presences(&mut ana), vec![(Seat(1), Presence::Away, PresenceChange::Disconnected)]);
    assert_eq!(table.core.summary().presence, vec![Some(Presence::Here), Some(Presence::Away)]);
    // Bruno comes back on a new connection: Ana is told; Bruno's catch-up shows him here already.
    let mut bruno_again = bruno.second_connection(3);
    table.join(&bruno_again);
    assert_eq!(presences(&mut ana), vec![(Seat(1), Presence::Here, PresenceChange::Back)]);
    assert!(presences(&mut bruno_again).is_empty());
    // A second connection of a player who is here changes nothing anyone sees.
    let second = ana.second_connection(4);
    table.join(&second);
    table.command(TableCommand::Detach { conn: second.from.conn });
    assert!(presences(&mut bruno_again).is_empty(), "Ana's other connection is still here");
    table.command(TableCommand::Leave { from: ana.from.clone() });
    assert_eq!(presences(&mut bruno_again), vec![(Seat(0), Presence::Bot, PresenceChange::Left)]);
    assert_eq!(table.core.summary().presence, vec![Some(Presence::Bot), Some(Presence::Here)]);
    assert!(presences(&mut bruno).is_empty(), "a closed connection is told nothing");
}

#[test]
fn running_out_of_time_is_told_to_everyone_and_the_bot_shows() {
    let clock = Clock { turn_ms: 1000, reserve_ms: 0 };
    let (mut table, mut ana, mut bruno) = started(Some(clock));
    let seat = table.to_act().expect("on");
    table.at(999);
    assert!(presences(&mut ana).is_empty());
    table.at(1000);
    let told = vec![(seat, Presence::Bot, PresenceChange::OutOfTime)];
    assert_eq!(presences(&mut ana), told);
    assert_eq!(presences(&mut bruno), told);
    assert_eq!(table.core.summary().presence[seat.index()], Some(Presence::Bot));
}

#[test]
fn presence_before_the_start_is_in_the_summary_only() {
    let (mut ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 3, None);
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    assert_eq!(table.core.summary().presence, vec![Some(Presence::Here), Some(Presence::Away), None]);
    assert!(presences(&mut ana).is_empty(), "no game log yet: the seats panel is sent whole");
}

#[test]
fn the_players_do_not_read_the_spectators_chat_until_the_game_is_over() {
    let clock = Clock { turn_ms: 100, reserve_ms: 0 };
    let (mut table, mut ana, mut bruno) = started(Some(clock));
    let mut cleo = Client::new(5, "Cleo");
    watch(&mut table, &cleo);
    cleo.messages();
    say(&mut table, &ana, "good luck");
    say(&mut table, &cleo, "Ana holds two jokers");
    assert_eq!(chats(&mut bruno), vec![(false, vec!["good luck".to_owned()])], "the spectators' chat stays apart");
    assert_eq!(chats(&mut ana), vec![(false, vec!["good luck".to_owned()])]);
    assert_eq!(chats(&mut cleo), vec![(false, vec!["good luck".into()]), (false, vec!["Ana holds two jokers".into()])]);
    // A spectator who comes late reads both chats' history; a player who reloads reads the players'.
    let mut dora = Client::new(6, "Dora");
    watch(&mut table, &dora);
    assert_eq!(chats(&mut dora), vec![(true, vec!["good luck".into(), "Ana holds two jokers".into()])]);
    let mut bruno_again = bruno.second_connection(7);
    table.join(&bruno_again);
    assert_eq!(chats(&mut bruno_again), vec![(true, vec!["good luck".to_owned()])]);
    // Both run out of time and the bots play the game to its end: the two chats are one.
    table.at(100_000_000);
    assert_eq!(table.core.state(), TableState::Finished);
    let merged = vec!["good luck".to_owned(), "Ana holds two jokers".to_owned()];
    assert_eq!(chats(&mut ana), vec![(true, merged.clone())]);
    say(&mut table, &cleo, "well played");
    let mut all = merged;
    all.push("well played".into());
    assert_eq!(chats(&mut bruno_again), vec![(true, all[..2].to_vec()), (false, vec!["well played".into()])]);
    // What each said is stored, in its chat, numbered in that chat (issue 40: one number for both chats let the
    // players count the spectators' lines from the gaps in theirs).
    say(&mut table, &ana, "thanks");
    let stored: Vec<(u64, ChatChannel)> = table
        .writes
        .iter()
        .filter_map(|w| if let Durable::Chat(row) = w { Some((row.line.n, row.line.channel)) } else { None })
        .collect();
    assert_eq!(
        stored,
        vec![
            (0, ChatChannel::Players),
            (0, ChatChannel::Spectators),
            (1, ChatChannel::Spectators),
            (1, ChatChannel::Players)
        ]
    );
}

#[test]
fn hostile_or_too_long_messages_are_refused_and_a_flood_is_slowed() {
    let (mut table, mut ana, mut bruno) = started(None);
    for text in ["", "   ", "hi\u{202E}there", "a\u{0007}b", "zero\u{200B}width", "line\u{2028}break", "\u{E000}"] {
        say(&mut table, &ana, text);
        assert_eq!(ana.errors(), vec![ErrorCode::BadChat], "{text:?}");
    }
    say(&mut table, &ana, &"x".repeat(MAX_CHAT + 1));
    assert_eq!(ana.errors(), vec![ErrorCode::BadChat], "too long");
    say(&mut table, &ana, &"é".repeat(MAX_CHAT));
    assert!(ana.errors().is_empty(), "300 characters, each two bytes, are fine");
    // Markup is text: it goes as written, for the page to show as text.
    say(&mut table, &ana, "<img src=x onerror=alert(1)>   ok");
    let said = chats(&mut bruno);
    assert_eq!(said.last(), Some(&(false, vec!["<img src=x onerror=alert(1)> ok".to_owned()])));
    for _ in 0..3 {
        say(&mut table, &ana, "spam");
    }
    assert!(ana.errors().is_empty(), "five messages in ten seconds");
    say(&mut table, &ana, "one too many");
    assert_eq!(ana.errors(), vec![ErrorCode::RateLimited]);
    table.at(10_000);
    say(&mut table, &ana, "later");
    assert!(ana.errors().is_empty(), "the window has passed");
    // Someone who is not at the table says nothing there.
    let mut stranger = Client::new(9, "Zed");
    say(&mut table, &stranger, "hello?");
    assert_eq!(stranger.errors(), vec![ErrorCode::NotSeated]);
    let chat_writes = table.writes.iter().filter(|w| matches!(w, Durable::Chat(_))).count();
    assert_eq!(chat_writes, 6, "only what was accepted is stored");
}

const MAX_CHAT: usize = crate::protocol::MAX_CHAT_CHARS;

#[test]
fn a_muted_player_is_not_read_by_whoever_muted_them() {
    let (mut table, mut ana, bruno) = started(None);
    let mut cleo = Client::new(5, "Cleo");
    watch(&mut table, &cleo);
    say(&mut table, &bruno, "first");
    table.command(TableCommand::Mute { from: ana.from.clone(), player: bruno.from.player.id, muted: true });
    let msgs = ana.messages();
    assert!(msgs.contains(&ServerMsg::Muted { table: table.core.id(), player: bruno.from.player.id, muted: true }));
    assert!(
        msgs.iter().any(|m| matches!(m, ServerMsg::ChatHistory { lines, .. } if lines.is_empty())),
        "the history without Bruno: {msgs:?}"
    );
    cleo.messages();
    say(&mut table, &bruno, "second");
    assert!(chats(&mut ana).is_empty(), "Ana muted Bruno");
    assert_eq!(chats(&mut cleo), vec![(false, vec!["second".to_owned()])], "for herself only");
    table.command(TableCommand::Mute { from: ana.from.clone(), player: bruno.from.player.id, muted: false });
    assert_eq!(chats(&mut ana), vec![(true, vec!["first".to_owned(), "second".to_owned()])]);
    // Nobody mutes themselves; anyone else may be muted, at the table or not: the answer is the same, so it
    // tells nobody who is watching (issue 40).
    table.command(TableCommand::Mute { from: ana.from.clone(), player: ana.from.player.id, muted: true });
    assert_eq!(ana.errors(), vec![ErrorCode::BadMute]);
    let stranger = PlayerId(Uuid::from_u128(77));
    table.command(TableCommand::Mute { from: ana.from.clone(), player: stranger, muted: true });
    let msgs = ana.messages();
    assert!(msgs.contains(&ServerMsg::Muted { table: table.core.id(), player: stranger, muted: true }), "{msgs:?}");
    // At most 64 muted players.
    for n in 0..63u128 {
        table.command(TableCommand::Mute {
            from: ana.from.clone(),
            player: PlayerId(Uuid::from_u128(100 + n)),
            muted: true,
        });
    }
    assert!(ana.errors().is_empty());
    table.command(TableCommand::Mute { from: ana.from.clone(), player: PlayerId(Uuid::from_u128(999)), muted: true });
    assert_eq!(ana.errors(), vec![ErrorCode::BadMute]);
    // A spectator may mute a player too.
    table.command(TableCommand::Mute { from: cleo.from.clone(), player: ana.from.player.id, muted: true });
    assert!(cleo.errors().is_empty());
}

#[test]
fn the_chat_comes_back_with_a_restored_table_and_keeps_its_last_messages() {
    let (mut table, mut ana, _bruno) = started(None);
    let lines: Vec<ChatLine> = (0..CHAT_HISTORY as u64 + 3)
        .map(|n| ChatLine { n, from: ana.from.player.clone(), channel: ChatChannel::Players, text: format!("{n}") })
        .collect();
    table.core.restore_chat(lines);
    let mut late = ana.second_connection(8);
    table.join(&late);
    let history = chats(&mut late);
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].1.len(), CHAT_HISTORY);
    assert_eq!(history[0].1[0], "3");
    say(&mut table, &ana, "next");
    ana.messages();
    let n = table.writes.iter().rev().find_map(|w| if let Durable::Chat(row) = w { Some(row.line.n) } else { None });
    assert_eq!(n, Some(CHAT_HISTORY as u64 + 3), "numbers go on after the restored ones");
    // The spectators' chat numbers its own lines, from 0, beside the restored players' chat.
    let mut cleo = Client::new(9, "Cleo");
    watch(&mut table, &cleo);
    cleo.messages();
    say(&mut table, &cleo, "hello");
    let last =
        table.writes.iter().rev().find_map(|w| if let Durable::Chat(row) = w { Some(row.line.clone()) } else { None });
    assert_eq!(last.map(|line| (line.n, line.channel)), Some((0, ChatChannel::Spectators)));
}

#[test]
fn an_admin_removes_a_line_for_everyone_and_closes_the_table() {
    use crate::table::ModerationAct;
    let (mut table, mut ana, mut bruno) = started(None);
    say(&mut table, &ana, "a rude word");
    say(&mut table, &ana, "sorry");
    chats(&mut ana);
    chats(&mut bruno);
    let admin = Client::new(9, "Lea");
    let moderate = |act| TableCommand::Moderate { from: admin.from.clone(), act };
    // The line goes from the table's chat: every member reads the chat again without it.
    table.command(moderate(ModerationAct::RemoveChat { channel: ChatChannel::Players, n: 0 }));
    for client in [&mut ana, &mut bruno] {
        assert_eq!(chats(client), vec![(true, vec!["sorry".to_owned()])]);
    }
    // A line not kept changes nothing and tells nobody.
    table.command(moderate(ModerationAct::RemoveChat { channel: ChatChannel::Spectators, n: 0 }));
    assert!(chats(&mut ana).is_empty());
    // Closing a table in play ends its game as abandoned.
    table.command(moderate(ModerationAct::Close));
    assert_eq!(table.core.state(), TableState::Finished);
    assert!(
        ana.messages().iter().any(|m| matches!(m, ServerMsg::GameOver { .. })),
        "the players are told the game is over"
    );
}
