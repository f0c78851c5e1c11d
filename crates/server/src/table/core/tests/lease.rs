//! A lost lease (in a cluster, another node has the table, or will): the core tells every member where
//! the table went and closes, whether its game is in play or waits.

use super::*;

#[test]
fn a_lost_lease_tells_every_member_the_table_moved_and_closes_it() {
    let (mut table, mut ana, mut bruno) = started(Some(Clock { turn_ms: 30_000, reserve_ms: 0 }));
    let mut cleo = Client::new(3, "Cleo");
    table.command(TableCommand::Watch { from: cleo.from.clone(), invite: Some("key".into()), since: None });
    cleo.messages();
    let written = table.writes.len();

    table.at(1_000);
    table.feed(Input::LeaseLost);

    for client in [&mut ana, &mut bruno, &mut cleo] {
        assert_eq!(client.errors(), vec![ErrorCode::TableMoved], "{} is told where to go", client.from.player.name);
    }
    assert!(table.closed(), "the table closes on this node");
    assert_eq!(table.core.deadline(), None, "no clock or bot runs on here");
    table.at(120_000);
    assert_eq!(table.writes.len(), written, "nothing more is written for the table");
    assert!(ana.messages().is_empty() && bruno.messages().is_empty(), "and nobody is told anything more");
}

#[test]
fn a_waiting_table_that_lost_its_lease_closes_too() {
    let mut ana = Client::new(1, "Ana");
    let mut table = Table::open(&ana, 3, None);
    table.join(&ana);
    ana.messages();

    table.feed(Input::LeaseLost);

    assert_eq!(ana.errors(), vec![ErrorCode::TableMoved]);
    assert!(table.closed());
    assert_eq!(table.core.deadline(), None, "its grace no longer runs");
}
