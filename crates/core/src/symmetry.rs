//! The symmetries of a square board, and the images of a connection-game position under
//! them (used by solvers through [`crate::Game::symmetries`] and
//! [`crate::Game::canonical_hash`]).
//!
//! In a game where the first player joins the top and bottom rows and the second the left
//! and right columns, the symmetries that keep each player's sides are the two mirror
//! images and the half turn. The four that exchange rows and columns (the two diagonal
//! mirrors and the quarter turns) turn the first player's sides into the second's, so they
//! are symmetries of the game only if the colours and the player to move are exchanged too:
//! then the image is the same game with the players' roles swapped, and the result for the
//! player to move is unchanged. That holds when the rules treat both players alike except
//! for who starts (Swaptimum, Flipstop), not for Scware (only Red may balance).

use swapboard_grid::Cell;

use crate::{Player, Stone, StoneBoard, zobrist};

/// One of the eight symmetries of a square board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareSymmetry {
    /// Every cell stays.
    Identity,
    /// Left and right exchange (column `a` becomes the last column).
    MirrorColumns,
    /// Top and bottom exchange (row 1 becomes row N).
    MirrorRows,
    /// The half turn.
    Rotate180,
    /// The mirror in the diagonal through `a1`: column `c` becomes row `c`.
    Transpose,
    /// The mirror in the other diagonal.
    AntiTranspose,
    /// The quarter turn anticlockwise.
    Rotate90,
    /// The quarter turn clockwise.
    Rotate270,
}

impl SquareSymmetry {
    /// All eight, the identity first, then the three that keep rows as rows.
    pub const ALL: [SquareSymmetry; 8] = [
        SquareSymmetry::Identity,
        SquareSymmetry::MirrorColumns,
        SquareSymmetry::MirrorRows,
        SquareSymmetry::Rotate180,
        SquareSymmetry::Transpose,
        SquareSymmetry::AntiTranspose,
        SquareSymmetry::Rotate90,
        SquareSymmetry::Rotate270,
    ];

    /// Where `cell` goes on a board of side `size`.
    pub fn map(self, cell: Cell, size: usize) -> Cell {
        let last = (size - 1) as u8;
        let (c, r) = (cell.col(), cell.row());
        let (col, row) = match self {
            SquareSymmetry::Identity => (c, r),
            SquareSymmetry::MirrorColumns => (last - c, r),
            SquareSymmetry::MirrorRows => (c, last - r),
            SquareSymmetry::Rotate180 => (last - c, last - r),
            SquareSymmetry::Transpose => (r, c),
            SquareSymmetry::AntiTranspose => (last - r, last - c),
            SquareSymmetry::Rotate90 => (last - r, c),
            SquareSymmetry::Rotate270 => (r, last - c),
        };
        Cell::new(col, row)
    }

    /// Whether rows become columns (and so one player's sides the other's).
    pub const fn exchanges_sides(self) -> bool {
        matches!(
            self,
            SquareSymmetry::Transpose
                | SquareSymmetry::AntiTranspose
                | SquareSymmetry::Rotate90
                | SquareSymmetry::Rotate270
        )
    }
}

/// The stone a stone becomes when the colours are exchanged or not.
const fn recolour(stone: Stone, swap_colours: bool) -> Stone {
    match (stone, swap_colours) {
        (Stone::First, true) => Stone::Second,
        (Stone::Second, true) => Stone::First,
        (s, _) => s,
    }
}

impl StoneBoard {
    /// The board's image under `symmetry`, with the colours exchanged when `swap_colours`.
    pub fn transformed(&self, symmetry: SquareSymmetry, swap_colours: bool) -> StoneBoard {
        let square = self.square();
        let mut image = StoneBoard::empty(square);
        for cell in square.cells() {
            let stone = recolour(self.at(cell), swap_colours);
            if stone != Stone::Empty {
                image.set(square.slot(symmetry.map(cell, square.size())), stone);
            }
        }
        image
    }
}

/// The image under `symmetry` of a connection-game position (`board`, `to_move`): the board
/// mapped, and, for a symmetry that exchanges sides, the colours and the player to move
/// exchanged too (see the module documentation).
pub fn connection_image(
    board: &StoneBoard,
    to_move: Player,
    symmetry: SquareSymmetry,
) -> (StoneBoard, Player) {
    let swap = symmetry.exchanges_sides();
    let mover = if swap { to_move.other() } else { to_move };
    (board.transformed(symmetry, swap), mover)
}

/// The smallest hash of the eight images of a connection-game position, each hashed as the
/// games hash a position (the stones, and [`zobrist::second_to_move`] when the second
/// player is to move): equal for positions that are images of each other.
///
/// Solvers call it for every position they meet, so it hashes the eight images in one pass
/// over the board (the images of a cell written out in [`SquareSymmetry::ALL`]'s order)
/// rather than one pass per image.
pub fn connection_canonical_hash(board: &StoneBoard, to_move: Player) -> u64 {
    let square = board.square();
    let last = (square.size() - 1) as u8;
    let mut hashes = [0u64; 8];
    for cell in square.cells() {
        let Some(owner) = board.at(cell).player() else {
            continue;
        };
        let (c, r) = (cell.col(), cell.row());
        let images = [
            (c, r),
            (last - c, r),
            (c, last - r),
            (last - c, last - r),
            (r, c),
            (last - r, last - c),
            (last - r, c),
            (r, last - c),
        ];
        for (k, (hash, (col, row))) in hashes.iter_mut().zip(images).enumerate() {
            // The last four exchange sides, so colours too.
            let owner = if k >= 4 { owner.other() } else { owner };
            *hash ^= zobrist::stone(square.slot(Cell::new(col, row)), owner);
        }
    }
    // The player to move is exchanged by the last four as well.
    let side = zobrist::second_to_move();
    let to_move_key = |exchanged: bool| match (to_move, exchanged) {
        (Player::First, false) | (Player::Second, true) => 0,
        _ => side,
    };
    hashes
        .iter()
        .enumerate()
        .map(|(k, &hash)| hash ^ to_move_key(k >= 4))
        .min()
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;
    use swapboard_grid::Square;

    #[test]
    fn the_symmetries_form_the_group_of_the_square() {
        let size = 5;
        let corner = Cell::new(0, 0);
        let images: Vec<Cell> = SquareSymmetry::ALL
            .iter()
            .map(|s| s.map(Cell::new(1, 0), size))
            .collect();
        // b1 has eight distinct images: the group acts freely on it.
        let mut distinct = images.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 8, "{images:?}");
        for s in SquareSymmetry::ALL {
            // Every symmetry is a bijection of the board that keeps adjacency.
            let square = Square::new(size).unwrap();
            let mut seen: Vec<Cell> = square.cells().map(|c| s.map(c, size)).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), size * size);
            assert!(
                s.map(corner, size)
                    .is_king_adjacent(s.map(Cell::new(1, 1), size))
            );
            assert!(
                s.map(corner, size)
                    .is_orthogonal(s.map(Cell::new(0, 1), size))
            );
            // Sides are exchanged exactly when a row of cells becomes a column.
            let a = s.map(Cell::new(0, 2), size);
            let b = s.map(Cell::new(4, 2), size);
            assert_eq!(s.exchanges_sides(), a.row() != b.row(), "{s:?}");
        }
    }

    /// The one-pass canonical hash is the least of the images' hashes, each computed by
    /// the definition (the image's own hash), on random boards of several sizes.
    #[test]
    fn canonical_hash_is_the_least_hash_of_the_images() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let stones = [Stone::Empty, Stone::First, Stone::Second];
        for size in [3usize, 4, 5, 8, 13] {
            let square = swapboard_grid::Square::new(size).unwrap();
            for _ in 0..20 {
                let mut board = StoneBoard::empty(square);
                for s in square.slots() {
                    board.set(s, stones[rng.random_range(0..3)]);
                }
                for to_move in Player::BOTH {
                    let least = SquareSymmetry::ALL
                        .iter()
                        .map(|&s| {
                            let (image, mover) = connection_image(&board, to_move, s);
                            let side = match mover {
                                Player::First => 0,
                                Player::Second => zobrist::second_to_move(),
                            };
                            image.hash() ^ side
                        })
                        .min();
                    assert_eq!(Some(connection_canonical_hash(&board, to_move)), least);
                }
            }
        }
    }

    #[test]
    fn transformed_boards_keep_or_exchange_the_stones() {
        let board = StoneBoard::parse_rows("R.B../.RB../..R../B..../....B", ['R', 'B'], 3..=26)
            .expect("a board");
        for s in SquareSymmetry::ALL {
            for swap in [false, true] {
                let image = board.transformed(s, swap);
                assert_eq!(
                    image.count(Player::First),
                    board.count(Player::from_index(usize::from(swap)))
                );
            }
        }
        // Exchanging sides and colours carries the first player's path to the second's.
        let red_path = StoneBoard::parse_rows("..R/..R/..R", ['R', 'B'], 3..=26).expect("a board");
        assert_eq!(red_path.winner(), Some(Player::First));
        let (image, mover) = connection_image(&red_path, Player::First, SquareSymmetry::Transpose);
        assert_eq!(
            (image.winner(), mover),
            (Some(Player::Second), Player::Second)
        );
        assert_eq!(
            connection_canonical_hash(&red_path, Player::First),
            connection_canonical_hash(&image, mover)
        );
        assert_ne!(
            connection_canonical_hash(&red_path, Player::First),
            connection_canonical_hash(&red_path, Player::Second)
        );
    }
}
