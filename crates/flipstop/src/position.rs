use std::fmt;
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;

use rand::Rng;
use swapboard_core::{
    BoardView, Game, IllegalMove, MoveError, Outcome, Player, PositionError, Stone, StoneBoard,
    symmetry, symmetry::SquareSymmetry, text, zobrist,
};
use swapboard_grid::{Cell, MAX_SIZE, MIN_SIZE, Square};

const LETTERS: [char; 2] = ['R', 'B'];
const NAMES: [&str; 2] = ["Red", "Blue"];

/// A Flipstop move: a placement (its replacements are forced) or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlipstopMove {
    /// A checker placed on the cell.
    Place(Cell),
    /// The turn is skipped: only when no placement is legal.
    Pass,
}

impl fmt::Display for FlipstopMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlipstopMove::Place(c) => write!(f, "{c}"),
            FlipstopMove::Pass => f.write_str("pass"),
        }
    }
}

/// A Flipstop position: the board, the player to move, and the winner once there is one.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Flipstop {
    board: StoneBoard,
    to_move: Player,
    winner: Option<Player>,
}

swapboard_core::serde_as_text!(Flipstop);
swapboard_core::whole_turns!(Flipstop);

/// What a placement does: the enemy checkers it replaces, or why it is illegal.
enum Placement {
    /// Legal; the slots replaced by the mover's colour (up to four).
    Legal { replaced: [usize; 4], len: usize },
    /// Illegal: a formed crosscut (lower-left slot) none of whose enemy checkers can be
    /// replaced, and for each of its enemies the crosscut replacing it would form.
    Illegal {
        block: usize,
        blockers: [(usize, usize); 2],
    },
}

impl Flipstop {
    fn square(&self) -> Square {
        self.board.square()
    }

    /// The board.
    pub fn board(&self) -> &StoneBoard {
        &self.board
    }

    /// What placing `player`'s checker on the empty `slot` does.
    ///
    /// Per the rulings: each enemy checker e of a formed crosscut is replaced iff replacing e
    /// alone, on the board right after the placement, forms no crosscut containing e; the
    /// placement is illegal iff some formed crosscut has no replaceable enemy checker.
    fn placement(&self, slot: usize, player: Player) -> Placement {
        let stone = Stone::of(player);
        let formed = self.board.crosscuts_formed(slot, stone);
        let mut replaced = [0usize; 4];
        let mut len = 0;
        if formed.is_empty() {
            return Placement::Legal { replaced, len };
        }
        let mut board = self.board.clone();
        board.set(slot, stone);
        let enemy = board.get(self.board.enemies_in(formed.blocks()[0], slot)[0]);
        // The crosscut that replacing `e` would form, if any.
        let mut blocker_of = |e: usize| -> Option<usize> {
            board.set(e, stone);
            let sq = board.square();
            let found = sq
                .blocks_around(e)
                .into_iter()
                .find(|&b| board.is_crosscut(b));
            board.set(e, enemy);
            found
        };
        let mut checked: [(usize, Option<usize>); 4] = [(0, None); 4];
        let mut n_checked = 0;
        for &block in formed.blocks() {
            let mut blockers = [(0, 0); 2];
            let mut any = false;
            for (k, e) in self.board.enemies_in(block, slot).into_iter().enumerate() {
                let blocker = match checked[..n_checked].iter().find(|(s, _)| *s == e) {
                    Some(&(_, b)) => b,
                    None => {
                        let b = blocker_of(e);
                        checked[n_checked] = (e, b);
                        n_checked += 1;
                        if b.is_none() {
                            replaced[len] = e;
                            len += 1;
                        }
                        b
                    }
                };
                match blocker {
                    None => any = true,
                    Some(b) => blockers[k] = (e, b),
                }
            }
            if !any {
                return Placement::Illegal { block, blockers };
            }
        }
        Placement::Legal { replaced, len }
    }

    fn placement_is_legal(&self, slot: usize, player: Player) -> bool {
        matches!(self.placement(slot, player), Placement::Legal { .. })
    }

    /// Whether `player` has any legal placement.
    fn can_place(&self, player: Player) -> bool {
        self.square()
            .slots()
            .any(|s| self.board.get(s) == Stone::Empty && self.placement_is_legal(s, player))
    }

    /// The cells a placement at `cell` by the player to move would replace, in cell order
    /// (empty when it forms no crosscut), or `None` if the placement is illegal.
    pub fn replacements(&self, cell: Cell) -> Option<Vec<Cell>> {
        let sq = self.square();
        if !sq.contains(cell) || self.board.at(cell) != Stone::Empty {
            return None;
        }
        match self.placement(sq.slot(cell), self.to_move) {
            Placement::Legal { replaced, len } => {
                let mut cells: Vec<Cell> = replaced[..len]
                    .iter()
                    .filter_map(|&s| sq.cell_at(s))
                    .collect();
                cells.sort();
                Some(cells)
            }
            Placement::Illegal { .. } => None,
        }
    }

    fn placement_problem(&self, cell: Cell) -> Option<String> {
        let sq = self.square();
        let slot = sq.slot(cell);
        if let Some(p) = self.board.get(slot).player() {
            return Some(format!(
                "{cell} is occupied by a {} checker",
                NAMES[p.index()]
            ));
        }
        match self.placement(slot, self.to_move) {
            Placement::Legal { .. } => None,
            Placement::Illegal { block, blockers } => {
                let name = |s: usize| sq.cell_at(s).map_or_else(String::new, |c| c.to_string());
                let why: Vec<String> = blockers
                    .iter()
                    .map(|&(e, b)| {
                        format!(
                            "replacing {} would form the crosscut {}",
                            name(e),
                            self.board.block_name(b)
                        )
                    })
                    .collect();
                Some(format!(
                    "a placement at {cell} forms the crosscut {} and no enemy checker in it can be \
                     replaced (the placement restriction): {}",
                    self.board.block_name(block),
                    why.join("; ")
                ))
            }
        }
    }
}

impl Game for Flipstop {
    type Move = FlipstopMove;

    const ID: &'static str = "flipstop";
    const TITLE: &'static str = "Flipstop by Mark Steere (2023)";
    const DEFAULT_SIZE: usize = 9;

    fn sizes() -> RangeInclusive<usize> {
        usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)
    }

    fn start(size: usize) -> Result<Flipstop, PositionError> {
        let square = Square::new(size).map_err(|e| PositionError::new(e.to_string()))?;
        Ok(Flipstop {
            board: StoneBoard::empty(square),
            to_move: Player::First,
            winner: None,
        })
    }

    fn size(&self) -> usize {
        self.board.size()
    }

    fn colour_letter(player: Player) -> char {
        LETTERS[player.index()]
    }

    fn colour_name(player: Player) -> &'static str {
        NAMES[player.index()]
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(p) = self.winner {
            return Some(Outcome::Win(p));
        }
        (!self.can_place(self.to_move) && !self.can_place(self.to_move.other()))
            .then_some(Outcome::Draw)
    }

    fn for_each_move<F: FnMut(FlipstopMove) -> ControlFlow<()>>(
        &self,
        mut f: F,
    ) -> ControlFlow<()> {
        if self.winner.is_some() {
            return ControlFlow::Continue(());
        }
        let sq = self.square();
        let mut any = false;
        for slot in sq.slots() {
            if self.board.get(slot) == Stone::Empty && self.placement_is_legal(slot, self.to_move) {
                any = true;
                f(FlipstopMove::Place(sq.cell_at(slot).expect("on board")))?;
            }
        }
        if !any && self.can_place(self.to_move.other()) {
            f(FlipstopMove::Pass)?;
        }
        ControlFlow::Continue(())
    }

    fn check_move(&self, mv: &FlipstopMove) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove(match outcome {
                Outcome::Win(p) => format!("the game is over: {} has won", NAMES[p.index()]),
                Outcome::Draw => "the game is over: drawn, neither player can move".into(),
            }));
        }
        let problem = match *mv {
            FlipstopMove::Place(cell) => self.placement_problem(cell),
            FlipstopMove::Pass => {
                let sq = self.square();
                sq.slots()
                    .find(|&s| {
                        self.board.get(s) == Stone::Empty
                            && self.placement_is_legal(s, self.to_move)
                    })
                    .and_then(|s| sq.cell_at(s))
                    .map(|c| {
                        format!(
                            "a player may pass only when no placement is legal, and {c} is legal"
                        )
                    })
            }
        };
        problem.map_or(Ok(()), |p| Err(IllegalMove(p)))
    }

    fn play_unchecked(&mut self, mv: &FlipstopMove) {
        let mover = self.to_move;
        if let FlipstopMove::Place(cell) = *mv {
            let slot = self.square().slot(cell);
            if let Placement::Legal { replaced, len } = self.placement(slot, mover) {
                let stone = Stone::of(mover);
                self.board.set(slot, stone);
                for &e in &replaced[..len] {
                    self.board.set(e, stone);
                }
                // Only the mover gains checkers, and every replaced checker touches the
                // placed one: a new path must run through the placed cell.
                if self.board.path_through(slot, mover) {
                    self.winner = Some(mover);
                }
            }
        }
        self.to_move = mover.other();
    }

    fn parse_move(&self, text: &str) -> Result<FlipstopMove, MoveError> {
        if text == "pass" {
            return Ok(FlipstopMove::Pass);
        }
        let cell: Cell = text.parse().map_err(|e| MoveError::unreadable(text, e))?;
        if !self.square().contains(cell) {
            let n = self.size();
            return Err(MoveError::unreadable(
                text,
                format!("{cell} is off the {n}x{n} board"),
            ));
        }
        Ok(FlipstopMove::Place(cell))
    }

    fn zobrist(&self) -> u64 {
        let side = if self.to_move == Player::Second {
            zobrist::second_to_move()
        } else {
            0
        };
        self.board.hash() ^ side
    }

    /// The two mirror images and the half turn keep each player's sides; the diagonal
    /// mirrors and quarter turns exchange them, and give the same game once the colours and
    /// the player to move are exchanged too (the rules treat both players alike except for
    /// who starts).
    fn symmetries(&self) -> Vec<Flipstop> {
        SquareSymmetry::ALL[1..]
            .iter()
            .map(|&s| {
                let (board, to_move) = symmetry::connection_image(&self.board, self.to_move, s);
                let winner = self
                    .winner
                    .map(|p| if s.exchanges_sides() { p.other() } else { p });
                Flipstop {
                    board,
                    to_move,
                    winner,
                }
            })
            .collect()
    }

    fn canonical_hash(&self) -> u64 {
        symmetry::connection_canonical_hash(&self.board, self.to_move)
    }

    fn view(&self) -> BoardView {
        BoardView::connection(
            Self::TITLE,
            &self.board,
            LETTERS,
            NAMES,
            self.to_move,
            self.outcome(),
        )
    }

    /// A uniformly random legal placement (`pass` when there is none).
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<FlipstopMove> {
        if self.winner.is_some() {
            return None;
        }
        let sq = self.square();
        self.board
            .sample_empty(rng, |slot, _| {
                self.placement_is_legal(slot, self.to_move)
                    .then(|| FlipstopMove::Place(sq.cell_at(slot).expect("on board")))
            })
            .or_else(|| {
                self.can_place(self.to_move.other())
                    .then_some(FlipstopMove::Pass)
            })
    }

    /// Crosscuts formed by the placement, the enemy checkers in them that were replaced and
    /// those that could not be (replacing them would form a crosscut), and the placements
    /// the restriction refused the mover here.
    fn rule_events(&self, mv: &FlipstopMove, event: &mut dyn FnMut(&'static str, u64)) {
        let FlipstopMove::Place(cell) = *mv else {
            return;
        };
        let sq = self.square();
        let formed = self
            .board
            .crosscuts_formed(sq.slot(cell), Stone::of(self.to_move));
        let enemy = Stone::of(self.to_move.other());
        let mut enemies: Vec<usize> = formed
            .blocks()
            .iter()
            .flat_map(|&b| sq.block(b))
            .filter(|&s| self.board.get(s) == enemy)
            .collect();
        enemies.sort_unstable();
        enemies.dedup();
        let replaced = self.replacements(cell).map_or(0, |r| r.len());
        let refused = sq
            .slots()
            .filter(|&s| {
                self.board.get(s) == Stone::Empty && !self.placement_is_legal(s, self.to_move)
            })
            .count();
        event(
            "placements forming crosscuts",
            u64::from(!formed.is_empty()),
        );
        event("crosscuts formed", formed.blocks().len() as u64);
        event("replacements made", replaced as u64);
        event(
            "replacements refused",
            enemies.len().saturating_sub(replaced) as u64,
        );
        event("placements refused by the restriction", refused as u64);
    }
}

impl fmt::Display for Flipstop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            Self::ID,
            self.board.rows_text(LETTERS),
            LETTERS[self.to_move.index()]
        )
    }
}

impl fmt::Debug for Flipstop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Flipstop {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Flipstop, PositionError> {
        let (board, to_move) = text::crosscut_free_position(s, Self::ID, LETTERS, Self::sizes())?;
        let winner = board.winner();
        Ok(Flipstop {
            board,
            to_move,
            winner,
        })
    }
}
