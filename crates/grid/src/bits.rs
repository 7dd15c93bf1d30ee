//! Bitboards for square boards up to 11 x 11: a set of cells is one `u128`, bit
//! `row * n + col` (`a1` is bit 0).
//!
//! The games' fast paths (playout samplers, win tests) run on these; larger boards use the
//! mailbox of [`crate::Square`].

use crate::Cell;

/// Largest board side the bitboards cover (121 cells fit in a `u128`).
pub const MAX_BITBOARD_SIZE: usize = 11;

/// The masks of one board side.
#[derive(Clone, Copy)]
pub struct Geometry {
    /// Board side.
    pub n: u32,
    /// Every cell.
    pub board: u128,
    /// Every cell but the left column.
    not_left: u128,
    /// Every cell but the right column.
    not_right: u128,
    /// The bottom row (row 1).
    pub bottom: u128,
    /// The top row.
    pub top: u128,
    /// The left column.
    pub left: u128,
    /// The right column.
    pub right: u128,
}

const fn geometry_of(n: usize) -> Geometry {
    let cells = n * n;
    let board = (1u128 << cells) - 1;
    let mut left = 0u128;
    let mut r = 0;
    while r < n {
        left |= 1 << (r * n);
        r += 1;
    }
    let right = left << (n - 1);
    let bottom = (1u128 << n) - 1;
    Geometry {
        n: n as u32,
        board,
        not_left: board & !left,
        not_right: board & !right,
        bottom,
        top: bottom << (n * (n - 1)),
        left,
        right,
    }
}

const GEOMETRIES: [Geometry; MAX_BITBOARD_SIZE + 1] = {
    let mut table = [geometry_of(1); MAX_BITBOARD_SIZE + 1];
    let mut n = 1;
    while n <= MAX_BITBOARD_SIZE {
        table[n] = geometry_of(n);
        n += 1;
    }
    table
};

impl Geometry {
    /// The masks of an `n` x `n` board, if bitboards cover it.
    #[inline]
    pub fn of(n: usize) -> Option<Geometry> {
        GEOMETRIES.get(n).copied().filter(|_| n >= 1)
    }

    /// Cells whose upper neighbour is in `x`.
    #[inline]
    pub fn below(self, x: u128) -> u128 {
        x >> self.n
    }

    /// Cells whose lower neighbour is in `x`.
    #[inline]
    pub fn above(self, x: u128) -> u128 {
        (x << self.n) & self.board
    }

    /// Cells whose right neighbour is in `x`.
    #[inline]
    pub fn left_of(self, x: u128) -> u128 {
        (x & self.not_left) >> 1
    }

    /// Cells whose left neighbour is in `x`.
    #[inline]
    pub fn right_of(self, x: u128) -> u128 {
        (x & self.not_right) << 1
    }

    /// Cells orthogonally next to a cell of `x` (and maybe in `x`).
    #[inline]
    pub fn orthogonal(self, x: u128) -> u128 {
        self.below(x) | self.above(x) | self.left_of(x) | self.right_of(x)
    }

    /// Cells 8-adjacent to a cell of `x`, or in it.
    #[inline]
    pub fn king(self, x: u128) -> u128 {
        let row = x | self.left_of(x) | self.right_of(x);
        row | self.below(row) | self.above(row)
    }

    /// The cells diagonally next to a cell of `x`, one set per direction: the cells of
    /// which a cell of `x` is the upper-right, upper-left, lower-right and lower-left
    /// neighbour, in that order.
    #[inline]
    pub fn diagonals(self, x: u128) -> [u128; 4] {
        let (up, down) = (self.below(x), self.above(x));
        [
            self.left_of(up),
            self.right_of(up),
            self.left_of(down),
            self.right_of(down),
        ]
    }

    /// The orthogonally connected part of `within` reached from `seed`.
    #[inline]
    pub fn flood(self, seed: u128, within: u128) -> u128 {
        let mut filled = seed & within;
        loop {
            let next = (filled | self.orthogonal(filled)) & within;
            if next == filled {
                return filled;
            }
            filled = next;
        }
    }

    /// Whether a group of `own` holding a stone of `seeds` touches both `start` and `end`
    /// (two opposite sides).
    pub fn joins(self, (start, end): (u128, u128), seeds: u128, own: u128) -> bool {
        if own & start == 0 || own & end == 0 {
            return false;
        }
        let mut seeds = seeds & own;
        while seeds != 0 {
            let mut filled = seeds & seeds.wrapping_neg();
            loop {
                if filled & start != 0 && filled & end != 0 {
                    return true;
                }
                let next = (filled | self.orthogonal(filled)) & own;
                if next == filled {
                    break;
                }
                filled = next;
            }
            seeds &= !filled;
        }
        false
    }

    /// The fewest cells of `empty` an orthogonal path from `start` to `end` must cross when
    /// it may also run over `own` (and nowhere else), or `None` when no such path exists:
    /// 0 once `own` joins the two sides. A connection game's shortest-path distance.
    pub fn distance(self, (start, end): (u128, u128), own: u128, empty: u128) -> Option<u32> {
        // Layer k holds the cells a path reaches crossing at most k empty cells: each layer
        // steps onto the empty cells next to the last one, then floods through `own`.
        let mut reached = self.flood(start & own, own);
        let mut passable = own;
        for k in 0.. {
            if reached & end != 0 {
                return Some(k);
            }
            let step = (self.orthogonal(reached) | start) & empty & !reached;
            if step == 0 {
                return None;
            }
            passable |= step;
            reached = self.flood(reached | step, passable);
        }
        unreachable!("the layers grow until the board is covered")
    }

    /// The bit of a cell.
    #[inline]
    pub fn bit(self, cell: Cell) -> u128 {
        1 << (u32::from(cell.row()) * self.n + u32::from(cell.col()))
    }

    /// The cell of the lowest bit of a non-empty set.
    #[inline]
    pub fn lowest_cell(self, x: u128) -> Cell {
        let i = x.trailing_zeros();
        Cell::new((i % self.n) as u8, (i / self.n) as u8)
    }
}

/// The `k`-th lowest bit of `x` (which has more than `k` bits), alone.
#[inline]
pub fn nth_bit(x: u128, k: u32) -> u128 {
    let low = x as u64;
    let (mut word, mut k, shift) = if k < low.count_ones() {
        (low, k, 0)
    } else {
        ((x >> 64) as u64, k - low.count_ones(), 64)
    };
    while k > 0 {
        word &= word - 1;
        k -= 1;
    }
    u128::from(word & word.wrapping_neg()) << shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_on_the_board() {
        for n in 3..=MAX_BITBOARD_SIZE {
            let g = Geometry::of(n).unwrap();
            for col in 0..n as u8 {
                for row in 0..n as u8 {
                    let c = Cell::new(col, row);
                    let mut expected = 0u128;
                    for (dc, dr) in [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)] {
                        let (x, y) = (col as i8 + dc, row as i8 + dr);
                        if x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n {
                            expected |= g.bit(Cell::new(x as u8, y as u8));
                        }
                    }
                    assert_eq!(g.orthogonal(g.bit(c)), expected, "{n} {c}");
                    assert_eq!(g.lowest_cell(g.bit(c)), c);
                    let king = g.king(g.bit(c));
                    assert_eq!(king.count_ones() as usize, {
                        let span =
                            |v: u8| 1 + usize::from(v > 0) + usize::from((v as usize) < n - 1);
                        span(col) * span(row)
                    });
                }
            }
        }
    }

    /// The distance is checked against a breadth-first search over (cell, empties crossed)
    /// on random boards.
    #[test]
    fn distance_counts_the_fewest_empty_cells_of_a_path() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            // xorshift: the grid crate keeps no random-number dependency for one test.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in 3..=MAX_BITBOARD_SIZE {
            let g = Geometry::of(n).unwrap();
            for _ in 0..40 {
                let (mut own, mut empty) = (0u128, 0u128);
                for i in 0..n * n {
                    match next() % 3 {
                        0 => own |= 1 << i,
                        1 => empty |= 1 << i,
                        _ => {}
                    }
                }
                for sides in [(g.bottom, g.top), (g.left, g.right)] {
                    assert_eq!(
                        g.distance(sides, own, empty),
                        slow_distance(g, sides, own, empty)
                    );
                }
            }
        }
    }

    /// Costs 0 (own) and 1 (empty) per cell entered, relaxed one cell at a time until
    /// nothing changes (Bellman-Ford: boards are small).
    fn slow_distance(
        g: Geometry,
        (start, end): (u128, u128),
        own: u128,
        empty: u128,
    ) -> Option<u32> {
        let cells = (g.n * g.n) as usize;
        let bit = |i: usize| 1u128 << i;
        let cost = |i: usize| {
            if own & bit(i) != 0 {
                Some(0)
            } else if empty & bit(i) != 0 {
                Some(1)
            } else {
                None
            }
        };
        let mut best: Vec<Option<u32>> = (0..cells)
            .map(|i| cost(i).filter(|_| start & bit(i) != 0))
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..cells {
                let Some(here) = best[i] else { continue };
                for j in (0..cells).filter(|&j| g.orthogonal(bit(i)) & bit(j) != 0) {
                    if let Some(step) = cost(j)
                        && best[j].is_none_or(|b| here + step < b)
                    {
                        best[j] = Some(here + step);
                        changed = true;
                    }
                }
            }
        }
        (0..cells)
            .filter(|&i| end & bit(i) != 0)
            .filter_map(|i| best[i])
            .min()
    }

    #[test]
    fn nth_bit_picks_in_order() {
        let x: u128 = (1 << 3) | (1 << 70) | (1 << 100) | 1;
        assert_eq!(nth_bit(x, 0), 1);
        assert_eq!(nth_bit(x, 1), 1 << 3);
        assert_eq!(nth_bit(x, 2), 1 << 70);
        assert_eq!(nth_bit(x, 3), 1 << 100);
    }
}
