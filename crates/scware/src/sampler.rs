//! Drawing a random legal move without listing the moves (for playouts).
//!
//! The distribution, in three stages:
//!
//! 1. The *kind* is drawn uniformly among the kinds the position offers: a placement, a
//!    growth, and (Red, while nobody has grown) a balanced growth.
//! 2. A placement is uniform over the legal placement cells.
//! 3. A growth is *proposed*: each group independently picks uniformly among "no growth"
//!    and its liberties (leaving out liberties that can never be legal); a liberty shared by
//!    several groups is grown only if all of them picked it. Stones whose restriction fails
//!    are then dropped until none fails. A non-empty result is kept; an empty one is
//!    proposed again (a few times, then the first legal growth of an exhaustive search is
//!    taken, and a kind with no legal move at all is dropped from stage 1). A balanced
//!    growth adds a new group uniformly among the cells clear of the growth.
//!
//! Every legal move has a positive probability: any legal growth can be proposed as it is,
//! and a legal proposal is kept unchanged. The tests check this on small positions.

use std::ops::ControlFlow;

use rand::{Rng, RngExt};
use swapboard_core::Game;

use swapboard_core::{Stone, StoneBoard};
use swapboard_grid::{CellSet, MAILBOX_CAPACITY};

use crate::turn::{SKIP, Search, Turn, UNSET, between_cells};
use crate::union_find::{find, union};
use crate::{Scware, ScwareMove};
use swapboard_grid::bits::{Geometry, nth_bit};

/// Proposals tried before the exhaustive search.
const PROPOSALS: usize = 8;

/// A random legal move of `pos` with the distribution of the module docs; `None` when the
/// game is over.
pub(crate) fn random_move<R: Rng + ?Sized>(pos: &Scware, rng: &mut R) -> Option<ScwareMove> {
    if pos.winner().is_some() {
        return None;
    }
    if let Some(g) = Geometry::of(pos.size()) {
        if let Some(mv) = bit_move(pos, g, rng) {
            return Some(mv);
        }
    } else if !pos.balancing_available()
        && let Some(mv) = fast_move(pos, rng)
    {
        return Some(mv);
    }
    let turn = Turn::new(pos.board(), pos.to_move());
    let sq = pos.board().square();
    let cell = |s: u16| sq.cell_at(usize::from(s)).expect("on the board");
    let has_libs = (0..turn.groups).any(|g| !turn.libs_of(g as u16).is_empty());
    let has_placements = !turn.placements.is_empty();
    let mut kinds = [
        has_placements,
        has_libs,
        has_libs && has_placements && pos.balancing_available(),
    ];
    let mut st = turn.search();
    loop {
        let open = kinds.iter().filter(|&&k| k).count();
        if open == 0 {
            break;
        }
        let pick = rng.random_range(0..open);
        let kind = (0..3).filter(|&k| kinds[k]).nth(pick).expect("pick < open");
        if kind == 0 {
            let p = turn.placements[rng.random_range(0..turn.placements.len())];
            return Some(ScwareMove::single(cell(p)));
        }
        let balanced = kind == 2;
        if let Some(mv) = sample_growth(&turn, &mut st, rng, balanced) {
            return Some(mv);
        }
        kinds[kind] = false;
    }
    if pos.can_move(pos.to_move().other()) {
        Some(ScwareMove::Pass)
    } else {
        None
    }
}

fn reset(st: &mut Search) {
    st.choice.fill(UNSET);
    st.cells = Default::default();
    st.chosen = 0;
}

/// A new-group cell clear of the chosen growth, uniformly, if there is one.
fn new_group_cell<R: Rng + ?Sized>(turn: &Turn, st: &Search, rng: &mut R) -> Option<u16> {
    let clear = |p: &&u16| !turn.near_new_stone(st, usize::from(**p));
    let n = turn.placements.iter().filter(clear).count();
    if n == 0 {
        return None;
    }
    turn.placements
        .iter()
        .filter(clear)
        .nth(rng.random_range(0..n))
        .copied()
}

fn sample_growth<R: Rng + ?Sized>(
    turn: &Turn,
    st: &mut Search,
    rng: &mut R,
    balanced: bool,
) -> Option<ScwareMove> {
    let sq = turn.square;
    let finish = |st: &Search, p: Option<u16>| match p {
        Some(p) => {
            ScwareMove::balanced(st.cells, sq.cell_at(usize::from(p)).expect("on the board"))
        }
        None => ScwareMove::growth(st.cells),
    };
    for _ in 0..PROPOSALS {
        reset(st);
        // Each group picks independently; a liberty is grown when every group it touches
        // picked it.
        let picks: Vec<u16> = (0..turn.groups as u16)
            .map(|g| {
                let libs = turn.libs_of(g);
                match rng.random_range(0..=libs.len()) {
                    0 => SKIP,
                    i => libs[i - 1],
                }
            })
            .collect();
        for (g, &lib) in picks.iter().enumerate() {
            if lib != SKIP
                && turn.libs[usize::from(lib)].owner() == g as u16
                && turn.libs[usize::from(lib)]
                    .groups()
                    .iter()
                    .all(|&h| picks[usize::from(h)] == lib)
            {
                turn.choose(st, lib);
            }
        }
        for c in st.choice.iter_mut() {
            if *c == UNSET {
                *c = SKIP;
            }
        }
        turn.prune(st);
        if st.chosen == 0 {
            continue;
        }
        if !balanced {
            return Some(finish(st, None));
        }
        if let Some(p) = new_group_cell(turn, st, rng) {
            return Some(finish(st, Some(p)));
        }
    }
    // Rare: the proposals kept failing. Take the first legal growth of a full search.
    reset(st);
    let mut found = None;
    let _ = turn.walk(st, 0, turn.order.len(), &mut |st| {
        if st.chosen == 0 {
            return ControlFlow::Continue(());
        }
        if !balanced {
            found = Some(finish(st, None));
            return ControlFlow::Break(());
        }
        match new_group_cell(turn, st, rng) {
            Some(p) => {
                found = Some(finish(st, Some(p)));
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    });
    found
}

/// Most groups a valid board can hold (groups stand at least two cells apart).
const MAX_GROUPS: usize = 255;

/// Group labels (1, 2, ...; 0 for none) of `own` stones by slot, and their number, or
/// `None` if there are more than [`MAX_GROUPS`].
fn label_groups(
    board: &StoneBoard,
    own: Stone,
    label: &mut [u8; MAILBOX_CAPACITY],
) -> Option<usize> {
    let sq = board.square();
    let orth = sq.orthogonal();
    let mut stack = [0u16; MAILBOX_CAPACITY];
    let mut groups = 0usize;
    for s in sq.slots() {
        if board.get(s) != own || label[s] != 0 {
            continue;
        }
        groups += 1;
        if groups > MAX_GROUPS {
            return None;
        }
        label[s] = groups as u8;
        stack[0] = s as u16;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let t = usize::from(stack[top]);
            for d in orth {
                let n = t.wrapping_add_signed(d);
                if board.get(n) == own && label[n] == 0 {
                    label[n] = groups as u8;
                    stack[top] = n as u16;
                    top += 1;
                }
            }
        }
    }
    Some(groups)
}

/// The distinct group labels next to `slot` (zeros after them).
#[inline]
fn touching(label: &[u8; MAILBOX_CAPACITY], orth: [isize; 4], slot: usize) -> [u8; 4] {
    let mut out = [0u8; 4];
    let mut n = 0;
    for d in orth {
        let g = label[slot.wrapping_add_signed(d)];
        if g != 0 && !out[..n].contains(&g) {
            out[n] = g;
            n += 1;
        }
    }
    out
}

/// The same distribution as the general path (placements and plain growths only), on
/// fixed-size scratch arrays: no allocation, one scan of the board. `None` when the
/// general path must decide (no proposal gave a growth, or an unusual board).
fn fast_move<R: Rng + ?Sized>(pos: &Scware, rng: &mut R) -> Option<ScwareMove> {
    let board = pos.board();
    let sq = board.square();
    let (orth, diag, stride) = (sq.orthogonal(), sq.diagonal(), sq.stride());
    let own = Stone::of(pos.to_move());
    let enemy = Stone::of(pos.to_move().other());
    let mut label = [0u8; MAILBOX_CAPACITY];
    let groups = label_groups(board, own, &mut label)?;

    // Placement cells and the liberties that can ever be grown.
    let mut libs = [0u16; MAILBOX_CAPACITY];
    let mut placements = [0u16; MAILBOX_CAPACITY];
    let (mut nlibs, mut nplace) = (0, 0);
    for s in sq.slots() {
        if board.get(s) != Stone::Empty {
            continue;
        }
        let adj = touching(&label, orth, s);
        if adj[0] == 0 {
            if diag
                .iter()
                .all(|&d| board.get(s.wrapping_add_signed(d)) != own)
            {
                placements[nplace] = s as u16;
                nplace += 1;
            }
            continue;
        }
        let dead = diag.iter().any(|&d| {
            let n = s.wrapping_add_signed(d);
            let g = label[n];
            g != 0
                && !adj.contains(&g)
                && between_cells(s, n, stride)
                    .iter()
                    .all(|&b| board.get(b) == enemy)
        });
        if !dead {
            libs[nlibs] = s as u16;
            nlibs += 1;
        }
    }
    let kinds = usize::from(nplace > 0) + usize::from(nlibs > 0);
    if kinds == 0 {
        return None;
    }
    let cell = |s: u16| sq.cell_at(usize::from(s)).expect("on the board");
    if nplace > 0 && (nlibs == 0 || rng.random_range(0..2) == 0) {
        return Some(ScwareMove::single(cell(
            placements[rng.random_range(0..nplace)],
        )));
    }

    let mut pick = [0u16; MAX_GROUPS + 1];
    let mut options = [0u16; MAX_GROUPS + 1];
    let mut parent = [0u8; MAX_GROUPS + 1];
    let mut chosen = [0u16; MAX_GROUPS + 1];
    let mut new = [false; MAILBOX_CAPACITY];
    let rep = |s: usize| touching(&label, orth, s)[0];
    for _ in 0..PROPOSALS {
        // Each group picks uniformly among "no growth" and its liberties (reservoir).
        for g in 1..=groups {
            pick[g] = 0;
            options[g] = 1;
        }
        for &x in &libs[..nlibs] {
            for g in touching(&label, orth, usize::from(x)) {
                if g == 0 {
                    break;
                }
                let g = usize::from(g);
                options[g] += 1;
                if rng.random_range(0..options[g]) == 0 {
                    pick[g] = x;
                }
            }
        }
        let mut n = 0;
        for &x in &libs[..nlibs] {
            let adj = touching(&label, orth, usize::from(x));
            if adj
                .iter()
                .take_while(|&&g| g != 0)
                .all(|&g| pick[usize::from(g)] == x)
            {
                chosen[n] = x;
                n += 1;
                new[usize::from(x)] = true;
            }
        }
        // Drop stones breaking the restriction until none does.
        loop {
            for (g, p) in parent.iter_mut().enumerate().take(groups + 1) {
                *p = g as u8;
            }
            for &x in &chosen[..n] {
                let x = usize::from(x);
                let adj = touching(&label, orth, x);
                for &g in adj.iter().skip(1).take_while(|&&g| g != 0) {
                    union(&mut parent, adj[0], g);
                }
                for d in orth {
                    let y = x.wrapping_add_signed(d);
                    if new[y] {
                        union(&mut parent, adj[0], rep(y));
                    }
                }
            }
            let before = n;
            let mut i = 0;
            while i < n {
                let x = usize::from(chosen[i]);
                let rx = find(&mut parent, rep(x));
                let broken = diag.iter().any(|&d| {
                    let y = x.wrapping_add_signed(d);
                    let other = if new[y] { rep(y) } else { label[y] };
                    other != 0 && find(&mut parent, other) != rx
                });
                if broken {
                    new[x] = false;
                    n -= 1;
                    chosen[i] = chosen[n];
                } else {
                    i += 1;
                }
            }
            if n == before {
                break;
            }
        }
        if n > 0 {
            let cells: CellSet = chosen[..n].iter().map(|&x| cell(x)).collect();
            return Some(ScwareMove::growth(cells));
        }
    }
    None
}

/// The stone of `x` drawn uniformly, alone (`x` not empty).
fn draw_bit<R: Rng + ?Sized>(x: u128, rng: &mut R) -> u128 {
    nth_bit(x, rng.random_range(0..x.count_ones()))
}

/// The move of `cells` (bits of geometry `g`).
fn cells_of(g: Geometry, mut x: u128) -> CellSet {
    let mut cells = CellSet::new();
    while x != 0 {
        cells.insert(g.lowest_cell(x));
        x &= x - 1;
    }
    cells
}

/// The distribution of the module docs on bitboards (boards up to 11 x 11): every stage is
/// a handful of word operations per group, nothing is allocated. `None` when the general
/// path must decide (no proposal gave a move of the drawn kind, or no kind is open).
fn bit_move<R: Rng + ?Sized>(pos: &Scware, g: Geometry, rng: &mut R) -> Option<ScwareMove> {
    let mover = pos.to_move();
    let own = pos.stones(mover);
    let enemy = pos.stones(mover.other());
    let empty = g.board & !(own | enemy);
    let placements = empty & !g.king(own);

    // Groups, and the cells where a new stone could never join a diagonal own stone's
    // group: across two enemy stones (see `Turn::dead`).
    let mut groups = [0u128; MAX_BIT_GROUPS];
    let mut count = 0;
    let mut rest = own;
    while rest != 0 {
        let group = g.flood(rest & rest.wrapping_neg(), own);
        rest &= !group;
        groups[count] = group;
        count += 1;
    }
    let groups = &groups[..count];
    let enemy_up = g.below(enemy);
    let enemy_down = g.above(enemy);
    let enemy_left = g.right_of(enemy);
    let enemy_right = g.left_of(enemy);
    let across = [
        enemy_up & enemy_right,
        enemy_up & enemy_left,
        enemy_down & enemy_right,
        enemy_down & enemy_left,
    ];
    let mut dead = 0u128;
    if (across[0] | across[1] | across[2] | across[3]) & empty != 0 {
        for &group in groups {
            let diagonal = g.diagonals(group);
            let far = (0..4).fold(0, |d, i| d | (diagonal[i] & across[i]));
            dead |= far & empty & !g.orthogonal(group);
        }
    }
    let growable = g.orthogonal(own) & empty & !dead;

    let balanced = growable != 0 && placements != 0 && pos.balancing_available();
    let kinds = u32::from(placements != 0) + u32::from(growable != 0) + u32::from(balanced);
    if kinds == 0 {
        return None;
    }
    let mut kind = rng.random_range(0..kinds);
    if placements != 0 {
        if kind == 0 {
            return Some(ScwareMove::single(g.lowest_cell(draw_bit(placements, rng))));
        }
        kind -= 1;
    }
    let balanced = kind == 1;
    for _ in 0..PROPOSALS {
        // Each group picks uniformly among "no growth" and its liberties; a liberty grows
        // when no group touching it picked another.
        let mut picked = 0u128;
        let mut vetoed = 0u128;
        for &group in groups {
            let libs = g.orthogonal(group) & empty;
            let options = libs & !dead;
            let pick = match rng.random_range(0..=options.count_ones()) {
                0 => 0,
                i => nth_bit(options, i - 1),
            };
            picked |= pick;
            vetoed |= libs & !pick;
        }
        let mut new = picked & !vetoed;
        // Drop the stones breaking the restriction until none does. A stone can only break
        // it with a diagonal own stone sharing no own orthogonal neighbour with it; it keeps
        // it when the flood of its group after the move reaches that stone.
        loop {
            let after = own | new;
            let up = g.below(after);
            let down = g.above(after);
            let left = g.right_of(after);
            let right = g.left_of(after);
            let diagonal = g.diagonals(after);
            let lonely = [
                diagonal[0] & !up & !right,
                diagonal[1] & !up & !left,
                diagonal[2] & !down & !right,
                diagonal[3] & !down & !left,
            ];
            let mut suspects = new & (lonely[0] | lonely[1] | lonely[2] | lonely[3]);
            if suspects == 0 {
                break;
            }
            let mut broken = 0u128;
            while suspects != 0 {
                let joined = g.flood(suspects & suspects.wrapping_neg(), after);
                suspects &= !joined;
                let reach = g.diagonals(joined);
                for i in 0..4 {
                    broken |= new & joined & lonely[i] & !reach[i];
                }
            }
            if broken == 0 {
                break;
            }
            new &= !broken;
        }
        if new == 0 {
            continue;
        }
        if !balanced {
            return Some(ScwareMove::growth(cells_of(g, new)));
        }
        let clear = placements & !g.king(new);
        if clear != 0 {
            let cell = g.lowest_cell(draw_bit(clear, rng));
            return Some(ScwareMove::balanced(cells_of(g, new), cell));
        }
    }
    None
}

/// Most groups an 11 x 11 board can hold (groups are never 8-adjacent: at most one per
/// 2 x 2 block of a 12 x 12 tiling, 36).
const MAX_BIT_GROUPS: usize = 36;
