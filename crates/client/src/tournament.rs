//! Tournament players: a client that joins a tournament over REST and plays every game it is seated at
//! (`romirami bots --tournament`, the server's tournament tests). It follows the tournament over the
//! WebSocket (`tournament_subscribe`): each `tournament_table` that seats it is a game to join and play
//! with the bots' choices ([`crate::bots::choose_json`]); a `tournament` view whose state is `finished`
//! ends it. A table of its own that the view shows unfinished and that it did not play is joined too,
//! so a missed call loses no game.

use std::collections::VecDeque;
use std::time::Duration;

use romirami_protocol::{PlayerId, TableId};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::bots::choose_json;
use crate::{Client, ClientError};

/// How long a tournament player waits for the next message: a round's longest game and the pause.
const PATIENCE: Duration = Duration::from_secs(900);

/// What one player's tournament came to.
#[derive(Clone, Debug)]
pub struct TournamentPlay {
    /// The tables it played, in order.
    pub tables: Vec<TableId>,
    /// The tournament's last view.
    pub last_view: Value,
}

/// The HTTP address of a server given by its WebSocket one (`ws://host:port/ws` → `http://host:port`).
pub fn http_base(ws_url: &str) -> String {
    let base = ws_url.trim_end_matches('/').trim_end_matches("/ws");
    if let Some(rest) = base.strip_prefix("ws://") {
        format!("http://{rest}")
    } else if let Some(rest) = base.strip_prefix("wss://") {
        format!("https://{rest}")
    } else {
        base.to_owned()
    }
}

/// `POST {http}/api/tournaments/{id}/{what}` with `token` as the bearer and `body`: the status and the
/// answer's JSON.
///
/// # Errors
/// When the request cannot be made or its answer is not JSON.
pub async fn post(http: &str, path: &str, token: &str, body: Option<Value>) -> Result<(u16, Value), ClientError> {
    let (url, token) = (format!("{http}{path}"), token.to_owned());
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let request = agent.post(&url).header("Authorization", &format!("Bearer {token}"));
        let sent = match body {
            Some(body) => request.header("Content-Type", "application/json").send(body.to_string().as_bytes()),
            None => request.send_empty(),
        };
        let mut answer = sent.map_err(|e| ClientError::Unexpected(format!("POST {url}: {e}")))?;
        let status = answer.status().as_u16();
        let text = answer.body_mut().read_to_string().map_err(|e| ClientError::Unexpected(format!("{url}: {e}")))?;
        let json = serde_json::from_str(&text).map_err(|e| ClientError::Unexpected(format!("{url}: {e}: {text}")))?;
        Ok((status, json))
    })
    .await
    .map_err(|e| ClientError::Unexpected(e.to_string()))?
}

/// Joins the tournament `id` as the player of `token`: its view after the join.
///
/// # Errors
/// When the request fails or the server refuses the join.
pub async fn join(http: &str, id: Uuid, token: &str) -> Result<Value, ClientError> {
    let (status, answer) = post(http, &format!("/api/tournaments/{id}/join"), token, None).await?;
    if status != 200 {
        return Err(ClientError::Unexpected(format!("join {id}: {status} {answer}")));
    }
    Ok(answer)
}

/// The unfinished tables of `view` that seat `me`.
fn my_open_tables(view: &Value, me: PlayerId) -> Vec<(TableId, u32)> {
    let me = json!(me.0.to_string());
    let mut found = Vec::new();
    for round in view["rounds"].as_array().into_iter().flatten() {
        for table in round["tables"].as_array().into_iter().flatten() {
            let mine = table["seats"].as_array().is_some_and(|seats| seats.contains(&me));
            let open = table.get("places").is_none();
            let id = table["table"].as_str().and_then(|t| Uuid::parse_str(t).ok());
            if let (true, true, Some(id)) = (mine, open, id) {
                found.push((TableId(id), u32::try_from(round["n"].as_u64().unwrap_or(0)).unwrap_or(0)));
            }
        }
    }
    found
}

/// Plays every game the tournament `id` of `game` seats `me` at, on `client`, until it is finished.
///
/// # Errors
/// When the connection fails, the server refuses an action, or nothing comes for 15 minutes.
pub async fn play_tournament(
    client: &mut Client,
    me: PlayerId,
    id: Uuid,
    game: &str,
) -> Result<TournamentPlay, ClientError> {
    TournamentPlayer::new(me, id, game).play(client).await
}

/// A tournament player that may lose its connection and go on over a new one: what it played is kept
/// between the connections, and a game it was playing when the connection broke is joined again (the
/// tournament's view shows it unfinished).
#[derive(Clone, Debug)]
pub struct TournamentPlayer {
    me: PlayerId,
    id: Uuid,
    game: String,
    /// The tables it played to their end, in order.
    tables: Vec<TableId>,
    /// Where and as whom it contributes to its duplicate rounds' deals (`POST .../contribute`): the
    /// server's HTTP address and the player's token. Without, the server draws its contributions.
    contributes: Option<(String, String)>,
    /// The commitments of the rounds' deals it contributed to.
    contributed: Vec<String>,
}

impl TournamentPlayer {
    /// A player `me` of the tournament `id` of `game`, who has played nothing yet.
    pub fn new(me: PlayerId, id: Uuid, game: &str) -> TournamentPlayer {
        TournamentPlayer {
            me,
            id,
            game: game.to_owned(),
            tables: Vec::new(),
            contributes: None,
            contributed: Vec::new(),
        }
    }

    /// The same player, contributing to its duplicate rounds' deals as the web page does: over the server
    /// at `http` (its HTTP address), with the player's `token`.
    #[must_use]
    pub fn contributing(mut self, http: &str, token: &str) -> TournamentPlayer {
        self.contributes = Some((http.to_owned(), token.to_owned()));
        self
    }

    /// Sends 32 random bytes to each round's deal of `view` that awaits this player's contribution (whole
    /// view: theirs is `waiting`; partial: some are), once a deal.
    async fn contribute(&mut self, view: &Value) -> Result<(), ClientError> {
        let Some((http, token)) = self.contributes.clone() else { return Ok(()) };
        let me = json!(self.me.0.to_string());
        for round in view["rounds"].as_array().into_iter().flatten() {
            let asked = &round["contributions"];
            let Some(commitment) = round["seed_commitment"].as_str() else { continue };
            let awaited = match asked["players"].as_array() {
                Some(players) => players.iter().position(|p| *p == me).is_some_and(|i| asked["given"][i] == "waiting"),
                None => asked["waiting"].as_u64().is_some_and(|n| n > 0),
            };
            if !awaited || self.contributed.iter().any(|c| c == commitment) {
                continue;
            }
            let mut value = [0u8; 32];
            getrandom::fill(&mut value).map_err(|e| ClientError::Unexpected(e.to_string()))?;
            let path = format!("/api/tournaments/{}/contribute", self.id);
            let (status, answer) = post(&http, &path, &token, Some(json!({ "value": hex::encode(value) }))).await?;
            // Made meanwhile (the wait ran out), or not of this round (a bye): nothing to send.
            let late = matches!(answer["error"]["code"].as_str(), Some("not_dealing" | "already_contributed"));
            if status != 200 && !late {
                return Err(ClientError::Unexpected(format!("contribute: {status} {answer}")));
            }
            self.contributed.push(commitment.to_owned());
        }
        Ok(())
    }

    /// The player.
    pub fn me(&self) -> PlayerId {
        self.me
    }

    /// The tables it played to their end, in order.
    pub fn tables(&self) -> &[TableId] {
        &self.tables
    }

    /// Follows the tournament on `client` and plays every game that seats this player, until it is
    /// finished.
    ///
    /// # Errors
    /// When the connection fails, the server refuses an action, or nothing comes for 15 minutes; the
    /// player may then go on with [`TournamentPlayer::play`] on a new connection.
    pub async fn play(&mut self, client: &mut Client) -> Result<TournamentPlay, ClientError> {
        let (me, id) = (self.me, self.id);
        client.send_json(&json!({ "type": "tournament_subscribe", "tournament": id.to_string() })).await?;
        // The tournament's messages that came while a game was played, read after it.
        let mut later: VecDeque<Value> = VecDeque::new();
        loop {
            let msg: Value = match later.pop_front() {
                Some(msg) => msg,
                None => client.recv_as(PATIENCE).await?,
            };
            let to_play: Vec<TableId> = match msg["type"].as_str() {
                Some("tournament") => {
                    let view = &msg["tournament"];
                    if view["state"] == "finished" {
                        return Ok(TournamentPlay { tables: self.tables.clone(), last_view: view.clone() });
                    }
                    self.contribute(view).await?;
                    my_open_tables(view, me).into_iter().map(|(table, _)| table).collect()
                }
                Some("tournament_table") => {
                    let seated = msg["seats"].as_array().is_some_and(|s| s.contains(&json!(me.0.to_string())));
                    let table = msg["table"].as_str().and_then(|t| Uuid::parse_str(t).ok()).map(TableId);
                    table.filter(|_| seated).into_iter().collect()
                }
                Some("error") => {
                    return Err(ClientError::Unexpected(format!("{}: {}", msg["code"], msg["message"])));
                }
                _ => Vec::new(),
            };
            for table in to_play {
                if !self.tables.contains(&table) {
                    play_table(client, table, &self.game, &mut later).await?;
                    self.tables.push(table);
                }
            }
        }
    }
}

/// Joins `table` (its seat is this player's) and plays it to the end of its game; the tournament's
/// messages that come meanwhile go to `later`.
async fn play_table(
    client: &mut Client,
    table: TableId,
    game: &str,
    later: &mut VecDeque<Value>,
) -> Result<(), ClientError> {
    let table_id = json!(table.0.to_string());
    client.send_json(&json!({ "type": "join", "table": table_id })).await?;
    let mut next_id = 0u64;
    loop {
        let msg: Value = client.recv_as(PATIENCE).await?;
        // The answer to the join of a game that ended before this player came (a finished table): over.
        if msg["type"] == "table" && msg["table"]["id"] == table_id && msg["table"]["state"] == "finished" {
            return Ok(());
        }
        if matches!(msg["type"].as_str(), Some("tournament" | "tournament_table")) {
            later.push_back(msg);
            continue;
        }
        if msg["table"] != table_id {
            continue;
        }
        match msg["type"].as_str() {
            Some("your_turn") => {
                let legal = msg["legal"].as_array().cloned().unwrap_or_default();
                let action = choose_json(game, &legal)
                    .ok_or_else(|| ClientError::Unexpected("no legal action offered".into()))?;
                next_id += 1;
                client.send_json(&json!({ "type": "act", "table": table_id, "id": next_id, "action": action })).await?;
            }
            Some("game_over") => return Ok(()),
            // A turn the bot played while the answer was on its way is refused: the next turn comes.
            Some("error") if msg["code"] == "not_your_turn" => {}
            // An action that crossed the game's end: the game is over.
            Some("error") if msg["code"] == "game_over" => return Ok(()),
            Some("error") => return Err(ClientError::Unexpected(format!("{}: {}", msg["code"], msg["message"]))),
            _ => {}
        }
    }
}
