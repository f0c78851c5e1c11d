//! Web Push (docs/push.md): notifications to players' devices when it is their turn and nobody can tell
//! them otherwise, when a rematch is offered, when their tournament table is ready.
//!
//! A browser subscribes with the server's VAPID public key ([`vapid`]) and gives the server its
//! subscription (`POST /api/push/subscriptions`), kept per player in the store (`push_subscriptions`). A
//! table, a rematch or a tournament hands a [`Notice`] to the [`Pusher`], which never waits: the notice goes
//! into a bounded queue, and a task of its own reads the players' subscriptions and posts each device its
//! push (`deliver.rs`): the JSON payload `{"kind", "table", "game", "title", "body", "url"}` in the device's
//! language ([`texts`]), encrypted for the device (RFC 8291, aes128gcm) and signed with the VAPID key (RFC
//! 8292), to its endpoint (RFC 8030) if the endpoint rules allow it ([`endpoint`]). An endpoint that answers
//! 404 or 410 is forgotten; a push that fails otherwise is tried again later, a few times. No push
//! carries anything a notification's reader may not see: which table, which game, whose turn it is.

mod deliver;
pub mod endpoint;
pub mod texts;
pub mod vapid;

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::mpsc;
use tracing::warn;

use self::endpoint::EndpointRules;
use self::vapid::{VapidError, VapidKey};
use crate::protocol::{PlayerId, TableId};
use crate::store::Store;

/// How the server sends pushes.
#[derive(Clone, Debug)]
pub struct PushConfig {
    /// The VAPID private key (base64url of 32 bytes); `None`: the one kept in the store, made at the first
    /// start.
    pub vapid_private_key: Option<String>,
    /// The contact push services may write to about this server's pushes (VAPID's `sub`): a `mailto:` or
    /// `https:` URL.
    pub contact: String,
    /// Endpoint prefixes admitted besides the known browser push services (`--push-allow-endpoint`).
    pub allow_endpoints: Vec<String>,
    /// How long one post to a push service may take.
    pub timeout: Duration,
    /// The waits before the second, third, … attempt of a push that failed (not 404 or 410).
    pub retries: Vec<Duration>,
    /// Notices waiting to be sent; more are dropped (and counted), never waited for.
    pub queue: usize,
}

impl Default for PushConfig {
    fn default() -> PushConfig {
        PushConfig {
            vapid_private_key: None,
            contact: "mailto:admin@localhost".into(),
            allow_endpoints: Vec::new(),
            timeout: Duration::from_secs(10),
            retries: vec![Duration::from_secs(10), Duration::from_secs(60), Duration::from_secs(300)],
            queue: 4096,
        }
    }
}

/// What a push is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// A turn of the player's started.
    Turn,
    /// A finished game's players are asked to play again.
    Rematch,
    /// The player's table in a tournament is open.
    TournamentTable,
}

/// A notice for some players about one table.
#[derive(Clone, Debug)]
pub struct Notice {
    /// Whom it is for.
    pub players: Vec<PlayerId>,
    /// What it is about.
    pub kind: NoticeKind,
    /// The table.
    pub table: TableId,
    /// The table's game, by name.
    pub game: String,
}

/// A push's payload, as the service worker reads it.
#[derive(Clone, Debug, Serialize)]
pub struct Payload {
    /// What it is about: `turn`, `rematch`, `tournament_table`.
    pub kind: NoticeKind,
    /// The table's id.
    pub table: TableId,
    /// The table's game, by name.
    pub game: String,
    /// The notification's title, in the device's language.
    pub title: String,
    /// The notification's text, in the device's language.
    pub body: String,
    /// The page to open (relative to the server): the table.
    pub url: String,
}

impl Payload {
    /// The payload of `notice` for a device in `lang`.
    pub fn of(notice: &Notice, lang: &str) -> Payload {
        let (title, body) = texts::title_and_body(notice.kind, &notice.game, lang);
        Payload {
            kind: notice.kind,
            table: notice.table,
            game: notice.game.clone(),
            title,
            body,
            url: format!("/#/table/{}", notice.table),
        }
    }
}

/// Checks a device's keys as a subscription gives them: `p256dh` a P-256 public key and `auth` 16 bytes, both
/// base64url.
///
/// # Errors
/// Which of them is not.
pub fn check_device_keys(p256dh: &str, auth: &str) -> Result<(), String> {
    deliver::device_keys(p256dh, auth).map(|_| ())
}

/// Sends the server's pushes: a handle to its queue, cheap to clone.
#[derive(Clone, Debug)]
pub struct Pusher {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    key: VapidKey,
    rules: EndpointRules,
    queue: mpsc::Sender<Notice>,
}

impl Pusher {
    /// Loads (or makes) the VAPID key and starts the task that sends pushes, on the current runtime.
    ///
    /// # Errors
    /// When the key given or kept is not one, or the store fails.
    pub async fn start(config: &PushConfig, store: Store) -> Result<Pusher, VapidError> {
        let key = VapidKey::load(config.vapid_private_key.as_deref(), &store).await?;
        let rules = EndpointRules { admitted: config.allow_endpoints.clone() };
        let (queue, notices) = mpsc::channel(config.queue.max(1));
        let sender = deliver::Sender::new(config, key.clone(), rules.clone(), store);
        tokio::spawn(sender.run(notices));
        Ok(Pusher { inner: Arc::new(Inner { key, rules, queue }) })
    }

    /// The VAPID public key browsers subscribe with (base64url).
    pub fn public_key(&self) -> &str {
        self.inner.key.public()
    }

    /// The rules an endpoint must pass to be kept.
    pub fn rules(&self) -> &EndpointRules {
        &self.inner.rules
    }

    /// Sends `notice` to its players' devices, later: never waits (a full queue drops it, counted).
    pub fn notify(&self, notice: Notice) {
        if notice.players.is_empty() {
            return;
        }
        if let Err(error) = self.inner.queue.try_send(notice) {
            crate::metrics::push("dropped");
            warn!(table = %error.into_inner().table, "the push queue is full: a notice is dropped");
        }
    }
}
