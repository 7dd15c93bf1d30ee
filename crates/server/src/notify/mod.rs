//! Notifications (`docs/NOTIFICATIONS.md`): the account's inbox and its live socket, the
//! mail address and its confirmation, the choices per kind, and the one-click
//! unsubscribe. The events are written by the store in their own transactions
//! (`store::outbox`); [`worker`] delivers them.

pub(crate) mod mail;
pub(crate) mod push;
pub(crate) mod views;
pub(crate) mod watch;
pub(crate) mod webpush;
pub(crate) mod worker;

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Caller;
use crate::edge::{Body, ClientAddr, MaybeBody, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::accounts::{CONFIRM_EVERY_MS, CONFIRM_MS, MOST_ADDRESS_CHARS};
use crate::limits::notifications::PAGE_LIMIT;
use crate::live::Topic;
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::outbox::{Kind, Mail as MailChoice};
use mail::{Mail, valid_address};
use views::NotificationView;

/// The notifications' routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(inbox, set_settings, delete_inbox))
        .routes(routes!(settings))
        .routes(routes!(mark_read))
        .routes(routes!(socket))
        .routes(routes!(set_email, delete_email))
        .routes(routes!(confirm_email))
        .routes(routes!(unsubscribe))
        .merge(push::router())
}

/// The query of the inbox.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InboxQuery {
    /// Only notifications older than this id (the next page).
    before: Option<i64>,
    /// At most this many (1 to 100, default 50).
    limit: Option<u32>,
}

/// A page of the inbox.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Inbox {
    /// How many of the caller's notifications are unread.
    unread: u64,
    /// Newest first.
    notifications: Vec<NotificationView>,
}

/// The caller's notifications, newest first, and how many are unread.
#[utoipa::path(get, path = "/api/me/notifications", tag = "notifications",
    params(
        ("before" = Option<i64>, Query, description = "Only notifications older than this id: the next page"),
        ("limit" = Option<u32>, Query, description = "At most this many, 1 to 100 (default 50)"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "A page of the inbox", body = Inbox),
        (status = 400, description = "A malformed `before` or `limit`", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn inbox(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<InboxQuery>,
) -> ApiResult<Json<Inbox>> {
    let limit = query.limit.unwrap_or(50);
    if !(1..=PAGE_LIMIT).contains(&limit) {
        return Err(ApiError::BadRequest(format!("limit: 1 to {PAGE_LIMIT}")));
    }
    let account = caller.holder.account_id;
    let notifications = state.store.inbox(account, query.before, limit).await?;
    Ok(Json(Inbox {
        unread: state.store.unread(account).await?,
        notifications: notifications
            .into_iter()
            .map(NotificationView::of)
            .collect(),
    }))
}

/// Deletes every notification of the caller's (the inbox and what delivery recorded).
#[utoipa::path(delete, path = "/api/me/notifications", tag = "notifications",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn delete_inbox(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<StatusCode> {
    let account = caller.holder.account_id;
    state.store.delete_notifications(account).await?;
    state
        .live
        .announce(&Topic::Inbox(account), crate::live::Change::State)
        .await;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `POST /api/me/notifications/read`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadBody {
    /// The notifications read (at most 100); none or no body: all of them.
    ids: Option<Vec<i64>>,
}

/// What marking read did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Marked {
    /// How many were unread and are read now.
    marked: u64,
    /// How many are unread now.
    unread: u64,
}

/// Marks the caller's notifications read: those named, or all.
#[utoipa::path(post, path = "/api/me/notifications/read", tag = "notifications", request_body = ReadBody,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Marked read", body = Marked),
        (status = 400, description = "More than 100 ids, or a malformed body", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn mark_read(
    State(state): State<AppState>,
    caller: Caller,
    MaybeBody(body): MaybeBody<ReadBody>,
) -> ApiResult<Json<Marked>> {
    let ids = body.unwrap_or_default().ids;
    if ids
        .as_ref()
        .is_some_and(|ids| ids.len() > PAGE_LIMIT as usize)
    {
        return Err(ApiError::BadRequest(format!(
            "ids: at most {PAGE_LIMIT} at once (none: all)"
        )));
    }
    let account = caller.holder.account_id;
    let marked = state.store.mark_read(account, ids.as_deref()).await?;
    state
        .live
        .announce(&Topic::Inbox(account), crate::live::Change::State)
        .await;
    Ok(Json(Marked {
        marked,
        unread: state.store.unread(account).await?,
    }))
}

/// The caller's inbox, live: an `inbox` message (the unread count and the newest five) when
/// the socket opens and each time a notification comes or is read.
#[utoipa::path(get, path = "/api/me/notifications/socket", tag = "notifications",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 101, description = "A WebSocket of JSON text messages, each a `LiveMessage` of type `inbox` (`{\"type\": \"inbox\", \"unread\": N, \"latest\": [<notification>...]}`)"),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many live sockets open from this address or for this account", body = ErrorBody),
    ))]
pub(crate) async fn socket(
    State(state): State<AppState>,
    addr: ClientAddr,
    caller: Caller,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let account = caller.holder.account_id;
    let tickets = state.admit_socket(addr, Some(account))?;
    state.live.upgrade(
        Topic::Inbox(account),
        None,
        Some(caller.viewer()),
        upgrade,
        tickets,
    )
}

/// The caller's address as they see it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AddressView {
    /// The address.
    email: String,
    /// Whether its confirmation link was followed: only a confirmed address is mailed.
    confirmed: bool,
    /// The hour (UTC, 0 to 23) of the daily digest.
    digest_hour: u8,
}

/// What the caller is told and how: everything stored of their notifications' settings.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Settings {
    /// Whether this server sends mail at all (`--smtp`).
    mail_enabled: bool,
    /// The caller's address, if they gave one (nobody else ever sees it).
    email: Option<AddressView>,
    /// Per kind: `immediate`, `digest` or `off` (every kind is listed).
    #[schema(value_type = BTreeMap<String, String>)]
    mail: BTreeMap<&'static str, &'static str>,
    /// The caller's browsers that are pushed to (`POST /api/me/push`): a kind set to `off`
    /// is not pushed either.
    push: Vec<push::SubscriptionView>,
}

/// The caller's notification settings.
pub(crate) async fn settings_of(state: &AppState, account: i64) -> ApiResult<Settings> {
    let address = state.store.email_of(account).await?;
    let chosen = state.store.prefs(account).await?;
    let mail = Kind::ALL
        .into_iter()
        .map(|kind| {
            let choice = chosen
                .iter()
                .find(|(k, _)| *k == kind)
                .map_or(MailChoice::Immediate, |(_, choice)| *choice);
            (kind.as_str(), choice.as_str())
        })
        .collect();
    Ok(Settings {
        mail_enabled: state.mail.is_some(),
        email: address.map(|a| AddressView {
            email: a.email,
            confirmed: a.confirmed_ms.is_some(),
            digest_hour: a.digest_hour,
        }),
        mail,
        push: state
            .store
            .subscriptions(account)
            .await?
            .into_iter()
            .map(push::SubscriptionView::of)
            .collect(),
    })
}

/// The caller's notification settings: their address and the choice for each kind.
#[utoipa::path(get, path = "/api/me/notifications/settings", tag = "notifications",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The settings", body = Settings),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn settings(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Settings>> {
    Ok(Json(settings_of(&state, caller.holder.account_id).await?))
}

/// The body of `PUT /api/me/notifications`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SettingsBody {
    /// Per kind (`your_turn`, `challenge`, `invitation`, `game_ended`, `rematch`, `round_opened`,
    /// `round_results`, `deadline_24h`, `deadline_1h`, `tournament`): `immediate`, `digest`
    /// or `off`.
    /// Kinds left out keep their choice.
    #[serde(default)]
    mail: BTreeMap<String, String>,
    /// The hour (UTC, 0 to 23) of the daily digest (needs an address).
    digest_hour: Option<u8>,
}

/// Sets how the caller is mailed, per kind, and the digest's hour.
#[utoipa::path(put, path = "/api/me/notifications", tag = "notifications", request_body = SettingsBody,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The settings now", body = Settings),
        (status = 400, description = "An unknown kind or choice, or an hour out of range", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 409, description = "A digest hour without an address", body = ErrorBody),
    ))]
pub(crate) async fn set_settings(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<SettingsBody>,
) -> ApiResult<Json<Settings>> {
    let mut choices = Vec::with_capacity(body.mail.len());
    for (kind, choice) in &body.mail {
        let kind = Kind::choosable(kind).ok_or_else(|| {
            let known: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
            ApiError::BadRequest(format!(
                "mail: no kind {kind:?} (known: {})",
                known.join(", ")
            ))
        })?;
        let choice = MailChoice::parse(choice).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "mail.{}: {choice:?} is not immediate, digest or off",
                kind.as_str()
            ))
        })?;
        choices.push((kind, choice));
    }
    if body.digest_hour.is_some_and(|hour| hour > 23) {
        return Err(ApiError::BadRequest(
            "digest_hour: 0 to 23 (UTC)".to_owned(),
        ));
    }
    let account = caller.holder.account_id;
    if body.digest_hour.is_some() && state.store.email_of(account).await?.is_none() {
        return Err(ApiError::Conflict(
            "digest_hour: give an address first (PUT /api/me/email)".to_owned(),
        ));
    }
    state
        .store
        .set_prefs(account, &choices, body.digest_hour)
        .await?;
    Ok(Json(settings_of(&state, account).await?))
}

/// The body of `PUT /api/me/email`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EmailBody {
    /// The address, at most 254 characters.
    email: String,
}

/// Sets the caller's address (replacing any), unconfirmed: a mail with a one-time link
/// (`<public-url>/confirm-email?token=...`, good for 24 hours) goes to it.
#[utoipa::path(put, path = "/api/me/email", tag = "notifications", request_body = EmailBody,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 202, description = "Stored unconfirmed; the confirmation mail is sent", body = Settings),
        (status = 400, description = "Not a mail address", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 409, description = "This server sends no mail", body = ErrorBody),
        (status = 429, description = "A confirmation mail went less than a minute ago", body = ErrorBody),
        (status = 503, description = "The mail server did not take the confirmation mail", body = ErrorBody),
    ))]
pub(crate) async fn set_email(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<EmailBody>,
) -> ApiResult<(StatusCode, Json<Settings>)> {
    let email = body.email.trim();
    if !valid_address(email) {
        return Err(ApiError::BadRequest(format!(
            "email: not a mail address (at most {MOST_ADDRESS_CHARS} characters, NAME@DOMAIN)"
        )));
    }
    let Some(mailer) = state.mail.clone() else {
        return Err(ApiError::Conflict(
            "this server sends no mail (it was started without --smtp)".to_owned(),
        ));
    };
    let account = caller.holder.account_id;
    let now = state.clock.now_ms();
    if let Some(before) = state.store.email_of(account).await?
        && now - before.created_ms < CONFIRM_EVERY_MS
    {
        let wait = CONFIRM_EVERY_MS - (now - before.created_ms);
        return Err(ApiError::RateLimited(std::time::Duration::from_millis(
            u64::try_from(wait).unwrap_or(0),
        )));
    }
    let token = random_secret();
    state
        .store
        .set_email(account, email, &secret_hash(&token), now + CONFIRM_MS)
        .await?;
    let link = mailer.link(&format!("/confirm-email?token={token}"));
    let text = format!(
        "Someone (we hope you) asked swapboard to mail {} at this address.\n\
         To confirm it, open this link within 24 hours:\n{link}\n\n\
         If it was not you, ignore this mail: nothing will be sent.\n",
        caller.holder.name
    );
    let mail = Mail {
        to: email,
        subject: "swapboard: confirm your address",
        body: &text,
        unsubscribe: None,
    };
    mailer.send(&mail).await.map_err(|e| {
        tracing::warn!("notifications: a confirmation mail: {e}");
        ApiError::Unavailable(
            "the mail server did not take the confirmation mail: try again later".to_owned(),
        )
    })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(settings_of(&state, account).await?),
    ))
}

/// Forgets the caller's address (nothing more is mailed to it).
#[utoipa::path(delete, path = "/api/me/email", tag = "notifications",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 204, description = "Forgotten"),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 404, description = "The caller gave no address", body = ErrorBody),
    ))]
pub(crate) async fn delete_email(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<StatusCode> {
    if state.store.delete_email(caller.holder.account_id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound("you gave no address".to_owned()))
    }
}

/// The body of `POST /api/me/email/confirm`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfirmBody {
    /// The token of the confirmation link.
    token: String,
}

/// The answer to a confirmation.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Confirmed {
    /// Always `true`: the address is confirmed.
    confirmed: bool,
}

/// Confirms an address with the token its mail carried (the link's page sends it; no
/// credentials needed: the token is the proof). A token works once, for 24 hours.
#[utoipa::path(post, path = "/api/me/email/confirm", tag = "notifications", request_body = ConfirmBody,
    responses(
        (status = 200, description = "Confirmed", body = Confirmed),
        (status = 400, description = "A malformed body", body = ErrorBody),
        (status = 404, description = "No address waits for this token (used, expired or replaced)", body = ErrorBody),
    ))]
pub(crate) async fn confirm_email(
    State(state): State<AppState>,
    Body(body): Body<ConfirmBody>,
) -> ApiResult<Json<Confirmed>> {
    match state.store.confirm_email(&secret_hash(&body.token)).await? {
        Some(_) => Ok(Json(Confirmed { confirmed: true })),
        None => Err(ApiError::NotFound(
            "token: no address waits for it (used, expired, or the address was replaced)"
                .to_owned(),
        )),
    }
}

/// The query of the one-click unsubscribe.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnsubscribeQuery {
    /// The token of the mail's `List-Unsubscribe` link.
    token: String,
}

/// The answer to an unsubscribe.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Unsubscribed {
    /// Always `true`: no more mail goes to the account (its inbox stays).
    unsubscribed: bool,
}

/// Stops every mail to the account a mail was sent to (RFC 8058's one-click: the mail
/// client POSTs `List-Unsubscribe=One-Click` to the mail's `List-Unsubscribe` URL; the
/// body is not needed).
#[utoipa::path(post, path = "/api/notifications/unsubscribe", tag = "notifications",
    params(("token" = String, Query, description = "The token of the mail's link")),
    responses(
        (status = 200, description = "No more mail", body = Unsubscribed),
        (status = 400, description = "No token", body = ErrorBody),
        (status = 404, description = "No mail carried this token", body = ErrorBody),
    ))]
pub(crate) async fn unsubscribe(
    State(state): State<AppState>,
    Params(query): Params<UnsubscribeQuery>,
) -> ApiResult<Json<Unsubscribed>> {
    match state.store.unsubscribe(&secret_hash(&query.token)).await? {
        Some(_) => Ok(Json(Unsubscribed { unsubscribed: true })),
        None => Err(ApiError::NotFound("token: no mail carried it".to_owned())),
    }
}
