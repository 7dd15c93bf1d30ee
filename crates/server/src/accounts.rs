//! Accounts, bearer tokens and browser sessions.

use std::fmt;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{AppendHeaders, IntoResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::{Account, Me, NewToken};
use crate::auth::{Caller, Proof, SESSION_COOKIE, check_same_site, session_cookie};
use crate::edge::{Body, ClientAddr};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::instruments;
use crate::limits::accounts::{MAX_TOKEN_DAYS, NAME_CHARS, PASSWORD_CHARS, SESSION_DAYS};
use crate::me;
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::{CredentialKind, Holder, NewAccount};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The accounts' routes: sign-up, tokens, sessions and the caller's account, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sign_up))
        .routes(routes!(create_token))
        .routes(routes!(revoke_token))
        .routes(routes!(log_in_session, log_out_session))
        .routes(routes!(start_guest))
        .routes(routes!(me, me::delete_account))
        .routes(routes!(me::change_password))
        .routes(routes!(me::credentials, me::end_other_credentials))
        .routes(routes!(me::end_credential))
        .routes(routes!(me::export))
        .routes(routes!(me::mark_bot))
}

/// An account name: 2 to 24 characters of `A-Z a-z 0-9 _ -`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct AccountName(String);

impl TryFrom<String> for AccountName {
    type Error = String;

    fn try_from(name: String) -> Result<AccountName, String> {
        let length = name.chars().count();
        if !NAME_CHARS.contains(&length) {
            return Err(format!(
                "must have {} to {} characters, not {length}",
                NAME_CHARS.start(),
                NAME_CHARS.end()
            ));
        }
        if let Some(bad) = name
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            return Err(format!("may hold only A-Z a-z 0-9 _ -, not {bad:?}"));
        }
        Ok(AccountName(name))
    }
}

/// A password as sent: 8 to 128 characters. Never printed, never logged.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct Password(pub(crate) String);

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

impl TryFrom<String> for Password {
    type Error = String;

    fn try_from(password: String) -> Result<Password, String> {
        let length = password.chars().count();
        if PASSWORD_CHARS.contains(&length) {
            Ok(Password(password))
        } else {
            Err(format!(
                "must have {} to {} characters, not {length}",
                PASSWORD_CHARS.start(),
                PASSWORD_CHARS.end()
            ))
        }
    }
}

/// A name and a password: the body of sign-up and of every login.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct Credentials {
    /// The account name, 2 to 24 characters of `A-Z a-z 0-9 _ -`.
    #[schema(value_type = String, min_length = 2, max_length = 24, pattern = "^[A-Za-z0-9_-]+$")]
    pub(crate) name: AccountName,
    /// The password, 8 to 128 characters.
    #[schema(value_type = String, min_length = 8, max_length = 128)]
    pub(crate) password: Password,
}

/// The start of every guest's name; no sign-up may take a name that starts so.
const GUEST_PREFIX: &str = "guest-";

/// Creates an account. Sent with a guest's session cookie, it turns that guest's account into
/// the new one: the guest's games (and lessons and puzzles) are the new account's, and the
/// session goes on as the new account.
#[utoipa::path(post, path = "/api/accounts", tag = "accounts", request_body = Credentials,
    security((), ("session" = [])),
    responses(
        (status = 201, description = "The account is created (from the guest of the session, if any)", body = Account),
        (status = 400, description = "A missing or malformed name or password, or a name kept for guests", body = ErrorBody),
        (status = 409, description = "The name is taken (in any case), or looks like a taken one", body = ErrorBody),
        (status = 429, description = "Too many sign-ups from this address", body = ErrorBody),
    ))]
pub(crate) async fn sign_up(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    ClientAddr(addr): ClientAddr,
    Body(credentials): Body<Credentials>,
) -> ApiResult<(StatusCode, Json<Account>)> {
    state
        .limits
        .signup_per_address
        .check(&addr.to_string(), state.clock.now_ms())
        .map_err(ApiError::RateLimited)?;
    let name = credentials.name.0;
    if name.to_ascii_lowercase().starts_with(GUEST_PREFIX) {
        return Err(ApiError::BadRequest(format!(
            "name: names that start with {GUEST_PREFIX:?} are kept for guests"
        )));
    }
    let guest = guest_of_session(&state, &method, &headers).await?;
    let hash = state.passwords.hash(credentials.password.0).await?;
    let made = match guest {
        Some(guest) => {
            state
                .store
                .claim_guest(guest, &name, &hash, &addr.to_string())
                .await?
        }
        None => {
            state
                .store
                .create_account(&name, &hash, &addr.to_string())
                .await?
        }
    };
    match made {
        NewAccount::Created(_) => Ok((StatusCode::CREATED, Json(Account { name, guest: false }))),
        NewAccount::Taken => Err(ApiError::Conflict(format!("name: {name:?} is taken"))),
        NewAccount::LooksLike(other) => Err(ApiError::Conflict(format!(
            "name: {name:?} looks too much like the account {other:?}: choose another"
        ))),
    }
}

/// The guest's account a request's session cookie acts for, if it acts for one and comes
/// from this site (another site's request signs up an account of its own, never claims the
/// visitor's guest).
async fn guest_of_session(
    state: &AppState,
    method: &Method,
    headers: &HeaderMap,
) -> ApiResult<Option<i64>> {
    let Some(secret) = session_cookie(headers) else {
        return Ok(None);
    };
    if check_same_site(method, headers).is_err() {
        return Ok(None);
    }
    let holder = state
        .store
        .holder_of(&secret_hash(secret), CredentialKind::Session)
        .await?;
    Ok(holder
        .filter(|holder| holder.guest)
        .map(|holder| holder.account_id))
}

/// Starts a guest's session: a new account named `guest-` and eight hex digits, with no
/// password, and a session cookie for it. A guest plays the AI (and does lessons and
/// puzzles); challenging people, joining rooms and ratings wait until it signs up
/// (`POST /api/accounts` with the cookie), which keeps its games.
#[utoipa::path(post, path = "/api/session/guest", tag = "sessions",
    responses(
        (status = 201, description = "A guest's session; the cookie is set", body = Account,
         headers(("set-cookie" = String, description = "swapboard_session=...; HttpOnly; SameSite=Lax"))),
        (status = 403, description = "A request from another site", body = ErrorBody),
        (status = 429, description = "Too many guests from this address", body = ErrorBody),
    ))]
pub(crate) async fn start_guest(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    ClientAddr(addr): ClientAddr,
) -> ApiResult<impl IntoResponse> {
    // Another site must not give a visitor a session either.
    check_same_site(&method, &headers)?;
    state
        .limits
        .guests_per_address
        .check(&addr.to_string(), state.clock.now_ms())
        .map_err(ApiError::RateLimited)?;
    // Eight hex digits: a clash is rare, and a second draw all but never clashes again.
    let mut made = None;
    for _ in 0..3 {
        let name = format!("{GUEST_PREFIX}{}", &random_secret()[..8]);
        if let Some(id) = state.store.create_guest(&name).await? {
            made = Some((id, name));
            break;
        }
    }
    let (account_id, name) =
        made.ok_or_else(|| ApiError::Internal(anyhow::anyhow!("three guest names taken")))?;
    let cookie = new_session(&state, account_id).await?;
    Ok((
        StatusCode::CREATED,
        AppendHeaders([(header::SET_COOKIE, cookie)]),
        Json(Account { name, guest: true }),
    ))
}

/// Stores a new browser session of the account: the `Set-Cookie` value that gives it.
async fn new_session(state: &AppState, account_id: i64) -> ApiResult<HeaderValue> {
    let secret = random_secret();
    let expires = state
        .clock
        .now_ms()
        .saturating_add(SESSION_DAYS * 24 * 3600 * 1000);
    let stored = state
        .store
        .insert_credential(
            &secret_hash(&secret),
            account_id,
            CredentialKind::Session,
            Some(expires),
        )
        .await?;
    refuse_banned(stored)?;
    session_cookie_header(Some(&secret), state.secure_cookies)
}

/// Refuses a login whose credential was not stored: the account was banned while its
/// password was being checked (the ban's words are read at the next try).
fn refuse_banned(stored: bool) -> ApiResult<()> {
    if stored {
        Ok(())
    } else {
        Err(ApiError::Forbidden("this account is banned".to_owned()))
    }
}

/// Checks a login against the rate limits and the stored hash. Wrong passwords are counted
/// per (name, address), which refuses, and per name, which only slows: an attacker elsewhere
/// can delay an owner's login by a few seconds but never keep them out.
pub(crate) async fn log_in(
    state: &AppState,
    addr: ClientAddr,
    credentials: Credentials,
) -> ApiResult<Holder> {
    let now = state.clock.now_ms();
    let name_key = credentials.name.0.to_ascii_lowercase();
    let client_key = format!("{name_key} {}", addr.0);
    let limits = &state.limits;
    limits
        .login_per_address
        .check(&addr.0.to_string(), now)
        .map_err(ApiError::RateLimited)?;
    limits
        .login_failures_per_client
        .peek(&client_key, now)
        .map_err(ApiError::RateLimited)?;
    let delay = limits.login_failures_per_name.delay(&name_key, now);
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let login = state.store.login_of(&name_key).await?;
    let ban = login.as_ref().and_then(|login| login.ban.clone());
    let (hash, holder) = match login {
        Some(login) => (
            Some(login.password_hash),
            Some(Holder {
                account_id: login.account_id,
                name: login.name,
                guest: false,
            }),
        ),
        None => (None, None),
    };
    if state.passwords.verify(credentials.password.0, hash).await? {
        // Told only to whoever knows the password: a ban is no secret from its owner.
        if let Some(ban) = ban {
            return Err(ApiError::Forbidden(ban.words()));
        }
        holder.ok_or_else(|| ApiError::Internal(anyhow::anyhow!("a password matched no account")))
    } else {
        instruments::login_failed();
        let now = state.clock.now_ms();
        limits.login_failures_per_client.fail(&client_key, now);
        limits.login_failures_per_name.fail(&name_key, now);
        Err(ApiError::Unauthenticated(
            "wrong name or password".to_owned(),
        ))
    }
}

/// The body of `POST /api/tokens`: a login, and how long the token lasts.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct TokenRequest {
    /// The account name, 2 to 24 characters of `A-Z a-z 0-9 _ -`.
    #[schema(value_type = String, min_length = 2, max_length = 24, pattern = "^[A-Za-z0-9_-]+$")]
    name: AccountName,
    /// The password, 8 to 128 characters.
    #[schema(value_type = String, min_length = 8, max_length = 128)]
    password: Password,
    /// The days the token works, 1 to 3650; left out, it works until revoked.
    #[schema(minimum = 1, maximum = 3650)]
    expires_days: Option<i64>,
}

/// When a token asked to last `days` days from `now_ms` expires, or why it cannot.
fn token_expiry(days: Option<i64>, now_ms: i64) -> ApiResult<Option<i64>> {
    match days {
        None => Ok(None),
        Some(days) if (1..=MAX_TOKEN_DAYS).contains(&days) => {
            Ok(Some(now_ms.saturating_add(days * 24 * 3600 * 1000)))
        }
        Some(days) => Err(ApiError::BadRequest(format!(
            "expires_days: a token lasts 1 to {MAX_TOKEN_DAYS} days, not {days}"
        ))),
    }
}

/// Creates a bearer token for scripts and bots, lasting until revoked or for
/// `expires_days`.
#[utoipa::path(post, path = "/api/tokens", tag = "accounts", request_body = TokenRequest,
    responses(
        (status = 201, description = "The token, shown this once, and when it expires", body = NewToken),
        (status = 400, description = "A missing or malformed name or password, or expires_days out of 1 to 3650", body = ErrorBody),
        (status = 401, description = "Wrong name or password", body = ErrorBody),
        (status = 403, description = "The account is banned (told only with the right password)", body = ErrorBody),
        (status = 429, description = "Too many login attempts for this name or address", body = ErrorBody),
    ))]
pub(crate) async fn create_token(
    State(state): State<AppState>,
    addr: ClientAddr,
    Body(request): Body<TokenRequest>,
) -> ApiResult<(StatusCode, Json<NewToken>)> {
    // Checked before the login, so a bad number costs no password check.
    let expires_ms = token_expiry(request.expires_days, state.clock.now_ms())?;
    let credentials = Credentials {
        name: request.name,
        password: request.password,
    };
    let holder = log_in(&state, addr, credentials).await?;
    let token = random_secret();
    let stored = state
        .store
        .insert_credential(
            &secret_hash(&token),
            holder.account_id,
            CredentialKind::Token,
            expires_ms,
        )
        .await?;
    refuse_banned(stored)?;
    Ok((StatusCode::CREATED, Json(NewToken { token, expires_ms })))
}

/// Revokes the bearer token the request is made with.
#[utoipa::path(delete, path = "/api/tokens/current", tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The token is revoked"),
        (status = 401, description = "No bearer token, or an unknown one", body = ErrorBody),
    ))]
pub(crate) async fn revoke_token(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<StatusCode> {
    let Proof::Token(hash) = caller.proof else {
        return Err(ApiError::Unauthenticated(
            "this revokes the bearer token the request is made with: send one".to_owned(),
        ));
    };
    state
        .store
        .delete_credential(&hash, CredentialKind::Token)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The `Set-Cookie` value of a session, or of its removal when `secret` is `None`.
fn session_cookie_header(secret: Option<&str>, secure: bool) -> ApiResult<HeaderValue> {
    let (value, max_age) = match secret {
        Some(secret) => (secret, SESSION_DAYS * 24 * 3600),
        None => ("", 0),
    };
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::try_from(format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    ))
    .map_err(|e| ApiError::Internal(e.into()))
}

/// Logs a browser in: sets the session cookie.
#[utoipa::path(post, path = "/api/session", tag = "sessions", request_body = Credentials,
    responses(
        (status = 200, description = "Logged in; the session cookie is set", body = Account,
         headers(("set-cookie" = String, description = "swapboard_session=...; HttpOnly; SameSite=Lax"))),
        (status = 400, description = "A missing or malformed name or password", body = ErrorBody),
        (status = 401, description = "Wrong name or password", body = ErrorBody),
        (status = 403, description = "A request from another site, or the account is banned (told only with the right password)", body = ErrorBody),
        (status = 429, description = "Too many login attempts for this name or address", body = ErrorBody),
    ))]
pub(crate) async fn log_in_session(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    addr: ClientAddr,
    Body(credentials): Body<Credentials>,
) -> ApiResult<impl IntoResponse> {
    // Another site must not log a browser into an account of its choosing either.
    check_same_site(&method, &headers)?;
    let holder = log_in(&state, addr, credentials).await?;
    let cookie = new_session(&state, holder.account_id).await?;
    Ok((
        AppendHeaders([(header::SET_COOKIE, cookie)]),
        Json(Account {
            name: holder.name,
            guest: false,
        }),
    ))
}

/// Logs a browser out: ends the session and clears its cookie.
#[utoipa::path(delete, path = "/api/session", tag = "sessions",
    security(("session" = [])),
    responses(
        (status = 204, description = "Logged out; the cookie is cleared"),
        (status = 401, description = "No session", body = ErrorBody),
        (status = 403, description = "A request from another site", body = ErrorBody),
    ))]
pub(crate) async fn log_out_session(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<impl IntoResponse> {
    let Proof::Session(hash) = caller.proof else {
        return Err(ApiError::Unauthenticated(
            "this ends the browser session the request is made with: send its cookie".to_owned(),
        ));
    };
    state
        .store
        .delete_credential(&hash, CredentialKind::Session)
        .await?;
    let cookie = session_cookie_header(None, state.secure_cookies)?;
    Ok((
        StatusCode::NO_CONTENT,
        AppendHeaders([(header::SET_COOKIE, cookie)]),
    ))
}

/// The account the request acts for, or `null` for the public (no credentials, or a browser
/// session that has ended): a page asks on every load, and an anonymous visitor is not an
/// error to log. A bearer token that acts for nobody is still a 401.
#[utoipa::path(get, path = "/api/me", tag = "accounts",
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller's account, or `null` for the public", body = Option<Me>),
        (status = 401, description = "A bearer token that is unknown or revoked", body = ErrorBody),
    ))]
pub(crate) async fn me(
    State(state): State<AppState>,
    caller: Option<Caller>,
) -> ApiResult<Json<Option<Me>>> {
    let Some(caller) = caller else {
        return Ok(Json(None));
    };
    let roles = state.store.roles_of(caller.holder.account_id).await?;
    Ok(Json(Some(Me {
        name: caller.holder.name,
        guest: caller.holder.guest,
        roles: roles.iter().map(|role| role.as_str().to_owned()).collect(),
    })))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_session_cookie_is_secure_behind_tls_and_cleared_on_logout() {
        let plain = session_cookie_header(Some("abc"), false).unwrap();
        assert_eq!(
            plain.to_str().unwrap(),
            "swapboard_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000"
        );
        let secure = session_cookie_header(Some("abc"), true).unwrap();
        assert!(secure.to_str().unwrap().ends_with("; Secure"));
        let cleared = session_cookie_header(None, true).unwrap();
        assert!(
            cleared
                .to_str()
                .unwrap()
                .starts_with("swapboard_session=; ")
        );
        assert!(cleared.to_str().unwrap().contains("Max-Age=0"));
    }

    #[test]
    fn names_follow_the_contract() {
        for good in ["ab", "ann", "A_b-9", "x".repeat(24).as_str()] {
            assert!(AccountName::try_from(good.to_owned()).is_ok(), "{good}");
        }
        for bad in ["a", "", "x".repeat(25).as_str(), "ann bob", "é-ann", "ann!"] {
            assert!(AccountName::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_have_a_floor_and_a_ceiling_and_stay_secret() {
        assert!(Password::try_from("1234567".to_owned()).is_err());
        assert!(Password::try_from("12345678".to_owned()).is_ok());
        assert!(Password::try_from("é".repeat(128)).is_ok());
        assert!(Password::try_from("é".repeat(129)).is_err());
        let p = Password::try_from("hunter2hunter2".to_owned()).unwrap();
        assert!(!format!("{p:?}").contains("hunter"));
    }

    /// Reads `text` as the body of a JSON request, as a handler would.
    fn read_credentials(text: String) -> Result<Credentials, ApiError> {
        use axum::extract::FromRequest as _;
        let request = axum::http::Request::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(axum::body::Body::from(text))
            .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime
            .block_on(Body::<Credentials>::from_request(request, &()))
            .map(|Body(c)| c)
    }

    fn any_json_value() -> impl Strategy<Value = serde_json::Value> {
        prop_oneof![
            "\\PC{0,30}".prop_map(serde_json::Value::from),
            "[A-Za-z0-9_-]{0,26}".prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
        ]
    }

    proptest! {
        #[test]
        fn a_body_is_read_exactly_when_both_fields_fit_and_refusals_name_one(
            name in proptest::option::of(any_json_value()),
            password in proptest::option::of(any_json_value()),
        ) {
            let mut body = serde_json::Map::new();
            if let Some(name) = &name {
                body.insert("name".to_owned(), name.clone());
            }
            if let Some(password) = &password {
                body.insert("password".to_owned(), password.clone());
            }
            let fits = |value: &Option<serde_json::Value>, check: fn(String) -> bool| {
                value.as_ref().and_then(|v| v.as_str()).is_some_and(|s| check(s.to_owned()))
            };
            let name_fits = fits(&name, |s| AccountName::try_from(s).is_ok());
            let password_fits = fits(&password, |s| Password::try_from(s).is_ok());
            match read_credentials(serde_json::Value::Object(body).to_string()) {
                Ok(credentials) => {
                    prop_assert!(name_fits && password_fits);
                    prop_assert_eq!(Some(credentials.name.0.as_str()), name.as_ref().and_then(|v| v.as_str()));
                }
                Err(ApiError::BadRequest(message)) => {
                    prop_assert!(!(name_fits && password_fits), "{}", message);
                    prop_assert!(message.starts_with("body: "), "{}", message);
                    prop_assert!(message.contains("name") || message.contains("password"), "{}", message);
                }
                Err(other) => prop_assert!(false, "{:?}", other),
            }
        }

        #[test]
        fn any_text_as_a_body_is_refused_or_read_never_a_panic(text in "\\PC{0,80}") {
            match read_credentials(text) {
                Ok(_) | Err(ApiError::BadRequest(_)) => {}
                Err(other) => prop_assert!(false, "{:?}", other),
            }
        }

        #[test]
        fn a_name_is_accepted_exactly_when_it_fits(name in "\\PC{0,30}") {
            let fits = NAME_CHARS.contains(&name.chars().count())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            prop_assert_eq!(AccountName::try_from(name).is_ok(), fits);
        }

        #[test]
        fn a_password_is_accepted_exactly_when_its_length_fits(password in "\\PC{0,140}") {
            let fits = PASSWORD_CHARS.contains(&password.chars().count());
            prop_assert_eq!(Password::try_from(password).is_ok(), fits);
        }
    }
}
