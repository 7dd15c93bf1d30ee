//! Drawing a random legal move without listing the moves (for playouts).
//!
//! The distribution, in three stages:
//!
//! 1. The *kind* is drawn uniformly among the kinds the position offers: a placement, a
//!    growth, and (Red, while nobody has grown) a balanced growth.
//! 2. A placement is uniform over the legal placement cells.
//! 3. A growth is *proposed* group by group (groups in cell order of their first stone): each
//!    undecided group picks uniformly among "no growth" and its liberties still free (a
//!    liberty shared with another group decides both). Stones whose restriction fails are
//!    then dropped until none fails. A non-empty result is kept; an empty one is proposed
//!    again (a few times, then the first legal growth of an exhaustive search is taken, and a
//!    kind with no legal move at all is dropped from stage 1). A balanced growth adds a new
//!    group uniformly among the cells clear of the growth.
//!
//! Every legal move has a positive probability: any legal growth can be proposed as it is,
//! and a legal proposal is kept unchanged. The tests check this on small positions.

use std::ops::ControlFlow;

use rand::{Rng, RngExt};
use swapboard_core::Game;

use crate::turn::{SKIP, Search, Turn, UNSET};
use crate::{Scware, ScwareMove};

/// Proposals tried before the exhaustive search.
const PROPOSALS: usize = 8;

/// A random legal move of `pos` with the distribution of the module docs; `None` when the
/// game is over.
pub(crate) fn random_move<R: Rng + ?Sized>(pos: &Scware, rng: &mut R) -> Option<ScwareMove> {
    if pos.winner().is_some() {
        return None;
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
        for g in 0..turn.groups as u16 {
            if st.choice[usize::from(g)] != UNSET {
                continue;
            }
            let libs = turn.libs_of(g);
            let free = libs.iter().filter(|&&l| turn.can_choose(st, l)).count();
            let pick = rng.random_range(0..=free);
            match libs.iter().filter(|&&l| turn.can_choose(st, l)).nth(pick) {
                Some(&l) => turn.choose(st, l),
                None => st.choice[usize::from(g)] = SKIP,
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
