//! Names you keep, through a real server on each backend (SQLite always, PostgreSQL from `DATABASE_URL`,
//! mandatory in CI): a guest who played a game claims their name with a password and signs in from a
//! new client to the same player, whose history is there, while their first token keeps working; a kept
//! name is refused to new guests in any case or width, while an unclaimed one stays shared; claiming twice
//! or a name someone else keeps is refused; wrong passwords lock the name, and the address, after a few;
//! and hostile bodies get a clear 4xx with its code, never a 5xx.
//!
//! The server believes `X-Forwarded-For` from 127.0.0.1 (a trusted proxy), so each request can come
//! from a client address of its own; the locks last an hour, so a locked name stays locked for the test.

use crate::common;

use std::time::Duration;

use common::{TestServer, expect_error, fast, http_get, http_get_stored, send};
use romirami_client::Client;
use romirami_client::bots::play_table;
use romirami_client::romi_rami::ClientMsg;
use romirami_server::config::{Config, SignInLimits};
use romirami_server::protocol::{ErrorCode, PROTOCOL_VERSION, PlayerInfo};
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";

fn config() -> Config {
    Config {
        exempt_loopback: false,
        trusted_proxies: vec!["127.0.0.1".parse().expect("an address")],
        guests_per_address_per_minute: 1000.0,
        sign_in: SignInLimits {
            free_failures_per_name: 2,
            free_failures_per_address: 4,
            first_lock: Duration::from_secs(3600),
            max_lock: Duration::from_secs(3600),
            ..SignInLimits::default()
        },
        ..fast()
    }
}

/// An answer to a POST: status, `Retry-After` header, and body as JSON.
#[derive(Debug)]
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

impl Answer {
    fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or_else(|| panic!("not an API error: {}", self.body))
    }
}

/// POSTs `body` (raw bytes) to `path`, with a bearer `token` and from client `address` when given.
async fn post_raw(server: &TestServer, path: &str, body: Vec<u8>, token: Option<&str>, address: &str) -> Answer {
    let url = format!("{}{path}", server.http());
    let (token, address) = (token.map(str::to_owned), address.to_owned());
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut request =
            agent.post(&url).header("Content-Type", "application/json").header("X-Forwarded-For", &address);
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let mut answer = request.send(&body[..]).unwrap_or_else(|e| panic!("POST {url}: {e}"));
        let status = answer.status().as_u16();
        let retry_after = answer.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let text = answer.body_mut().read_to_string().unwrap_or_else(|e| panic!("reading POST {url}: {e}"));
        let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        Answer { status, retry_after, body }
    })
    .await
    .expect("the request thread")
}

async fn claim(server: &TestServer, token: Option<&str>, password: &str) -> Answer {
    let body = json!({ "password": password }).to_string().into_bytes();
    post_raw(server, "/api/players/claim", body, token, "198.51.100.1").await
}

async fn sign_in(server: &TestServer, name: &str, password: &str, address: &str) -> Answer {
    let body = json!({ "name": name, "password": password }).to_string().into_bytes();
    post_raw(server, "/api/sign-in", body, None, address).await
}

fn refused(answer: &Answer, status: u16, code: &str) {
    assert_eq!((answer.status, answer.code()), (status, code), "{answer:?}");
}

/// A new guest named `name`, refused because another player keeps the name.
async fn guest_refused(server: &TestServer, name: &str) {
    let mut client = Client::connect(&server.url).await.expect("connected");
    send(&mut client, ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: None, name: Some(name.into()) }).await;
    let message = expect_error(&mut client, None, ErrorCode::NameTaken).await;
    assert!(message.contains("keeps this name"), "{message}");
}

async fn player_page(server: &TestServer, player: &PlayerInfo) -> Value {
    let answer = http_get(&format!("{}/api/players/{}", server.http(), player.id), "application/json").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()
}

async fn story(server: &TestServer) {
    let (ana_client, ana, ana_token) = Client::guest(&server.url, "Ana").await.expect("welcomed");
    let (ben_client, ben, ben_token) = Client::guest(&server.url, "Ben").await.expect("welcomed");
    let game = play_table(vec![ana_client, ben_client]).await.expect("a game is played to its end");
    let stored = http_get_stored(&format!("{}/api/games/{}", server.http(), game.table)).await;
    assert_eq!(stored.status, 200, "the game is stored: {}", stored.body);
    assert_eq!(player_page(server, &ana).await["claimed"], false);

    // Ana keeps her name.
    let claimed = claim(server, Some(&ana_token), PASSWORD).await;
    assert_eq!(claimed.status, 200, "{claimed:?}");
    assert_eq!(claimed.body["player"]["id"], ana.id.to_string());
    assert!(!claimed.body.to_string().contains(PASSWORD), "the password is not sent back");
    assert_eq!(player_page(server, &ana).await["claimed"], true);
    refused(&claim(server, Some(&ana_token), "another password").await, 409, "already_claimed");

    // Nobody else can be a new "Ana", in any case, width or spacing; an unclaimed name stays shared.
    for name in ["Ana", "ANA", "ana", " ana ", "\u{ff21}\u{ff4e}\u{ff41}"] {
        guest_refused(server, name).await;
    }
    let (_, ben_again, ben_again_token) = Client::guest(&server.url, "ben").await.expect("an unclaimed name");
    let (_, ben_third, _) = Client::guest(&server.url, "Ben").await.expect("an unclaimed name");
    assert!(ben_again.id != ben.id && ben_third.id != ben.id && ben_third.id != ben_again.id);
    // The second "ben" claims first: the first Ben cannot any more, nor can a new guest take it.
    assert_eq!(claim(server, Some(&ben_again_token), PASSWORD).await.status, 200);
    refused(&claim(server, Some(&ben_token), PASSWORD).await, 409, "name_taken");
    guest_refused(server, "BEN").await;

    // Signing in from a new client: the same player, with her history; the first token still works.
    let signed_in = sign_in(server, "ANA", PASSWORD, "198.51.100.2").await;
    assert_eq!(signed_in.status, 200, "{signed_in:?}");
    assert_eq!(signed_in.body["player"]["id"], ana.id.to_string());
    assert_eq!(signed_in.body["player"]["name"], "Ana");
    let new_token = signed_in.body["token"].as_str().expect("a token").to_owned();
    assert_ne!(new_token, ana_token);
    let (_, elsewhere) = Client::returning(&server.url, &new_token).await.expect("welcomed with the new token");
    assert_eq!(elsewhere, ana);
    let (_, first) = Client::returning(&server.url, &ana_token).await.expect("the first token still works");
    assert_eq!(first, ana);
    let page = player_page(server, &ana).await;
    assert_eq!(page["games_played"], 1, "{page}");
    assert_eq!(page["recent"][0]["id"], game.table.to_string(), "{page}");
    // Signing in twice gives two tokens, both good.
    let again = sign_in(server, "Ana", PASSWORD, "198.51.100.2").await;
    let third_token = again.body["token"].as_str().expect("a token").to_owned();
    assert_ne!(third_token, new_token);
    assert_eq!(Client::returning(&server.url, &new_token).await.expect("still good").1, ana);

    // The OpenAPI document describes both, the claim with its bearer token.
    let doc = http_get(&format!("{}/api/openapi.json", server.http()), "application/json").await.json();
    assert!(doc["paths"]["/api/sign-in"]["post"].is_object(), "sign-in is documented");
    assert_eq!(doc["paths"]["/api/players/claim"]["post"]["security"][0]["token"], json!([]));
    assert_eq!(doc["components"]["securitySchemes"]["token"]["scheme"], "bearer");

    look_alike_names_are_kept_too(server).await;
    wrong_passwords_lock_the_name(server).await;
    wrong_passwords_lock_the_address(server).await;
    a_burst_of_guesses_checks_no_more_passwords(server).await;
    hostile_bodies(server, &ana_token).await;
}

/// Issue 40: with "Anna" kept, "Аnnа" (Cyrillic а) and "Αnna" (Greek Alpha) were welcomed; with "Straße" and
/// "Ανας" kept, "STRASSE" and "ΑΝΑΣ". Each is the kept name, or looks like it.
async fn look_alike_names_are_kept_too(server: &TestServer) {
    for (kept, others) in [
        ("Anna", &["\u{410}nn\u{430}", "\u{391}nna", "ANNA"][..]),
        ("Stra\u{df}e", &["STRASSE", "strasse"][..]),
        ("\u{391}\u{3bd}\u{3b1}\u{3c2}", &["\u{391}\u{39d}\u{391}\u{3a3}"][..]),
    ] {
        let (_, _, token) = Client::guest(&server.url, kept).await.expect("welcomed");
        assert_eq!(claim(server, Some(&token), PASSWORD).await.status, 200, "{kept} is kept");
        for other in others {
            guest_refused(server, other).await;
        }
    }
    // The same name in another case signs in; a look-alike is another name, and signs in to nothing.
    assert_eq!(sign_in(server, "STRASSE", PASSWORD, "198.51.100.3").await.status, 200);
    refused(&sign_in(server, "\u{410}nn\u{430}", PASSWORD, "198.51.100.3").await, 401, "wrong_name_or_password");
}

/// Issue 40: 60 concurrent wrong guesses for one kept name were all checked: now only the free ones (2 here)
/// ones and the one that locks are, the others refused before any hash.
async fn a_burst_of_guesses_checks_no_more_passwords(server: &TestServer) {
    let (_, _, token) = Client::guest(&server.url, "Burst").await.expect("welcomed");
    assert_eq!(claim(server, Some(&token), PASSWORD).await.status, 200);
    let guesses =
        (0..60).map(|n| async move { sign_in(server, "Burst", "not the password", &format!("203.0.113.{n}")).await });
    let answers = futures_util::future::join_all(guesses).await;
    let checked = answers.iter().filter(|a| a.code() == "wrong_name_or_password").count();
    let refused = answers.iter().filter(|a| a.code() == "too_many_attempts").count();
    assert_eq!((checked, refused), (3, 57), "{:?}", answers.iter().map(Answer::code).collect::<Vec<_>>());
}

async fn wrong_passwords_lock_the_name(server: &TestServer) {
    let (_, dee, dee_token) = Client::guest(&server.url, "Dee").await.expect("welcomed");
    assert_eq!(claim(server, Some(&dee_token), PASSWORD).await.status, 200);
    // A wrong password and a name nobody keeps are one answer.
    let wrong = sign_in(server, "Dee", "not the password", "203.0.113.1").await;
    let nobody = sign_in(server, "Nobody At All", PASSWORD, "203.0.113.2").await;
    refused(&wrong, 401, "wrong_name_or_password");
    assert_eq!(wrong.body, nobody.body);
    // Each from an address of its own: the name's window alone. Two are free, the third locks it.
    refused(&sign_in(server, "dee", "still not it", "203.0.113.3").await, 401, "wrong_name_or_password");
    refused(&sign_in(server, "DEE", "nor this one", "203.0.113.4").await, 401, "wrong_name_or_password");
    let locked = sign_in(server, "Dee", PASSWORD, "203.0.113.5").await;
    refused(&locked, 429, "too_many_attempts");
    let wait = locked.body["error"]["retry_after"].as_u64().expect("retry_after");
    assert!(wait > 0 && wait <= 3600, "{locked:?}");
    assert_eq!(locked.retry_after, Some(wait.to_string()));
    // Dee's own browser is not signed out, and another name is not locked.
    assert_eq!(Client::returning(&server.url, &dee_token).await.expect("still good").1, dee);
    assert_eq!(sign_in(server, "Ana", PASSWORD, "203.0.113.6").await.status, 200);
}

async fn wrong_passwords_lock_the_address(server: &TestServer) {
    let (_, _, eve_token) = Client::guest(&server.url, "Eve").await.expect("welcomed");
    assert_eq!(claim(server, Some(&eve_token), PASSWORD).await.status, 200);
    // One address tries five names once each: no name is locked, the address is (four are free).
    let address = "192.0.2.77";
    for name in ["Fay", "Gus", "Hal", "Ivy", "Jo"] {
        refused(&sign_in(server, name, "guessing game", address).await, 401, "wrong_name_or_password");
    }
    refused(&sign_in(server, "Eve", PASSWORD, address).await, 429, "too_many_attempts");
    // Eve from elsewhere is not locked; a right password from the locked address does not unlock it.
    assert_eq!(sign_in(server, "Eve", PASSWORD, "192.0.2.78").await.status, 200);
    refused(&sign_in(server, "Eve", PASSWORD, address).await, 429, "too_many_attempts");
}

async fn hostile_bodies(server: &TestServer, token: &str) {
    let address = "198.51.100.200";
    let sign_in_raw = |body: Vec<u8>| post_raw(server, "/api/sign-in", body, None, address);
    // A huge password (under the body limit: one over it is refused before it is read, and the server's
    // answer may then race the client's writing) is refused for its length, never hashed.
    let huge = json!({ "name": "Ana", "password": "x".repeat(60_000) }).to_string().into_bytes();
    refused(&sign_in_raw(huge).await, 400, "bad_password");
    let huge = json!({ "password": "\u{e9}".repeat(30_000) }).to_string().into_bytes();
    refused(&post_raw(server, "/api/players/claim", huge, Some(token), address).await, 400, "bad_password");
    refused(&sign_in(server, "Ana", &"x".repeat(200), address).await, 400, "bad_password");
    refused(&sign_in(server, "Ana", "", address).await, 400, "bad_password");
    refused(&sign_in(server, "", PASSWORD, address).await, 400, "bad_name");
    refused(&sign_in(server, "A\u{7}na", PASSWORD, address).await, 400, "bad_name");
    refused(&sign_in(server, "\u{202e}anA", PASSWORD, address).await, 400, "bad_name");
    refused(&sign_in(server, &"a".repeat(5000), PASSWORD, address).await, 400, "bad_name");
    refused(&sign_in_raw(b"not json".to_vec()).await, 400, "bad_body");
    refused(&sign_in_raw(b"{\"name\":\"Ana\"}".to_vec()).await, 400, "bad_body");
    refused(&sign_in_raw(br#"{"name":"Ana","password":"x","admin":true}"#.to_vec()).await, 400, "bad_body");
    refused(&sign_in_raw(br#"{"name":1,"password":[]}"#.to_vec()).await, 400, "bad_body");
    refused(&claim(server, None, PASSWORD).await, 401, "bad_token");
    refused(&claim(server, Some("not a token"), PASSWORD).await, 401, "bad_token");
    refused(&claim(server, Some(token), "short").await, 400, "bad_password");
    // None of these counted as a wrong password: the address is not locked.
    assert_eq!(sign_in(server, "Ana", PASSWORD, address).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_you_keep_on_sqlite() {
    let server = TestServer::start(config()).await;
    story(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_you_keep_on_postgres() {
    let Some((server, store, database)) = TestServer::start_on_postgres(config()).await else { return };
    story(&server).await;
    server.stop_on_postgres(store, database).await;
}
