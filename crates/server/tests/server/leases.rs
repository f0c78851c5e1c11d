//! Table leases and fenced writes (PostgreSQL): a table is granted to one node at a time under a growing
//! epoch; an action, a truncation or a chat message is written only under the table's current, unexpired
//! lease, so a node that lost its table (paused, cut off, or taken over) cannot change its log; a batch
//! mixing tables loses only the rows whose lease is gone. SQLite refuses leases with a clear error. Expiry
//! is shown with a lease of no length, which has run out by the next statement: no test waits on the clock.

use crate::common;

use std::time::Duration;

use common::PgDatabase;
use romirami_game::Seat;
use romirami_server::protocol::{ChatChannel, ChatLine, PlayerId, PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::{ActionRow, ChatRow, Fence, GamePlayer, Store, StoreError, TableRow};
use time::OffsetDateTime;
use uuid::Uuid;

const MINUTE: Duration = Duration::from_secs(60);
const NO_TIME: Duration = Duration::ZERO;

/// A started game with two seats, ready for actions.
async fn started_table(store: &Store) -> TableId {
    let players: Vec<PlayerInfo> =
        ["Ana", "Bo"].iter().map(|name| PlayerInfo { id: PlayerId(Uuid::new_v4()), name: (*name).into() }).collect();
    for p in &players {
        let mut token_hash = [0u8; 32];
        token_hash[..16].copy_from_slice(p.id.0.as_bytes());
        store.save_player(p, &token_hash).await.expect("save");
    }
    let id = TableId(Uuid::new_v4());
    let row = TableRow {
        id,
        game: "romi-rami".into(),
        host: players[0].id,
        seats: 2,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: OffsetDateTime::UNIX_EPOCH,
        invite: "key".into(),
        clock: None,
        options: "{}".into(),
        rated: true,
        tournament: None,
    };
    store.create_table(&row).await.expect("create the table");
    let seated: Vec<GamePlayer> = players
        .iter()
        .zip(0u8..)
        .map(|(p, seat)| GamePlayer { seat: Seat(seat), id: p.id, name: p.name.clone(), bot: false })
        .collect();
    store.start_game(id, 7, None, &seated, OffsetDateTime::UNIX_EPOCH).await.expect("start");
    id
}

fn row(table: TableId, seq: u32, fence: Option<&Fence>) -> ActionRow {
    ActionRow {
        table,
        seq,
        seat: Seat(u8::try_from(seq % 2).expect("0 or 1")),
        action: r#"{"type":"pass"}"#.into(),
        by_bot: false,
        reserve_ms: None,
        fence: fence.cloned(),
    }
}

async fn log_length(store: &Store, table: TableId) -> usize {
    store
        .unfinished_games()
        .await
        .expect("read")
        .into_iter()
        .find(|g| g.table.id == table)
        .map_or(0, |g| g.actions.len())
}

#[tokio::test]
async fn a_table_is_one_nodes_at_a_time_and_a_lost_lease_writes_nothing() {
    let Some(db) = PgDatabase::create().await else { return };
    let store = Store::connect(&db.url).await.expect("connect");
    let table = started_table(&store).await;

    // Node a has the table; b cannot take it while a's lease runs; a taking it again gets a new epoch.
    let a1 = store.acquire_lease(table, "a", MINUTE).await.expect("acquire").expect("free");
    assert_eq!(a1.fence, Fence { node: "a".into(), epoch: 1 });
    assert_eq!(store.acquire_lease(table, "b", MINUTE).await, Ok(None), "a's lease is current");
    let a2 = store.acquire_lease(table, "a", MINUTE).await.expect("acquire").expect("a's own");
    assert_eq!(a2.fence.epoch, 2, "a restarted a takes its table under a new epoch");

    // Under its current lease a appends; under its former epoch it cannot (its former self is fenced).
    let appended = store.append_actions(&[row(table, 0, Some(&a2.fence))]).await.expect("append");
    assert!(appended.fenced.is_empty());
    let stale = store.append_actions(&[row(table, 1, Some(&a1.fence))]).await.expect("committed");
    assert_eq!(stale.fenced, vec![0], "epoch 1 is not the table's lease any more");
    assert_eq!(log_length(&store, table).await, 1);

    // Renewal keeps a current lease; a stale epoch is not renewed.
    let renewed =
        store.renew_leases(&[(table, a2.fence.clone()), (table, a1.fence.clone())], MINUTE).await.expect("renew");
    assert_eq!(renewed.iter().map(|l| l.fence.epoch).collect::<Vec<_>>(), vec![2]);

    // a's lease runs out (renewed for no time): it is not renewed, it fences a's writes, and b takes over.
    store.renew_leases(&[(table, a2.fence.clone())], NO_TIME).await.expect("renew");
    assert_eq!(store.renew_leases(&[(table, a2.fence.clone())], MINUTE).await, Ok(Vec::new()), "ran out");
    let late = store.append_actions(&[row(table, 1, Some(&a2.fence))]).await.expect("committed");
    assert_eq!(late.fenced, vec![0], "an expired lease writes nothing");
    let b = store.acquire_lease(table, "b", MINUTE).await.expect("acquire").expect("expired");
    assert_eq!(b.fence, Fence { node: "b".into(), epoch: 3 });
    assert_eq!(store.lease(table).await.expect("read").map(|l| l.fence), Some(b.fence.clone()));
    store.append_actions(&[row(table, 1, Some(&b.fence))]).await.expect("b");
    store.append_actions(&[row(table, 2, Some(&b.fence))]).await.expect("b again");

    // a, unaware, tries to clear what it believes unsure: refused, and b's rows stay.
    let cleared = store.truncate_actions(table, 1, Some(&a2.fence)).await;
    assert!(matches!(cleared, Err(StoreError::Fenced(_))), "{cleared:?}");
    assert_eq!(log_length(&store, table).await, 3);
    store.truncate_actions(table, 2, Some(&b.fence)).await.expect("the owner may");
    assert_eq!(log_length(&store, table).await, 2);

    // A node stopping hands its table over at once.
    store.release_leases(&[(table, b.fence.clone())]).await.expect("release");
    let c = store.acquire_lease(table, "c", MINUTE).await.expect("acquire").expect("released");
    assert_eq!(c.fence.epoch, 4);

    store.close().await;
    db.drop_database().await;
}

#[tokio::test]
async fn a_batch_loses_only_the_rows_whose_lease_is_gone() {
    let Some(db) = PgDatabase::create().await else { return };
    let store = Store::connect(&db.url).await.expect("connect");
    let (kept, lost, single) = (started_table(&store).await, started_table(&store).await, started_table(&store).await);
    let kept_lease = store.acquire_lease(kept, "a", MINUTE).await.expect("acquire").expect("free").fence;
    let lost_lease = store.acquire_lease(lost, "a", NO_TIME).await.expect("acquire").expect("free").fence;
    // One statement, three tables: one under a current lease, one under a lapsed one, one unfenced.
    let batch = [row(kept, 0, Some(&kept_lease)), row(lost, 0, Some(&lost_lease)), row(single, 0, None)];
    let appended = store.append_actions(&batch).await.expect("committed");
    assert_eq!(appended.fenced, vec![1]);
    assert_eq!(
        (log_length(&store, kept).await, log_length(&store, lost).await, log_length(&store, single).await),
        (1, 0, 1)
    );
    store.close().await;
    db.drop_database().await;
}

/// Chat message `n` of `table`.
fn chat(table: TableId, n: u64) -> ChatRow {
    let from = PlayerInfo { id: PlayerId(Uuid::new_v4()), name: "Ana".into() };
    ChatRow { table, line: ChatLine { n, from, channel: ChatChannel::Players, text: format!("message {n}") } }
}

#[tokio::test]
async fn a_chat_message_is_stored_only_under_the_tables_current_lease() {
    let Some(db) = PgDatabase::create().await else { return };
    let store = Store::connect(&db.url).await.expect("connect");
    let table = started_table(&store).await;
    let a = store.acquire_lease(table, "a", NO_TIME).await.expect("acquire").expect("free").fence;
    let refused = store.append_chat(&chat(table, 0), Some(&a)).await;
    assert!(matches!(refused, Err(StoreError::Fenced(_))), "a's lease ran out: {refused:?}");
    let b = store.acquire_lease(table, "b", MINUTE).await.expect("acquire").expect("expired").fence;
    store.append_chat(&chat(table, 0), Some(&b)).await.expect("b holds the table");
    let stale = store.append_chat(&chat(table, 1), Some(&a)).await;
    assert!(matches!(stale, Err(StoreError::Fenced(_))), "a's epoch is not the table's lease: {stale:?}");
    let kept: Vec<u64> = store.chat(table).await.expect("read").iter().map(|line| line.n).collect();
    assert_eq!(kept, vec![0], "only b's message");
    store.close().await;
    db.drop_database().await;
}

#[tokio::test]
async fn sqlite_keeps_no_leases_and_says_so() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("one.db").display())).await.expect("open");
    let table = started_table(&store).await;
    let refused = store.acquire_lease(table, "a", MINUTE).await;
    assert!(matches!(&refused, Err(StoreError::Other(m)) if m.contains("PostgreSQL")), "{refused:?}");
    let fence = Fence { node: "a".into(), epoch: 1 };
    assert!(store.append_actions(&[row(table, 0, Some(&fence))]).await.is_err(), "a fenced row needs leases");
    assert!(store.append_actions(&[row(table, 0, None)]).await.is_ok_and(|a| a.fenced.is_empty()));
    assert!(store.append_chat(&chat(table, 0), Some(&fence)).await.is_err(), "a fenced message needs leases");
    store.append_chat(&chat(table, 0), None).await.expect("a message on one node");
    store.close().await;
}
