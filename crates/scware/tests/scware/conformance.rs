//! Scware and its step decomposition in the shared conformance suite.

use swapboard_conformance::Suite;
use swapboard_core::{Game, Player, Stone, StoneBoard};
use swapboard_grid::{Cell, CellSet};
use swapboard_scware::{Scware, ScwareMove, ScwareStep, ScwareSteps};

/// Group labels of a player's stones (by cell), computed by a plain flood fill.
fn groups(board: &StoneBoard, player: Player) -> Vec<Option<usize>> {
    let n = board.size();
    let own = Stone::of(player);
    let mut label = vec![None; n * n];
    let idx = |c: Cell| usize::from(c.row()) * n + usize::from(c.col());
    let mut next = 0;
    for start in board.square().cells() {
        if board.at(start) != own || label[idx(start)].is_some() {
            continue;
        }
        let mut stack = vec![start];
        label[idx(start)] = Some(next);
        while let Some(c) = stack.pop() {
            for (dc, dr) in [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)] {
                let (col, row) = (c.col() as i8 + dc, c.row() as i8 + dr);
                if col < 0 || row < 0 || col as usize >= n || row as usize >= n {
                    continue;
                }
                let m = Cell::new(col as u8, row as u8);
                if board.at(m) == own && label[idx(m)].is_none() {
                    label[idx(m)] = Some(next);
                    stack.push(m);
                }
            }
        }
        next += 1;
    }
    label
}

/// The restriction for both players, every group of one stone while nobody has grown, and
/// the sheet's note: no empty cell touches three or more groups of one player.
fn invariant(pos: &Scware) -> Result<(), String> {
    let board = pos.board();
    let n = board.size();
    for p in Player::BOTH {
        let label = groups(board, p);
        let at = |c: i8, r: i8| -> Option<usize> {
            if c < 0 || r < 0 || c as usize >= n || r as usize >= n {
                None
            } else {
                label[r as usize * n + c as usize]
            }
        };
        for c in 0..n as i8 {
            for r in 0..n as i8 {
                if let (Some(a), Some(b)) = (at(c, r), at(c + 1, r + 1))
                    && a != b
                {
                    return Err(format!(
                        "diagonal stones in different groups at column {c}, row {r}"
                    ));
                }
                if let (Some(a), Some(b)) = (at(c + 1, r), at(c, r + 1))
                    && a != b
                {
                    return Err(format!(
                        "anti-diagonal stones in different groups at column {c}, row {r}"
                    ));
                }
                if !pos.grown()
                    && at(c, r).is_some()
                    && (at(c + 1, r).is_some() || at(c, r + 1).is_some())
                {
                    return Err("a group of two stones while nobody has grown".into());
                }
                if board.at(Cell::new(c as u8, r as u8)) == Stone::Empty {
                    let mut touching: Vec<usize> = [(0, 1), (1, 0), (0, -1), (-1, 0)]
                        .iter()
                        .filter_map(|&(dc, dr)| at(c + dc, r + dr))
                        .collect();
                    touching.sort_unstable();
                    touching.dedup();
                    if touching.len() > 2 {
                        return Err("an empty cell touches three groups".into());
                    }
                }
            }
        }
    }
    Ok(())
}

fn liberties(pos: &Scware) -> Vec<Cell> {
    let board = pos.board();
    let own = Stone::of(pos.to_move());
    board
        .square()
        .cells()
        .filter(|&c| {
            board.at(c) == Stone::Empty && {
                let s = board.square().slot(c);
                board
                    .square()
                    .orthogonal()
                    .iter()
                    .any(|&d| board.get(s.wrapping_add_signed(d)) == own)
            }
        })
        .collect()
}

/// Every single cell, pass, and (when there are few liberties) every subset of liberties,
/// each also with every new-group cell while balancing is open.
fn candidates(pos: &Scware) -> Vec<ScwareMove> {
    let cells: Vec<Cell> = pos.board().square().cells().collect();
    let mut out: Vec<ScwareMove> = cells.iter().map(|&c| ScwareMove::single(c)).collect();
    out.push(ScwareMove::Pass);
    let libs = liberties(pos);
    if libs.len() <= 8 {
        for mask in 1u32..(1 << libs.len()) {
            let set: CellSet = (0..libs.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| libs[i])
                .collect();
            out.push(ScwareMove::growth(set));
            if !pos.grown() && mask.count_ones() <= 2 {
                for &p in &cells {
                    if !set.contains(p) {
                        out.push(ScwareMove::balanced(set, p));
                    }
                }
            }
        }
    }
    out
}

fn step_candidates(pos: &ScwareSteps) -> Vec<ScwareStep> {
    let mut out = vec![ScwareStep::Skip, ScwareStep::Done, ScwareStep::Pass];
    for c in pos.position().board().square().cells() {
        out.push(pos.parse_move(&c.to_string()).unwrap());
        out.push(ScwareStep::NewGroup(c));
    }
    out
}

fn seeds() -> Vec<Scware> {
    let mut v: Vec<Scware> = (3..=5).map(|n| Scware::start(n).unwrap()).collect();
    for text in [
        // The knight's move of the sheet, and two groups sharing a liberty.
        "scware ...../..W../...../.W.../..... W -",
        "scware ...../...../.W.W./...../..... W g",
        // Red to move while nobody has grown: the balancing move is open.
        "scware ...../.R.../..W../...R./W.... R -",
    ] {
        v.push(text.parse().unwrap());
    }
    v
}

#[test]
fn scware_passes_the_conformance_suite() {
    Suite {
        positions: seeds(),
        candidates,
        invariant,
        playouts: 25,
        max_plies: 200,
        must_end: true,
        seed: 2012,
    }
    .run();
}

#[test]
fn scware_steps_pass_the_conformance_suite() {
    Suite::<ScwareSteps> {
        positions: seeds()
            .iter()
            .map(swapboard_core::Stepwise::to_steps)
            .collect(),
        candidates: step_candidates,
        invariant: |s| invariant(s.position()),
        playouts: 25,
        max_plies: 400,
        must_end: true,
        seed: 2013,
    }
    .run();
}
