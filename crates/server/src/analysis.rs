//! The AI's analysis of finished games: any position on demand, and a review of every move,
//! computed once in the background and stored. The searches are the play layer's
//! ([`AnyPosition::analyse`], [`MoveReview`]); they run on the AI's pool, behind its
//! permits, so they never take the HTTP workers' cores. A game being played is never
//! analysed: nobody consults the AI during play.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use swapboard_play::{AiRequest, AnalysisView, AnyPosition, Level, MoveReview};
use utoipa::ToSchema;

use crate::ai::players::{MAX_NODES, NO_CLOCK_LIMIT, seed_of};
use crate::edge::{ClientAddr, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::{start_of, stored};
use crate::state::AppState;
use crate::store::{ReviewState, Status, StoredGame, now_ms};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The AI's routes on a game: its analysis and its review, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(analysis))
        .routes(routes!(review))
}

/// The most candidate moves an analysis shows.
const LINES: usize = 5;
/// The level an analysis searches at when none is asked for.
const DEFAULT_LEVEL: u8 = 5;
/// How long a review's claim holds without news from the instance computing it; each
/// position reviewed renews it.
const REVIEW_LEASE: Duration = Duration::from_secs(300);

/// The query of `GET /api/games/{id}/analysis`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalysisQuery {
    /// The number of moves before the position analysed (default: all of them).
    ply: Option<u32>,
    /// The AI's level, 1 to 8 (default 5).
    level: Option<u8>,
}

/// One candidate move.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LineAnswer {
    /// The move, as `spec/CONTRACT.md` writes it.
    #[serde(rename = "move")]
    text: String,
    /// The chance of the player to move through it, 0 to 1.
    win_rate: f64,
    /// The search's iterations through it.
    visits: u64,
    /// The move and the replies the search expects.
    pv: Vec<String>,
    /// `win`, `loss` or `draw` once the search has proved the result after it; else `null`.
    proven: Option<&'static str>,
}

/// What the AI thinks of one position of a finished game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AnalysisAnswer {
    /// The number of moves before the position.
    ply: u32,
    /// The colour letter of the player to move.
    to_move: String,
    /// The nodes of the search tree.
    nodes: u64,
    /// `win`, `loss` or `draw` for the player to move once the position is proven (the
    /// solver is asked first, within a node budget); else `null`.
    proven: Option<&'static str>,
    /// At most 5 moves, best first: proven wins first, proven losses last.
    lines: Vec<LineAnswer>,
}

/// The finished game of that id, or 409 for one still waiting or being played.
async fn finished(state: &AppState, id: &str) -> ApiResult<StoredGame> {
    let game = stored(&state.store, id).await?;
    if game.status != Status::Finished {
        return Err(ApiError::Conflict(format!(
            "the game is {}: only a finished game is analysed",
            game.status.as_str()
        )));
    }
    Ok(game)
}

/// The positions of a game, from the start to its last move, with each move as the
/// contract writes it.
async fn positions(
    state: &AppState,
    game: &StoredGame,
) -> ApiResult<(Vec<AnyPosition>, Vec<String>)> {
    let moves = state.store.moves_up_to(&game.id, game.ply).await?;
    let mut position = start_of(game)?;
    let mut positions = vec![position.clone()];
    let mut played = Vec::with_capacity(moves.len());
    for text in &moves {
        let mv = position.play_text(text).map_err(|e| {
            ApiError::Internal(anyhow::anyhow!("game {}: replay {text}: {e}", game.id))
        })?;
        played.push(mv);
        positions.push(position.clone());
    }
    Ok((positions, played))
}

/// Takes one of the address's analysis tokens, or answers 429.
fn limit_analyses(state: &AppState, addr: ClientAddr) -> ApiResult<()> {
    state
        .limits
        .analyses_per_address
        .check(&addr.0.to_string(), Instant::now())
        .map_err(ApiError::RateLimited)
}

/// What the AI thinks of a position of a finished game: its best moves with their win
/// rates and expected continuations.
#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "analysis",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("ply" = Option<u32>, Query, description = "The number of moves before the position (default: all)"),
        ("level" = Option<u8>, Query, minimum = 1, maximum = 8, description = "The AI's level, 1 to 8 (default 5)"),
    ),
    responses(
        (status = 200, description = "The analysis", body = AnalysisAnswer),
        (status = 400, description = "A ply past the game's, or a level not 1 to 8", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not finished", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many analyses from this address", body = ErrorBody),
    ))]
pub(crate) async fn analysis(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    Params(query): Params<AnalysisQuery>,
) -> ApiResult<Json<AnalysisAnswer>> {
    let level = query.level.unwrap_or(DEFAULT_LEVEL);
    // Level 9 takes every core for up to 30 s: not for a shared server.
    let level = Level::new(level)
        .filter(|level| *level <= Level::MAX_SERVED)
        .ok_or_else(|| ApiError::BadRequest(format!("level: {level} is not 1 to 8")))?;
    let game = finished(&state, &id).await?;
    let ply = query.ply.unwrap_or(game.ply);
    if ply > game.ply {
        return Err(ApiError::BadRequest(format!(
            "ply: {ply} is past the game's last ply, {}",
            game.ply
        )));
    }
    limit_analyses(&state, addr)?;
    let (mut positions, _) = positions(&state, &game).await?;
    let position = positions.swap_remove(usize::try_from(ply).unwrap_or(0));
    let request = AiRequest {
        level,
        limit: Some(NO_CLOCK_LIMIT),
        extra: Duration::ZERO,
        seed: seed_of(&id, ply),
        max_nodes: MAX_NODES,
    };
    let view = state
        .ai
        .think("analysis", level.number(), move || {
            position.analyse(request, LINES)
        })
        .await?;
    Ok(Json(AnalysisAnswer {
        ply,
        to_move: view.colour.to_string(),
        nodes: u64::try_from(view.nodes).unwrap_or(u64::MAX),
        proven: view.proven.map(|p| p.as_str()),
        lines: view
            .lines
            .into_iter()
            .map(|line| LineAnswer {
                text: line.mv,
                win_rate: line.win_rate,
                visits: line.visits,
                pv: line.pv,
                proven: line.proven.map(|p| p.as_str()),
            })
            .collect(),
    }))
}

/// One move of a reviewed game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct ReviewedMove {
    /// The ply this move made (1 for the first move).
    ply: u32,
    /// The move, as `spec/CONTRACT.md` writes it.
    #[serde(rename = "move")]
    text: String,
    /// The mover's colour letter.
    colour: String,
    /// The mover's chance before the move (the best the position offered), 0 to 1.
    win_before: f64,
    /// The mover's chance after it.
    win_after: f64,
    /// `win_before - win_after`, never below 0.
    loss: f64,
    /// The move the AI preferred.
    best: Option<String>,
    /// The line the AI expected from the position before the move, its preferred move
    /// first (empty in reviews stored before it was kept, and where the search had none).
    #[serde(default)]
    best_line: Vec<String>,
    /// `inaccuracy` (a loss of 0.1 or more), `mistake` (0.2), `blunder` (0.3), or `null`.
    /// Where the positions before and after are both proven: `blunder` exactly when the
    /// move turned a proven win into a proven loss, else `null`.
    judgement: Option<String>,
    /// `proven` when the judgement (or its absence) is a fact proven by the solver,
    /// `estimated` when it is the AI's opinion; absent from reviews stored before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    basis: Option<String>,
}

/// A review done.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ReviewDone {
    /// `done`.
    status: &'static str,
    /// Every move, in order.
    moves: Vec<ReviewedMove>,
}

/// A review under way.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ReviewRunning {
    /// `running`.
    status: &'static str,
    /// Positions reviewed so far.
    done: u32,
    /// Positions to review: the game's moves and one.
    total: u32,
}

/// A chance rounded to three decimals: more would be the search's noise.
fn rounded(chance: f64) -> f64 {
    (chance * 1000.0).round() / 1000.0
}

/// The review of every move of a finished game: what each did to its mover's chance, and
/// the judgement of the bad ones. The first request starts it in the background (202); it
/// is computed once and stored.
#[utoipa::path(get, path = "/api/games/{id}/review", tag = "analysis",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The review", body = ReviewDone),
        (status = 202, description = "The review is being computed: ask again later", body = ReviewRunning),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not finished", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many reviews started from this address", body = ErrorBody),
    ))]
pub(crate) async fn review(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let game = finished(&state, &id).await?;
    let total = game.ply + 1;
    let now = now_ms();
    let running = |done, total| {
        let body = ReviewRunning {
            status: "running",
            done,
            total,
        };
        (StatusCode::ACCEPTED, Json(body)).into_response()
    };
    match state.store.review_state(&id, now).await? {
        Some(ReviewState::Done(moves)) => {
            let moves: Vec<ReviewedMove> = serde_json::from_str(&moves)
                .map_err(|e| ApiError::Internal(anyhow::anyhow!("review of {id}: {e}")))?;
            let body = ReviewDone {
                status: "done",
                moves,
            };
            return Ok(Json(body).into_response());
        }
        Some(ReviewState::Running { done, total }) => return Ok(running(done, total)),
        None => {}
    }
    limit_analyses(&state, addr)?;
    if state
        .store
        .claim_review(&id, total, now, lease_from_now())
        .await?
    {
        let state = state.clone();
        tokio::spawn(async move {
            if let Err(e) = compute_review(&state, &game).await {
                // The lease runs out, and the next request starts it again.
                tracing::warn!(game = game.id, "review: {e:#}");
            }
        });
    }
    Ok(running(0, total))
}

/// When a review's claim made now runs out.
fn lease_from_now() -> i64 {
    now_ms() + i64::try_from(REVIEW_LEASE.as_millis()).unwrap_or(i64::MAX)
}

/// Reviews every position of a game, one search each on the AI's pool, recording the
/// progress as it goes, and stores the result.
async fn compute_review(state: &AppState, game: &StoredGame) -> anyhow::Result<()> {
    let id = &game.id;
    let (positions, played) = positions(state, game)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut views: Vec<AnalysisView> = Vec::with_capacity(positions.len());
    for (ply, position) in (0u32..).zip(positions) {
        let request = AiRequest::review(seed_of(id, ply));
        let level = request.level.number();
        views.push(
            state
                .ai
                .think("review", level, move || position.analyse(request, 1))
                .await?,
        );
        state
            .store
            .review_progress(id, ply + 1, lease_from_now())
            .await?;
    }
    let moves: Vec<ReviewedMove> = (1u32..)
        .zip(views.windows(2).zip(&played))
        .map(|(ply, (pair, text))| {
            let review = MoveReview::of(&pair[0], text, &pair[1]);
            ReviewedMove {
                ply,
                text: text.clone(),
                colour: pair[0].colour.to_string(),
                win_before: rounded(review.win_before),
                win_after: rounded(review.win_after),
                loss: rounded(review.loss),
                best: review.best,
                best_line: pair[0]
                    .lines
                    .first()
                    .map(|line| line.pv.clone())
                    .unwrap_or_default(),
                judgement: review.judgement.map(|j| j.as_str().to_owned()),
                basis: Some(review.basis.as_str().to_owned()),
            }
        })
        .collect();
    state
        .store
        .finish_review(id, &serde_json::to_string(&moves)?)
        .await
}
