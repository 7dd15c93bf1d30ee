//! Flipstop (Mark Steere) in the play layer: one cell a move, the replacements follow by
//! themselves.

use swapboard_core::Game;
use swapboard_flipstop::{Flipstop, FlipstopMove};

use crate::builder::{Build, Draft, Selection, checked, opening};
use crate::words::Describe;

playable!(Flipstop);

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

impl Describe for Flipstop {
    const CANNOT: &'static str = "place";
}
