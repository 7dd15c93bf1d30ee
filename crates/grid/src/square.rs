use serde::{Deserialize, Serialize};

use crate::Cell;

/// The smallest board side the square games allow.
pub const MIN_SIZE: u8 = 3;
/// The largest board side (26 columns, `a` to `z`).
pub const MAX_SIZE: u8 = 26;
/// Mailbox slots of the largest board: the board plus a one-cell border all round.
pub const MAILBOX_CAPACITY: usize = (MAX_SIZE as usize + 2) * (MAX_SIZE as usize + 2);

/// A board side outside the allowed range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board size {size} is outside {min}..={max}")]
pub struct SizeError {
    /// The size asked for.
    pub size: usize,
    /// The smallest size allowed.
    pub min: u8,
    /// The largest size allowed.
    pub max: u8,
}

/// An N x N square board laid out as a mailbox.
///
/// Cells live at *slots* of an `(N + 2) x (N + 2)` array whose outer ring is off the board.
/// A neighbour is the slot at a fixed offset (the orthogonal and diagonal steps, scaled by
/// the stride), so the hot paths of the rules engines need no bounds checks: a lookup that
/// leaves the board lands on the border, which games mark as "off board".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square {
    size: u8,
}

impl Square {
    /// The board of side `size`, if `size` lies in `MIN_SIZE..=MAX_SIZE`.
    pub fn new(size: usize) -> Result<Square, SizeError> {
        Square::with_limits(size, MIN_SIZE, MAX_SIZE)
    }

    /// The board of side `size`, if it lies in `min..=max` (a game's own limits, which must
    /// lie inside the geometry's).
    pub fn with_limits(size: usize, min: u8, max: u8) -> Result<Square, SizeError> {
        let min = min.max(MIN_SIZE);
        let max = max.min(MAX_SIZE);
        if size < usize::from(min) || size > usize::from(max) {
            return Err(SizeError { size, min, max });
        }
        Ok(Square { size: size as u8 })
    }

    /// The side N.
    pub const fn size(self) -> usize {
        self.size as usize
    }

    /// Number of cells, N * N.
    pub const fn cell_count(self) -> usize {
        self.size() * self.size()
    }

    /// Distance in slots between vertically adjacent cells.
    pub const fn stride(self) -> usize {
        self.size() + 2
    }

    /// Number of mailbox slots, border included.
    pub const fn slot_count(self) -> usize {
        self.stride() * self.stride()
    }

    /// Whether the cell lies on this board.
    pub const fn contains(self, cell: Cell) -> bool {
        cell.col() < self.size && cell.row() < self.size
    }

    /// The mailbox slot of a cell on this board.
    pub const fn slot(self, cell: Cell) -> usize {
        (cell.row() as usize + 1) * self.stride() + cell.col() as usize + 1
    }

    /// The cell at a mailbox slot, or `None` on the border.
    pub const fn cell_at(self, slot: usize) -> Option<Cell> {
        let stride = self.stride();
        let (r, c) = (slot / stride, slot % stride);
        if r == 0 || c == 0 || r > self.size() || c > self.size() {
            None
        } else {
            Some(Cell::new((c - 1) as u8, (r - 1) as u8))
        }
    }

    /// Slots of every cell, bottom row first, left to right.
    pub fn slots(self) -> impl Iterator<Item = usize> {
        let (n, stride) = (self.size(), self.stride());
        (1..=n).flat_map(move |r| (1..=n).map(move |c| r * stride + c))
    }

    /// Every cell, in cell order (column, then row).
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let n = self.size;
        (0..n).flat_map(move |c| (0..n).map(move |r| Cell::new(c, r)))
    }

    /// Slot offsets of the 4 orthogonal neighbours (up, right, down, left).
    pub const fn orthogonal(self) -> [isize; 4] {
        let s = self.stride() as isize;
        [s, 1, -s, -1]
    }

    /// Slot offsets of the 8 neighbours sharing an edge or a corner.
    pub const fn king(self) -> [isize; 8] {
        let s = self.stride() as isize;
        [s, s + 1, 1, 1 - s, -s, -s - 1, -1, s - 1]
    }

    /// Slot offsets of the 4 diagonal neighbours.
    pub const fn diagonal(self) -> [isize; 4] {
        let s = self.stride() as isize;
        [s + 1, 1 - s, -s - 1, s - 1]
    }

    /// The lower-left slots of the four 2 x 2 blocks that contain `slot`.
    ///
    /// A block is named by its lower-left slot `b` and holds `b`, `b + 1`, `b + stride` and
    /// `b + stride + 1`. Blocks that reach into the border are included; callers see the
    /// border marker there.
    pub const fn blocks_around(self, slot: usize) -> [usize; 4] {
        let s = self.stride();
        [slot, slot - 1, slot - s, slot - s - 1]
    }

    /// The four slots of the 2 x 2 block with lower-left slot `block`, in the order
    /// lower-left, lower-right, upper-left, upper-right (so `[0]`/`[3]` and `[1]`/`[2]` are
    /// the diagonals).
    pub const fn block(self, block: usize) -> [usize; 4] {
        let s = self.stride();
        [block, block + 1, block + s, block + s + 1]
    }

    /// Lower-left slots of every 2 x 2 block lying wholly on the board.
    pub fn blocks(self) -> impl Iterator<Item = usize> {
        let (n, stride) = (self.size(), self.stride());
        (1..n).flat_map(move |r| (1..n).map(move |c| r * stride + c))
    }

    /// Whether a slot is on the top row (row N).
    pub const fn on_top(self, slot: usize) -> bool {
        slot / self.stride() == self.size()
    }

    /// Whether a slot is on the bottom row (row 1).
    pub const fn on_bottom(self, slot: usize) -> bool {
        slot / self.stride() == 1
    }

    /// Whether a slot is in the left column (column a).
    pub const fn on_left(self, slot: usize) -> bool {
        slot % self.stride() == 1
    }

    /// Whether a slot is in the right column.
    pub const fn on_right(self, slot: usize) -> bool {
        slot % self.stride() == self.size()
    }
}

impl TryFrom<u8> for Square {
    type Error = SizeError;

    fn try_from(size: u8) -> Result<Square, SizeError> {
        Square::new(size.into())
    }
}

impl From<Square> for u8 {
    fn from(square: Square) -> u8 {
        square.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_outside_3_to_26_are_refused() {
        assert!(Square::new(2).is_err());
        assert!(Square::new(27).is_err());
        assert_eq!(Square::new(26).unwrap().slot_count(), MAILBOX_CAPACITY);
        let err = Square::with_limits(9, 4, 16).unwrap();
        assert_eq!(err.size(), 9);
        assert!(Square::with_limits(3, 4, 16).is_err());
    }

    #[test]
    fn slots_and_cells_are_inverse_and_border_is_off_board() {
        for n in MIN_SIZE..=MAX_SIZE {
            let sq = Square::new(n.into()).unwrap();
            let mut seen = 0;
            for slot in 0..sq.slot_count() {
                if let Some(cell) = sq.cell_at(slot) {
                    assert_eq!(sq.slot(cell), slot);
                    assert!(sq.contains(cell));
                    seen += 1;
                }
            }
            assert_eq!(seen, sq.cell_count());
            assert_eq!(sq.slots().count(), sq.cell_count());
            assert!(sq.cells().all(|c| sq.cell_at(sq.slot(c)) == Some(c)));
        }
    }

    #[test]
    fn neighbour_offsets_match_cell_adjacency() {
        let sq = Square::new(5).unwrap();
        let c3 = sq.slot(Cell::new(2, 2));
        let orth: Vec<Cell> = sq
            .orthogonal()
            .iter()
            .map(|&d| sq.cell_at(c3.wrapping_add_signed(d)).unwrap())
            .collect();
        assert_eq!(
            orth.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["c4", "d3", "c2", "b3"]
        );
        for d in sq.king() {
            let n = sq.cell_at(c3.wrapping_add_signed(d)).unwrap();
            assert!(n.is_king_adjacent(Cell::new(2, 2)));
        }
        // a1's left and lower neighbours are on the border.
        let a1 = sq.slot(Cell::new(0, 0));
        assert_eq!(sq.cell_at(a1 - 1), None);
        assert_eq!(sq.cell_at(a1 - sq.stride()), None);
    }

    #[test]
    fn blocks_cover_the_board_and_sides_are_named() {
        let sq = Square::new(4).unwrap();
        assert_eq!(sq.blocks().count(), 9);
        let a1 = sq.slot(Cell::new(0, 0));
        assert!(sq.on_bottom(a1) && sq.on_left(a1) && !sq.on_top(a1) && !sq.on_right(a1));
        let d4 = sq.slot(Cell::new(3, 3));
        assert!(sq.on_top(d4) && sq.on_right(d4));
        // Every block around a cell contains that cell.
        for slot in sq.slots() {
            for b in sq.blocks_around(slot) {
                assert!(sq.block(b).contains(&slot));
            }
        }
    }
}
