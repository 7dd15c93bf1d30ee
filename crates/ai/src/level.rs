use std::fmt;
use std::time::Duration;

use swapboard_core::Game;

use crate::{Budget, Config};

/// A strength level from 1 (a beginner who blunders) to 9, the same for every game: 8 is
/// the strongest a server plays (about a second of CPU a move on average in every game, up
/// to three in the most crowded Scware positions), 9 the strongest there is, for analysis
/// and bots on one's own machine (three times level 8's search, on every core).
///
/// Levels differ by their iteration budget (each about three times the one below) and, at
/// the bottom, by the knowledge the search uses. A game whose iterations cost more
/// ([`Game::SEARCH_COST`]: Scware) gets budgets divided by that cost, so level 8 stays near
/// two seconds there too. Levels 8 and 9 are also capped by time, as a guard only: the cap
/// is wide enough that on a loaded machine it still searches far more than the level
/// below, whose budget is fixed. Levels 1 to 8 search on one thread and replay the same
/// moves from a seed; level 9 searches one tree on every core ([`Level::threads`]), with
/// level 9's iterations for each core, so it does not.
/// The ladder measured per game is in `docs/AI.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(9);
    /// The strongest level a server offers (games against the AI, analyses), and the
    /// strongest of the frozen [`crate::classic`] search, which predates level 9: level 9
    /// takes every core for up to 30 s a move, which is for one's own machine (the
    /// terminal, the engine, `swapboard bot`, the arena).
    pub const MAX_SERVED: Level = Level(8);
    /// The most threads level 9 searches on, however many cores the machine has.
    const MAX_THREADS: usize = 64;

    /// The level `k`, if it is one of 1 to 9.
    pub fn new(k: u8) -> Option<Level> {
        (Level::MIN.0..=Level::MAX.0)
            .contains(&k)
            .then_some(Level(k))
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The iterations a move of game `G` gets at this level.
    pub fn iterations<G: Game>(self) -> u64 {
        const ITERATIONS: [u64; 9] = [12, 60, 250, 1_000, 4_000, 15_000, 50_000, 150_000, 450_000];
        (ITERATIONS[usize::from(self.0 - 1)] / u64::from(G::SEARCH_COST.max(1))).max(1)
    }

    /// The search configuration of this level on game `G`, with `seed`: the search tuned
    /// for the game ([`Config::for_game`]), with the level's threads and differences.
    pub fn config<G: Game>(self, seed: u64) -> Config {
        let threads = self.threads();
        let base = Config::for_game::<G>(seed);
        self.adjust(Config {
            threads,
            // The threads share one tree: as many nodes for each as one thread may grow.
            max_nodes: base.max_nodes * threads,
            ..base
        })
    }

    /// The threads this level searches on: one, but every core the machine offers (at most
    /// 64) at level 9. A caller may ask for fewer (the engine's `threads=N`).
    pub fn threads(self) -> usize {
        if self == Level::MAX {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(Level::MAX_THREADS)
        } else {
            1
        }
    }

    /// `base` with this level's differences (the knowledge the weakest levels lack), shared
    /// by the default search and the frozen [`crate::classic`] one.
    pub(crate) fn adjust(self, base: Config) -> Config {
        match self.0 {
            // The beginner explores wildly and knows nothing of all-moves-as-first nor of
            // the learned priors: its few playouts are spread thin and it misses what it
            // does not stumble on.
            1 | 2 => Config {
                exploration: 1.0,
                rave_equivalence: None,
                prior_weight: 0.0,
                solver: self.0 == 2,
                ..base
            },
            _ => base,
        }
    }

    /// The budget of one move of game `G` at this level, on the level's own threads.
    pub fn budget<G: Game>(self) -> Budget {
        self.budget_on::<G>(self.threads())
    }

    /// The budget of one move of game `G` at this level searched on `threads` threads:
    /// level 9's iterations are a thread's (its tree gets that many for each thread, so every
    /// core adds to the search), the other levels' are the whole search's.
    pub fn budget_on<G: Game>(self, threads: usize) -> Budget {
        let per_search = self.iterations::<G>();
        let iterations = if self == Level::MAX {
            per_search.saturating_mul(threads.max(1) as u64)
        } else {
            per_search
        };
        let mut budget = Budget::iterations(iterations);
        budget.time = match self.0 {
            8 => Some(Duration::from_secs(10)),
            9 => Some(Duration::from_secs(30)),
            _ => None,
        };
        budget
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
