//! Web Push over REST (docs/push.md): the server's VAPID public key (`GET /api/push/key`), and a device's
//! subscription given or taken back (`POST`/`DELETE /api/push/subscriptions`, a player's bearer token).
//! What is sent, and when, is [`crate::push`]'s.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::names::json_body;
use super::tournaments::player_of;
use super::{ApiError, ApiErrorBody, ApiErrorCode, no_query, respond};
use crate::push::texts;
use crate::state::AppState;
use crate::store::PushSubscription;

/// The longest endpoint kept, in bytes (the push services' are a few hundred).
const MAX_ENDPOINT_BYTES: usize = 2048;

/// The answer of `GET /api/push/key`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PushKey {
    /// The server's VAPID public key, base64url (the browser's `applicationServerKey`).
    pub public_key: String,
}

/// A browser's `PushSubscription` as its `toJSON()` gives it, with the language of its notifications.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SubscriptionRequest {
    /// Where pushes for the device are posted.
    pub endpoint: String,
    /// The device's keys.
    pub keys: SubscriptionKeys,
    /// When the subscription ends, if the browser says (milliseconds since 1970; not used).
    #[serde(default, rename = "expirationTime")]
    #[schema(value_type = Option<f64>)]
    pub expiration_time: Option<serde_json::Value>,
    /// The language its notifications are written in: `en` (when left out or another), `fr`, `it`.
    #[serde(default)]
    pub lang: Option<String>,
}

/// A device's keys (RFC 8291).
#[derive(Debug, Deserialize, ToSchema)]
pub struct SubscriptionKeys {
    /// Its P-256 public key, base64url.
    pub p256dh: String,
    /// Its authentication secret (16 bytes), base64url.
    pub auth: String,
}

/// What `DELETE /api/push/subscriptions` reads: the endpoint (a whole subscription will do).
#[derive(Debug, Deserialize, ToSchema)]
pub struct UnsubscribeRequest {
    /// The endpoint to forget.
    pub endpoint: String,
}

/// The answer to a subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct Subscribed {
    /// The endpoint kept.
    pub endpoint: String,
    /// The language its notifications are written in.
    pub lang: String,
}

fn bad(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadPushSubscription, message)
}

/// The server's VAPID public key, which a browser subscribes with.
#[utoipa::path(
    get,
    path = "/api/push/key",
    responses(
        (status = 200, description = "The key.", body = PushKey),
        (status = 400, description = "A query parameter was given.", body = ApiErrorBody)
    )
)]
pub(super) async fn key(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    respond(no_query(raw.as_deref()), |()| Json(PushKey { public_key: state.pusher.public_key().to_owned() }))
}

/// Keeps a device's push subscription for the player: from now on their turns, rematches and tournament
/// tables are pushed to it (docs/push.md). A device subscribed before, for anyone, is replaced.
#[utoipa::path(
    post,
    path = "/api/push/subscriptions",
    request_body = SubscriptionRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Kept.", body = Subscribed),
        (status = 400, description = "Not a subscription the server takes: its keys, or an endpoint that is not a \
                                      known push service's (`bad_body`, `bad_push_subscription`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 413, description = "The body is too large.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn subscribe(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let done = async {
        let player = player_of(&state, &headers).await?;
        let request: SubscriptionRequest = json_body(body)?;
        if request.endpoint.len() > MAX_ENDPOINT_BYTES {
            return Err(bad(format!("the endpoint is longer than {MAX_ENDPOINT_BYTES} bytes")));
        }
        state.pusher.rules().check(&request.endpoint).map_err(|refusal| bad(refusal.to_string()))?;
        crate::push::check_device_keys(&request.keys.p256dh, &request.keys.auth).map_err(bad)?;
        let lang = texts::language(request.lang.as_deref().unwrap_or("en")).to_owned();
        let subscription = PushSubscription {
            player: player.id,
            endpoint: request.endpoint,
            p256dh: request.keys.p256dh,
            auth: request.keys.auth,
            lang,
        };
        state.store.add_push_subscription(&subscription).await.map_err(|e| ApiError::from_store(e, "player"))?;
        Ok(Subscribed { endpoint: subscription.endpoint, lang: subscription.lang })
    };
    respond(done.await, |subscribed| (StatusCode::CREATED, Json(subscribed)))
}

/// Forgets one of the player's devices: no more pushes to it.
#[utoipa::path(
    delete,
    path = "/api/push/subscriptions",
    request_body = UnsubscribeRequest,
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Forgotten."),
        (status = 400, description = "The body is not a subscription's (`bad_body`).", body = ApiErrorBody),
        (status = 401, description = "No player has this token (`bad_token`).", body = ApiErrorBody),
        (status = 404, description = "The player has no such subscription.", body = ApiErrorBody),
        (status = 413, description = "The body is too large.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer.", body = ApiErrorBody)
    )
)]
pub(super) async fn unsubscribe(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let done = async {
        let player = player_of(&state, &headers).await?;
        let request: UnsubscribeRequest = json_body(body)?;
        let removed = state
            .store
            .remove_push_subscription(player.id, &request.endpoint)
            .await
            .map_err(|e| ApiError::from_store(e, "subscription"))?;
        if removed {
            Ok(())
        } else {
            Err(ApiError::new(StatusCode::NOT_FOUND, ApiErrorCode::NotFound, "the player has no such subscription"))
        }
    };
    respond(done.await, |()| StatusCode::NO_CONTENT)
}
