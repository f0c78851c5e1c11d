//! The server's VAPID key (RFC 8292), with which it signs every push so that push services know the pushes
//! of one subscription come from the server the browser subscribed with.
//!
//! The key is an ECDSA P-256 key pair. Its private half is given (`--vapid-private-key`, or the environment
//! variable `ROMIRAMI_VAPID_PRIVATE_KEY`: base64url of its 32 bytes, as `web-push`'s tools print it), or else
//! made at the first start and kept in the store (`server_secrets`), where every node of a cluster reads the
//! same one. Its public half is what browsers subscribe with (`GET /api/push/key`). Losing the key loses
//! every subscription: back it up with the database (docs/push.md).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};

use crate::store::{Store, StoreError};

/// The name of the key's row in `server_secrets`.
const SECRET_NAME: &str = "vapid_private_key";

/// Why the key could not be had.
#[derive(Debug, thiserror::Error)]
pub enum VapidError {
    /// The key given or kept is not a P-256 private key in base64url.
    #[error("the VAPID private key is not 32 bytes of a P-256 key in base64url")]
    BadKey,
    /// The store could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The server's VAPID key pair. Its `Debug` shows the public half only.
#[derive(Clone)]
pub struct VapidKey {
    signing: SigningKey,
    public: String,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKey").field("public", &self.public).finish_non_exhaustive()
    }
}

impl VapidKey {
    /// The key whose private half is `text` (base64url, padded or not, of 32 bytes).
    ///
    /// # Errors
    /// [`VapidError::BadKey`] when it is not one.
    pub fn from_private(text: &str) -> Result<VapidKey, VapidError> {
        let bytes = URL_SAFE_NO_PAD.decode(text.trim().trim_end_matches('=')).map_err(|_| VapidError::BadKey)?;
        if bytes.len() != 32 {
            return Err(VapidError::BadKey);
        }
        let signing = SigningKey::from_slice(&bytes).map_err(|_| VapidError::BadKey)?;
        let public = URL_SAFE_NO_PAD.encode(signing.verifying_key().to_encoded_point(false).as_bytes());
        Ok(VapidKey { signing, public })
    }

    /// The key given, else the one kept in `store`, else a new one, kept there now.
    ///
    /// # Errors
    /// When the key given or kept is not one, or the store fails.
    pub async fn load(given: Option<&str>, store: &Store) -> Result<VapidKey, VapidError> {
        if let Some(given) = given {
            return VapidKey::from_private(given);
        }
        let kept = store.server_secret_or(SECRET_NAME, || URL_SAFE_NO_PAD.encode(new_private_key())).await?;
        VapidKey::from_private(&kept)
    }

    /// The public key, as browsers take it (`applicationServerKey`): base64url of the uncompressed point.
    pub fn public(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a push to `origin` (`scheme://host[:port]` of its endpoint), valid for
    /// `valid_seconds` from `now` (Unix seconds; RFC 8292 allows at most a day): `vapid t=JWT, k=KEY`, the
    /// JWT signed with ES256 and naming `contact` as its subject.
    pub fn authorization(&self, origin: &str, contact: &str, now: u64, valid_seconds: u64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({ "aud": origin, "exp": now + valid_seconds, "sub": contact });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: Signature = self.signing.sign(signed.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(signature.to_bytes());
        format!("vapid t={signed}.{signature}, k={}", self.public)
    }
}

/// A new private key: 32 bytes from the operating system's generator that make a P-256 scalar.
fn new_private_key() -> [u8; 32] {
    loop {
        let mut bytes = [0u8; 32];
        // As for the players' tokens: without the OS generator no key can be made safely.
        getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
        if SigningKey::from_slice(&bytes).is_ok() {
            return bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_back_from_its_private_half_with_the_same_public_half() {
        let text = URL_SAFE_NO_PAD.encode(new_private_key());
        let key = VapidKey::from_private(&text).expect("valid");
        assert_eq!(URL_SAFE_NO_PAD.decode(key.public()).expect("valid").len(), 65);
        assert_eq!(VapidKey::from_private(&format!("{text}=")).expect("valid").public(), key.public());
        assert!(!format!("{key:?}").contains(&text));
        assert!(matches!(VapidKey::from_private("abc"), Err(VapidError::BadKey)));
        assert!(matches!(VapidKey::from_private(&URL_SAFE_NO_PAD.encode([0u8; 32])), Err(VapidError::BadKey)));
    }
}

#[cfg(test)]
mod signing {
    use super::*;
    use p256::ecdsa::VerifyingKey;
    use p256::ecdsa::signature::Verifier;

    #[test]
    fn the_authorization_is_a_jwt_signed_by_the_key_it_names() {
        let key = VapidKey::from_private(&URL_SAFE_NO_PAD.encode(new_private_key())).expect("valid");
        let header = key.authorization("https://push.example", "mailto:ops@example.org", 1_000, 3_600);
        let (token, public) = header.strip_prefix("vapid t=").expect("valid").split_once(", k=").expect("valid");
        assert_eq!(public, key.public());
        let (signed, signature) = token.rsplit_once('.').expect("valid");
        let verifying = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(public).expect("valid")).expect("valid");
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).expect("valid")).expect("valid");
        verifying.verify(signed.as_bytes(), &signature).expect("valid");
        let claims = URL_SAFE_NO_PAD.decode(signed.split_once('.').expect("valid").1).expect("valid");
        let claims: serde_json::Value = serde_json::from_slice(&claims).expect("valid");
        assert_eq!(
            claims,
            serde_json::json!({"aud": "https://push.example", "exp": 4_600, "sub": "mailto:ops@example.org"})
        );
    }
}
