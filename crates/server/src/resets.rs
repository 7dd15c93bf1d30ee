//! A forgotten password, reset by mail: `POST /api/password/forgot` with a name or an
//! address answers the same whether or not an account was found (no account is told
//! apart), and writes into the outbox a notification that the delivery worker mails with
//! a one-time link, `<public-url>/reset-password?token=...`, good for an hour;
//! `POST /api/password/reset` with that token and a new password sets it (argon2id) and
//! ends every token and session of the account.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::accounts::Password;
use crate::api::Account;
use crate::edge::{Body, ClientAddr};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::accounts::{MOST_ADDRESS_CHARS, RESET_EVERY_MS};
use crate::secret::secret_hash;
use crate::state::AppState;
use crate::store::Store;

/// The password routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(forgot))
        .routes(routes!(reset))
}

/// The body of `POST /api/password/forgot`: the account's name or its confirmed address.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Forgot {
    /// The account's name (any case).
    #[schema(max_length = 254)]
    name: Option<String>,
    /// The account's confirmed mail address.
    #[schema(max_length = 254)]
    email: Option<String>,
}

/// The answer to `POST /api/password/forgot`, the same whatever was found.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ForgotAnswer {
    /// What happens, in words: the same for every request.
    message: &'static str,
}

/// The one answer of a forgotten password.
const FORGOT: &str = "If an account of that name or address has a confirmed address, a link \
                      to choose a new password is mailed to it; it works for an hour.";

/// Asks for a link to choose a new password, mailed to the account's confirmed address.
/// The answer is the same whether or not such an account exists.
#[utoipa::path(post, path = "/api/password/forgot", tag = "accounts", request_body = Forgot,
    responses(
        (status = 202, description = "The same answer, whether or not a mail goes", body = ForgotAnswer),
        (status = 400, description = "Neither or both of `name` and `email`, or one too long", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this address", body = ErrorBody),
    ))]
pub(crate) async fn forgot(
    State(state): State<AppState>,
    addr: ClientAddr,
    Body(body): Body<Forgot>,
) -> ApiResult<(StatusCode, Json<ForgotAnswer>)> {
    let (name, email) = match (body.name.as_deref(), body.email.as_deref()) {
        (Some(name), None) => (Some(name.trim()), None),
        (None, Some(email)) => (None, Some(email.trim())),
        _ => {
            return Err(ApiError::BadRequest(
                "give one of name and email".to_owned(),
            ));
        }
    };
    if name
        .or(email)
        .is_some_and(|text| text.chars().count() > MOST_ADDRESS_CHARS)
    {
        return Err(ApiError::BadRequest(format!(
            "name or email: at most {MOST_ADDRESS_CHARS} characters"
        )));
    }
    state
        .limits
        .login_per_address
        .check(&addr.0.to_string(), state.clock.now_ms())
        .map_err(ApiError::RateLimited)?;
    // Looked up after the answer: an answer that waited on the lookup would come a little
    // later for a registered name or address than for an unknown one, and tell them apart.
    let (name, email) = (name.map(str::to_owned), email.map(str::to_owned));
    let store = state.store.clone();
    tokio::spawn(async move {
        if let Err(e) = ask_resets(&store, name.as_deref(), email.as_deref()).await {
            tracing::warn!("a password reset could not be asked for: {e:#}");
        }
    });
    Ok((StatusCode::ACCEPTED, Json(ForgotAnswer { message: FORGOT })))
}

/// Queues a reset mail for each account of that name or confirmed address (at most one an
/// account every [`RESET_EVERY_MS`]).
async fn ask_resets(store: &Store, name: Option<&str>, email: Option<&str>) -> anyhow::Result<()> {
    for account in store.reset_candidates(name, email).await? {
        if store.ask_reset(account, RESET_EVERY_MS).await? {
            tracing::info!(account, "a password reset asked for");
        }
    }
    Ok(())
}

/// The body of `POST /api/password/reset`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Reset {
    /// The token of the mail's link.
    token: String,
    /// The new password, 8 to 128 characters.
    #[schema(value_type = String, min_length = 8, max_length = 128)]
    password: Password,
}

/// Sets a new password with the token of a reset mail's link (no credentials: the token
/// is the proof). The token works once, for an hour; every token and session of the
/// account ends.
#[utoipa::path(post, path = "/api/password/reset", tag = "accounts", request_body = Reset,
    responses(
        (status = 200, description = "The password is set; log in with it", body = Account),
        (status = 400, description = "A missing field, or a password not 8 to 128 characters", body = ErrorBody),
        (status = 404, description = "No reset waits for this token (used, expired, or never mailed)", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn reset(
    State(state): State<AppState>,
    Body(body): Body<Reset>,
) -> ApiResult<Json<Account>> {
    // Hashed first: a wrong token costs as much as a right one.
    let hash = state.passwords.hash(body.password.0).await?;
    match state
        .store
        .reset_password(&secret_hash(&body.token), &hash)
        .await?
    {
        Some((account, name)) => {
            tracing::info!(account, "a password reset by mail");
            Ok(Json(Account { name, guest: false }))
        }
        None => Err(ApiError::NotFound(
            "token: no reset waits for it (used, expired, or never mailed)".to_owned(),
        )),
    }
}
