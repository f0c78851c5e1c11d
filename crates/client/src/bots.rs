//! Bot players: clients that play whole games over the protocol, each move chosen by
//! [`romirami_engine::bot::choose`] among the legal actions the server offers. `romirami bots` runs them
//! to fill a demo; the server's tests, the load generator and the crash harness build on them.

use std::time::{Duration, Instant};

use romirami_engine::GameResult;
use romirami_engine::bot::choose;
use romirami_protocol::{ROMI_RAMI, SpectatorPolicy, TableId};

use crate::romi_rami::{ClientMsg, ServerMsg};
use serde_json::Value;

use crate::{Client, ClientError};

/// What one bot game came to.
#[derive(Clone, Debug)]
pub struct BotGame {
    /// The private table the game was played at.
    pub table: TableId,
    /// Actions the bots played.
    pub actions: usize,
    /// The final scores and the winners, as the server sent them.
    pub result: GameResult,
    /// How long the game took.
    pub elapsed: Duration,
}

/// The bot's choice among `legal` (a `your_turn`'s list as JSON) at a table of `game`: [`choose`] for
/// Romi Rami, [`crate::family::choose`] for the rummy family. For clients that play any game, such as
/// the crash harness and the load generator.
pub fn choose_json(game: &str, legal: &[Value]) -> Option<Value> {
    if game != ROMI_RAMI {
        return crate::family::choose(legal);
    }
    let legal: Vec<romirami_engine::Action> =
        legal.iter().filter_map(|a| serde_json::from_value(a.clone()).ok()).collect();
    choose(&legal).and_then(|action| serde_json::to_value(action).ok())
}

/// Plays one seat until its game is over: answers each `your_turn` with [`choose`]. Returns the result
/// and how many actions this seat played.
///
/// # Errors
/// When the connection fails or the server refuses an action.
pub async fn play_seat(client: &mut Client, table: TableId) -> Result<(GameResult, usize), ClientError> {
    let mut next_id = 0;
    loop {
        match client.recv_within(Duration::from_secs(60)).await? {
            ServerMsg::YourTurn { table: t, legal } if t == table => {
                let action = choose(&legal).ok_or_else(|| ClientError::Unexpected("no legal action offered".into()))?;
                next_id += 1;
                client.send(&ClientMsg::Act { table, id: next_id, action }).await?;
            }
            ServerMsg::GameOver { table: t, result } if t == table => return Ok((result, next_id as usize)),
            ServerMsg::Error { code, message, .. } => {
                return Err(ClientError::Unexpected(format!("{code:?}: {message}")));
            }
            _ => {}
        }
    }
}

/// Plays one complete game of `players` bots at a new private table on the server at `url`.
///
/// # Errors
/// When a connection fails or the server refuses something.
pub async fn play_game(url: &str, players: u8, name_prefix: &str) -> Result<BotGame, ClientError> {
    let mut clients = Vec::new();
    for seat in 0..players {
        let (client, _, _) = Client::guest(url, &format!("{name_prefix}{seat}")).await?;
        clients.push(client);
    }
    play_table(clients).await
}

/// Plays one complete game at a new private table between `clients` (greeted already; the first hosts,
/// and they sit in this order), each playing its seat with [`choose`].
///
/// # Errors
/// When there are not 2 to 4 clients, a connection fails or the server refuses something.
pub async fn play_table(clients: Vec<Client>) -> Result<BotGame, ClientError> {
    play_table_rated(clients, None).await
}

/// [`play_table`] at a table that is rated (`Some(true)`), casual (`Some(false)`) or as the server
/// decides when not said (`None`: rated).
///
/// # Errors
/// As [`play_table`].
pub async fn play_table_rated(mut clients: Vec<Client>, rated: Option<bool>) -> Result<BotGame, ClientError> {
    let start = Instant::now();
    let players = u8::try_from(clients.len()).unwrap_or(u8::MAX);
    let Some(host) = clients.first_mut() else {
        return Err(ClientError::Unexpected("a game needs players".into()));
    };
    host.send(&ClientMsg::CreateTable {
        seats: players,
        public: false,
        spectators: SpectatorPolicy::Link,
        clock: None,
        game: None,
        options: None,
        rated,
    })
    .await?;
    let (table, invite) = host
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, invite } => Some((table.id, invite.clone())),
            ServerMsg::Error { message, .. } => Some((TableId(uuid::Uuid::nil()), format!("error: {message}"))),
            _ => None,
        })
        .await?;
    if table.0.is_nil() {
        return Err(ClientError::Unexpected(invite));
    }
    // One at a time, so that the clients sit in the order they were given.
    for client in &mut clients[1..] {
        client.send(&ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await?;
        client
            .wait_for(|msg| match msg {
                ServerMsg::Table { table: summary, .. } if summary.id == table => Some(Ok(())),
                ServerMsg::Error { message, .. } => Some(Err(message.clone())),
                _ => None,
            })
            .await?
            .map_err(ClientError::Unexpected)?;
    }
    let seats: Vec<_> = clients
        .into_iter()
        .map(|mut client| tokio::spawn(async move { play_seat(&mut client, table).await }))
        .collect();
    let mut result = None;
    let mut actions = 0;
    for seat in seats {
        let (seat_result, seat_actions) =
            seat.await.map_err(|e| ClientError::Unexpected(format!("a bot task failed: {e}")))??;
        actions += seat_actions;
        result = Some(seat_result);
    }
    let result = result.ok_or_else(|| ClientError::Unexpected("no seat".into()))?;
    Ok(BotGame { table, actions, result, elapsed: start.elapsed() })
}
