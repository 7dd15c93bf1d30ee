//! The stone games' view of [`swapboard_grid::bits`]: a player's stones and sides as
//! bitboards, and crosscuts found for the whole board at once.

use swapboard_grid::bits::Geometry;

use crate::{Player, StoneBoard};

/// The sides `player` joins, as (start, end) masks: bottom and top rows for the first
/// player, left and right columns for the second (the connection games' convention).
#[inline]
pub fn sides(g: Geometry, player: Player) -> (u128, u128) {
    match player {
        Player::First => (g.bottom, g.top),
        Player::Second => (g.left, g.right),
    }
}

/// The bottom-left cells of every crosscut of the board whose stones are `first` and
/// `second`: 2 x 2 blocks holding two stones of each colour, like colours diagonally
/// opposed.
#[inline]
pub fn crosscut_corners(g: Geometry, first: u128, second: u128) -> u128 {
    // For a corner c: its right neighbour, upper neighbour and upper-right neighbour.
    let right = |x| g.left_of(x);
    let up = |x| g.below(x);
    let diagonal = |x| g.below(g.left_of(x));
    (first & diagonal(first) & right(second) & up(second))
        | (second & diagonal(second) & right(first) & up(first))
}

/// The cells of the 2 x 2 blocks whose bottom-left cells are `corners`.
#[inline]
pub fn blocks_of(g: Geometry, corners: u128) -> u128 {
    let row = corners | g.right_of(corners);
    row | g.above(row)
}

impl StoneBoard {
    /// Each player's stones as a bitboard (first player's, then second's), or `None` on a
    /// board too large for one.
    pub fn bitboards(&self) -> Option<[u128; 2]> {
        Geometry::of(self.size())?;
        let (n, stride) = (self.size(), self.square().stride());
        let mut stones = [0u128; 2];
        // Plain loops rather than `Square::slots`: solvers call this for every position.
        for row in 0..n {
            for col in 0..n {
                if let Some(p) = self.get((row + 1) * stride + col + 1).player() {
                    stones[p.index()] |= 1 << (row * n + col);
                }
            }
        }
        Some(stones)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stone;

    /// On random boards, the crosscut corners are exactly the blocks the mailbox calls
    /// crosscuts.
    #[test]
    fn crosscut_corners_agree_with_the_mailbox() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let stones = [Stone::Empty, Stone::First, Stone::Second];
        for size in 3..=swapboard_grid::bits::MAX_BITBOARD_SIZE {
            let sq = swapboard_grid::Square::new(size).unwrap();
            let g = Geometry::of(size).unwrap();
            for _ in 0..50 {
                let mut board = StoneBoard::empty(sq);
                for s in sq.slots() {
                    board.set(s, stones[rng.random_range(0..3)]);
                }
                let [first, second] = board.bitboards().unwrap();
                let corners = crosscut_corners(g, first, second);
                for c in sq.cells() {
                    let expected = c.col() as usize + 1 < size
                        && c.row() as usize + 1 < size
                        && board.is_crosscut(sq.slot(c));
                    assert_eq!(corners & g.bit(c) != 0, expected, "{size} {c}");
                }
                let all = blocks_of(g, corners);
                assert_eq!(all & !g.board, 0);
            }
        }
    }
}
