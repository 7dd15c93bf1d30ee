//! `classic`: the search as it stood before the work of issue 28, frozen as the reference
//! every later search is measured against (`classic:ms=T`, `classic:level=N` in a player
//! spec).
//!
//! Its constants are written out here rather than taken from [`Config::default`], so that
//! tuning the default search cannot move the reference. The iteration code is shared with
//! the default search; the test `classic_is_frozen` in `tests/classic.rs` pins the moves it
//! chooses for fixed seeds and budgets, so a change to that code that alters what `classic`
//! plays fails CI instead of silently moving the yardstick.

use swapboard_core::Game;

use crate::{Budget, Config, Level};

/// The configuration of the classic search with `seed`: UCT with RAVE (c = 0.2, k = 600),
/// the MCTS-solver, expansion after 4 visits, 4 million nodes, the game's own playouts
/// capped at 1,000 decisions, no move priors, one thread.
pub fn config(seed: u64) -> Config {
    Config {
        exploration: 0.2,
        rave_equivalence: Some(600.0),
        solver: true,
        first_play_urgency: 1.1,
        // Moves were their own keys then.
        amaf_by_cells: false,
        // No game had priors then; off, so that the priors learned since cannot move it.
        prior_weight: 0.0,
        expand_visits: 4,
        playout_draws: 1,
        max_nodes: 4_000_000,
        playout_cap: 1_000,
        threads: 1,
        seed,
    }
}

/// The configuration of the classic search at `level` with `seed`.
pub fn level_config(level: Level, seed: u64) -> Config {
    level.adjust(config(seed))
}

/// The budget of one move of game `G` of the classic search at `level`.
pub fn level_budget<G: Game>(level: Level) -> Budget {
    level.budget::<G>()
}
