//! A challenge answered before its game begins: the challenged account declines it (with
//! a reason, if it gives one), the challenger cancels it. Expiry needs no request: the
//! scheduler closes what nobody joined in time (`crate::clocks`).

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;

use super::view::{after_change, view_for};
use crate::api::GameView;
use crate::auth::Caller;
use crate::edge::MaybeBody;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::games::MAX_DECLINE_CHARS;
use crate::live::Change;
use crate::state::AppState;
use crate::store::{CloseError, Closing};

/// The body of `POST /api/games/{id}/decline`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeclineBody {
    /// Why, in a few words for the challenger (at most 200 characters).
    reason: Option<String>,
}

/// Declines a challenge kept for the caller: the game is `declined`, and the challenger is
/// told (with the reason).
#[utoipa::path(post, path = "/api/games/{id}/decline", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    request_body(content = Option<DeclineBody>, description = "`{\"reason\": \"...\"}`, or no body"),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The challenge is declined", body = GameView),
        (status = 400, description = "A malformed body, or a reason over 200 characters", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The challenge is not kept for the caller", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game waits for nobody (it started, or the challenge ended)", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn decline(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    MaybeBody(body): MaybeBody<DeclineBody>,
) -> ApiResult<Json<GameView>> {
    let reason = body
        .and_then(|body| body.reason)
        .map(|reason| reason.trim().to_owned())
        .filter(|reason| !reason.is_empty());
    if let Some(reason) = &reason
        && reason.chars().count() > MAX_DECLINE_CHARS
    {
        return Err(ApiError::BadRequest(format!(
            "reason: at most {MAX_DECLINE_CHARS} characters"
        )));
    }
    let closing = Closing::Decline {
        reason: reason.as_deref(),
    };
    close(&state, &id, &caller, closing).await
}

/// Cancels a challenge of the caller's: the game is `cancelled`, and the account it was
/// kept for, if any, is told.
#[utoipa::path(post, path = "/api/games/{id}/cancel", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The challenge is cancelled", body = GameView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the challenger", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game waits for nobody (it started, or the challenge ended)", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    close(&state, &id, &caller, Closing::Cancel).await
}

/// Closes the challenge as the caller asks, tells its watchers, and shows it to the caller.
async fn close(
    state: &AppState,
    id: &str,
    caller: &Caller,
    closing: Closing<'_>,
) -> ApiResult<Json<GameView>> {
    let game = state
        .store
        .close_challenge(id, caller.holder.account_id, closing)
        .await
        .map_err(|e| match e {
            CloseError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            CloseError::NotWaiting(_) => ApiError::Conflict(e.to_string()),
            CloseError::NotYours(why) => ApiError::Forbidden(why.to_owned()),
            CloseError::Storage(e) => ApiError::Internal(e),
        })?;
    after_change(state, id, Change::State).await;
    Ok(Json(view_for(&state.store, game, Some(caller)).await?))
}
