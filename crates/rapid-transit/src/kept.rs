//! What the rules read off the board, kept up to date swap by swap on bitboards, and the
//! legal swaps read from it.
//!
//! Kept: every network as a set of cells with a label per cell (a swap changes only the
//! networks through the two swapped cells and those they join, see [`Kept::swap`]), and
//! the whole-board masks of terminal pieces,
//! pieces with two or three opposing neighbours and pieces cornered in each of their four
//! 2 x 2 blocks (recomputed bit-parallel after each swap: a few dozen word operations, less
//! than updating counts cell by cell).
//!
//! Legal swaps fall in two kinds. A terminal `p` and a partner `q` that share no 2 x 2
//! block form a legal swap exactly when neither is cornered and both already have two
//! opposing neighbours (nothing else changes around them), so per mover network those
//! *far* pairs are a product of two counts. Pairs sharing a block (`q` one king step from
//! `p`) are judged for all terminals at once, one bitboard per step direction. A foe one
//! king step from `p` always lies in a network adjacent to `p`'s (it touches `p`, or the
//! block's other two cells touch both), so the near pairs need no network test.

use std::ops::ControlFlow;

use rand::{Rng, RngExt};
use swapboard_core::Player;

use crate::bits::{Bits, Wide};

/// The eight king steps `(columns, rows)`: the four orthogonal ones first.
const STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// A cell's four 2 x 2 blocks, each named by the diagonal step into it from the cell (the
/// order of `Square::blocks_around`: the cell is lower-left, lower-right, upper-left,
/// upper-right of its block).
const BLOCKS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The three other cells of each block of [`BLOCKS`], as indices into [`STEPS`].
const BLOCK_STEPS: [[usize; 3]; 4] = [[0, 2, 4], [1, 2, 5], [0, 3, 6], [1, 3, 7]];

/// Whether block `k` of a cell also holds the cell one `step` away.
const fn block_holds(k: usize, step: (i8, i8)) -> bool {
    let (bx, by) = BLOCKS[k];
    (step.0 == 0 || step.0 == bx) && (step.1 == 0 || step.1 == by)
}

/// Why a swap breaks restriction 2 or 3.
pub(crate) enum Fault {
    /// The 2 x 2 block of these cells would be all `colour`.
    Block { cells: [usize; 4], colour: Player },
    /// The piece of `colour` moved to `cell` would have only `friends` friendly neighbours.
    Lonely {
        cell: usize,
        colour: Player,
        friends: u32,
    },
}

/// The derived state of a full N x N board, cells as bits `row * N + col` of `B`; `C` is
/// the capacity of the label tables (at least N * N, at most 256).
#[derive(Clone)]
pub(crate) struct Kept<B, const C: usize> {
    n: usize,
    /// Every cell of the board.
    on: B,
    /// The cells not in the first (a) column, and not in the last.
    not_first: B,
    not_last: B,
    /// The first player's (Red's) pieces; the rest of the board is the second's.
    red: B,
    /// Each cell's network label: a cell of that network.
    label: [u8; C],
    /// `nets[l]`: the network labelled `l` (only entries some label names are current).
    nets: [B; C],
    /// Pieces with at most one like-coloured orthogonal neighbour.
    terminal: B,
    /// Pieces with at least two, and at least three, opposing orthogonal neighbours.
    foes2: B,
    foes3: B,
    /// `corner[k]`: pieces whose block `k` (see [`BLOCKS`]) holds three opposing pieces.
    corner: [B; 4],
}

/// One mover network's far pairs, found by [`Kept::for_each_group`]: its free terminals
/// and the free partners of its adjacent opponent networks (every pairing of the two that
/// shares no 2 x 2 block is a legal swap).
#[derive(Clone, Copy)]
pub(crate) struct Group<B> {
    pub(crate) terminals: B,
    pub(crate) partners: B,
}

/// What move generation reads for one mover, built once per call from the kept masks.
pub(crate) struct Scan<B> {
    foe: B,
    /// `near[d]`: terminals `p` whose swap with the foe one `STEPS[d]` away is legal.
    near: [B; 8],
    /// Uncornered mover terminals with two opposing neighbours.
    free_terminals: B,
    /// Uncornered opponent pieces with two opposing neighbours.
    free_partners: B,
}

impl<B: Bits, const C: usize> Kept<B, C> {
    /// Everything computed from scratch for a full `n` x `n` board whose first player owns
    /// the cells for which `is_red` holds.
    pub(crate) fn new(n: usize, is_red: impl Fn(usize) -> bool) -> Kept<B, C> {
        assert!(n * n <= C && C <= 256, "{n}x{n} does not fit the tables");
        let mut on = B::default();
        let (mut not_first, mut not_last, mut red) = (on, on, on);
        for i in 0..n * n {
            let b = B::bit(i);
            on |= b;
            if i % n != 0 {
                not_first |= b;
            }
            if i % n != n - 1 {
                not_last |= b;
            }
            if is_red(i) {
                red |= b;
            }
        }
        let mut kept = Kept {
            n,
            on,
            not_first,
            not_last,
            red,
            label: [0; C],
            nets: [B::default(); C],
            terminal: on,
            foes2: on,
            foes3: on,
            corner: [on; 4],
        };
        kept.refresh_masks();
        kept.label_all();
        kept
    }

    /// The pieces of `player`.
    #[inline]
    pub(crate) fn pieces(&self, player: Player) -> B {
        match player {
            Player::First => self.red,
            Player::Second => self.on & !self.red,
        }
    }

    /// The pieces of the colour of the piece on `cell`.
    #[inline]
    fn colour_of(&self, cell: usize) -> B {
        if self.red.has(cell) {
            self.red
        } else {
            self.on & !self.red
        }
    }

    /// The cells `i` whose neighbour `step` away is in `x` (the shift of `x` by `-step`).
    #[inline]
    fn toward(&self, x: B, (dx, dy): (i8, i8)) -> B {
        let x = match dx {
            1 => x.down(1) & self.not_last,
            -1 => x.up(1) & self.not_first,
            _ => x,
        };
        match dy {
            1 => x.down(self.n as u32),
            -1 => x.up(self.n as u32) & self.on,
            _ => x,
        }
    }

    /// The cells orthogonally next to some cell of `x`.
    #[inline]
    fn around(&self, x: B) -> B {
        let n = self.n as u32;
        (x.down(1) & self.not_last) | (x.up(1) & self.not_first) | x.down(n) | (x.up(n) & self.on)
    }

    /// The cells one king step from `cell`.
    #[inline]
    fn king(&self, cell: usize) -> B {
        let x = B::bit(cell);
        STEPS
            .iter()
            .fold(B::default(), |acc, &step| acc | self.toward(x, step))
    }

    /// The cell `step` away from `cell` (which must have one there).
    #[inline]
    fn step(&self, cell: usize, (dx, dy): (i8, i8)) -> usize {
        (cell as isize + isize::from(dx) + isize::from(dy) * self.n as isize) as usize
    }

    /// The label (a member cell) of the network through `cell`.
    #[inline]
    pub(crate) fn label(&self, cell: usize) -> usize {
        usize::from(self.label[cell])
    }

    /// The network through `cell`.
    #[inline]
    pub(crate) fn network(&self, cell: usize) -> B {
        self.nets[self.label(cell)]
    }

    /// The sizes of `player`'s networks, in no particular order.
    pub(crate) fn network_sizes(&self, player: Player) -> impl Iterator<Item = usize> + '_ {
        let mut rest = self.pieces(player);
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let net = self.network(rest.lowest());
            rest &= !net;
            Some(net.count() as usize)
        })
    }

    /// The cells of `player`'s largest networks (all of them when several share the
    /// largest size).
    pub(crate) fn largest_networks(&self, player: Player) -> B {
        let (mut best, mut size) = (B::default(), 0);
        let mut rest = self.pieces(player);
        while !rest.is_empty() {
            let net = self.network(rest.lowest());
            rest &= !net;
            let count = net.count();
            if count > size {
                (best, size) = (net, count);
            } else if count == size {
                best |= net;
            }
        }
        best
    }

    /// Pieces with at most one like-coloured neighbour.
    #[inline]
    pub(crate) fn terminals(&self) -> B {
        self.terminal
    }

    /// Pieces cornered in some block.
    #[inline]
    pub(crate) fn cornered(&self) -> B {
        self.corner[0] | self.corner[1] | self.corner[2] | self.corner[3]
    }

    /// Like-coloured orthogonal neighbours of the piece on `cell`.
    pub(crate) fn friends(&self, cell: usize) -> u32 {
        (self.around(B::bit(cell)) & self.colour_of(cell)).count()
    }

    /// Opposing orthogonal neighbours of the piece on `cell`.
    pub(crate) fn foes(&self, cell: usize) -> u32 {
        self.around(B::bit(cell)).count() - self.friends(cell)
    }

    /// The size of the network the mover's piece on `p` forms once swapped onto `q`: the
    /// piece and the networks of its colour around `q`, less `p` itself (a terminal, so its
    /// network stays whole without it).
    pub(crate) fn formed_network(&self, p: usize, q: usize) -> u32 {
        let mut around = self.around(B::bit(q)) & self.colour_of(p) & !B::bit(p);
        let mut joined = B::default();
        while !around.is_empty() {
            let network = self.network(around.lowest());
            joined |= network;
            around &= !network;
        }
        (joined & !B::bit(p)).count() + 1
    }

    /// Whether the networks through `p` and `q` touch orthogonally.
    pub(crate) fn networks_touch(&self, p: usize, q: usize) -> bool {
        !(self.around(self.network(p)) & self.network(q)).is_empty()
    }

    /// Exchanges the (differently coloured) pieces on `a` and `b` and brings everything up
    /// to date.
    ///
    /// Only the networks through `a` and `b` and those they join change, and no flood is
    /// needed to find them. With its colour changed, `a` joins the networks of its new
    /// colour around it; every such network other than `b`'s is whole (any other cell of
    /// that colour touching it would belong to it), and of `b`'s only the parts left
    /// without `b` count. The same holds for `b`. What is left of the old networks of `a`
    /// and `b` stands alone.
    pub(crate) fn swap(&mut self, a: usize, b: usize) {
        let (parts_a, len_a) = self.parts_without(a);
        let (parts_b, len_b) = self.parts_without(b);
        let (parts_a, parts_b) = (&parts_a[..len_a], &parts_b[..len_b]);
        self.red = self.red ^ B::bit(a) ^ B::bit(b);
        self.refresh_masks();
        let (net_a, keep_a) = self.joined(a, parts_b);
        let (net_b, keep_b) = self.joined(b, parts_a);
        self.settle(net_a, keep_a);
        self.settle(net_b, keep_b);
        for (&part, joined) in parts_a
            .iter()
            .map(|p| (p, net_b))
            .chain(parts_b.iter().map(|p| (p, net_a)))
        {
            if (part & joined).is_empty() {
                // A part holding its old label cell keeps the label.
                let keep = if part.has(self.label(part.lowest())) {
                    part
                } else {
                    B::default()
                };
                self.settle(part, keep);
            }
        }
    }

    /// The connected parts of the network through `cell` without `cell` (one per
    /// neighbour at most), floods only when `cell` had two or more friends.
    fn parts_without(&self, cell: usize) -> ([B; 4], usize) {
        let rest = self.network(cell) & !B::bit(cell);
        let mut friends = self.around(B::bit(cell)) & rest;
        let mut parts = [B::default(); 4];
        let mut len = 0;
        let mut unclaimed = rest;
        while !friends.is_empty() {
            let part = if friends.without_lowest().is_empty() {
                // The last friend's part is all that the others' parts left: every cell of
                // the network reached `cell` through some friend.
                unclaimed
            } else {
                let mut part = B::bit(friends.lowest());
                loop {
                    let grown = (part | self.around(part)) & rest;
                    if grown == part {
                        break part;
                    }
                    part = grown;
                }
            };
            parts[len] = part;
            len += 1;
            friends &= !part;
            unclaimed &= !part;
        }
        (parts, len)
    }

    /// After the swap, the network through `cell`: the cell and the networks of its colour
    /// around it (`parts` standing for the old network split by the swap); with the
    /// largest of them whose cells keep their label (its label cell is in it).
    fn joined(&self, cell: usize, parts: &[B]) -> (B, B) {
        let colour = self.colour_of(cell);
        let mut net = B::bit(cell);
        let mut keep = B::default();
        for other in (self.around(net) & colour).cells() {
            if net.has(other) {
                continue;
            }
            let unit = parts
                .iter()
                .copied()
                .find(|part| part.has(other))
                .unwrap_or_else(|| self.network(other));
            net |= unit;
            if unit.count() > keep.count() && unit.has(self.label(other)) {
                keep = unit;
            }
        }
        (net, keep)
    }

    /// Records `net` as a network. The cells of `keep` (a part of `net`, empty or holding
    /// its own label cell) keep their label; the others take it.
    fn settle(&mut self, net: B, keep: B) {
        let id = if keep.is_empty() {
            net.lowest()
        } else {
            self.label(keep.lowest())
        };
        self.nets[id] = net;
        for cell in (net & !keep).cells() {
            self.label[cell] = id as u8;
        }
    }

    /// Labels every network from scratch, flooding each on bitboards.
    fn label_all(&mut self) {
        let mut rest = self.on;
        while !rest.is_empty() {
            let seed = rest.lowest();
            let colour = self.colour_of(seed);
            let mut net = B::bit(seed);
            loop {
                let grown = (net | self.around(net)) & colour;
                if grown == net {
                    break;
                }
                net = grown;
            }
            rest &= !net;
            self.settle(net, B::default());
        }
    }

    /// Recomputes the terminal, opposing-neighbour and cornering masks from the colours.
    fn refresh_masks(&mut self) {
        let (on, red) = (self.on, self.red);
        // differ[d]: the neighbour one STEPS[d] away exists and has the other colour.
        let differ = STEPS.map(|step| self.toward(on, step) & (self.toward(red, step) ^ red));
        let like = [0, 1, 2, 3].map(|d| self.toward(on, STEPS[d]) & !differ[d]);
        let (like2, _) = at_least_two_three(like);
        let (foes2, foes3) = at_least_two_three([differ[0], differ[1], differ[2], differ[3]]);
        self.terminal = on & !like2;
        self.foes2 = foes2;
        self.foes3 = foes3;
        self.corner = BLOCK_STEPS.map(|[a, b, c]| differ[a] & differ[b] & differ[c]);
    }

    /// The masks move generation reads for `mover`, with the near pairs judged.
    pub(crate) fn scan(&self, mover: Player) -> Scan<B> {
        let me = self.pieces(mover);
        let foe = self.on & !me;
        let live = me & self.terminal & self.foes2;
        let partners = foe & self.foes2;
        let free = self.on & !self.cornered();
        let near = [0, 1, 2, 3, 4, 5, 6, 7].map(|d| {
            let step = STEPS[d];
            let back = (-step.0, -step.1);
            // A moved piece may be cornered only in blocks that hold the other one.
            let (mut p_bad, mut q_bad) = (B::default(), B::default());
            for k in 0..4 {
                if !block_holds(k, step) {
                    p_bad |= self.corner[k];
                }
                if !block_holds(k, back) {
                    q_bad |= self.corner[k];
                }
            }
            // Touching pieces each lose the other as an opposing neighbour.
            let enough = if d < 4 { self.foes3 } else { self.on };
            let p_ok = live & !p_bad & enough;
            let q_ok = partners & !q_bad & enough;
            p_ok & self.toward(q_ok, step)
        });
        Scan {
            foe,
            near,
            free_terminals: live & free,
            free_partners: partners & free,
        }
    }

    /// Calls `f` for each mover network with a free terminal, with its [`Group`].
    #[inline]
    pub(crate) fn for_each_group(
        &self,
        scan: &Scan<B>,
        mut f: impl FnMut(Group<B>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut rest = scan.free_terminals;
        while !rest.is_empty() {
            let net = self.network(rest.lowest());
            rest &= !net;
            // One lookup per touching cell, not per network: the lookups then do not wait
            // on each other.
            let mut reach = B::default();
            for cell in (self.around(net) & scan.foe).cells() {
                reach |= self.network(cell);
            }
            f(Group {
                terminals: scan.free_terminals & net,
                partners: reach & scan.free_partners,
            })?;
        }
        ControlFlow::Continue(())
    }

    /// The free pairs of a group that share a block: counted in its product of counts but
    /// judged among the near pairs.
    #[inline]
    fn near_free_pairs(&self, scan: &Scan<B>, terminals: B) -> u64 {
        STEPS
            .iter()
            .map(|&step| u64::from((terminals & self.toward(scan.free_partners, step)).count()))
            .sum()
    }

    /// The number of legal swaps of `mover`.
    pub(crate) fn swap_count(&self, scan: &Scan<B>) -> u64 {
        let near: u64 = scan.near.iter().map(|x| u64::from(x.count())).sum();
        let mut far = 0;
        let _ = self.for_each_group(scan, |g| {
            far += u64::from(g.terminals.count()) * u64::from(g.partners.count());
            ControlFlow::Continue(())
        });
        near + far - self.near_free_pairs(scan, scan.free_terminals)
    }

    /// Calls `f(p, q)` for every legal swap of the mover's piece on `p` with the opponent's
    /// on `q`: the near pairs by step direction, then the far pairs network by network.
    pub(crate) fn for_each_swap(
        &self,
        scan: &Scan<B>,
        mut f: impl FnMut(usize, usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for (d, near) in scan.near.iter().enumerate() {
            for p in near.cells() {
                f(p, self.step(p, STEPS[d]))?;
            }
        }
        self.for_each_group(scan, |g| {
            for p in g.terminals.cells() {
                for q in (g.partners & !self.king(p)).cells() {
                    f(p, q)?;
                }
            }
            ControlFlow::Continue(())
        })
    }

    /// Calls `f` with `draws` legal swaps of `mover`, the one of rank `rank(count)` each
    /// time among the `count` legal swaps (in the order of [`Kept::for_each_swap`]), all
    /// from one scan: the scan counts the swaps once (keeping each network's [`Group`] in a
    /// buffer of `G`, at least the number of `mover`'s pieces), and each rank is found by
    /// counting again within the buffer, never by listing. Calls nothing when there is no
    /// swap.
    fn ranked_swaps<const G: usize>(
        &self,
        mover: Player,
        draws: u32,
        mut rank: impl FnMut(u64) -> u64,
        mut f: impl FnMut(usize, usize),
    ) {
        let scan = self.scan(mover);
        let mut groups = [Group {
            terminals: B::default(),
            partners: B::default(),
        }; G];
        let mut len = 0;
        let mut far = 0;
        let _ = self.for_each_group(&scan, |g| {
            far += u64::from(g.terminals.count()) * u64::from(g.partners.count());
            groups[len] = g;
            len += 1;
            ControlFlow::Continue(())
        });
        let near = scan.near.map(|x| u64::from(x.count()));
        let count =
            near.iter().sum::<u64>() + far - self.near_free_pairs(&scan, scan.free_terminals);
        if count == 0 {
            return;
        }
        for _ in 0..draws {
            let (p, q) = self.swap_of_rank(&scan, &near, &groups[..len], rank(count));
            f(p, q);
        }
    }

    /// The legal swap of rank `pick` (below the count of swaps) in the order of
    /// [`Kept::for_each_swap`], found by counting again: `near` holds the near pairs of
    /// each step direction, `groups` every [`Group`] of the scan.
    fn swap_of_rank(
        &self,
        scan: &Scan<B>,
        near: &[u64],
        groups: &[Group<B>],
        mut pick: u64,
    ) -> (usize, usize) {
        for (d, &here) in near.iter().enumerate() {
            if pick < here {
                let p = scan.near[d].nth(pick);
                return (p, self.step(p, STEPS[d]));
            }
            pick -= here;
        }
        for g in groups {
            let here = u64::from(g.terminals.count()) * u64::from(g.partners.count())
                - self.near_free_pairs(scan, g.terminals);
            if pick >= here {
                pick -= here;
                continue;
            }
            for p in g.terminals.cells() {
                let far = g.partners & !self.king(p);
                let here = u64::from(far.count());
                if pick < here {
                    return (p, far.nth(pick));
                }
                pick -= here;
            }
        }
        unreachable!("the rank drawn is below the count of swaps")
    }

    /// Restrictions 2 and 3 for the swap of `mover`'s piece on `p` with the opponent's on
    /// `q` (a block of one colour can appear only where a moved piece was cornered in a
    /// block not holding the other; each moved piece's friends are its old opposing
    /// neighbours, less the other piece if they touch).
    pub(crate) fn swap_fault(&self, mover: Player, p: usize, q: usize) -> Option<Fault> {
        let n = self.n;
        let (pc, pr, qc, qr) = (p % n, p / n, q % n, q / n);
        for (cell, other, colour) in [(q, p, mover), (p, q, mover.other())] {
            for (&corner, &(bx, by)) in self.corner.iter().zip(&BLOCKS) {
                if !corner.has(cell) {
                    continue;
                }
                let cells = [(0, 0), (bx, 0), (0, by), (bx, by)].map(|s| self.step(cell, s));
                if !cells.contains(&other) {
                    return Some(Fault::Block { cells, colour });
                }
            }
        }
        let touching = u32::from(pc.abs_diff(qc) + pr.abs_diff(qr) == 1);
        for (cell, colour) in [(q, mover), (p, mover.other())] {
            let friends = self.foes(cell) - touching;
            if friends < 2 {
                return Some(Fault::Lonely {
                    cell,
                    colour,
                    friends,
                });
            }
        }
        None
    }
}

/// Per cell, whether at least two and at least three of the four inputs hold (bit-sliced
/// adders).
#[inline]
fn at_least_two_three<B: Bits>([a, b, c, d]: [B; 4]) -> (B, B) {
    let (ones_ab, twos_ab) = (a ^ b, a & b);
    let (ones_cd, twos_cd) = (c ^ d, c & d);
    let two = twos_ab | twos_cd | (ones_ab & ones_cd);
    let three = (twos_ab & twos_cd) | (twos_ab & ones_cd) | (twos_cd & ones_ab);
    (two, three)
}

/// The kept state of a board of any variant size: one word per colour up to 8 x 8, four
/// words above. Cells are indices `row * N + col`.
// The game's own size is kept inline so that cloning a position never allocates.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(crate) enum Tables {
    /// Boards up to 8 x 8 (the game).
    Narrow(Kept<u64, 64>),
    /// Boards up to 16 x 16.
    Wide(Box<Kept<Wide, 256>>),
}

/// Runs `$body` with `$kept` bound to the kept state, whichever its width.
macro_rules! with_kept {
    ($tables:expr, $kept:ident => $body:expr) => {
        match $tables {
            Tables::Narrow($kept) => $body,
            Tables::Wide($kept) => $body,
        }
    };
}

impl Tables {
    /// Everything computed from scratch for a full `n` x `n` board whose first player owns
    /// the cells for which `is_red` holds.
    pub(crate) fn new(n: usize, is_red: impl Fn(usize) -> bool) -> Tables {
        if n <= 8 {
            Tables::Narrow(Kept::new(n, is_red))
        } else {
            Tables::Wide(Box::new(Kept::new(n, is_red)))
        }
    }

    /// Exchanges the differently coloured pieces on `a` and `b`.
    #[inline]
    pub(crate) fn swap(&mut self, a: usize, b: usize) {
        with_kept!(self, kept => kept.swap(a, b))
    }

    /// The sizes of `player`'s networks, largest first.
    pub(crate) fn network_sizes(&self, player: Player) -> Vec<usize> {
        let mut sizes: Vec<usize> = with_kept!(self, kept => kept.network_sizes(player).collect());
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The cells of `player`'s largest networks (every one of the largest size).
    pub(crate) fn largest_networks(&self, player: Player) -> Vec<usize> {
        with_kept!(self, kept => kept.largest_networks(player).cells().collect())
    }

    /// The size of the network through `cell`.
    pub(crate) fn network_size_at(&self, cell: usize) -> usize {
        with_kept!(self, kept => kept.network(cell).count() as usize)
    }

    /// `player`'s terminal pieces.
    pub(crate) fn terminals(&self, player: Player) -> Vec<usize> {
        with_kept!(self, kept => (kept.terminals() & kept.pieces(player)).cells().collect())
    }

    /// `player`'s cornered pieces.
    pub(crate) fn cornered(&self, player: Player) -> Vec<usize> {
        with_kept!(self, kept => (kept.cornered() & kept.pieces(player)).cells().collect())
    }

    /// Like-coloured orthogonal neighbours of the piece on `cell`.
    pub(crate) fn friends(&self, cell: usize) -> u32 {
        with_kept!(self, kept => kept.friends(cell))
    }

    /// The size of the network the mover's piece on `p` forms once swapped onto `q`.
    pub(crate) fn formed_network(&self, p: usize, q: usize) -> u32 {
        with_kept!(self, kept => kept.formed_network(p, q))
    }

    /// Whether the networks through `p` and `q` touch orthogonally.
    pub(crate) fn networks_touch(&self, p: usize, q: usize) -> bool {
        with_kept!(self, kept => kept.networks_touch(p, q))
    }

    /// Restrictions 2 and 3 for the swap of `mover`'s piece on `p` with the opponent's on `q`.
    pub(crate) fn swap_fault(&self, mover: Player, p: usize, q: usize) -> Option<Fault> {
        with_kept!(self, kept => kept.swap_fault(mover, p, q))
    }

    /// The number of legal swaps of `mover`.
    #[inline]
    pub(crate) fn swap_count(&self, mover: Player) -> u64 {
        with_kept!(self, kept => kept.swap_count(&kept.scan(mover)))
    }

    /// Calls `f(p, q)` for every legal swap of `mover`'s piece on `p` with the opponent's
    /// on `q`.
    #[inline]
    pub(crate) fn for_each_swap(
        &self,
        mover: Player,
        f: impl FnMut(usize, usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        with_kept!(self, kept => kept.for_each_swap(&kept.scan(mover), f))
    }

    /// A legal swap of `mover` drawn uniformly (one scan, one random number), or `None`
    /// when there is none.
    #[inline]
    pub(crate) fn random_swap<R: Rng + ?Sized>(
        &self,
        mover: Player,
        rng: &mut R,
    ) -> Option<(usize, usize)> {
        let mut drawn = None;
        self.drawn_swaps(mover, rng, 1, |p, q| drawn = Some((p, q)));
        drawn
    }

    /// Calls `f` with `draws` legal swaps of `mover`, each drawn uniformly and apart from
    /// the others like [`Tables::random_swap`] (one random number each, in the same order)
    /// but all from one scan; nothing when there is no swap.
    #[inline]
    pub(crate) fn drawn_swaps<R: Rng + ?Sized>(
        &self,
        mover: Player,
        rng: &mut R,
        draws: u32,
        f: impl FnMut(usize, usize),
    ) {
        let rank = |count| rng.random_range(0..count);
        // A network holds at least one piece: half the cells bound the mover's networks.
        match self {
            Tables::Narrow(kept) => kept.ranked_swaps::<32>(mover, draws, rank, f),
            Tables::Wide(kept) => kept.ranked_swaps::<128>(mover, draws, rank, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;

    /// The kept state equals the state computed afresh from the colours alone.
    fn assert_fresh<B: Bits + std::fmt::Debug, const C: usize>(kept: &Kept<B, C>) {
        let fresh: Kept<B, C> = Kept::new(kept.n, |i| kept.red.has(i));
        for cell in 0..kept.n * kept.n {
            assert_eq!(kept.network(cell), fresh.network(cell), "network of {cell}");
            assert!(kept.network(cell).has(kept.label(cell)), "label of {cell}");
        }
        assert_eq!(kept.terminal, fresh.terminal);
        assert_eq!((kept.foes2, kept.foes3), (fresh.foes2, fresh.foes3));
        assert_eq!(kept.corner, fresh.corner);
    }

    /// Plays random legal swaps from the checkerboard, checking the kept state each time.
    fn random_swaps_keep_the_tables<B: Bits + std::fmt::Debug, const C: usize, const G: usize>(
        n: usize,
        games: usize,
    ) {
        let mut rng = SmallRng::seed_from_u64(n as u64);
        for _ in 0..games {
            let mut kept: Kept<B, C> = Kept::new(n, |i| (i % n + i / n).is_multiple_of(2));
            let mut mover = Player::First;
            let mut passes = 0;
            while passes < 2 {
                let mut drawn = None;
                kept.ranked_swaps::<G>(
                    mover,
                    1,
                    |count| rng.random_range(0..count),
                    |p, q| drawn = Some((p, q)),
                );
                match drawn {
                    Some((p, q)) => {
                        let foreseen = kept.formed_network(p, q);
                        kept.swap(p, q);
                        assert_fresh(&kept);
                        assert_eq!(kept.network(q).count(), foreseen, "{p} to {q}");
                        ranks_locate_the_listed_swaps::<B, C, G>(&kept);
                        passes = 0;
                    }
                    None => passes += 1,
                }
                mover = mover.other();
            }
        }
    }

    /// Every rank locates a different legal swap, in the order of the listing.
    fn ranks_locate_the_listed_swaps<B: Bits, const C: usize, const G: usize>(kept: &Kept<B, C>) {
        for mover in Player::BOTH {
            let mut listed = Vec::new();
            let _ = kept.for_each_swap(&kept.scan(mover), |p, q| {
                listed.push((p, q));
                ControlFlow::Continue(())
            });
            let count = kept.swap_count(&kept.scan(mover));
            assert_eq!(count, listed.len() as u64);
            for (rank, &swap) in listed.iter().enumerate() {
                let mut located = Vec::new();
                kept.ranked_swaps::<G>(
                    mover,
                    2,
                    |c| {
                        assert_eq!(c, count);
                        rank as u64
                    },
                    |p, q| located.push((p, q)),
                );
                assert_eq!(located, [swap, swap], "rank {rank} of {count}");
            }
        }
    }

    #[test]
    fn swaps_keep_the_tables_as_computed_afresh_and_ranks_locate_every_swap_and_its_network() {
        for n in [4, 6, 8] {
            random_swaps_keep_the_tables::<u64, 64, 32>(n, 20);
        }
        for n in [10, 16] {
            random_swaps_keep_the_tables::<Wide, 256, 128>(n, 2);
        }
    }

    /// Each block's three other cells are its column step, row step and diagonal step.
    #[test]
    fn block_steps_name_the_blocks_cells() {
        for (k, &(bx, by)) in BLOCKS.iter().enumerate() {
            assert_eq!(
                BLOCK_STEPS[k].map(|d| STEPS[d]),
                [(bx, 0), (0, by), (bx, by)]
            );
            for &step in &STEPS {
                let held = [(bx, 0), (0, by), (bx, by)].contains(&step);
                assert_eq!(block_holds(k, step), held, "block {k}, step {step:?}");
            }
        }
    }
}
