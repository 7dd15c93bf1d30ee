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
//! The cells offered next are exactly those that lead on to at least one legal move, so a
//! player never meets a dead end, and every legal move can be built (a property test checks
//! both against the full move list). No answer lists moves a position can have millions of:
//! Scware's cells come from the turn's growth structure ([`GrowthBuilder`]), one exact check
//! per liberty.

use std::fmt;

use serde::{Deserialize, Serialize};
use swapboard_core::{Game, Player, Rule, Stepwise};
use swapboard_flipstop::{Flipstop, FlipstopMove};
use swapboard_grid::{Cell, CellSet};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};
use swapboard_scware::{GrowthBuilder, Scware, ScwareMove};
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

use crate::words::outcome_text;

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

/// Something a player may do besides choosing a cell, offered as a button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// End the growth here: the next cell starts a new group (Scware's balancing move;
    /// [`Selection::end_growth`]).
    EndGrowth,
    /// Pass: the move `pass` is legal now.
    Pass,
}

/// The builder's answer to a [`Selection`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft<M> {
    /// What the cells make.
    #[serde(flatten)]
    pub verdict: Verdict<M>,
    /// Whether more cells or an action may follow (a complete move that cannot grow is
    /// played at once).
    pub more: bool,
    /// Cells that may come next, in board order: exactly those that lead on to at least one
    /// legal move (with no cell chosen, the cells that can start one).
    pub next: Vec<Cell>,
    /// What else may come next besides a cell.
    #[serde(default)]
    pub actions: Vec<Action>,
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
            actions: Vec::new(),
            prompt: String::new(),
        }
    }

    fn complete(mv: M) -> Draft<M> {
        Draft {
            verdict: Verdict::Complete { mv },
            more: false,
            next: Vec::new(),
            actions: Vec::new(),
            prompt: String::new(),
        }
    }

    fn more(next: Vec<Cell>, prompt: impl Into<String>) -> Draft<M> {
        Draft {
            verdict: Verdict::More,
            more: true,
            next,
            actions: Vec::new(),
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
            actions: self.actions.clone(),
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

/// A refusal of every cell once the game is over; `None` while it goes on.
fn game_over<G: Game>(pos: &G) -> Option<Draft<G::Move>> {
    pos.outcome()
        .map(|o| Draft::refused(format!("the game is over: {}", outcome_text::<G>(o))))
}

/// The draft before any cell is chosen: the cells that can start a legal move, and `pass`
/// among the actions when the rules allow it (the contract writes a pass `pass` in every
/// game).
fn opening<G: Game>(pos: &G, starts: Vec<Cell>, prompt: String) -> Draft<G::Move> {
    if let Some(over) = game_over(pos) {
        return over;
    }
    let pass = pos
        .parse_move("pass")
        .is_ok_and(|mv| pos.check_move(&mv).is_ok());
    let starts = sorted(starts);
    let prompt = if starts.is_empty() && pass {
        format!("{} has no legal move: pass", G::colour_name(pos.to_move()))
    } else {
        prompt
    };
    let mut draft = Draft::more(starts, prompt);
    if pass {
        draft.actions.push(Action::Pass);
    }
    draft
}

impl Build for Swaptimum {
    fn draft(&self, selection: &Selection) -> Draft<SwaptimumMove> {
        let cells = &selection.cells;
        let Some(&placed) = cells.first() else {
            let starts = self.legal_moves().iter().filter_map(|m| m.cell()).collect();
            return opening(self, starts, self.first_prompt());
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
            [] => {
                let starts = self
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| match m {
                        FlipstopMove::Place(c) => Some(c),
                        FlipstopMove::Pass => None,
                    })
                    .collect();
                opening(self, starts, self.first_prompt())
            }
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
            let starts = self
                .legal_moves()
                .into_iter()
                .filter_map(|m| match m {
                    RapidTransitMove::Swap { terminal, .. } => Some(terminal),
                    RapidTransitMove::Pass => None,
                })
                .collect();
            return opening(self, starts, self.first_prompt());
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
            "choose one of {}'s terminal pieces that can swap (marked)",
            Self::colour_name(self.to_move())
        )
    }
}

impl Build for Scware {
    fn draft(&self, selection: &Selection) -> Draft<ScwareMove> {
        if let Some(over) = game_over(self) {
            return over;
        }
        let growths = GrowthBuilder::new(self);
        let cells = &selection.cells;
        let Some(&last) = cells.last() else {
            let mut starts = growths.new_group_cells(&[]);
            starts.extend(growths.next(&[]));
            return opening(self, starts, self.first_prompt());
        };
        if cells[..cells.len() - 1].contains(&last) {
            return Draft::refused(format!("{last} is chosen already"));
        }
        match selection.split {
            Some(k) if k < cells.len() => {
                if cells.len() > k + 1 {
                    return Draft::refused("the balancing move ends with one new group's cell");
                }
                let growth: CellSet = cells[..k].iter().copied().collect();
                checked(self, ScwareMove::balanced(growth, last))
            }
            Some(_) => {
                let next = growths.new_group_cells(cells);
                if !may_balance(self, &growths, cells) {
                    return Draft::refused(
                        "no new group can follow this growth (Red's balancing move needs a legal growth and a cell clear of every Red stone)",
                    );
                }
                Draft::more(next, "choose the cell of Red's new group")
            }
            None => growth_draft(self, &growths, cells),
        }
    }

    fn first_prompt(&self) -> String {
        "choose a cell: a new group, or the first stone of a growth".to_string()
    }
}

/// Whether Red may end the growth `cells` with a new group: the balancing move is still
/// open, the growth is legal by itself, and some cell stays clear of it.
fn may_balance(pos: &Scware, growths: &GrowthBuilder, cells: &[Cell]) -> bool {
    pos.to_move() == Player::Second
        && pos.balancing_available()
        && pos
            .check_move(&ScwareMove::growth(cells.iter().copied().collect()))
            .is_ok()
        && !growths.new_group_cells(cells).is_empty()
}

/// The draft of Scware cells with no `+`: a placement (one cell touching none of the
/// mover's stones), or a growth that is legal, or that more stones can still make legal.
fn growth_draft(pos: &Scware, growths: &GrowthBuilder, cells: &[Cell]) -> Draft<ScwareMove> {
    let mv = ScwareMove::growth(cells.iter().copied().collect());
    let judged = pos.check_move(&mv);
    if !growths.completes(cells) {
        return match judged {
            // A lone cell that starts a group (or breaks a rule of its own).
            _ if cells.len() == 1 => checked(pos, mv),
            Err(e) if e.rule != Rule::DiagonalRestriction => Draft::refused(e.to_string()),
            _ => Draft::refused(format!(
                "no legal growth holds {}: the restriction could never be met",
                cells
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    }
    let next = growths.next(cells);
    match judged {
        Ok(()) => {
            let mut actions = Vec::new();
            if may_balance(pos, growths, cells) {
                actions.push(Action::EndGrowth);
            }
            let more = !next.is_empty() || !actions.is_empty();
            let prompt = match (next.is_empty(), actions.is_empty()) {
                (true, true) => String::new(),
                (false, true) => format!("growth {mv}: play it, or add cells"),
                (false, false) => {
                    format!("growth {mv}: play it, add cells, or + then a cell for a new group")
                }
                (true, false) => format!("growth {mv}: play it, or + then a cell for a new group"),
            };
            Draft {
                verdict: Verdict::Complete { mv },
                more,
                next,
                actions,
                prompt,
            }
        }
        Err(e) => Draft::more(next, format!("not legal yet: {e}")),
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

    /// The dead end a player met: a lone stone diagonal to White's own, touching none of
    /// them, can start no group and grow none; it is refused at once, not kept "not legal
    /// yet" with cells offered that would all be refused.
    #[test]
    fn a_lone_stone_that_no_move_can_hold_is_refused_at_once() {
        let pos: Scware = "scware ...../...W./...../.W.../..... W g".parse().unwrap();
        let draft = pos.draft(&selection(&["e5"]));
        let reason = draft.refusal().expect("refused");
        assert!(
            reason.contains("diagonal") || reason.contains("restriction"),
            "{reason}"
        );
        let start = pos.draft(&selection(&[]));
        assert!(!start.next.contains(&"e5".parse().unwrap()), "{start:?}");
        assert!(start.next.contains(&"a5".parse().unwrap()), "{start:?}");
    }

    /// Red's balancing move: a growth, `+`, then a cell touching none of Red's stones,
    /// offered among the next cells and completing the move at once.
    #[test]
    fn a_balancing_move_ends_with_a_new_group() {
        let pos: Scware = "scware ...../..W../...../.R.../..... R -".parse().unwrap();
        let mut s = selection(&["a2"]);
        let growth = pos.draft(&s);
        assert!(growth.ready().is_some() && growth.more, "{growth:?}");
        assert!(growth.prompt.contains("+ then a cell"), "{}", growth.prompt);
        assert_eq!(growth.actions, vec![Action::EndGrowth]);
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
