//! Hints in a game against the AI (issue 25), asked for by its player on its turn: the play
//! layer's [`swapboard_play::hints`] (how far each player is from its edges, the opponent's
//! threats) with the cells of the threats, for a page to mark. Never in a game between people.

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use swapboard_play::hints;
use utoipa::ToSchema;

use super::view::{position_to_move, seat_of_caller};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::state::AppState;

/// A hint for the player to move.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct HintView {
    /// What the hint says, in words.
    words: Vec<String>,
    /// The engine's estimate of the moves the caller, then the AI, needs to join its edges
    /// (`null` where the game gives none).
    #[schema(value_type = Option<Vec<u32>>)]
    distances: Option<[u32; 2]>,
    /// The AI's moves that would win at once were it the AI's turn.
    threats: Vec<String>,
    /// Whether every move of the AI was looked at (a crowded Scware board has too many).
    complete: bool,
    /// The cells the threats name, to mark on the board.
    cells: Vec<String>,
}

/// A hint for the caller's turn in a game against the AI: how far each side is from joining
/// its edges, and the AI's threats with their cells.
#[utoipa::path(get, path = "/api/games/{id}/hint", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The hint", body = HintView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "`forbidden` for a caller who does not play in the game or a game between people, `not_your_turn`", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not being played", body = ErrorBody),
    ))]
pub(crate) async fn hint(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<HintView>> {
    let (seat, seats) = seat_of_caller(&state, &id, &caller).await?;
    if !seats.iter().any(|row| row.ai_level.is_some()) {
        return Err(ApiError::Forbidden(
            "hints are for games against the AI only".to_owned(),
        ));
    }
    let position = position_to_move(&state, &id, seat).await?;
    // At most a few thousand moves tried: no longer than a draft of a crowded board.
    let found = hints::hint(&position);
    Ok(Json(HintView {
        cells: found
            .threat_cells()
            .iter()
            .map(ToString::to_string)
            .collect(),
        words: found.words,
        distances: found.distances,
        threats: found.threats,
        complete: found.complete,
    }))
}
