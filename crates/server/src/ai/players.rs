//! What the server's searches share, known to every handler through `AppState` without
//! knowing how the AI plays: the permits that bound how many cores searches take, the games
//! whose AI turn this instance is looking at, and the queue of wake-ups that the AI's loop
//! (`crate::ai::serve`) reads. A move handler wakes the AI by naming a game; it never calls
//! into the AI, so the move pipeline and the AI that plays through it do not import each
//! other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc};

use crate::instruments;

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
    /// The games to look at, for the AI's loop. Unbounded, yet bounded in fact: a game is
    /// sent only when it is not already being looked at.
    wakeups: mpsc::UnboundedSender<String>,
}

/// The receiving end of the wake-ups, for the AI's loop.
pub(crate) type Wakeups = mpsc::UnboundedReceiver<String>;

impl AiPlayers {
    /// AI players that run at most `searches` searches at once, and the queue their loop reads.
    pub(crate) fn new(searches: usize) -> (AiPlayers, Wakeups) {
        let (wakeups, receiver) = mpsc::unbounded_channel();
        let players = AiPlayers {
            permits: Arc::new(Semaphore::new(searches.max(1))),
            looking: Mutex::new(HashMap::new()),
            wakeups,
        };
        (players, receiver)
    }

    /// Asks the AI's loop to play the AI's move in the game if an AI seat is to move there.
    /// A game already being looked at is marked to be looked at once more instead.
    pub(crate) fn wake(&self, game_id: &str) {
        if self.begin(game_id) && self.wakeups.send(game_id.to_owned()).is_err() {
            // The loop has stopped: the server is shutting down, and a restart resumes the game.
            self.end(game_id);
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
    pub(crate) fn end(&self, game_id: &str) -> bool {
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

    /// Runs a search on the blocking pool once one of the permits is free: every search of
    /// the server (the AI's moves, analyses, reviews) shares the cores the permits allow.
    /// `kind` (`move`, `analysis`, `review`, `puzzle`) and `level` label its time in the
    /// metrics.
    pub(crate) async fn think<T: Send + 'static>(
        &self,
        kind: &'static str,
        level: u8,
        search: impl FnOnce() -> T + Send + 'static,
    ) -> anyhow::Result<T> {
        instruments::ai_waiting(1.0);
        let permit = self.permits.clone().acquire_owned().await;
        instruments::ai_waiting(-1.0);
        let permit = permit?;
        Ok(tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let began = Instant::now();
            let thought = search();
            instruments::ai_search(kind, level, began.elapsed());
            thought
        })
        .await?)
    }
}

/// A search seed from the game and the ply: the same game replays the same way in tests,
/// and different games differ.
pub(crate) fn seed_of(game_id: &str, ply: u32) -> u64 {
    game_id.bytes().fold(
        u64::from(ply).wrapping_add(0x9e37_79b9_7f4a_7c15),
        |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_game_woken_while_looked_at_is_looked_at_once_more_and_sent_once() {
        let (players, mut wakeups) = AiPlayers::new(1);
        players.wake("g1");
        players.wake("g1");
        players.wake("g1");
        assert_eq!(wakeups.recv().await.as_deref(), Some("g1"));
        assert!(wakeups.try_recv().is_err(), "one wake-up queued for a game");
        assert!(players.end("g1"), "woken meanwhile: look again");
        assert!(!players.end("g1"), "not woken since: done");
        players.wake("g1");
        assert_eq!(wakeups.recv().await.as_deref(), Some("g1"));
    }
}
