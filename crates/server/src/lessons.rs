//! The lessons (issue 25): each two-player game's lesson as the play crate holds it
//! (`swapboard_play::lessons`), and a move tried in one of its steps, judged there by the
//! engine. A signed-in caller's progress (a guest's too) is kept in `lesson_progress`; the
//! public may do the lessons without it being kept.

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use swapboard_core::BoardView;
use swapboard_play::GameId;
use swapboard_play::lessons::{self, Lesson};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Caller;
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::games::MAX_MOVE_CHARS;
use crate::puzzles::AttemptBody;
use crate::state::AppState;

/// The lessons' routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(show))
        .routes(routes!(attempt))
}

/// A game's lesson in short.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LessonSummary {
    /// The game (`swaptimum`, ...).
    game: &'static str,
    /// Its name.
    name: &'static str,
    /// What the lesson teaches.
    intro: &'static str,
    /// How many steps it has.
    steps: usize,
    /// How many the caller has done; `null` for the public.
    done: Option<i64>,
}

/// Every game's lesson.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LessonList {
    /// The four two-player games' lessons.
    lessons: Vec<LessonSummary>,
}

/// A step of a lesson, as a page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct StepView {
    /// A short title.
    title: &'static str,
    /// What to do, in words.
    task: &'static str,
    /// The position, in the contract's text: the learner moves for the player to move.
    position: &'static str,
    /// What a board picture of the position shows (as a game view's `board`).
    board: BoardView,
}

/// A game's lesson.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LessonView {
    /// The game.
    game: &'static str,
    /// Its name.
    name: &'static str,
    /// Its designer, credited wherever the game is named.
    author: &'static str,
    /// What the lesson teaches.
    intro: &'static str,
    /// The steps, in order (numbered from 1 in the attempt's path).
    steps: Vec<StepView>,
    /// How many steps the caller has done; `null` for the public.
    done: Option<i64>,
}

/// The lesson of the game a path names, if the server offers it, or 404.
/// Lesson attempts judged at once (each may run the solver for a missed win's answer).
static JUDGING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

fn lesson_of(state: &AppState, game: &str) -> ApiResult<&'static Lesson> {
    let game: GameId = game
        .parse()
        .map_err(|_| ApiError::NotFound(format!("no lesson for {game:?}")))?;
    Ok(lessons::of(state.offered.check(game)?))
}

async fn progress(
    state: &AppState,
    caller: Option<&Caller>,
    game: GameId,
) -> ApiResult<Option<i64>> {
    match caller {
        Some(caller) => Ok(Some(
            state
                .store
                .lesson_progress(caller.holder.account_id, game.as_str())
                .await?,
        )),
        None => Ok(None),
    }
}

/// Every offered two-player game's lesson in short, with the caller's progress.
#[utoipa::path(get, path = "/api/lessons", tag = "lessons",
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The lessons", body = LessonList),
    ))]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Option<Caller>,
) -> ApiResult<Json<LessonList>> {
    let mut out = Vec::new();
    for lesson in lessons::ALL.iter().filter(|l| state.offered.has(l.game)) {
        out.push(LessonSummary {
            game: lesson.game.as_str(),
            name: lesson.game.catalogue_entry().name,
            intro: lesson.intro,
            steps: lesson.steps.len(),
            done: progress(&state, caller.as_ref(), lesson.game).await?,
        });
    }
    Ok(Json(LessonList { lessons: out }))
}

/// A game's lesson: every step's position, board and task, with the caller's progress.
#[utoipa::path(get, path = "/api/lessons/{game}", tag = "lessons",
    params(("game" = String, Path, description = "swaptimum, flipstop, scware or rapid-transit")),
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The lesson", body = LessonView),
        (status = 404, description = "No lesson for that game", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path(game): Path<String>,
) -> ApiResult<Json<LessonView>> {
    let lesson = lesson_of(&state, &game)?;
    let entry = lesson.game.catalogue_entry();
    Ok(Json(LessonView {
        game: lesson.game.as_str(),
        name: entry.name,
        author: entry.author,
        intro: lesson.intro,
        steps: lesson
            .steps
            .iter()
            .map(|step| StepView {
                title: step.title,
                task: step.task,
                position: step.position,
                board: step.start().view(),
            })
            .collect(),
        done: progress(&state, caller.as_ref(), lesson.game).await?,
    }))
}

/// The engine's judgement of a move tried in a step.
#[derive(Debug, Serialize, ToSchema)]
// Named apart from the puzzles' answer: the document's schemas share one namespace.
#[schema(as = LessonAttempt)]
pub(crate) struct AttemptAnswer {
    /// Whether the move does the step's task.
    done: bool,
    /// Why, in words.
    why: String,
    /// The move, as the contract prints it.
    #[serde(rename = "move")]
    mv: String,
    /// The position after the move and the passes the rules then force.
    position: String,
    /// What a board picture of that position shows.
    board: BoardView,
    /// How the game ended there, in words, or `null`.
    ending: Option<String>,
    /// How many steps of the lesson the caller has done now; `null` for the public.
    progress: Option<i64>,
    /// For a move that misses a win: the other side's answer as the solver finds it, and the
    /// board after it (what the answer changed marked); `null` otherwise.
    answer: Option<LessonAnswer>,
}

/// The other side's answer to a missed win, shown on the board.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LessonAnswer {
    /// The answer, as the contract prints it.
    #[serde(rename = "move")]
    mv: String,
    /// The position after it and the passes the rules then force.
    position: String,
    /// What a board picture of that position shows, the answer's changes marked.
    board: BoardView,
}

/// Plays a move in a step of a lesson: whether it does the task and why, in words; a move
/// the rules refuse is a 422 with the rule's code and refusal. A step done by a signed-in
/// caller (a guest's session too) counts towards its progress.
#[utoipa::path(post, path = "/api/lessons/{game}/steps/{step}/attempt", tag = "lessons",
    params(
        ("game" = String, Path, description = "swaptimum, flipstop, scware or rapid-transit"),
        ("step" = usize, Path, minimum = 1, description = "The step, from 1"),
    ),
    request_body = AttemptBody,
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The judgement", body = AttemptAnswer),
        (status = 400, description = "A move that does not read", body = ErrorBody),
        (status = 404, description = "No lesson for that game, or no such step", body = ErrorBody),
        (status = 422, description = "`illegal_move`: the rules refuse the move there", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn attempt(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path((game, step)): Path<(String, String)>,
    Body(body): Body<AttemptBody>,
) -> ApiResult<Json<AttemptAnswer>> {
    let lesson = lesson_of(&state, &game)?;
    let count = lesson.steps.len();
    let index = step
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=count).contains(n))
        .ok_or_else(|| {
            ApiError::NotFound(format!("step: {step:?} is not a step of 1 to {count}"))
        })?;
    if body.mv.chars().count() > MAX_MOVE_CHARS {
        return Err(ApiError::BadRequest(format!(
            "move: longer than {MAX_MOVE_CHARS} characters"
        )));
    }
    // A missed win is answered by the solver (a bounded number of nodes and an 8 MiB table):
    // CPU work, kept off the threads that serve requests, a few at a time so that memory
    // stays bounded however many learners miss at once.
    let step = &lesson.steps[index - 1];
    let mv = body.mv;
    let _permit = JUDGING.acquire().await.map_err(anyhow::Error::from)?;
    let judged = tokio::task::spawn_blocking(move || step.judge(&mv))
        .await
        .map_err(anyhow::Error::from)?;
    let answer = match (&judged.answer, &judged.after) {
        (Some((reply, answered)), Some(after)) => {
            let mut board = answered.view();
            board.mark_changes_from(&after.view());
            Some(LessonAnswer {
                mv: reply.clone(),
                position: answered.to_string(),
                board,
            })
        }
        _ => None,
    };
    let (Some(mv), Some(after)) = (judged.mv, judged.after) else {
        return Err(match judged.rule {
            Some(rule) => ApiError::IllegalMove {
                rule: rule.as_str(),
                reason: judged.why,
            },
            None => ApiError::BadRequest(format!("move: {}", judged.why)),
        });
    };
    let progress = match (&caller, judged.done) {
        (Some(caller), true) => Some(
            state
                .store
                .lesson_done(
                    caller.holder.account_id,
                    lesson.game.as_str(),
                    i64::try_from(index).map_err(anyhow::Error::from)?,
                )
                .await?,
        ),
        _ => progress(&state, caller.as_ref(), lesson.game).await?,
    };
    Ok(Json(AttemptAnswer {
        done: judged.done,
        why: judged.why,
        mv,
        position: after.to_string(),
        board: after.view(),
        ending: after.outcome_words(),
        progress,
        answer,
    }))
}
