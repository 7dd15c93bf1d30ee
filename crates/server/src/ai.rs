//! The AI's seats: when an AI is to move, its move is thought on the blocking pool and played
//! through the same pipeline as a person's.
//!
//! Searches are CPU work: each runs on `spawn_blocking` with one search thread, behind a
//! semaphore whose size bounds how many cores the AI may take, so the HTTP workers always
//! have theirs. The search tree is capped in nodes, which caps its memory. Nothing is kept
//! between moves: any instance can play the AI's next move, and a restarted server resumes
//! every AI game whose turn it is. A wake-up for a game this instance is already looking at
//! makes that look go round once more (the game may have moved since it was read; dropping
//! the wake-up lost the AI's turn); a move thought on two instances at once loses the race
//! at the pipeline's ply check, so a move is never played twice.

pub(crate) mod players;

use std::time::Duration;

use swapboard_play::{AiRequest, AnyPosition, Level};

use crate::games::moves::{Plies, announce_plies, judge};
use crate::games::view::now;
use crate::state::AppState;
use crate::store::{Landed, MoveError, Status, seat_of};
use players::{MAX_NODES, NO_CLOCK_LIMIT, Wakeups, seed_of};

/// The AI's loop: plays the AI's turn in each game it is woken for, each game in a task of
/// its own, for as long as the server runs (it is one of the server's background tasks).
pub(crate) async fn serve(state: AppState, mut wakeups: Wakeups) {
    while let Some(game_id) = wakeups.recv().await {
        tokio::spawn(look_at(state.clone(), game_id));
    }
}

/// Plays the AI's turns in one game for as long as it is woken meanwhile.
async fn look_at(state: AppState, game_id: String) {
    loop {
        let result = play_turn(&state, &game_id).await;
        if let Err(e) = &result {
            tracing::warn!(game = game_id, "ai: {e:#}");
        }
        if let Ok(Some(plies)) = result {
            // Announced without waking the AI again here: the loop looks once more.
            announce_plies(&state, &game_id, plies).await;
            continue;
        }
        if !state.ai.end(&game_id) {
            break;
        }
    }
}

/// Wakes the AI in every game being played with an AI seat (a server starting).
pub(crate) async fn resume_all(state: &AppState) -> anyhow::Result<usize> {
    let games = state.store.games_with_ai().await?;
    for id in &games {
        state.ai.wake(id);
    }
    Ok(games.len())
}

/// Thinks and plays the AI's move if it is its turn; the plies it added (its move and the
/// passes the rules forced after it), or `None` when it was not its turn (or another
/// instance played first).
async fn play_turn(state: &AppState, game_id: &str) -> anyhow::Result<Option<Plies>> {
    let Some(game) = state.store.game(game_id).await? else {
        return Ok(None);
    };
    if game.status != Status::Playing {
        return Ok(None);
    }
    let position: AnyPosition = game
        .position
        .parse()
        .map_err(|e| anyhow::anyhow!("stored position: {e}"))?;
    let seat = seat_of(position.to_move());
    let seats = state.store.seats(game_id).await?;
    let Some(level) = seats
        .iter()
        .find(|row| row.seat == seat)
        .and_then(|row| row.ai_level)
        .and_then(Level::new)
    else {
        return Ok(None);
    };
    let limit = match game.times {
        Some(times) => times
            .clock(game.clock, position.to_move())
            .ai_budget(now())
            .map(|budget| Duration::from_millis(budget.recommended.0.max(1))),
        None => Some(NO_CLOCK_LIMIT),
    };
    let request = AiRequest {
        level,
        limit,
        seed: seed_of(game_id, game.ply),
        max_nodes: MAX_NODES,
    };
    let thought = state.ai.think(move || position.ai_move(request)).await?;
    let Some(text) = thought else {
        return Ok(None);
    };
    match state
        .store
        .play_move(game_id, game.ply, seat, &text, judge)
        .await
    {
        Ok(Landed::Played(played)) => Ok(Some(Plies {
            before: game.ply,
            after: played.ply,
        })),
        Ok(Landed::Repeated(_)) | Err(MoveError::Stale { .. } | MoveError::NotPlaying(_)) => {
            Ok(None)
        }
        Err(e) => Err(anyhow::anyhow!("its move {text}: {e:?}")),
    }
}
