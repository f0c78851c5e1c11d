//! Seating: joining, watching, leaving, refusals, writes that fail, and the waiting table.

use super::*;

#[test]
fn a_full_table_starts_and_every_seat_is_stored_first() {
    let (mut ana, mut bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    assert!(table.writes.is_empty(), "the host's seat was stored with the table");
    table.join(&bruno);
    assert!(
        matches!(table.writes.last(), Some(Durable::Start { shuffle, players, .. }) if shuffle.server_seed == 7 && players.len() == 2)
    );
    assert_eq!(table.core.state(), TableState::Playing);
    assert_eq!(table.lobby.public_tables()[0].state, TableState::Playing);
    for client in [&mut ana, &mut bruno] {
        assert!(client.messages().iter().any(|m| matches!(m, ServerMsg::Table { view: Some(_), .. })));
    }
}

#[test]
fn the_hosts_bots_sit_as_their_levels_players_and_keep_the_table_rated() {
    // Each level is a player of its own (`crate::bots`), rated like anyone: a table stays as rated as its
    // host chose, and everyone sees each bot's level.
    use romirami_game::Level;
    let ana = Client::new(1, "Ana");
    let mut table = Table::open(&ana, 4, None);
    table.join(&ana);
    assert!(table.lobby.public_tables()[0].rated, "rated as the host chose");
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: Level::Strong });
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: Level::Easy });
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: Level::Strong });
    assert_eq!(table.core.state(), TableState::Playing);
    let summary = &table.lobby.public_tables()[0];
    assert!(summary.rated, "bots of a level count for the ratings");
    assert_eq!(summary.levels, vec![None, Some(Level::Strong), Some(Level::Easy), Some(Level::Strong)]);
    let names: Vec<_> = summary.seats.iter().flatten().map(|p| (p.id, p.name.as_str())).collect();
    let strong = crate::bots::player(Level::Strong);
    assert_eq!(names[1], (strong.id, "Bot · strong"));
    assert_eq!(names[3], names[1], "two bots of a level are its one player");
    assert_eq!(names[2], (crate::bots::id(Level::Easy), "Bot · easy"));
    assert_eq!(summary.bots, vec![false, true, true, true]);
    // The game's players, as stored at the start, are the levels' players.
    let started = table.writes.iter().find_map(|w| match w {
        Durable::Start { players, .. } => Some(players.clone()),
        _ => None,
    });
    let levels: Vec<_> = started.expect("the start is stored").iter().map(|p| p.level()).collect();
    assert_eq!(levels, vec![None, Some(Level::Strong), Some(Level::Easy), Some(Level::Strong)]);
}

#[test]
fn every_seating_refusal_has_its_code() {
    let (mut ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    // Only the host starts, kicks and adds bots; a game needs two players.
    table.command(TableCommand::Start { from: bruno.from.clone() });
    table.command(TableCommand::Kick { from: bruno.from.clone(), seat: Seat(0) });
    table.command(TableCommand::AddBot { from: bruno.from.clone(), level: romirami_game::Level::Normal });
    assert_eq!(bruno.errors(), vec![ErrorCode::NotHost; 3]);
    ana.messages();
    table.command(TableCommand::Start { from: ana.from.clone() });
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(0) });
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(1) });
    assert_eq!(ana.errors(), vec![ErrorCode::NotEnoughPlayers, ErrorCode::BadOptions, ErrorCode::NotSeated]);
    // Not a member: nothing to leave, no seat to act from; the game has not started.
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    table.act(&ana, Action::Pass);
    assert_eq!(bruno.errors(), vec![ErrorCode::NotSeated]);
    assert_eq!(ana.errors(), vec![ErrorCode::NotStarted]);
    // Watching needs the link here (spectators: link); a private table would not even admit to exist.
    table.command(TableCommand::Watch { from: cleo.from.clone(), invite: None, since: None });
    assert_eq!(cleo.errors(), vec![ErrorCode::SpectatingNotAllowed]);
    table.join(&bruno);
    table.join(&cleo);
    assert_eq!(cleo.errors(), vec![ErrorCode::AlreadyStarted]);
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(1) });
    table.command(TableCommand::Start { from: ana.from.clone() });
    assert_eq!(ana.errors(), vec![ErrorCode::AlreadyStarted; 3]);
}

#[test]
fn a_private_table_does_not_admit_to_exist_without_its_link_and_a_full_one_refuses() {
    let (ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let lobby = Arc::new(Listings::default());
    let options = TableOptions {
        seats: 3,
        public: false,
        spectators: SpectatorPolicy::Everyone,
        clock: None,
        rated: true,
        tournament: None,
    };
    let now = Now { at: Instant::now(), wall: OffsetDateTime::UNIX_EPOCH };
    let core = TableCore::open(
        TableId(Uuid::nil()),
        "key".into(),
        ana.from.player.clone(),
        options,
        romi_rami(),
        shared(&lobby),
        now,
    );
    let mut table = Table::around(core, lobby, now.at);
    table.command(TableCommand::Join { from: bruno.from.clone(), invite: None, since: None });
    table.command(TableCommand::Watch { from: bruno.from.clone(), invite: Some("nope".into()), since: None });
    assert_eq!(bruno.errors(), vec![ErrorCode::NoSuchTable; 2]);
    assert!(table.lobby.public_tables().is_empty(), "a private table is not listed");
    table.join(&bruno);
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
    assert_eq!(table.core.state(), TableState::Playing, "the bot took the last seat: the game starts");
    table.join(&cleo);
    assert_eq!(cleo.errors(), vec![ErrorCode::AlreadyStarted]);
}

#[test]
fn a_refused_write_changes_nothing_and_says_unavailable() {
    let (mut ana, mut bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    table.store_fails = true;
    table.join(&bruno);
    assert_eq!(bruno.errors(), vec![ErrorCode::Unavailable]);
    assert_eq!(table.core.summary().seats[1], None, "the seat is free again");
    table.store_fails = false;
    table.join(&bruno);
    let (mut ana2, mut bruno2) = (ana.second_connection(11), bruno.second_connection(12));
    table.join(&ana2);
    table.join(&bruno2);
    ana.messages();
    let (actor, _) = by_turn(&table, &mut ana2, &mut bruno2);
    let legal = actor.turn().expect("a turn");
    table.store_fails = true;
    let events = table.event_count();
    table.act(&actor.clone_sender(), legal[0]);
    assert_eq!(actor.errors(), vec![ErrorCode::Unavailable]);
    assert_eq!(table.event_count(), events, "nothing was applied");
    table.store_fails = false;
    table.act(&actor.clone_sender(), legal[0]);
    assert!(actor.messages().iter().any(|m| matches!(m, ServerMsg::Ack { .. })));
    let seqs: Vec<u32> =
        table.writes.iter().filter_map(|w| if let Durable::Action(row) = w { Some(row.seq) } else { None }).collect();
    assert_eq!(seqs, vec![0, 0], "the refused action's number is used again");
}

#[test]
fn a_waiting_table_closes_when_its_last_person_leaves_or_none_comes_back() {
    let (ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 3, None);
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Leave { from: ana.from.clone() });
    assert_eq!(table.core.host(), bruno.from.player.id, "the next seated player hosts the table");
    assert!(!table.closed());
    // Bruno's connection drops without leaving: the table waits for him, then closes.
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    table.at(29_999);
    assert!(!table.closed());
    table.at(30_000);
    assert!(table.closed());
    assert!(matches!(table.writes.last(), Some(Durable::Seats(seats)) if seats.iter().all(Option::is_none)));
}

#[test]
fn a_waiting_table_whose_host_went_before_being_seated_closes_after_the_grace() {
    // Ana's connection closes right after she created the table, before the table seated it: the
    // table drops her connection when it cannot write to it, and her detach then finds nobody. The
    // drop is her going, as a detach would be: the grace runs, and the table closes.
    let ana = Client::new(1, "Ana");
    let mut table = Table::open(&ana, 2, None);
    let from = ana.from.clone();
    drop(ana);
    table.command(TableCommand::Join { from: from.clone(), invite: None, since: None });
    table.command(TableCommand::Detach { conn: from.conn });
    table.at(29_999);
    assert!(!table.closed());
    table.at(30_000);
    assert!(table.closed(), "nobody seated is connected: the waiting table closes after its grace");
}

#[test]
fn a_reconnecting_member_catches_up_by_event_number() {
    let (mut table, mut ana, mut bruno) = started(None);
    let (actor, _) = by_turn(&table, &mut ana, &mut bruno);
    let seat = table.to_act().expect("on");
    let take = table.legal(seat)[0];
    table.act(&actor.clone_sender(), take);
    let mut again = actor.second_connection(21);
    table.command(TableCommand::Join { from: again.from.clone(), invite: None, since: Some(0) });
    let messages = again.messages();
    assert!(
        matches!(messages.first(), Some(ServerMsg::Events { events, .. }) if events.first().is_some_and(|e| e.n == 0)),
        "{messages:?}"
    );
    let mut far = actor.second_connection(22);
    table.command(TableCommand::Join { from: far.from.clone(), invite: None, since: Some(10_000) });
    assert!(matches!(far.messages().first(), Some(ServerMsg::Table { role: Role::Seat(_), .. })));
}

#[test]
fn a_full_table_whose_start_was_not_stored_keeps_waiting_and_refuses_newcomers() {
    let (ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let mut table = Table::open(&ana, 2, None);
    table.join(&ana);
    table.starts_fail = true;
    table.join(&bruno);
    assert_eq!(bruno.errors(), vec![ErrorCode::Unavailable], "the game could not start");
    assert_eq!(table.core.state(), TableState::Waiting);
    table.join(&cleo);
    assert_eq!(cleo.errors(), vec![ErrorCode::TableFull]);
    // Once the store is back, the host starts it.
    table.starts_fail = false;
    table.command(TableCommand::Start { from: ana.from.clone() });
    assert_eq!(table.core.state(), TableState::Playing);
}
