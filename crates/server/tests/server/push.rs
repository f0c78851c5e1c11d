//! Web Push, end to end (docs/push.md): a device subscribes over REST; when its player's turn comes while
//! they are away from the table, the server posts a push to the device's endpoint — here a local push
//! service admitted with `allow_endpoints` (`--push-allow-endpoint`) — signed with the server's VAPID key
//! and encrypted for the device: the test checks the signature with the key `GET /api/push/key` gives,
//! and decrypts the payload with the device's keys, as a browser would. An endpoint that answers 410 is
//! forgotten; one that fails is tried again. Endpoints that are not known push services (a loopback or
//! private address, plain HTTP) are refused without the flag: no request forgery through the server.

use crate::common;

use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{Follower, TestServer, guest, send};
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use romirami_client::romi_rami::{ClientMsg, ServerMsg};
use romirami_engine::bot::choose;
use romirami_server::config::Config;
use romirami_server::protocol::{SpectatorPolicy, TableId};
use romirami_server::push::{Notice, NoticeKind, PushConfig};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// A push as the local push service received it.
#[derive(Debug)]
pub(crate) struct Received {
    pub(crate) device: String,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

/// A local push service: answers `POST /push/{device}` with 201, `/gone/{device}` with 410 and
/// `/flaky/{device}` with 503 the first time and 201 after; hands every post it gets to the test.
pub(crate) async fn push_service() -> (String, mpsc::UnboundedReceiver<Received>) {
    #[derive(Clone)]
    struct Service {
        received: mpsc::UnboundedSender<Received>,
        flaky_seen: std::sync::Arc<std::sync::atomic::AtomicBool>,
    }
    async fn take(
        State(service): State<Service>,
        Path((kind, device)): Path<(String, String)>,
        headers: HeaderMap,
        body: Bytes,
    ) -> StatusCode {
        let _ = service.received.send(Received { device: format!("{kind}/{device}"), headers, body });
        match kind.as_str() {
            "gone" => StatusCode::GONE,
            "flaky" if !service.flaky_seen.swap(true, std::sync::atomic::Ordering::SeqCst) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            _ => StatusCode::CREATED,
        }
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let service = Service { received: tx, flaky_seen: Default::default() };
    let app = Router::new().route("/{kind}/{device}", post(take)).with_state(service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("as the test set it up");
    let base = format!("http://{}", listener.local_addr().expect("as the test set it up"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, rx)
}

/// A browser's side of a subscription: its key pair and authentication secret.
pub(crate) struct Device {
    secret: p256::SecretKey,
    auth: [u8; 16],
    endpoint: String,
}

impl Device {
    pub(crate) fn new(endpoint: String) -> Device {
        let mut scalar = [0u8; 32];
        let secret = loop {
            getrandom::fill(&mut scalar).expect("as the test set it up");
            if let Ok(secret) = p256::SecretKey::from_slice(&scalar) {
                break secret;
            }
        };
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).expect("as the test set it up");
        Device { secret, auth, endpoint }
    }

    /// The subscription's JSON as `PushSubscription.toJSON()` gives it, with a language.
    pub(crate) fn subscription(&self, lang: &str) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": self.endpoint,
            "expirationTime": null,
            "keys": { "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()), "auth": URL_SAFE_NO_PAD.encode(self.auth) },
            "lang": lang,
        })
    }

    /// The payload of a push, decrypted as the browser does (RFC 8291).
    pub(crate) fn decrypt(&self, body: &[u8]) -> Value {
        let auth = web_push_native::Auth::clone_from_slice(&self.auth);
        let plain = web_push_native::decrypt(body.to_vec(), &self.secret, &auth).expect("the push decrypts");
        serde_json::from_slice(&plain).expect("the payload is JSON")
    }
}

pub(crate) fn config(admitted: &str) -> Config {
    Config {
        push: PushConfig {
            contact: "mailto:ops@example.org".into(),
            allow_endpoints: vec![format!("{admitted}/")],
            retries: vec![Duration::from_millis(50), Duration::from_millis(50)],
            ..PushConfig::default()
        },
        ..common::fast()
    }
}

pub(crate) async fn post_json(url: &str, token: &str, body: &Value) -> reqwest::Response {
    reqwest::Client::new().post(url).bearer_auth(token).json(body).send().await.expect("the server answers")
}

pub(crate) async fn public_key(server: &TestServer) -> String {
    let key: Value = reqwest::get(format!("{}/api/push/key", server.http()))
        .await
        .expect("as the test set it up")
        .json()
        .await
        .expect("as the test set it up");
    key["public_key"].as_str().expect("a key").to_owned()
}

/// Checks the VAPID authorization of `push` (RFC 8292): a JWT for the push service's origin, naming the
/// contact, signed by the key the server publishes, and that key.
pub(crate) fn check_vapid(push: &Received, origin: &str, server_key: &str) {
    let authorization = push.headers["authorization"].to_str().expect("as the test set it up");
    let (token, key) = authorization
        .strip_prefix("vapid t=")
        .expect("as the test set it up")
        .split_once(", k=")
        .expect("as the test set it up");
    assert_eq!(key, server_key, "the push names the server's public key");
    let (signed, signature) = token.rsplit_once('.').expect("as the test set it up");
    let verifying = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(key).expect("as the test set it up"))
        .expect("as the test set it up");
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).expect("as the test set it up"))
        .expect("as the test set it up");
    verifying.verify(signed.as_bytes(), &signature).expect("the VAPID token is signed by the server's key");
    let (header, claims) = signed.split_once('.').expect("as the test set it up");
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header).expect("as the test set it up"))
        .expect("as the test set it up");
    assert_eq!(header["alg"], "ES256");
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).expect("as the test set it up"))
        .expect("as the test set it up");
    assert_eq!(claims["aud"], origin);
    assert_eq!(claims["sub"], "mailto:ops@example.org");
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("as the test set it up").as_secs();
    let exp = claims["exp"].as_u64().expect("as the test set it up");
    assert!(exp > now && exp <= now + 24 * 3600, "valid now, for at most a day: {exp} vs {now}");
    assert_eq!(push.headers["content-encoding"], "aes128gcm");
    assert!(push.headers.contains_key("ttl"));
}

#[tokio::test]
async fn a_player_away_from_the_table_is_pushed_their_turn_signed_and_encrypted_for_their_device() {
    let (service, mut pushes) = push_service().await;
    let server = TestServer::start(config(&service)).await;
    let (mut ana, _, _) = guest(&server.url, "Ana").await;
    let (mut ben, _, ben_token) = guest(&server.url, "Ben").await;
    let device = Device::new(format!("{service}/push/ben-phone"));
    let answer =
        post_json(&format!("{}/api/push/subscriptions", server.http()), &ben_token, &device.subscription("fr")).await;
    assert_eq!(answer.status(), 201);

    let (table, invite) = common::create_casual_pair(&mut ana, SpectatorPolicy::Link, None).await;
    send(&mut ben, ClientMsg::Join { table, invite: Some(invite), since: None }).await;
    let (mut ana, mut ben) = (Follower::new(ana, table, 0), Follower::new(ben, table, 0));

    // Both play until it is Ana's turn: then Ben closes the page.
    while ana.turn.is_none() {
        tokio::select! {
            _ = ana.recv() => {}
            msg = ben.recv() => {
                if let ServerMsg::YourTurn { legal, .. } = msg {
                    ben.act(choose(&legal).expect("a legal action")).await;
                }
            }
        }
    }
    drop(ben);
    assert!(pushes.try_recv().is_err(), "no push while Ben was at the table");

    // Ana plays her turn; Ben's comes, and his phone is told.
    let push = loop {
        if let Some(legal) = ana.turn.take() {
            ana.act(choose(&legal).expect("a legal action")).await;
        }
        tokio::select! {
            push = pushes.recv() => break push.expect("the push service runs"),
            _ = ana.recv() => {}
        }
    };
    assert_eq!(push.device, "push/ben-phone");
    check_vapid(&push, &service, &public_key(&server).await);
    assert_eq!(push.headers["urgency"], "high");
    let payload = device.decrypt(&push.body);
    assert_eq!(
        payload,
        json!({
            "kind": "turn",
            "table": table.0.to_string(),
            "game": "romi-rami",
            "title": "À vous de jouer",
            "body": "Romi Rami : c'est votre tour.",
            "url": format!("/#/table/{}", table.0),
        })
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_gone_endpoint_is_forgotten_and_a_failing_one_is_tried_again() {
    let (service, mut pushes) = push_service().await;
    let server = TestServer::start(config(&service)).await;
    let (_ana, ana_info, ana_token) = guest(&server.url, "Ana").await;
    let url = format!("{}/api/push/subscriptions", server.http());
    let gone = Device::new(format!("{service}/gone/old-laptop"));
    let flaky = Device::new(format!("{service}/flaky/phone"));
    for device in [&gone, &flaky] {
        assert_eq!(post_json(&url, &ana_token, &device.subscription("it")).await.status(), 201);
    }
    let notice =
        |kind| Notice { players: vec![ana_info.id], kind, table: TableId(uuid::Uuid::new_v4()), game: "rommi".into() };
    server.state.pusher.notify(notice(NoticeKind::Rematch));
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let push = tokio::time::timeout(Duration::from_secs(10), pushes.recv())
            .await
            .expect("pushes come")
            .expect("as the test set it up");
        let payload =
            if push.device.starts_with("gone") { gone.decrypt(&push.body) } else { flaky.decrypt(&push.body) };
        assert_eq!(payload["title"], "La rivincita?");
        assert_eq!(push.headers["urgency"], "normal");
        seen.push(push.device);
    }
    seen.sort();
    assert_eq!(seen, ["flaky/phone", "flaky/phone", "gone/old-laptop"], "the flaky one twice, the gone one once");
    // The gone endpoint is forgotten; the other is kept.
    let store = &server.state.store;
    for _ in 0..200 {
        if store.push_subscriptions(ana_info.id).await.expect("as the test set it up").len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let kept = store.push_subscriptions(ana_info.id).await.expect("as the test set it up");
    assert_eq!(kept.iter().map(|s| s.endpoint.as_str()).collect::<Vec<_>>(), [flaky.endpoint.as_str()]);
    server.shutdown().await;
}

#[tokio::test]
async fn endpoints_that_are_not_known_push_services_are_refused_without_the_flag() {
    let server = TestServer::start(common::fast()).await;
    let (_ana, ana_info, token) = guest(&server.url, "Ana").await;
    let url = format!("{}/api/push/subscriptions", server.http());
    for endpoint in [
        "http://127.0.0.1:9/push/x",
        "https://127.0.0.1/push/x",
        "https://[::1]/push/x",
        "https://192.168.1.10/push/x",
        "https://169.254.169.254/latest/meta-data",
        "https://localhost/push/x",
        "https://push.example.com/x",
        "http://fcm.googleapis.com/fcm/send/x",
    ] {
        let answer = post_json(&url, &token, &Device::new(endpoint.into()).subscription("en")).await;
        assert_eq!(answer.status(), 400, "{endpoint}");
        let body: Value = answer.json().await.expect("as the test set it up");
        assert_eq!(body["error"]["code"], "bad_push_subscription", "{endpoint}");
    }
    assert!(server.state.store.push_subscriptions(ana_info.id).await.expect("as the test set it up").is_empty());

    // A browser push service's endpoint is kept (nothing is posted to it here), with a device's keys only.
    let chrome = Device::new("https://fcm.googleapis.com/fcm/send/abc:def".into());
    let mut bad_keys = chrome.subscription("en");
    bad_keys["keys"]["auth"] = json!("c2hvcnQ");
    assert_eq!(post_json(&url, &token, &bad_keys).await.status(), 400);
    assert_eq!(post_json(&url, "nobody's token", &chrome.subscription("en")).await.status(), 401);
    let answer = post_json(&url, &token, &chrome.subscription("fr-CH")).await;
    assert_eq!(answer.status(), 201);
    assert_eq!(answer.json::<Value>().await.expect("as the test set it up")["lang"], "fr");

    // Taken back: once, then it is not there.
    let delete =
        || reqwest::Client::new().delete(&url).bearer_auth(&token).json(&json!({ "endpoint": chrome.endpoint })).send();
    assert_eq!(delete().await.expect("as the test set it up").status(), 204);
    assert_eq!(delete().await.expect("as the test set it up").status(), 404);
    server.shutdown().await;
}

#[tokio::test]
async fn the_vapid_key_is_made_once_and_kept_in_the_store() {
    let dir = tempfile::tempdir().expect("as the test set it up");
    let database = format!("sqlite://{}", dir.path().join("games.db").display());
    let mut keys = Vec::new();
    for _ in 0..2 {
        let store = romirami_server::store::Store::connect(&database).await.expect("as the test set it up");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("as the test set it up");
        let server = TestServer::start_with(listener, common::fast(), store).await;
        keys.push(public_key(&server).await);
        server.shutdown().await;
    }
    assert_eq!(
        URL_SAFE_NO_PAD.decode(&keys[0]).expect("as the test set it up").len(),
        65,
        "an uncompressed P-256 point"
    );
    assert_eq!(keys[0], keys[1], "the same key after a restart");
}
