use std::fmt;
use std::time::Duration;

use swapboard_core::Game;

use crate::{Budget, Config};

/// A strength level from 1 (a beginner who blunders) to 8 (the strongest setting, about a
/// second of CPU a move on average in every game, up to three in the most crowded Scware
/// positions), the same for every game.
///
/// Levels differ by their iteration budget (each about three times the one below) and, at
/// the bottom, by the knowledge the search uses. A game whose iterations cost more
/// ([`Game::SEARCH_COST`]: Scware) gets budgets divided by that cost, so level 8 stays near
/// two seconds there too. Level 8 is also capped by time, as a guard only: the cap is wide
/// enough that on a loaded machine it still searches far more than level 7, whose budget is
/// fixed. The ladder measured per game is in `docs/AI.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(8);

    /// The level `k`, if it is one of 1 to 8.
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
        const ITERATIONS: [u64; 8] = [12, 60, 250, 1_000, 4_000, 15_000, 50_000, 150_000];
        (ITERATIONS[usize::from(self.0 - 1)] / u64::from(G::SEARCH_COST.max(1))).max(1)
    }

    /// The search configuration of this level, with `seed`.
    pub fn config(self, seed: u64) -> Config {
        self.adjust(Config {
            seed,
            ..Config::default()
        })
    }

    /// `base` with this level's differences (the knowledge the weakest levels lack), shared
    /// by the default search and the frozen [`crate::classic`] one.
    pub(crate) fn adjust(self, base: Config) -> Config {
        match self.0 {
            // The beginner explores wildly and knows nothing of all-moves-as-first: its
            // few playouts are spread thin and it misses what it does not stumble on.
            1 | 2 => Config {
                exploration: 1.0,
                rave_equivalence: None,
                solver: self.0 == 2,
                ..base
            },
            _ => base,
        }
    }

    /// The budget of one move of game `G` at this level.
    pub fn budget<G: Game>(self) -> Budget {
        let mut budget = Budget::iterations(self.iterations::<G>());
        if self == Level::MAX {
            budget.time = Some(Duration::from_secs(10));
        }
        budget
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
