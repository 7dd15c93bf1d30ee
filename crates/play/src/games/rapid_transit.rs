//! Rapid Transit (Phil Leduc) in the play layer: a terminal piece, then the piece it swaps
//! with.

use swapboard_core::Game;
use swapboard_grid::Cell;
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};

use crate::builder::{Build, Draft, Selection, checked, opening, sorted};
use crate::words::Describe;

playable!(RapidTransit);

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

impl Describe for RapidTransit {
    const CANNOT: &'static str = "swap";

    fn rules_how(&self) -> String {
        self.verdict().map(|v| v.how).unwrap_or_default()
    }

    fn did(&self, _after: &RapidTransit, mv: &RapidTransitMove) -> String {
        match mv {
            RapidTransitMove::Swap { terminal, partner } => {
                format!("swapped the terminal piece on {terminal} with {partner}")
            }
            RapidTransitMove::Pass => String::new(),
        }
    }
}
