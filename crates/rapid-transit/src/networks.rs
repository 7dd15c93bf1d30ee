//! What the rules read off the board, kept up to date swap by swap: networks (with their
//! members and sizes), each piece's count of friendly and opposing neighbours (which makes
//! the terminal set), and the 2 x 2 blocks in which each piece is cornered.
//!
//! A swap changes two cells. Neighbour counts and cornering change only next to them, and
//! the only networks that change are those touching them, so [`Networks::after_swap`]
//! refloods just those; every other network keeps its label and member list.

use swapboard_core::{Stone, StoneBoard};

/// Mailbox slots of the largest variant (16 x 16 with its border).
pub(crate) const SLOTS: usize = 18 * 18;
const SEEN_WORDS: usize = SLOTS.div_ceil(64);

/// A set of mailbox slots, for one flood or one move generation (no allocation).
#[derive(Clone, Copy, Default)]
pub(crate) struct SlotSet([u64; SEEN_WORDS]);

impl SlotSet {
    /// Adds a slot; returns whether it was absent.
    #[inline]
    pub(crate) fn insert(&mut self, slot: usize) -> bool {
        let (w, b) = (slot / 64, 1u64 << (slot % 64));
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }

    /// Whether the slot is in the set.
    #[inline]
    pub(crate) fn contains(&self, slot: usize) -> bool {
        self.0[slot / 64] & (1u64 << (slot % 64)) != 0
    }
}

/// The derived state of a full Rapid Transit board.
///
/// A network is labelled by one of its own slots (its *id*); `size[id]` is its piece count
/// and `next` links its members in a ring. Labels are unique because networks are disjoint.
#[derive(Clone)]
pub(crate) struct Networks {
    id: [u16; SLOTS],
    next: [u16; SLOTS],
    size: [u8; SLOTS],
    /// Orthogonal neighbours of the same colour (a piece with at most one is terminal).
    same: [u8; SLOTS],
    /// Orthogonal neighbours of the other colour.
    foes: [u8; SLOTS],
    /// Bit k set: the piece is cornered in the k-th block of `Square::blocks_around`.
    cornered: [u8; SLOTS],
}

impl Networks {
    /// Everything computed from scratch for a full board.
    pub(crate) fn new(board: &StoneBoard) -> Networks {
        let mut nets = Networks {
            id: [0; SLOTS],
            next: [0; SLOTS],
            size: [0; SLOTS],
            same: [0; SLOTS],
            foes: [0; SLOTS],
            cornered: [0; SLOTS],
        };
        let square = board.square();
        for slot in square.slots() {
            nets.count_neighbours(board, slot);
        }
        for block in square.blocks() {
            nets.corner_block(board, block);
        }
        let mut seen = SlotSet::default();
        for slot in square.slots() {
            if seen.insert(slot) {
                nets.flood(board, slot, &mut seen);
            }
        }
        nets
    }

    /// The label of the network through `slot`.
    #[inline]
    pub(crate) fn id(&self, slot: usize) -> usize {
        usize::from(self.id[slot])
    }

    /// The number of pieces of the network labelled `id`.
    #[inline]
    pub(crate) fn size_of(&self, id: usize) -> usize {
        usize::from(self.size[id])
    }

    /// The member after `slot` in its network's ring.
    #[inline]
    pub(crate) fn next(&self, slot: usize) -> usize {
        usize::from(self.next[slot])
    }

    /// Same-coloured orthogonal neighbours of the piece on `slot`.
    #[inline]
    pub(crate) fn same(&self, slot: usize) -> u8 {
        self.same[slot]
    }

    /// Opposing orthogonal neighbours of the piece on `slot`.
    #[inline]
    pub(crate) fn foes(&self, slot: usize) -> u8 {
        self.foes[slot]
    }

    /// Whether the piece on `slot` is terminal: at most one like-coloured neighbour.
    #[inline]
    pub(crate) fn is_terminal(&self, slot: usize) -> bool {
        self.same[slot] <= 1
    }

    /// The blocks (bits over `Square::blocks_around(slot)`) in which the piece is cornered.
    #[inline]
    pub(crate) fn cornered(&self, slot: usize) -> u8 {
        self.cornered[slot]
    }

    /// Brings everything up to date after the pieces on `a` and `b` (already changed on
    /// `board`) were exchanged.
    pub(crate) fn after_swap(&mut self, board: &StoneBoard, a: usize, b: usize) {
        let square = board.square();
        let orth = square.orthogonal();
        for centre in [a, b] {
            self.count_neighbours(board, centre);
            for d in orth {
                let n = centre.wrapping_add_signed(d);
                if board.get(n) != Stone::Off {
                    self.count_neighbours(board, n);
                }
            }
            for block in square.blocks_around(centre) {
                self.corner_block(board, block);
            }
        }
        // Every network that changed touches a or b: reflood from them and their
        // neighbours. Each old network through one of these cells is reached whole (a
        // network split by the swap falls into parts that each touch the swapped cell).
        let mut seen = SlotSet::default();
        for centre in [a, b] {
            if seen.insert(centre) {
                self.flood(board, centre, &mut seen);
            }
            for d in orth {
                let n = centre.wrapping_add_signed(d);
                if board.get(n) != Stone::Off && seen.insert(n) {
                    self.flood(board, n, &mut seen);
                }
            }
        }
    }

    fn count_neighbours(&mut self, board: &StoneBoard, slot: usize) {
        let own = board.get(slot);
        let (mut same, mut foes) = (0, 0);
        for d in board.square().orthogonal() {
            match board.get(slot.wrapping_add_signed(d)) {
                Stone::Off | Stone::Empty => {}
                s if s == own => same += 1,
                _ => foes += 1,
            }
        }
        self.same[slot] = same;
        self.foes[slot] = foes;
    }

    /// Recomputes, for each cell of the block, whether it is cornered there: the other
    /// three cells hold the other colour.
    fn corner_block(&mut self, board: &StoneBoard, block: usize) {
        let cells = board.square().block(block);
        let stones = cells.map(|s| board.get(s));
        for (k, &slot) in cells.iter().enumerate() {
            let Some(player) = stones[k].player() else {
                continue;
            };
            let foe = Stone::of(player.other());
            let cornered = (0..4).all(|j| j == k || stones[j] == foe);
            // The block is the k-th around its k-th cell (see `Square::blocks_around`).
            if cornered {
                self.cornered[slot] |= 1 << k;
            } else {
                self.cornered[slot] &= !(1 << k);
            }
        }
    }

    /// Labels the network through `seed` with `seed`, links its ring and counts it. Every
    /// member is added to `seen` (the seed already is).
    fn flood(&mut self, board: &StoneBoard, seed: usize, seen: &mut SlotSet) {
        let own = board.get(seed);
        let orth = board.square().orthogonal();
        let mut stack = [0u16; 256];
        stack[0] = seed as u16;
        let mut top = 1;
        let mut last = seed;
        let mut count = 0u8;
        while top > 0 {
            top -= 1;
            let s = usize::from(stack[top]);
            self.id[s] = seed as u16;
            self.next[last] = s as u16;
            last = s;
            count += 1;
            for d in orth {
                let n = s.wrapping_add_signed(d);
                if board.get(n) == own && seen.insert(n) {
                    stack[top] = n as u16;
                    top += 1;
                }
            }
        }
        self.next[last] = seed as u16;
        self.size[seed] = count;
    }
}
