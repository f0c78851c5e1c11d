//! The deal the players help make: a starting table commits to its seed, waits for each seat's
//! contribution (drawing a bot's at once, and a silent seat's when the wait is over), keeps its seats
//! meanwhile, and deals from the seed derived from them all.

use romirami_game::commitment::{ShuffleProof, commit};

use super::*;
use crate::protocol::{ContributionFrom, Contributions};

const WAIT: Duration = Duration::from_secs(3);

/// A table of `seats` that waits for its seats' contributions, opened by `host`.
fn waiting_for_contributions(host: &Client, seats: u8) -> Table {
    let config = TableConfig { contribution_wait: WAIT, ..config() };
    Table::open_configured(host, seats, None, romi_rami(), Fixed::default(), config)
}

fn contribute(table: &mut Table, client: &Client, value: [u8; 32]) {
    table.command(TableCommand::Contribute { from: client.from.clone(), value });
}

fn contributions(table: &Table) -> Option<Contributions> {
    table.core.summary().contributions
}

fn started(table: &Table) -> Option<ShuffleProof> {
    table.writes.iter().find_map(|w| match w {
        Durable::Start { shuffle, .. } => Some(shuffle.clone()),
        _ => None,
    })
}

#[test]
fn the_game_is_dealt_from_every_seats_contribution_and_the_seats_hold_meanwhile() {
    let (mut ana, mut bruno, mut cleo) = (Client::new(1, "Ana"), Client::new(2, "Bruno"), Client::new(3, "Cleo"));
    let mut table = waiting_for_contributions(&ana, 3);
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Watch { from: cleo.from.clone(), invite: Some("key".into()), since: None });
    table.command(TableCommand::Start { from: ana.from.clone() });
    // Committed, and waiting: nothing is stored or dealt yet.
    assert_eq!(table.core.state(), TableState::Waiting);
    assert!(started(&table).is_none());
    let summary = table.core.summary();
    assert_eq!(summary.shuffle, Some(commit(7, &[2; 32])), "the commitment to the server's seed");
    let waiting = Contributions { seats: vec![ContributionFrom::Waiting; 2], remaining_ms: Some(3000) };
    assert_eq!(summary.contributions, Some(waiting));
    let told = cleo.messages().into_iter().rev().find_map(|m| match m {
        ServerMsg::Table { table, .. } => Some(table),
        _ => None,
    });
    assert_eq!(told.and_then(|t| t.contributions).map(|c| c.seats.len()), Some(2), "members are told");

    // Ana's is in; a second is refused, and so is a spectator's.
    contribute(&mut table, &ana, [0xaa; 32]);
    assert_eq!(contributions(&table).map(|c| c.seats[0]), Some(ContributionFrom::Player));
    ana.messages();
    contribute(&mut table, &ana, [0xab; 32]);
    assert_eq!(ana.errors(), vec![ErrorCode::AlreadyContributed]);
    contribute(&mut table, &cleo, [0xcc; 32]);
    assert_eq!(cleo.errors(), vec![ErrorCode::NotSeated]);
    // The seats hold: no kick, no bot, no second start, no newcomer in the free seat.
    table.command(TableCommand::Kick { from: ana.from.clone(), seat: Seat(1) });
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
    table.command(TableCommand::Start { from: ana.from.clone() });
    assert_eq!(ana.errors(), vec![ErrorCode::AlreadyStarted; 3]);
    let mut dan = Client::new(4, "Dan");
    table.join(&dan);
    assert_eq!(dan.errors(), vec![ErrorCode::AlreadyStarted]);

    // Bruno's completes the deal before the wait is over: the game is dealt from the derived seed.
    table.at(1000);
    contribute(&mut table, &bruno, [0xbb; 32]);
    let proof = ShuffleProof::contributed(7, [2; 32], vec![[0xaa; 32], [0xbb; 32]]);
    assert_eq!(started(&table), Some(proof.clone()));
    assert_eq!(table.core.state(), TableState::Playing);
    let dealt = romirami_engine::Game::new(2, proof.seed()).expect("2 players");
    assert_eq!(table.to_act(), dealt.to_act(), "dealt from the derived seed");
    let summary = table.core.summary();
    assert_eq!(summary.shuffle, Some(commit(7, &[2; 32])), "the same commitment in play");
    let both = Contributions { seats: vec![ContributionFrom::Player; 2], remaining_ms: None };
    assert_eq!(summary.contributions, Some(both));
    bruno.messages();
    contribute(&mut table, &bruno, [0xbc; 32]);
    assert_eq!(bruno.errors(), vec![ErrorCode::NotDealing]);
}

#[test]
fn a_bots_seat_is_drawn_at_once_and_a_silent_seats_when_the_wait_is_over() {
    let ana = Client::new(1, "Ana");
    let mut table = waiting_for_contributions(&ana, 2);
    table.join(&ana);
    table.command(TableCommand::AddBot { from: ana.from.clone(), level: romirami_game::Level::Normal });
    let seats = contributions(&table).map(|c| c.seats);
    assert_eq!(seats, Some(vec![ContributionFrom::Waiting, ContributionFrom::Server]));
    table.at(2999);
    assert!(started(&table).is_none(), "the table waits its time");
    table.at(3000);
    assert_eq!(started(&table), Some(ShuffleProof::contributed(7, [2; 32], vec![[3; 32]; 2])));
    assert_eq!(table.core.state(), TableState::Playing);
    let seats = contributions(&table).map(|c| c.seats);
    assert_eq!(seats, Some(vec![ContributionFrom::Server; 2]), "the server says it drew both");
}

#[test]
fn a_player_who_leaves_while_the_deal_is_made_keeps_the_seat_for_the_bot() {
    let (mut ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = waiting_for_contributions(&ana, 2);
    table.join(&ana);
    table.join(&bruno);
    table.command(TableCommand::Leave { from: bruno.from.clone() });
    assert_eq!(table.core.summary().seats.iter().flatten().count(), 2, "Bruno keeps his seat");
    contribute(&mut table, &ana, [0xaa; 32]);
    ana.messages();
    table.at(3000);
    assert_eq!(table.core.state(), TableState::Playing);
    assert_eq!(table.bots(), vec![false, true], "the bot plays the seat Bruno left");
}

#[test]
fn a_start_the_store_refuses_leaves_the_table_waiting_and_it_can_start_again() {
    let (mut ana, bruno) = (Client::new(1, "Ana"), Client::new(2, "Bruno"));
    let mut table = waiting_for_contributions(&ana, 2);
    table.starts_fail = true;
    table.join(&ana);
    table.join(&bruno);
    contribute(&mut table, &ana, [0xaa; 32]);
    contribute(&mut table, &bruno, [0xbb; 32]);
    assert_eq!(table.core.state(), TableState::Waiting);
    assert_eq!(contributions(&table), None, "the deal is dropped");
    ana.messages();
    table.starts_fail = false;
    table.command(TableCommand::Start { from: ana.from.clone() });
    assert!(contributions(&table).is_some(), "a new deal gathers contributions again");
}
