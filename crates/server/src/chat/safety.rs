//! What an account does for its own safety (`docs/CHAT.md`): block another account (in both
//! directions: no challenge, no rematch, no players' chat between them), mute a chat (its
//! messages are no longer pushed to the account's sockets), and report a message or an
//! account to the moderators.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::access::may_read;
use crate::api::{BlockView, BlocksView, MutedChatsView};
use crate::auth::Caller;
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::limit_account;
use crate::limits::chat::MAX_REPORT_REASON;
use crate::state::AppState;
use crate::store::{ChatRef, ReportCategory, ReportTarget};

/// The routes of blocks, muted chats and reports, each with its OpenAPI entry.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(blocks))
        .routes(routes!(block, unblock))
        .routes(routes!(muted_chats))
        .routes(routes!(mute_chat, unmute_chat))
        .routes(routes!(report))
}

/// The caller's blocks as the API shows them.
pub(crate) async fn blocks_view(state: &AppState, caller: &Caller) -> ApiResult<BlocksView> {
    let blocks = state.store.blocks_of(caller.holder.account_id).await?;
    Ok(BlocksView {
        blocks: blocks
            .into_iter()
            .map(|(name, at_ms)| BlockView { name, at_ms })
            .collect(),
    })
}

/// The accounts the caller blocked.
#[utoipa::path(get, path = "/api/me/blocks", tag = "chat",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The accounts the caller blocked, by name", body = BlocksView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
    ))]
pub(crate) async fn blocks(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<BlocksView>> {
    Ok(Json(blocks_view(&state, &caller).await?))
}

/// Blocks or unblocks the account `name` for the caller.
async fn set_block(
    state: &AppState,
    caller: &Caller,
    name: &str,
    blocked: bool,
) -> ApiResult<BlocksView> {
    let other = state
        .store
        .login_of(name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account named {name:?}")))?;
    if other.account_id == caller.holder.account_id {
        return Err(ApiError::BadRequest(
            "name: you cannot block yourself".to_owned(),
        ));
    }
    state
        .store
        .set_blocked(caller.holder.account_id, other.account_id, blocked)
        .await?;
    blocks_view(state, caller).await
}

/// Blocks an account, in both directions: neither challenges the other (nor offers or takes
/// a rematch, nor joins the other's open game), and neither writes in a players' chat the
/// two share. Blocking twice is blocking once.
#[utoipa::path(put, path = "/api/me/blocks/{name}", tag = "chat",
    params(("name" = String, Path, description = "The account to block")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The accounts the caller blocked now", body = BlocksView),
        (status = 400, description = "The caller's own name", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn block(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> ApiResult<Json<BlocksView>> {
    Ok(Json(set_block(&state, &caller, &name, true).await?))
}

/// Lifts the caller's block of an account (a block the other made stays).
#[utoipa::path(delete, path = "/api/me/blocks/{name}", tag = "chat",
    params(("name" = String, Path, description = "The account to unblock")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The accounts the caller blocked now", body = BlocksView),
        (status = 400, description = "The caller's own name", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn unblock(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> ApiResult<Json<BlocksView>> {
    Ok(Json(set_block(&state, &caller, &name, false).await?))
}

/// The chats the caller muted.
async fn muted_view(state: &AppState, caller: &Caller) -> ApiResult<MutedChatsView> {
    let chats = state.store.muted_chats(caller.holder.account_id).await?;
    Ok(MutedChatsView { chats })
}

/// The chats the caller muted, by key.
#[utoipa::path(get, path = "/api/me/muted-chats", tag = "chat",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The keys of the chats the caller muted", body = MutedChatsView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
    ))]
pub(crate) async fn muted_chats(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<MutedChatsView>> {
    Ok(Json(muted_view(&state, &caller).await?))
}

/// A chat's key from a path, checked.
fn chat_of(key: &str) -> ApiResult<String> {
    ChatRef::of_key(key).map(|chat| chat.key()).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "chat: {key:?} is no chat's key (game:ID:players, game:ID:spectators, \
             room:ID:table, room:ID:seat:N)"
        ))
    })
}

/// Mutes a chat for the caller: its messages are no longer pushed to the caller's sockets
/// (the chat still answers a read, marked `muted`).
#[utoipa::path(put, path = "/api/me/muted-chats/{chat}", tag = "chat",
    params(("chat" = String, Path, description = "The chat's key, as a chat's read answers it")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The chats the caller muted now", body = MutedChatsView),
        (status = 400, description = "No chat's key", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
    ))]
pub(crate) async fn mute_chat(
    State(state): State<AppState>,
    caller: Caller,
    Path(chat): Path<String>,
) -> ApiResult<Json<MutedChatsView>> {
    set_muted(&state, &caller, &chat, true).await
}

/// Unmutes a chat for the caller.
#[utoipa::path(delete, path = "/api/me/muted-chats/{chat}", tag = "chat",
    params(("chat" = String, Path, description = "The chat's key")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The chats the caller muted now", body = MutedChatsView),
        (status = 400, description = "No chat's key", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
    ))]
pub(crate) async fn unmute_chat(
    State(state): State<AppState>,
    caller: Caller,
    Path(chat): Path<String>,
) -> ApiResult<Json<MutedChatsView>> {
    set_muted(&state, &caller, &chat, false).await
}

/// Mutes or unmutes the chat of that key for the caller; the chats it muted now.
async fn set_muted(
    state: &AppState,
    caller: &Caller,
    chat: &str,
    muted: bool,
) -> ApiResult<Json<MutedChatsView>> {
    let key = chat_of(chat)?;
    state
        .store
        .set_chat_muted(caller.holder.account_id, &key, muted)
        .await?;
    Ok(Json(muted_view(state, caller).await?))
}

/// A report: exactly one of `message` and `account`, and a category or a reason (or both).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewReport {
    /// The id of the message reported.
    message: Option<i64>,
    /// The name of the account reported.
    account: Option<String>,
    /// What kind of abuse: `insult`, `spam`, `cheating` or `other`.
    #[schema(example = "insult")]
    category: Option<String>,
    /// Why, in the reporter's words: up to 500 characters; 1 at least without a category.
    #[schema(max_length = 500)]
    reason: Option<String>,
}

/// A report filed.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Filed {
    /// The report's id in the moderators' queue.
    id: i64,
}

/// Reports a chat message or an account to the moderators' queue. A message is reported only
/// by whoever may read it (to anyone else it does not exist); the reporter is told nothing
/// of the message in return.
#[utoipa::path(post, path = "/api/reports", tag = "chat", request_body = NewReport,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The report is in the queue", body = Filed),
        (status = 400, description = "Not exactly one of message and account, an unknown category, a too long reason, or neither category nor reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A guest", body = ErrorBody),
        (status = 404, description = "No such message or account, or a message the caller cannot read", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many reports from this account", body = ErrorBody),
    ))]
pub(crate) async fn report(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<NewReport>,
) -> ApiResult<(StatusCode, Json<Filed>)> {
    caller.signed_up("reporting")?;
    let category = match body.category.as_deref() {
        Some(word) => Some(ReportCategory::parse(word).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "category: {word:?} is none of insult, spam, cheating, other"
            ))
        })?),
        None => None,
    };
    let reason = body.reason.as_deref().unwrap_or_default().trim();
    let length = reason.chars().count();
    // The words may be left out when a category says what the report is about.
    let least = usize::from(category.is_none());
    if length < least || length > MAX_REPORT_REASON {
        return Err(ApiError::BadRequest(format!(
            "reason: {length} characters, expected {least} to {MAX_REPORT_REASON}"
        )));
    }
    let target = match (body.message, body.account) {
        (Some(id), None) => {
            let unknown = || ApiError::NotFound(format!("message: no message {id}"));
            let message = state.store.chat_message(id).await?.ok_or_else(unknown)?;
            // Only what the reporter could read: a private thread's message is no one
            // else's to report (nor to learn exists), and moderators would read it.
            if !may_read(&state, &message.chat, &caller).await? {
                return Err(unknown());
            }
            ReportTarget::Message(id)
        }
        (None, Some(name)) => {
            let login = state
                .store
                .login_of(&name)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("account: no account {name:?}")))?;
            ReportTarget::Account(login.account_id)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "message, account: give exactly one of the two".to_owned(),
            ));
        }
    };
    limit_account(&state.limits.reports_per_account, &caller, &state.clock)?;
    let id = state
        .store
        .file_report(caller.holder.account_id, &target, category, reason)
        .await?;
    Ok((StatusCode::CREATED, Json(Filed { id })))
}
