use std::fmt;

use swapboard_core::MoveError;
use swapboard_grid::{Cell, Square};

/// A Swaptimum move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SwaptimumMove {
    /// A placement that forms no crosscut (`c3`).
    Place(Cell),
    /// A placement that forms crosscuts, then the swap of two checkers (`c3:d4-e5`). The two
    /// swapped cells are kept in cell order.
    PlaceSwap {
        /// The placed cell.
        cell: Cell,
        /// The smaller of the two swapped cells.
        a: Cell,
        /// The larger of the two swapped cells.
        b: Cell,
    },
    /// The turn is skipped: only when no placement is legal.
    Pass,
}

impl SwaptimumMove {
    /// A placement followed by the swap of `x` and `y` (given in either order).
    pub fn place_swap(cell: Cell, x: Cell, y: Cell) -> SwaptimumMove {
        SwaptimumMove::PlaceSwap {
            cell,
            a: x.min(y),
            b: x.max(y),
        }
    }

    /// The placed cell, unless the move is a pass.
    pub fn cell(self) -> Option<Cell> {
        match self {
            SwaptimumMove::Place(c) | SwaptimumMove::PlaceSwap { cell: c, .. } => Some(c),
            SwaptimumMove::Pass => None,
        }
    }

    /// Reads `c3`, `c3:d4-e5` (swap cells in any order) or `pass`, with every cell on
    /// `square`.
    pub fn parse(text: &str, square: Square) -> Result<SwaptimumMove, MoveError> {
        if text == "pass" {
            return Ok(SwaptimumMove::Pass);
        }
        let cell = |s: &str| -> Result<Cell, MoveError> {
            let c: Cell = s.parse().map_err(|e| MoveError::unreadable(text, e))?;
            if !square.contains(c) {
                let n = square.size();
                return Err(MoveError::unreadable(
                    text,
                    format!("{c} is off the {n}x{n} board"),
                ));
            }
            Ok(c)
        };
        match text.split_once(':') {
            None => Ok(SwaptimumMove::Place(cell(text)?)),
            Some((placed, swap)) => {
                let Some((x, y)) = swap.split_once('-') else {
                    return Err(MoveError::unreadable(
                        text,
                        "a swap is written as two cells joined by '-', like c3:d4-e5",
                    ));
                };
                let (placed, x, y) = (cell(placed)?, cell(x)?, cell(y)?);
                if x == y {
                    return Err(MoveError::unreadable(
                        text,
                        "a swap exchanges two different cells",
                    ));
                }
                Ok(SwaptimumMove::place_swap(placed, x, y))
            }
        }
    }
}

impl fmt::Display for SwaptimumMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwaptimumMove::Place(c) => write!(f, "{c}"),
            SwaptimumMove::PlaceSwap { cell, a, b } => write!(f, "{cell}:{a}-{b}"),
            SwaptimumMove::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_and_print_in_contract_notation() {
        let sq = Square::new(9).unwrap();
        let m = SwaptimumMove::parse("c3:e5-d4", sq).unwrap();
        assert_eq!(m.to_string(), "c3:d4-e5");
        assert_eq!(SwaptimumMove::parse("c3", sq).unwrap().to_string(), "c3");
        assert_eq!(
            SwaptimumMove::parse("pass", sq).unwrap(),
            SwaptimumMove::Pass
        );
        // Cell order is column, then row as a number.
        let m = SwaptimumMove::parse("a1:b1-a10", Square::new(12).unwrap()).unwrap();
        assert_eq!(m.to_string(), "a1:a10-b1");
    }

    #[test]
    fn bad_moves_say_why() {
        let sq = Square::new(5).unwrap();
        for (bad, why) in [
            ("f1", "off the 5x5 board"),
            ("c3:d4", "joined by '-'"),
            ("c3:d4-d4", "two different cells"),
            ("C3", "not a cell name"),
            ("", "not a cell name"),
        ] {
            let err = SwaptimumMove::parse(bad, sq).unwrap_err().to_string();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }
}
