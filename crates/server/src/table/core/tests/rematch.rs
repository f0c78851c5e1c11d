//! Playing again: the offer at the end of a game, its answers, its timeout, the table it opens, and the
//! finished table pointing there.

use super::*;
use crate::protocol::RematchEnd;
use crate::table::seating::Control;

/// A quick clock: every player runs out of time at once, and the bot finishes the game for them while
/// they stay at the table.
const QUICK: Clock = Clock { turn_ms: 100, reserve_ms: 0 };

/// Plays `table` to its end, in fake time, reading the members' messages as it goes (a member whose
/// outbox fills up is dropped as too slow); what the last step sent is left to read.
fn play_out(table: &mut Table, members: &mut [&mut Client]) {
    let mut ms = table.ms;
    while table.core.state() == TableState::Playing && ms < 100_000_000 {
        for member in members.iter_mut() {
            member.texts();
        }
        ms += 100;
        table.at(ms);
    }
    assert_eq!(table.core.state(), TableState::Finished);
}

/// Ana (host, seat 0) and Bruno finish a game of Romi Rami, watched by Carla; everyone's messages so
/// far are read.
fn finished() -> (Table, Client, Client, Client) {
    let (mut ana, mut bruno, mut carla) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Carla"));
    // Ids from 100 on: the test's table is id 1.
    let entropy = Fixed { ids: 100, seed_step: 1, ..Fixed::default() };
    let mut table = Table::open_with(&ana, 2, Some(QUICK), romi_rami(), entropy);
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Watch { from: carla.from.clone(), invite: Some("key".into()), since: None });
    play_out(&mut table, &mut [&mut ana, &mut bruno, &mut carla]);
    for client in [&mut ana, &mut bruno, &mut carla] {
        client.texts();
    }
    (table, ana, bruno, carla)
}

fn answer(table: &mut Table, client: &Client, accept: bool) {
    table.command(TableCommand::Rematch { from: client.from.clone(), accept });
}

/// The rematch messages sent to `client` since the last call.
fn rematch_msgs(client: &mut Client) -> Vec<ServerMsg> {
    client
        .messages()
        .into_iter()
        .filter(|msg| {
            matches!(
                msg,
                ServerMsg::Rematch { .. } | ServerMsg::RematchClosed { .. } | ServerMsg::RematchStarted { .. }
            )
        })
        .collect()
}

/// The new table of the rematch `table` opened, with its game's start stored.
fn rematch_table(table: &mut Table) -> Table {
    let plan = table.rematches.pop().expect("a rematch was opened");
    let lobby = table.lobby.clone();
    let entropy = Fixed { seed: 100, seed_step: 1, ..Fixed::default() };
    let mut core = TableCore::rematch(plan, shared_with(&lobby, entropy), table.now());
    let effects = core.take_effects();
    let mut next = Table::around(core, lobby, table.start);
    next.ms = table.ms;
    next.answer(effects);
    next
}

#[test]
fn when_everyone_says_yes_the_same_players_play_again_at_a_new_table_and_the_old_one_points_there() {
    let (mut table, mut ana, mut bruno, mut carla) = finished();
    let id = table.core.id();
    answer(&mut table, &ana, true);
    for client in [&mut ana, &mut bruno, &mut carla] {
        let offer = rematch_msgs(client);
        assert!(
            matches!(&offer[..], [ServerMsg::Rematch { accepted, .. }] if *accepted == vec![true, false]),
            "{offer:?}"
        );
    }
    assert!(table.rematches.is_empty(), "Bruno has not answered");
    answer(&mut table, &bruno, true);
    let plan = table.rematches.last().expect("every yes opens the rematch");
    let next = plan.id;
    assert_ne!(next, id, "a new game has a table of its own");
    assert_eq!((plan.from, plan.invite.as_str(), plan.host), (id, "key", ana.from.player.id));
    assert_eq!(
        plan.options,
        TableOptions {
            seats: 2,
            public: true,
            spectators: SpectatorPolicy::Link,
            clock: Some(QUICK),
            rated: true,
            tournament: None
        }
    );
    let seats: Vec<_> = plan.seats.iter().map(|o| (o.player.id, o.control)).collect();
    assert_eq!(seats, vec![(ana.from.player.id, Control::Player), (bruno.from.player.id, Control::Player)]);
    let started = ServerMsg::RematchStarted { table: id, rematch: next };
    for client in [&mut ana, &mut bruno, &mut carla] {
        assert_eq!(rematch_msgs(client), vec![started.clone()], "players and spectators follow");
    }
    // The old table closes once its result is stored, its members gone to the new one.
    table.feed(Input::ResultStored);
    assert!(table.closed());

    let mut again = rematch_table(&mut table);
    assert_eq!(again.core.state(), TableState::Playing, "the rematch starts as it opens");
    // Ana and Bruno are seated there already; Carla watches with the same link.
    again.join(&ana);
    again.join(&bruno);
    again.command(TableCommand::Watch { from: carla.from.clone(), invite: Some("key".into()), since: None });
    let role = |client: &mut Client| {
        client.messages().into_iter().find_map(|msg| match msg {
            ServerMsg::Table { role, .. } => Some(role),
            _ => None,
        })
    };
    let (to_ana, to_carla) = (ana.messages(), carla.messages());
    let back = |msgs: &[ServerMsg]| {
        msgs.iter().any(|m| matches!(m, ServerMsg::Presence { change: crate::protocol::PresenceChange::Back, .. }))
    };
    assert!(!back(&to_ana) && !back(&to_carla), "taking one's seat at a rematch is no coming back: {to_ana:?}");
    let role_in = |msgs: Vec<ServerMsg>| {
        msgs.into_iter().find_map(|msg| match msg {
            ServerMsg::Table { role, .. } => Some(role),
            _ => None,
        })
    };
    assert_eq!(role_in(to_ana), Some(Role::Seat(Seat(0))));
    assert_eq!(role(&mut bruno), Some(Role::Seat(Seat(1))));
    assert_eq!(role_in(to_carla), Some(Role::Spectator));
    // Away and back again is told as usual.
    again.command(TableCommand::Detach { conn: bruno.from.conn });
    again.join(&bruno);
    assert!(back(&ana.messages()), "Bruno's coming back is told");
}

#[test]
fn the_old_table_leads_whoever_may_see_it_to_the_rematch() {
    let (mut table, ana, bruno, _carla) = finished();
    answer(&mut table, &ana, true);
    answer(&mut table, &bruno, true);
    let next = table.rematches.last().expect("opened").id;
    let id = table.core.id();
    // A player reloading the old table, a spectator with the link: both are pointed to the new table.
    let mut ana_again = ana.second_connection(10);
    table.join(&ana_again);
    assert_eq!(rematch_msgs(&mut ana_again), vec![ServerMsg::RematchStarted { table: id, rematch: next }]);
    let mut dora = Client::new(4, "Dora");
    table.command(TableCommand::Watch { from: dora.from.clone(), invite: Some("key".into()), since: None });
    assert_eq!(rematch_msgs(&mut dora), vec![ServerMsg::RematchStarted { table: id, rematch: next }]);
    // Without the link, a table that lets only the link's holders watch shows nothing of it.
    let mut eve = Client::new(5, "Eve");
    table.command(TableCommand::Watch { from: eve.from.clone(), invite: None, since: None });
    assert_eq!(eve.errors(), vec![ErrorCode::SpectatingNotAllowed]);
}

#[test]
fn a_no_closes_the_offer_for_everyone_and_the_table_closes_as_usual() {
    let (mut table, mut ana, mut bruno, mut carla) = finished();
    let id = table.core.id();
    answer(&mut table, &ana, true);
    answer(&mut table, &bruno, false);
    let closed = ServerMsg::RematchClosed { table: id, reason: RematchEnd::Declined, seat: Some(Seat(1)) };
    for client in [&mut ana, &mut bruno, &mut carla] {
        assert_eq!(rematch_msgs(client).last(), Some(&closed));
    }
    assert!(table.rematches.is_empty());
    answer(&mut table, &ana, true);
    assert_eq!(ana.errors(), vec![ErrorCode::NoRematch], "the offer is closed");
    // A member who arrives now learns how it ended.
    let mut ana_again = ana.second_connection(10);
    table.join(&ana_again);
    assert_eq!(rematch_msgs(&mut ana_again), vec![closed]);
    table.feed(Input::ResultStored);
    for client in [&ana, &ana_again, &bruno, &carla] {
        table.command(TableCommand::Detach { conn: client.from.conn });
    }
    assert!(table.closed());
}

#[test]
fn without_every_yes_in_time_the_offer_times_out_for_everyone() {
    let (mut table, mut ana, bruno, carla) = finished();
    let id = table.core.id();
    let due = table.core.deadline().expect("the offer's end");
    let end = u64::try_from(due.duration_since(table.start).as_millis()).expect("small") - 60_000;
    answer(&mut table, &ana, true);
    table.feed(Input::ResultStored);
    // Ana and Carla go; Bruno stays, and comes back on another connection just before the end.
    for client in [&ana, &carla] {
        table.command(TableCommand::Detach { conn: client.from.conn });
    }
    table.at(end + 59_999);
    assert!(!table.closed());
    let mut bruno_again = bruno.second_connection(10);
    table.join(&bruno_again);
    let offer = rematch_msgs(&mut bruno_again);
    assert_eq!(offer, vec![ServerMsg::Rematch { table: id, accepted: vec![true, false], remaining_ms: 1 }]);
    table.at(end + 60_000);
    let closed = ServerMsg::RematchClosed { table: id, reason: RematchEnd::TimedOut, seat: None };
    assert_eq!(rematch_msgs(&mut bruno_again), vec![closed]);
    assert!(rematch_msgs(&mut ana).iter().all(|msg| matches!(msg, ServerMsg::Rematch { .. })), "gone before the end");
    assert!(table.rematches.is_empty());
    for client in [&bruno, &bruno_again] {
        table.command(TableCommand::Detach { conn: client.from.conn });
    }
    assert!(table.closed(), "closed once nobody is at it");
}

#[test]
fn after_the_offer_timed_out_a_player_at_the_table_may_offer_again() {
    let (mut table, mut ana, mut bruno, mut carla) = finished();
    let id = table.core.id();
    let due = table.core.deadline().expect("the offer's end");
    let end = u64::try_from(due.duration_since(table.start).as_millis()).expect("small");
    table.feed(Input::ResultStored);
    table.at(end);
    let closed = ServerMsg::RematchClosed { table: id, reason: RematchEnd::TimedOut, seat: None };
    for client in [&mut ana, &mut bruno, &mut carla] {
        assert_eq!(rematch_msgs(client).last(), Some(&closed));
    }
    // A no to an offer that is no longer open is still refused; a yes makes the offer again, for the full time.
    answer(&mut table, &bruno, false);
    assert_eq!(bruno.errors(), vec![ErrorCode::NoRematch]);
    table.at(end + 5_000);
    answer(&mut table, &bruno, true);
    let again = ServerMsg::Rematch { table: id, accepted: vec![false, true], remaining_ms: 60_000 };
    for client in [&mut ana, &mut bruno, &mut carla] {
        assert_eq!(rematch_msgs(client), vec![again.clone()]);
    }
    assert_eq!(table.core.deadline(), Some(table.start + Duration::from_millis(end + 65_000)));
    // It times out as the first did, and can be made again; with every yes the rematch opens.
    table.at(end + 65_000);
    assert_eq!(rematch_msgs(&mut ana), vec![closed]);
    answer(&mut table, &ana, true);
    answer(&mut table, &bruno, true);
    assert!(ana.errors().is_empty() && bruno.errors().is_empty());
    let next = table.rematches.last().expect("every yes opens the rematch").id;
    assert_eq!(rematch_msgs(&mut carla).last(), Some(&ServerMsg::RematchStarted { table: id, rematch: next }));
}

#[test]
fn only_the_players_of_a_finished_game_answer_and_bots_say_yes_at_once() {
    let mut ana = Client::new(1, "Ana");
    let mut table = Table::open(&ana, 3, Some(QUICK));
    table.join(&ana);
    answer(&mut table, &ana, true);
    assert_eq!(ana.errors(), vec![ErrorCode::NotFinished], "before the start");
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Strong });
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Easy });
    answer(&mut table, &ana, true);
    assert_eq!(ana.errors(), vec![ErrorCode::NotFinished], "in play");
    play_out(&mut table, &mut [&mut ana]);
    // The host's bots said yes; Ana is asked.
    let offer = rematch_msgs(&mut ana);
    assert!(
        matches!(&offer[..], [ServerMsg::Rematch { accepted, .. }] if *accepted == vec![false, true, true]),
        "{offer:?}"
    );
    let mut carla = Client::new(3, "Carla");
    table.command(TableCommand::Watch { from: carla.from.clone(), invite: Some("key".into()), since: None });
    answer(&mut table, &carla, true);
    answer(&mut table, &carla, false);
    assert_eq!(carla.errors(), vec![ErrorCode::NotSeated, ErrorCode::NotSeated], "a spectator cannot answer");
    let stranger = Client::new(4, "Dora");
    answer(&mut table, &stranger, false);
    assert!(table.rematches.is_empty(), "nobody's answer but a player's counts");
    answer(&mut table, &ana, true);
    let plan = table.rematches.last().expect("Ana and the bots play again");
    let controls: Vec<_> = plan.seats.iter().map(|o| o.control).collect();
    // Each bot keeps its level.
    let (strong, easy) = (romirami_game::Level::Strong, romirami_game::Level::Easy);
    assert_eq!(controls, vec![Control::Player, Control::Bot(strong), Control::Bot(easy)]);
}

#[test]
fn the_bot_standing_in_for_a_player_who_left_says_yes_and_keeps_their_seat_for_them() {
    let (mut ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open(&ana, 2, Some(QUICK));
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    play_out(&mut table, &mut [&mut ana]);
    let offer = rematch_msgs(&mut ana);
    assert!(matches!(&offer[..], [ServerMsg::Rematch { accepted, .. }] if *accepted == vec![false, true]), "{offer:?}");
    answer(&mut table, &ana, true);
    let plan = table.rematches.last().expect("opened");
    assert_eq!(plan.seats[1].player.id, bruno.from.player.id, "the seat stays Bruno's");
    assert_eq!(
        plan.seats[1].control,
        Control::Stand { back: false, left: false },
        "the bot plays it until he comes back"
    );
}

#[test]
fn an_abandoned_game_offers_no_rematch() {
    let (mut table, mut ana, bruno) = started(None);
    table.command(TableCommand::Leave { from: ana.from.clone() });
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    assert_eq!(table.core.state(), TableState::Finished);
    answer(&mut table, &ana, true);
    assert_eq!(ana.errors(), vec![ErrorCode::NoRematch]);
}

#[test]
fn when_the_new_table_cannot_be_opened_everyone_is_told_and_nothing_starts() {
    let (mut table, mut ana, bruno, _carla) = finished();
    answer(&mut table, &ana, true);
    table.store_fails = true;
    answer(&mut table, &bruno, true);
    let closed = ServerMsg::RematchClosed { table: table.core.id(), reason: RematchEnd::Failed, seat: None };
    assert_eq!(rematch_msgs(&mut ana).last(), Some(&closed));
}

#[test]
fn a_rummy_match_offers_a_rematch_too() {
    let games = crate::games();
    let game = GameChoice::choose(&games, Some("rommi"), Some(&serde_json::json!({ "target": 60 })), 2).expect("fits");
    let (mut ana, mut bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = Table::open_with(&ana, 2, Some(QUICK), game, Fixed { seed_step: 1, ..Fixed::default() });
    table.join(&ana);
    table.join(&bruno);
    play_out(&mut table, &mut [&mut ana, &mut bruno]);
    ana.texts();
    bruno.texts();
    answer(&mut table, &ana, true);
    answer(&mut table, &bruno, true);
    let texts = ana.texts();
    let plan = table.rematches.last().unwrap_or_else(|| panic!("opened: {texts:?} {:?}", table.effects));
    assert_eq!(plan.game.kind.name(), "rommi");
    assert_eq!(plan.game.options.get(), table.core.game_options.get(), "the same options");
    let started = bruno.texts().into_iter().filter(|text| text.contains(r#""type":"rematch_started""#)).count();
    assert_eq!(started, 1);
    let mut again = rematch_table(&mut table);
    assert_eq!(again.core.state(), TableState::Playing);
    assert_eq!(again.core.summary().game, "rommi");
    again.join(&ana);
    assert!(ana.texts().iter().any(|text| text.contains(r#""type":"table""#)));
}
