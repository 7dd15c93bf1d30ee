//! Exact counting on the hard cases: crowded boards where many groups interact, and
//! lattices of single stones whose shared liberties couple every group.

use std::collections::HashMap;
use std::ops::ControlFlow;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, Stone};
use swapboard_grid::Cell;
use swapboard_scware::{Scware, ScwareMove};

fn listed(pos: &Scware) -> u64 {
    let mut n = 0u64;
    let _ = pos.for_each_move(|_| {
        n += 1;
        ControlFlow::Continue(())
    });
    n
}

/// A lattice of single `W` stones two cells apart on an `n` x `n` board (`n` odd).
fn lattice(n: usize) -> Scware {
    let stones: String = (0..n).map(|c| if c % 2 == 1 { 'W' } else { '.' }).collect();
    let gap = ".".repeat(n);
    let rows: Vec<&str> = (0..n)
        .map(|r| if r % 2 == 0 { &stones[..] } else { &gap[..] })
        .collect();
    format!("scware {} W g", rows.join("/")).parse().unwrap()
}

/// The growths of a position where no restriction can bite (every diagonal pair of a new
/// stone and an own stone shares an own orthogonal neighbour), counted independently of
/// the engine: liberties in cell order, each taken or not, memoised on the groups already
/// grown that later liberties still touch.
fn matchings(pos: &Scware) -> u64 {
    let board = pos.board();
    let sq = board.square();
    let own = Stone::of(pos.to_move());
    let stones: Vec<Cell> = sq.cells().filter(|&c| board.at(c) == own).collect();
    let near = |a: Cell, b: Cell| a.is_orthogonal(b);
    let libs: Vec<u64> = sq
        .cells()
        .filter(|&c| board.at(c) == Stone::Empty)
        .map(|c| {
            stones
                .iter()
                .enumerate()
                .filter(|&(_, &s)| near(c, s))
                .fold(0u64, |m, (i, _)| m | 1 << i)
        })
        .filter(|&m| m != 0)
        .collect();
    let mut later = vec![0u64; libs.len() + 1];
    for i in (0..libs.len()).rev() {
        later[i] = later[i + 1] | libs[i];
    }
    fn go(
        i: usize,
        used: u64,
        libs: &[u64],
        later: &[u64],
        memo: &mut HashMap<(usize, u64), u64>,
    ) -> u64 {
        if i == libs.len() {
            return 1;
        }
        let used = used & later[i];
        if let Some(&n) = memo.get(&(i, used)) {
            return n;
        }
        let mut n = go(i + 1, used, libs, later, memo);
        if used & libs[i] == 0 {
            n += go(i + 1, used | libs[i], libs, later, memo);
        }
        memo.insert((i, used), n);
        n
    }
    go(0, 0, &libs, &later, &mut HashMap::new()) - 1
}

#[test]
fn lattices_count_exactly() {
    for n in [5, 7, 9] {
        let pos = lattice(n);
        let placements = pos.move_counts().placements as u64;
        if n < 9 {
            assert_eq!(pos.move_count(), listed(&pos), "{pos}");
        }
        assert_eq!(pos.move_count(), matchings(&pos) + placements, "{pos}");
    }
    // The 11 x 11 lattice of 30 stones: too many moves to list in a test (the former
    // leaf-by-leaf count took 4.5 minutes to find 5,815,019,012).
    let pos = lattice(11);
    let placements = pos.move_counts().placements as u64;
    assert_eq!(pos.move_count(), 5_815_019_012);
    assert_eq!(pos.move_count(), matchings(&pos) + placements);
}

/// Crowded positions: random games that start many groups before growing, so most
/// groups interact through shared liberties and the restriction.
fn crowded(seed: u64, size: usize, plies: usize, grow_after: usize) -> Vec<Scware> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Scware::start(size).unwrap();
    let mut out = Vec::new();
    for ply in 0..plies {
        if pos.is_over() {
            break;
        }
        // Placements: empty cells with no own stone among their 8 neighbours.
        let single: Vec<ScwareMove> = if ply < grow_after {
            let own = Stone::of(pos.to_move());
            let sq = pos.board().square();
            sq.cells()
                .filter(|&c| {
                    let s = sq.slot(c);
                    pos.board().get(s) == Stone::Empty
                        && sq
                            .king()
                            .iter()
                            .all(|&d| pos.board().get(s.wrapping_add_signed(d)) != own)
                })
                .map(ScwareMove::single)
                .collect()
        } else {
            Vec::new()
        };
        let mv = if single.is_empty() {
            pos.random_move(&mut rng).unwrap()
        } else {
            single[rng.random_range(0..single.len())]
        };
        pos.play_unchecked(&mv);
        out.push(pos.clone());
    }
    out
}

/// Positions with at most this many moves are listed to check the count: listing runs
/// about ten times slower without full optimisation, so debug builds list fewer.
fn listing_budget() -> u128 {
    if cfg!(debug_assertions) {
        30_000
    } else {
        100_000
    }
}

#[test]
fn crowded_positions_count_as_they_list() {
    let mut big = 0;
    let mut balanced = 0;
    for seed in 0..4u64 {
        for (size, grow_after) in [(9, 30), (11, 44)] {
            for pos in crowded(seed, size, grow_after + 12, grow_after) {
                let counts = pos.move_counts();
                if counts.total() > listing_budget() {
                    continue;
                }
                assert_eq!(u128::from(listed(&pos)), counts.total(), "{pos}");
                big += usize::from(counts.growths > listing_budget() / 10);
                balanced += usize::from(counts.balanced > 0);
            }
        }
    }
    assert!(big > 10, "only {big} positions with many growths");
    assert!(
        balanced > 5,
        "only {balanced} positions with balanced growths"
    );
}
