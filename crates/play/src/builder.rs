//! The move builder: moves built cell by cell (a click at a time on a board), with live
//! validation.
//!
//! The input is a [`Selection`], the cells chosen so far in order (and, for Scware's
//! balancing move, how many came before the player asked for a new group). Each game says
//! what they make in a [`Draft`]: a move to play, a move still being built with the cells
//! that may come next, or a refusal of the last cell with the rule it breaks. The reasons
//! come from the engines' own `check_move` wherever a whole move can be formed, so a player
//! reads the same words as the command line prints.
//!
//! No answer lists moves a position can have millions of (Scware's growths): the cells that
//! may come next are found one check per empty cell at most.

use std::fmt;

use serde::{Deserialize, Serialize};
use swapboard_core::{Game, Groups, Player, Rule, Stepwise};
use swapboard_flipstop::{Flipstop, FlipstopMove};
use swapboard_grid::{Cell, CellSet};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};
use swapboard_scware::{Scware, ScwareMove};
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

/// The cells chosen so far, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// The cells, in the order chosen.
    pub cells: Vec<Cell>,
    /// For Scware's balancing move: how many cells were chosen before the player marked
    /// the end of the growth (`+`); the one cell after it starts a new group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<usize>,
}

impl Selection {
    /// The selection with `cell` added at the end.
    pub fn with(&self, cell: Cell) -> Selection {
        let mut next = self.clone();
        next.cells.push(cell);
        next
    }

    /// Marks the end of the growth of a balancing move (the next cell starts a new group);
    /// `false` if the growth is empty or was ended already.
    pub fn end_growth(&mut self) -> bool {
        if self.split.is_some() || self.cells.is_empty() {
            return false;
        }
        self.split = Some(self.cells.len());
        true
    }

    /// Takes the last choice back (the `+` marker first if it was the last); `false` when
    /// nothing was chosen.
    pub fn back(&mut self) -> bool {
        if self.split == Some(self.cells.len()) {
            self.split = None;
            return true;
        }
        self.cells.pop().is_some()
    }

    /// Whether `cell` has been chosen.
    pub fn contains(&self, cell: Cell) -> bool {
        self.cells.contains(&cell)
    }
}

impl fmt::Display for Selection {
    /// The cells separated by spaces, with `+` where the growth ends (`b3 c3 + e5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if self.split == Some(i) {
                f.write_str("+ ")?;
            }
            write!(f, "{cell}")?;
        }
        if self.split == Some(self.cells.len()) && !self.cells.is_empty() {
            f.write_str(" +")?;
        }
        Ok(())
    }
}

/// What the cells chosen so far make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict<M> {
    /// A legal move (which more cells may still extend: see the draft's `more`).
    Complete {
        /// The move.
        #[serde(rename = "move")]
        mv: M,
    },
    /// Not a move yet: more cells are needed.
    More,
    /// The last cell cannot be added.
    Refused {
        /// The rule it breaks, in a player's words.
        reason: String,
    },
}

/// The builder's answer to a [`Selection`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft<M> {
    /// What the cells make.
    #[serde(flatten)]
    pub verdict: Verdict<M>,
    /// Whether more cells may follow (a complete move that cannot grow is played at once).
    pub more: bool,
    /// Cells that may come next, in board order.
    pub next: Vec<Cell>,
    /// What to do next, in a player's words (empty once there is nothing left to do).
    pub prompt: String,
}

impl<M> Draft<M> {
    pub(crate) fn refused(reason: impl Into<String>) -> Draft<M> {
        Draft {
            verdict: Verdict::Refused {
                reason: reason.into(),
            },
            more: false,
            next: Vec::new(),
            prompt: String::new(),
        }
    }

    fn complete(mv: M) -> Draft<M> {
        Draft {
            verdict: Verdict::Complete { mv },
            more: false,
            next: Vec::new(),
            prompt: String::new(),
        }
    }

    fn more(next: Vec<Cell>, prompt: impl Into<String>) -> Draft<M> {
        Draft {
            verdict: Verdict::More,
            more: true,
            next,
            prompt: prompt.into(),
        }
    }

    /// The complete move, if the cells make one.
    pub fn ready(&self) -> Option<&M> {
        match &self.verdict {
            Verdict::Complete { mv } => Some(mv),
            _ => None,
        }
    }

    /// The refusal's reason, if the last cell was refused.
    pub fn refusal(&self) -> Option<&str> {
        match &self.verdict {
            Verdict::Refused { reason } => Some(reason),
            _ => None,
        }
    }

    /// The same draft with the move written as text (for clients that know no game).
    pub fn to_text(&self) -> Draft<String>
    where
        M: fmt::Display,
    {
        Draft {
            verdict: match &self.verdict {
                Verdict::Complete { mv } => Verdict::Complete { mv: mv.to_string() },
                Verdict::More => Verdict::More,
                Verdict::Refused { reason } => Verdict::Refused {
                    reason: reason.clone(),
                },
            },
            more: self.more,
            next: self.next.clone(),
            prompt: self.prompt.clone(),
        }
    }
}

/// A game whose moves can be built from chosen cells.
pub trait Build: Stepwise {
    /// What the chosen cells make.
    fn draft(&self, selection: &Selection) -> Draft<Self::Move>;

    /// What to choose first, in a player's words.
    fn first_prompt(&self) -> String;
}

/// The draft of a whole move: complete if the rules allow it, else refused with their words.
fn checked<G: Game>(pos: &G, mv: G::Move) -> Draft<G::Move> {
    match pos.check_move(&mv) {
        Ok(()) => Draft::complete(mv),
        Err(e) => Draft::refused(e.to_string()),
    }
}

fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort();
    cells.dedup();
    cells
}

impl Build for Swaptimum {
    fn draft(&self, selection: &Selection) -> Draft<SwaptimumMove> {
        let cells = &selection.cells;
        let Some(&placed) = cells.first() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        let moves: Vec<SwaptimumMove> = self
            .legal_moves()
            .into_iter()
            .filter(|m| m.cell() == Some(placed))
            .collect();
        if moves.is_empty() {
            let reason = match self.check_move(&SwaptimumMove::Place(placed)) {
                Err(e) => e.to_string(),
                Ok(()) => format!("{placed} is not a legal placement"),
            };
            return Draft::refused(reason);
        }
        if let [SwaptimumMove::Place(_)] = moves[..] {
            return Draft::complete(moves[0]);
        }
        let swap_cells = |m: &SwaptimumMove| match *m {
            SwaptimumMove::PlaceSwap { a, b, .. } => Some([a, b]),
            _ => None,
        };
        match cells[1..] {
            [] => Draft::more(
                sorted(moves.iter().filter_map(swap_cells).flatten().collect()),
                format!("{placed} forms a crosscut: choose the two checkers to swap"),
            ),
            [x] => {
                let partners: Vec<Cell> = moves
                    .iter()
                    .filter_map(swap_cells)
                    .filter_map(|[a, b]| {
                        if a == x {
                            Some(b)
                        } else {
                            (b == x).then_some(a)
                        }
                    })
                    .collect();
                if partners.is_empty() {
                    Draft::refused(format!(
                        "no swap that kills the crosscut at {placed} without forming a new one moves {x}"
                    ))
                } else {
                    Draft::more(sorted(partners), format!("swap {x} with which checker?"))
                }
            }
            [x, y] => {
                let mv = SwaptimumMove::place_swap(placed, x, y);
                checked(self, mv)
            }
            _ => Draft::refused("a Swaptimum move has at most three cells"),
        }
    }

    fn first_prompt(&self) -> String {
        "choose an empty cell to place on".to_string()
    }
}

impl Build for Flipstop {
    fn draft(&self, selection: &Selection) -> Draft<FlipstopMove> {
        match selection.cells[..] {
            [] => Draft::more(Vec::new(), self.first_prompt()),
            [cell] => {
                let mv = FlipstopMove::Place(cell);
                checked(self, mv)
            }
            _ => Draft::refused("a Flipstop move is one cell"),
        }
    }

    fn first_prompt(&self) -> String {
        "choose an empty cell to place on (replacements follow by themselves)".to_string()
    }
}

impl Build for RapidTransit {
    fn draft(&self, selection: &Selection) -> Draft<RapidTransitMove> {
        let cells = &selection.cells;
        let Some(&piece) = cells.first() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        let mover = self.to_move();
        let name = Self::colour_name(mover);
        match cells[1..] {
            [] => {
                if self.board().at(piece).player() != Some(mover) {
                    return Draft::refused(format!(
                        "{piece} is not a {name} piece: first choose one of {name}'s terminal pieces"
                    ));
                }
                if !self.terminals(mover).contains(piece) {
                    return Draft::refused(format!(
                        "{piece} is not a terminal piece: it has two or more {name} neighbours"
                    ));
                }
                let partners: Vec<Cell> = self
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| match m {
                        RapidTransitMove::Swap { terminal, partner } if terminal == piece => {
                            Some(partner)
                        }
                        _ => None,
                    })
                    .collect();
                if partners.is_empty() {
                    return Draft::refused(format!(
                        "the terminal piece on {piece} has no legal swap"
                    ));
                }
                Draft::more(sorted(partners), format!("swap {piece} with which piece?"))
            }
            [partner] => {
                let mv = RapidTransitMove::Swap {
                    terminal: piece,
                    partner,
                };
                checked(self, mv)
            }
            _ => Draft::refused(
                "a Rapid Transit move is two cells: a terminal piece and its partner",
            ),
        }
    }

    fn first_prompt(&self) -> String {
        format!(
            "choose one of {}'s terminal pieces (marked ^)",
            Self::colour_name(self.to_move())
        )
    }
}

/// The Scware move a selection makes: a growth, or with a split the growth before it and
/// one new group's cell after it (`None` while that cell is missing or followed by more).
fn scware_move(selection: &Selection) -> Option<ScwareMove> {
    let cells = &selection.cells;
    match selection.split {
        Some(k) if k < cells.len() => {
            let growth: CellSet = cells[..k].iter().copied().collect();
            (cells.len() == k + 1).then(|| ScwareMove::balanced(growth, cells[k]))
        }
        _ => Some(ScwareMove::growth(cells.iter().copied().collect())),
    }
}

/// The cells that may come next in a growth being built, found from the board's groups
/// without any list of growths or any check of a whole move: cells touching a stone of the
/// mover's (a growth stone grows the groups it touches) whose groups no chosen cell grows
/// already (a group grows by one stone); after `+`, the cells touching none of the mover's
/// stones (the new group). The rules judge the move again at each click, so a cell offered
/// here may still be refused; a cell left out can never come next.
fn growth_cells(pos: &Scware, selection: &Selection) -> Vec<Cell> {
    let board = pos.board();
    let square = board.square();
    let own = Some(pos.to_move());
    let mut groups = Groups::new(board);
    // The roots of the own groups next to a cell (at most four).
    let mut roots_next_to = |c: Cell| {
        let slot = square.slot(c);
        let mut roots = [usize::MAX; 4];
        for (k, &d) in square.orthogonal().iter().enumerate() {
            let n = slot.wrapping_add_signed(d);
            if board.get(n).player() == own {
                roots[k] = groups.root(n);
            }
        }
        roots
    };
    let open = |c: Cell| board.at(c).player().is_none() && !selection.contains(c);
    if selection.split == Some(selection.cells.len()) {
        let chosen: Vec<usize> = selection.cells.iter().map(|&c| square.slot(c)).collect();
        return square
            .cells()
            .filter(|&c| open(c))
            .filter(|&c| {
                let slot = square.slot(c);
                square.orthogonal().iter().all(|&d| {
                    let n = slot.wrapping_add_signed(d);
                    board.get(n).player() != own && !chosen.contains(&n)
                })
            })
            .collect();
    }
    let mut grown = Vec::new();
    for &c in &selection.cells {
        grown.extend(roots_next_to(c).into_iter().filter(|&r| r != usize::MAX));
    }
    square
        .cells()
        .filter(|&c| open(c))
        .filter(|&c| {
            let roots = roots_next_to(c);
            roots.iter().any(|&r| r != usize::MAX) && !roots.iter().any(|r| grown.contains(r))
        })
        .collect()
}

impl Build for Scware {
    fn draft(&self, selection: &Selection) -> Draft<ScwareMove> {
        let cells = &selection.cells;
        let Some(&last) = cells.last() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        if cells[..cells.len() - 1].contains(&last) {
            return Draft::refused(format!("{last} is chosen already"));
        }
        let Some(mv) = scware_move(selection) else {
            return Draft::refused("the balancing move ends with one new group's cell");
        };
        let balancing = selection.split.is_some_and(|k| k < cells.len());
        match self.check_move(&mv) {
            Ok(()) => {
                let single_placement = cells.len() == 1
                    && selection.split.is_none()
                    && !self.board().square().orthogonal().iter().any(|&d| {
                        let slot = self.board().square().slot(last).wrapping_add_signed(d);
                        self.board().get(slot).player() == Some(self.to_move())
                    });
                if single_placement || balancing {
                    return Draft::complete(mv);
                }
                let next = growth_cells(self, selection);
                let extra = if self.to_move() == Player::Second && self.balancing_available() {
                    ", + then a cell to end with a new group"
                } else {
                    ""
                };
                Draft {
                    verdict: Verdict::Complete { mv },
                    more: true,
                    next,
                    prompt: format!("growth {mv}: play it, or add cells{extra}"),
                }
            }
            // Only the diagonal restriction can be cured by adding stones (a later stone may
            // join the two groups); any other refusal stays whatever follows.
            Err(e) if !balancing && e.rule == Rule::DiagonalRestriction => Draft {
                verdict: Verdict::More,
                more: true,
                next: growth_cells(self, selection),
                prompt: format!("not legal yet: {e}"),
            },
            Err(e) => Draft::refused(e.to_string()),
        }
    }

    fn first_prompt(&self) -> String {
        "choose a cell: a new group, or the first stone of a growth".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selection(names: &[&str]) -> Selection {
        Selection {
            cells: names.iter().map(|n| n.parse().unwrap()).collect(),
            split: None,
        }
    }

    /// A Scware growth that breaks only the restriction stays open ("not legal yet") until
    /// a stone joins the groups; a stone that can never belong to a growth is refused.
    #[test]
    fn a_scware_growth_waits_for_the_stone_that_mends_the_restriction() {
        let pos: Scware = "scware ...../..W../...../.W.../..... W g".parse().unwrap();
        let waiting = pos.draft(&selection(&["b3"]));
        assert_eq!(waiting.verdict, Verdict::More);
        assert!(waiting.more);
        assert!(
            waiting.prompt.starts_with("not legal yet"),
            "{}",
            waiting.prompt
        );
        let mended = pos.draft(&selection(&["b3", "c3"]));
        assert!(mended.ready().is_some(), "{mended:?}");
        let refused = pos.draft(&selection(&["b3", "e5"]));
        assert!(refused.refusal().is_some(), "{refused:?}");
    }

    /// Red's balancing move: a growth, `+`, then a cell touching none of Red's stones,
    /// offered among the next cells and completing the move at once.
    #[test]
    fn a_balancing_move_ends_with_a_new_group() {
        let pos: Scware = "scware ...../..W../...../.R.../..... R -".parse().unwrap();
        let mut s = selection(&["a2"]);
        let growth = pos.draft(&s);
        assert!(growth.ready().is_some() && growth.more, "{growth:?}");
        assert!(
            growth.prompt.contains(", + then a cell"),
            "{}",
            growth.prompt
        );
        assert!(s.end_growth());
        let after_plus = pos.draft(&s);
        let a4: Cell = "a4".parse().unwrap();
        assert!(after_plus.next.contains(&a4), "{after_plus:?}");
        assert!(
            !after_plus.next.contains(&"a3".parse().unwrap()),
            "a3 touches a2"
        );
        let done = pos.draft(&s.with(a4));
        assert_eq!(
            done.ready().map(ToString::to_string).as_deref(),
            Some("a2+a4")
        );
        assert!(!done.more);
    }

    #[test]
    fn selections_read_back_with_the_growth_marker() {
        let mut s = selection(&["b3", "c3"]);
        assert!(s.end_growth());
        assert!(!s.end_growth());
        assert_eq!(s.to_string(), "b3 c3 +");
        let s2 = s.with("e5".parse().unwrap());
        assert_eq!(s2.to_string(), "b3 c3 + e5");
        assert!(s.back());
        assert_eq!(s.to_string(), "b3 c3");
        let json = serde_json::to_string(&s2).unwrap();
        assert_eq!(serde_json::from_str::<Selection>(&json).unwrap(), s2);
    }

    #[test]
    fn drafts_serialise_with_their_verdict() {
        let pos: Flipstop = Flipstop::start(5).unwrap();
        let draft = pos.draft(&selection(&["c3"])).to_text();
        let json = serde_json::to_value(&draft).unwrap();
        assert_eq!(json["verdict"], "complete");
        assert_eq!(json["move"], "c3");
        let again: Draft<String> = serde_json::from_value(json).unwrap();
        assert_eq!(again, draft);
    }
}
