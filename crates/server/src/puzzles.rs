//! Puzzles proven by the solver (issue 25, `docs/PUZZLES.md`): the list by game and
//! difficulty, the daily puzzle, one puzzle, and an attempt judged by the play layer
//! (`swapboard_play::puzzles::judge`), recorded for a signed-in caller.
//!
//! The puzzles are the play crate's shipped file, seeded into the database when the server
//! starts ([`seed`]); a judgement's solver work runs on the AI's pool behind its permits.

use std::sync::LazyLock;

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use swapboard_core::{BoardView, MoveError as RulesError};
use swapboard_play::puzzles::{self, Attempt, AttemptError, Puzzle};
use swapboard_play::{AnyPosition, GameId};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Caller;
use crate::clock::DAY_MS;
use crate::edge::{Body, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::moves::rule_code;
use crate::limits::ratings::MAX_PUZZLES_LISTED;
use crate::state::AppState;
use crate::store::Store;
use crate::store::puzzles::{PuzzleFilter, PuzzleRecord};

/// The puzzles' routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(daily))
        .routes(routes!(show))
        .routes(routes!(attempt))
}

/// A list's length when none is asked for.
const DEFAULT_LIMIT: i64 = 20;
/// The solver's budget for a wrong move's refutation: four times the generator's, since the
/// generator's proofs shared one table and a judgement starts from an empty one.
const JUDGE_BUDGET: u64 = 4 * puzzles::DEFAULT_BUDGET;

/// The shipped puzzles, read once.
static SHIPPED: LazyLock<Result<Vec<Puzzle>, String>> =
    LazyLock::new(|| puzzles::read_lines(puzzles::SHIPPED));

/// Adds the shipped puzzles the database lacks (all of them on a first start).
pub(crate) async fn seed(store: &Store) -> anyhow::Result<()> {
    let shipped = SHIPPED
        .as_ref()
        .map_err(|e| anyhow::anyhow!("the shipped puzzles: {e}"))?;
    store
        .seed_puzzles(shipped)
        .await
        .map_err(|e| anyhow::anyhow!("cannot seed the puzzles: {e}"))
}

/// A puzzle as a page shows it, without its solution.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleView {
    /// The puzzle's id.
    id: String,
    /// The game (`swaptimum`, ...).
    game: String,
    /// The board's side.
    size: usize,
    /// The position, in the contract's text (docs/CONTRACT.md).
    position: String,
    /// How hard it is: about 800 for a win in one among few moves, 2,000 and more for a
    /// long combination.
    difficulty: u32,
    /// What it is about: `finish`, `defence` or `combination`.
    theme: &'static str,
    /// What the player is asked, in words (`Red to move and win`).
    task: String,
    /// What a board picture of the position shows (as a game view's `board`).
    board: BoardView,
}

/// A stored puzzle's position; one that does not read is the store's fault.
fn parse(puzzle: &Puzzle) -> ApiResult<AnyPosition> {
    puzzle.position.parse().map_err(|e| {
        ApiError::Internal(anyhow::anyhow!(
            "puzzle {}: stored position: {e}",
            puzzle.id
        ))
    })
}

fn view(puzzle: &Puzzle) -> ApiResult<PuzzleView> {
    let position = parse(puzzle)?;
    let colour = position.colour_name(position.to_move());
    Ok(PuzzleView {
        id: puzzle.id.clone(),
        game: puzzle.game.as_str().to_owned(),
        size: puzzle.size,
        position: puzzle.position.clone(),
        difficulty: puzzle.difficulty,
        theme: puzzle.theme.as_str(),
        task: puzzle.theme.task(colour),
        board: position.view(),
    })
}

/// A list of puzzles.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleList {
    /// The puzzles, easiest first.
    puzzles: Vec<PuzzleView>,
}

/// The query of `GET /api/puzzles`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    /// Only this game's puzzles.
    game: Option<String>,
    /// At most this many, 1 to 200 (default 20).
    limit: Option<i64>,
    /// Only puzzles at least this hard.
    min_difficulty: Option<u32>,
    /// Only puzzles at most this hard.
    max_difficulty: Option<u32>,
}

/// Puzzles, easiest first, by game and difficulty, for anyone (without their solutions).
#[utoipa::path(get, path = "/api/puzzles", tag = "puzzles",
    params(
        ("game" = Option<String>, Query, description = "Only this game's: swaptimum, flipstop, scware or rapid-transit"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 200, description = "At most this many (default 20)"),
        ("min_difficulty" = Option<u32>, Query, description = "Only puzzles at least this hard"),
        ("max_difficulty" = Option<u32>, Query, description = "Only puzzles at most this hard"),
    ),
    responses(
        (status = 200, description = "The puzzles", body = PuzzleList),
        (status = 400, description = "An unknown game or a limit not 1 to 200", body = ErrorBody),
    ))]
pub(crate) async fn list(
    State(state): State<AppState>,
    Params(query): Params<ListQuery>,
) -> ApiResult<Json<PuzzleList>> {
    let game = query
        .game
        .as_deref()
        .map(|g| {
            let game = g
                .parse::<GameId>()
                .map_err(|e| ApiError::BadRequest(format!("game: {e}")))?;
            state.offered.check(game)
        })
        .transpose()?;
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_PUZZLES_LISTED).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit: {limit} is not 1 to {MAX_PUZZLES_LISTED}"
        )));
    }
    let filter = PuzzleFilter {
        game,
        min_difficulty: i64::from(query.min_difficulty.unwrap_or(0)),
        max_difficulty: i64::from(query.max_difficulty.unwrap_or(u32::MAX)),
        limit,
        offered: state.offered.games().to_vec(),
    };
    let puzzles = state.store.puzzles(filter).await?;
    Ok(Json(PuzzleList {
        puzzles: puzzles.iter().map(view).collect::<ApiResult<_>>()?,
    }))
}

/// The puzzle of the day: the same for everyone on a UTC day, for anyone.
#[utoipa::path(get, path = "/api/puzzles/daily", tag = "puzzles",
    responses(
        (status = 200, description = "Today's puzzle", body = PuzzleView),
        (status = 404, description = "The server has no puzzles", body = ErrorBody),
    ))]
pub(crate) async fn daily(State(state): State<AppState>) -> ApiResult<Json<PuzzleView>> {
    let day = state.clock.now_ms().div_euclid(DAY_MS);
    let puzzle = state
        .store
        .daily_puzzle(day, state.offered.games())
        .await?
        .ok_or_else(|| ApiError::NotFound("the server has no puzzles".to_owned()))?;
    Ok(Json(view(&puzzle)?))
}

/// The puzzle of that id, of a game the server offers, or 404.
async fn stored(state: &AppState, id: &str) -> ApiResult<Puzzle> {
    let puzzle = state
        .store
        .puzzle(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no puzzle {id:?}")))?;
    state.offered.check(puzzle.game)?;
    Ok(puzzle)
}

/// One puzzle, for anyone (without its solution).
#[utoipa::path(get, path = "/api/puzzles/{id}", tag = "puzzles",
    params(("id" = String, Path, description = "The puzzle's id")),
    responses(
        (status = 200, description = "The puzzle", body = PuzzleView),
        (status = 404, description = "No such puzzle", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<PuzzleView>> {
    Ok(Json(view(&stored(&state, &id).await?)?))
}

/// The body of an attempt (at a puzzle, or at a lesson's step).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttemptBody {
    /// The move tried, as the contract writes it.
    #[serde(rename = "move")]
    pub(crate) mv: String,
}

/// An account's record at the puzzles.
#[derive(Debug, Serialize, ToSchema)]
// Named apart from an account's record in a game (`api::RecordView`): the document's
// schemas share one namespace.
#[schema(as = PuzzleRecord)]
pub(crate) struct RecordView {
    /// Puzzles solved at the first attempt.
    solved: i64,
    /// Puzzles failed at the first attempt.
    failed: i64,
    /// Puzzles solved in a row, up to now.
    streak: i64,
    /// The longest such run.
    best_streak: i64,
}

impl From<PuzzleRecord> for RecordView {
    fn from(r: PuzzleRecord) -> RecordView {
        RecordView {
            solved: r.solved,
            failed: r.failed,
            streak: r.streak,
            best_streak: r.best_streak,
        }
    }
}

/// The judgement of an attempt.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AttemptAnswer {
    /// Whether the move wins.
    correct: bool,
    /// The winning move.
    solution: String,
    /// A right move's proven main line to the game's end; for a wrong move, that move and
    /// the opponent's refutation.
    line: Vec<String>,
    /// Why, in words.
    why: String,
    /// What a board picture shows after each move of `line`, in order.
    boards: Vec<BoardView>,
    /// The caller's record after this attempt (only the first attempt at a puzzle counts);
    /// `null` for a caller who is not signed in.
    record: Option<RecordView>,
}

/// Judges a move at a puzzle: right or wrong, with the proof's line or the refutation, and
/// why in words; for a signed-in caller the first attempt at each puzzle is recorded
/// (solved or failed, and the streak).
#[utoipa::path(post, path = "/api/puzzles/{id}/attempt", tag = "puzzles",
    params(("id" = String, Path, description = "The puzzle's id")),
    request_body = AttemptBody,
    responses(
        (status = 200, description = "The judgement", body = AttemptAnswer),
        (status = 400, description = "A move that does not read", body = ErrorBody),
        (status = 404, description = "No such puzzle", body = ErrorBody),
        (status = 422, description = "`illegal_move`: the rules refuse the move there", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn attempt(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path(id): Path<String>,
    Body(body): Body<AttemptBody>,
) -> ApiResult<Json<AttemptAnswer>> {
    let puzzle = stored(&state, &id).await?;
    // A solver's proof, not a level's search: level 0 in the metrics.
    let judged: Attempt = state
        .ai
        .think("puzzle", 0, {
            let puzzle = puzzle.clone();
            move || puzzles::judge(&puzzle, &body.mv, JUDGE_BUDGET)
        })
        .await?
        .map_err(|e| match e {
            AttemptError::Move(refusal @ RulesError::Unreadable { .. }) => {
                ApiError::BadRequest(format!("move: {refusal}"))
            }
            AttemptError::Move(refusal) => ApiError::IllegalMove {
                rule: rule_code(&refusal),
                reason: refusal.to_string(),
            },
            AttemptError::Position(reason) => {
                ApiError::Internal(anyhow::anyhow!("puzzle {}: {reason}", puzzle.id))
            }
        })?;
    let record = match caller {
        Some(caller) => Some(
            state
                .store
                .record_attempt(
                    caller.holder.account_id,
                    &puzzle.id,
                    judged.correct,
                    state.clock.now_ms(),
                )
                .await?
                .into(),
        ),
        None => None,
    };
    let mut position = parse(&puzzle)?;
    let boards = judged
        .line
        .iter()
        .map(|mv| {
            position.play_text(mv).map_err(|e| {
                ApiError::Internal(anyhow::anyhow!("puzzle {}: line {mv}: {e}", puzzle.id))
            })?;
            Ok(position.view())
        })
        .collect::<ApiResult<_>>()?;
    Ok(Json(AttemptAnswer {
        boards,
        correct: judged.correct,
        solution: judged.solution,
        line: judged.line,
        why: judged.why,
        record,
    }))
}

/// The moves of a server's latest `limit` finished games of `game` on a board of `size`
/// (`swapboard puzzles generate --database`), read on a runtime of its own.
pub fn finished_games(
    database: Option<&str>,
    game: GameId,
    size: usize,
    limit: u32,
) -> anyhow::Result<Vec<Vec<String>>> {
    let url = crate::backup::database_url(database);
    let size = u32::try_from(size)?;
    crate::backup::runtime()?.block_on(async {
        let store = Store::open_as_is(&url).await?;
        let games = store.finished_moves(game.as_str(), size, limit).await;
        store.close().await;
        games
    })
}
