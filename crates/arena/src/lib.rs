//! Matches between bots of any swapboard game, and the record of a game.
//!
//! - [`PlayerSpec`]: `random`, `greedy`, `mcts:level=K`, `mcts:iters=N`, `mcts:ms=T`, and
//!   the same budgets for `classic:`, the frozen reference search.
//! - [`run_match`]: plays a match with colours alternating, games in parallel on request,
//!   and sums it up in a [`Summary`] (wins with 95% intervals, draws, first-player wins,
//!   average length, Elo difference with its interval).
//! - [`record`]: the PGN-like text record of a game (`docs/RECORDS.md`).

mod bot;
mod matches;
pub mod record;
mod spec;
mod stats;

pub use bot::Bot;
pub use matches::{GameResult, MatchSettings, play_game, run_match, today};
pub use spec::{Engine, PlayerSpec, SearchBudget, SpecError};
pub use stats::{Interval, Summary, wilson};
