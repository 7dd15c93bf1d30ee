//! Swaptimum (Mark Steere) in the play layer: a placement, then the two checkers of a swap
//! when it forms a crosscut.

use swapboard_core::Game;
use swapboard_grid::Cell;
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

use crate::builder::{Build, Draft, Selection, checked, opening, sorted};
use crate::words::Describe;

playable!(Swaptimum);

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

impl Describe for Swaptimum {
    const CANNOT: &'static str = "place";
}
