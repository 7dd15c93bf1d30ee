//! Board geometry for swapboard.
//!
//! This is the lowest layer: it knows cells, boards and neighbours, and nothing of any game.
//!
//! - [`Cell`]: a square-board cell named like a chess square (`a1` bottom-left), ordered by
//!   column, then row as a number (`a2 < a10 < b1`).
//! - [`Square`]: an N x N board (3..=26) laid out as a *mailbox*: the board is surrounded by
//!   a one-cell border so neighbour lookups are plain index offsets with no bounds checks.
//! - [`CellSet`]: a bitset over all 676 cells of the largest board, in cell order.
//! - [`bits`]: bitboards (one `u128`) for square boards up to 11 x 11, the games' fast paths.
//! - [`hex`]: hexagonal boards (Swap 61's hexagon of side 5).

pub mod bits;
mod cell;
mod cellset;
pub mod hex;
mod square;

pub use cell::{Cell, CellError};
pub use cellset::CellSet;
pub use square::{MAILBOX_CAPACITY, MAX_SIZE, MIN_SIZE, SizeError, Square};
