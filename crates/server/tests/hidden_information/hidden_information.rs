//! Hidden information stays hidden outside the engine too: over many bot games through a real server,
//! no log line (at `debug`, as an operator would run it) holds a card, a game's seed or a player's token,
//! and no REST answer about live tables holds a card.
//!
//! What each seat and spectator sees over the WebSocket is the engine's redacted views and events, whose
//! property tests (crates/engine/src/tests/properties.rs) cover thousands of games.

use crate::common;

use common::{TestServer, fast, http_get};
use futures_util::future::join_all;
use romirami_client::Client;
use romirami_client::bots::play_table;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_server::protocol::SpectatorPolicy;
use romirami_server::store::Store;
use sqlx::Row;

/// The card codes (`1ch` to `5cl`, and `st` for the Star is not a card) found in `text` as words.
fn card_codes(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for i in 0..bytes.len().saturating_sub(2) {
        let word_start = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        let word_end = bytes.get(i + 3).is_none_or(|b| !b.is_ascii_alphanumeric());
        let suit = &bytes[i + 1..i + 3];
        if word_start
            && word_end
            && (b'1'..=b'5').contains(&bytes[i])
            && [b"ch", b"di", b"he", b"cl"].iter().any(|s| suit == *s)
        {
            found.push(text[i..i + 3].to_owned());
        }
    }
    found
}

#[test]
fn card_codes_are_found_as_words_only() {
    assert_eq!(card_codes("took 3he and 5cl, then \"1di\""), ["3he", "5cl", "1di"]);
    assert!(card_codes("x3he 3hex 6ch 0cl c3he").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_log_line_or_rest_answer_holds_hidden_information() {
    // Alone in the process while it reads every log line, at `debug` as an operator would run it.
    let _alone = crate::ALONE.lock().await;
    let captured = romirami_testlog::Everything::start(tracing::Level::DEBUG);

    let server = TestServer::start(fast()).await;
    // A public game in play, listed by the REST API while the others are played.
    let (mut ana, _, ana_token) = Client::guest(&server.url, "Ana").await.expect("welcomed");
    let (mut ben, _, ben_token) = Client::guest(&server.url, "Ben").await.expect("welcomed");
    let mut tokens = vec![ana_token, ben_token];
    ana.send(&ClientMsg::CreateTable {
        seats: 2,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        clock: None,
        game: None,
        options: None,
        rated: None,
    })
    .await
    .expect("sent");
    let public = ana
        .wait_for(|msg| match msg {
            ServerMsg::TableCreated { table, .. } => Some(table.id),
            _ => None,
        })
        .await
        .expect("created");
    ben.send(&ClientMsg::Join { table: public, invite: None, since: None }).await.expect("sent");
    ben.wait_for(|msg| matches!(msg, ServerMsg::Table { view: Some(_), .. }).then_some(())).await.expect("started");
    let mut tables = Vec::new();
    let mut rest_bytes = 0;
    for round in 0..6 {
        let mut games = Vec::new();
        for table in 0..4 {
            let players = 2 + (round + table) % 3;
            let mut clients = Vec::new();
            for seat in 0..players {
                let (client, _, token) =
                    Client::guest(&server.url, &format!("P{round}{table}{seat}")).await.expect("welcomed");
                tokens.push(token);
                clients.push(client);
            }
            games.push(play_table(clients));
        }
        // While the games run, the REST API's live tables hold no card.
        let tables_url = format!("{}/api/tables", server.http());
        let (results, live) = tokio::join!(join_all(games), http_get(&tables_url, "application/json"));
        assert!(live.body.contains(&public.to_string()), "{}", live.body);
        assert!(card_codes(&live.body).is_empty(), "{}", live.body);
        rest_bytes += live.body.len();
        for result in results {
            tables.push(result.expect("a game is played").table);
        }
    }

    // The seeds, read from the database itself.
    let Store::Sqlite(sqlite) = &server.state.store else { panic!("the test server uses SQLite") };
    let seeds: Vec<i64> = sqlx::query("SELECT seed FROM games")
        .fetch_all(sqlite.pool())
        .await
        .expect("seeds")
        .iter()
        .map(|row| row.get::<i64, _>("seed"))
        .collect();
    assert_eq!(seeds.len(), tables.len() + 1);
    server.shutdown().await;

    let log = captured.text();
    let lines = log.lines().count();
    assert!(lines > 0, "the server logged something at debug");
    for line in log.lines() {
        assert!(card_codes(line).is_empty(), "a log line holds cards: {line}");
        for seed in &seeds {
            let unsigned = u64::from_ne_bytes(seed.to_ne_bytes());
            for form in [seed.to_string(), unsigned.to_string(), format!("{unsigned:x}")] {
                assert!(form.len() < 6 || !line.contains(&form), "a log line holds a seed: {line}");
            }
        }
        for token in &tokens {
            assert!(!line.contains(token.as_str()), "a log line holds a token: {line}");
        }
    }
    println!(
        "{} games, {} log lines ({} bytes) and {} bytes of REST answers inspected: no card, seed or token",
        tables.len(),
        lines,
        log.len(),
        rest_bytes
    );
}
