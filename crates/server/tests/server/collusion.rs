//! The collusion signal (issue 40), through a real server on each backend (SQLite always, PostgreSQL from
//! `DATABASE_URL`, mandatory in CI): players connect through a trusted proxy that names their addresses; an
//! admin's `GET /api/admin/collusion` lists the pairs who share an address and sat at rated tables together at
//! least `min_tables` times, the most first, and nobody else (not a pair from two addresses however often they
//! meet, not casual tables, not a pair who share an address but never a table). Only admins may read it.

use crate::common;
use crate::json_ws;

use std::time::Duration;

use common::{TestServer, fast, http_call};
use json_ws::JsonWs;
use romirami_server::config::Config;
use romirami_server::protocol::PlayerId;
use romirami_server::store::Store;
use serde_json::{Value, json};
use tokio::net::TcpListener;

fn config() -> Config {
    Config {
        trusted_proxies: vec!["127.0.0.1".parse().expect("an address")],
        guests_per_address_per_minute: 1000.0,
        ..fast()
    }
}

/// A guest's id and token, from its welcome.
struct Guest {
    ws: JsonWs,
    id: String,
    token: String,
}

async fn guest(server: &TestServer, name: &str, address: &str) -> Guest {
    let mut ws = JsonWs::guest_from(&server.url, name, address).await;
    let welcome: Value = serde_json::from_str(ws.texts.last().expect("the welcome")).expect("JSON");
    let id = welcome["player"]["id"].as_str().expect("an id").to_owned();
    let token = welcome["token"].as_str().expect("a token").to_owned();
    ws.texts.clear();
    Guest { ws, id, token }
}

/// `host` opens a two-seat table (rated or casual) and `other` sits down: the game starts.
async fn sit_together(host: &mut Guest, other: &mut Guest, rated: bool) {
    host.ws
        .send(json!({ "type": "create_table", "seats": 2, "public": false, "spectators": "link", "rated": rated }))
        .await;
    let created = host.ws.wait_for_type("table_created", Duration::from_secs(10)).await;
    let (table, invite) = (created["table"]["id"].clone(), created["invite"].clone());
    other.ws.send(json!({ "type": "join", "table": table, "invite": invite })).await;
    loop {
        let told = host.ws.wait_for_type("table", Duration::from_secs(10)).await;
        if told["table"]["state"] == "playing" {
            break;
        }
    }
    // Both go; the bot finishes the game for them.
    host.ws.send(json!({ "type": "leave", "table": table })).await;
    other.ws.send(json!({ "type": "leave", "table": table })).await;
}

async fn collusion(server: &TestServer, token: &str, query: &str) -> (u16, Value) {
    http_call("GET", &format!("{}/api/admin/collusion{query}", server.http()), Some(token), None).await
}

/// The pairs listed, as (names, tables, addresses).
fn pairs(answer: &Value) -> Vec<(String, String, i64, i64)> {
    answer["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|pair| {
            let mut names = [
                pair["players"][0]["name"].as_str().unwrap_or_default(),
                pair["players"][1]["name"].as_str().unwrap_or_default(),
            ];
            names.sort_unstable();
            let tables = pair["tables"].as_i64().unwrap_or_default();
            (names[0].to_owned(), names[1].to_owned(), tables, pair["addresses"].as_i64().unwrap_or_default())
        })
        .collect()
}

async fn story(server: &TestServer, store: &Store) {
    // Ana, Bo and Cy play from one home; Dan from elsewhere; Lea moderates from a third place.
    let mut ana = guest(server, "Ana", "203.0.113.7").await;
    let mut bo = guest(server, "Bo", "203.0.113.7").await;
    let mut cy = guest(server, "Cy", "203.0.113.7").await;
    let mut dan = guest(server, "Dan", "198.51.100.20").await;
    let lea = guest(server, "Lea", "192.0.2.30").await;
    // An IPv6 home: one /64 network, two devices.
    let mut eve = guest(server, "Eve", "2001:db8:1:2::10").await;
    let mut flo = guest(server, "Flo", "2001:db8:1:2:aaaa::20").await;

    sit_together(&mut ana, &mut bo, true).await;
    sit_together(&mut bo, &mut ana, true).await;
    sit_together(&mut ana, &mut cy, true).await;
    sit_together(&mut cy, &mut ana, false).await;
    sit_together(&mut ana, &mut dan, true).await;
    sit_together(&mut dan, &mut ana, true).await;
    sit_together(&mut eve, &mut flo, true).await;

    // Only an admin reads the list.
    assert_eq!(collusion(server, &ana.token, "").await.0, 403);
    let lea_id = PlayerId(lea.id.parse().expect("a uuid"));
    assert!(store.set_admin(lea_id, true).await.expect("granted"));
    let every = collusion(server, &lea.token, "?min_tables=1").await;
    assert_eq!(every.0, 200, "{every:?}");
    assert_eq!(every.1["min_tables"], 1);
    let mut listed = pairs(&every.1);
    assert_eq!(listed.first(), Some(&("Ana".to_owned(), "Bo".to_owned(), 2, 1)), "the most tables first: {listed:?}");
    listed.sort();
    // Not Ana and Dan (two addresses), not Bo and Cy (no table together), not the casual table.
    let expected = [("Ana", "Bo", 2, 1), ("Ana", "Cy", 1, 1), ("Eve", "Flo", 1, 1)]
        .map(|(a, b, tables, addresses)| (a.to_owned(), b.to_owned(), tables, addresses));
    assert_eq!(listed, expected.to_vec(), "{every:?}");
    assert!(!every.1.to_string().contains("203.0.113"), "no address is shown: {every:?}");
    let two = collusion(server, &lea.token, "?min_tables=2").await;
    assert_eq!(pairs(&two.1), vec![("Ana".to_owned(), "Bo".to_owned(), 2, 1)]);
    let default = collusion(server, &lea.token, "").await;
    assert_eq!((default.1["min_tables"].as_i64(), pairs(&default.1).len()), (Some(3), 0));
    for bad in ["?min_tables=0", "?min_tables=x", "?min_tables=1&min_tables=2", "?addresses=1"] {
        assert_eq!(collusion(server, &lea.token, bad).await.0, 400, "{bad}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pairs_sharing_an_address_at_rated_tables_are_listed_for_admins_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("collusion.db").display())).await.expect("open");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let server = TestServer::start_with(listener, config(), store.clone()).await;
    story(&server, &store).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pairs_sharing_an_address_at_rated_tables_are_listed_for_admins_on_postgres() {
    let Some((server, store, database)) = TestServer::start_on_postgres(config()).await else { return };
    story(&server, &store).await;
    server.stop_on_postgres(store, database).await;
}
