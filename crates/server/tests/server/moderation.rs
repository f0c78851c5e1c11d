//! Moderation (issue 40), through a real server on each backend (SQLite always, PostgreSQL from `DATABASE_URL`,
//! mandatory in CI): a player reports another (not themselves, at most ten an hour); only an admin (named on
//! the store, as `romirami admin grant` does) reads the reports, bans and lifts bans, and reads the audit log;
//! a ban closes the banned player's connection with `banned`, refuses their `hello` and their sign-in with the
//! time left, and ends when lifted; an admin removes a chat line (from the store and from what the table's members
//! read) and closes a table.

use crate::common;

use common::{TestServer, closed, create_table, expect_error, fast, http_call, send};
use romirami_client::Client;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_server::config::Config;
use romirami_server::protocol::{ErrorCode, PROTOCOL_VERSION, SpectatorPolicy};
use romirami_server::store::Store;
use serde_json::{Value, json};
use tokio::net::TcpListener;

const PASSWORD: &str = "correct horse battery";

fn config() -> Config {
    Config { exempt_loopback: false, guests_per_address_per_minute: 1000.0, ..fast() }
}

/// `method path` with a bearer token and a JSON body: status and body.
async fn call(server: &TestServer, method: &str, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    http_call(method, &format!("{}{path}", server.http()), Some(token), body).await
}

fn code(answer: &(u16, Value)) -> (u16, &str) {
    (answer.0, answer.1["error"]["code"].as_str().unwrap_or_default())
}

async fn story(server: &TestServer, store: &Store) {
    let (_, lea, lea_token) = Client::guest(&server.url, "Lea").await.expect("welcomed");
    let (_, nia, nia_token) = Client::guest(&server.url, "Nia").await.expect("welcomed");
    let (mut mo_client, mo, mo_token) = Client::guest(&server.url, "Mo").await.expect("welcomed");
    let claim = json!({ "password": PASSWORD });
    assert_eq!(call(server, "POST", "/api/players/claim", &mo_token, Some(claim)).await.0, 200);

    // Reports: of another player, with a reason; not of oneself; ten an hour.
    let report = |player: String, reason: &str| json!({ "player": player, "reason": reason });
    let made = call(server, "POST", "/api/reports", &nia_token, Some(report(mo.id.to_string(), "rude"))).await;
    assert_eq!(made.0, 201, "{made:?}");
    assert!(made.1["id"].as_i64().is_some());
    let own = call(server, "POST", "/api/reports", &nia_token, Some(report(nia.id.to_string(), "me"))).await;
    assert_eq!(code(&own), (400, "bad_report"));
    let blank = call(server, "POST", "/api/reports", &nia_token, Some(report(mo.id.to_string(), " \u{3164} "))).await;
    assert_eq!(code(&blank), (400, "bad_report"));
    for _ in 1..10 {
        assert_eq!(
            call(server, "POST", "/api/reports", &nia_token, Some(report(mo.id.to_string(), "again"))).await.0,
            201
        );
    }
    let flood = call(server, "POST", "/api/reports", &nia_token, Some(report(mo.id.to_string(), "more"))).await;
    assert_eq!(code(&flood), (429, "too_many_reports"));

    // Only an admin reads them; an admin is named on the store (as `romirami admin grant` does).
    for path in ["/api/admin/reports", "/api/admin/bans", "/api/admin/audit"] {
        assert_eq!(code(&call(server, "GET", path, &lea_token, None).await), (403, "not_admin"), "{path}");
    }
    assert!(store.set_admin(lea.id, true).await.expect("granted"));
    let reports = call(server, "GET", "/api/admin/reports", &lea_token, None).await;
    assert_eq!(reports.0, 200);
    assert_eq!(reports.1["reports"].as_array().map(Vec::len), Some(10), "{reports:?}");
    assert_eq!(reports.1["reports"][0]["player"]["name"], "Mo");
    assert_eq!(reports.1["reports"][0]["reporter"]["name"], "Nia");
    let me = call(server, "GET", "/api/players/me", &lea_token, None).await;
    assert_eq!(me.1["admin"], true);

    // A ban: Mo's connection is told and closed; his hello and his sign-in are refused with the time left.
    let ban = json!({ "player": mo.id.to_string(), "minutes": 60, "reason": "rude to everyone" });
    let not_admin = call(server, "POST", "/api/admin/bans", &nia_token, Some(ban.clone())).await;
    assert_eq!(code(&not_admin), (403, "not_admin"));
    let banned = call(server, "POST", "/api/admin/bans", &lea_token, Some(ban)).await;
    assert_eq!(banned.0, 201, "{banned:?}");
    let message = expect_error(&mut mo_client, None, ErrorCode::Banned).await;
    assert!(message.contains("60 more minute") && message.contains("rude to everyone"), "{message}");
    assert!(closed(&mut mo_client).await.is_some(), "his connection is closed");
    let mut again = Client::connect(&server.url).await.expect("connected");
    send(&mut again, ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: Some(mo_token.clone()), name: None }).await;
    let message = expect_error(&mut again, None, ErrorCode::Banned).await;
    assert!(message.contains("more minute"), "{message}");
    let sign_in = call(server, "POST", "/api/sign-in", "", Some(json!({ "name": "Mo", "password": PASSWORD }))).await;
    assert_eq!(code(&sign_in), (403, "banned"));
    let left = sign_in.1["error"]["retry_after"].as_u64().expect("retry_after");
    assert!(left > 3500 && left <= 3600, "{sign_in:?}");
    let reports = call(server, "GET", "/api/admin/reports", &lea_token, None).await;
    assert_eq!(reports.1["reports"].as_array().map(Vec::len), Some(0), "the ban resolved the reports");
    let bans = call(server, "GET", "/api/admin/bans", &lea_token, None).await;
    assert_eq!(bans.1["bans"][0]["player"]["name"], "Mo");

    // The audit log: the grant (from the command line) and the ban, newest first; lifting the ban lets Mo in.
    let lift = format!("/api/admin/bans/{}", mo.id);
    assert_eq!(call(server, "DELETE", &lift, &lea_token, None).await.0, 204);
    assert_eq!(code(&call(server, "DELETE", &lift, &lea_token, None).await), (404, "not_found"));
    let audit = call(server, "GET", "/api/admin/audit", &lea_token, None).await;
    let actions: Vec<&str> =
        audit.1["entries"].as_array().expect("entries").iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, ["unban", "ban", "grant"], "{audit:?}");
    assert_eq!(audit.1["entries"][2]["admin"], Value::Null, "the grant came from the command line");
    assert_eq!(audit.1["entries"][1]["admin"]["name"], "Lea");
    let (_, back) = Client::returning(&server.url, &mo_token).await.expect("welcomed once the ban is lifted");
    assert_eq!(back.id, mo.id);

    // A chat line removed: gone from the store and from what the table's members read; then the table closed.
    let (mut host, _) = Client::returning(&server.url, &nia_token).await.expect("welcomed");
    let (table, _) = create_table(&mut host, 2, true, SpectatorPolicy::Everyone).await;
    for text in ["a rude word", "sorry"] {
        send(&mut host, ClientMsg::Chat { table: table.id, text: text.into() }).await;
        host.wait_for(|m| matches!(m, ServerMsg::Chat { lines, .. } if lines[0].text == text).then_some(()))
            .await
            .expect("said");
    }
    let line = format!("/api/admin/tables/{}/chat/players/0", table.id);
    assert_eq!(code(&call(server, "DELETE", &line, &nia_token, None).await), (403, "not_admin"));
    assert_eq!(call(server, "DELETE", &line, &lea_token, None).await.0, 204);
    let lines = host
        .wait_for(|m| match m {
            ServerMsg::ChatHistory { lines, .. } => Some(lines.iter().map(|l| l.text.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .await
        .expect("the chat again");
    assert_eq!(lines, ["sorry"]);
    assert_eq!(code(&call(server, "DELETE", &line, &lea_token, None).await), (404, "not_found"));
    assert!(store.chat(table.id).await.expect("read").iter().all(|l| l.text != "a rude word"), "the store forgot it");
    let close = format!("/api/admin/tables/{}/close", table.id);
    assert_eq!(code(&call(server, "POST", &close, &nia_token, None).await), (403, "not_admin"));
    assert_eq!(call(server, "POST", &close, &lea_token, None).await.0, 204);
    let audit = call(server, "GET", "/api/admin/audit", &lea_token, None).await;
    assert_eq!(audit.1["entries"][0]["action"], "close", "{audit:?}");
    assert_eq!(audit.1["entries"][1]["action"], "remove_line");
    assert_eq!(audit.1["entries"][1]["target"]["name"], "Nia");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderation_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store =
        Store::connect(&format!("sqlite://{}", dir.path().join("moderation.db").display())).await.expect("open");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config(), store.clone()).await;
    story(&server, &store).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderation_on_postgres() {
    let Some((server, store, database)) = TestServer::start_on_postgres(config()).await else { return };
    story(&server, &store).await;
    server.stop_on_postgres(store, database).await;
}
