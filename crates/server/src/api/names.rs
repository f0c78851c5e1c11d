//! Names you keep, over REST: a guest claims their name with a password (`POST /api/players/claim`,
//! with their token as a bearer token) and signs in with it from another browser (`POST /api/sign-in`),
//! which answers with a new token for the WebSocket's `hello`. How it works is [`crate::names`]'s.
//!
//! The bodies are small JSON objects, read strictly (an unknown field is a 400); a password or a token
//! is never logged.

use std::net::SocketAddr;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{ApiError, ApiErrorBody, ApiErrorCode};
use crate::addresses::client_address;
use crate::names::NameError;
use crate::protocol::PlayerInfo;
use crate::state::AppState;

/// The largest body these endpoints read: a name and a password of the longest kinds fit many times, and
/// one too long is read and refused for what it is (`bad_password`, `bad_name`) rather than cut off.
pub(super) const MAX_BODY_BYTES: usize = 64 * 1024;

/// What `POST /api/players/claim` reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The password that will sign in to the name: 8 to 128 characters.
    pub password: String,
}

/// What `POST /api/sign-in` reads.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignInRequest {
    /// The name, as the player shows it (any case or width).
    pub name: String,
    /// Its password.
    pub password: String,
}

impl std::fmt::Debug for SignInRequest {
    /// Leaves the password out.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignInRequest").field("name", &self.name).finish_non_exhaustive()
    }
}

/// The answer to a claim.
#[derive(Debug, Serialize, ToSchema)]
pub struct Claimed {
    /// The player, who now keeps their name.
    pub player: PlayerInfo,
}

/// The answer to a sign-in.
#[derive(Serialize, ToSchema)]
pub struct SignedIn {
    /// The player who keeps the name: the same id, history and ratings as in their first browser.
    pub player: PlayerInfo,
    /// A new token of theirs, for `hello` (docs/protocol.md section 3); their other tokens keep working.
    pub token: String,
}

/// A body as JSON of type `T`, or the error that says why not.
pub(super) fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                ApiErrorCode::TooLarge,
                format!("the body has at most {MAX_BODY_BYTES} bytes"),
            )
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadBody, "the body could not be read")
        }
    })?;
    // serde's message names the field or the position, never the value: safe to send back and to log.
    serde_json::from_slice(&body)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, ApiErrorCode::BadBody, format!("the body: {e}")))
}

/// The bearer token of an `Authorization` header.
pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|token| !token.is_empty())
}

impl From<NameError> for ApiError {
    fn from(error: NameError) -> ApiError {
        let message = error.to_string();
        let (status, code) = match error {
            NameError::BadPassword(_) => (StatusCode::BAD_REQUEST, ApiErrorCode::BadPassword),
            NameError::BadName(_) => (StatusCode::BAD_REQUEST, ApiErrorCode::BadName),
            NameError::BadToken => (StatusCode::UNAUTHORIZED, ApiErrorCode::BadToken),
            NameError::AlreadyClaimed => (StatusCode::CONFLICT, ApiErrorCode::AlreadyClaimed),
            NameError::NameTaken => (StatusCode::CONFLICT, ApiErrorCode::NameTaken),
            NameError::WrongNameOrPassword => (StatusCode::UNAUTHORIZED, ApiErrorCode::WrongNameOrPassword),
            NameError::TooManyAttempts { retry_after } => {
                let mut refused = ApiError::new(StatusCode::TOO_MANY_REQUESTS, ApiErrorCode::TooManyAttempts, message);
                refused.body.error.retry_after = Some(retry_after.as_secs());
                return refused;
            }
            NameError::Banned(ban) => {
                let mut refused = ApiError::new(StatusCode::FORBIDDEN, ApiErrorCode::Banned, message);
                refused.body.error.retry_after = Some(ban.seconds_left);
                return refused;
            }
            NameError::NoKeptName => (StatusCode::CONFLICT, ApiErrorCode::NameNotKept),
            NameError::WrongPassword => (StatusCode::FORBIDDEN, ApiErrorCode::WrongPassword),
            NameError::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, ApiErrorCode::Unavailable),
            NameError::Internal => (StatusCode::INTERNAL_SERVER_ERROR, ApiErrorCode::Internal),
        };
        ApiError::new(status, code, message)
    }
}

/// Claims the name of the player whose token is the bearer token, with a password: from then on nobody
/// else can take the name (in any case or width), and the player can sign in with it from another
/// browser.
#[utoipa::path(
    post,
    path = "/api/players/claim",
    request_body = ClaimRequest,
    security(("token" = [])),
    responses(
        (status = 200, description = "The name is the player's to keep.", body = Claimed),
        (status = 400, description = "The body is not a claim, or the password is too short or too long \
                                      (`bad_body`, `bad_password`).", body = ApiErrorBody),
        (status = 401, description = "No bearer token, or one no player has (`bad_token`).", body = ApiErrorBody),
        (status = 409, description = "The player already keeps their name (`already_claimed`), or another \
                                      player keeps it (`name_taken`).", body = ApiErrorBody),
        (status = 413, description = "The body is too large.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer, or the server is too busy.",
         body = ApiErrorBody)
    )
)]
pub(super) async fn claim(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let claimed = async {
        let Some(token) = bearer(&headers) else {
            return Err(ApiError::from(NameError::BadToken));
        };
        let request: ClaimRequest = json_body(body)?;
        Ok(state.names.claim(token, &request.password).await?)
    };
    match claimed.await {
        Ok(player) => Json(Claimed { player }).into_response(),
        Err(error) => error.into_response(),
    }
}

/// Signs in with a kept name and its password: the player, and a new token of theirs for the
/// WebSocket's `hello`. A wrong name and a wrong password are one answer; wrong passwords are slowed
/// down per name and per client address.
#[utoipa::path(
    post,
    path = "/api/sign-in",
    request_body = SignInRequest,
    responses(
        (status = 200, description = "Signed in.", body = SignedIn),
        (status = 400, description = "The body is not a sign-in, or the name or the password cannot be one \
                                      (`bad_body`, `bad_name`, `bad_password`).", body = ApiErrorBody),
        (status = 401, description = "No player keeps this name, or this is not its password \
                                      (`wrong_name_or_password`).", body = ApiErrorBody),
        (status = 413, description = "The body is too large.", body = ApiErrorBody),
        (status = 429, description = "Too many wrong passwords for this name or from this address lately \
                                      (`too_many_attempts`); `retry_after` and the `Retry-After` header say \
                                      when to try again.", body = ApiErrorBody),
        (status = 503, description = "The database does not answer, or the server is too busy.",
         body = ApiErrorBody)
    )
)]
pub(super) async fn sign_in(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let signed_in = async {
        let request: SignInRequest = json_body(body)?;
        let address = client_address(peer, &headers, &state.config);
        let device = headers.get(header::USER_AGENT).and_then(|agent| agent.to_str().ok());
        Ok::<_, ApiError>(state.names.sign_in(&request.name, &request.password, address, device).await?)
    };
    match signed_in.await {
        Ok((player, token)) => Json(SignedIn { player, token }).into_response(),
        Err(error) => error.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_token_is_read_from_its_header() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::AUTHORIZATION, value.parse().expect("a header value"));
            headers
        };
        assert_eq!(bearer(&with("Bearer abc")), Some("abc"));
        assert_eq!(bearer(&with("bearer  abc ")), Some("abc"));
        assert_eq!(bearer(&with("Basic abc")), None);
        assert_eq!(bearer(&with("Bearer ")), None);
        assert_eq!(bearer(&HeaderMap::new()), None);
    }
}
