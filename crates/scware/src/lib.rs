//! Scware, by Christian Freeling (2012), played exactly by its rule sheet as swapboard reads
//! it (docs/RULINGS.md, "Scware").
//!
//! Scware uses the Symple move protocol on a square board: a turn either starts a new group
//! with one stone, or grows **any subset** of the mover's groups by one stone each at once.
//! While nobody has grown, Red may follow a growth with a new group (the balancing move).
//! After the whole move, any two diagonally adjacent stones of the mover must belong to one
//! group. White joins top and bottom, Red left and right.
//!
//! The number of growth moves is exponential in the number of groups, so the engine offers
//! four views of them, all exact:
//!
//! - [`Game::for_each_move`](swapboard_core::Game::for_each_move): a lazy enumeration that
//!   never holds more than one move;
//! - [`Game::move_count`](swapboard_core::Game::move_count) and [`Scware::move_counts`]: the
//!   number of moves without listing them (a growth is a packing of clusters of new stones;
//!   see the `count` module);
//! - [`Game::random_move`](swapboard_core::Game::random_move): a sampler for playouts (its
//!   distribution is documented on the `sampler` module and in the README of the crate's
//!   docs below);
//! - [`ScwareSteps`]: the turn as a path of small decisions (group by group: which liberty,
//!   or none), each checked, for tree search.
//!
//! # The sampler's distribution
//!
//! The kind of move is drawn uniformly among those the position offers (placement, growth,
//! balanced growth). A placement is uniform over its cells. A growth is proposed group by
//! group, each group picking uniformly among "no growth" and its free liberties; stones
//! breaking the restriction are then dropped until none does, and an empty result is drawn
//! again. Every legal move can be drawn.

mod build;
mod count;
mod moves;
mod position;
mod sampler;
mod steps;
mod turn;
mod union_find;

pub use build::GrowthBuilder;
pub use moves::ScwareMove;
pub use position::{MoveCounts, Scware};
pub use steps::{ScwareStep, ScwareSteps};
