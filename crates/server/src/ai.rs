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

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use swapboard_play::{AiRequest, AnyPosition, Level};
use tokio::sync::Semaphore;

use crate::games::moves::{Plies, announce_plies, judge};
use crate::games::now;
use crate::state::AppState;
use crate::store::{Landed, MoveError, Status, seat_of};

/// The search tree's node cap: a few hundred megabytes at most whatever the level.
pub(crate) const MAX_NODES: usize = 1_000_000;
/// The longest the AI thinks without a clock (level 8 is capped at 10 s by its own budget).
pub(crate) const NO_CLOCK_LIMIT: Duration = Duration::from_secs(10);

/// The AI players of one server.
#[derive(Debug)]
pub(crate) struct AiPlayers {
    /// One permit per search running at once.
    permits: Arc<Semaphore>,
    /// The games whose turn this instance is looking at now, each with whether it was
    /// woken again meanwhile (then it looks once more when done: the game may have moved on
    /// since it was read).
    looking: Mutex<HashMap<String, bool>>,
}

impl AiPlayers {
    /// AI players that run at most `searches` searches at once.
    pub(crate) fn new(searches: usize) -> AiPlayers {
        AiPlayers {
            permits: Arc::new(Semaphore::new(searches.max(1))),
            looking: Mutex::new(HashMap::new()),
        }
    }

    /// Marks a game as looked at here; false if it already is (it is then marked to be
    /// looked at again).
    fn begin(&self, game_id: &str) -> bool {
        let mut looking = self.looking.lock().unwrap_or_else(|e| e.into_inner());
        match looking.get_mut(game_id) {
            Some(again) => {
                *again = true;
                false
            }
            None => {
                looking.insert(game_id.to_owned(), false);
                true
            }
        }
    }

    /// Ends a look at a game; true when it was woken meanwhile and must be looked at again.
    fn end(&self, game_id: &str) -> bool {
        let mut looking = self.looking.lock().unwrap_or_else(|e| e.into_inner());
        match looking.get_mut(game_id) {
            Some(again) if *again => {
                *again = false;
                true
            }
            _ => {
                looking.remove(game_id);
                false
            }
        }
    }
}

/// Plays the AI's move in the game if an AI seat is to move there, in the background.
pub(crate) fn wake(state: &AppState, game_id: &str) {
    if !state.ai.begin(game_id) {
        return;
    }
    let state = state.clone();
    let game_id = game_id.to_owned();
    tokio::spawn(async move {
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
    });
}

/// Wakes the AI in every game being played with an AI seat (a server starting).
pub(crate) async fn resume_all(state: &AppState) -> anyhow::Result<usize> {
    let games = state.store.games_with_ai().await?;
    for id in &games {
        wake(state, id);
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
    let (limit, extra) = match game.times {
        Some(times) => times
            .clock(game.clock, position.to_move())
            .ai_budget(now())
            .map_or((None, Duration::ZERO), |budget| {
                let (limit, extra) = budget.limits();
                (Some(limit), extra)
            }),
        None => (Some(NO_CLOCK_LIMIT), Duration::ZERO),
    };
    let seed = seed_of(game_id, game.ply);
    // The clock runs while the search waits for a permit: the wait comes off its time.
    let asked = Instant::now();
    let thought = think(state, move || {
        let waited = asked.elapsed();
        let (limit, extra) = match limit {
            Some(limit) if limit > waited => (Some(limit - waited), extra),
            Some(limit) => (
                Some(Duration::from_millis(1)),
                (limit + extra).saturating_sub(waited),
            ),
            None => (None, extra),
        };
        position.ai_move(AiRequest {
            level,
            limit,
            extra,
            seed,
            max_nodes: MAX_NODES,
        })
    })
    .await?;
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

/// Runs a search on the blocking pool once one of the AI's permits is free: every search
/// of the server (the AI's moves, analyses, reviews) shares the cores the permits allow.
pub(crate) async fn think<T: Send + 'static>(
    state: &AppState,
    search: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    let permit = state.ai.permits.clone().acquire_owned().await?;
    Ok(tokio::task::spawn_blocking(move || {
        let _permit = permit;
        search()
    })
    .await?)
}

/// A search seed from the game and the ply: the same game replays the same way in tests,
/// and different games differ.
pub(crate) fn seed_of(game_id: &str, ply: u32) -> u64 {
    game_id.bytes().fold(
        u64::from(ply).wrapping_add(0x9e37_79b9_7f4a_7c15),
        |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3),
    )
}
