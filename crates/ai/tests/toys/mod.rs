//! Small games to test the search on: tic-tac-toe, a take-away game in which the first
//! player moves twice in a row, a take-away game with passes, and a game whose turns are
//! searched as two decisions each. Each comes with a brute-force solver to check against.
#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;

use swapboard_core::{
    BoardView, Game, IllegalMove, MoveError, Outcome, Player, PositionError, Rule, SideOwner,
    Stepwise, whole_turns,
};

/// The items every toy shares: names, sizes, a text form, a view, a hash.
macro_rules! toy_items {
    ($id:literal) => {
        const ID: &'static str = $id;
        const TITLE: &'static str = $id;
        const DEFAULT_SIZE: usize = 3;

        fn sizes() -> RangeInclusive<usize> {
            3..=3
        }

        fn start(_size: usize) -> Result<Self, PositionError> {
            Ok(Self::default())
        }

        fn size(&self) -> usize {
            3
        }

        fn colour_letter(player: Player) -> char {
            ['X', 'O'][player.index()]
        }

        fn colour_name(player: Player) -> &'static str {
            ["Ex", "Oh"][player.index()]
        }

        fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
            let mut found = None;
            let _ = self.for_each_move(|m| {
                if m.to_string() == text {
                    found = Some(m);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            found.ok_or_else(|| MoveError::unreadable(text, "not a move here"))
        }

        fn is_pass(mv: &Self::Move) -> bool {
            // Only PassNim has a pass; the toys need no faster test than its text.
            mv.to_string() == "pass"
        }

        fn check_move(&self, mv: &Self::Move) -> Result<(), IllegalMove> {
            let legal = self
                .for_each_move(|m| {
                    if m == *mv {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .is_break();
            if legal {
                Ok(())
            } else {
                Err(IllegalMove::new(Rule::Occupied, "not legal here"))
            }
        }

        fn zobrist(&self) -> u64 {
            let mut h = std::hash::DefaultHasher::new();
            self.hash(&mut h);
            std::hash::Hasher::finish(&h)
        }

        fn view(&self) -> BoardView {
            BoardView {
                title: $id.to_string(),
                size: 3,
                cells: vec![None; 9],
                letters: ['X', 'O'],
                names: ["Ex", "Oh"].map(std::borrow::Cow::Borrowed),
                sides: [SideOwner::None, SideOwner::None],
                marks: Vec::new(),
                to_move: self.to_move(),
                outcome: self.outcome(),
                notes: Vec::new(),
                winning: Vec::new(),
                links: Vec::new(),
                outlined: Vec::new(),
            }
        }
    };
}

/// A text form for the toys: their debug form (they are never read back).
macro_rules! toy_text {
    ($ty:ty) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{self:?}")
            }
        }

        impl FromStr for $ty {
            type Err = PositionError;

            fn from_str(_: &str) -> Result<Self, PositionError> {
                Err(PositionError::unreadable("toys are not read from text"))
            }
        }
    };
}

/// Tic-tac-toe; cells 0..9, row by row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    pub cells: [Option<Player>; 9],
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    /// A position from nine characters `x`, `o`, `.`.
    pub fn from_cells(text: &str) -> TicTacToe {
        let mut t = TicTacToe::default();
        for (i, c) in text.chars().enumerate() {
            t.cells[i] = match c {
                'x' => Some(Player::First),
                'o' => Some(Player::Second),
                _ => None,
            };
        }
        t
    }
}

toy_text!(TicTacToe);

impl Game for TicTacToe {
    type Move = u8;
    toy_items!("ttt");

    fn to_move(&self) -> Player {
        let filled = self.cells.iter().flatten().count();
        Player::from_index(filled % 2)
    }

    fn outcome(&self) -> Option<Outcome> {
        for line in LINES {
            if let Some(p) = self.cells[line[0]]
                && line.iter().all(|&c| self.cells[c] == Some(p))
            {
                return Some(Outcome::Win(p));
            }
        }
        self.cells
            .iter()
            .all(Option::is_some)
            .then_some(Outcome::Draw)
    }

    fn for_each_move<F: FnMut(u8) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        if self.outcome().is_some() {
            return ControlFlow::Continue(());
        }
        for c in 0..9u8 {
            if self.cells[c as usize].is_none() {
                f(c)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn play_unchecked(&mut self, mv: &u8) {
        let p = self.to_move();
        self.cells[*mv as usize] = Some(p);
    }
}
whole_turns!(TicTacToe);

/// Take 1 or 2 from a pile; whoever takes the last stone wins. The first player moves twice
/// in a row every time (turn order F F S F F S ...).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TwiceNim {
    pub pile: u8,
    /// Moves made so far, modulo 3.
    pub phase: u8,
}

impl Default for TwiceNim {
    fn default() -> TwiceNim {
        TwiceNim { pile: 10, phase: 0 }
    }
}

toy_text!(TwiceNim);

impl Game for TwiceNim {
    type Move = u8;
    toy_items!("twice-nim");

    fn to_move(&self) -> Player {
        if self.phase < 2 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        // The player who took the last stone is the one who moved last.
        (self.pile == 0).then(|| {
            let last = (self.phase + 2) % 3;
            Outcome::Win(if last < 2 {
                Player::First
            } else {
                Player::Second
            })
        })
    }

    fn for_each_move<F: FnMut(u8) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        for take in 1..=2.min(self.pile) {
            f(take)?;
        }
        ControlFlow::Continue(())
    }

    fn play_unchecked(&mut self, mv: &u8) {
        self.pile -= mv;
        self.phase = (self.phase + 1) % 3;
    }
}
whole_turns!(TwiceNim);

/// A move of [`PassNim`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassMove {
    /// Take stones.
    Take(u8),
    /// No other move.
    Pass,
}

impl fmt::Display for PassMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PassMove::Take(n) => write!(f, "{n}"),
            PassMove::Pass => f.write_str("pass"),
        }
    }
}

/// A shared pile: the first player takes 1 or 2 stones, the second 2 or 3; a player who can
/// take nothing passes (so the first player may move twice in a row); whoever takes the last
/// stone wins.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PassNim {
    pub pile: u8,
    pub to_move: Player,
    /// The player who took the last stone.
    pub winner: Option<Player>,
}

impl Default for PassNim {
    fn default() -> PassNim {
        PassNim {
            pile: 9,
            to_move: Player::First,
            winner: None,
        }
    }
}

toy_text!(PassNim);

impl Game for PassNim {
    type Move = PassMove;
    toy_items!("pass-nim");

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }

    fn for_each_move<F: FnMut(PassMove) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        if self.winner.is_some() {
            return ControlFlow::Continue(());
        }
        let takes = match self.to_move {
            Player::First => 1..=2,
            Player::Second => 2..=3,
        };
        let mut any = false;
        for take in takes.filter(|&t| t <= self.pile) {
            any = true;
            f(PassMove::Take(take))?;
        }
        if !any {
            f(PassMove::Pass)?;
        }
        ControlFlow::Continue(())
    }

    fn play_unchecked(&mut self, mv: &PassMove) {
        if let PassMove::Take(n) = *mv {
            self.pile -= n;
            if self.pile == 0 {
                self.winner = Some(self.to_move);
            }
        }
        self.to_move = self.to_move.other();
    }
}
whole_turns!(PassNim);

/// A whole move of [`PairSum`]: two digits from 0 to 2, not both 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair(pub u8, pub u8);

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// Players add the two digits of their move to a total; whoever brings it to `target` or
/// beyond wins. Searched through [`PairSteps`], one digit at a time.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PairSum {
    pub total: u8,
    pub target: u8,
    pub to_move: Player,
    /// The player who reached the target.
    pub winner: Option<Player>,
}

impl Default for PairSum {
    fn default() -> PairSum {
        PairSum {
            total: 0,
            target: 11,
            to_move: Player::First,
            winner: None,
        }
    }
}

toy_text!(PairSum);

impl Game for PairSum {
    type Move = Pair;
    toy_items!("pair-sum");
    /// As Scware's, to test levels of a game whose iterations cost more.
    const SEARCH_COST: u32 = 4;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }

    fn for_each_move<F: FnMut(Pair) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        if self.winner.is_some() {
            return ControlFlow::Continue(());
        }
        for a in 0..=2 {
            for b in 0..=2 {
                if a + b > 0 {
                    f(Pair(a, b))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn play_unchecked(&mut self, mv: &Pair) {
        self.total += mv.0 + mv.1;
        if self.total >= self.target {
            self.winner = Some(self.to_move);
        }
        self.to_move = self.to_move.other();
    }
}

/// [`PairSum`] one digit at a time: the mover picks the first digit, then (still to move)
/// the second.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct PairSteps {
    pub game: PairSum,
    pub first: Option<u8>,
}

toy_text!(PairSteps);

impl Game for PairSteps {
    type Move = u8;
    toy_items!("pair-steps");

    fn to_move(&self) -> Player {
        self.game.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn for_each_move<F: FnMut(u8) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        if self.game.winner.is_some() {
            return ControlFlow::Continue(());
        }
        let low = if self.first == Some(0) { 1 } else { 0 };
        for d in low..=2 {
            f(d)?;
        }
        ControlFlow::Continue(())
    }

    fn play_unchecked(&mut self, mv: &u8) {
        match self.first.take() {
            None => self.first = Some(*mv),
            Some(a) => self.game.play_unchecked(&Pair(a, *mv)),
        }
    }
}

impl Stepwise for PairSum {
    type Steps = PairSteps;

    fn to_steps(&self) -> PairSteps {
        PairSteps {
            game: self.clone(),
            first: None,
        }
    }

    fn move_from_steps(&self, path: &[u8]) -> Option<Pair> {
        match *path {
            [a, b] if a <= 2 && b <= 2 && a + b > 0 => Some(Pair(a, b)),
            _ => None,
        }
    }
}

/// The exact result of `pos` with perfect play, by brute force (memoised on the position).
pub fn solve<G: Game>(pos: &G, memo: &mut HashMap<G, Outcome>) -> Outcome {
    if let Some(outcome) = pos.outcome() {
        return outcome;
    }
    if let Some(&known) = memo.get(pos) {
        return known;
    }
    let me = pos.to_move();
    let mut best = Outcome::Win(me.other());
    for mv in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(&mv);
        match solve(&next, memo) {
            Outcome::Win(p) if p == me => {
                best = Outcome::Win(me);
                break;
            }
            Outcome::Draw => best = Outcome::Draw,
            Outcome::Win(_) => {}
        }
    }
    memo.insert(pos.clone(), best);
    best
}
