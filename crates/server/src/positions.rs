//! Moves judged in any position, with no game behind them (issue 25): the move builder's
//! answer to the cells chosen so far, and a move played, both on a position given as text.
//! The puzzles' and lessons' pages build and check their moves here; nothing is stored.
//! Both are POSTs, so the write limit per address applies to them.

use axum::Json;
use serde::{Deserialize, Serialize};
use swapboard_core::{BoardView, MoveError as RulesError};
use swapboard_play::{AnyPosition, Draft, Selection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::moves::rule_code;
use crate::state::AppState;

/// The stateless positions' routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(draft))
        .routes(routes!(play))
}

/// The body of `POST /api/positions/draft`.
#[derive(Debug, Deserialize)]
pub(crate) struct DraftBody {
    /// The position, in the contract's text.
    position: AnyPosition,
    /// The cells chosen so far (and Scware's `split`), as a game's draft takes them.
    #[serde(flatten)]
    selection: Selection,
}

/// What the cells chosen so far make in a position given as text: the play layer's move
/// builder, as `POST /api/games/{id}/draft` answers it in a game.
#[utoipa::path(post, path = "/api/positions/draft", tag = "positions",
    request_body(content = Object, description = "`{\"position\": \"<position text>\", \"cells\": [\"c3\", ...]}`, and for Scware's balancing move `\"split\": N`"),
    responses(
        (status = 200, description = "`verdict` (`complete` with `move`, `more`, or `refused` with `reason`), `more`, `next`, `actions`, `prompt`", body = Draft<String>),
        (status = 400, description = "A position that does not read, or a malformed cell or field", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn draft(Body(body): Body<DraftBody>) -> ApiResult<Json<Draft<String>>> {
    if body.position.outcome().is_some() {
        return Err(ApiError::BadRequest(
            "position: the game is over there: no move can be built".to_owned(),
        ));
    }
    Ok(Json(body.position.draft(&body.selection)))
}

/// The body of `POST /api/positions/moves`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
// Named apart from a game's move (`games::moves::MoveBody`): the document's schemas share
// one namespace.
#[schema(as = PositionMove)]
pub(crate) struct MoveBody {
    /// The position, in the contract's text.
    #[schema(value_type = String)]
    position: AnyPosition,
    /// The move, as the contract writes it.
    #[serde(rename = "move")]
    mv: String,
}

/// A move played in a position given as text.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MoveAnswer {
    /// The move, as the contract writes it.
    #[serde(rename = "move")]
    mv: String,
    /// The passes the rules then force, in order, each as the contract writes it.
    passes: Vec<String>,
    /// The position after the move and the passes.
    #[schema(value_type = String)]
    position: AnyPosition,
    /// How the game ended there, in words (`Red wins by connection`), or `null` while it
    /// goes on.
    ending: Option<String>,
    /// What a board picture of the position after shows (as a game view's `board`).
    board: BoardView,
}

/// Plays a move in a position given as text, with the passes the rules then force: the
/// position after it, or the rule's refusal.
#[utoipa::path(post, path = "/api/positions/moves", tag = "positions",
    request_body = MoveBody,
    responses(
        (status = 200, description = "The position after the move", body = MoveAnswer),
        (status = 400, description = "A position or a move that does not read", body = ErrorBody),
        (status = 422, description = "`illegal_move`: the rules refuse the move there, with the rule's code", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn play(Body(body): Body<MoveBody>) -> ApiResult<Json<MoveAnswer>> {
    let mut position = body.position;
    let mv = position
        .play_text(&body.mv)
        .map_err(|refusal| match refusal {
            RulesError::Unreadable { .. } => ApiError::BadRequest(format!("move: {refusal}")),
            RulesError::Illegal { .. } => ApiError::IllegalMove {
                rule: rule_code(&refusal),
                reason: refusal.to_string(),
            },
        })?;
    let mut passes = Vec::new();
    position.play_forced_passes(|pass, _| passes.push(pass.to_owned()));
    let ending = position.outcome_words();
    Ok(Json(MoveAnswer {
        mv,
        passes,
        board: position.view(),
        position,
        ending,
    }))
}
