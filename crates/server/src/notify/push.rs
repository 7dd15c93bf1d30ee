//! Web push's routes (`docs/NOTIFICATIONS.md`): the server's VAPID public key, and the
//! caller's browser subscriptions. The worker pushes with [`super::webpush`].

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::webpush::base64url;
use crate::auth::Caller;
use crate::edge::{Body, MaybeBody};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::notifications::{ENDPOINT_MAX, MOST_SUBSCRIPTIONS};
use crate::state::AppState;
use crate::store::push::{SubscribeError, Subscription};

/// The push routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(key))
        .routes(routes!(subscribe, unsubscribe))
}

/// The server's VAPID public key.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PushKey {
    /// The uncompressed P-256 point, base64url without padding: the browser's
    /// `applicationServerKey`.
    key: String,
}

/// The server's VAPID public key (RFC 8292), for `PushManager.subscribe`.
#[utoipa::path(get, path = "/api/push/key", tag = "notifications",
    responses((status = 200, description = "The key", body = PushKey)))]
pub(crate) async fn key(State(state): State<AppState>) -> Json<PushKey> {
    Json(PushKey {
        key: state.push.public_key(),
    })
}

/// The keys of a browser's subscription.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct SubscriptionKeys {
    /// The browser's P-256 public key, an uncompressed point (65 bytes), base64url.
    p256dh: String,
    /// The browser's authentication secret (16 bytes), base64url.
    auth: String,
}

/// The body of `POST /api/me/push`: the browser's `PushSubscription` as JSON (its other
/// members, such as `expirationTime`, are ignored).
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct SubscriptionBody {
    /// The push service's URL: `https://`, at most 2048 characters.
    endpoint: String,
    /// The keys the payload is encrypted to (RFC 8291).
    keys: SubscriptionKeys,
}

/// A subscription as its owner sees it (the keys stay stored, never shown).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SubscriptionView {
    /// The push service's URL.
    pub(crate) endpoint: String,
    /// When it was stored, in milliseconds since the Unix epoch.
    pub(crate) created_ms: i64,
}

impl SubscriptionView {
    /// The view of a stored subscription.
    pub(crate) fn of(stored: Subscription) -> SubscriptionView {
        SubscriptionView {
            endpoint: stored.endpoint,
            created_ms: stored.created_ms,
        }
    }
}

/// The caller's subscriptions.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Subscriptions {
    /// Oldest first.
    subscriptions: Vec<SubscriptionView>,
}

async fn listed(state: &AppState, account: i64) -> ApiResult<Json<Subscriptions>> {
    let stored = state.store.subscriptions(account).await?;
    Ok(Json(Subscriptions {
        subscriptions: stored.into_iter().map(SubscriptionView::of).collect(),
    }))
}

/// Stores a browser's push subscription for the caller: each notification then goes to
/// it as well (the same endpoint again replaces its keys).
#[utoipa::path(post, path = "/api/me/push", tag = "notifications", request_body = SubscriptionBody,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "Stored; the caller's subscriptions now", body = Subscriptions),
        (status = 400, description = "An endpoint that is not https://, or keys of the wrong length (the message names the field)", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 409, description = "The caller has 10 subscriptions already", body = ErrorBody),
    ))]
pub(crate) async fn subscribe(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<SubscriptionBody>,
) -> ApiResult<(StatusCode, Json<Subscriptions>)> {
    if body.endpoint.len() > ENDPOINT_MAX {
        return Err(ApiError::BadRequest(format!(
            "endpoint: at most {ENDPOINT_MAX} characters"
        )));
    }
    state
        .push
        .check_endpoint(&body.endpoint)
        .map_err(|why| ApiError::BadRequest(format!("endpoint: {why}")))?;
    let p256dh = base64url(&body.keys.p256dh);
    if p256dh.is_none_or(|key| key.len() != 65 || key[0] != 4) {
        return Err(ApiError::BadRequest(
            "keys.p256dh: not an uncompressed P-256 point (65 bytes, base64url)".to_owned(),
        ));
    }
    if base64url(&body.keys.auth).is_none_or(|secret| secret.len() != 16) {
        return Err(ApiError::BadRequest(
            "keys.auth: not a 16-byte secret in base64url".to_owned(),
        ));
    }
    let account = caller.holder.account_id;
    state
        .store
        .subscribe_push(
            account,
            &body.endpoint,
            &body.keys.p256dh,
            &body.keys.auth,
            MOST_SUBSCRIPTIONS,
        )
        .await?
        .map_err(|SubscribeError::TooMany(most)| {
            ApiError::Conflict(format!(
                "endpoint: at most {most} subscriptions per account (DELETE /api/me/push one first)"
            ))
        })?;
    Ok((StatusCode::CREATED, listed(&state, account).await?))
}

/// The body of `DELETE /api/me/push`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnsubscribeBody {
    /// The subscription's endpoint; none or no body: every subscription of the caller's.
    endpoint: Option<String>,
}

/// Deletes the caller's subscription of an endpoint, or all of them.
#[utoipa::path(delete, path = "/api/me/push", tag = "notifications", request_body = UnsubscribeBody,
    // Named apart from the mails' one-click unsubscribe, of the same tag.
    operation_id = "unsubscribe_push",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Deleted; the caller's subscriptions now", body = Subscriptions),
        (status = 400, description = "A malformed body", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 404, description = "The caller has no subscription of this endpoint", body = ErrorBody),
    ))]
pub(crate) async fn unsubscribe(
    State(state): State<AppState>,
    caller: Caller,
    MaybeBody(body): MaybeBody<UnsubscribeBody>,
) -> ApiResult<Json<Subscriptions>> {
    let endpoint = body.unwrap_or_default().endpoint;
    let account = caller.holder.account_id;
    let gone = state
        .store
        .unsubscribe_push(account, endpoint.as_deref())
        .await?;
    if gone == 0 && endpoint.is_some() {
        return Err(ApiError::NotFound(
            "endpoint: you have no subscription of this endpoint".to_owned(),
        ));
    }
    listed(&state, account).await
}
