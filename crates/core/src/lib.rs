//! The game abstraction of swapboard.
//!
//! Every game is a position type implementing [`Game`]: it knows whose turn it is, lists and
//! checks moves, plays them (checked with [`Game::play`], unchecked with
//! [`Game::play_unchecked`] for search), reports the [`Outcome`], hashes itself, and reads and
//! writes the position and move text of the contract (docs/CONTRACT.md).
//!
//! Turns need not alternate: a player with no legal move plays `pass`, and a game may give a
//! player several turns in a row. Search code must always ask [`Game::to_move`].
//!
//! Rules code is synchronous and does no I/O. Positions are plain values: `Clone` is a
//! memcpy (plus, for a step view, a reference count on the shared analysis of its turn),
//! they are `Send + Sync`, and they serialise as their contract text.

pub mod bitboard;
mod board;
mod error;
mod game;
mod groups;
mod history;
pub mod pattern;
mod placement;
mod player;
mod rule;
mod stepwise;
pub mod symmetry;
pub mod text;
mod view;

/// Implements serde's `Serialize` and `Deserialize` for a type through its `Display` and
/// `FromStr`, so positions and moves serialise as their contract text.
#[macro_export]
macro_rules! serde_as_text {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$t, D::Error> {
                let text =
                    <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub mod zobrist;

pub use board::{Formed, Stone, StoneBoard};
pub use error::{IllegalMove, MoveError, PlayError, PositionError, PositionErrorKind};
pub use game::{Game, best_of_drawn_moves, perft, play_out_best_of, play_out_by_moves};
pub use groups::Groups;
pub use history::{History, Repeat};
pub use placement::{PLACEMENT_SIZES, PlacementState};
pub use player::{Outcome, Player};
pub use rule::Rule;
pub use stepwise::Stepwise;
pub use view::{BoardView, CellMark, SideOwner};
