//! A healthy table beside an attack: two players at a private table play a whole game with the bots'
//! choice, pacing themselves, and time each act to its ack. Only the time is printed; nothing asserts it.

use std::time::{Duration, Instant};

use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_server::protocol::{ErrorCode, PROTOCOL_VERSION, SpectatorPolicy, TableId};

/// A healthy player never sends faster than this (the attack tests' servers allow 50 messages a second).
const GAP: Duration = Duration::from_millis(25);

/// A greeted client without the client library's pacing: the time measured is the server's.
async fn unpaced(url: &str, name: &str) -> Client {
    let mut client = Client::connect(url).await.expect("connects");
    let hello = ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: None, name: Some(name.into()) };
    client.send(&hello).await.expect("sent");
    match client.recv().await.expect("an answer") {
        ServerMsg::Welcome { .. } => client,
        other => panic!("expected a welcome, got {other:?}"),
    }
}

/// A two-player game that has started and waits for its players to play it.
pub(crate) struct HealthyTable {
    table: TableId,
    seats: Vec<Client>,
}

impl HealthyTable {
    /// Opens the table and seats both players; the game starts as the second sits down.
    pub(crate) async fn open(url: &str) -> HealthyTable {
        let mut seats = vec![unpaced(url, "Healthy A").await, unpaced(url, "Healthy B").await];
        seats[0]
            .send(&ClientMsg::CreateTable {
                seats: 2,
                public: false,
                spectators: SpectatorPolicy::Nobody,
                clock: None,
                game: None,
                options: None,
                rated: None,
            })
            .await
            .expect("sent");
        let (table, invite) = seats[0]
            .wait_for(|msg| match msg {
                ServerMsg::TableCreated { table, invite } => Some((table.id, invite.clone())),
                ServerMsg::Error { message, .. } => panic!("the healthy table was refused: {message}"),
                _ => None,
            })
            .await
            .expect("created");
        seats[1].send(&ClientMsg::Join { table, invite: Some(invite), since: None }).await.expect("sent");
        HealthyTable { table, seats }
    }

    /// Plays the game to its end; returns every act's time to its ack.
    pub(crate) async fn play(self) -> Vec<Duration> {
        let table = self.table;
        let seats: Vec<_> = self.seats.into_iter().map(|client| tokio::spawn(seat(client, table))).collect();
        let mut latencies = Vec::new();
        for seat in seats {
            latencies.extend(seat.await.expect("a healthy seat"));
        }
        latencies
    }
}

async fn seat(mut client: Client, table: TableId) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut pending: Option<(u64, Instant)> = None;
    let mut last_send = Instant::now() - GAP;
    let mut next_id = 0;
    // The action sent last, and how many times in a row the server said `unavailable` to it.
    let mut last_action = None;
    let mut unavailable = 0;
    loop {
        match client.recv_within(Duration::from_secs(60)).await.expect("the healthy game goes on") {
            ServerMsg::YourTurn { table: t, legal } if t == table => {
                let action = choose(&legal).expect("a legal action");
                tokio::time::sleep_until((last_send + GAP).into()).await;
                next_id += 1;
                last_send = Instant::now();
                pending = Some((next_id, last_send));
                last_action = Some(action);
                client.send(&ClientMsg::Act { table, id: next_id, action }).await.expect("sent");
            }
            ServerMsg::Ack { id, .. } => {
                let (sent, at) = pending.take().expect("an ack answers an act");
                assert_eq!(id, sent);
                latencies.push(at.elapsed());
                unavailable = 0;
            }
            ServerMsg::GameOver { table: t, .. } if t == table => {
                client.close().await.ok();
                return latencies;
            }
            // The database did not take the action in time (a host loaded far beyond its share: the file's
            // write lock waits at most 5 s): nothing was played, and the protocol says to try again shortly,
            // as any client does. An attack that kept the store from every healthy write would still fail.
            ServerMsg::Error { code: ErrorCode::Unavailable, id: Some(id), .. }
                if pending.is_some_and(|(sent, _)| sent == id) && unavailable < 5 =>
            {
                unavailable += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
                let action = last_action.expect("the action refused");
                next_id += 1;
                last_send = Instant::now();
                pending = Some((next_id, pending.map_or(last_send, |(_, at)| at)));
                client.send(&ClientMsg::Act { table, id: next_id, action }).await.expect("sent");
            }
            ServerMsg::Error { code, message, .. } => panic!("a healthy action was refused: {code:?}: {message}"),
            _ => {}
        }
    }
}

/// The `p`-th percentile (0 to 100) of `samples`, which it sorts, in milliseconds.
fn percentile_ms(samples: &mut [Duration], p: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_unstable();
    let rank = ((p / 100.0) * (samples.len() - 1) as f64).round() as usize;
    samples[rank.min(samples.len() - 1)].as_secs_f64() * 1000.0
}

/// `p50 / p99 / max` of a healthy table's act-to-ack times beside the quiet table's p99, for a test's
/// printout.
pub(crate) fn compare(attack: &str, quiet: &mut [Duration], attacked: &mut [Duration]) -> String {
    format!(
        "{attack:<44} healthy act->ack p50 {:>6.2} ms, p99 {:>6.2} ms (quiet p99 {:>6.2} ms), max {:>7.2} ms, {} acts",
        percentile_ms(attacked, 50.0),
        percentile_ms(attacked, 99.0),
        percentile_ms(quiet, 99.0),
        percentile_ms(attacked, 100.0),
        attacked.len()
    )
}
