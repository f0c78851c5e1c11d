//! Posting pushes: one task reads the notices, looks up each player's devices, and posts each device its
//! push on a task of its own, at most [`AT_ONCE`] at a time, trying again after a failure that may pass.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::StatusCode;
use tokio::sync::{Semaphore, mpsc};
use tracing::{debug, warn};
use web_push_native::{Auth, WebPushBuilder};

use super::endpoint::{EndpointRules, PublicOnly, Route};
use super::vapid::VapidKey;
use super::{Notice, NoticeKind, Payload, PushConfig};
use crate::store::{PushSubscription, Store};

/// Posts in flight at once.
const AT_ONCE: usize = 32;

/// How long a push service keeps a push for a device that is offline (RFC 8030 `TTL`), and how long the
/// VAPID token is valid (at most a day).
const TTL: Duration = Duration::from_secs(12 * 60 * 60);

/// What came of one post.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Delivered,
    /// The subscription is no more (404, 410): forget it.
    Gone,
    /// It may work later (429, 5xx, the network).
    Retry(String),
    /// It never will (a bad subscription, a refused endpoint, another status).
    Failed(String),
}

/// Everything a delivery needs, shared by the deliveries.
#[derive(Debug)]
pub(super) struct Sender {
    key: VapidKey,
    contact: String,
    rules: EndpointRules,
    store: Store,
    retries: Vec<Duration>,
    /// Posts to the known push services: https only, public addresses only.
    public: reqwest::Client,
    /// Posts to endpoints the operator admitted.
    admitted: reqwest::Client,
    at_once: Semaphore,
}

impl Sender {
    pub(super) fn new(config: &PushConfig, key: VapidKey, rules: EndpointRules, store: Store) -> Arc<Sender> {
        // rustls needs its cryptography chosen once per process: ring, as the rest of the server's TLS. A
        // provider chosen before (another server in the same process) stays.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let builder = || {
            reqwest::Client::builder()
                .timeout(config.timeout)
                .connect_timeout(config.timeout)
                // A redirect could lead anywhere: the endpoint is where the push goes, or nowhere.
                .redirect(reqwest::redirect::Policy::none())
                .no_proxy()
                .user_agent(concat!("romirami/", env!("CARGO_PKG_VERSION")))
        };
        let client = |builder: reqwest::ClientBuilder| {
            builder.build().unwrap_or_else(|error| {
                // Building fails only without TLS roots; the admitted endpoints (plain HTTP) still work.
                warn!(%error, "the push client could not be built with its settings; using the defaults");
                reqwest::Client::new()
            })
        };
        Arc::new(Sender {
            key,
            contact: config.contact.clone(),
            rules,
            store,
            retries: config.retries.clone(),
            public: client(builder().https_only(true).dns_resolver(PublicOnly)),
            admitted: client(builder()),
            at_once: Semaphore::new(AT_ONCE),
        })
    }

    /// Sends every notice that comes, until the queue closes.
    pub(super) async fn run(self: Arc<Sender>, mut notices: mpsc::Receiver<Notice>) {
        while let Some(notice) = notices.recv().await {
            for player in &notice.players {
                let devices = match self.store.push_subscriptions(*player).await {
                    Ok(devices) => devices,
                    Err(error) => {
                        warn!(%error, "a player's push subscriptions could not be read: no push");
                        continue;
                    }
                };
                for device in devices {
                    let body = match serde_json::to_vec(&Payload::of(&notice, &device.lang)) {
                        Ok(body) => body,
                        Err(_) => continue,
                    };
                    tokio::spawn(self.clone().deliver(device, body, notice.kind));
                }
            }
        }
    }

    /// Posts `body` to `device`, again after each wait of `retries` while the failure may pass.
    async fn deliver(self: Arc<Sender>, device: PushSubscription, body: Vec<u8>, kind: NoticeKind) {
        let mut waits = self.retries.iter();
        loop {
            let outcome = {
                let Ok(_turn) = self.at_once.acquire().await else { return };
                self.post(&device, &body, kind).await
            };
            match outcome {
                Outcome::Delivered => {
                    crate::metrics::push("delivered");
                    debug!(player = %device.player.0, "push delivered");
                    return;
                }
                Outcome::Gone => {
                    crate::metrics::push("gone");
                    if let Err(error) = self.store.forget_push_endpoint(&device.endpoint).await {
                        warn!(%error, "a gone push subscription could not be forgotten");
                    }
                    return;
                }
                Outcome::Failed(why) => {
                    crate::metrics::push("failed");
                    warn!(player = %device.player.0, why, "a push was refused");
                    return;
                }
                Outcome::Retry(why) => match waits.next() {
                    Some(wait) => {
                        crate::metrics::push("retried");
                        debug!(player = %device.player.0, why, ?wait, "a push failed; trying again later");
                        tokio::time::sleep(*wait).await;
                    }
                    None => {
                        crate::metrics::push("failed");
                        warn!(player = %device.player.0, why, "a push failed at every attempt");
                        return;
                    }
                },
            }
        }
    }

    /// One post of `body` to `device`.
    async fn post(&self, device: &PushSubscription, body: &[u8], kind: NoticeKind) -> Outcome {
        let route = match self.rules.check(&device.endpoint) {
            Ok(route) => route,
            Err(refusal) => return Outcome::Failed(refusal.to_string()),
        };
        let request = match self.request(device, body, kind) {
            Ok(request) => request,
            Err(why) => return Outcome::Failed(why),
        };
        let client = match route {
            Route::Public => &self.public,
            Route::Admitted => &self.admitted,
        };
        match client.execute(request).await {
            Ok(answer) => match answer.status() {
                status if status.is_success() => Outcome::Delivered,
                StatusCode::NOT_FOUND | StatusCode::GONE => Outcome::Gone,
                status if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() => {
                    Outcome::Retry(format!("the push service answered {status}"))
                }
                status => Outcome::Failed(format!("the push service answered {status}")),
            },
            // reqwest's errors name the URL, which is the device's capability: keep only what went wrong.
            Err(error) => Outcome::Retry(describe(error)),
        }
    }

    /// The encrypted, signed post of `body` to `device`.
    fn request(&self, device: &PushSubscription, body: &[u8], kind: NoticeKind) -> Result<reqwest::Request, String> {
        let uri: axum::http::Uri = device.endpoint.parse().map_err(|_| "the endpoint is not a URL".to_owned())?;
        let (public, auth) = device_keys(&device.p256dh, &device.auth)?;
        let mut request = WebPushBuilder::new(uri.clone(), public, auth)
            .with_valid_duration(TTL)
            .build(body.to_vec())
            .map_err(|error| format!("the push could not be encrypted: {error}"))?;
        let origin = match (uri.scheme_str(), uri.authority()) {
            (Some(scheme), Some(authority)) => format!("{scheme}://{}", authority.as_str()),
            _ => return Err("the endpoint has no origin".into()),
        };
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs());
        let authorization = self.key.authorization(&origin, &self.contact, now, TTL.as_secs());
        let headers = request.headers_mut();
        headers.insert(
            axum::http::header::AUTHORIZATION,
            authorization.parse().map_err(|_| "the VAPID header is not a header".to_owned())?,
        );
        // RFC 8030 section 5.3: a turn is worth waking a device for; the rest can wait for its next wake.
        let urgency = if kind == NoticeKind::Turn { "high" } else { "normal" };
        headers.insert("urgency", axum::http::HeaderValue::from_static(urgency));
        reqwest::Request::try_from(request).map_err(|error| format!("the push request: {}", describe(error)))
    }
}

/// The device's P-256 key and authentication secret, from their base64url.
pub(super) fn device_keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, Auth), String> {
    let decode = |text: &str| URL_SAFE_NO_PAD.decode(text.trim_end_matches('='));
    let public = decode(p256dh)
        .ok()
        .and_then(|bytes| p256::PublicKey::from_sec1_bytes(&bytes).ok())
        .ok_or_else(|| "keys.p256dh is not a P-256 public key in base64url".to_owned())?;
    let auth = decode(auth)
        .ok()
        .filter(|bytes| bytes.len() == 16)
        .map(|bytes| Auth::clone_from_slice(&bytes))
        .ok_or_else(|| "keys.auth is not 16 bytes in base64url".to_owned())?;
    Ok((public, auth))
}

/// What went wrong with a post, without its URL.
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    text
}
