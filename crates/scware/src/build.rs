//! Growths built cell by cell, in any order: which cells can still join a set of chosen
//! cells on the way to a legal growth.
//!
//! A move builder offers a player only cells that lead somewhere. For Scware that is the
//! hard case: whether a stone can belong to a legal growth depends on stones not chosen yet
//! (a growth that breaks the restriction can be mended by a later stone joining the two
//! groups). [`GrowthBuilder`] answers it exactly from the turn's analysed growth structure,
//! the same one the step view and the move counter use, without listing any growth.

use swapboard_core::Game;
use swapboard_grid::Cell;

use crate::Scware;
use crate::count::Packings;
use crate::turn::{Search, Turn};

/// No liberty at a slot (as in [`Turn::lib_of`]).
const NO: u16 = u16::MAX;

/// The growths of the player to move in one position, for building one cell at a time.
pub struct GrowthBuilder {
    turn: Turn,
    packings: Packings,
    /// The board side, to refuse cells off it before they reach a slot.
    size: usize,
}

impl GrowthBuilder {
    /// Analyses the growths open to the player to move in `position`.
    pub fn new(position: &Scware) -> GrowthBuilder {
        let turn = Turn::new(position.board(), position.to_move());
        let packings = Packings::new(&turn);
        GrowthBuilder {
            turn,
            packings,
            size: position.size(),
        }
    }

    /// The search state with `cells` chosen, or `None` if one of them cannot be a growth
    /// stone with the others (off the board, not next to an original group, growing a group
    /// another cell grows, or never joinable to a diagonal neighbour).
    fn chosen(&self, cells: &[Cell]) -> Option<Search> {
        let mut st = self.turn.search();
        for &c in cells {
            if usize::from(c.col()) >= self.size || usize::from(c.row()) >= self.size {
                return None;
            }
            let lib = self.turn.lib_of[self.turn.square.slot(c)];
            if lib == NO || !self.turn.can_choose(&st, lib) {
                return None;
            }
            self.turn.choose(&mut st, lib);
        }
        Some(st)
    }

    /// Whether some legal growth holds every cell of `cells` (with at least one stone).
    pub fn completes(&self, cells: &[Cell]) -> bool {
        self.chosen(cells)
            .is_some_and(|mut st| self.turn.completes(&mut st, &self.packings))
    }

    /// The cells that can join `cells` with a legal growth still holding them all, in cell
    /// order; none if `cells` themselves cannot be completed.
    pub fn next(&self, cells: &[Cell]) -> Vec<Cell> {
        let Some(mut st) = self.chosen(cells) else {
            return Vec::new();
        };
        let mut next = Vec::new();
        for (i, lib) in self.turn.libs.iter().enumerate() {
            let l = i as u16;
            if !self.turn.can_choose(&st, l) {
                continue;
            }
            self.turn.choose(&mut st, l);
            if self.turn.completes(&mut st, &self.packings)
                && let Some(cell) = self.turn.square.cell_at(usize::from(lib.slot))
            {
                next.push(cell);
            }
            self.turn.unchoose(&mut st, l);
        }
        next
    }

    /// The cells where a new group can start once the growth `growth` stands: no stone of
    /// the mover's among their eight neighbours, before or after it (the balancing move's
    /// last stone; with no growth, the plain placements). In cell order.
    pub fn new_group_cells(&self, growth: &[Cell]) -> Vec<Cell> {
        let Some(st) = self.chosen(growth) else {
            return Vec::new();
        };
        self.turn
            .placements
            .iter()
            .map(|&p| usize::from(p))
            .filter(|&p| !self.turn.near_new_stone(&st, p))
            .filter_map(|p| self.turn.square.cell_at(p))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::ops::ControlFlow;

    use crate::ScwareMove;

    fn touches_own(pos: &Scware, c: Cell) -> bool {
        let n = pos.size() as i32;
        [(0, 1), (1, 0), (0, -1), (-1, 0)].iter().any(|&(dc, dr)| {
            let (col, row) = (i32::from(c.col()) + dc, i32::from(c.row()) + dr);
            (0..n).contains(&col)
                && (0..n).contains(&row)
                && pos.board().at(Cell::new(col as u8, row as u8)).player() == Some(pos.to_move())
        })
    }

    fn cells(names: &[&str]) -> Vec<Cell> {
        names.iter().map(|n| n.parse().unwrap()).collect()
    }

    /// On small positions, against every legal move: a set of cells completes exactly when
    /// some legal growth holds it, and the cells offered next are exactly those that appear
    /// with it in one.
    #[test]
    fn completions_match_the_legal_growths() {
        use rand::SeedableRng;
        let mut checked = 0;
        for seed in 0..60u64 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut pos = Scware::start(5 + (seed % 2) as usize).unwrap();
            let plies = 4 + seed % 12;
            for _ in 0..plies {
                match pos.random_move(&mut rng) {
                    Some(m) if pos.clone().play(&m).is_ok_and(|p| !p.is_over()) => {
                        pos.play_unchecked(&m)
                    }
                    _ => break,
                }
            }
            let text = pos.to_string();
            let builder = GrowthBuilder::new(&pos);
            let mut growths: Vec<BTreeSet<Cell>> = Vec::new();
            let _ = pos.for_each_move(|m| {
                if let ScwareMove::Stones {
                    cells,
                    new_group: None,
                } = &m
                {
                    let set: BTreeSet<Cell> = cells.iter().collect();
                    // A lone stone is a growth only next to one of the mover's stones.
                    if set.len() > 1 || set.iter().any(|&c| touches_own(&pos, c)) {
                        growths.push(set);
                    }
                }
                ControlFlow::Continue(())
            });
            if growths.len() > 1500 {
                continue;
            }
            checked += 1;
            // Every prefix of every growth, and each cell offered after it.
            for g in &growths {
                let all: Vec<Cell> = g.iter().copied().collect();
                for k in 0..=all.len() {
                    let prefix = &all[..k];
                    if k > 0 {
                        assert!(builder.completes(prefix), "{text}: {prefix:?}");
                    }
                    let expected: BTreeSet<Cell> = growths
                        .iter()
                        .filter(|h| prefix.iter().all(|c| h.contains(c)))
                        .flat_map(|h| h.iter().copied())
                        .filter(|c| !prefix.contains(c))
                        .collect();
                    let offered: BTreeSet<Cell> = builder.next(prefix).into_iter().collect();
                    assert_eq!(offered, expected, "{text}: after {prefix:?}");
                }
            }
        }
        assert!(checked > 30, "only {checked} positions were small enough");
    }

    /// A cell that starts a group, or one off the board, is no growth stone.
    #[test]
    fn cells_that_grow_nothing_complete_nothing() {
        let pos: Scware = "scware ...../..W../...../.W.../..... W g".parse().unwrap();
        let builder = GrowthBuilder::new(&pos);
        assert!(!builder.completes(&cells(&["e5"])));
        assert!(!builder.completes(&[Cell::new(0, 9)]));
        assert!(builder.next(&cells(&["e5"])).is_empty());
        // b3 alone breaks the restriction (diagonal to b2's group), yet c3 mends it.
        assert!(builder.completes(&cells(&["b3"])));
        assert!(
            builder
                .next(&cells(&["b3"]))
                .contains(&"c3".parse().unwrap())
        );
    }

    /// Red's new group keeps clear of the growth's stones.
    #[test]
    fn a_new_group_keeps_clear_of_the_growth() {
        let pos: Scware = "scware ...../..W../...../.R.../..... R -".parse().unwrap();
        let builder = GrowthBuilder::new(&pos);
        let plain = builder.new_group_cells(&[]);
        let after = builder.new_group_cells(&cells(&["c2"]));
        let d3: Cell = "d3".parse().unwrap();
        let a4: Cell = "a4".parse().unwrap();
        assert!(plain.contains(&a4) && after.contains(&a4));
        assert!(
            plain.contains(&d3) && !after.contains(&d3),
            "d3 is diagonal to c2"
        );
        assert!(after.iter().all(|c| plain.contains(c)));
    }
}
