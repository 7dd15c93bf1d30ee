use std::fmt;

use swapboard_grid::Cell;

/// A Rapid Transit move: a swap of the mover's terminal piece with an opponent piece, or a
/// pass (legal only when no swap is).
///
/// Written `a6-d5`, the mover's terminal piece first; on input either order is accepted
/// (the colours tell the pieces apart, see [`crate::RapidTransit`]'s `parse_move`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RapidTransitMove {
    /// The mover's piece on `terminal` and the opponent's piece on `partner` change places.
    Swap {
        /// The cell of the mover's terminal piece.
        terminal: Cell,
        /// The cell of the opponent's piece it swaps with (anywhere in an adjacent network).
        partner: Cell,
    },
    /// No swap is possible.
    Pass,
}

impl fmt::Display for RapidTransitMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RapidTransitMove::Swap { terminal, partner } => write!(f, "{terminal}-{partner}"),
            RapidTransitMove::Pass => f.write_str("pass"),
        }
    }
}
