//! Conditional moves over HTTP (`PUT` / `GET /api/games/{id}/conditional`, docs/API.md,
//! "Correspondence"): a player waiting for the opponent's move sets lines of "if they play
//! X, play Y for me"; the play layer checks them by the rules
//! ([`swapboard_play::conditional::plan`]) and the move pipeline plays the reply in the
//! opponent's move's transaction. Nobody but the owner reads them.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use swapboard_play::conditional::{self, PlanError};
use utoipa::ToSchema;

use super::view::{position_of, seat_of_caller, stored};
use crate::auth::Caller;
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::games::{MAX_CONDITIONAL_LINES, MAX_MOVE_CHARS};
use crate::state::AppState;
use crate::store::{MoveError, Status};

/// A plan of conditional moves, as set and as read.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Plan {
    /// Lines from the position now, the opponent to move: each alternates the opponent's
    /// move and the reply to play for you, 2 to 20 moves; at most 32 lines, 64 replies in
    /// all. `[]` clears the plan.
    lines: Vec<Vec<String>>,
}

/// Sets the caller's conditional moves in a game it plays, while the opponent is to move:
/// each line is checked by the rules now; when the opponent plays a line's first move, the
/// server plays its reply in that move's transaction (clock and notices as for any move)
/// and keeps the lines under it; any other move clears them.
#[utoipa::path(put, path = "/api/games/{id}/conditional", tag = "games", request_body = Plan,
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The plan as kept, in the contract's words", body = Plan),
        (status = 400, description = "Too many or malformed lines, an illegal move (line and move named), or two replies to one move", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller does not play in this game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not being played, it is the caller's turn, or the game moved meanwhile", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn set(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(plan): Body<Plan>,
) -> ApiResult<Json<Plan>> {
    let (seat, _) = seat_of_caller(&state, &id, &caller).await?;
    if plan.lines.len() > MAX_CONDITIONAL_LINES {
        return Err(ApiError::BadRequest(format!(
            "lines: {}, expected at most {MAX_CONDITIONAL_LINES}",
            plan.lines.len()
        )));
    }
    // Bounded before the rules read anything: a line's moves are short texts.
    if let Some(long) = plan
        .lines
        .iter()
        .flatten()
        .find(|text| text.chars().count() > MAX_MOVE_CHARS)
    {
        return Err(ApiError::BadRequest(format!(
            "lines: a move of {} characters, expected at most {MAX_MOVE_CHARS}",
            long.chars().count()
        )));
    }
    let game = stored(&state.store, &id).await?;
    if game.status != Status::Playing {
        return Err(ApiError::Conflict(format!(
            "the game is {}",
            game.status.as_str()
        )));
    }
    let position = position_of(&game)?;
    let owner = swapboard_core::Player::from_index(usize::from(seat));
    let nodes =
        conditional::plan(&position, game.ply, owner, &plan.lines).map_err(|e| match e {
            PlanError::NotTheirTurn => ApiError::Conflict(
                "it is your turn: conditional moves wait for the opponent's move".to_owned(),
            ),
            other => ApiError::BadRequest(format!("lines: {other}")),
        })?;
    state
        .store
        .set_plan(&id, game.ply, seat, &nodes)
        .await
        .map_err(|e| match e {
            MoveError::Stale { ply } => ApiError::Conflict(format!(
                "the game moved meanwhile (now at ply {ply}): set the plan again"
            )),
            MoveError::NotPlaying(status) => {
                ApiError::Conflict(format!("the game is {}", status.as_str()))
            }
            MoveError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            MoveError::Storage(e) => ApiError::Internal(e),
            MoveError::Refused(never) => match never {},
        })?;
    Ok(Json(Plan {
        lines: conditional::lines_of(&nodes),
    }))
}

/// The caller's own conditional moves in a game it plays, from the position now (empty
/// when it keeps none); nobody else's.
#[utoipa::path(get, path = "/api/games/{id}/conditional", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller's plan", body = Plan),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller does not play in this game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Plan>> {
    let (seat, _) = seat_of_caller(&state, &id, &caller).await?;
    let game = stored(&state.store, &id).await?;
    if game.status != Status::Playing || !game.conditional {
        return Ok(Json(Plan { lines: Vec::new() }));
    }
    let plan = state.store.plan_of(&id, seat).await?;
    Ok(Json(Plan {
        lines: conditional::lines_of(&plan.nodes),
    }))
}
