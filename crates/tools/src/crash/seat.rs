//! The harness's bots: one per seat, each with its own connection, playing its seat across the
//! server's lives and keeping what the server acknowledged to it in each.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use romirami_client::bots::choose_json;
use romirami_client::{Client, ClientError};
use romirami_game::Seat;
use romirami_protocol::{ClientMsg, ErrorCode, Role, ServerMsg, SpectatorPolicy, TableId, TableState};
use serde_json::Value;
use tokio::sync::watch;

use super::CrashError;

/// The server's messages with every game's payloads as JSON, so that one bot plays any game.
type Msg = ServerMsg<Value, Value, Vec<Value>, Value>;

/// One life of the server as a seat saw it: what was acknowledged, and what was sent and never answered.
#[derive(Clone, Debug, Default)]
pub(super) struct Life {
    pub acknowledged: Vec<Value>,
    pub unanswered: Option<Value>,
}

/// A seat's bot across the server's lives.
pub(super) struct SeatBot {
    token: String,
    pub game: &'static str,
    pub options: Option<Value>,
    pub table: TableId,
    pub seat: Seat,
    pub lives: Vec<Life>,
    /// The result the server showed this seat in `game_over`.
    pub result: Option<Value>,
}

/// How one life of a seat's connection ended.
enum LifeEnd {
    /// The game is over.
    Over,
    /// The connection failed: the server died (or is dying).
    Lost,
}

async fn send(client: &mut Client, msg: &ClientMsg<Value>) -> Result<(), ClientError> {
    client.send_json(&serde_json::to_value(msg).map_err(|e| ClientError::Unreadable(e.to_string()))?).await
}

impl SeatBot {
    /// Plays the seat across restarts until its game is over.
    pub(super) async fn run(
        mut self,
        mut server: watch::Receiver<Option<String>>,
        acknowledged: Arc<AtomicUsize>,
        mut first: Option<Client>,
    ) -> Result<SeatBot, CrashError> {
        loop {
            let url = server.borrow_and_update().clone();
            let Some(url) = url else {
                server.changed().await.map_err(|_| CrashError::Bot("the harness stopped".into()))?;
                continue;
            };
            self.lives.push(Life::default());
            let rejoin = first.is_none();
            let client = match first.take() {
                Some(client) => Ok(client),
                None => Client::returning(&url, &self.token).await.map(|(client, _)| client),
            };
            let end = match client {
                Ok(mut client) => self.play_life(&mut client, rejoin, &acknowledged).await?,
                Err(_) => LifeEnd::Lost,
            };
            match end {
                LifeEnd::Over => return Ok(self),
                LifeEnd::Lost => {
                    // Wait for the next server, unless this one is still up (then retry shortly).
                    if tokio::time::timeout(Duration::from_millis(200), server.changed())
                        .await
                        .is_ok_and(|r| r.is_err())
                    {
                        return Err(CrashError::Bot("the harness stopped".into()));
                    }
                }
            }
        }
    }

    fn lost(&mut self, unanswered: Option<Value>) -> LifeEnd {
        if let Some(life) = self.lives.last_mut() {
            life.unanswered = unanswered;
        }
        LifeEnd::Lost
    }

    async fn play_life(
        &mut self,
        client: &mut Client,
        rejoin: bool,
        acknowledged: &AtomicUsize,
    ) -> Result<LifeEnd, CrashError> {
        let table = self.table;
        if rejoin && send(client, &ClientMsg::Join { table, invite: None, since: None }).await.is_err() {
            return Ok(LifeEnd::Lost);
        }
        let mut next_id = 1_000_000 * self.lives.len() as u64;
        let mut pending: Option<(u64, Value)> = None;
        loop {
            let msg: Msg = match client.recv_as(Duration::from_secs(60)).await {
                Ok(msg) => msg,
                Err(ClientError::Timeout(_)) => {
                    return Err(CrashError::Bot(format!("{} of {table} waited 60 s", self.seat)));
                }
                Err(ClientError::Unreadable(text)) => return Err(CrashError::Bot(format!("unreadable: {text}"))),
                Err(_) => return Ok(self.lost(pending.map(|(_, action)| action))),
            };
            match msg {
                ServerMsg::YourTurn { table: t, legal } if t == table => {
                    let action = choose_json(self.game, &legal)
                        .ok_or_else(|| CrashError::Bot("no legal action offered".into()))?;
                    next_id += 1;
                    pending = Some((next_id, action.clone()));
                    if send(client, &ClientMsg::Act { table, id: next_id, action: action.clone() }).await.is_err() {
                        return Ok(self.lost(Some(action)));
                    }
                }
                ServerMsg::Ack { table: t, id, .. } if t == table => match pending.take() {
                    Some((sent, action)) if sent == id => {
                        if let Some(life) = self.lives.last_mut() {
                            life.acknowledged.push(action);
                        }
                        acknowledged.fetch_add(1, Ordering::Relaxed);
                    }
                    other => return Err(CrashError::Bot(format!("an ack for {id} while waiting for {other:?}"))),
                },
                ServerMsg::GameOver { table: t, result } if t == table => {
                    self.result = Some(result);
                    return Ok(LifeEnd::Over);
                }
                ServerMsg::Table { table: summary, role, .. } if summary.id == table => {
                    // Seats are given in the order the joins arrive: the server says which is ours.
                    if let Role::Seat(seat) = role {
                        self.seat = seat;
                    }
                    if summary.state == TableState::Finished {
                        return Ok(LifeEnd::Over);
                    }
                }
                // A finished game is not brought back by a restart: it is over.
                ServerMsg::Error { code: ErrorCode::NoSuchTable, table: Some(t), .. } if t == table => {
                    return Ok(LifeEnd::Over);
                }
                ServerMsg::Error { code, message, .. } => {
                    return Err(CrashError::Bot(format!("{} of {table}: {code:?}: {message}", self.seat)));
                }
                _ => {}
            }
        }
    }
}

/// Seats the bots of one table of `game` with `options`: the host creates it, the others join by its
/// invite; returns each seat's bot and its connection once the game has started.
pub(super) async fn open_table(
    url: &str,
    game: &'static str,
    options: Option<Value>,
    players: u8,
    name: &str,
) -> Result<Vec<(SeatBot, Client)>, CrashError> {
    let bot_error = |e: ClientError| CrashError::Bot(e.to_string());
    let mut seats = Vec::new();
    for seat in 0..players {
        let (client, _, token) = Client::guest(url, &format!("{name}-{seat}")).await.map_err(bot_error)?;
        seats.push((token, client));
    }
    let host = &mut seats[0].1;
    let create = ClientMsg::CreateTable {
        seats: players,
        public: false,
        spectators: SpectatorPolicy::Nobody,
        clock: None,
        game: Some(game.to_owned()),
        options: options.clone(),
        rated: None,
    };
    send(host, &create).await.map_err(bot_error)?;
    let (table, invite) = loop {
        match host.recv_as::<Msg>(Duration::from_secs(10)).await.map_err(bot_error)? {
            ServerMsg::TableCreated { table, invite } => break (table.id, invite),
            ServerMsg::Error { message, .. } => return Err(CrashError::Bot(message)),
            _ => {}
        }
    };
    // One join at a time, each answered; the last one starts the game, which is stored by then: a kill
    // from here on finds the game in the store.
    for (_, client) in &mut seats[1..] {
        send(client, &ClientMsg::Join { table, invite: Some(invite.clone()), since: None }).await.map_err(bot_error)?;
        loop {
            match client.recv_as::<Msg>(Duration::from_secs(10)).await.map_err(bot_error)? {
                ServerMsg::Table { table: summary, .. } if summary.id == table => break,
                ServerMsg::Error { message, .. } => return Err(CrashError::Bot(message)),
                _ => {}
            }
        }
    }
    Ok((0u8..)
        .zip(seats)
        .map(|(seat, (token, client))| {
            let bot = SeatBot {
                token,
                game,
                options: options.clone(),
                table,
                seat: Seat(seat),
                lives: Vec::new(),
                result: None,
            };
            (bot, client)
        })
        .collect())
}
