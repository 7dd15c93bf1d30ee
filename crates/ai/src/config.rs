use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use swapboard_core::Game;

use crate::Analysis;

/// How the search searches: its constants, its memory, its threads and its seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The UCT exploration constant `c` in `c * sqrt(ln N / n)`.
    pub exploration: f32,
    /// The RAVE equivalence parameter `k`: a move's all-moves-as-first mean weighs
    /// `beta = m / (n + m + n m / k)` (n its visits, m its AMAF visits), about a half once
    /// `n` reaches `k`; `None` for plain UCT.
    pub rave_equivalence: Option<f32>,
    /// Whether proven results are carried up the tree (MCTS-Solver). Finished positions are
    /// always recognised; this makes a node won as soon as one move wins, and lost or drawn
    /// once every move is proven.
    pub solver: bool,
    /// The value a never-visited move without RAVE statistics is given, so that every move
    /// is tried before any is tried twice when it is above 1.
    pub first_play_urgency: f32,
    /// Whether all-moves-as-first statistics pool moves by the cells they fill, where the
    /// game names them ([`swapboard_core::Game::amaf_cells`]), and count the stones of the
    /// whole moves a step game's playouts play (without it only the decisions of the tree
    /// and of the turn in progress count).
    pub amaf_by_cells: bool,
    /// The weight of the game's move prior ([`swapboard_core::Game::move_prior`]), as a bias
    /// `weight * prior / (n + 1)` that fades with visits.
    pub prior_weight: f32,
    /// A leaf gets its children once it has been visited this many times (the root always
    /// has them): higher values save memory, lower ones grow the tree faster.
    pub expand_visits: u32,
    /// The moves a playout draws at each ply to play the one the game scores highest
    /// ([`swapboard_core::play_out_best_of`]); 1 plays the game's own playout
    /// ([`swapboard_core::Game::play_out`]).
    pub playout_draws: u32,
    /// The tree stops growing at this many nodes; the search goes on with playouts from its
    /// leaves.
    pub max_nodes: usize,
    /// A playout stops after this many decisions and is scored by the game's evaluation
    /// ([`swapboard_core::Game::evaluation`]), or as a draw (games that can cycle).
    pub playout_cap: u32,
    /// The number of threads, all growing one tree (tree parallelism with a virtual loss).
    /// Only one thread is reproducible.
    pub threads: usize,
    /// The seed of the random choices.
    pub seed: u64,
}

impl Config {
    /// The weight of a game's learned move priors where it has them, as measured against
    /// `classic` in `docs/AI.md` ("Learned priors").
    pub const PRIOR_WEIGHT: f32 = 0.5;

    /// The search measured strongest on game `G` (`docs/AI.md`, "Exploration with the
    /// priors"), with `seed`: on a game with learned priors ([`Game::MOVE_PRIORS`]) those
    /// priors at [`Config::PRIOR_WEIGHT`] and no exploration term, since with RAVE they
    /// already spread the search and every lower constant played better down to none;
    /// without priors an exploration constant of 0.1, half the default's; and, on every
    /// game, all-moves-as-first statistics pooled by cells where the game names them (Scware,
    /// "Cells for all-moves-as-first") and playouts drawing the game's
    /// [`Game::PLAYOUT_DRAWS`] moves a ply (Rapid Transit, "Playouts that choose"). The
    /// levels and every `mcts` search start from it.
    pub fn for_game<G: Game>(seed: u64) -> Config {
        let (exploration, prior_weight) = if G::MOVE_PRIORS {
            (0.0, Config::PRIOR_WEIGHT)
        } else {
            (0.1, 0.0)
        };
        Config {
            exploration,
            prior_weight,
            amaf_by_cells: true,
            playout_draws: G::PLAYOUT_DRAWS,
            seed,
            ..Config::default()
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            exploration: 0.2,
            rave_equivalence: Some(600.0),
            solver: true,
            first_play_urgency: 1.1,
            // Off, like the priors: the game's tuned search turns it on ([`Config::for_game`]).
            amaf_by_cells: false,
            // Off: a game's priors are weighed by the search tuned for it
            // ([`Config::for_game`]), which is what the levels and bots play.
            prior_weight: 0.0,
            expand_visits: 4,
            playout_draws: 1,
            max_nodes: 4_000_000,
            playout_cap: 1_000,
            threads: 1,
            seed: 1,
        }
    }
}

/// How long one search goes on: whichever of its limits comes first.
///
/// A budget with no limit at all runs [`Budget::DEFAULT_ITERATIONS`] iterations, so a
/// search always ends.
#[derive(Debug, Clone, Default)]
pub struct Budget {
    /// The number of iterations (playouts) of this search.
    pub iterations: Option<u64>,
    /// The wall-clock time of this search.
    pub time: Option<Duration>,
    /// A flag another thread sets to stop the search (an engine's `stop` command).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// The iterations run by a budget that sets no limit.
    pub const DEFAULT_ITERATIONS: u64 = 10_000;

    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            ..Budget::default()
        }
    }

    /// A budget of wall-clock time.
    pub fn time(limit: Duration) -> Budget {
        Budget {
            time: Some(limit),
            ..Budget::default()
        }
    }

    /// A budget that runs until `flag` is set.
    pub fn until_stopped(flag: Arc<AtomicBool>) -> Budget {
        Budget {
            stop: Some(flag),
            ..Budget::default()
        }
    }

    /// This budget, also stopped by `flag`.
    pub fn with_stop(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.stop = Some(flag);
        self
    }

    /// The iteration limit in force (the default when no limit at all is set).
    pub(crate) fn iteration_limit(&self) -> u64 {
        match (self.iterations, self.time, &self.stop) {
            (Some(n), _, _) => n,
            (None, None, None) => Budget::DEFAULT_ITERATIONS,
            _ => u64::MAX,
        }
    }

    /// The budget of the extra search [`crate::Mcts::think_extended`] gives a critical
    /// position after a search within this budget found `first`: up to `extra` more, within
    /// the iterations left. `None` when the search ran its iterations (the time did not cut
    /// it short), was stopped, or settled its best move
    /// ([`crate::Analysis::is_unsettled`]).
    pub fn extension<M>(&self, first: &Analysis<M>, extra: Duration) -> Option<Budget> {
        let iterations_left = self.iterations.map(|n| n.saturating_sub(first.iterations));
        let cut_short = self.time.is_some() && iterations_left != Some(0);
        (cut_short && !extra.is_zero() && !self.stopped() && first.is_unsettled()).then(|| Budget {
            iterations: iterations_left,
            time: Some(extra),
            stop: self.stop.clone(),
        })
    }

    /// Whether the stop flag is set.
    pub(crate) fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}
