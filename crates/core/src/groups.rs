use swapboard_grid::MAILBOX_CAPACITY;

use crate::{Player, Stone, StoneBoard};

/// The groups of a [`StoneBoard`] (orthogonally connected stones of one colour), kept by
/// union-find, with the sides of its owner each group touches.
///
/// Placing a stone only joins groups, so [`Groups::add`] keeps them in near-constant time and
/// answers "does this stone complete a path?" without a flood fill. A move that changes a
/// stone's colour can split its old group: [`Groups::update`] re-floods just the groups that
/// lost a stone.
///
/// The representation depends on the order stones arrived, so it is derived data: positions
/// compare and hash their boards, never their `Groups`.
#[derive(Clone)]
pub struct Groups {
    parent: [u16; MAILBOX_CAPACITY],
    /// For a root: bit 0 if the group touches its owner's first side (top row for the first
    /// player, left column for the second), bit 1 if it touches the opposite side.
    sides: [u8; MAILBOX_CAPACITY],
}

const BOTH_SIDES: u8 = 0b11;

impl Groups {
    /// The groups of `board`.
    pub fn new(board: &StoneBoard) -> Groups {
        let mut groups = Groups {
            parent: [0; MAILBOX_CAPACITY],
            sides: [0; MAILBOX_CAPACITY],
        };
        groups.rebuild(board);
        groups
    }

    /// Recomputes every group from the board.
    pub fn rebuild(&mut self, board: &StoneBoard) {
        let sq = board.square();
        for slot in sq.slots() {
            self.parent[slot] = slot as u16;
            self.sides[slot] = side_bits(board, slot);
        }
        let stride = sq.stride();
        for slot in sq.slots() {
            let stone = board.get(slot);
            if stone == Stone::First || stone == Stone::Second {
                for next in [slot + 1, slot + stride] {
                    if board.get(next) == stone {
                        self.union(slot, next);
                    }
                }
            }
        }
    }

    /// Brings the groups up to date after the `changes` (slot, stone it held before) were made
    /// on the board: the groups that lost a stone are flooded afresh (they may have split),
    /// then each changed stone joins its new neighbours. Re-flooding a group that did not
    /// split is only extra work, so a slot may be listed more than once.
    pub fn update(&mut self, board: &StoneBoard, changes: &[(usize, Stone)]) {
        const WORDS: usize = MAILBOX_CAPACITY.div_ceil(64);
        let mut seen = [0u64; WORDS];
        for &(slot, _) in changes {
            self.parent[slot] = slot as u16;
            self.sides[slot] = side_bits(board, slot);
        }
        for &(slot, old) in changes {
            // A stone that stayed may have been its group's root: re-flood in that case too.
            if matches!(old, Stone::First | Stone::Second) {
                for d in board.square().orthogonal() {
                    let next = slot.wrapping_add_signed(d);
                    if board.get(next) == old && seen[next / 64] & 1 << (next % 64) == 0 {
                        self.reflood(board, next, &mut seen);
                    }
                }
            }
        }
        for &(slot, _) in changes {
            let stone = board.get(slot);
            if matches!(stone, Stone::First | Stone::Second) {
                for d in board.square().orthogonal() {
                    let next = slot.wrapping_add_signed(d);
                    if board.get(next) == stone {
                        self.union(slot, next);
                    }
                }
            }
        }
    }

    /// Makes the group of the stone on `start` a fresh tree rooted there, marking its stones
    /// in `seen`.
    fn reflood(&mut self, board: &StoneBoard, start: usize, seen: &mut [u64]) {
        let stone = board.get(start);
        let mut todo = [0u64; MAILBOX_CAPACITY.div_ceil(64)];
        seen[start / 64] |= 1 << (start % 64);
        todo[start / 64] |= 1 << (start % 64);
        let mut sides = 0;
        let mut low = start / 64;
        while low < todo.len() {
            if todo[low] == 0 {
                low += 1;
                continue;
            }
            let slot = low * 64 + todo[low].trailing_zeros() as usize;
            todo[low] &= todo[low] - 1;
            self.parent[slot] = start as u16;
            sides |= side_bits(board, slot);
            for d in board.square().orthogonal() {
                let next = slot.wrapping_add_signed(d);
                let (w, b) = (next / 64, 1u64 << (next % 64));
                if board.get(next) == stone && seen[w] & b == 0 {
                    seen[w] |= b;
                    todo[w] |= b;
                    low = low.min(w);
                }
            }
        }
        self.sides[start] = sides;
    }

    /// Records the stone just placed on the empty-before `slot` of `board`; returns whether
    /// its group now joins its owner's two sides.
    pub fn add(&mut self, board: &StoneBoard, slot: usize) -> bool {
        let stone = board.get(slot);
        self.parent[slot] = slot as u16;
        self.sides[slot] = side_bits(board, slot);
        for d in board.square().orthogonal() {
            let next = slot.wrapping_add_signed(d);
            if board.get(next) == stone {
                self.union(slot, next);
            }
        }
        self.joins_sides(slot)
    }

    /// Whether the group of the stone on `slot` joins its owner's two sides.
    pub fn joins_sides(&mut self, slot: usize) -> bool {
        let root = self.find(slot);
        self.sides[root] == BOTH_SIDES
    }

    /// The slot that stands for the group of the stone on `slot`: two stones are in one
    /// group exactly when their roots are equal.
    pub fn root(&mut self, slot: usize) -> usize {
        self.find(slot)
    }

    fn find(&mut self, mut slot: usize) -> usize {
        while usize::from(self.parent[slot]) != slot {
            let grand = self.parent[usize::from(self.parent[slot])];
            self.parent[slot] = grand;
            slot = usize::from(grand);
        }
        slot
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[rb] = ra as u16;
            self.sides[ra] |= self.sides[rb];
        }
    }
}

/// The sides of its owner that the stone on `slot` touches (0 for an empty cell): a side is
/// recognised by the off-board border beyond it.
fn side_bits(board: &StoneBoard, slot: usize) -> u8 {
    let stride = board.square().stride();
    let off = |s: usize| u8::from(board.get(s) == Stone::Off);
    match board.get(slot).player() {
        Some(Player::First) => off(slot + stride) | off(slot - stride) << 1,
        Some(Player::Second) => off(slot - 1) | off(slot + 1) << 1,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random recolourings of random cells (swaps, replacements, several at once) keep the
    /// groups equal to freshly computed ones.
    #[test]
    fn update_agrees_with_fresh_groups() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(6);
        let stones = [Stone::Empty, Stone::First, Stone::Second];
        for size in [3usize, 5, 8] {
            let sq = swapboard_grid::Square::new(size).unwrap();
            let slots: Vec<usize> = sq.slots().collect();
            let mut board = StoneBoard::empty(sq);
            for &s in &slots {
                board.set(s, stones[rng.random_range(0..3)]);
            }
            let mut groups = Groups::new(&board);
            for _ in 0..400 {
                let mut changes = Vec::new();
                for _ in 0..rng.random_range(1..5) {
                    let slot = slots[rng.random_range(0..slots.len())];
                    if changes.iter().any(|&(s, _)| s == slot) {
                        continue;
                    }
                    changes.push((slot, board.get(slot)));
                    board.set(slot, stones[rng.random_range(0..3)]);
                }
                groups.update(&board, &changes);
                let mut fresh = Groups::new(&board);
                for &s in &slots {
                    if board.get(s) != Stone::Empty {
                        assert_eq!(fresh.joins_sides(s), groups.joins_sides(s), "{board:?}");
                        for &t in &slots {
                            if board.get(t) == board.get(s) {
                                let same_fresh = fresh.find(s) == fresh.find(t);
                                assert_eq!(
                                    same_fresh,
                                    groups.find(s) == groups.find(t),
                                    "{board:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Along random fillings of boards, `add` agrees with a flood fill after every stone.
    #[test]
    fn add_agrees_with_the_flood_fill() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for size in [3usize, 4, 7, 12] {
            for _ in 0..30 {
                let sq = swapboard_grid::Square::new(size).unwrap();
                let mut board = StoneBoard::empty(sq);
                let mut groups = Groups::new(&board);
                let mut slots: Vec<usize> = sq.slots().collect();
                while !slots.is_empty() {
                    let slot = slots.swap_remove(rng.random_range(0..slots.len()));
                    let player = if rng.random_range(0..2) == 0 {
                        Player::First
                    } else {
                        Player::Second
                    };
                    board.set(slot, Stone::of(player));
                    assert_eq!(groups.add(&board, slot), board.path_through(slot, player));
                    let mut fresh = Groups::new(&board);
                    for s in sq.slots() {
                        if board.get(s) != Stone::Empty {
                            assert_eq!(fresh.joins_sides(s), groups.joins_sides(s));
                        }
                    }
                }
            }
        }
    }
}
