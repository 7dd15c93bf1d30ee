//! Flipstop, by Mark Steere (2023), played exactly by its rule sheet and swapboard's rulings.
//!
//! Red (the first player) joins the top and bottom rows, Blue the left and right columns,
//! with orthogonally connected checkers. When a placement forms crosscuts, every enemy
//! checker in them that can be replaced by the mover's colour without forming a new
//! crosscut is replaced; a placement that would leave a crosscut standing is illegal (the
//! placement restriction). A player with no legal placement passes. A move is just the
//! placed cell: what follows it is forced.
//!
//! ```
//! use swapboard_core::Game;
//! use swapboard_flipstop::Flipstop;
//!
//! // Red's c3 forms the crosscut c3-d4; blue c4 is replaced, blue d3 is not (replacing it
//! // would form the crosscut d2-e3).
//! let mut pos: Flipstop = "flipstop ...../..BR./...BB/...BR/..... R".parse().unwrap();
//! pos.play_text("c3").unwrap();
//! assert_eq!(pos.to_string(), "flipstop ...../..RR./..RBB/...BR/..... B");
//! ```

mod position;

pub use position::{Flipstop, FlipstopMove};
