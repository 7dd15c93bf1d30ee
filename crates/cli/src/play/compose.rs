//! Moves built cell by cell on the full-screen board, with live validation.
//!
//! Each game says what the cells chosen so far make: a legal move to play, a move still
//! being built (and which cells may come next), or a refusal of the last cell with the rule
//! it breaks. The reasons come from the engines' own `check_move` wherever a whole move can
//! be formed, so a player reads the same words as the command line prints.

use swapboard_core::{Game, Player, Rule, Stepwise};
use swapboard_flipstop::{Flipstop, FlipstopMove};
use swapboard_grid::{Cell, CellSet};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove as TransitMove};
use swapboard_scware::{Scware, ScwareMove};
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

/// What the cells chosen so far make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Draft<M> {
    /// `Err(reason)` when the last cell cannot be added.
    pub(crate) verdict: Result<(), String>,
    /// A legal move the cells make, which Enter plays.
    pub(crate) ready: Option<M>,
    /// Whether more cells may follow; a ready move that cannot grow is played at once.
    pub(crate) more: bool,
    /// Cells that may come next (highlighted).
    pub(crate) targets: Vec<Cell>,
    /// What to do next, in a player's words.
    pub(crate) prompt: String,
}

impl<M> Draft<M> {
    fn refused(reason: impl Into<String>) -> Draft<M> {
        Draft {
            verdict: Err(reason.into()),
            ready: None,
            more: false,
            targets: Vec::new(),
            prompt: String::new(),
        }
    }

    fn done(mv: M) -> Draft<M> {
        Draft {
            verdict: Ok(()),
            ready: Some(mv),
            more: false,
            targets: Vec::new(),
            prompt: String::new(),
        }
    }

    fn more(targets: Vec<Cell>, prompt: impl Into<String>) -> Draft<M> {
        Draft {
            verdict: Ok(()),
            ready: None,
            more: true,
            targets,
            prompt: prompt.into(),
        }
    }
}

/// A game whose moves the full-screen board can build from clicked cells.
pub(crate) trait Compose: Stepwise {
    /// What the cells `cells` make (in the order chosen; `split` is the number of cells
    /// chosen before the player pressed `+`, for moves with a second part).
    fn draft(&self, cells: &[Cell], split: Option<usize>) -> Draft<Self::Move>;

    /// What to choose first, in a player's words.
    fn first_prompt(&self) -> String;
}

/// The legal moves of a position whose moves are few enough to list.
fn listed<G: Game>(pos: &G) -> Vec<G::Move> {
    pos.legal_moves()
}

fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort();
    cells.dedup();
    cells
}

impl Compose for Swaptimum {
    fn draft(&self, cells: &[Cell], _split: Option<usize>) -> Draft<SwaptimumMove> {
        let Some(&placed) = cells.first() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        let moves: Vec<SwaptimumMove> = listed(self)
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
            return Draft::done(moves[0]);
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
            [x, y, ..] => {
                let mv = SwaptimumMove::place_swap(placed, x, y);
                match self.check_move(&mv) {
                    Ok(()) => Draft::done(mv),
                    Err(e) => Draft::refused(e.to_string()),
                }
            }
        }
    }

    fn first_prompt(&self) -> String {
        "choose an empty cell to place on".to_string()
    }
}

impl Compose for Flipstop {
    fn draft(&self, cells: &[Cell], _split: Option<usize>) -> Draft<FlipstopMove> {
        let Some(&cell) = cells.first() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        let mv = FlipstopMove::Place(cell);
        match self.check_move(&mv) {
            Ok(()) => Draft::done(mv),
            Err(e) => Draft::refused(e.to_string()),
        }
    }

    fn first_prompt(&self) -> String {
        "choose an empty cell to place on (replacements follow by themselves)".to_string()
    }
}

impl Compose for RapidTransit {
    fn draft(&self, cells: &[Cell], _split: Option<usize>) -> Draft<TransitMove> {
        let Some(&piece) = cells.first() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        let mover = self.to_move();
        let name = Self::colour_name(mover);
        let partners: Vec<Cell> = listed(self)
            .into_iter()
            .filter_map(|m| match m {
                TransitMove::Swap { terminal, partner } if terminal == piece => Some(partner),
                _ => None,
            })
            .collect();
        if cells.len() == 1 {
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
            if partners.is_empty() {
                return Draft::refused(format!("the terminal piece on {piece} has no legal swap"));
            }
            return Draft::more(sorted(partners), format!("swap {piece} with which piece?"));
        }
        let mv = TransitMove::Swap {
            terminal: piece,
            partner: cells[1],
        };
        match self.check_move(&mv) {
            Ok(()) => Draft::done(mv),
            Err(e) => Draft::refused(e.to_string()),
        }
    }

    fn first_prompt(&self) -> String {
        format!(
            "choose one of {}'s terminal pieces (marked ^)",
            Self::colour_name(self.to_move())
        )
    }
}

/// The Scware move the cells make: a growth, or with `split` the growth before it and one
/// new group's cell after it (`None` while that cell is missing or followed by more).
fn scware_move(cells: &[Cell], split: Option<usize>) -> Option<ScwareMove> {
    match split {
        Some(k) if k < cells.len() => {
            let growth: CellSet = cells[..k].iter().copied().collect();
            (cells.len() == k + 1).then(|| ScwareMove::balanced(growth, cells[k]))
        }
        _ => Some(ScwareMove::growth(cells.iter().copied().collect())),
    }
}

impl Compose for Scware {
    fn draft(&self, cells: &[Cell], split: Option<usize>) -> Draft<ScwareMove> {
        let Some(&last) = cells.last() else {
            return Draft::more(Vec::new(), self.first_prompt());
        };
        let Some(mv) = scware_move(cells, split) else {
            return Draft::refused("the balancing move ends with one new group's cell");
        };
        let balancing = split.is_some_and(|k| k < cells.len());
        match self.check_move(&mv) {
            Ok(()) => {
                let single_placement = cells.len() == 1
                    && split.is_none()
                    && !self.board().square().orthogonal().iter().any(|&d| {
                        let slot = self.board().square().slot(last).wrapping_add_signed(d);
                        self.board().get(slot).player() == Some(self.to_move())
                    });
                if single_placement || balancing {
                    return Draft::done(mv);
                }
                let targets = self
                    .board()
                    .square()
                    .cells()
                    .filter(|c| !cells.contains(c))
                    .filter(|&c| {
                        let mut next = cells.to_vec();
                        next.push(c);
                        scware_move(&next, split).is_some_and(|m| self.is_legal(&m))
                    })
                    .collect();
                let extra = if self.to_move() == Player::Second && self.balancing_available() {
                    ", + then a cell to end with a new group"
                } else {
                    ""
                };
                Draft {
                    verdict: Ok(()),
                    ready: Some(mv),
                    more: true,
                    targets,
                    prompt: format!("growth {mv}: Enter plays it, or add cells{extra}"),
                }
            }
            // Only the diagonal restriction can be cured by adding stones (a later stone may join
            // the two groups); any other refusal stays whatever follows.
            Err(e) if !balancing && e.rule == Rule::DiagonalRestriction => Draft {
                verdict: Ok(()),
                ready: None,
                more: true,
                targets: Vec::new(),
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
    use swapboard_grid::Cell;
    use swapboard_scware::Scware;

    use crate::play::Compose;

    fn cells(names: &[&str]) -> Vec<Cell> {
        names.iter().map(|n| n.parse().unwrap()).collect()
    }

    /// A Scware growth that breaks only the restriction stays open ("not legal yet") until a
    /// stone joins the groups; a stone that can never belong to a growth is refused.
    #[test]
    fn a_scware_growth_waits_for_the_stone_that_mends_the_restriction() {
        let pos: Scware = "scware ...../..W../...../.W.../..... W g".parse().unwrap();
        let waiting = pos.draft(&cells(&["b3"]), None);
        assert_eq!(waiting.verdict, Ok(()));
        assert!(waiting.ready.is_none() && waiting.more);
        assert!(
            waiting.prompt.starts_with("not legal yet"),
            "{}",
            waiting.prompt
        );
        let mended = pos.draft(&cells(&["b3", "c3"]), None);
        assert!(mended.ready.is_some(), "{mended:?}");
        let refused = pos.draft(&cells(&["b3", "e5"]), None);
        assert!(
            refused.verdict.is_err() && refused.ready.is_none(),
            "{refused:?}"
        );
    }
}
