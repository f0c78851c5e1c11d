//! Bot players for any game but Romi Rami, which this crate knows only as JSON: each move is chosen
//! among the legal actions the server offers in `your_turn`, by the kind of action — for the rummy
//! family (Rommi, Rami, Rumino) go out or knock when the rules allow it, lay down melds, else draw from
//! the stock, else throw away the highest card; for a game whose actions it does not recognise, the
//! first legal one. Enough to play whole matches of every game a server seats (`romirami bots --game`).

use std::time::{Duration, Instant};

use romirami_protocol::TableId;
use serde_json::{Value, json};

use crate::{Client, ClientError};

/// What one bot match came to.
#[derive(Clone, Debug)]
pub struct FamilyGame {
    /// The private table the match was played at.
    pub table: TableId,
    /// Actions the bots played.
    pub actions: usize,
    /// The result as the server sent it in `game_over`.
    pub result: Value,
    /// How long the match took.
    pub elapsed: Duration,
}

/// An action's kind: the `type` of an internally tagged action (Rommi, Rumino), the only key of an
/// externally tagged one (Rami), or the string of a unit action (`"draw"`).
fn kind(action: &Value) -> &str {
    match action {
        Value::String(kind) => kind,
        Value::Object(fields) => fields
            .get("type")
            .and_then(Value::as_str)
            .or_else(|| fields.keys().next().map(String::as_str))
            .unwrap_or(""),
        _ => "",
    }
}

/// The rank of the first card code found in `action` (`"Kd"` is 13, `"10s"` 10, a joker 0): a discard of
/// a high card first keeps the hand's points low.
fn rank(action: &Value) -> u8 {
    let text = action.to_string();
    let code = text
        .split('"')
        .find(|part| part.len() >= 2 && part.len() <= 3 && part.chars().last().is_some_and(|c| "cdhs".contains(c)));
    match code.map(|c| &c[..c.len() - 1]) {
        Some("A") => 1,
        Some("J") => 11,
        Some("Q") => 12,
        Some("K") => 13,
        Some(number) => number.parse().unwrap_or(0),
        None => 0,
    }
}

/// How many card codes `action` holds: the larger a meld, the better.
fn size(action: &Value) -> usize {
    action.to_string().matches('"').count() / 2
}

/// The bot's choice among `legal`.
pub fn choose(legal: &[Value]) -> Option<Value> {
    let first_of = |kinds: &[&str]| legal.iter().filter(|a| kinds.contains(&kind(a))).max_by_key(|a| size(a)).cloned();
    let gin = legal.iter().find(|a| kind(a) == "discard" && a.get("gin") == Some(&json!(true))).cloned();
    let rebuy = legal.iter().find(|a| kind(a) == "rebuy" && a.get("rebuy") == Some(&json!(true))).cloned();
    gin.or(rebuy)
        .or_else(|| first_of(&["knock", "end_round"]))
        .or_else(|| first_of(&["open", "meld", "lay_off", "exchange"]))
        .or_else(|| first_of(&["draw"]))
        .or_else(|| legal.iter().filter(|a| kind(a) == "discard").max_by_key(|a| rank(a)).cloned())
        .or_else(|| legal.first().cloned())
}

/// Plays one seat until the match is over; returns the result and how many actions this seat played.
///
/// # Errors
/// When the connection fails or the server refuses an action.
pub async fn play_seat(client: &mut Client, table: TableId) -> Result<(Value, usize), ClientError> {
    let table_id = json!(table.0.to_string());
    let mut next_id = 0u64;
    loop {
        let msg: Value = client.recv_as(Duration::from_secs(60)).await?;
        if msg["table"] != table_id && msg["type"] != "error" {
            continue;
        }
        match msg["type"].as_str() {
            Some("your_turn") => {
                let legal = msg["legal"].as_array().cloned().unwrap_or_default();
                let action = choose(&legal).ok_or_else(|| ClientError::Unexpected("no legal action offered".into()))?;
                next_id += 1;
                client.send_json(&json!({ "type": "act", "table": table_id, "id": next_id, "action": action })).await?;
            }
            Some("game_over") => return Ok((msg["result"].clone(), usize::try_from(next_id).unwrap_or(usize::MAX))),
            Some("error") => return Err(ClientError::Unexpected(format!("{}: {}", msg["code"], msg["message"]))),
            _ => {}
        }
    }
}

/// Plays one complete match of `game` with `options` between `players` new bot guests at a new private
/// table on the server at `url`.
///
/// # Errors
/// When a connection fails or the server refuses something.
pub async fn play_match(
    url: &str,
    game: &str,
    options: Option<Value>,
    players: u8,
    name_prefix: &str,
) -> Result<FamilyGame, ClientError> {
    let start = Instant::now();
    let mut clients = Vec::new();
    for seat in 0..players {
        let (client, _, _) = Client::guest(url, &format!("{name_prefix}{seat}")).await?;
        clients.push(client);
    }
    let host = clients.first_mut().ok_or_else(|| ClientError::Unexpected("a match needs players".into()))?;
    let mut create = json!({ "type": "create_table", "seats": players, "spectators": "link", "game": game });
    if let Some(options) = options {
        create["options"] = options;
    }
    host.send_json(&create).await?;
    let (table, invite) = loop {
        let msg: Value = host.recv_as(Duration::from_secs(10)).await?;
        match msg["type"].as_str() {
            Some("table_created") => {
                let id = msg["table"]["id"].as_str().and_then(|id| uuid::Uuid::parse_str(id).ok());
                let invite = msg["invite"].as_str().unwrap_or_default().to_owned();
                break (TableId(id.ok_or_else(|| ClientError::Unexpected("a table without an id".into()))?), invite);
            }
            Some("error") => return Err(ClientError::Unexpected(format!("{}", msg["message"]))),
            _ => {}
        }
    };
    // One at a time, so that the clients sit in the order they were given.
    for client in &mut clients[1..] {
        client.send_json(&json!({ "type": "join", "table": table.0.to_string(), "invite": invite })).await?;
        loop {
            let msg: Value = client.recv_as(Duration::from_secs(10)).await?;
            match msg["type"].as_str() {
                Some("table") => break,
                Some("error") => return Err(ClientError::Unexpected(format!("{}", msg["message"]))),
                _ => {}
            }
        }
    }
    let seats: Vec<_> = clients
        .into_iter()
        .map(|mut client| tokio::spawn(async move { play_seat(&mut client, table).await }))
        .collect();
    let (mut result, mut actions) = (Value::Null, 0);
    for seat in seats {
        let (seat_result, seat_actions) =
            seat.await.map_err(|e| ClientError::Unexpected(format!("a bot task failed: {e}")))??;
        (result, actions) = (seat_result, actions + seat_actions);
    }
    Ok(FamilyGame { table, actions, result, elapsed: start.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_goes_out_melds_draws_and_throws_away_its_highest_card_in_that_order() {
        let rami = [json!("draw"), json!({ "discard": "Qs" }), json!({ "discard": "3h" })];
        assert_eq!(choose(&rami), Some(json!("draw")));
        assert_eq!(choose(&rami[1..]), Some(json!({ "discard": "Qs" })));
        let rumino = [
            json!({ "type": "discard", "card": "Kd", "gin": false }),
            json!({ "type": "discard", "card": "10s", "gin": false }),
            json!({ "type": "knock" }),
        ];
        assert_eq!(choose(&rumino), Some(json!({ "type": "knock" })));
        assert_eq!(choose(&rumino[..2]), Some(json!({ "type": "discard", "card": "Kd", "gin": false })));
        let rommi = [json!({ "type": "draw" }), json!({ "type": "meld", "cards": ["5h", "6h", "7h"] })];
        assert_eq!(choose(&rommi), Some(json!({ "type": "meld", "cards": ["5h", "6h", "7h"] })));
        assert_eq!(rank(&json!({ "discard": "10s" })), 10);
        assert_eq!(choose(&[]), None);
    }
}
