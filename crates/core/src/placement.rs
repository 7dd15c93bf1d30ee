//! What the placement connection games (Swaptimum, Flipstop) share: players place checkers of
//! their colour on a square board, no crosscut may stand after a turn, a player with no legal
//! placement passes, and the first player to join their sides wins.

use std::fmt::{self, Display};
use std::ops::RangeInclusive;

use swapboard_grid::{Cell, MAX_SIZE, MIN_SIZE, Square};

use crate::symmetry::{self, SquareSymmetry};
use crate::{BoardView, IllegalMove, Outcome, Player, PositionError, StoneBoard, text, zobrist};

/// The board sizes of the placement games (the rulings: any N from 3 to 26).
pub const PLACEMENT_SIZES: RangeInclusive<usize> = MIN_SIZE as usize..=MAX_SIZE as usize;

/// The state of a placement game: the board, the player to move, the winner once there is one.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PlacementState {
    /// The checkers.
    pub board: StoneBoard,
    /// The player to move.
    pub to_move: Player,
    /// The player who has joined their sides, once one has.
    pub winner: Option<Player>,
}

impl PlacementState {
    /// The empty board of side `size`, first player to move.
    pub fn start(size: usize) -> Result<PlacementState, PositionError> {
        let square = Square::new(size).map_err(|e| PositionError::new(e.to_string()))?;
        Ok(PlacementState {
            board: StoneBoard::empty(square),
            to_move: Player::First,
            winner: None,
        })
    }

    /// Reads `<game> <rows> <to-move>`, refusing a board with a crosscut on it.
    pub fn parse(
        text: &str,
        game: &str,
        letters: [char; 2],
    ) -> Result<PlacementState, PositionError> {
        let (board, to_move) = text::crosscut_free_position(text, game, letters, PLACEMENT_SIZES)?;
        let winner = board.winner();
        Ok(PlacementState {
            board,
            to_move,
            winner,
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
        IllegalMove(match outcome {
            Outcome::Win(p) => format!("the game is over: {} has won", names[p.index()]),
            Outcome::Draw => "the game is over: drawn, neither player can move".into(),
        })
    }

    /// Why `pass` is refused, given the first legal placement if there is one.
    pub fn pass_problem(first_legal: Option<impl Display>) -> Option<String> {
        first_legal
            .map(|m| format!("a player may pass only when no placement is legal, and {m} is legal"))
    }

    /// Why a placement on `cell` is refused if the cell is occupied.
    pub fn occupied(&self, cell: Cell, names: [&str; 2]) -> Option<String> {
        self.board
            .at(cell)
            .player()
            .map(|p| format!("{cell} is occupied by a {} checker", names[p.index()]))
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
            PlacementState {
                board,
                to_move,
                winner,
            }
        })
    }

    /// The hash shared by all the symmetric images of the position.
    pub fn canonical_hash(&self) -> u64 {
        symmetry::connection_canonical_hash(&self.board, self.to_move)
    }

    /// Records the winner after the slots in `changed` took new colours: a new path must run
    /// through a cell that just became its owner's.
    pub fn update_winner(&mut self, changed: &[usize]) {
        for &s in changed {
            if let Some(p) = self.board.get(s).player()
                && self.board.path_through(s, p)
            {
                self.winner = Some(p);
                return;
            }
        }
    }
}
