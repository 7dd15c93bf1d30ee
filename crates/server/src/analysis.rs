//! The AI's analysis of finished games: any position on demand, and a review of every move.
//! Both are the AI workers' jobs (`crate::ai_worker`): a request writes the job, any worker
//! (the one `serve` embeds, or `swapboard ai-worker` processes elsewhere) computes it on its
//! own cores and stores the answer, and every later request for it is answered from the
//! database. The searches are the play layer's ([`AnyPosition::analyse`], [`MoveReview`]).
//! A game being played is never analysed: nobody consults the AI during play.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use swapboard_play::{AiRequest, AnalysisView, AnyPosition, Level, MoveReview};
use tokio::sync::Semaphore;
use utoipa::ToSchema;

use crate::ai::players::{seed_of, think};
use crate::edge::{ClientAddr, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::{start_of, stored};
use crate::limits::ai::{ANALYSIS_LINES, ANALYSIS_WAIT, MAX_NODES, NO_CLOCK_LIMIT};
use crate::state::AppState;
use crate::store::{AnalysisJob, ReviewState, Status, Store, StoredGame};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The AI's routes on a game: its analysis and its review, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(analysis))
        .routes(routes!(review))
}

/// The level an analysis searches at when none is asked for.
const DEFAULT_LEVEL: u8 = 5;
/// How often a request waiting for an analysis looks for the answer.
const ANALYSIS_POLL: Duration = Duration::from_millis(50);

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
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct LineAnswer {
    /// The move, as docs/CONTRACT.md writes it.
    #[serde(rename = "move")]
    text: String,
    /// The chance of the player to move through it, 0 to 1.
    win_rate: f64,
    /// The search's iterations through it.
    visits: u64,
    /// The move and the replies the search expects.
    pv: Vec<String>,
    /// `win`, `loss` or `draw` once the search has proved the result after it; else `null`.
    proven: Option<String>,
}

/// What the AI thinks of one position of a finished game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct AnalysisAnswer {
    /// The number of moves before the position.
    ply: u32,
    /// The colour letter of the player to move.
    to_move: String,
    /// The nodes of the search tree.
    nodes: u64,
    /// `win`, `loss` or `draw` for the player to move once the position is proven (the
    /// solver is asked first, within a node budget); else `null`.
    proven: Option<String>,
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
pub(crate) async fn positions(
    store: &Store,
    game: &StoredGame,
) -> anyhow::Result<(Vec<AnyPosition>, Vec<String>)> {
    let moves = store.moves_up_to(&game.id, game.ply).await?;
    let mut position = start_of(game).map_err(anyhow::Error::from)?;
    let mut positions = vec![position.clone()];
    let mut played = Vec::with_capacity(moves.len());
    for text in &moves {
        let mv = position
            .play_text(text)
            .map_err(|e| anyhow::anyhow!("game {}: replay {text}: {e}", game.id))?;
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
        .check(&addr.0.to_string(), state.clock.now_ms())
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
        (status = 503, description = "`unavailable`: no AI worker answered in time; ask again later", body = ErrorBody),
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
    let job = AnalysisJob {
        game_id: id,
        ply,
        level: level.number(),
    };
    if let Some(answer) = state.store.analysis_answer(&job).await? {
        return Ok(Json(read_answer(&job, &answer)?));
    }
    limit_analyses(&state, addr)?;
    if state.store.request_analysis(&job).await? {
        state.ai.ready().notify_one();
    }
    // Real time, not the server's clock: how long this request has waited for a worker.
    let asked = Instant::now();
    loop {
        tokio::time::sleep(ANALYSIS_POLL).await;
        if let Some(answer) = state.store.analysis_answer(&job).await? {
            return Ok(Json(read_answer(&job, &answer)?));
        }
        if asked.elapsed() >= ANALYSIS_WAIT {
            return Err(ApiError::Unavailable(format!(
                "no AI worker answered within {} s: ask again later",
                ANALYSIS_WAIT.as_secs()
            )));
        }
    }
}

/// An analysis's stored answer, read back.
fn read_answer(job: &AnalysisJob, answer: &str) -> ApiResult<AnalysisAnswer> {
    serde_json::from_str(answer).map_err(|e| {
        ApiError::Internal(anyhow::anyhow!(
            "analysis of {} at ply {}: {e}",
            job.game_id,
            job.ply
        ))
    })
}

/// Computes a claimed analysis on a worker's cores and stores its answer; a job whose game
/// is gone (deleted with its jobs) is left.
pub(crate) async fn answer_analysis(
    store: &Store,
    permits: &Arc<Semaphore>,
    job: &AnalysisJob,
) -> anyhow::Result<()> {
    let Some(game) = store.game(&job.game_id).await? else {
        return Ok(());
    };
    let level = Level::new(job.level)
        .ok_or_else(|| anyhow::anyhow!("analysis of {}: level {}", job.game_id, job.level))?;
    let (mut positions, _) = positions(store, &game).await?;
    let ply = usize::try_from(job.ply)?;
    anyhow::ensure!(
        ply < positions.len(),
        "analysis of {}: ply {ply} past the game's",
        job.game_id
    );
    let position = positions.swap_remove(ply);
    let request = AiRequest {
        level,
        limit: Some(NO_CLOCK_LIMIT),
        extra: Duration::ZERO,
        seed: seed_of(&job.game_id, job.ply),
        max_nodes: MAX_NODES,
    };
    let view = think(permits, "analysis", job.level, move || {
        position.analyse(request, ANALYSIS_LINES)
    })
    .await?;
    let answer = AnalysisAnswer {
        ply: job.ply,
        to_move: view.colour.to_string(),
        nodes: u64::try_from(view.nodes).unwrap_or(u64::MAX),
        proven: view.proven.map(|p| p.as_str().to_owned()),
        lines: view
            .lines
            .into_iter()
            .map(|line| LineAnswer {
                text: line.mv,
                win_rate: line.win_rate,
                visits: line.visits,
                pv: line.pv,
                proven: line.proven.map(|p| p.as_str().to_owned()),
            })
            .collect(),
    };
    store
        .answer_analysis(job, &serde_json::to_string(&answer)?)
        .await
}

/// One move of a reviewed game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct ReviewedMove {
    /// The ply this move made (1 for the first move).
    ply: u32,
    /// The move, as docs/CONTRACT.md writes it.
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
    let running = |done, total| {
        let body = ReviewRunning {
            status: "running",
            done,
            total,
        };
        (StatusCode::ACCEPTED, Json(body)).into_response()
    };
    match state.store.review_state(&id).await? {
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
    if state.store.request_review(&id, total).await? {
        state.ai.ready().notify_one();
    }
    Ok(running(0, total))
}

/// The review's search of the position after `ply` moves of a game, on a worker's cores.
pub(crate) async fn review_position(
    permits: &Arc<Semaphore>,
    game_id: &str,
    ply: u32,
    position: AnyPosition,
) -> anyhow::Result<AnalysisView> {
    let request = AiRequest::review(seed_of(game_id, ply));
    let level = request.level.number();
    think(permits, "review", level, move || {
        position.analyse(request, 1)
    })
    .await
}

/// The reviewed moves, as the JSON stored, from the searches of every position of a game
/// (the start and after each move) and the moves played.
pub(crate) fn reviewed_moves(views: &[AnalysisView], played: &[String]) -> anyhow::Result<String> {
    let moves: Vec<ReviewedMove> = (1u32..)
        .zip(views.windows(2).zip(played))
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
    Ok(serde_json::to_string(&moves)?)
}
