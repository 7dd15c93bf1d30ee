use std::fmt;

use rand::{Rng, RngExt};
use swapboard_grid::{Cell, MAILBOX_CAPACITY, Square};

use crate::{Player, PositionError, zobrist};

/// What a mailbox slot of a [`StoneBoard`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Stone {
    /// An empty cell.
    Empty = 0,
    /// A stone of the first player.
    First = 1,
    /// A stone of the second player.
    Second = 2,
    /// Off the board (the mailbox border).
    Off = 3,
}

impl Stone {
    /// The stone of a player.
    pub const fn of(player: Player) -> Stone {
        match player {
            Player::First => Stone::First,
            Player::Second => Stone::Second,
        }
    }

    /// The owner of the stone, if it is a stone.
    pub const fn player(self) -> Option<Player> {
        match self {
            Stone::First => Some(Player::First),
            Stone::Second => Some(Player::Second),
            _ => None,
        }
    }

    const fn from_u8(v: u8) -> Stone {
        match v {
            0 => Stone::Empty,
            1 => Stone::First,
            2 => Stone::Second,
            _ => Stone::Off,
        }
    }
}

/// The crosscuts one placement would form: up to four 2 x 2 blocks, each named by its
/// lower-left slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formed {
    blocks: [usize; 4],
    len: usize,
}

impl Formed {
    /// The blocks, by lower-left slot.
    pub fn blocks(&self) -> &[usize] {
        &self.blocks[..self.len]
    }

    /// Whether the placement forms no crosscut.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A square board of two-coloured stones, as the four square games use it.
///
/// Cells are kept in a mailbox (see [`Square`]) so that neighbour and 2 x 2 block lookups
/// are offsets with no bounds checks, and the Zobrist hash of the stones is kept up to date
/// by [`StoneBoard::set`]. The value is a fixed-size array: cloning never allocates.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct StoneBoard {
    square: Square,
    slots: [Stone; MAILBOX_CAPACITY],
    hash: u64,
}

/// Whether a slot lies on the side a player's path starts from: the first player joins the
/// top row to the bottom row, the second the left column to the right column (the rulings'
/// common sides).
const fn touches_start(square: Square, player: Player, slot: usize) -> bool {
    match player {
        Player::First => square.on_top(slot),
        Player::Second => square.on_left(slot),
    }
}

impl StoneBoard {
    /// An empty board.
    pub fn empty(square: Square) -> StoneBoard {
        let mut slots = [Stone::Off; MAILBOX_CAPACITY];
        for slot in square.slots() {
            slots[slot] = Stone::Empty;
        }
        StoneBoard {
            square,
            slots,
            hash: 0,
        }
    }

    /// The board's geometry.
    #[inline]
    pub fn square(&self) -> Square {
        self.square
    }

    /// The board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.square.size()
    }

    /// What stands on a mailbox slot.
    #[inline]
    pub fn get(&self, slot: usize) -> Stone {
        self.slots[slot]
    }

    /// What stands on a cell of the board.
    pub fn at(&self, cell: Cell) -> Stone {
        self.slots[self.square.slot(cell)]
    }

    /// Puts `stone` (which must not be [`Stone::Off`]) on a slot of the board, keeping the
    /// hash up to date.
    #[inline]
    pub fn set(&mut self, slot: usize, stone: Stone) {
        debug_assert!(stone != Stone::Off && self.slots[slot] != Stone::Off);
        if let Some(p) = self.slots[slot].player() {
            self.hash ^= zobrist::stone(slot, p);
        }
        if let Some(p) = stone.player() {
            self.hash ^= zobrist::stone(slot, p);
        }
        self.slots[slot] = stone;
    }

    /// The Zobrist hash of the stones.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Number of stones of a player.
    pub fn count(&self, player: Player) -> usize {
        let s = Stone::of(player);
        self.square.slots().filter(|&i| self.slots[i] == s).count()
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> usize {
        self.square
            .slots()
            .filter(|&i| self.slots[i] == Stone::Empty)
            .count()
    }

    /// Whether the 2 x 2 block with lower-left slot `block` is a crosscut: both diagonals one
    /// colour each, the colours different (`R B / B R`).
    #[inline]
    pub fn is_crosscut(&self, block: usize) -> bool {
        let [ll, lr, ul, ur] = self.square.block(block);
        let (a, b) = (self.slots[ll] as u8, self.slots[lr] as u8);
        // Stones are 1 and 2, so a ^ b == 3 with a in 1..=2 means one of each colour.
        a.wrapping_sub(1) < 2
            && a ^ b == 3
            && self.slots[ur] as u8 == a
            && self.slots[ul] as u8 == b
    }

    /// The crosscuts that placing `stone` on the empty `slot` would form, without changing
    /// the board: a block around `slot` becomes one iff the cell diagonally opposite holds
    /// `stone` and the other two hold the other colour. In each such block the two
    /// other-colour cells are the slot's orthogonal neighbours ([`StoneBoard::enemies_in`]).
    #[inline]
    pub fn crosscuts_formed(&self, slot: usize, stone: Stone) -> Formed {
        let other = if stone == Stone::First {
            Stone::Second
        } else {
            Stone::First
        };
        let mut formed = Formed {
            blocks: [0; 4],
            len: 0,
        };
        // `blocks_around` lists the blocks in which `slot` is the lower-left, lower-right,
        // upper-left and upper-right cell: in block i, the slot's diagonal partner is 3 - i.
        for (i, block) in self.square.blocks_around(slot).into_iter().enumerate() {
            let cells = self.square.block(block);
            let [o1, o2] = Self::off_diagonal(cells, i);
            if self.slots[cells[3 - i]] == stone
                && self.slots[o1] == other
                && self.slots[o2] == other
            {
                formed.blocks[formed.len] = block;
                formed.len += 1;
            }
        }
        formed
    }

    /// The two cells of `block` orthogonally next to `slot` (the enemy checkers of a
    /// crosscut that a placement on `slot` formed).
    pub fn enemies_in(&self, block: usize, slot: usize) -> [usize; 2] {
        let cells = self.square.block(block);
        let i = cells.iter().position(|&c| c == slot).unwrap_or(0);
        Self::off_diagonal(cells, i)
    }

    /// The two cells of a block not on the diagonal through cell `i`.
    const fn off_diagonal(cells: [usize; 4], i: usize) -> [usize; 2] {
        if i == 0 || i == 3 {
            [cells[1], cells[2]]
        } else {
            [cells[0], cells[3]]
        }
    }

    /// Whether some crosscut contains the slot.
    #[inline]
    pub fn crosscut_at(&self, slot: usize) -> bool {
        self.square
            .blocks_around(slot)
            .into_iter()
            .any(|b| self.is_crosscut(b))
    }

    /// The lower-left cell of the first crosscut on the board, in cell order, if any.
    pub fn find_crosscut(&self) -> Option<Cell> {
        self.square
            .cells()
            .map(|c| self.square.slot(c))
            .find(|&slot| {
                self.square
                    .cell_at(slot + 1 + self.square.stride())
                    .is_some()
                    && self.is_crosscut(slot)
            })
            .and_then(|slot| self.square.cell_at(slot))
    }

    /// Draws empty cells uniformly at random, without repeating one, until `try_slot`
    /// accepts one (returns `Some`), and returns what it returned; `None` once every empty
    /// cell was refused. The first accepted cell is uniform over the cells `try_slot` would
    /// accept: the placement sampler of the placement games.
    ///
    /// While the board has room, cells are drawn from the whole board and occupied ones
    /// skipped (no scan); when that keeps missing, the cells left are listed once.
    pub fn sample_empty<T, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        mut try_slot: impl FnMut(usize, &mut R) -> Option<T>,
    ) -> Option<T> {
        const DRAWS_BEFORE_SCAN: usize = 24;
        let n = self.square.size() as u8;
        let mut refused = [0u64; MAILBOX_CAPACITY.div_ceil(64)];
        let is_refused = |r: &[u64], s: usize| r[s / 64] & (1 << (s % 64)) != 0;
        for _ in 0..DRAWS_BEFORE_SCAN {
            let slot = self
                .square
                .slot(Cell::new(rng.random_range(0..n), rng.random_range(0..n)));
            if self.slots[slot] == Stone::Empty && !is_refused(&refused, slot) {
                match try_slot(slot, rng) {
                    Some(t) => return Some(t),
                    None => refused[slot / 64] |= 1 << (slot % 64),
                }
            }
        }
        let mut open = [0u16; MAILBOX_CAPACITY];
        let mut len = 0;
        for slot in self.square.slots() {
            if self.slots[slot] == Stone::Empty && !is_refused(&refused, slot) {
                open[len] = slot as u16;
                len += 1;
            }
        }
        while len > 0 {
            let i = rng.random_range(0..len);
            if let Some(t) = try_slot(usize::from(open[i]), rng) {
                return Some(t);
            }
            len -= 1;
            open[i] = open[len];
        }
        None
    }

    /// Whether `player` has an orthogonal path of own stones between their two sides.
    pub fn has_path(&self, player: Player) -> bool {
        let starts = self
            .square
            .slots()
            .filter(|&s| touches_start(self.square, player, s));
        self.flood(player, starts)
    }

    /// Whether the group of `player`'s stones through `slot` joins their two sides (`false`
    /// if the slot does not hold their stone), by a flood fill from the slot. The games keep
    /// [`crate::Groups`] instead, which answers the same question without a fill; this is
    /// the plain reference it is tested against.
    pub fn path_through(&self, slot: usize, player: Player) -> bool {
        self.slots[slot] == Stone::of(player) && self.flood(player, std::iter::once(slot))
    }

    /// Flood fill over `player`'s stones from `seeds`; true when the filled area touches both
    /// of the player's sides.
    ///
    /// The work list is a bitset (no stack array to clear), and a side is recognised by the
    /// off-board border beyond it, so the fill needs no division.
    fn flood(&self, player: Player, seeds: impl Iterator<Item = usize>) -> bool {
        const WORDS: usize = MAILBOX_CAPACITY.div_ceil(64);
        let own = Stone::of(player);
        let stride = self.square.stride() as isize;
        // The two opposite steps that lead off the board across the player's sides.
        let (to_start, to_end) = match player {
            Player::First => (stride, -stride),
            Player::Second => (-1, 1),
        };
        let mut seen = [0u64; WORDS];
        let mut todo = [0u64; WORDS];
        let mut low = WORDS;
        for s in seeds {
            let (w, b) = (s / 64, 1u64 << (s % 64));
            if self.slots[s] == own && seen[w] & b == 0 {
                seen[w] |= b;
                todo[w] |= b;
                low = low.min(w);
            }
        }
        let offsets = self.square.orthogonal();
        let (mut start, mut end) = (false, false);
        while low < WORDS {
            if todo[low] == 0 {
                low += 1;
                continue;
            }
            let s = low * 64 + todo[low].trailing_zeros() as usize;
            todo[low] &= todo[low] - 1;
            start |= self.slots[s.wrapping_add_signed(to_start)] == Stone::Off;
            end |= self.slots[s.wrapping_add_signed(to_end)] == Stone::Off;
            if start && end {
                return true;
            }
            for d in offsets {
                let n = s.wrapping_add_signed(d);
                let (w, b) = (n / 64, 1u64 << (n % 64));
                if self.slots[n] == own && seen[w] & b == 0 {
                    seen[w] |= b;
                    todo[w] |= b;
                    low = low.min(w);
                }
            }
        }
        false
    }

    /// The player with a path between their sides, if any (at most one can have one while no
    /// crosscut stands).
    pub fn winner(&self) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| self.has_path(p))
    }

    /// The name of the 2 x 2 block with lower-left slot `block`, by its lower-left and
    /// upper-right cells (`b1-c2`).
    pub fn block_name(&self, block: usize) -> String {
        let [ll, _, _, ur] = self.square.block(block);
        match (self.square.cell_at(ll), self.square.cell_at(ur)) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => format!("slot {block}"),
        }
    }

    /// Reads the rows of a position text (top row first, separated by `/`), with `letters`
    /// naming the first and second player's stones and `.` an empty cell.
    ///
    /// The board side is the number of rows; every row must have that many cells and the
    /// side must lie in `sizes`.
    pub fn parse_rows(
        rows: &str,
        letters: [char; 2],
        sizes: std::ops::RangeInclusive<usize>,
    ) -> Result<StoneBoard, PositionError> {
        let lines: Vec<&str> = rows.split('/').collect();
        let n = lines.len();
        if !sizes.contains(&n) {
            return Err(PositionError::bad_size(format!(
                "the board has {n} rows; this game is played on {}..={} rows",
                sizes.start(),
                sizes.end()
            )));
        }
        let square = Square::new(n).map_err(|e| PositionError::bad_size(e.to_string()))?;
        let mut board = StoneBoard::empty(square);
        for (i, line) in lines.iter().enumerate() {
            let row = (n - 1 - i) as u8;
            let len = line.chars().count();
            if len != n {
                return Err(PositionError::unreadable(format!(
                    "row {} (the {} row from the top) has {len} cells, expected {n}",
                    row + 1,
                    ordinal(i + 1)
                )));
            }
            for (col, ch) in line.chars().enumerate() {
                let cell = Cell::new(col as u8, row);
                let stone = match ch {
                    '.' => Stone::Empty,
                    c if c == letters[0] => Stone::First,
                    c if c == letters[1] => Stone::Second,
                    other => {
                        return Err(PositionError::unreadable(format!(
                            "unknown cell letter '{other}' at {cell} (expected '.', '{}' or '{}')",
                            letters[0], letters[1]
                        )));
                    }
                };
                if stone != Stone::Empty {
                    board.set(square.slot(cell), stone);
                }
            }
        }
        Ok(board)
    }

    /// The rows of the position text, top row first, separated by `/`.
    pub fn rows_text(&self, letters: [char; 2]) -> String {
        let n = self.size();
        let mut out = String::with_capacity(n * (n + 1));
        for row in (0..n as u8).rev() {
            if row as usize != n - 1 {
                out.push('/');
            }
            for col in 0..n as u8 {
                out.push(match self.at(Cell::new(col, row)) {
                    Stone::First => letters[0],
                    Stone::Second => letters[1],
                    _ => '.',
                });
            }
        }
        out
    }

    /// Each cell's owner, bottom row first, left to right (the layout of
    /// [`crate::BoardView::cells`]).
    pub fn owners(&self) -> Vec<Option<Player>> {
        self.square
            .slots()
            .map(|s| Stone::from_u8(self.slots[s] as u8).player())
            .collect()
    }
}

fn ordinal(i: usize) -> String {
    let suffix = match (i % 10, i % 100) {
        (1, n) if n != 11 => "st",
        (2, n) if n != 12 => "nd",
        (3, n) if n != 13 => "rd",
        _ => "th",
    };
    format!("{i}{suffix}")
}

impl fmt::Debug for StoneBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rows_text(['X', 'O']))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &str) -> StoneBoard {
        StoneBoard::parse_rows(rows, ['R', 'B'], 3..=26).unwrap()
    }

    #[test]
    fn rows_round_trip_and_top_row_comes_first() {
        let b = board("R../.B./...");
        assert_eq!(b.rows_text(['R', 'B']), "R../.B./...");
        assert_eq!(b.at("a3".parse().unwrap()), Stone::First);
        assert_eq!(b.at("b2".parse().unwrap()), Stone::Second);
    }

    #[test]
    fn bad_rows_name_the_place() {
        let err = StoneBoard::parse_rows("R../.B/...", ['R', 'B'], 3..=26).unwrap_err();
        assert!(err.reason.contains("row 2"), "{err}");
        let err = StoneBoard::parse_rows("R../.X./...", ['R', 'B'], 3..=26).unwrap_err();
        assert!(err.reason.contains("'X' at b2"), "{err}");
        assert!(StoneBoard::parse_rows("../..", ['R', 'B'], 3..=26).is_err());
    }

    #[test]
    fn crosscuts_are_found_where_they_stand() {
        let b = board("RB./BR./...");
        assert_eq!(b.find_crosscut(), Some("a2".parse().unwrap()));
        let sq = b.square();
        assert!(b.crosscut_at(sq.slot("b3".parse().unwrap())));
        assert!(!b.crosscut_at(sq.slot("c1".parse().unwrap())));
        assert_eq!(board("RR./BB./...").find_crosscut(), None);
        assert_eq!(board("R../BR./...").find_crosscut(), None);
    }

    #[test]
    fn paths_join_the_right_sides() {
        let b = board(".R./.R./.RB");
        assert!(b.has_path(Player::First));
        assert!(!b.has_path(Player::Second));
        let sq = b.square();
        assert!(b.path_through(sq.slot("b2".parse().unwrap()), Player::First));
        assert!(!b.path_through(sq.slot("c1".parse().unwrap()), Player::Second));
        let across = board(".../BBB/...");
        assert!(across.has_path(Player::Second) && !across.has_path(Player::First));
    }

    #[test]
    fn hash_follows_the_stones() {
        let a = board("R../.B./...");
        let mut b = board(".../.B./...");
        b.set(b.square().slot("a3".parse().unwrap()), Stone::First);
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a, b);
        b.set(b.square().slot("a3".parse().unwrap()), Stone::Empty);
        assert_ne!(a.hash(), b.hash());
    }
}
