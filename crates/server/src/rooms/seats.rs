//! A player's acts in the open round: a submission (answered with its check, seen by
//! nobody but the player and the game master) and the final mark.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use swapboard_swap61::Board;

use super::access::{RoundQuery, announce, seat, stored_room};
use super::rounds::resolve_rules;
use super::views::{changed, check_view};
use crate::api::{CheckView, RoomView};
use crate::auth::Caller;
use crate::edge::Params;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::rooms::SUBMISSION_BYTES;
use crate::secret::secret_hash;
use crate::state::AppState;
use crate::store::{RoomError, Trigger};

/// The caller's submission for the open round, as text: it replaces an earlier one (and
/// its final mark) until the round is resolved.
#[utoipa::path(put, path = "/api/rooms/{id}/submission", tag = "rooms",
    request_body(content = String, content_type = "text/plain", description = "`CELL CELL TOKENS` lines, at most 4096 bytes"),
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another open round answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Stored: each line's check and the receipt", body = CheckView),
        (status = 400, description = "Too long, not UTF-8, or a malformed `round`", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller plays no seat here", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, not the round meant (it closed), or its deadline passed (the message names it)", body = ErrorBody),
    ))]
pub(crate) async fn submit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<CheckView>> {
    let too_long = || ApiError::BadRequest(format!("submission: at most {SUBMISSION_BYTES} bytes"));
    let bytes = body.map_err(|_| too_long())?;
    if bytes.len() > SUBMISSION_BYTES {
        return Err(too_long());
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::BadRequest("submission: not UTF-8 text".to_owned()))?;
    let receipt = secret_hash(text);
    let account = (caller.holder.account_id, caller.holder.name.as_str());
    let (round, seat_number, grid) = state
        .store
        .submit_to_room(&id, account, query.round, text, &receipt)
        .await?;
    let room = stored_room(&state, &id).await?;
    let board = Board::parse(&grid, usize::from(room.seats))
        .map_err(|e| anyhow::anyhow!("room {id}: stored grid: {e}"))?;
    let check = check_view(round, &board, seat(seat_number)?, text, &receipt);
    announce(&state, &id).await;
    Ok(Json(check))
}

/// Marks the caller's submission for the open round final (an empty one if none was
/// sent). Once every seat a person plays is final, the round resolves at once.
#[utoipa::path(post, path = "/api/rooms/{id}/final", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another open round answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Marked (and the round resolved if it was the last mark)", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller plays no seat here", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, not the round meant, or its deadline passed (the message names it)", body = ErrorBody),
    ))]
pub(crate) async fn mark_final(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
) -> ApiResult<Json<RoomView>> {
    let account = (caller.holder.account_id, caller.holder.name.as_str());
    let round = state
        .store
        .mark_final(&id, account, query.round, &secret_hash(""))
        .await?;
    // Every final marker tries; the resolution's lock makes the last one's try see all the
    // marks, and the round resolve once.
    match state
        .store
        .resolve_room(&id, Some(round), Trigger::AllFinal, resolve_rules)
        .await
    {
        Ok(_) | Err(RoomError::Conflict(_)) => {}
        Err(e) => return Err(e.into()),
    }
    changed(&state, &id, &caller).await
}
