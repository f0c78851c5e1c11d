//! The game in play: refusals, take-back, clocks, stand-in bots, abandonment, catch-up and restore.

use super::*;

#[test]
fn play_refusals_name_the_turn_and_the_rules() {
    let (mut table, mut ana, mut bruno) = started(None);
    let (actor, other) = by_turn(&table, &mut ana, &mut bruno);
    let legal = actor.turn();
    assert!(legal.is_none(), "the turn came with the start");
    table.act(&other.clone_sender(), Action::Pass);
    assert_eq!(other.errors(), vec![ErrorCode::NotYourTurn]);
    table.act(&actor.clone_sender(), Action::Discard { cards: romirami_engine::Cards::EMPTY });
    assert_eq!(actor.errors(), vec![ErrorCode::IllegalAction]);
    // §7: nothing to take back at the start of a turn.
    table.act(&actor.clone_sender(), Action::TakeBack);
    assert_eq!(actor.errors(), vec![ErrorCode::IllegalAction]);
    assert!(table.actions_written().is_empty(), "nothing refused is written");
}

#[test]
fn a_take_back_undoes_the_last_step_of_ones_turn_only() {
    let (mut table, mut ana, mut bruno) = started(None);
    let seat = table.to_act().expect("on");
    let (actor, _) = by_turn(&table, &mut ana, &mut bruno);
    let take = table.legal(seat).into_iter().find(|a| matches!(a, Action::Take { .. })).expect("a take");
    table.act(&actor.clone_sender(), take);
    let legal = actor.turn().expect("the turn goes on");
    assert!(legal.contains(&Action::TakeBack), "§7: a take can be taken back");
    table.act(&actor.clone_sender(), Action::TakeBack);
    assert!(actor.messages().iter().any(|m| matches!(m, ServerMsg::Ack { .. })));
    assert_eq!(table.to_act(), Some(seat));
    assert_eq!(table.actions_written().len(), 2, "the take-back is in the log too");
}

#[test]
fn a_player_out_of_time_is_played_by_the_bot_until_their_next_turn_after_coming_back() {
    let clock = Clock { turn_ms: 1000, reserve_ms: 2000 };
    let (mut table, ana, bruno) = started(Some(clock));
    let seat = table.to_act().expect("on");
    // 1 s of turn, then 2 s of reserve: out of time at 3 s, not before.
    table.at(2999);
    assert!(table.actions_written().is_empty());
    assert_eq!(table.bots(), vec![false, false]);
    table.at(3000);
    assert!(table.bots()[seat.index()], "the bot stands in");
    // The bot plays after its delay, its moves marked as the bot's, until the turn passes.
    table.at(3100);
    assert!(table.actions_written().iter().all(|(s, _, by_bot)| *s == seat && *by_bot));
    assert!(!table.actions_written().is_empty());
    let (player, other_player) = if seat == Seat(0) { (&ana, &bruno) } else { (&bruno, &ana) };
    // Coming back mid-turn: the seat stays the bot's until the turn has passed.
    table.join(player);
    let mut ms = 3100;
    while table.to_act() == Some(seat) {
        ms += 100;
        table.at(ms);
    }
    assert!(table.bots()[seat.index()], "the bot finishes the turn it started");
    // The other seat's player has the full turn: nothing runs out before its 1 s + 2 s.
    let other = table.to_act().expect("on");
    let before = table.actions_written().len();
    table.at(ms + 2999);
    assert_eq!(table.actions_written().len(), before, "{other} keeps its turn");
    // The other plays its turn; at the next one the seat is its player's again.
    while table.to_act() == Some(other) {
        let legal = table.legal(other);
        let action = legal.iter().copied().find(|a| *a != Action::TakeBack).expect("a move");
        table.act(other_player, action);
    }
    assert_eq!(table.to_act(), Some(seat));
    assert!(!table.bots()[seat.index()], "the player has their seat back");
}

#[test]
fn the_reserve_is_spent_only_beyond_the_turn_time_and_shown_in_the_clocks() {
    let clock = Clock { turn_ms: 1000, reserve_ms: 5000 };
    let (mut table, mut ana, mut bruno) = started(Some(clock));
    let seat = table.to_act().expect("on");
    table.at(1500);
    let (actor, _) = by_turn(&table, &mut ana, &mut bruno);
    let legal = table.legal(seat);
    let action = legal.iter().copied().find(|a| matches!(a, Action::Pass)).unwrap_or(legal[0]);
    table.act(&actor.clone_sender(), action);
    let reserve = table.actions_written()[0];
    assert_eq!(reserve.0, seat);
    let written = table.writes.iter().find_map(|w| if let Durable::Action(row) = w { row.reserve_ms } else { None });
    assert_eq!(written, Some(4500), "0.5 s over the turn time comes off the reserve");
    let clocks = actor.messages().into_iter().filter(|m| matches!(m, ServerMsg::Clocks { .. })).count();
    assert!(clocks > 0 || table.to_act() == Some(seat), "a new turn sends the clocks");
}

#[test]
fn a_player_who_leaves_is_played_by_the_bot_and_the_game_is_abandoned_when_all_have_left() {
    let (mut table, ana, bruno) = started(None);
    table.command(TableCommand::Leave { from: ana.from.clone() });
    assert_eq!(table.bots(), vec![true, false]);
    assert_eq!(table.core.state(), TableState::Playing);
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    assert_eq!(table.core.state(), TableState::Finished, "nobody is left to play");
    assert!(table.effects.iter().any(|e| matches!(e, Effect::StoreResult(_))));
    assert!(table.lobby.public_tables().is_empty(), "a finished table leaves the lobby");
}

#[test]
fn players_out_of_time_who_lose_their_connection_have_the_grace_to_come_back() {
    // Out of time, the bot plays the seat; a reload (the connection drops, a new one joins) is not a
    // departure: the game goes on, and is abandoned only if nobody comes back within the grace.
    let clock = Clock { turn_ms: 1000, reserve_ms: 0 };
    let (mut table, mut ana, bruno) = started(Some(clock));
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    let mut ms = 0;
    while !table.bots()[0] || !table.bots()[1] {
        ms += 100;
        table.at(ms);
        assert!(ms < 60_000, "both run out of time");
    }
    table.command(TableCommand::Detach { conn: ana.from.conn });
    assert_eq!(table.core.state(), TableState::Playing, "a dropped connection is no departure");
    table.at(ms + 1000);
    assert_eq!(table.core.state(), TableState::Playing);
    table.join(&ana);
    let messages = ana.messages();
    assert!(!messages.iter().any(|m| matches!(m, ServerMsg::GameOver { .. })), "{messages:?}");
    assert_eq!(table.core.state(), TableState::Playing, "Ana is back at her game");
}

#[test]
fn a_game_nobody_is_connected_to_is_abandoned_after_the_grace_unless_someone_comes_back() {
    let (mut table, ana, bruno) = started(None);
    table.command(TableCommand::Detach { conn: ana.from.conn });
    table.command(TableCommand::Detach { conn: bruno.from.conn });
    table.at(59_000);
    table.join(&ana);
    table.at(200_000);
    assert_eq!(table.core.state(), TableState::Playing, "Ana came back in time");
    table.command(TableCommand::Detach { conn: ana.from.conn });
    table.at(200_000 + 60_000);
    assert_eq!(table.core.state(), TableState::Finished, "abandoned");
    // Once its result is stored and nobody is at it, a finished table keeps nothing: it closes.
    assert!(!table.closed());
    table.feed(Input::ResultStored);
    assert!(table.closed());
}

#[test]
fn a_game_whose_players_connections_closed_unseen_is_abandoned_after_the_grace() {
    // Both players' connections close before their detaches reach the table: it drops them when the
    // events of a move cannot be written to them, and their detaches then find nobody. Their going
    // still counts: nobody is connected, so the abandonment's grace runs.
    let (mut table, mut ana, mut bruno) = started(None);
    let (ana_conn, bruno_conn) = (ana.from.conn, bruno.from.conn);
    let mover = by_turn(&table, &mut ana, &mut bruno).0.clone_sender();
    drop((ana, bruno));
    let seat = table.to_act().expect("on");
    let action = table.legal(seat)[0];
    table.act(&mover, action);
    table.command(TableCommand::Detach { conn: ana_conn });
    table.command(TableCommand::Detach { conn: bruno_conn });
    // The task wakes the core only when it asks to be woken: the grace must be asked for.
    let due = table.now().at + Duration::from_secs(60);
    assert_eq!(table.core.deadline(), Some(due), "the abandonment grace runs");
    table.at(60_000);
    assert_eq!(table.core.state(), TableState::Finished, "abandoned");
}

#[test]
fn bots_play_a_whole_game_at_the_table() {
    let host = Client::new(1, "Ana");
    // The host stays but runs out of time at once: the bot stands in for them from then on.
    let mut table = Table::open(&host, 3, Some(Clock { turn_ms: 100, reserve_ms: 0 }));
    table.join(&host);
    table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
    table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
    assert_eq!(table.core.summary().seats.iter().flatten().filter(|p| p.name.starts_with("Bot")).count(), 2);
    let mut ms = 0;
    while table.core.state() == TableState::Playing && ms < 10_000_000 {
        ms += 100;
        table.at(ms);
    }
    assert_eq!(table.core.state(), TableState::Finished);
    assert!(table.actions_written().len() > 30, "a whole game: {}", table.actions_written().len());
    assert!(table.actions_written().iter().all(|(_, _, by_bot)| *by_bot));
    let ended = table.effects.iter().find_map(|e| match e {
        Effect::StoreResult(finished) => Some(finished.outcome.ended_by.clone()),
        _ => None,
    });
    assert_ne!(ended.as_deref(), Some("abandoned"), "played to its end by the rules");
}

#[test]
fn a_restored_game_replays_its_log_and_waits_for_its_players() {
    let (ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut game = romirami_engine::Game::new(2, 7).expect("2 players");
    let mut actions = Vec::new();
    for _ in 0..3 {
        let seat = game.to_act().expect("on");
        let action = game.legal_actions(seat)[0];
        game.apply(seat, &action).expect("legal");
        let action = serde_json::to_string(&action).expect("writes");
        actions.push(StoredAction { seat, action, by_bot: false, reserve_ms: None });
    }
    let players = [&ana, &bruno]
        .iter()
        .zip(0u8..)
        .map(|(c, seat)| GamePlayer {
            seat: Seat(seat),
            id: c.from.player.id,
            name: c.from.player.name.clone(),
            bot: false,
        })
        .collect();
    let table = TableRow {
        id: TableId(Uuid::nil()),
        game: crate::protocol::ROMI_RAMI.into(),
        options: "{}".into(),
        rated: true,
        tournament: None,
        host: ana.from.player.id,
        seats: 2,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: OffsetDateTime::UNIX_EPOCH,
        invite: "key".into(),
        clock: None,
    };
    let stored = UnfinishedGame {
        table,
        seed: 7,
        salt: None,
        contributions: Vec::new(),
        started_at: OffsetDateTime::UNIX_EPOCH,
        players,
        actions,
    };
    let lobby = Arc::new(Listings::default());
    let start = Instant::now();
    let now = Now { at: start, wall: OffsetDateTime::UNIX_EPOCH };
    let core = TableCore::restored(stored.clone(), shared(&lobby), now).expect("it replays");
    assert_eq!(core.game().map(|g| g.event_count()), Some(game.event_count()));
    let host = stored.table.host;
    assert_eq!(lobby.hosting(host), 1, "the game in play is one of its host's open tables again");
    let mut restored = Table::around(core, lobby, start);
    assert!(restored.core.deadline().is_some(), "the abandonment grace runs while nobody is connected");
    restored.at(60_000);
    assert_eq!(restored.core.state(), TableState::Finished, "nobody came back");
    assert_eq!(restored.lobby.hosting(host), 0, "and no longer once it is over");
    // A log the rules refuse does not come back.
    let stored_again = stored.clone();
    let mut broken = stored;
    broken.actions.push(StoredAction {
        seat: Seat(5),
        action: r#"{"type":"pass"}"#.into(),
        by_bot: false,
        reserve_ms: None,
    });
    assert!(TableCore::restored(broken, shared(&Arc::new(Listings::default())), now).is_err());
    // Nor does one that holds no action of the game.
    let mut unreadable = stored_again;
    unreadable.actions.push(StoredAction {
        seat: Seat(0),
        action: r#"{"type":"fly"}"#.into(),
        by_bot: false,
        reserve_ms: None,
    });
    assert!(TableCore::restored(unreadable, shared(&Arc::new(Listings::default())), now).is_err());
}

#[test]
fn spectators_never_see_a_hand() {
    let (mut table, _ana, _bruno) = started(None);
    let mut watcher = Client::new(9, "Cleo");
    table.command(TableCommand::Watch { from: watcher.from.clone(), invite: Some("key".into()), since: None });
    let messages = watcher.messages();
    let Some(ServerMsg::Table { view: Some(view), role: Role::Spectator, .. }) = messages.first() else {
        panic!("{messages:?}")
    };
    assert!(view.hand.is_none(), "a spectator's view holds no hand");
    assert_eq!(table.core.summary().spectator_count, 1);
}

#[test]
fn an_action_after_the_end_is_refused_as_game_over() {
    let host = Client::new(1, "Ana");
    let mut table = Table::open(&host, 2, None);
    table.join(&host);
    table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
    // Ana leaves: the bot plays both seats to the end; her connection comes back to the finished table.
    table.command(TableCommand::Leave { from: host.from.clone() });
    let mut ms = 0;
    while table.core.state() == TableState::Playing && ms < 10_000_000 {
        ms += 100;
        table.at(ms);
    }
    assert_eq!(table.core.state(), TableState::Finished);
    let mut back = host.second_connection(7);
    table.join(&back);
    assert!(matches!(back.messages().first(), Some(ServerMsg::Table { role: Role::Seat(Seat(0)), .. })));
    table.act(&back.clone_sender(), Action::Pass);
    assert_eq!(back.errors(), vec![ErrorCode::GameOver]);
    // The finished table stays while someone is at it, stored or not; it closes when they go.
    table.feed(Input::ResultStored);
    assert!(!table.closed(), "Ana is still looking at it");
    table.command(TableCommand::Detach { conn: back.from.conn });
    assert!(table.closed());
}

#[test]
fn a_player_back_by_event_number_after_the_end_is_told_the_game_is_over() {
    let host = Client::new(1, "Ana");
    let mut table = Table::open(&host, 2, None);
    table.join(&host);
    table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
    table.command(TableCommand::Leave { from: host.from.clone() });
    let mut ms = 0;
    while table.core.state() == TableState::Playing && ms < 10_000_000 {
        ms += 100;
        table.at(ms);
    }
    assert_eq!(table.core.state(), TableState::Finished);
    // Ana's connection broke (or her table moved to another node) just as the game ended: she comes back with
    // every event, but `game_over` was sent while she was away; the events do not carry it.
    let count = table.core.game().expect("a game").event_count();
    let mut back = host.second_connection(7);
    table.command(TableCommand::Join { from: back.from.clone(), invite: None, since: Some(count) });
    let messages = back.messages();
    assert!(matches!(messages.first(), Some(ServerMsg::Events { events, .. }) if events.is_empty()), "{messages:?}");
    assert!(messages.iter().any(|m| matches!(m, ServerMsg::GameOver { .. })), "{messages:?}");
}

#[test]
fn a_member_rebuilds_a_long_log_page_by_page_and_a_stranger_gets_none() {
    let limit = 7;
    let host = Client::new(1, "Ana");
    let config = TableConfig { catch_up_limit: limit, ..config() };
    // Ana stays but runs out of time at once: the bot plays her seat too, and the game goes on.
    let clock = Some(Clock { turn_ms: 100, reserve_ms: 0 });
    let mut table = Table::open_configured(&host, 2, clock, romi_rami(), Fixed::default(), config);
    table.join(&host);
    table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
    let mut ms = 0;
    while table.event_count().is_some_and(|n| n < 3 * limit) && ms < 1_000_000 {
        ms += 100;
        table.at(ms);
    }
    let count = table.event_count().expect("started");
    assert!(count >= 3 * limit, "the bots played on: {count} events");
    // A late spectator asking to catch up from the start gets the table, not the events: too many.
    let mut cleo = Client::new(9, "Cleo");
    table.command(TableCommand::Watch { from: cleo.from.clone(), invite: Some("key".into()), since: Some(0) });
    assert!(matches!(cleo.messages().first(), Some(ServerMsg::Table { .. })));
    // Page by page, `limit` at a time, Cleo gets every event once, in order, as a spectator sees it.
    let mut log = Vec::new();
    while log.len() < count {
        table.command(TableCommand::History { from: cleo.from.clone(), from_event: log.len() });
        let messages = cleo.messages();
        let [ServerMsg::History { events, .. }] = &messages[..] else { panic!("{messages:?}") };
        assert!(!events.is_empty() && events.len() <= limit, "{} events", events.len());
        for event in events {
            assert_eq!(event.n, log.len(), "numbered in order, from the one asked for");
            log.push(event.event.clone());
        }
    }
    table.command(TableCommand::History { from: cleo.from.clone(), from_event: count + 5 });
    assert!(matches!(&cleo.messages()[..], [ServerMsg::History { events, .. }] if events.is_empty()));
    let game = table.core.game().expect("started");
    let spectators: Vec<_> = game.events_for(romirami_game::Viewer::Spectator, 0, usize::MAX).into_iter().collect();
    assert_eq!(log.len(), spectators.len());
    // Issue 40: the events are built only as far as asked (a `history` from 0 cost the whole game before).
    let viewer = romirami_game::Viewer::Spectator;
    assert_eq!(game.events_for(viewer, 0, 3).len(), 3);
    assert_eq!(
        game.events_for(viewer, count - 2, 5).iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        [count - 2, count - 1]
    );
    let same = |a: &romirami_engine::VisibleEvent, b: &romirami_game::Json| {
        serde_json::to_value(a).ok() == serde_json::from_str::<serde_json::Value>(b.get()).ok()
    };
    assert!(log.iter().zip(&spectators).all(|(a, (_, b))| same(a, b)), "filtered for a spectator");
    // Someone who is not at the table learns nothing.
    let mut stranger = Client::new(11, "Eve");
    table.command(TableCommand::History { from: stranger.from.clone(), from_event: 0 });
    assert_eq!(stranger.errors(), vec![ErrorCode::NotSeated]);
}

#[test]
fn a_game_whose_events_do_not_carry_its_view_sends_the_view_after_them() {
    // Rommi's events do not say where a laid-off card sits: after each batch the table sends every member
    // the view as it now stands, so that a spectator follows the match without asking. Romi Rami's events
    // carry its view: no view follows them.
    let games = crate::games();
    for (name, carries) in [("rommi", false), ("romi-rami", true)] {
        let game = GameChoice::choose(&games, Some(name), None, 2).expect("a game");
        let host = Client::new(1, "Ana");
        let mut cleo = Client::new(3, "Cleo");
        let mut table = Table::open_game(&host, 2, Some(Clock { turn_ms: 100, reserve_ms: 0 }), game);
        table.join(&host);
        table.command(TableCommand::Watch { from: cleo.from.clone(), invite: Some("key".into()), since: None });
        table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
        cleo.texts();
        let mut ms = 0;
        while table.actions_count() < 3 {
            ms += 50;
            table.at(ms);
        }
        // As JSON: Rommi's payloads are no Romi Rami view.
        let messages: Vec<serde_json::Value> =
            cleo.texts().iter().map(|text| serde_json::from_str(text).expect("JSON")).collect();
        let kinds: Vec<&str> = messages.iter().map(|m| m["type"].as_str().unwrap_or("")).collect();
        let events = kinds.iter().filter(|k| **k == "events").count();
        let views: Vec<usize> = (0..kinds.len()).filter(|&i| kinds[i] == "view").collect();
        assert!(events >= 3, "{name}: {kinds:?}");
        if carries {
            assert!(views.is_empty(), "{name}: the events are enough");
        } else {
            assert_eq!(views.len(), events, "{name}: a view after each batch of events: {kinds:?}");
            assert!(views.iter().all(|&i| kinds[i - 1] == "events"), "{name}: right after them: {kinds:?}");
            let view = &messages[*views.last().expect("a view")]["view"];
            assert!(view["hand"].is_null(), "{name}: a spectator's view holds no hand: {view}");
            let count = table.core.game().expect("on").event_count();
            assert_eq!(view["event_count"].as_u64(), u64::try_from(count).ok(), "{name}: {view}");
        }
    }
}

#[test]
fn the_rummy_family_plays_whole_matches_at_the_table_pausing_between_rounds() {
    let games = crate::games();
    for (name, options, seats) in [
        ("rommi", serde_json::json!({ "target": 60 }), 3),
        ("rami", serde_json::json!({ "match_end": { "rounds": 2 } }), 4),
        ("rumino", serde_json::json!({ "max_rebuys": 1 }), 3),
    ] {
        let game = GameChoice::choose(&games, Some(name), Some(&options), seats).expect("the options fit");
        let host = Client::new(1, "Ana");
        // The host stays but runs out of time at once: the bot stands in for them from then on.
        let clock = Clock { turn_ms: 100, reserve_ms: 0 };
        let mut table = Table::open_game(&host, seats, Some(clock), game);
        table.join(&host);
        for _ in 1..seats {
            table.command(TableCommand::AddBot { from: host.from.clone(), level: romirami_game::Level::Normal });
        }
        assert_eq!(table.core.state(), TableState::Playing, "{name}");
        let pause = u64::try_from(config().round_pause.as_millis()).expect("short");
        let (mut ms, mut rounds, mut round, mut round_ended_at) = (0, 0, table.round(), None);
        let mut actions = table.actions_count();
        while table.core.state() == TableState::Playing && ms < 100_000_000 {
            ms += 50;
            table.at(ms);
            let written = table.actions_count();
            if written > actions {
                if let Some(ended) = round_ended_at.take() {
                    assert!(ms >= ended + pause, "{name}: the next round waited for the pause");
                }
                actions = written;
            }
            if table.round() != round {
                (round, rounds, round_ended_at) = (table.round(), rounds + 1, Some(ms));
            }
        }
        assert_eq!(table.core.state(), TableState::Finished, "{name}: the match ends");
        assert!(rounds >= 1, "{name}: a round ended at least once");
        let Some(Effect::StoreResult(finished)) = table.effects.iter().find(|e| matches!(e, Effect::StoreResult(_)))
        else {
            panic!("{name}: the result is stored");
        };
        assert_eq!(finished.outcome.seats.len(), usize::from(seats), "{name}");
        assert_ne!(finished.outcome.ended_by, "abandoned", "{name}: played to its end by the rules");
    }
}
