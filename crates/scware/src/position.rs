//! The Scware position and its rules.

use std::fmt;
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;

use rand::Rng;
use swapboard_core::{
    BoardView, Game, IllegalMove, MoveError, Outcome, Player, PositionError, Rule, SideOwner,
    Stone, StoneBoard, bitboard, text, zobrist,
};
use swapboard_grid::bits::Geometry;
use swapboard_grid::{Cell, CellSet, Square};

use crate::ScwareMove;
use crate::count::Packings;
use crate::turn::Turn;

/// The colour letters: White moves first, Red second.
pub(crate) const LETTERS: [char; 2] = ['W', 'R'];
const NAMES: [&str; 2] = ["White", "Red"];

/// A Scware position: the board, the player to move and the game-wide grown flag.
///
/// Text: `scware <rows> <W|R> <-|g>` (see docs/CONTRACT.md), e.g. the start on 5 x 5 is
/// `scware ...../...../...../...../..... W -`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Scware {
    board: StoneBoard,
    to_move: Player,
    grown: bool,
    /// The player with a path, derived from the board.
    winner: Option<Player>,
    /// Each colour's stones as a bitboard on boards up to 11 x 11 (0 on larger boards),
    /// derived from the board.
    stones: [u128; 2],
}

/// How many moves of each kind a position has (exact, saturating at `u128::MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveCounts {
    /// Single stones starting a new group.
    pub placements: u128,
    /// Growths of one or more groups.
    pub growths: u128,
    /// Red's balanced growths (a growth, then a new group).
    pub balanced: u128,
    /// 1 when the only move is `pass`.
    pub pass: u128,
}

impl MoveCounts {
    /// All moves together.
    pub fn total(&self) -> u128 {
        self.placements
            .saturating_add(self.growths)
            .saturating_add(self.balanced)
            .saturating_add(self.pass)
    }
}

/// The first pair of diagonally adjacent stones of `player` in different groups, among
/// those with one stone on `slots`, in cell order.
pub(crate) fn split_diagonal(
    board: &StoneBoard,
    player: Player,
    slots: impl Iterator<Item = usize>,
) -> Option<(Cell, Cell)> {
    let square = board.square();
    let own = Stone::of(player);
    let mut label = vec![u16::MAX; square.slot_count()];
    let mut stack = Vec::new();
    let mut next = 0u16;
    for s in square.slots() {
        if board.get(s) != own || label[s] != u16::MAX {
            continue;
        }
        label[s] = next;
        stack.push(s);
        while let Some(t) = stack.pop() {
            for d in square.orthogonal() {
                let n = t.wrapping_add_signed(d);
                if board.get(n) == own && label[n] == u16::MAX {
                    label[n] = next;
                    stack.push(n);
                }
            }
        }
        next += 1;
    }
    let mut found: Option<(Cell, Cell)> = None;
    for s in slots {
        if board.get(s) != own {
            continue;
        }
        for d in square.diagonal() {
            let n = s.wrapping_add_signed(d);
            if board.get(n) == own && label[n] != label[s] {
                let (a, b) = (square.cell_at(s)?, square.cell_at(n)?);
                let pair = (a.min(b), a.max(b));
                if found.is_none_or(|f| pair < f) {
                    found = Some(pair);
                }
            }
        }
    }
    found
}

impl Scware {
    /// The board.
    pub fn board(&self) -> &StoneBoard {
        &self.board
    }

    /// Whether a player has ever grown (the game-wide flag).
    pub fn grown(&self) -> bool {
        self.grown
    }

    /// Whether the player to move may make the balancing move (Red, while nobody has grown).
    pub fn balancing_available(&self) -> bool {
        self.to_move == Player::Second && !self.grown && self.winner.is_none()
    }

    /// Whether `player` would have a legal move other than `pass` on this board.
    pub fn can_move(&self, player: Player) -> bool {
        let own = Stone::of(player);
        let sq = self.board.square();
        let placement = sq.slots().any(|s| {
            self.board.get(s) == Stone::Empty
                && sq
                    .king()
                    .iter()
                    .all(|&d| self.board.get(s.wrapping_add_signed(d)) != own)
        });
        placement || Turn::new(&self.board, player).has_growth()
    }

    /// The exact number of legal moves of each kind.
    pub fn move_counts(&self) -> MoveCounts {
        if self.winner.is_some() {
            return MoveCounts::default();
        }
        let turn = Turn::new(&self.board, self.to_move);
        let packings = Packings::new(&turn);
        let mut counts = MoveCounts {
            placements: turn.placements.len() as u128,
            growths: packings
                .growth_count()
                .unwrap_or_else(|| turn.growth_count()),
            balanced: 0,
            pass: 0,
        };
        if self.balancing_available() && counts.growths > 0 {
            counts.balanced = packings
                .balanced_count(&turn)
                .unwrap_or_else(|| turn.balanced_count());
        }
        if counts.total() == 0 && self.can_move(self.to_move.other()) {
            counts.pass = 1;
        }
        counts
    }

    /// Whether the single cell `cell` touches a stone of the player to move.
    fn touches_own(&self, slot: usize) -> bool {
        let own = Stone::of(self.to_move);
        self.board
            .square()
            .orthogonal()
            .iter()
            .any(|&d| self.board.get(slot.wrapping_add_signed(d)) == own)
    }

    fn check_stones(&self, cells: &CellSet, new_group: Option<Cell>) -> Result<(), IllegalMove> {
        let after = self.stones_after(cells, new_group)?;
        self.check_restriction(&after, cells, new_group)
    }

    /// The board after putting these stones, if every rule but the diagonal restriction
    /// allows them.
    fn stones_after(
        &self,
        cells: &CellSet,
        new_group: Option<Cell>,
    ) -> Result<StoneBoard, IllegalMove> {
        let sq = self.board.square();
        let name = NAMES[self.to_move.index()];
        let own = Stone::of(self.to_move);
        let illegal = |rule, s: String| Err(IllegalMove::new(rule, s));
        if let Some(off) = IllegalMove::off_board(sq, cells.iter().chain(new_group)) {
            return Err(off);
        }
        for c in cells.iter().chain(new_group) {
            if self.board.at(c) != Stone::Empty {
                return illegal(Rule::Occupied, format!("{c} is not empty"));
            }
        }
        let first = cells
            .first()
            .ok_or_else(|| IllegalMove::new(Rule::EmptyMove, "a move puts at least one stone"))?;
        let mut after = self.board.clone();
        for c in cells.iter().chain(new_group) {
            after.set(sq.slot(c), own);
        }
        if new_group.is_none() && cells.len() == 1 && !self.touches_own(sq.slot(first)) {
            return Ok(after);
        }
        if new_group.is_some() {
            if self.to_move != Player::Second {
                return illegal(
                    Rule::BalancingMove,
                    "only Red may follow a growth with a new group (the balancing move)".into(),
                );
            }
            if self.grown {
                return illegal(
                    Rule::BalancingMove,
                    "the balancing move is no longer available: a player has already grown".into(),
                );
            }
        }
        for c in cells {
            if !self.touches_own(sq.slot(c)) {
                return illegal(
                    Rule::NotAGrowth,
                    format!(
                        "{c} touches no original {name} group (every stone of a growth must grow a group \
                     that stood at the start of the turn)"
                    ),
                );
            }
        }
        let turn = Turn::new(&self.board, self.to_move);
        let mut grower: Vec<Option<Cell>> = vec![None; turn.groups];
        for c in cells {
            let lib = &turn.libs[usize::from(turn.lib_of[sq.slot(c)])];
            for &g in lib.groups() {
                if let Some(earlier) = grower[usize::from(g)].replace(c) {
                    let group_cell = sq
                        .cells()
                        .find(|&x| turn.group_of[sq.slot(x)] == g)
                        .expect("a group has a stone");
                    return illegal(
                        Rule::GroupGrownTwice,
                        format!(
                            "the {name} group at {group_cell} would be grown twice, by {earlier} and {c}"
                        ),
                    );
                }
            }
        }
        if let Some(p) = new_group {
            let ps = sq.slot(p);
            if let Some(d) = sq
                .orthogonal()
                .into_iter()
                .find(|&d| after.get(ps.wrapping_add_signed(d)) == own)
            {
                let touching = sq
                    .cell_at(ps.wrapping_add_signed(d))
                    .expect("a stone is on the board");
                return illegal(
                    Rule::NewGroupTouches,
                    format!(
                        "{p} would not start a new group: it touches the {name} stone at {touching}"
                    ),
                );
            }
        }
        Ok(after)
    }

    /// The diagonal restriction on the board `after` the stones are put.
    fn check_restriction(
        &self,
        after: &StoneBoard,
        cells: &CellSet,
        new_group: Option<Cell>,
    ) -> Result<(), IllegalMove> {
        let sq = self.board.square();
        let new_slots = cells.iter().chain(new_group).map(|c| sq.slot(c));
        match split_diagonal(after, self.to_move, new_slots) {
            Some((a, b)) => Err(IllegalMove::new(
                Rule::DiagonalRestriction,
                format!(
                    "{a} and {b} would be diagonally adjacent {} stones in different groups \
                 (the restriction)",
                    NAMES[self.to_move.index()]
                ),
            )),
            None => Ok(()),
        }
    }

    fn hash_fields(&self) -> u64 {
        let mut h = 0;
        if self.to_move == Player::Second {
            h ^= zobrist::second_to_move();
        }
        if self.grown {
            h ^= zobrist::field(0);
        }
        h
    }
}

impl fmt::Display for Scware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scware {} {} {}",
            self.board.rows_text(LETTERS),
            LETTERS[self.to_move.index()],
            if self.grown { 'g' } else { '-' }
        )
    }
}

impl fmt::Debug for Scware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Scware {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Scware, PositionError> {
        let f = text::fields(s, Scware::ID, 4)?;
        let board = StoneBoard::parse_rows(f[1], LETTERS, Scware::sizes())?;
        let to_move = text::player(f[2], LETTERS)?;
        let grown = match f[3] {
            "-" => false,
            "g" => true,
            other => {
                return Err(PositionError::unreadable(format!(
                    "the grown field is '{other}', expected '-' (nobody has grown yet) or 'g'"
                )));
            }
        };
        let sq = board.square();
        for p in Player::BOTH {
            if let Some((a, b)) = split_diagonal(&board, p, sq.slots()) {
                return Err(PositionError::unreachable(format!(
                    "{}'s stones {a} and {b} stand diagonally adjacent in different groups, which \
                     the restriction never allows",
                    NAMES[p.index()]
                )));
            }
            if !grown {
                let own = Stone::of(p);
                for c in sq.cells() {
                    let s = sq.slot(c);
                    let up = s + sq.stride();
                    let right = s + 1;
                    for n in [up, right] {
                        if board.get(s) == own && board.get(n) == own {
                            let other = sq.cell_at(n).expect("a stone is on the board");
                            return Err(PositionError::unreachable(format!(
                                "{}'s stones {c} and {other} are joined, but the grown field is '-': \
                                 only a growth joins stones",
                                NAMES[p.index()]
                            )));
                        }
                    }
                }
            }
        }
        let winner = board.winner();
        let stones = board.bitboards().unwrap_or_default();
        Ok(Scware {
            board,
            to_move,
            grown,
            winner,
            stones,
        })
    }
}

swapboard_core::serde_as_text!(Scware);

impl Game for Scware {
    type Move = ScwareMove;

    const ID: &'static str = "scware";
    const TITLE: &'static str = "Scware by Christian Freeling (2012)";
    const DEFAULT_SIZE: usize = 11;
    /// A search iteration here checks every decision of a compound turn against the whole
    /// turn, and plays out turns of many stones: measured on 11 x 11, about four times the
    /// cost of a Swaptimum 9 x 9 iteration (docs/PERFORMANCE.md).
    const SEARCH_COST: u32 = 4;

    fn sizes() -> RangeInclusive<usize> {
        3..=26
    }

    fn start(size: usize) -> Result<Scware, PositionError> {
        let square = Square::new(size).map_err(|e| PositionError::bad_size(e.to_string()))?;
        Ok(Scware {
            board: StoneBoard::empty(square),
            to_move: Player::First,
            grown: false,
            winner: None,
            stones: [0; 2],
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
        if !self.can_move(self.to_move) && !self.can_move(self.to_move.other()) {
            return Some(Outcome::Draw);
        }
        None
    }

    fn for_each_move<F: FnMut(ScwareMove) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        if self.winner.is_some() {
            return ControlFlow::Continue(());
        }
        let turn = Turn::new(&self.board, self.to_move);
        let sq = self.board.square();
        let cell = |s: u16| {
            sq.cell_at(usize::from(s))
                .expect("a placement is on the board")
        };
        let mut any = false;
        for &p in &turn.placements {
            any = true;
            f(ScwareMove::single(cell(p)))?;
        }
        let balancing = self.balancing_available();
        let mut st = turn.search();
        turn.walk(&mut st, 0, turn.order.len(), &mut |st| {
            if st.chosen == 0 {
                return ControlFlow::Continue(());
            }
            any = true;
            f(ScwareMove::growth(st.cells))?;
            if balancing {
                for &p in &turn.placements {
                    if !turn.near_new_stone(st, usize::from(p)) {
                        f(ScwareMove::balanced(st.cells, cell(p)))?;
                    }
                }
            }
            ControlFlow::Continue(())
        })?;
        if !any && self.can_move(self.to_move.other()) {
            f(ScwareMove::Pass)?;
        }
        ControlFlow::Continue(())
    }

    fn move_count(&self) -> u64 {
        u64::try_from(self.move_counts().total()).unwrap_or(u64::MAX)
    }

    fn is_pass(mv: &ScwareMove) -> bool {
        matches!(mv, ScwareMove::Pass)
    }

    fn check_move(&self, mv: &ScwareMove) -> Result<(), IllegalMove> {
        if let Some(p) = self.winner {
            return Err(IllegalMove::new(
                Rule::GameOver,
                format!("the game is over: {} has won", NAMES[p.index()]),
            ));
        }
        match mv {
            ScwareMove::Pass => {
                if self.can_move(self.to_move) {
                    Err(IllegalMove::new(
                        Rule::PassNotAllowed,
                        "pass is only legal when there is no other move",
                    ))
                } else if !self.can_move(self.to_move.other()) {
                    Err(IllegalMove::new(
                        Rule::GameOver,
                        "the game is over: neither player can move (a draw)",
                    ))
                } else {
                    Ok(())
                }
            }
            ScwareMove::Stones { cells, new_group } => self.check_stones(cells, *new_group),
        }
    }

    fn play_unchecked(&mut self, mv: &ScwareMove) {
        let mover = self.to_move;
        if let ScwareMove::Stones { cells, new_group } = mv {
            let sq = self.board.square();
            if let Some(first) = cells.first()
                && (cells.len() > 1 || new_group.is_some() || self.touches_own(sq.slot(first)))
            {
                self.grown = true;
            }
            let own = Stone::of(mover);
            for c in cells.iter().chain(*new_group) {
                self.board.set(sq.slot(c), own);
            }
            let won = match Geometry::of(self.board.size()) {
                Some(g) => {
                    let new = cells.iter().chain(*new_group).fold(0, |b, c| b | g.bit(c));
                    let stones = &mut self.stones[mover.index()];
                    *stones |= new;
                    g.joins(bitboard::sides(g, mover), new, *stones)
                }
                None => self.board.has_path(mover),
            };
            if won {
                self.winner = Some(mover);
            }
        }
        self.to_move = mover.other();
    }

    fn parse_move(&self, text: &str) -> Result<ScwareMove, MoveError> {
        ScwareMove::parse(text, self.size())
    }

    fn zobrist(&self) -> u64 {
        self.board.hash() ^ self.hash_fields()
    }

    fn view(&self) -> BoardView {
        let mut notes = vec![if self.grown {
            "a player has grown: the balancing move is gone".to_string()
        } else {
            "nobody has grown yet: Red may still make the balancing move".to_string()
        }];
        notes.push("White joins top and bottom, Red joins left and right".to_string());
        BoardView {
            title: Self::TITLE.to_string(),
            size: self.size(),
            cells: self.board.owners(),
            letters: LETTERS,
            names: NAMES.map(std::borrow::Cow::Borrowed),
            sides: [SideOwner::TopBottom, SideOwner::LeftRight],
            marks: Vec::new(),
            to_move: self.to_move,
            outcome: self.outcome(),
            notes,
            winning: Vec::new(),
            links: Vec::new(),
            outlined: Vec::new(),
        }
        .with_winning_path()
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<ScwareMove> {
        crate::sampler::random_move(self, rng)
    }

    /// The move's stones: a connection is made of cells, whatever kind of move filled them.
    fn amaf_cells(mv: &ScwareMove, mut f: impl FnMut(Cell)) -> bool {
        match mv {
            ScwareMove::Pass => false,
            ScwareMove::Stones { cells, new_group } => {
                cells.iter().chain(*new_group).for_each(&mut f);
                true
            }
        }
    }

    /// Placements, growths (with their stones, for the mean stones per growth) and Red's
    /// balancing moves.
    fn rule_events(&self, mv: &ScwareMove, event: &mut dyn FnMut(&'static str, u64)) {
        let ScwareMove::Stones { cells, new_group } = mv else {
            return;
        };
        let placement = new_group.is_none()
            && cells.len() == 1
            && cells
                .first()
                .is_some_and(|c| !self.touches_own(self.board.square().slot(c)));
        event("placements", u64::from(placement));
        event("growths", u64::from(!placement));
        event(
            "stones in growths",
            if placement { 0 } else { cells.len() as u64 },
        );
        event("balancing moves", u64::from(new_group.is_some()));
    }
}

impl Scware {
    /// Whether the game has been won (a cheap test, unlike [`Game::outcome`], which also
    /// looks for a draw).
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The bitboard of `player`'s stones (boards up to 11 x 11 only).
    pub(crate) fn stones(&self, player: Player) -> u128 {
        self.stones[player.index()]
    }
}
