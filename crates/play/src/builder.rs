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
//! Scware's cells come from the turn's growth structure
//! ([`GrowthBuilder`](swapboard_scware::GrowthBuilder)), one exact check per liberty. Each
//! game's `Build` is in its adapter file, `crate::games`.

use std::fmt;

use serde::{Deserialize, Serialize};
use swapboard_core::{Game, Stepwise};
use swapboard_grid::Cell;

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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Draft<M> {
    /// What the cells make.
    #[serde(flatten)]
    pub verdict: Verdict<M>,
    /// Whether more cells or an action may follow (a complete move that cannot grow is
    /// played at once).
    pub more: bool,
    /// Cells that may come next, in board order: exactly those that lead on to at least one
    /// legal move (with no cell chosen, the cells that can start one).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
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

    pub(crate) fn complete(mv: M) -> Draft<M> {
        Draft {
            verdict: Verdict::Complete { mv },
            more: false,
            next: Vec::new(),
            actions: Vec::new(),
            prompt: String::new(),
        }
    }

    pub(crate) fn more(next: Vec<Cell>, prompt: impl Into<String>) -> Draft<M> {
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
pub(crate) fn checked<G: Game>(pos: &G, mv: G::Move) -> Draft<G::Move> {
    match pos.check_move(&mv) {
        Ok(()) => Draft::complete(mv),
        Err(e) => Draft::refused(e.to_string()),
    }
}

/// The cells in board order, each once.
pub(crate) fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort();
    cells.dedup();
    cells
}

/// A refusal of every cell once the game is over; `None` while it goes on.
pub(crate) fn game_over<G: Game>(pos: &G) -> Option<Draft<G::Move>> {
    pos.outcome()
        .map(|o| Draft::refused(format!("the game is over: {}", outcome_text::<G>(o))))
}

/// The draft before any cell is chosen: the cells that can start a legal move, and `pass`
/// among the actions when the rules allow it (the contract writes a pass `pass` in every
/// game).
pub(crate) fn opening<G: Game>(pos: &G, starts: Vec<Cell>, prompt: String) -> Draft<G::Move> {
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

#[cfg(test)]
pub(crate) mod tests {
    use swapboard_flipstop::Flipstop;

    use super::*;

    /// The selection of these cells, in order, with no `+`.
    pub(crate) fn selection(names: &[&str]) -> Selection {
        Selection {
            cells: names.iter().map(|n| n.parse().unwrap()).collect(),
            split: None,
        }
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
