use std::fmt;
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;
use std::sync::LazyLock;

use rand::{Rng, RngExt};
use swapboard_core::pattern::{PriorTable, placement_pattern};
use swapboard_core::{
    BoardView, Formed, Game, IllegalMove, MoveError, Outcome, PLACEMENT_SIZES, PlacementState,
    Player, PositionError, Rule, Stone, StoneBoard,
};
use swapboard_grid::{Cell, Square};

use crate::SwaptimumMove;

/// The learned priors of Swaptimum's move patterns (`docs/AI.md`, "Learned priors").
static PRIORS: LazyLock<PriorTable> =
    LazyLock::new(|| PriorTable::shipped(include_str!("../data/priors.txt"), Swaptimum::ID));

const LETTERS: [char; 2] = ['R', 'B'];
const NAMES: [&str; 2] = ["Red", "Blue"];

/// A Swaptimum position: the board, the player to move, and the winner once there is one.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Swaptimum {
    pub(crate) state: PlacementState,
}

swapboard_core::serde_as_text!(Swaptimum);
swapboard_core::whole_turns!(Swaptimum);

/// Calls `f` with each swap `(x, y)` (slots, each pair once) that makes the board crosscut-free
/// after a placement at `placed` which formed the crosscuts `formed`. `board` holds the
/// placement; it is changed during the call and restored before returning.
fn for_each_killing_swap(
    board: &mut StoneBoard,
    placed: usize,
    formed: &Formed,
    mut f: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let sq = board.square();
    // The cells of the formed crosscuts: at most the 3 x 3 square around the placement.
    let mut members = [0usize; 9];
    let mut n_members = 0;
    for &block in formed.blocks() {
        for cell in sq.block(block) {
            if !members[..n_members].contains(&cell) {
                members[n_members] = cell;
                n_members += 1;
            }
        }
    }
    let mut seen = [(0usize, 0usize); 9 * 8];
    let mut n_seen = 0;
    for &x in &members[..n_members] {
        let sx = board.get(x);
        for d in sq.king() {
            let y = x.wrapping_add_signed(d);
            let sy = board.get(y);
            // Two stones of different colours: a same-colour swap changes nothing.
            if sy == Stone::Empty || sy == Stone::Off || sy == sx {
                continue;
            }
            let pair = (x.min(y), x.max(y));
            if seen[..n_seen].contains(&pair) {
                continue;
            }
            seen[n_seen] = pair;
            n_seen += 1;
            board.set(x, sy);
            board.set(y, sx);
            // The board was crosscut-free before the placement, so only blocks touching a
            // changed cell can hold a crosscut now.
            let clean =
                !board.crosscut_at(placed) && !board.crosscut_at(x) && !board.crosscut_at(y);
            board.set(x, sx);
            board.set(y, sy);
            if clean {
                f(pair.0, pair.1)?;
            }
        }
    }
    ControlFlow::Continue(())
}

impl Swaptimum {
    fn square(&self) -> Square {
        self.state.board().square()
    }

    fn cell(&self, slot: usize) -> Cell {
        self.square()
            .cell_at(slot)
            .expect("rules code only names slots on the board")
    }

    /// The board.
    pub fn board(&self) -> &StoneBoard {
        self.state.board()
    }

    /// Whether `player` may place on the empty slot `slot` (some swap exists if needed).
    fn placement_is_legal(&self, slot: usize, player: Player) -> bool {
        let stone = Stone::of(player);
        let formed = self.state.board().crosscuts_formed(slot, stone);
        if formed.is_empty() {
            return true;
        }
        let mut board = self.state.board().clone();
        board.set(slot, stone);
        for_each_killing_swap(&mut board, slot, &formed, |_, _| ControlFlow::Break(())).is_break()
    }

    /// Whether `player` has any legal placement.
    fn can_place(&self, player: Player) -> bool {
        self.square().slots().any(|s| {
            self.state.board().get(s) == Stone::Empty && self.placement_is_legal(s, player)
        })
    }

    /// Calls `f` with every legal placement move of the player to move.
    fn for_each_placement(
        &self,
        mut f: impl FnMut(SwaptimumMove) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let stone = Stone::of(self.state.to_move);
        let mut scratch: Option<StoneBoard> = None;
        for slot in self.square().slots() {
            if self.state.board().get(slot) != Stone::Empty {
                continue;
            }
            let formed = self.state.board().crosscuts_formed(slot, stone);
            let cell = self.cell(slot);
            if formed.is_empty() {
                f(SwaptimumMove::Place(cell))?;
                continue;
            }
            let board = scratch.get_or_insert_with(|| self.state.board().clone());
            board.set(slot, stone);
            let sq = self.square();
            let flow = for_each_killing_swap(board, slot, &formed, |x, y| {
                f(SwaptimumMove::place_swap(
                    cell,
                    sq.cell_at(x).expect("on board"),
                    sq.cell_at(y).expect("on board"),
                ))
            });
            board.set(slot, Stone::Empty);
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// A uniformly random legal swap for a placement at `slot` that forms crosscuts, if any.
    fn random_swap<R: Rng + ?Sized>(
        &self,
        slot: usize,
        formed: &Formed,
        rng: &mut R,
    ) -> Option<(usize, usize)> {
        let mut board = self.state.board().clone();
        board.set(slot, Stone::of(self.state.to_move));
        let mut swaps = [(0usize, 0usize); 9 * 8];
        let mut n = 0;
        let _ = for_each_killing_swap(&mut board, slot, formed, |x, y| {
            swaps[n] = (x, y);
            n += 1;
            ControlFlow::Continue(())
        });
        (n > 0).then(|| swaps[rng.random_range(0..n)])
    }

    /// The move placing at the empty `slot` with a uniformly random legal swap if one is
    /// needed, or `None` if the placement is illegal.
    fn random_move_at<R: Rng + ?Sized>(&self, slot: usize, rng: &mut R) -> Option<SwaptimumMove> {
        let formed = self
            .state
            .board()
            .crosscuts_formed(slot, Stone::of(self.state.to_move));
        let cell = self.cell(slot);
        if formed.is_empty() {
            return Some(SwaptimumMove::Place(cell));
        }
        self.random_swap(slot, &formed, rng)
            .map(|(x, y)| SwaptimumMove::place_swap(cell, self.cell(x), self.cell(y)))
    }

    /// The reason a placement at `cell` by the player to move is refused, if it is.
    fn placement_problem(&self, cell: Cell) -> Option<IllegalMove> {
        let slot = self.square().slot(cell);
        if let Some(occupied) = self.state.occupied(cell, NAMES) {
            return Some(occupied);
        }
        if !self.placement_is_legal(slot, self.state.to_move) {
            let formed = self
                .state
                .board()
                .crosscuts_formed(slot, Stone::of(self.state.to_move));
            return Some(IllegalMove::new(
                Rule::PlacementRestriction,
                format!(
                    "a placement at {cell} forms a crosscut ({}) that no swap can kill without \
                     forming a new one (the placement restriction)",
                    self.block_names(formed.blocks())
                ),
            ));
        }
        None
    }

    fn block_names(&self, blocks: &[usize]) -> String {
        blocks
            .iter()
            .map(|&b| self.state.board().block_name(b))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The reason the swap of `a` and `b` after a placement at `cell` (which forms
    /// crosscuts and has some legal swap) is refused, if it is.
    fn swap_problem(&self, cell: Cell, a: Cell, b: Cell) -> Option<IllegalMove> {
        let sq = self.square();
        if let Some(off) = IllegalMove::off_board(sq, [a, b]) {
            return Some(off);
        }
        let (slot, x, y) = (sq.slot(cell), sq.slot(a), sq.slot(b));
        let stone = Stone::of(self.state.to_move);
        let formed = self.state.board().crosscuts_formed(slot, stone);
        let mut board = self.state.board().clone();
        board.set(slot, stone);
        let (sx, sy) = (board.get(x), board.get(y));
        if !a.is_king_adjacent(b) {
            return Some(IllegalMove::new(
                Rule::SwapNotAdjacent,
                format!("{a} and {b} are not adjacent (a swap is between 8-adjacent checkers)"),
            ));
        }
        for (c, s) in [(a, sx), (b, sy)] {
            if s == Stone::Empty {
                return Some(IllegalMove::new(
                    Rule::SwapPieces,
                    format!("{c} is empty: a swap exchanges two checkers"),
                ));
            }
        }
        if sx == sy {
            return Some(IllegalMove::new(
                Rule::SwapPieces,
                format!(
                    "{a} and {b} hold checkers of the same colour: swapping them changes nothing"
                ),
            ));
        }
        let in_crosscut = |s: usize| formed.blocks().iter().any(|&bl| sq.block(bl).contains(&s));
        if !in_crosscut(x) && !in_crosscut(y) {
            return Some(IllegalMove::new(
                Rule::SwapOutsideCrosscut,
                format!(
                    "neither {a} nor {b} belongs to the crosscut formed at {cell} ({})",
                    self.block_names(formed.blocks())
                ),
            ));
        }
        board.set(x, sy);
        board.set(y, sx);
        let left: Vec<usize> = [slot, x, y]
            .iter()
            .flat_map(|&s| sq.blocks_around(s))
            .filter(|&bl| board.is_crosscut(bl))
            .collect();
        if let Some(&bl) = left.first() {
            let killed = formed.blocks().iter().all(|f| !board.is_crosscut(*f));
            let what = if killed {
                "forms a new crosscut"
            } else {
                "leaves a crosscut"
            };
            return Some(IllegalMove::new(
                Rule::SwapFormsCrosscut,
                format!("swapping {a} and {b} {what} at {}", board.block_name(bl)),
            ));
        }
        None
    }
}

impl Game for Swaptimum {
    type Move = SwaptimumMove;

    const ID: &'static str = "swaptimum";
    const TITLE: &'static str = "Swaptimum by Mark Steere (2023)";
    const DEFAULT_SIZE: usize = 9;
    const MOVE_PRIORS: bool = true;

    fn sizes() -> RangeInclusive<usize> {
        PLACEMENT_SIZES
    }

    fn start(size: usize) -> Result<Swaptimum, PositionError> {
        PlacementState::start(size).map(|state| Swaptimum { state })
    }

    fn size(&self) -> usize {
        self.state.board().size()
    }

    fn colour_letter(player: Player) -> char {
        LETTERS[player.index()]
    }

    fn colour_name(player: Player) -> &'static str {
        NAMES[player.index()]
    }

    fn to_move(&self) -> Player {
        self.state.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome(|p| self.can_place(p))
    }

    fn for_each_move<F: FnMut(SwaptimumMove) -> ControlFlow<()>>(
        &self,
        mut f: F,
    ) -> ControlFlow<()> {
        if self.state.winner.is_some() {
            return ControlFlow::Continue(());
        }
        let mut any = false;
        self.for_each_placement(|m| {
            any = true;
            f(m)
        })?;
        if !any && self.can_place(self.state.to_move.other()) {
            f(SwaptimumMove::Pass)?;
        }
        ControlFlow::Continue(())
    }

    fn is_pass(mv: &SwaptimumMove) -> bool {
        matches!(mv, SwaptimumMove::Pass)
    }

    fn check_move(&self, mv: &SwaptimumMove) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(PlacementState::game_over(outcome, NAMES));
        }
        let problem = match *mv {
            SwaptimumMove::Pass => {
                let mut first = None;
                let _ = self.for_each_placement(|m| {
                    first = Some(m);
                    ControlFlow::Break(())
                });
                PlacementState::pass_problem(first)
            }
            SwaptimumMove::Place(cell) => self.placement_problem(cell).or_else(|| {
                let formed = self.state.board().crosscuts_formed(self.square().slot(cell), Stone::of(self.state.to_move));
                (!formed.is_empty()).then(|| {
                    IllegalMove::new(Rule::SwapRequired, format!(
                        "a placement at {cell} forms a crosscut ({}), so a swap must follow, written like {cell}:d4-e5",
                        self.block_names(formed.blocks())
                    ))
                })
            }),
            SwaptimumMove::PlaceSwap { cell, a, b } => self.placement_problem(cell).or_else(|| {
                let formed = self.state.board().crosscuts_formed(self.square().slot(cell), Stone::of(self.state.to_move));
                if formed.is_empty() {
                    Some(IllegalMove::new(Rule::SwapNotAllowed, format!("a placement at {cell} forms no crosscut, so no swap may follow")))
                } else {
                    self.swap_problem(cell, a, b)
                }
            }),
        };
        problem.map_or(Ok(()), Err)
    }

    fn play_unchecked(&mut self, mv: &SwaptimumMove) {
        let sq = self.square();
        let mover = self.state.to_move;
        match *mv {
            SwaptimumMove::Pass => {}
            SwaptimumMove::Place(cell) => {
                let slot = sq.slot(cell);
                self.state.place(slot, mover);
            }
            SwaptimumMove::PlaceSwap { cell, a, b } => {
                let (slot, x, y) = (sq.slot(cell), sq.slot(a), sq.slot(b));
                // The swap exchanges the colours the two cells hold after the placement (the
                // placed checker may be one of them); the changes apply in order.
                let board = self.state.board();
                let after_placement = |s: usize| {
                    if s == slot {
                        Stone::of(mover)
                    } else {
                        board.get(s)
                    }
                };
                let (sx, sy) = (after_placement(x), after_placement(y));
                self.state
                    .change(&[(slot, Stone::of(mover)), (x, sy), (y, sx)]);
            }
        }
        self.state.to_move = mover.other();
    }

    fn parse_move(&self, text: &str) -> Result<SwaptimumMove, MoveError> {
        SwaptimumMove::parse(text, self.square())
    }

    fn zobrist(&self) -> u64 {
        self.state.zobrist()
    }

    /// The two mirror images and the half turn keep each player's sides; the diagonal
    /// mirrors and quarter turns exchange them, and give the same game once the colours and
    /// the player to move are exchanged too (the rules treat both players alike except for
    /// who starts).
    fn symmetries(&self) -> Vec<Swaptimum> {
        self.state
            .symmetric_images()
            .map(|state| Swaptimum { state })
            .collect()
    }

    fn canonical_hash(&self) -> u64 {
        self.state.canonical_hash()
    }

    /// The shortest-path distances: the empty cells still missing from each player's best
    /// path, swaps left aside.
    fn distances_to_win(&self) -> Option<[u32; 2]> {
        self.state.distances_to_win()
    }

    fn view(&self) -> BoardView {
        self.state.view(Self::TITLE, LETTERS, NAMES, self.outcome())
    }

    /// A uniformly random legal placement, then a uniformly random legal swap for it (the
    /// `swapboard bench` ply). `pass` when no placement is legal.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<SwaptimumMove> {
        if self.state.winner.is_some() {
            return None;
        }
        self.state
            .board()
            .sample_empty(rng, |slot, rng| self.random_move_at(slot, rng))
            .or_else(|| {
                self.can_place(self.state.to_move.other())
                    .then_some(SwaptimumMove::Pass)
            })
    }

    /// Plays out on bitboards on boards up to 11 x 11 (about twice as fast as moves on the
    /// mailbox, whose groups must be re-flooded after each swap), move by move on larger ones.
    fn play_out<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        cap: u32,
        mut record: impl FnMut(&SwaptimumMove, Player),
    ) {
        if !crate::playout::play_out(self, rng, cap, &mut record) {
            swapboard_core::play_out_by_moves(self, rng, cap, record);
        }
    }

    /// The weight of the move's pattern in the table trained by `swapboard train`
    /// (`data/priors.txt`).
    fn move_prior(&self, mv: &SwaptimumMove) -> Option<f32> {
        self.move_pattern(mv).map(|p| PRIORS.weight(p))
    }

    /// The placement's neighbourhood ([`placement_pattern`]); its extra bit says that the
    /// swap moves the placed checker itself. (Whether a swap follows at all is already in
    /// the neighbourhood: a crosscut is formed exactly when the placed checker's diagonal
    /// neighbour is the mover's and the two cells beside both are the opponent's.)
    fn move_pattern(&self, mv: &SwaptimumMove) -> Option<u32> {
        let (cell, moves_placed) = match *mv {
            SwaptimumMove::Place(cell) => (cell, false),
            SwaptimumMove::PlaceSwap { cell, a, b } => (cell, a == cell || b == cell),
            SwaptimumMove::Pass => return None,
        };
        let slot = self.square().slot(cell);
        Some(placement_pattern(
            self.board(),
            slot,
            self.state.to_move,
            moves_placed,
        ))
    }

    /// Crosscuts formed by the placement, its swap by kind (both cells in the formed
    /// crosscuts, or one outside them; moving the placed checker), the placements the
    /// restriction refused the mover here, and a win handed to the opponent by the swap.
    fn rule_events(&self, mv: &SwaptimumMove, event: &mut dyn FnMut(&'static str, u64)) {
        let Some(cell) = mv.cell() else { return };
        let sq = self.square();
        let formed = self
            .state
            .board()
            .crosscuts_formed(sq.slot(cell), Stone::of(self.state.to_move));
        let in_formed = |c: Cell| {
            let slot = sq.slot(c);
            formed.blocks().iter().any(|&b| sq.block(b).contains(&slot))
        };
        let (inside, outside, placed_moved) = match *mv {
            SwaptimumMove::PlaceSwap { cell, a, b } => {
                let inside = in_formed(a) && in_formed(b);
                (
                    u64::from(inside),
                    u64::from(!inside),
                    u64::from(a == cell || b == cell),
                )
            }
            _ => (0, 0, 0),
        };
        let refused = sq
            .slots()
            .filter(|&s| {
                self.state.board().get(s) == Stone::Empty
                    && !self.placement_is_legal(s, self.state.to_move)
            })
            .count();
        let mut after = self.clone();
        after.play_unchecked(mv);
        event(
            "placements forming crosscuts",
            u64::from(!formed.is_empty()),
        );
        event("crosscuts formed", formed.blocks().len() as u64);
        event("swaps inside the crosscut", inside);
        event("swaps with an outside checker", outside);
        event("swaps moving the placed checker", placed_moved);
        event("placements refused by the restriction", refused as u64);
        event(
            "wins made on the opponent's turn",
            u64::from(after.state.winner == Some(self.state.to_move.other())),
        );
    }
}

impl fmt::Display for Swaptimum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.state.write(f, Self::ID, LETTERS)
    }
}

impl fmt::Debug for Swaptimum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Swaptimum {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Swaptimum, PositionError> {
        PlacementState::parse(s, Self::ID, LETTERS).map(|state| Swaptimum { state })
    }
}
