//! Swaptimum, by Mark Steere (2023), played exactly by its rule sheet and swapboard's
//! rulings.
//!
//! Red (the first player) joins the top and bottom rows, Blue the left and right columns,
//! with orthogonally connected checkers. A placement that forms one or more crosscuts
//! (`R B / B R`) must be followed by exactly one swap of two differently coloured, 8-adjacent
//! checkers, at least one of them in a formed crosscut, after which the whole board is
//! crosscut-free; a placement with no such swap is illegal (the placement restriction). A
//! player with no legal placement passes; wins are checked for both players after the whole
//! turn, so a swap can hand the opponent the win.
//!
//! ```
//! use swapboard_core::Game;
//! use swapboard_swaptimum::Swaptimum;
//!
//! let mut pos = Swaptimum::start(5).unwrap();
//! pos.play_text("c3").unwrap();
//! assert_eq!(pos.to_string(), "swaptimum ...../...../..R../...../..... B");
//! ```

mod moves;
mod playout;
mod position;

pub use moves::SwaptimumMove;
pub use position::Swaptimum;
