use std::fmt;
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;
use std::sync::LazyLock;

use rand::Rng;
use swapboard_core::pattern::{PriorTable, placement_pattern};
use swapboard_core::{
    BoardView, Game, IllegalMove, MoveError, Outcome, PLACEMENT_SIZES, PlacementState, Player,
    PositionError, Rule, Stone, StoneBoard,
};
use swapboard_grid::{Cell, Square};

/// The learned priors of Flipstop's move patterns (`docs/AI.md`, "Learned priors").
static PRIORS: LazyLock<PriorTable> =
    LazyLock::new(|| PriorTable::shipped(include_str!("../data/priors.txt"), Flipstop::ID));

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
    state: PlacementState,
}

swapboard_core::serde_as_text!(Flipstop);
swapboard_core::whole_turns!(Flipstop);

/// What a placement does: the enemy checkers it replaces, or why it is illegal.
enum Placement {
    /// Legal; the slots replaced by the mover's colour (up to four), and whether some enemy
    /// checker of a formed crosscut was left (replacing it would form a crosscut).
    Legal {
        replaced: [usize; 4],
        len: usize,
        refused: bool,
    },
    /// Illegal: a formed crosscut (lower-left slot) none of whose enemy checkers can be
    /// replaced, and for each of its enemies the crosscut replacing it would form.
    Illegal {
        block: usize,
        blockers: [(usize, usize); 2],
    },
}

impl Flipstop {
    fn square(&self) -> Square {
        self.state.board().square()
    }

    /// The board.
    pub fn board(&self) -> &StoneBoard {
        self.state.board()
    }

    /// What placing `player`'s checker on the empty `slot` does.
    ///
    /// Per the rulings: each enemy checker e of a formed crosscut is replaced iff replacing e
    /// alone, on the board right after the placement, forms no crosscut containing e; the
    /// placement is illegal iff some formed crosscut has no replaceable enemy checker.
    fn placement(&self, slot: usize, player: Player) -> Placement {
        let stone = Stone::of(player);
        let formed = self.state.board().crosscuts_formed(slot, stone);
        let mut replaced = [0usize; 4];
        let mut len = 0;
        if formed.is_empty() {
            return Placement::Legal {
                replaced,
                len,
                refused: false,
            };
        }
        let mut board = self.state.board().clone();
        board.set(slot, stone);
        let enemy = board.get(self.state.board().enemies_in(formed.blocks()[0], slot)[0]);
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
            for (k, e) in self
                .state
                .board()
                .enemies_in(block, slot)
                .into_iter()
                .enumerate()
            {
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
        Placement::Legal {
            replaced,
            len,
            refused: n_checked > len,
        }
    }

    /// Calls `f` with each legal move, in [`Game::for_each_move`]'s order, and with what the
    /// analysis that found a placement legal also found: whether some enemy checker of a
    /// crosscut it forms stays (`false` for a pass). Its pattern then needs no second
    /// analysis.
    fn for_each_analysed_move(
        &self,
        mut f: impl FnMut(FlipstopMove, bool) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.state.winner.is_some() {
            return ControlFlow::Continue(());
        }
        let sq = self.square();
        let mut any = false;
        for slot in sq.slots() {
            if self.state.board().get(slot) != Stone::Empty {
                continue;
            }
            if let Placement::Legal { refused, .. } = self.placement(slot, self.state.to_move) {
                any = true;
                f(
                    FlipstopMove::Place(sq.cell_at(slot).expect("on board")),
                    refused,
                )?;
            }
        }
        if !any && self.can_place(self.state.to_move.other()) {
            f(FlipstopMove::Pass, false)?;
        }
        ControlFlow::Continue(())
    }

    /// The pattern of the player to move's legal placement at `cell`, given whether an enemy
    /// checker of a crosscut it forms stays ([`Game::move_pattern`]).
    fn placement_pattern_at(&self, cell: Cell, refused: bool) -> u32 {
        placement_pattern(
            self.board(),
            self.square().slot(cell),
            self.state.to_move,
            refused,
        )
    }

    fn placement_is_legal(&self, slot: usize, player: Player) -> bool {
        matches!(self.placement(slot, player), Placement::Legal { .. })
    }

    /// Whether `player` has any legal placement.
    fn can_place(&self, player: Player) -> bool {
        self.square().slots().any(|s| {
            self.state.board().get(s) == Stone::Empty && self.placement_is_legal(s, player)
        })
    }

    /// The cells a placement at `cell` by the player to move would replace, in cell order
    /// (empty when it forms no crosscut), or `None` if the placement is illegal.
    pub fn replacements(&self, cell: Cell) -> Option<Vec<Cell>> {
        let sq = self.square();
        if !sq.contains(cell) || self.state.board().at(cell) != Stone::Empty {
            return None;
        }
        match self.placement(sq.slot(cell), self.state.to_move) {
            Placement::Legal { replaced, len, .. } => {
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

    fn placement_problem(&self, cell: Cell) -> Option<IllegalMove> {
        let sq = self.square();
        let slot = sq.slot(cell);
        if let Some(occupied) = self.state.occupied(cell, NAMES) {
            return Some(occupied);
        }
        match self.placement(slot, self.state.to_move) {
            Placement::Legal { .. } => None,
            Placement::Illegal { block, blockers } => {
                let name = |s: usize| sq.cell_at(s).map_or_else(String::new, |c| c.to_string());
                let why: Vec<String> = blockers
                    .iter()
                    .map(|&(e, b)| {
                        format!(
                            "replacing {} would form the crosscut {}",
                            name(e),
                            self.state.board().block_name(b)
                        )
                    })
                    .collect();
                Some(IllegalMove::new(
                    Rule::PlacementRestriction,
                    format!(
                        "a placement at {cell} forms the crosscut {} and no enemy checker in it \
                         can be replaced (the placement restriction): {}",
                        self.state.board().block_name(block),
                        why.join("; ")
                    ),
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
    const MOVE_PRIORS: bool = true;

    fn sizes() -> RangeInclusive<usize> {
        PLACEMENT_SIZES
    }

    fn start(size: usize) -> Result<Flipstop, PositionError> {
        PlacementState::start(size).map(|state| Flipstop { state })
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

    fn for_each_move<F: FnMut(FlipstopMove) -> ControlFlow<()>>(
        &self,
        mut f: F,
    ) -> ControlFlow<()> {
        self.for_each_analysed_move(|mv, _| f(mv))
    }

    fn is_pass(mv: &FlipstopMove) -> bool {
        matches!(mv, FlipstopMove::Pass)
    }

    fn check_move(&self, mv: &FlipstopMove) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(PlacementState::game_over(outcome, NAMES));
        }
        let problem = match *mv {
            FlipstopMove::Place(cell) => self.placement_problem(cell),
            FlipstopMove::Pass => {
                let sq = self.square();
                let first = sq
                    .slots()
                    .find(|&s| {
                        self.state.board().get(s) == Stone::Empty
                            && self.placement_is_legal(s, self.state.to_move)
                    })
                    .and_then(|s| sq.cell_at(s));
                PlacementState::pass_problem(first)
            }
        };
        problem.map_or(Ok(()), Err)
    }

    fn play_unchecked(&mut self, mv: &FlipstopMove) {
        let mover = self.state.to_move;
        if let FlipstopMove::Place(cell) = *mv {
            let slot = self.square().slot(cell);
            if let Placement::Legal { replaced, len, .. } = self.placement(slot, mover) {
                if len == 0 {
                    self.state.place(slot, mover);
                } else {
                    // Replacements take checkers from the opponent's groups, which may split.
                    // Only the mover gains checkers, and every replaced checker touches the
                    // placed one: a new path must run through the placed cell.
                    let stone = Stone::of(mover);
                    let mut changes = [(slot, stone); 5];
                    for (change, &e) in changes[1..].iter_mut().zip(&replaced[..len]) {
                        *change = (e, stone);
                    }
                    self.state.change(&changes[..=len]);
                }
            }
        }
        self.state.to_move = mover.other();
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
        self.state.zobrist()
    }

    /// The two mirror images and the half turn keep each player's sides; the diagonal
    /// mirrors and quarter turns exchange them, and give the same game once the colours and
    /// the player to move are exchanged too (the rules treat both players alike except for
    /// who starts).
    fn symmetries(&self) -> Vec<Flipstop> {
        self.state
            .symmetric_images()
            .map(|state| Flipstop { state })
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

    /// A uniformly random legal placement (`pass` when there is none).
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<FlipstopMove> {
        if self.state.winner.is_some() {
            return None;
        }
        let sq = self.square();
        self.state
            .board()
            .sample_empty(rng, |slot, _| {
                self.placement_is_legal(slot, self.state.to_move)
                    .then(|| FlipstopMove::Place(sq.cell_at(slot).expect("on board")))
            })
            .or_else(|| {
                self.can_place(self.state.to_move.other())
                    .then_some(FlipstopMove::Pass)
            })
    }

    /// The weight of the move's pattern in the table trained by `swapboard train`
    /// (`data/priors.txt`).
    fn move_prior(&self, mv: &FlipstopMove) -> Option<f32> {
        self.move_pattern(mv).map(|p| PRIORS.weight(p))
    }

    /// The placement's neighbourhood ([`placement_pattern`]); its extra bit says that some
    /// enemy checker of a formed crosscut stays (replacing it would form a crosscut), which
    /// the neighbourhood cannot tell. (Whether checkers are replaced at all it does tell: a
    /// legal placement replaces some exactly when it forms a crosscut.)
    fn move_pattern(&self, mv: &FlipstopMove) -> Option<u32> {
        let FlipstopMove::Place(cell) = *mv else {
            return None;
        };
        let refused = matches!(
            self.placement(self.square().slot(cell), self.state.to_move),
            Placement::Legal { refused: true, .. }
        );
        Some(self.placement_pattern_at(cell, refused))
    }

    /// The moves as listed, each with the prior of the pattern its listing's analysis found:
    /// [`Game::move_prior`] of each would analyse every placement a second time.
    fn fill_moves_with_priors(&self, moves: &mut Vec<FlipstopMove>, priors: &mut Vec<Option<f32>>) {
        moves.clear();
        priors.clear();
        let _ = self.for_each_analysed_move(|mv, refused| {
            let prior = match mv {
                FlipstopMove::Place(cell) => {
                    Some(PRIORS.weight(self.placement_pattern_at(cell, refused)))
                }
                FlipstopMove::Pass => None,
            };
            moves.push(mv);
            priors.push(prior);
            ControlFlow::Continue(())
        });
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
            .state
            .board()
            .crosscuts_formed(sq.slot(cell), Stone::of(self.state.to_move));
        let enemy = Stone::of(self.state.to_move.other());
        let mut enemies: Vec<usize> = formed
            .blocks()
            .iter()
            .flat_map(|&b| sq.block(b))
            .filter(|&s| self.state.board().get(s) == enemy)
            .collect();
        enemies.sort_unstable();
        enemies.dedup();
        let replaced = self.replacements(cell).map_or(0, |r| r.len());
        let refused = sq
            .slots()
            .filter(|&s| {
                self.state.board().get(s) == Stone::Empty
                    && !self.placement_is_legal(s, self.state.to_move)
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
        self.state.write(f, Self::ID, LETTERS)
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
        PlacementState::parse(s, Self::ID, LETTERS).map(|state| Flipstop { state })
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    /// Whether some enemy checker of a crosscut the placement at `cell` forms stays, worked
    /// out the slow, obvious way from the rulings: on a copy of the board after the
    /// placement, each enemy checker of a crosscut is replaced alone, and stays when that
    /// forms a crosscut containing it (whole-board scans, no shortcut of the engine's).
    fn an_enemy_stays(p: &Flipstop, cell: Cell) -> bool {
        let sq = p.square();
        let me = Stone::of(p.to_move());
        let mut after = p.board().clone();
        after.set(sq.slot(cell), me);
        sq.blocks()
            .filter(|&b| after.is_crosscut(b))
            .flat_map(|b| sq.block(b))
            .filter(|&s| after.get(s) != me)
            .any(|e| {
                let mut replaced = after.clone();
                replaced.set(e, me);
                sq.blocks()
                    .any(|b| replaced.is_crosscut(b) && sq.block(b).contains(&e))
            })
    }

    /// The patterns that listing the moves gives (and so the priors a search weighs) are
    /// those of a second, separate analysis of each placement, and those of the brute-force
    /// reading of the rulings, along random games of every size up to 11.
    #[test]
    fn listed_patterns_equal_a_straightforward_recomputation() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(390);
        let (mut positions, mut placements, mut stays) = (0, 0, 0);
        for size in 3..=11 {
            for _ in 0..40 {
                let mut p = Flipstop::start(size).unwrap();
                while let Some(mv) = p.random_move(&mut rng) {
                    let mut listed = Vec::new();
                    let _ = p.for_each_analysed_move(|mv, refused| {
                        listed.push((mv, refused));
                        ControlFlow::Continue(())
                    });
                    assert_eq!(
                        listed.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(),
                        p.legal_moves(),
                        "at {p}"
                    );
                    for (mv, refused) in listed {
                        let FlipstopMove::Place(cell) = mv else {
                            assert_eq!(p.move_pattern(&mv), None);
                            continue;
                        };
                        let listed_pattern = p.placement_pattern_at(cell, refused);
                        assert_eq!(Some(listed_pattern), p.move_pattern(&mv), "{mv} at {p}");
                        let slot = p.square().slot(cell);
                        let by_brute_force = placement_pattern(
                            p.board(),
                            slot,
                            p.to_move(),
                            an_enemy_stays(&p, cell),
                        );
                        assert_eq!(listed_pattern, by_brute_force, "{mv} at {p}");
                        placements += 1;
                        stays += usize::from(refused);
                    }
                    positions += 1;
                    p.play_unchecked(&mv);
                }
            }
        }
        // The bit the neighbourhood cannot tell was exercised both ways, many times.
        assert!(positions > 10_000, "{positions} positions");
        assert!(
            stays > 1000 && placements > stays * 10,
            "{stays} of {placements}"
        );
    }
}
