//! Who is calling: passwords (argon2id on the blocking pool), random secrets stored only as
//! their SHA-256, and the `Caller` extractor reading a bearer token or a session cookie, with
//! cross-site requests refused for the cookie.

use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use sha2::{Digest as _, Sha256};
use tokio::sync::Semaphore;

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::store::{CredentialKind, Holder};

/// The name of the browser session's cookie.
pub(crate) const SESSION_COOKIE: &str = "swapboard_session";

/// Hashes and checks passwords on the blocking pool, a bounded number at a time: argon2id
/// takes tens of milliseconds and ~19 MiB each, which must starve neither the async workers
/// nor the memory.
#[derive(Clone, Debug)]
pub(crate) struct Passwords {
    permits: Arc<Semaphore>,
    /// A hash of no one's password, checked when the name is unknown, so that a login takes
    /// as long whether the account exists or not.
    decoy: Arc<str>,
}

impl Passwords {
    /// Up to `parallel` hashes at once.
    pub(crate) async fn new(parallel: usize) -> anyhow::Result<Passwords> {
        let permits = Arc::new(Semaphore::new(parallel.max(1)));
        let decoy = run_hash(&permits, random_secret()).await?;
        Ok(Passwords {
            permits,
            decoy: decoy.into(),
        })
    }

    /// The PHC string (argon2id, a fresh salt) of a password.
    pub(crate) async fn hash(&self, password: String) -> anyhow::Result<String> {
        run_hash(&self.permits, password).await
    }

    /// Whether `password` matches `hash`; with no hash, checks the decoy and says no.
    pub(crate) async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> anyhow::Result<bool> {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| self.decoy.to_string());
        let _permit = self.permits.acquire().await?;
        let matches = tokio::task::spawn_blocking(move || {
            Argon2::default()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok()
        })
        .await?;
        Ok(known && matches)
    }
}

async fn run_hash(permits: &Semaphore, password: String) -> anyhow::Result<String> {
    let _permit = permits.acquire().await?;
    tokio::task::spawn_blocking(move || {
        let hash: PasswordHash = Argon2::default()
            .hash_password(password.as_bytes())
            .map_err(|e| anyhow::anyhow!("argon2: {e}"))?;
        Ok(hash.to_string())
    })
    .await?
}

/// 32 bytes from the operating system's random source, in hex: a token or a session id.
pub(crate) fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    // The OS random source failing leaves no safe way to go on.
    getrandom::fill(&mut bytes).expect("the operating system's random source failed");
    hex::encode(bytes)
}

/// Whether two secrets are the same, in a time that depends on their lengths only: a
/// guesser timing the answers learns nothing of how much of a guess was right.
pub(crate) fn same_secret(given: &str, secret: &str) -> bool {
    given.len() == secret.len()
        && given
            .bytes()
            .zip(secret.bytes())
            .fold(0u8, |differ, (a, b)| differ | (a ^ b))
            == 0
}

/// What is stored of a secret: its SHA-256, in hex.
pub(crate) fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// The value of the session cookie, if the request carries one.
pub(crate) fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value)
}

/// The bearer token of the request: `Ok(None)` with no `Authorization` header, an error for
/// one that is not `Bearer <token>`.
pub(crate) fn bearer(headers: &HeaderMap) -> ApiResult<Option<&str>> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(|token| Some(token.trim()))
        .ok_or_else(|| {
            ApiError::Unauthenticated("Authorization: expected \"Bearer <token>\"".to_owned())
        })
}

/// Refuses a cookie-authenticated request that changes something unless the browser says it
/// comes from this site: `Sec-Fetch-Site: same-origin` (or `none`, typed by the user), or,
/// from browsers without Fetch Metadata, an `Origin` whose host is the request's `Host`.
pub(crate) fn check_same_site(method: &Method, headers: &HeaderMap) -> ApiResult<()> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let text = |name| {
        headers
            .get(name)
            .and_then(|value: &header::HeaderValue| value.to_str().ok())
    };
    let allowed = match text("sec-fetch-site") {
        Some(site) => site == "same-origin" || site == "none",
        None => match (text(header::ORIGIN.as_str()), text(header::HOST.as_str())) {
            (Some(origin), Some(host)) => origin
                .split_once("://")
                .is_some_and(|(_, origin_host)| origin_host.eq_ignore_ascii_case(host)),
            _ => false,
        },
    };
    if allowed {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "a cookie-authenticated request from another site is refused: send \
             Sec-Fetch-Site: same-origin or a matching Origin, or use a bearer token"
                .to_owned(),
        ))
    }
}

/// How the caller proved who it is.
#[derive(Clone, Debug)]
pub(crate) enum Proof {
    /// A bearer token, by its hash.
    Token(String),
    /// A browser session, by its hash.
    Session(String),
}

/// The account making the request, from its bearer token or, failing that, its session
/// cookie.
#[derive(Clone, Debug)]
pub(crate) struct Caller {
    pub(crate) holder: Holder,
    pub(crate) proof: Proof,
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Caller> {
        let (hash, kind) = if let Some(token) = bearer(&parts.headers)? {
            (secret_hash(token), CredentialKind::Token)
        } else if let Some(session) = session_cookie(&parts.headers) {
            check_same_site(&parts.method, &parts.headers)?;
            (secret_hash(session), CredentialKind::Session)
        } else {
            return Err(ApiError::Unauthenticated(
                "this needs a bearer token (Authorization: Bearer <token>) or a session".to_owned(),
            ));
        };
        let Some(holder) = state.store.holder_of(&hash, kind).await? else {
            return Err(ApiError::Unauthenticated(match kind {
                CredentialKind::Token => "the bearer token is unknown or revoked".to_owned(),
                CredentialKind::Session => "the session has ended: log in again".to_owned(),
            }));
        };
        let proof = match kind {
            CredentialKind::Token => Proof::Token(hash),
            CredentialKind::Session => Proof::Session(hash),
        };
        Ok(Caller { holder, proof })
    }
}

/// The caller where credentials are optional (watching is for anyone): `None` without
/// credentials, and with ones that act for nobody (an expired session must not keep its
/// holder from watching).
impl OptionalFromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Option<Caller>> {
        match <Caller as FromRequestParts<AppState>>::from_request_parts(parts, state).await {
            Ok(caller) => Ok(Some(caller)),
            Err(ApiError::Unauthenticated(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for &(name, value) in pairs {
            map.append(name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn secrets_are_random_and_stored_as_their_sha256() {
        let (a, b) = (random_secret(), random_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(
            secret_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn secrets_are_compared_whole() {
        let secret = random_secret();
        assert!(same_secret(&secret, &secret.clone()));
        assert!(!same_secret(&secret[..63], &secret));
        let mut other = secret.clone().into_bytes();
        other[63] = if other[63] == b'0' { b'1' } else { b'0' };
        assert!(!same_secret(&String::from_utf8(other).unwrap(), &secret));
        assert!(!same_secret("", &secret));
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let h = headers(&[("cookie", "a=1; swapboard_session=xyz; b=2")]);
        assert_eq!(session_cookie(&h), Some("xyz"));
        assert_eq!(
            session_cookie(&headers(&[("cookie", "swapboard_sessionx=1")])),
            None
        );
    }

    #[test]
    fn cross_site_unsafe_requests_are_refused() {
        let post = Method::POST;
        assert!(check_same_site(&post, &headers(&[("sec-fetch-site", "same-origin")])).is_ok());
        assert!(check_same_site(&post, &headers(&[("sec-fetch-site", "cross-site")])).is_err());
        assert!(check_same_site(&post, &headers(&[("sec-fetch-site", "same-site")])).is_err());
        let same = headers(&[("origin", "https://play.example"), ("host", "play.example")]);
        assert!(check_same_site(&post, &same).is_ok());
        let other = headers(&[("origin", "https://evil.example"), ("host", "play.example")]);
        assert!(check_same_site(&post, &other).is_err());
        assert!(check_same_site(&post, &HeaderMap::new()).is_err());
        assert!(check_same_site(&Method::GET, &HeaderMap::new()).is_ok());
    }

    #[test]
    fn bearer_needs_its_scheme() {
        assert_eq!(
            bearer(&headers(&[("authorization", "Bearer abc")])).unwrap(),
            Some("abc")
        );
        assert!(bearer(&headers(&[("authorization", "Basic abc")])).is_err());
        assert_eq!(bearer(&HeaderMap::new()).unwrap(), None);
    }
}
