//! Monte Carlo tree search for any swapboard game.
//!
//! The search knows no game: it is generic over [`swapboard_core::Stepwise`] and searches
//! the game's [`Stepwise::Steps`](swapboard_core::Stepwise::Steps), so a game whose turns are
//! too many to list (Scware's growths) is searched as a path of small decisions, and the
//! decisions of the root player's turn are turned back into one move at the end.
//!
//! - [`Mcts`]: UCT with RAVE/AMAF statistics, a solver that carries proven wins, losses and
//!   draws up the tree, tree reuse after a played move ([`Mcts::advance`]), budgets by
//!   iterations, time and an external stop flag ([`Budget`]), analysis snapshots streamed
//!   while it thinks ([`Mcts::think_with`]), and tree parallelism: several threads grow one
//!   tree, each holding it only to descend and to back up, with a virtual loss on the path
//!   it is playing out.
//!   Single-threaded with an iteration budget it is reproducible from its seed.
//! - Games add knowledge without the search knowing which game it plays, through the
//!   default hooks of [`swapboard_core::Game`]: `playout_move`, `move_prior`, `evaluation`.
//! - [`priors`]: learning move priors from self-play (`swapboard train`).
//! - [`Level`]: strength levels 1 to 9; [`baseline`]: the `random` and `greedy` bots;
//!   [`classic`]: the search before issue 28, frozen as the reference player.
//!
//! Turns need not alternate: every statistic is kept for the player who made the move into a
//! node, and results are backed up by that player, never by depth parity.

mod analysis;
pub mod baseline;
pub mod classic;
mod config;
mod level;
pub mod priors;
mod search;
mod tree;

pub use analysis::{Analysis, Line, UNSETTLED_SHARE};
pub use config::{Budget, Config};
pub use level::Level;
pub use search::Mcts;
