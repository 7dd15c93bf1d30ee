//! What the placement connection games (Swaptimum, Flipstop) share: players place checkers of
//! their colour on a square board, no crosscut may stand after a turn, a player with no legal
//! placement passes, and the first player to join their sides wins.

use std::fmt::{self, Display};
use std::ops::RangeInclusive;

use swapboard_grid::bits::Geometry;
use swapboard_grid::{Cell, MAX_SIZE, MIN_SIZE, Square};

use crate::symmetry::{self, SquareSymmetry};
use crate::{
    BoardView, Groups, IllegalMove, Outcome, Player, PositionError, Rule, Stone, StoneBoard,
    bitboard, text, zobrist,
};

/// The board sizes of the placement games (the rulings: any N from 3 to 26).
pub const PLACEMENT_SIZES: RangeInclusive<usize> = MIN_SIZE as usize..=MAX_SIZE as usize;

/// The state of a placement game: the board, the player to move, the winner once there is one.
///
/// Change the board through [`PlacementState::place`] and [`PlacementState::change`], which
/// keep the groups (and so the winner) up to date.
#[derive(Clone)]
pub struct PlacementState {
    /// The checkers: changed only through `place` and `change`.
    board: StoneBoard,
    /// The player to move.
    pub to_move: Player,
    /// The player who has joined their sides, once one has.
    pub winner: Option<Player>,
    /// The groups of the board, derived from it (so left out of equality and hashing).
    groups: Groups,
    /// Whether `groups` must be rebuilt from the board before use.
    groups_stale: bool,
}

impl PartialEq for PlacementState {
    fn eq(&self, other: &PlacementState) -> bool {
        (&self.board, self.to_move, self.winner) == (&other.board, other.to_move, other.winner)
    }
}

impl Eq for PlacementState {}

impl std::hash::Hash for PlacementState {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.board, self.to_move, self.winner).hash(state);
    }
}

impl PlacementState {
    /// The empty board of side `size`, first player to move.
    pub fn start(size: usize) -> Result<PlacementState, PositionError> {
        let square = Square::new(size).map_err(|e| PositionError::bad_size(e.to_string()))?;
        let board = StoneBoard::empty(square);
        let groups = Groups::new(&board);
        Ok(PlacementState {
            board,
            to_move: Player::First,
            winner: None,
            groups,
            groups_stale: false,
        })
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &StoneBoard {
        &self.board
    }

    /// Reads `<game> <rows> <to-move>`, refusing a board with a crosscut on it.
    pub fn parse(
        text: &str,
        game: &str,
        letters: [char; 2],
    ) -> Result<PlacementState, PositionError> {
        let (board, to_move) = text::crosscut_free_position(text, game, letters, PLACEMENT_SIZES)?;
        let winner = board.winner();
        let groups = Groups::new(&board);
        Ok(PlacementState {
            board,
            to_move,
            winner,
            groups,
            groups_stale: false,
        })
    }

    /// Writes `<game> <rows> <to-move>`.
    pub fn write(&self, f: &mut fmt::Formatter<'_>, game: &str, letters: [char; 2]) -> fmt::Result {
        write!(
            f,
            "{game} {} {}",
            self.board.rows_text(letters),
            letters[self.to_move.index()]
        )
    }

    /// The Zobrist hash of the board and the side to move.
    pub fn zobrist(&self) -> u64 {
        let side = if self.to_move == Player::Second {
            zobrist::second_to_move()
        } else {
            0
        };
        self.board.hash() ^ side
    }

    /// For each player (first, then second), the fewest empty cells they must fill to join
    /// their sides by an orthogonal path of their checkers, crosscuts and swaps left aside
    /// (the board's cell count plus one when the other colour blocks every path), or `None`
    /// above the bitboards' size.
    pub fn distances_to_win(&self) -> Option<[u32; 2]> {
        let g = Geometry::of(self.board.size())?;
        let stones = self.board.bitboards()?;
        let empty = g.board & !stones[0] & !stones[1];
        Some(Player::BOTH.map(|p| {
            g.distance(bitboard::sides(g, p), stones[p.index()], empty)
                .unwrap_or(g.n * g.n + 1)
        }))
    }

    /// The result: the winner; else a draw when neither player has a legal placement
    /// (`can_place` tells whether a player has one); else none.
    pub fn outcome(&self, can_place: impl Fn(Player) -> bool) -> Option<Outcome> {
        if let Some(p) = self.winner {
            return Some(Outcome::Win(p));
        }
        (!can_place(self.to_move) && !can_place(self.to_move.other())).then_some(Outcome::Draw)
    }

    /// Why no move can be played in a finished game.
    pub fn game_over(outcome: Outcome, names: [&str; 2]) -> IllegalMove {
        let message = match outcome {
            Outcome::Win(p) => format!("the game is over: {} has won", names[p.index()]),
            Outcome::Draw => "the game is over: drawn, neither player can move".into(),
        };
        IllegalMove::new(Rule::GameOver, message)
    }

    /// Why `pass` is refused, given the first legal placement if there is one.
    pub fn pass_problem(first_legal: Option<impl Display>) -> Option<IllegalMove> {
        first_legal.map(|m| {
            IllegalMove::new(
                Rule::PassNotAllowed,
                format!("a player may pass only when no placement is legal, and {m} is legal"),
            )
        })
    }

    /// Why a placement on `cell` is refused if the cell is off the board or occupied.
    pub fn occupied(&self, cell: Cell, names: [&str; 2]) -> Option<IllegalMove> {
        if let Some(off) = IllegalMove::off_board(self.board.square(), [cell]) {
            return Some(off);
        }
        self.board.at(cell).player().map(|p| {
            IllegalMove::new(
                Rule::Occupied,
                format!("{cell} is occupied by a {} checker", names[p.index()]),
            )
        })
    }

    /// The picture of the position.
    pub fn view(
        &self,
        title: &str,
        letters: [char; 2],
        names: [&'static str; 2],
        outcome: Option<Outcome>,
    ) -> BoardView {
        BoardView::connection(title, &self.board, letters, names, self.to_move, outcome)
    }

    /// The images of the position under the seven symmetries other than the identity (see
    /// [`crate::symmetry`]: the ones that exchange rows and columns exchange the colours and
    /// the player to move too, since these games treat both players alike but for who starts).
    pub fn symmetric_images(&self) -> impl Iterator<Item = PlacementState> + '_ {
        SquareSymmetry::ALL[1..].iter().map(|&s| {
            let (board, to_move) = symmetry::connection_image(&self.board, self.to_move, s);
            let winner = self
                .winner
                .map(|p| if s.exchanges_sides() { p.other() } else { p });
            let groups = Groups::new(&board);
            PlacementState {
                board,
                to_move,
                winner,
                groups,
                groups_stale: false,
            }
        })
    }

    /// The hash shared by all the symmetric images of the position.
    pub fn canonical_hash(&self) -> u64 {
        symmetry::connection_canonical_hash(&self.board, self.to_move)
    }

    /// Replaces the board by `board` (crosscut-free, as the rules keep it) with `to_move` to
    /// move and `winner` the player whose path it holds, if any, as after a fast playout that
    /// ran on another representation and knows who won. The groups are rebuilt only if the
    /// position is played on: a finished playout is usually dropped at once.
    pub fn replace_board(&mut self, board: StoneBoard, to_move: Player, winner: Option<Player>) {
        debug_assert_eq!(winner, board.winner(), "the winner of the new board");
        self.board = board;
        self.to_move = to_move;
        self.winner = winner;
        self.groups_stale = true;
    }

    /// Rebuilds the groups if the board was replaced since they were last kept.
    #[inline]
    fn refresh_groups(&mut self) {
        if self.groups_stale {
            self.groups.rebuild(&self.board);
            self.groups_stale = false;
        }
    }

    /// Places `player`'s checker on the empty `slot`, and records a win if it completes
    /// the player's path.
    #[inline]
    pub fn place(&mut self, slot: usize, player: Player) {
        self.board.set(slot, Stone::of(player));
        self.refresh_groups();
        if self.groups.add(&self.board, slot) {
            self.winner = Some(player);
        }
    }

    /// Gives each listed slot its new stone, in order (the moves that change colours: a
    /// placement with a swap, a placement with replacements; a slot may be listed twice),
    /// keeps the groups, and records a win: a new path must run through a changed cell.
    pub fn change(&mut self, changes: &[(usize, Stone)]) {
        const MAX_CHANGES: usize = 8;
        let mut before = [(0, Stone::Empty); MAX_CHANGES];
        for (i, &(slot, stone)) in changes.iter().enumerate() {
            before[i] = (slot, self.board.get(slot));
            self.board.set(slot, stone);
        }
        self.refresh_groups();
        self.groups.update(&self.board, &before[..changes.len()]);
        for &(slot, _) in changes {
            if let Some(p) = self.board.get(slot).player()
                && self.groups.joins_sides(slot)
            {
                self.winner = Some(p);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distances(rows: &str) -> Option<[u32; 2]> {
        PlacementState::parse(&format!("swaptimum {rows} R"), "swaptimum", ['R', 'B'])
            .unwrap()
            .distances_to_win()
    }

    /// The distances count the empty cells of each player's best path: through their own
    /// checkers for free, around the other colour's, and past the board's cell count when
    /// the other colour has a path across.
    #[test]
    fn distances_count_the_empty_cells_of_the_best_path() {
        assert_eq!(distances("...../...../...../...../....."), Some([5, 5]));
        // Red holds c3 to c5; Blue must go round them through rows 1 and 2.
        assert_eq!(distances("..R../..R../..R../...../....."), Some([2, 5]));
        // A bend costs nothing extra: Blue's a3, b3, b2 and c2 leave d2 and e2.
        assert_eq!(distances("...../...../BB.../.BB../....."), Some([5, 2]));
        assert_eq!(distances("...../...../BBBBB/...../....."), Some([26, 0]));
    }
}
