//! Accounts people control (issue 40), through a real server on each backend (SQLite always, PostgreSQL
//! from `DATABASE_URL`, mandatory in CI): a player sees where they are signed in; signing out ends the
//! token it is sent with and signing out everywhere ends them all, and a connection that said hello with an
//! ended token is told `signed_out` and closed; a new password needs the old one and signs the other
//! devices out; the export holds the player's games and ratings; a deleted account frees its name and shows
//! as "deleted player" in its past game and record, its tokens ended.
//!
//! Before, none of this existed: a leaked token was valid forever.

use crate::common;

use common::{TestServer, closed, expect_error, fast, http_call, http_get_stored};
use romirami_client::Client;
use romirami_client::bots::play_table;
use romirami_server::config::Config;
use romirami_server::protocol::ErrorCode;
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";
const NEW_PASSWORD: &str = "a staple of batteries";

fn config() -> Config {
    Config { exempt_loopback: false, guests_per_address_per_minute: 1000.0, ..fast() }
}

/// An answer: status and body as JSON (`null` for an empty body).
#[derive(Debug)]
struct Answer {
    status: u16,
    body: Value,
}

impl Answer {
    fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or_else(|| panic!("not an API error: {self:?}"))
    }
}

/// `method path` with a bearer `token` and a JSON `body` when given.
async fn call(server: &TestServer, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
    let (status, body) = http_call(method, &format!("{}{path}", server.http()), token, body).await;
    Answer { status, body }
}

async fn sign_in(server: &TestServer, name: &str, password: &str) -> Answer {
    call(server, "POST", "/api/sign-in", None, Some(json!({ "name": name, "password": password }))).await
}

fn token_of(answer: &Answer) -> String {
    assert_eq!(answer.status, 200, "{answer:?}");
    answer.body["token"].as_str().expect("a token").to_owned()
}

async fn story(server: &TestServer) {
    let (ana_client, ana, first) = Client::guest(&server.url, "Ana").await.expect("welcomed");
    let (ben_client, _, _) = Client::guest(&server.url, "Ben").await.expect("welcomed");
    let game = play_table(vec![ana_client, ben_client]).await.expect("a game is played to its end");
    assert_eq!(http_get_stored(&format!("{}/api/games/{}", server.http(), game.table)).await.status, 200);
    let claimed = call(server, "POST", "/api/players/claim", Some(&first), Some(json!({ "password": PASSWORD }))).await;
    assert_eq!(claimed.status, 200, "{claimed:?}");

    // Who she is and where she is signed in: her first browser, and a second one.
    let second = token_of(&sign_in(server, "Ana", PASSWORD).await);
    let me = call(server, "GET", "/api/players/me", Some(&first), None).await;
    assert_eq!(me.status, 200, "{me:?}");
    assert_eq!((me.body["id"].as_str(), me.body["name"].as_str()), (Some(ana.id.to_string().as_str()), Some("Ana")));
    assert_eq!(me.body["claimed"], true);
    let devices = me.body["devices"].as_array().expect("devices");
    assert_eq!(devices.len(), 2, "{me:?}");
    assert_eq!((devices[0]["current"].as_bool(), devices[1]["current"].as_bool()), (Some(true), Some(false)));
    assert_eq!(devices[1]["device"], "Test browser 2");
    assert!(!me.body.to_string().contains(&first) && !me.body.to_string().contains(&second), "no token is shown");
    assert_eq!(call(server, "GET", "/api/players/me", None, None).await.code(), "bad_token");

    // Signing out ends that token alone; its connection is told and closed.
    let (mut second_client, _) = Client::returning(&server.url, &second).await.expect("welcomed");
    assert_eq!(call(server, "POST", "/api/sign-out", Some(&second), None).await.status, 204);
    expect_error(&mut second_client, None, ErrorCode::SignedOut).await;
    assert_eq!(closed(&mut second_client).await.map(|(code, _)| code), Some(1008));
    assert_eq!(call(server, "GET", "/api/players/me", Some(&second), None).await.code(), "bad_token");
    assert!(Client::returning(&server.url, &second).await.is_err(), "an ended token says hello to nobody");
    assert_eq!(call(server, "GET", "/api/players/me", Some(&first), None).await.status, 200);

    // Everywhere: every token, every connection, this one's too.
    let third = token_of(&sign_in(server, "Ana", PASSWORD).await);
    let (mut first_client, _) = Client::returning(&server.url, &first).await.expect("welcomed");
    let (mut third_client, _) = Client::returning(&server.url, &third).await.expect("welcomed");
    assert_eq!(call(server, "POST", "/api/sign-out-everywhere", Some(&third), None).await.status, 204);
    for client in [&mut first_client, &mut third_client] {
        expect_error(client, None, ErrorCode::SignedOut).await;
        assert!(closed(client).await.is_some());
    }
    for token in [&first, &third] {
        assert_eq!(call(server, "GET", "/api/players/me", Some(token), None).await.code(), "bad_token");
    }

    // A new password needs the old one; the other devices are signed out, this one stays.
    let here = token_of(&sign_in(server, "Ana", PASSWORD).await);
    let there = token_of(&sign_in(server, "Ana", PASSWORD).await);
    let change = |old: &str, new: &str| json!({ "old_password": old, "new_password": new });
    let path = "/api/players/me/password";
    let wrong = call(server, "POST", path, Some(&here), Some(change("not the password", NEW_PASSWORD))).await;
    assert_eq!((wrong.status, wrong.code()), (403, "wrong_password"));
    let short = call(server, "POST", path, Some(&here), Some(change(PASSWORD, "short"))).await;
    assert_eq!((short.status, short.code()), (400, "bad_password"));
    assert_eq!(call(server, "POST", path, Some(&here), Some(change(PASSWORD, NEW_PASSWORD))).await.status, 204);
    assert_eq!(call(server, "GET", "/api/players/me", Some(&here), None).await.status, 200);
    assert_eq!(call(server, "GET", "/api/players/me", Some(&there), None).await.code(), "bad_token");
    assert_eq!(sign_in(server, "Ana", PASSWORD).await.code(), "wrong_name_or_password");
    let here = token_of(&sign_in(server, "Ana", NEW_PASSWORD).await);

    // Her export: who she is, her game and her rating.
    let export = call(server, "GET", "/api/players/me/export", Some(&here), None).await;
    assert_eq!(export.status, 200, "{export:?}");
    assert_eq!(export.body["format"], "romirami-export/1");
    assert_eq!(export.body["player"]["id"], ana.id.to_string());
    assert_eq!(export.body["games"][0]["id"], game.table.to_string(), "{export:?}");
    assert!(export.body["ratings"].is_array() && export.body["chat"].is_array(), "{export:?}");

    // Deleting: the password is asked; then the name is free, and she is "deleted player" in her game.
    let refused = call(server, "DELETE", "/api/players/me", Some(&here), Some(json!({}))).await;
    assert_eq!((refused.status, refused.code()), (403, "wrong_password"));
    let deleted =
        call(server, "DELETE", "/api/players/me", Some(&here), Some(json!({ "password": NEW_PASSWORD }))).await;
    assert_eq!(deleted.status, 204, "{deleted:?}");
    assert_eq!(call(server, "GET", "/api/players/me", Some(&here), None).await.code(), "bad_token");
    assert_eq!(sign_in(server, "Ana", NEW_PASSWORD).await.code(), "wrong_name_or_password");
    let stored = http_get_stored(&format!("{}/api/games/{}", server.http(), game.table)).await.json();
    let names: Vec<&str> =
        stored["players"].as_array().expect("players").iter().filter_map(|p| p["name"].as_str()).collect();
    assert!(names.contains(&"deleted player") && !names.contains(&"Ana"), "{stored}");
    let record = http_get_stored(&format!("{}/api/games/{}/record", server.http(), game.table)).await;
    assert!(record.body.contains("\"name\":\"deleted player\"") && !record.body.contains("\"Ana\""), "{}", record.body);
    let page = http_get_stored(&format!("{}/api/players/{}", server.http(), ana.id)).await.json();
    assert_eq!(page["name"], "deleted player");
    let (_, new_ana, _) = Client::guest(&server.url, "Ana").await.expect("the name is free again");
    assert_ne!(new_ana.id, ana.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_on_sqlite() {
    let server = TestServer::start(config()).await;
    story(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_on_postgres() {
    let Some((server, store, database)) = TestServer::start_on_postgres(config()).await else { return };
    story(&server).await;
    server.stop_on_postgres(store, database).await;
}
