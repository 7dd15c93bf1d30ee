use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::square::MAX_SIZE;

/// A cell of a square board: column from `a` at the left, row from `1` at the bottom.
///
/// Ordering is by column, then row as a number, the order in which the text contract prints
/// cells (`a2 < a10 < b1`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Cell {
    col: u8,
    row: u8,
}

/// Why a cell name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// The text is not a letter followed by a row number.
    #[error("'{0}' is not a cell name (a column letter a-z then a row number, like c3)")]
    Syntax(String),
    /// The column or row lies outside a board of the largest size.
    #[error("'{0}' is outside every board (columns a-z, rows 1-26)")]
    OutOfRange(String),
}

impl Cell {
    /// The cell in column `col` (0 = `a`) and row `row` (0 = row 1).
    ///
    /// Both must be below [`MAX_SIZE`]; this is checked in debug builds.
    pub const fn new(col: u8, row: u8) -> Cell {
        debug_assert!(col < MAX_SIZE && row < MAX_SIZE);
        Cell { col, row }
    }

    /// Column index, 0 for `a`.
    pub const fn col(self) -> u8 {
        self.col
    }

    /// Row index, 0 for row `1` (the bottom row).
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The dense index of this cell in cell order (`col * 26 + row`), below 676.
    pub const fn ordinal(self) -> usize {
        self.col as usize * MAX_SIZE as usize + self.row as usize
    }

    /// The cell with the given dense index (the inverse of [`Cell::ordinal`]).
    pub const fn from_ordinal(ordinal: usize) -> Cell {
        Cell::new(
            (ordinal / MAX_SIZE as usize) as u8,
            (ordinal % MAX_SIZE as usize) as u8,
        )
    }

    /// Whether two cells share an edge or a corner.
    pub fn is_king_adjacent(self, other: Cell) -> bool {
        self != other && self.col.abs_diff(other.col) <= 1 && self.row.abs_diff(other.row) <= 1
    }

    /// Whether two cells share an edge.
    pub fn is_orthogonal(self, other: Cell) -> bool {
        self.col.abs_diff(other.col) + self.row.abs_diff(other.row) == 1
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Cell {
    type Err = CellError;

    fn from_str(s: &str) -> Result<Cell, CellError> {
        let bytes = s.as_bytes();
        let syntax = || CellError::Syntax(s.to_string());
        let (&letter, digits) = bytes.split_first().ok_or_else(syntax)?;
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(syntax());
        }
        let row: u32 = digits
            .iter()
            .fold(0, |acc, d| acc * 10 + u32::from(d - b'0'));
        if row > u32::from(MAX_SIZE) {
            return Err(CellError::OutOfRange(s.to_string()));
        }
        Ok(Cell::new(letter - b'a', row as u8 - 1))
    }
}

impl From<Cell> for String {
    fn from(cell: Cell) -> String {
        cell.to_string()
    }
}

impl TryFrom<String> for Cell {
    type Error = CellError;

    fn try_from(s: String) -> Result<Cell, CellError> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_follow_chess_squares() {
        assert_eq!(Cell::new(0, 0).to_string(), "a1");
        assert_eq!(Cell::new(2, 2).to_string(), "c3");
        assert_eq!(Cell::new(25, 25).to_string(), "z26");
        assert_eq!("j10".parse::<Cell>().unwrap(), Cell::new(9, 9));
    }

    #[test]
    fn order_is_column_then_row_as_a_number() {
        let a2: Cell = "a2".parse().unwrap();
        let a10: Cell = "a10".parse().unwrap();
        let b1: Cell = "b1".parse().unwrap();
        assert!(a2 < a10 && a10 < b1);
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in ["", "a", "3", "A3", "a0", "a03", "a-1", "c3 ", "aa1", "a123"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?} was accepted");
        }
        assert!(matches!(
            "a27".parse::<Cell>(),
            Err(CellError::OutOfRange(_))
        ));
    }

    proptest! {
        #[test]
        fn names_round_trip(col in 0u8..26, row in 0u8..26) {
            let cell = Cell::new(col, row);
            prop_assert_eq!(cell.to_string().parse::<Cell>().unwrap(), cell);
            prop_assert_eq!(Cell::from_ordinal(cell.ordinal()), cell);
        }

        #[test]
        fn parsing_never_panics(s in "\\PC{0,6}") {
            let _ = s.parse::<Cell>();
        }
    }
}
