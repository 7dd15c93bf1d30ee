//! Who is calling: the `Caller` extractor reading a bearer token or a session cookie
//! (secrets stored only as their SHA-256, [`crate::secret`]), with cross-site requests
//! refused for the cookie. Passwords are hashed in `crate::passwords`.

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};

use crate::error::{ApiError, ApiResult};
use crate::live::Viewer;
use crate::secret::secret_hash;
use crate::state::AppState;
use crate::store::{CredentialKind, Holder};

/// The name of the browser session's cookie.
pub(crate) const SESSION_COOKIE: &str = "swapboard_session";

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

impl Caller {
    /// Who opens a live socket with these credentials: the socket closes when they end.
    pub(crate) fn viewer(&self) -> Viewer {
        let credential = match &self.proof {
            Proof::Token(hash) => (hash.clone(), CredentialKind::Token),
            Proof::Session(hash) => (hash.clone(), CredentialKind::Session),
        };
        Viewer {
            account: self.holder.account_id,
            credential,
        }
    }

    /// Refuses a guest what needs an account signed up (`what`: challenging a person,
    /// joining a room): a guest plays only the AI, and no stranger faces a throwaway name.
    pub(crate) fn signed_up(&self, what: &str) -> ApiResult<()> {
        if self.holder.guest {
            Err(ApiError::Forbidden(format!(
                "{what} needs an account: a guest plays the AI only; sign up (your games stay \
                 yours)"
            )))
        } else {
            Ok(())
        }
    }
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

/// `Option<Caller>`, where credentials are optional (watching is for anyone): `None` for a
/// request with no credentials (the public) and for a browser session that has ended (its
/// holder may still watch, as the public); the caller for good credentials; 401 for a
/// bearer token that acts for nobody (a script's stale token is not silently the public).
impl OptionalFromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Option<Caller>> {
        let bearer_given = parts.headers.get(header::AUTHORIZATION).is_some();
        if !bearer_given && session_cookie(&parts.headers).is_none() {
            return Ok(None);
        }
        match <Caller as FromRequestParts<AppState>>::from_request_parts(parts, state).await {
            Ok(caller) => Ok(Some(caller)),
            Err(ApiError::Unauthenticated(_)) if !bearer_given => Ok(None),
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
