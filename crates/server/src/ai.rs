//! The AI's seats: when an AI is to move, a job is written for its move (in the transaction
//! that makes it its turn, or here when a game is made, joined or resumed), and an AI worker
//! (`crate::ai_worker`: embedded in `serve`, or `swapboard ai-worker` processes anywhere)
//! claims it, thinks the move and plays it through the same pipeline as a person's.
//!
//! Searches are CPU work: each runs on `spawn_blocking` with one search thread, behind a
//! semaphore whose size bounds how many cores the AI may take, so the HTTP workers always
//! have theirs. The search tree is capped in nodes, which caps its memory. Nothing is kept
//! between moves: any worker can play the AI's next move. A move thought twice (a lease
//! that ran out while its worker still thought) loses the race at the pipeline's ply check,
//! so a move is never played twice.

pub(crate) mod players;

use std::sync::Arc;
use std::time::{Duration, Instant};

use swapboard_play::{AiRequest, AnyPosition, Level};
use tokio::sync::Semaphore;

use crate::games::moves::{Plies, judge};
use crate::games::view::{now, start_of};
use crate::instruments;
use crate::limits::ai::{MAX_NODES, NO_CLOCK_LIMIT};
use crate::state::AppState;
use crate::store::{AiJob, Landed, MoveError, Status, Store, seat_of};
use players::{Wakeups, seed_of, think};

/// The AI's loop: writes the AI's job in each game it is woken for (if an AI is to move
/// there) and signals the embedded worker, for as long as the server runs.
pub(crate) async fn serve(state: AppState, mut wakeups: Wakeups) {
    while let Some(game_id) = wakeups.recv().await {
        let state = state.clone();
        tokio::spawn(async move {
            match enqueue(&state.store, &game_id).await {
                Ok(()) => state.ai.ready().notify_one(),
                Err(e) => tracing::warn!(game = game_id, "ai: cannot write its job: {e:#}"),
            }
        });
    }
}

/// Writes the job for the AI's move in every game being played with an AI seat (a server
/// or a worker starting): the jobs of games made before this table, or whose job was lost.
pub(crate) async fn resume_all(store: &Store) -> anyhow::Result<usize> {
    let games = store.games_with_ai().await?;
    for id in &games {
        enqueue(store, id).await?;
    }
    Ok(games.len())
}

/// Writes the job for the AI's move in the game if it is being played and an AI is to move.
async fn enqueue(store: &Store, game_id: &str) -> anyhow::Result<()> {
    let Some(game) = store.game(game_id).await? else {
        return Ok(());
    };
    if game.status != Status::Playing {
        return Ok(());
    }
    let position: AnyPosition = game
        .position
        .parse()
        .map_err(|e| anyhow::anyhow!("stored position: {e}"))?;
    store
        .enqueue_ai_job(game_id, game.ply, seat_of(position.to_move()))
        .await
}

/// Thinks and plays the AI's move of a claimed job; the plies it added (its move and the
/// passes the rules forced after it), or `None` when the job was stale (the game moved on
/// or ended, or another worker played first), which is then dropped.
pub(crate) async fn play_job(
    store: &Store,
    permits: &Arc<Semaphore>,
    job: &AiJob,
) -> anyhow::Result<Option<Plies>> {
    let thought = match think_job(store, permits, job).await? {
        Some(thought) => thought,
        None => {
            store.drop_ai_job(job).await?;
            return Ok(None);
        }
    };
    let (seat, text) = thought;
    // The move's transaction removes the job.
    match store
        .play_move(&job.game_id, job.ply, seat, &text, judge)
        .await
    {
        Ok(Landed::Played(played)) => {
            instruments::move_offered(None, true);
            Ok(Some(Plies {
                before: job.ply,
                after: played.ply,
            }))
        }
        Ok(Landed::Repeated(_)) | Err(MoveError::Stale { .. } | MoveError::NotPlaying(_)) => {
            store.drop_ai_job(job).await?;
            Ok(None)
        }
        Err(e) => Err(anyhow::anyhow!("its move {text}: {e:?}")),
    }
}

/// The AI's seat and move for a job, or `None` when the job is stale.
async fn think_job(
    store: &Store,
    permits: &Arc<Semaphore>,
    job: &AiJob,
) -> anyhow::Result<Option<(u8, String)>> {
    let game_id = job.game_id.as_str();
    let Some(game) = store.game(game_id).await? else {
        return Ok(None);
    };
    if game.status != Status::Playing || game.ply != job.ply {
        return Ok(None);
    }
    let position: AnyPosition = game
        .position
        .parse()
        .map_err(|e| anyhow::anyhow!("stored position: {e}"))?;
    let seat = seat_of(position.to_move());
    let seats = store.seats(game_id).await?;
    let Some(level) = seats
        .iter()
        .find(|row| row.seat == seat)
        .and_then(|row| row.ai_level)
        .and_then(Level::new)
    else {
        return Ok(None);
    };
    let (limit, extra) = match game.times {
        Some(times) => times
            .clock(game.clock, position.to_move())
            .ai_budget(now(store.clock()))
            .map_or((None, Duration::ZERO), |budget| {
                let (limit, extra) = budget.limits();
                (Some(limit), extra)
            }),
        None => (Some(NO_CLOCK_LIMIT), Duration::ZERO),
    };
    // The AI is told the game and not only its position, to know where its board's book
    // leads; the moves come from the store's cache.
    let start = start_of(&game)?;
    let moves = store.moves_up_to(game_id, game.ply).await?;
    let seed = seed_of(game_id, game.ply);
    // The clock runs while the search waits for a permit: the wait comes off its time. Real
    // time, not the server's clock: the search's budget is spent in real time.
    let asked = Instant::now();
    let thought = think(permits, "move", level.number(), move || {
        let waited = asked.elapsed();
        let (limit, extra) = match limit {
            Some(limit) if limit > waited => (Some(limit - waited), extra),
            Some(limit) => (
                Some(Duration::from_millis(1)),
                (limit + extra).saturating_sub(waited),
            ),
            None => (None, extra),
        };
        start.ai_move(
            &moves,
            AiRequest {
                level,
                limit,
                extra,
                seed,
                max_nodes: MAX_NODES,
            },
        )
    })
    .await?
    .map_err(|e| anyhow::anyhow!("game {game_id}: its moves: {e}"))?;
    Ok(thought.map(|text| (seat, text)))
}
