//! The move notation of the contract: `pass`, `c3`, `c3,d5,f2`, `c3,d5+h8`.

use std::fmt;

use swapboard_core::MoveError;
use swapboard_grid::{Cell, CellSet};

/// A Scware move.
///
/// A placement and a one-stone growth are both written as one cell (`c3`): the position tells
/// which, since a placement touches none of the mover's stones and a growth touches at least
/// one. The growth cells form a set; Red's balanced growth adds the new group's cell after
/// `+`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScwareMove {
    /// The turn is skipped: legal only when the mover has no other move.
    Pass,
    /// Stones put on the board in one turn.
    Stones {
        /// The placed cell, or the growth cells (never empty).
        cells: CellSet,
        /// The cell of the new group that ends Red's balanced growth.
        new_group: Option<Cell>,
    },
}

impl ScwareMove {
    /// A move putting one stone on `cell` (a placement or a one-stone growth).
    pub fn single(cell: Cell) -> ScwareMove {
        ScwareMove::Stones {
            cells: std::iter::once(cell).collect(),
            new_group: None,
        }
    }

    /// A growth into `cells`, or a placement if `cells` is one cell touching no own stone.
    pub fn growth(cells: CellSet) -> ScwareMove {
        ScwareMove::Stones {
            cells,
            new_group: None,
        }
    }

    /// Red's balanced growth: the growth `cells`, then a new group at `new_group`.
    pub fn balanced(cells: CellSet, new_group: Cell) -> ScwareMove {
        ScwareMove::Stones {
            cells,
            new_group: Some(new_group),
        }
    }

    /// Number of stones the move puts on the board.
    pub fn stone_count(&self) -> usize {
        match self {
            ScwareMove::Pass => 0,
            ScwareMove::Stones { cells, new_group } => {
                cells.len() + usize::from(new_group.is_some())
            }
        }
    }

    /// Reads a move on a board of side `size`. Growth cells may come in any order; a cell
    /// named twice, a cell off the board or an empty growth is refused.
    pub fn parse(text: &str, size: usize) -> Result<ScwareMove, MoveError> {
        if text == "pass" {
            return Ok(ScwareMove::Pass);
        }
        let cell = |name: &str| -> Result<Cell, MoveError> {
            if name.is_empty() {
                return Err(MoveError::unreadable(
                    text,
                    "a cell name is missing (cells are separated by ',', the new group follows '+')",
                ));
            }
            let cell: Cell = name.parse().map_err(|e| MoveError::unreadable(text, e))?;
            if usize::from(cell.col()) >= size || usize::from(cell.row()) >= size {
                return Err(MoveError::unreadable(
                    text,
                    format!("{cell} is off the {size}x{size} board"),
                ));
            }
            Ok(cell)
        };
        let (growth, new_group) = match text.split_once('+') {
            Some((g, n)) => (g, Some(cell(n)?)),
            None => (text, None),
        };
        let mut cells = CellSet::new();
        for name in growth.split(',') {
            let c = cell(name)?;
            if !cells.insert(c) {
                return Err(MoveError::unreadable(text, format!("{c} is named twice")));
            }
        }
        if let Some(n) = new_group
            && cells.contains(n)
        {
            return Err(MoveError::unreadable(
                text,
                format!("{n} is both a growth cell and the new group"),
            ));
        }
        Ok(ScwareMove::Stones { cells, new_group })
    }
}

impl fmt::Display for ScwareMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScwareMove::Pass => f.write_str("pass"),
            ScwareMove::Stones { cells, new_group } => {
                for (i, c) in cells.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{c}")?;
                }
                if let Some(n) = new_group {
                    write!(f, "+{n}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for ScwareMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn notation_round_trips_in_cell_order() {
        let m = ScwareMove::parse("f2,c3,d5", 11).unwrap();
        assert_eq!(m.to_string(), "c3,d5,f2");
        let b = ScwareMove::parse("d5,c3+h8", 11).unwrap();
        assert_eq!(b.to_string(), "c3,d5+h8");
        assert_eq!(b.stone_count(), 3);
        assert_eq!(ScwareMove::parse("pass", 11).unwrap(), ScwareMove::Pass);
        assert_eq!(
            ScwareMove::parse("a10,a2", 11).unwrap().to_string(),
            "a2,a10"
        );
    }

    #[test]
    fn bad_moves_say_why() {
        let why = |t: &str| ScwareMove::parse(t, 5).unwrap_err().to_string();
        assert!(why("c3,c3").contains("c3 is named twice"));
        assert!(why("f1").contains("off the 5x5 board"));
        assert!(why("c3+c3").contains("both a growth cell and the new group"));
        assert!(why("+c3").contains("missing"));
        assert!(why("c3,").contains("missing"));
        assert!(why("c3+d4+e5").contains("d4+e5"));
        assert!(why("").contains("missing"));
        assert!(why("Pass").contains("not a cell"));
    }

    proptest! {
        #[test]
        fn parsing_never_panics(s in "[a-f0-9,+ ]{0,12}|\\PC{0,10}") {
            let _ = ScwareMove::parse(&s, 6);
        }

        #[test]
        fn printed_moves_read_back(cells in proptest::collection::btree_set((0u8..8, 0u8..8), 1..6), extra in proptest::option::of((0u8..8, 0u8..8))) {
            let set: CellSet = cells.iter().map(|&(c, r)| Cell::new(c, r)).collect();
            let extra = extra.map(|(c, r)| Cell::new(c, r)).filter(|e| !set.contains(*e));
            let mv = ScwareMove::Stones { cells: set, new_group: extra };
            prop_assert_eq!(ScwareMove::parse(&mv.to_string(), 8).unwrap(), mv);
        }
    }
}
