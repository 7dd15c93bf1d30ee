//! Bitboards: one bit per cell, row by row from a1 (bit `row * N + col`). The game's 8 x 8
//! board fits a `u64`; the larger variants (up to 16 x 16) use [`Wide`], four words.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// The operations the rules need of a set of cells.
pub(crate) trait Bits:
    Copy
    + Eq
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The set of the one cell `i`.
    fn bit(i: usize) -> Self;
    /// Every bit moves `n` places up (0 < n < 64); bits past the top are lost.
    fn up(self, n: u32) -> Self;
    /// Every bit moves `n` places down (0 < n < 64); bits past the bottom are lost.
    fn down(self, n: u32) -> Self;
    /// The number of cells.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// The lowest cell (the set must not be empty).
    fn lowest(self) -> usize;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;

    /// Whether cell `i` is in the set.
    #[inline]
    fn has(self, i: usize) -> bool {
        !(self & Self::bit(i)).is_empty()
    }

    /// The cell of rank `n` (from 0, lowest first); the set must have more than `n` cells.
    #[inline]
    fn nth(self, n: u64) -> usize {
        let mut rest = self;
        for _ in 0..n {
            rest = rest.without_lowest();
        }
        rest.lowest()
    }

    /// The cells, lowest first.
    #[inline]
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
}

/// The cells of a set, lowest first.
pub(crate) struct Cells<B>(B);

impl<B: Bits> Iterator for Cells<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }
}

impl Bits for u64 {
    #[inline]
    fn bit(i: usize) -> u64 {
        1 << i
    }

    #[inline]
    fn up(self, n: u32) -> u64 {
        self << n
    }

    #[inline]
    fn down(self, n: u32) -> u64 {
        self >> n
    }

    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }

    #[inline]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
}

/// 256 cells in four words, lowest word first: boards up to 16 x 16.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct Wide([u64; 4]);

impl Bits for Wide {
    #[inline]
    fn bit(i: usize) -> Wide {
        let mut w = [0; 4];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }

    #[inline]
    fn up(self, n: u32) -> Wide {
        debug_assert!(0 < n && n < 64);
        let w = self.0;
        Wide([
            w[0] << n,
            (w[1] << n) | (w[0] >> (64 - n)),
            (w[2] << n) | (w[1] >> (64 - n)),
            (w[3] << n) | (w[2] >> (64 - n)),
        ])
    }

    #[inline]
    fn down(self, n: u32) -> Wide {
        debug_assert!(0 < n && n < 64);
        let w = self.0;
        Wide([
            (w[0] >> n) | (w[1] << (64 - n)),
            (w[1] >> n) | (w[2] << (64 - n)),
            (w[2] >> n) | (w[3] << (64 - n)),
            w[3] >> n,
        ])
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    #[inline]
    fn lowest(self) -> usize {
        let k = self
            .0
            .iter()
            .position(|&w| w != 0)
            .expect("a non-empty set");
        64 * k + self.0[k].trailing_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> Wide {
        let mut w = self.0;
        if let Some(word) = w.iter_mut().find(|w| **w != 0) {
            *word &= *word - 1;
        }
        Wide(w)
    }
}

macro_rules! wide_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;

            #[inline]
            fn $method(self, other: Wide) -> Wide {
                let (a, b) = (self.0, other.0);
                Wide([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }

        impl $assign for Wide {
            #[inline]
            fn $assign_method(&mut self, other: Wide) {
                *self = *self $op other;
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl BitXor for Wide {
    type Output = Wide;

    #[inline]
    fn bitxor(self, other: Wide) -> Wide {
        let (a, b) = (self.0, other.0);
        Wide([a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]])
    }
}

impl Not for Wide {
    type Output = Wide;

    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-word shifts move every cell index by the shift, across word boundaries.
    #[test]
    fn wide_shifts_carry_across_words() {
        let mut x = Wide::default();
        for i in [0, 5, 63, 64, 127, 128, 200, 255] {
            x |= Wide::bit(i);
        }
        for n in [1, 15, 16, 17] {
            let up: Vec<usize> = x.up(n).cells().collect();
            let want: Vec<usize> = x
                .cells()
                .map(|i| i + n as usize)
                .filter(|&i| i < 256)
                .collect();
            assert_eq!(up, want, "up {n}");
            let down: Vec<usize> = x.down(n).cells().collect();
            let want: Vec<usize> = x
                .cells()
                .filter(|&i| i >= n as usize)
                .map(|i| i - n as usize)
                .collect();
            assert_eq!(down, want, "down {n}");
        }
        assert_eq!(x.count(), 8);
        assert_eq!(x.nth(3), 64);
        assert!(x.has(200) && !x.has(201));
    }
}
