//! Hexagonal boards: a hexagon of hexagonal tiles ("hexhex"), as Swap 61 plays on.
//!
//! A [`Hexagon`] of side `s` has `2s - 1` rows of tiles, lettered `A` (top) downwards, the top
//! and bottom rows holding `s` tiles and the middle row `2s - 1`. Tiles are numbered from 1 at
//! the left of their row, so a tile is named like `A3` or `E9` ([`HexCell`]). Rows are drawn
//! with pointy-top tiles: each tile touches two in its own row, two above and two below.
//!
//! Internally a tile also has *axial* coordinates `(x, row)`: `x` counts positions across
//! the widest row, so the six neighbours of `(x, r)` are `(x +- 1, r)`, `(x, r - 1)`,
//! `(x + 1, r - 1)`, `(x - 1, r + 1)` and `(x, r + 1)`, and distances are the usual hex
//! distance.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The largest hexagon side: its `2 * 13 - 1 = 25` rows fit the letters `A` to `Y`.
pub const MAX_SIDE: u8 = 13;

/// A tile of a hexagonal board: its row (0 = `A`, the top row) and its place in the row
/// (0 = the leftmost tile, named `1`).
///
/// Cells order by row, then place: reading order, `A1 < A2 < B1`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct HexCell {
    row: u8,
    place: u8,
}

/// Why a hex cell name could not be read or does not lie on a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexCellError {
    /// The text is not a row letter followed by a tile number.
    #[error("'{0}' is not a cell name (a row letter then a tile number, like C4)")]
    Syntax(String),
    /// The name is well formed but the board has no such tile.
    #[error("there is no cell {0} on this board")]
    OffBoard(String),
}

/// A hexagon side outside `1..=MAX_SIDE`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("hexagon side {0} is outside 1..={MAX_SIDE}")]
pub struct HexSideError(pub usize);

impl HexCell {
    /// The tile at `place` (0 = leftmost) of `row` (0 = `A`). Whether it lies on a given
    /// board is [`Hexagon::contains`]'s question.
    pub const fn new(row: u8, place: u8) -> HexCell {
        HexCell { row, place }
    }

    /// The row, 0 for `A` (the top row).
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The place in the row, 0 for the leftmost tile (named `1`).
    pub const fn place(self) -> u8 {
        self.place
    }
}

impl fmt::Display for HexCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' + self.row) as char,
            u32::from(self.place) + 1
        )
    }
}

impl fmt::Debug for HexCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for HexCell {
    type Err = HexCellError;

    /// Reads `C4` or `c4`: a row letter in either case, then a number from 1 with no leading
    /// zero.
    fn from_str(s: &str) -> Result<HexCell, HexCellError> {
        let syntax = || HexCellError::Syntax(s.to_string());
        let (&letter, digits) = s.as_bytes().split_first().ok_or_else(syntax)?;
        let letter = letter.to_ascii_uppercase();
        if !letter.is_ascii_uppercase()
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(syntax());
        }
        let number = digits.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        Ok(HexCell::new(letter - b'A', number - 1))
    }
}

impl From<HexCell> for String {
    fn from(cell: HexCell) -> String {
        cell.to_string()
    }
}

impl TryFrom<String> for HexCell {
    type Error = HexCellError;

    fn try_from(s: String) -> Result<HexCell, HexCellError> {
        s.parse()
    }
}

/// A hexagon of hexagonal tiles with `side` tiles along each of its six sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Hexagon {
    side: u8,
}

/// The axial steps to the six neighbours, clockwise from the right.
const STEPS: [(i8, i8); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

impl Hexagon {
    /// The hexagon of the given side, if it lies in `1..=MAX_SIDE`.
    pub fn new(side: usize) -> Result<Hexagon, HexSideError> {
        if side == 0 || side > usize::from(MAX_SIDE) {
            return Err(HexSideError(side));
        }
        Ok(Hexagon { side: side as u8 })
    }

    /// The number of tiles along each side.
    pub const fn side(self) -> usize {
        self.side as usize
    }

    /// The number of rows, `2 * side - 1`.
    pub const fn row_count(self) -> usize {
        2 * self.side() - 1
    }

    /// The number of tiles in a row (`row` below [`Hexagon::row_count`]).
    pub const fn row_len(self, row: usize) -> usize {
        let middle = self.side() - 1;
        self.row_count() - row.abs_diff(middle)
    }

    /// The number of tiles, `3s(s - 1) + 1` (61 for side 5).
    pub const fn tile_count(self) -> usize {
        3 * self.side() * (self.side() - 1) + 1
    }

    /// Whether the board has this tile.
    pub const fn contains(self, cell: HexCell) -> bool {
        (cell.row as usize) < self.row_count()
            && (cell.place as usize) < self.row_len(cell.row as usize)
    }

    /// Reads a cell name (either case) and checks that the tile is on this board.
    pub fn parse_cell(self, text: &str) -> Result<HexCell, HexCellError> {
        let cell: HexCell = text.parse()?;
        if self.contains(cell) {
            Ok(cell)
        } else {
            Err(HexCellError::OffBoard(cell.to_string()))
        }
    }

    /// The index of the first tile of a row in reading order.
    const fn row_start(self, row: usize) -> usize {
        let mut start = 0;
        let mut r = 0;
        while r < row {
            start += self.row_len(r);
            r += 1;
        }
        start
    }

    /// The dense index of a tile of this board in reading order (`A1` is 0), below
    /// [`Hexagon::tile_count`].
    pub const fn index(self, cell: HexCell) -> usize {
        self.row_start(cell.row as usize) + cell.place as usize
    }

    /// The tile with the given dense index (the inverse of [`Hexagon::index`]), if any.
    pub fn cell(self, index: usize) -> Option<HexCell> {
        let mut rest = index;
        for row in 0..self.row_count() {
            let len = self.row_len(row);
            if rest < len {
                return Some(HexCell::new(row as u8, rest as u8));
            }
            rest -= len;
        }
        None
    }

    /// Every tile in reading order.
    pub fn cells(self) -> impl Iterator<Item = HexCell> {
        (0..self.row_count()).flat_map(move |row| {
            (0..self.row_len(row)).map(move |p| HexCell::new(row as u8, p as u8))
        })
    }

    /// The axial column of a tile: its position across the widest row.
    const fn axial_x(self, cell: HexCell) -> isize {
        let middle = self.side() as isize - 1;
        let indent = middle - cell.row as isize;
        cell.place as isize + if indent > 0 { indent } else { 0 }
    }

    /// The tile at axial `(x, row)`, if the board has it.
    fn at_axial(self, x: isize, row: isize) -> Option<HexCell> {
        if row < 0 || row >= self.row_count() as isize {
            return None;
        }
        let indent = (self.side() as isize - 1 - row).max(0);
        let place = x - indent;
        let cell = HexCell::new(row as u8, u8::try_from(place).ok()?);
        self.contains(cell).then_some(cell)
    }

    /// The tiles that share an edge with `cell` (2 to 6 of them), clockwise from the right.
    pub fn neighbours(self, cell: HexCell) -> impl Iterator<Item = HexCell> {
        let (x, row) = (self.axial_x(cell), cell.row as isize);
        STEPS
            .iter()
            .filter_map(move |&(dx, dr)| self.at_axial(x + dx as isize, row + dr as isize))
    }

    /// Whether two tiles share an edge.
    pub fn are_neighbours(self, a: HexCell, b: HexCell) -> bool {
        self.distance(a, b) == 1
    }

    /// The fewest steps between two tiles, moving from tile to neighbouring tile.
    pub fn distance(self, a: HexCell, b: HexCell) -> usize {
        let dx = self.axial_x(b) - self.axial_x(a);
        let dr = b.row as isize - a.row as isize;
        (dx.unsigned_abs() + dr.unsigned_abs() + (dx + dr).unsigned_abs()) / 2
    }

    /// The six corner tiles, clockwise from the top left: `A1`, `A<s>`, the right end of the
    /// middle row, the bottom right, the bottom left, the left end of the middle row. (For
    /// side 1 the one tile is all six.)
    pub fn corners(self) -> [HexCell; 6] {
        let s = self.side;
        let last = 2 * s - 2;
        [
            HexCell::new(0, 0),
            HexCell::new(0, s - 1),
            HexCell::new(s - 1, last),
            HexCell::new(last, s - 1),
            HexCell::new(last, 0),
            HexCell::new(s - 1, 0),
        ]
    }

    /// Whether a tile is one of the six corners.
    pub fn is_corner(self, cell: HexCell) -> bool {
        self.corners().contains(&cell)
    }

    /// The centre of a tile in a drawing where tiles are pointy-top hexagons of circumradius
    /// 1 and `A1`'s centre lies at `(0, 0)`: x grows to the right, y downwards.
    pub fn centre(self, cell: HexCell) -> (f64, f64) {
        let sqrt3 = 3f64.sqrt();
        let first_x = self.axial_x(HexCell::new(0, 0)) as f64;
        let x = (self.axial_x(cell) as f64 - first_x) * sqrt3 + f64::from(cell.row) * sqrt3 / 2.0;
        (x, 1.5 * f64::from(cell.row))
    }
}

impl TryFrom<u8> for Hexagon {
    type Error = HexSideError;

    fn try_from(side: u8) -> Result<Hexagon, HexSideError> {
        Hexagon::new(usize::from(side))
    }
}

impl From<Hexagon> for u8 {
    fn from(hex: Hexagon) -> u8 {
        hex.side
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn c(name: &str) -> HexCell {
        name.parse().unwrap()
    }

    fn five() -> Hexagon {
        Hexagon::new(5).unwrap()
    }

    #[test]
    fn side_five_has_the_rows_of_swap_61() {
        let h = five();
        let lens: Vec<usize> = (0..h.row_count()).map(|r| h.row_len(r)).collect();
        assert_eq!(lens, [5, 6, 7, 8, 9, 8, 7, 6, 5]);
        assert_eq!(h.tile_count(), 61);
        assert_eq!(h.cells().count(), 61);
        assert!(h.contains(c("E9")) && !h.contains(c("A6")) && !h.contains(c("J1")));
    }

    #[test]
    fn names_read_either_case_and_check_the_board() {
        let h = five();
        assert_eq!(h.parse_cell("a3").unwrap(), c("A3"));
        assert_eq!(c("E9").to_string(), "E9");
        assert!(matches!(h.parse_cell("F9"), Err(HexCellError::OffBoard(_))));
        for bad in ["", "A", "3", "A0", "A03", "AA1", "A-1", "A123", "é1"] {
            assert!(bad.parse::<HexCell>().is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn neighbours_follow_the_rulings() {
        let h = five();
        let set = |cell: &str| {
            let mut v: Vec<String> = h.neighbours(c(cell)).map(|n| n.to_string()).collect();
            v.sort();
            v
        };
        // Upper half: (r, i) touches (r+1, i) and (r+1, i+1).
        assert_eq!(set("B2"), ["A1", "A2", "B1", "B3", "C2", "C3"]);
        // Lower half: (r, i) touches (r+1, i-1) and (r+1, i).
        assert_eq!(set("F2"), ["E2", "E3", "F1", "F3", "G1", "G2"]);
        // The middle row touches both ways.
        assert_eq!(set("E5"), ["D4", "D5", "E4", "E6", "F4", "F5"]);
        assert_eq!(set("A1"), ["A2", "B1", "B2"]);
        assert_eq!(set("E9"), ["D8", "E8", "F8"]);
        assert_eq!(set("I5"), ["H5", "H6", "I4"]);
        assert!(h.are_neighbours(c("D8"), c("E9")) && !h.are_neighbours(c("A1"), c("A3")));
    }

    #[test]
    fn corners_and_distances() {
        let h = five();
        let corners: Vec<String> = h.corners().iter().map(|c| c.to_string()).collect();
        assert_eq!(corners, ["A1", "A5", "E9", "I5", "I1", "E1"]);
        assert!(h.is_corner(c("E1")) && !h.is_corner(c("E5")));
        assert_eq!(h.distance(c("A1"), c("I5")), 8);
        assert_eq!(h.distance(c("E1"), c("E9")), 8);
        assert_eq!(h.distance(c("A1"), c("A5")), 4);
        assert_eq!(h.distance(c("E5"), c("A3")), 4);
    }

    #[test]
    fn other_sides_work_too() {
        for side in 1..=MAX_SIDE as usize {
            let h = Hexagon::new(side).unwrap();
            assert_eq!(h.cells().count(), h.tile_count());
            let total: usize = h.cells().map(|cell| h.neighbours(cell).count()).sum();
            // Each edge is seen from both ends: 3(s - 1)(3s - 2) edges in all.
            assert_eq!(total, 2 * 3 * (side - 1) * (3 * side - 2));
        }
        assert!(Hexagon::new(0).is_err() && Hexagon::new(14).is_err());
    }

    #[test]
    fn centres_are_one_tile_width_apart_for_neighbours() {
        let h = five();
        for cell in h.cells() {
            for n in h.neighbours(cell) {
                let (a, b) = (h.centre(cell), h.centre(n));
                let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                assert!((d - 3f64.sqrt()).abs() < 1e-9);
            }
        }
    }

    proptest! {
        #[test]
        fn index_round_trips(side in 1usize..=13, i in 0usize..469) {
            let h = Hexagon::new(side).unwrap();
            match h.cell(i) {
                Some(cell) => {
                    prop_assert_eq!(h.index(cell), i);
                    prop_assert_eq!(h.parse_cell(&cell.to_string()).unwrap(), cell);
                }
                None => prop_assert!(i >= h.tile_count()),
            }
        }

        #[test]
        fn neighbours_are_symmetric_and_at_distance_one(side in 1usize..=13, i in 0usize..469) {
            let h = Hexagon::new(side).unwrap();
            if let Some(cell) = h.cell(i) {
                for n in h.neighbours(cell) {
                    prop_assert_eq!(h.distance(cell, n), 1);
                    prop_assert!(h.neighbours(n).any(|m| m == cell));
                }
            }
        }

        #[test]
        fn parsing_never_panics(s in "\\PC{0,6}") {
            let _ = s.parse::<HexCell>();
            let _ = five().parse_cell(&s);
        }
    }
}
