//! A Scware turn as a path of small decisions, for tree search.
//!
//! A whole growth can be one of millions of moves; [`ScwareSteps`] lets a search build it
//! one decision at a time. At the start of a turn the mover either places a stone (the whole
//! turn) or decides the first group that can grow; then each group in turn (in the cell
//! order of its first stone) either grows into one of its liberties or is skipped; a group
//! already grown by a shared liberty, or with no liberty, is passed over. When every group
//! is decided the growth is played, unless Red may still balance: then a last decision adds
//! the new group (`+h8`) or declines it (`done`).
//!
//! Only decisions that can still be completed to a legal move are legal, so a search never
//! meets a dead end, and the player to move stays the same until the turn is complete.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use swapboard_core::{
    BoardView, CellMark, Game, IllegalMove, MoveError, Outcome, Player, PositionError, Rule,
    Stepwise, text, zobrist,
};
use swapboard_grid::{Cell, CellSet};

use crate::count::Packings;
use crate::turn::{SKIP, Search, Turn, UNSET};
use crate::{Scware, ScwareMove};

/// Where the turn under construction stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Partial {
    /// Nothing decided yet.
    Start,
    /// Groups before `next` are decided; `cells` are the stones chosen so far.
    Growing { next: u16, cells: CellSet },
    /// The growth `cells` is complete; Red decides on the new group.
    NewGroup { cells: CellSet },
}

/// A Scware position with a turn partly built (see the module docs).
///
/// Text: the Scware position text with the game word `scware-steps` and one more field:
/// `-` at the start of a turn, `grow:<k>:<cells>` once the first `k` groups (numbered from 0
/// in the cell order of their first stone) are decided with `cells` chosen (`none` if no
/// cell yet), or `new-group:<cells>` when only Red's new group is left to decide.
#[derive(Clone)]
pub struct ScwareSteps {
    pos: Scware,
    partial: Partial,
    /// The growth structure of `pos`, made when first needed and shared by every clone
    /// building a turn from the same position: a search descends through many decisions of
    /// one turn, and each would otherwise analyse the board anew.
    plan: Arc<OnceLock<Plan>>,
}

/// The analysed growths of a turn start: what every decision of the turn is checked against.
struct Plan {
    turn: Turn,
    packings: Packings,
}

impl PartialEq for ScwareSteps {
    fn eq(&self, other: &ScwareSteps) -> bool {
        self.pos == other.pos && self.partial == other.partial
    }
}

impl Eq for ScwareSteps {}

impl Hash for ScwareSteps {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pos.hash(state);
        self.partial.hash(state);
    }
}

/// One decision of a Scware turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScwareStep {
    /// Start a new group: the whole turn (written as the cell).
    Place(Cell),
    /// The group being decided grows into this liberty (written as the cell).
    Grow(Cell),
    /// The group being decided does not grow (`skip`).
    Skip,
    /// Red's new group after the growth (`+h8`).
    NewGroup(Cell),
    /// End the growth without a new group (`done`).
    Done,
    /// No legal move: the turn passes (`pass`).
    Pass,
}

impl fmt::Display for ScwareStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScwareStep::Place(c) | ScwareStep::Grow(c) => write!(f, "{c}"),
            ScwareStep::Skip => f.write_str("skip"),
            ScwareStep::NewGroup(c) => write!(f, "+{c}"),
            ScwareStep::Done => f.write_str("done"),
            ScwareStep::Pass => f.write_str("pass"),
        }
    }
}

/// The first group from `from` on that is undecided and has a liberty to choose.
fn decidable(turn: &Turn, st: &Search, from: u16) -> u16 {
    (from..turn.groups as u16)
        .find(|&g| st.choice[usize::from(g)] == UNSET && !turn.libs_of(g).is_empty())
        .unwrap_or(turn.groups as u16)
}

fn write_cells(f: &mut fmt::Formatter<'_>, cells: &CellSet) -> fmt::Result {
    if cells.is_empty() {
        return f.write_str("none");
    }
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{c}")?;
    }
    Ok(())
}

impl ScwareSteps {
    /// A turn to be built from its start in `pos`.
    fn at_start(pos: Scware) -> ScwareSteps {
        ScwareSteps {
            pos,
            partial: Partial::Start,
            plan: Arc::default(),
        }
    }

    /// The growth structure of the turn being built.
    fn plan(&self) -> &Plan {
        self.plan.get_or_init(|| {
            let turn = Turn::new(self.pos.board(), self.pos.to_move());
            let packings = Packings::new(&turn);
            Plan { turn, packings }
        })
    }

    /// The position at the start of the turn being built.
    pub fn position(&self) -> &Scware {
        &self.pos
    }

    /// Whether no decision of the current turn has been made yet.
    pub fn at_turn_start(&self) -> bool {
        self.partial == Partial::Start
    }

    /// The search state of the partial turn, and the group being decided.
    fn rebuild(&self, turn: &Turn) -> (Search, u16) {
        let mut st = turn.search();
        let sq = turn.square;
        let (next, cells) = match self.partial {
            Partial::Start => {
                let g = decidable(turn, &st, 0);
                return (st, g);
            }
            Partial::Growing { next, cells } => (next, cells),
            Partial::NewGroup { cells } => (turn.groups as u16, cells),
        };
        for c in &cells {
            turn.choose(&mut st, turn.lib_of[sq.slot(c)]);
        }
        for g in 0..usize::from(next) {
            if st.choice[g] == UNSET {
                st.choice[g] = SKIP;
            }
        }
        (st, next)
    }

    /// Calls `f` with each legal decision.
    fn each_step(&self, f: &mut dyn FnMut(ScwareStep) -> ControlFlow<()>) -> ControlFlow<()> {
        if self.partial == Partial::Start && self.pos.winner().is_some() {
            return ControlFlow::Continue(());
        }
        let Plan { turn, packings } = self.plan();
        let sq = turn.square;
        let cell = |s: u16| sq.cell_at(usize::from(s)).expect("on the board");
        let (mut st, cur) = self.rebuild(turn);
        let mut any = false;
        if let Partial::NewGroup { .. } = self.partial {
            for &p in &turn.placements {
                if !turn.near_new_stone(&st, usize::from(p)) {
                    f(ScwareStep::NewGroup(cell(p)))?;
                }
            }
            return f(ScwareStep::Done);
        }
        if self.partial == Partial::Start {
            for &p in &turn.placements {
                any = true;
                f(ScwareStep::Place(cell(p)))?;
            }
        }
        if usize::from(cur) < turn.groups {
            let g = usize::from(cur);
            st.choice[g] = SKIP;
            let skip = turn.completes(&mut st, packings);
            st.choice[g] = UNSET;
            if skip {
                any = true;
                f(ScwareStep::Skip)?;
            }
            for &lib in turn.libs_of(cur) {
                if !turn.can_choose(&st, lib) {
                    continue;
                }
                turn.choose(&mut st, lib);
                let ok = turn.completes(&mut st, packings);
                turn.unchoose(&mut st, lib);
                if ok {
                    any = true;
                    f(ScwareStep::Grow(cell(turn.libs[usize::from(lib)].slot)))?;
                }
            }
        }
        if !any && self.partial == Partial::Start && self.pos.can_move(self.pos.to_move().other()) {
            f(ScwareStep::Pass)?;
        }
        ControlFlow::Continue(())
    }

    /// Ends the turn with `mv`.
    fn finish(&mut self, mv: ScwareMove) {
        self.pos.play_unchecked(&mv);
        self.partial = Partial::Start;
        self.plan = Arc::default();
    }

    fn hash_cells(&self, cells: &CellSet) -> u64 {
        let sq = self.pos.board().square();
        cells
            .iter()
            .fold(0, |h, c| h ^ zobrist::stone(sq.slot(c), self.pos.to_move()))
    }

    /// Why a decision that is not legal here is refused.
    fn refusal(&self, step: &ScwareStep) -> IllegalMove {
        let why = IllegalMove::new;
        match (step, self.partial) {
            (ScwareStep::Place(c), Partial::Start) => {
                match self.pos.check_move(&ScwareMove::single(*c)) {
                    Err(e) => e,
                    Ok(()) => why(Rule::StepOutOfOrder, "that cell is not a placement here"),
                }
            }
            (ScwareStep::Pass, Partial::Start) => match self.pos.check_move(&ScwareMove::Pass) {
                Err(e) => e,
                Ok(()) => why(Rule::StepOutOfOrder, "pass is not a decision here"),
            },
            (ScwareStep::Place(_) | ScwareStep::Pass, _) => why(
                Rule::StepOutOfOrder,
                "this turn has already begun growing: a placement or a pass is a whole turn",
            ),
            (ScwareStep::NewGroup(p), Partial::NewGroup { cells }) => {
                match self.pos.check_move(&ScwareMove::balanced(cells, *p)) {
                    Err(e) => e,
                    Ok(()) => why(Rule::StepOutOfOrder, "that cell cannot start the new group"),
                }
            }
            (ScwareStep::NewGroup(_) | ScwareStep::Done, _) => why(
                Rule::StepOutOfOrder,
                "no complete growth is waiting for Red's new group",
            ),
            (ScwareStep::Grow(_) | ScwareStep::Skip, Partial::NewGroup { .. }) => why(
                Rule::StepOutOfOrder,
                "every group has been decided: add the new group (+cell) or say done",
            ),
            (ScwareStep::Grow(c), _) => {
                let turn = &self.plan().turn;
                let (st, cur) = self.rebuild(turn);
                let lib = turn.lib_of[turn.square.slot(*c)];
                let free = usize::from(cur) < turn.groups
                    && turn.libs_of(cur).contains(&lib)
                    && turn.can_choose(&st, lib);
                if free {
                    IllegalMove::new(
                        Rule::NoLegalCompletion,
                        format!(
                            "no legal growth continues with {c}: the restriction could not be met"
                        ),
                    )
                } else {
                    IllegalMove::new(
                        Rule::StepOutOfOrder,
                        format!("{c} is not a free liberty of the group being decided"),
                    )
                }
            }
            (ScwareStep::Skip, _) => why(
                Rule::NoLegalCompletion,
                "no legal growth continues without this group (the growth would be empty or break the restriction)",
            ),
        }
    }
}

impl fmt::Display for ScwareSteps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.pos.to_string();
        let rest = text.strip_prefix(Scware::ID).unwrap_or(&text);
        write!(f, "{}{rest} ", ScwareSteps::ID)?;
        match &self.partial {
            Partial::Start => f.write_str("-"),
            Partial::Growing { next, cells } => {
                write!(f, "grow:{next}:")?;
                write_cells(f, cells)
            }
            Partial::NewGroup { cells } => {
                f.write_str("new-group:")?;
                write_cells(f, cells)
            }
        }
    }
}

impl fmt::Debug for ScwareSteps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for ScwareSteps {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<ScwareSteps, PositionError> {
        let f = text::fields(s, ScwareSteps::ID, 5)?;
        let pos: Scware = format!("{} {} {} {}", Scware::ID, f[1], f[2], f[3]).parse()?;
        let field = f[4];
        let bad =
            |why: &str| PositionError::unreadable(format!("the partial turn '{field}' {why}"));
        let cannot_arise =
            |why: &str| PositionError::unreachable(format!("the partial turn '{field}' {why}"));
        let read_cells = |list: &str| -> Result<CellSet, PositionError> {
            if list == "none" {
                return Ok(CellSet::new());
            }
            let mut cells = CellSet::new();
            for name in list.split(',') {
                let c: Cell = name
                    .parse()
                    .map_err(|e| bad(&format!("is unreadable: {e}")))?;
                if usize::from(c.col()) >= pos.size()
                    || usize::from(c.row()) >= pos.size()
                    || !cells.insert(c)
                {
                    return Err(bad(&format!("names {c} off the board or twice")));
                }
            }
            Ok(cells)
        };
        let partial = if field == "-" {
            Partial::Start
        } else if let Some(rest) = field.strip_prefix("grow:") {
            let (k, list) = rest
                .split_once(':')
                .ok_or_else(|| bad("is not grow:<k>:<cells>"))?;
            let next: u16 = k.parse().map_err(|_| bad("has no group number"))?;
            Partial::Growing {
                next,
                cells: read_cells(list)?,
            }
        } else if let Some(list) = field.strip_prefix("new-group:") {
            Partial::NewGroup {
                cells: read_cells(list)?,
            }
        } else {
            return Err(bad("is not '-', grow:<k>:<cells> or new-group:<cells>"));
        };
        let mut steps = ScwareSteps::at_start(pos);
        if partial == Partial::Start {
            return Ok(steps);
        }
        if steps.pos.winner().is_some() {
            return Err(cannot_arise("follows a finished game"));
        }
        // A partial turn must be one the decisions can reach: check it against the turn.
        let Plan { turn, packings } = steps.plan();
        let sq = turn.square;
        let mut st = turn.search();
        let (next, cells) = match partial {
            Partial::Growing { next, cells } => (next, cells),
            Partial::NewGroup { cells } => (turn.groups as u16, cells),
            Partial::Start => unreachable!("handled above"),
        };
        if usize::from(next) > turn.groups {
            return Err(cannot_arise("names a group beyond the last"));
        }
        for c in &cells {
            let lib = turn.lib_of[sq.slot(c)];
            if lib == UNSET || !turn.can_choose(&st, lib) {
                return Err(cannot_arise(&format!(
                    "grows {c}, which is not a free liberty"
                )));
            }
            if turn.libs[usize::from(lib)]
                .groups()
                .iter()
                .all(|&g| g >= next)
            {
                return Err(cannot_arise(&format!(
                    "grows {c} for a group not decided yet"
                )));
            }
            turn.choose(&mut st, lib);
        }
        for g in 0..usize::from(next) {
            if st.choice[g] == UNSET {
                st.choice[g] = SKIP;
            }
        }
        let reachable = match partial {
            Partial::Growing { .. } => {
                decidable(turn, &st, next) == next
                    && decidable(turn, &turn.search(), 0) < next
                    && turn.completes(&mut st, packings)
            }
            _ => {
                steps.pos.balancing_available()
                    && st.chosen > 0
                    && turn.completes(&mut st, packings)
                    && turn
                        .placements
                        .iter()
                        .any(|&p| !turn.near_new_stone(&st, usize::from(p)))
            }
        };
        if !reachable {
            return Err(cannot_arise("cannot be reached by legal decisions"));
        }
        steps.partial = partial;
        Ok(steps)
    }
}

swapboard_core::serde_as_text!(ScwareSteps);

impl Game for ScwareSteps {
    type Move = ScwareStep;

    const ID: &'static str = "scware-steps";
    const TITLE: &'static str = "Scware by Christian Freeling (2012), turns as decisions";
    const DEFAULT_SIZE: usize = Scware::DEFAULT_SIZE;
    const SEARCH_COST: u32 = Scware::SEARCH_COST;

    fn sizes() -> RangeInclusive<usize> {
        Scware::sizes()
    }

    fn start(size: usize) -> Result<ScwareSteps, PositionError> {
        Ok(Scware::start(size)?.to_steps())
    }

    fn size(&self) -> usize {
        self.pos.size()
    }

    fn colour_letter(player: Player) -> char {
        Scware::colour_letter(player)
    }

    fn colour_name(player: Player) -> &'static str {
        Scware::colour_name(player)
    }

    fn to_move(&self) -> Player {
        self.pos.to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.partial {
            Partial::Start => self.pos.outcome(),
            _ => None,
        }
    }

    fn for_each_move<F: FnMut(ScwareStep) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        self.each_step(&mut f)
    }

    /// The cell of a placement, a growth's stone or a new group, so that the three pool
    /// their statistics with each other and with the stones of whole-move playouts
    /// ([`Scware`]'s own hook).
    fn amaf_cells(step: &ScwareStep, mut f: impl FnMut(Cell)) -> bool {
        match *step {
            ScwareStep::Place(cell) | ScwareStep::Grow(cell) | ScwareStep::NewGroup(cell) => {
                f(cell);
                true
            }
            ScwareStep::Skip | ScwareStep::Done | ScwareStep::Pass => false,
        }
    }

    fn is_pass(mv: &ScwareStep) -> bool {
        matches!(mv, ScwareStep::Pass)
    }

    fn check_move(&self, step: &ScwareStep) -> Result<(), IllegalMove> {
        if self.partial == Partial::Start
            && let Some(Outcome::Win(p)) = self.pos.outcome()
        {
            return Err(IllegalMove::new(
                Rule::GameOver,
                format!("the game is over: {} has won", Scware::colour_name(p)),
            ));
        }
        let listed = self.each_step(&mut |s| {
            if s == *step {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if listed.is_break() {
            Ok(())
        } else {
            Err(self.refusal(step))
        }
    }

    fn play_unchecked(&mut self, step: &ScwareStep) {
        match *step {
            ScwareStep::Place(c) => self.finish(ScwareMove::single(c)),
            ScwareStep::Pass => self.finish(ScwareMove::Pass),
            ScwareStep::NewGroup(p) => {
                if let Partial::NewGroup { cells } = self.partial {
                    self.finish(ScwareMove::balanced(cells, p));
                }
            }
            ScwareStep::Done => {
                if let Partial::NewGroup { cells } = self.partial {
                    self.finish(ScwareMove::growth(cells));
                }
            }
            ScwareStep::Grow(_) | ScwareStep::Skip => {
                let turn = &self.plan().turn;
                let (mut st, cur) = self.rebuild(turn);
                if usize::from(cur) >= turn.groups {
                    return;
                }
                match *step {
                    ScwareStep::Grow(c) => turn.choose(&mut st, turn.lib_of[turn.square.slot(c)]),
                    _ => st.choice[usize::from(cur)] = SKIP,
                }
                let next = decidable(turn, &st, cur + 1);
                let cells = st.cells;
                let balancing = usize::from(next) >= turn.groups
                    && self.pos.balancing_available()
                    && turn
                        .placements
                        .iter()
                        .any(|&p| !turn.near_new_stone(&st, usize::from(p)));
                if usize::from(next) < turn.groups {
                    self.partial = Partial::Growing { next, cells };
                } else if balancing {
                    self.partial = Partial::NewGroup { cells };
                } else {
                    self.finish(ScwareMove::growth(cells));
                }
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<ScwareStep, MoveError> {
        let cell = |name: &str| -> Result<Cell, MoveError> {
            let c: Cell = name.parse().map_err(|e| MoveError::unreadable(text, e))?;
            if usize::from(c.col()) >= self.size() || usize::from(c.row()) >= self.size() {
                return Err(MoveError::unreadable(text, format!("{c} is off the board")));
            }
            Ok(c)
        };
        Ok(match text {
            "pass" => ScwareStep::Pass,
            "skip" => ScwareStep::Skip,
            "done" => ScwareStep::Done,
            _ => match text.strip_prefix('+') {
                Some(name) => ScwareStep::NewGroup(cell(name)?),
                None => {
                    let c = cell(text)?;
                    let sq = self.pos.board().square();
                    let own = swapboard_core::Stone::of(self.pos.to_move());
                    let s = sq.slot(c);
                    let touches = sq
                        .orthogonal()
                        .iter()
                        .any(|&d| self.pos.board().get(s.wrapping_add_signed(d)) == own);
                    if self.partial == Partial::Start && !touches {
                        ScwareStep::Place(c)
                    } else {
                        ScwareStep::Grow(c)
                    }
                }
            },
        })
    }

    fn zobrist(&self) -> u64 {
        let base = self.pos.zobrist();
        match &self.partial {
            Partial::Start => base,
            Partial::Growing { next, cells } => {
                base ^ zobrist::field(1)
                    ^ self.hash_cells(cells)
                    ^ u64::from(*next + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            }
            Partial::NewGroup { cells } => base ^ zobrist::field(2) ^ self.hash_cells(cells),
        }
    }

    fn view(&self) -> BoardView {
        let mut view = self.pos.view();
        if let Partial::Growing { cells, .. } | Partial::NewGroup { cells } = &self.partial {
            let n = view.size;
            for c in cells {
                view.cells[usize::from(c.row()) * n + usize::from(c.col())] =
                    Some(self.pos.to_move());
                view.marks.push((c, CellMark::Placed));
            }
            view.notes.push(format!("turn in progress: {self}"));
        }
        view
    }
}

impl Stepwise for Scware {
    type Steps = ScwareSteps;

    fn to_steps(&self) -> ScwareSteps {
        ScwareSteps::at_start(self.clone())
    }

    fn move_from_steps(&self, path: &[ScwareStep]) -> Option<ScwareMove> {
        let mut steps = self.to_steps();
        let mut cells = CellSet::new();
        for (i, step) in path.iter().enumerate() {
            steps.check_move(step).ok()?;
            let last = i + 1 == path.len();
            let whole = match *step {
                ScwareStep::Place(c) => Some(ScwareMove::single(c)),
                ScwareStep::Pass => Some(ScwareMove::Pass),
                ScwareStep::NewGroup(p) => Some(ScwareMove::balanced(cells, p)),
                ScwareStep::Done => Some(ScwareMove::growth(cells)),
                ScwareStep::Grow(c) => {
                    cells.insert(c);
                    None
                }
                ScwareStep::Skip => None,
            };
            steps.play_unchecked(step);
            let complete =
                whole.or_else(|| steps.at_turn_start().then(|| ScwareMove::growth(cells)));
            if let Some(mv) = complete {
                return last.then_some(mv);
            }
        }
        None
    }

    fn move_from_steps_unchecked(&self, path: &[ScwareStep]) -> Option<ScwareMove> {
        let mut cells = CellSet::new();
        for step in path {
            match *step {
                ScwareStep::Place(c) => return Some(ScwareMove::single(c)),
                ScwareStep::Pass => return Some(ScwareMove::Pass),
                ScwareStep::NewGroup(p) => return Some(ScwareMove::balanced(cells, p)),
                ScwareStep::Done => break,
                ScwareStep::Grow(c) => {
                    cells.insert(c);
                }
                ScwareStep::Skip => {}
            }
        }
        Some(ScwareMove::growth(cells))
    }
}
