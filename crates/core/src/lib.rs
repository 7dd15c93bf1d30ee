//! The game abstraction of swapboard.
//!
//! Every game is a position type implementing [`Game`]: it knows whose turn it is, lists and
//! checks moves, plays them (checked with [`Game::play`], unchecked with
//! [`Game::play_unchecked`] for search), reports the [`Outcome`], hashes itself, and reads and
//! writes the position and move text of the contract (`spec/CONTRACT.md`).
//!
//! Turns need not alternate: a player with no legal move plays `pass`, and a game may give a
//! player several turns in a row. Search code must always ask [`Game::to_move`].
//!
//! Rules code is synchronous and does no I/O. Positions are plain values: `Clone` is a
//! memcpy, they are `Send + Sync`, and they serialise as their contract text.

mod board;
mod error;
mod game;
mod player;
mod stepwise;
pub mod text;
mod view;
pub mod zobrist;

pub use board::{Stone, StoneBoard};
pub use error::{IllegalMove, MoveError, PlayError, PositionError};
pub use game::{Game, perft};
pub use player::{Outcome, Player};
pub use stepwise::Stepwise;
pub use view::{BoardView, CellMark, SideOwner};
