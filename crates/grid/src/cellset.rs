use std::fmt;

use crate::Cell;

const WORDS: usize = 11;

/// A set of cells of a square board of any size up to 26 x 26 (676 bits).
///
/// Bits are kept in cell order ([`Cell::ordinal`]), so iteration yields cells sorted as the
/// text contract prints them. The set is `Copy` (88 bytes) and never allocates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet { words: [0; WORDS] };

    /// The empty set.
    pub const fn new() -> CellSet {
        CellSet::EMPTY
    }

    /// Adds a cell; returns whether it was absent.
    pub fn insert(&mut self, cell: Cell) -> bool {
        let (w, b) = split(cell);
        let absent = self.words[w] & b == 0;
        self.words[w] |= b;
        absent
    }

    /// Removes a cell; returns whether it was present.
    pub fn remove(&mut self, cell: Cell) -> bool {
        let (w, b) = split(cell);
        let present = self.words[w] & b != 0;
        self.words[w] &= !b;
        present
    }

    /// Whether the cell is in the set.
    pub fn contains(&self, cell: Cell) -> bool {
        let (w, b) = split(cell);
        self.words[w] & b != 0
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no cell.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Cells in both sets.
    pub fn intersection(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        out.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a &= b);
        out
    }

    /// Cells in either set.
    pub fn union(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        out.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a |= b);
        out
    }

    /// Cells of `self` not in `other`.
    pub fn difference(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        out.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a &= !b);
        out
    }

    /// The smallest cell in cell order, if any.
    pub fn first(&self) -> Option<Cell> {
        self.iter().next()
    }

    /// The cells in cell order.
    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.words,
            word: 0,
        }
    }
}

const fn split(cell: Cell) -> (usize, u64) {
    let i = cell.ordinal();
    (i / 64, 1 << (i % 64))
}

/// Iterator over a [`CellSet`] in cell order.
#[derive(Clone)]
pub struct CellSetIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        while self.word < WORDS {
            let w = &mut self.words[self.word];
            if *w != 0 {
                let bit = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(Cell::from_ordinal(self.word * 64 + bit));
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for &CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;

    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        iter.into_iter().for_each(|c| {
            set.insert(c);
        });
        set
    }
}

impl Extend<Cell> for CellSet {
    fn extend<I: IntoIterator<Item = Cell>>(&mut self, iter: I) {
        iter.into_iter().for_each(|c| {
            self.insert(c);
        });
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn holds_cells_beyond_64() {
        let mut s = CellSet::new();
        let far = Cell::new(25, 25);
        assert!(s.insert(far));
        assert!(!s.insert(far));
        assert!(s.insert(Cell::new(0, 0)));
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().collect::<Vec<_>>(), [Cell::new(0, 0), far]);
        assert!(s.remove(far));
        assert!(!s.contains(far));
    }

    proptest! {
        #[test]
        fn behaves_like_a_btreeset(ops in proptest::collection::vec((0usize..676, any::<bool>()), 0..200)) {
            let mut set = CellSet::new();
            let mut model = std::collections::BTreeSet::new();
            for (i, add) in ops {
                let cell = Cell::from_ordinal(i);
                if add {
                    prop_assert_eq!(set.insert(cell), model.insert(cell));
                } else {
                    prop_assert_eq!(set.remove(cell), model.remove(&cell));
                }
            }
            prop_assert_eq!(set.len(), model.len());
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), model.into_iter().collect::<Vec<_>>());
        }
    }
}
