//! The game master's acts on a room under way: resolve now, extend, pause and resume the
//! clock, give a seat to another account or the bot, undo a resolution, a new invite, and
//! the audit log of them all.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use swapboard_swap61::Seat;
use utoipa::ToSchema;

use super::access::{RoundQuery, board_of, mastered_room, setup_of};
use super::rounds::{bot_submissions, resolve_rules};
use super::views::changed;
use crate::api::RoomView;
use crate::auth::Caller;
use crate::edge::{Body, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::rooms::MAX_EXTEND_S;
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::{AuditEntry, Occupant, RoomStatus, Trigger};

/// The body of `POST /api/rooms/{id}/deadline`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Extend {
    /// Seconds to add to the open round (1 to 1209600, two weeks).
    seconds: u32,
}

/// The body of `PUT /api/rooms/{id}/seats/{seat}`: exactly one of the two.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeatBody {
    /// The account that plays the seat from now on.
    account: Option<String>,
    /// `true`: the bidding bot plays the seat from now on.
    bot: Option<bool>,
}

/// The invite of a room, for its game master.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct InviteView {
    /// The new invite; the old one no longer works.
    invite: String,
}

/// A room's audit log.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AuditView {
    /// Every change, oldest first.
    entries: Vec<AuditLine>,
}

/// One change of a room.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AuditLine {
    /// When (ms since 1970).
    at_ms: i64,
    /// Who: an account's name, or `server`.
    actor: String,
    /// What: `created`, `joined`, `started`, `submitted`, `final`, `resolved`, `extended`,
    /// `paused`, `resumed`, `seat`, `undone`, `invite` or `imported`.
    action: String,
    /// The particulars.
    detail: String,
}

/// Resolves the open round now (game master).
#[utoipa::path(post, path = "/api/rooms/{id}/resolve", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another open round answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Resolved and scored; the next round is open", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, or not the round meant", body = ErrorBody),
    ))]
pub(crate) async fn resolve(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
) -> ApiResult<Json<RoomView>> {
    mastered_room(&state, &id, &caller).await?;
    let trigger = Trigger::Master(caller.holder.name.clone());
    state
        .store
        .resolve_room(&id, query.round, trigger, resolve_rules)
        .await?;
    changed(&state, &id, &caller).await
}

/// Gives the open round more time (game master).
#[utoipa::path(post, path = "/api/rooms/{id}/deadline", tag = "rooms", request_body = Extend,
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another round, or this one past its deadline, answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The deadline moved (while paused: the time left grew)", body = RoomView),
        (status = 400, description = "`seconds` out of range", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, not the round meant, or its deadline passed", body = ErrorBody),
    ))]
pub(crate) async fn extend(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
    Body(body): Body<Extend>,
) -> ApiResult<Json<RoomView>> {
    if !(1..=MAX_EXTEND_S).contains(&body.seconds) {
        return Err(ApiError::BadRequest(format!(
            "seconds: 1 to {MAX_EXTEND_S}"
        )));
    }
    mastered_room(&state, &id, &caller).await?;
    let by = i64::from(body.seconds) * 1000;
    state
        .store
        .extend_room(&id, &caller.holder.name, query.round, by)
        .await?;
    changed(&state, &id, &caller).await
}

/// Stops the open round's clock (game master); submissions are still taken.
#[utoipa::path(post, path = "/api/rooms/{id}/pause", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another round, or this one past its deadline, answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Paused: no deadline until resumed", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, not the round meant, its deadline passed, or paused already", body = ErrorBody),
    ))]
pub(crate) async fn pause(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
) -> ApiResult<Json<RoomView>> {
    set_paused(&state, &id, &caller, query.round, true).await
}

/// Pauses or resumes a room (game master).
async fn set_paused(
    state: &AppState,
    id: &str,
    caller: &Caller,
    asked: Option<u8>,
    pause: bool,
) -> ApiResult<Json<RoomView>> {
    mastered_room(state, id, caller).await?;
    state
        .store
        .pause_room(id, &caller.holder.name, asked, pause)
        .await?;
    changed(state, id, caller).await
}

/// Starts the open round's clock again with the time it had left (game master).
#[utoipa::path(post, path = "/api/rooms/{id}/resume", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another round, or this one past its deadline, answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Running again", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, not the round meant, or not paused", body = ErrorBody),
    ))]
pub(crate) async fn resume(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
) -> ApiResult<Json<RoomView>> {
    set_paused(&state, &id, &caller, query.round, false).await
}

/// Gives a seat to another account, or to the bot (game master). The seat keeps its name
/// in the game file and its submission; the new player sees it.
#[utoipa::path(put, path = "/api/rooms/{id}/seats/{seat}", tag = "rooms", request_body = SeatBody,
    params(
        ("id" = String, Path, description = "The room's id"),
        ("seat" = u8, Path, description = "The seat, 1 to 10"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The seat changed hands (the bot submits at once)", body = RoomView),
        (status = 400, description = "Neither or both of `account` and `bot`, or a bad seat", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master, or the caller and the account blocked one another", body = ErrorBody),
        (status = 404, description = "No such room or account", body = ErrorBody),
        (status = 409, description = "Still in the lobby, no such seat, or the account plays another seat", body = ErrorBody),
    ))]
pub(crate) async fn replace_seat(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, number)): Path<(String, u8)>,
    Body(body): Body<SeatBody>,
) -> ApiResult<Json<RoomView>> {
    let room = mastered_room(&state, &id, &caller).await?;
    if Seat::new(usize::from(number)).is_none() {
        return Err(ApiError::BadRequest("seat: 1 to 10".to_owned()));
    }
    let occupant = match (body.account, body.bot) {
        (Some(name), None | Some(false)) => {
            let login = state
                .store
                .login_of(&name)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("no account named {name:?}")))?;
            // A seat given is an invitation: refused between two accounts one of which
            // blocked the other, as a challenge is (docs/CHAT.md).
            if state
                .store
                .blocked_between(caller.holder.account_id, login.account_id)
                .await?
            {
                return Err(ApiError::Forbidden(format!(
                    "account: you and {} cannot be in a room together as its game master \
                     and a player: one of you blocked the other",
                    login.name
                )));
            }
            Occupant::Account(login.account_id, login.name)
        }
        (None, Some(true)) => {
            let submission = if room.status == RoomStatus::Playing {
                let setup = setup_of(&room)?;
                let board = board_of(&room)?;
                let round = usize::from(room.round);
                bot_submissions(&setup, &board, round, std::iter::once(number)).pop()
            } else {
                None
            };
            Occupant::Bot(submission)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "body: give either \"account\": NAME or \"bot\": true".to_owned(),
            ));
        }
    };
    state
        .store
        .replace_seat(&id, &caller.holder.name, number, occupant)
        .await?;
    changed(&state, &id, &caller).await
}

/// Takes back the last resolution, as `swapboard swap61 undo` does (game master): the
/// round opens again with the submissions it was resolved with.
#[utoipa::path(post, path = "/api/rooms/{id}/undo", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The last resolved round is open again, with a whole round's time", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is resolved", body = ErrorBody),
    ))]
pub(crate) async fn undo(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RoomView>> {
    let room = mastered_room(&state, &id, &caller).await?;
    if room.setup.is_none() {
        return Err(ApiError::Conflict(
            "the room has not started: nothing to undo".to_owned(),
        ));
    }
    if room.closed_ms.is_some() {
        return Err(ApiError::Conflict(
            "an administrator closed the room: it stays as it is".to_owned(),
        ));
    }
    let start = setup_of(&room)?.start.to_string();
    state
        .store
        .undo_resolution(&id, &caller.holder.name, &start)
        .await?;
    changed(&state, &id, &caller).await
}

/// A new invite for the room (game master); the old one stops working.
#[utoipa::path(post, path = "/api/rooms/{id}/invite", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The new invite", body = InviteView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
    ))]
pub(crate) async fn new_invite(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<InviteView>> {
    mastered_room(&state, &id, &caller).await?;
    let invite = random_secret();
    state
        .store
        .new_invite(&id, &caller.holder.name, &secret_hash(&invite))
        .await?;
    Ok(Json(InviteView { invite }))
}

/// The room's audit log (game master).
#[utoipa::path(get, path = "/api/rooms/{id}/audit", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Every change, oldest first", body = AuditView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
    ))]
pub(crate) async fn audit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<AuditView>> {
    mastered_room(&state, &id, &caller).await?;
    let entries = state
        .store
        .room_audit(&id)
        .await?
        .into_iter()
        .map(|e: AuditEntry| AuditLine {
            at_ms: e.at_ms,
            actor: e.actor,
            action: e.action,
            detail: e.detail,
        })
        .collect();
    Ok(Json(AuditView { entries }))
}
