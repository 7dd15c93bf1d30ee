//! What the server's searches share, known to every handler through `AppState` without
//! knowing how the AI plays: the permits that bound how many cores searches take, the
//! wake-ups that the AI's loop (`crate::ai::serve`) reads to write the AI's jobs, and the
//! signal that tells this instance's embedded worker a job is waiting. A move handler wakes
//! the AI by naming a game; it never calls into the AI, so the move pipeline and the AI that
//! plays through it do not import each other.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{Notify, Semaphore, mpsc};

use crate::instruments;

/// The AI players of one server.
#[derive(Debug)]
pub(crate) struct AiPlayers {
    /// One permit per search running at once.
    permits: Arc<Semaphore>,
    /// The games to look at, for the AI's loop.
    wakeups: mpsc::UnboundedSender<String>,
    /// Signalled when a job was written here, for the embedded worker (which also polls:
    /// other instances write jobs too).
    ready: Arc<Notify>,
}

/// The receiving end of the wake-ups, for the AI's loop.
pub(crate) type Wakeups = mpsc::UnboundedReceiver<String>;

impl AiPlayers {
    /// AI players that run at most `searches` searches at once, and the queue their loop reads.
    pub(crate) fn new(searches: usize) -> (AiPlayers, Wakeups) {
        let (wakeups, receiver) = mpsc::unbounded_channel();
        let players = AiPlayers {
            permits: Arc::new(Semaphore::new(searches.max(1))),
            wakeups,
            ready: Arc::new(Notify::new()),
        };
        (players, receiver)
    }

    /// Asks the AI's loop to write the AI's job in the game if an AI seat is to move there.
    pub(crate) fn wake(&self, game_id: &str) {
        // A stopped loop means the server is shutting down; a restart resumes the game.
        drop(self.wakeups.send(game_id.to_owned()));
    }

    /// The permits every search of this server shares.
    pub(crate) fn permits(&self) -> Arc<Semaphore> {
        Arc::clone(&self.permits)
    }

    /// The signal of a job written by this instance.
    pub(crate) fn ready(&self) -> Arc<Notify> {
        Arc::clone(&self.ready)
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
        think(&self.permits, kind, level, search).await
    }
}

/// As [`AiPlayers::think`], with the permits of a worker.
pub(crate) async fn think<T: Send + 'static>(
    permits: &Arc<Semaphore>,
    kind: &'static str,
    level: u8,
    search: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    instruments::ai_waiting(1.0);
    let permit = Arc::clone(permits).acquire_owned().await;
    instruments::ai_waiting(-1.0);
    let permit = permit?;
    Ok(tokio::task::spawn_blocking(move || {
        let _permit = permit;
        // Real time, not the server's clock: a search's duration, for the metrics.
        let began = Instant::now();
        let thought = search();
        instruments::ai_search(kind, level, began.elapsed());
        thought
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn each_wake_up_reaches_the_loop() {
        let (players, mut wakeups) = AiPlayers::new(1);
        players.wake("g1");
        players.wake("g2");
        assert_eq!(wakeups.recv().await.as_deref(), Some("g1"));
        assert_eq!(wakeups.recv().await.as_deref(), Some("g2"));
    }

    #[test]
    fn seeds_differ_by_game_and_ply() {
        assert_eq!(seed_of("g", 3), seed_of("g", 3));
        assert_ne!(seed_of("g", 3), seed_of("g", 4));
        assert_ne!(seed_of("g", 3), seed_of("h", 3));
    }
}
