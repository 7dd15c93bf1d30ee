//! The move builder's answer to one click on Scware's crowded positions: the bench position
//! of `crates/scware` (11x11, 3,095,424 legal moves) and a crowded 26x26 board, both at
//! their most expensive click (a growth that can go on, so that every empty cell is
//! checked as a next cell), and their answers before any click (the cells that start a move).
//!
//! `cargo bench -p swapboard-play`. Figures and the machine are in docs/PERFORMANCE.md.

use std::hint::black_box;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::Game;
use swapboard_play::{Build, Selection};
use swapboard_scware::{Scware, ScwareMove};

fn main() {
    divan::main();
}

/// The crowded 11x11 position of `crates/scware/benches/scware.rs`.
const CROWDED: &str = "scware ..WR.R.RWW./...R.....W./WWWR.W.R..R/......RRW../.RW..W..WW./.R......R../\
                       .RW..RWRR../.RW......../.....R..R../.W.W....R.W/WWR..W....R W g";

/// A 26x26 board after 240 random placements (growths skipped, so that the board fills
/// evenly and nobody has won), then with the growth flag set (the text's last field), so
/// that growths are legal.
fn crowded_26() -> Scware {
    let mut p = Scware::start(26).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut placed = 0;
    while placed < 240 {
        let m = p.random_move(&mut rng).expect("a move");
        if matches!(&m, ScwareMove::Stones { cells, new_group: None } if cells.len() == 1) {
            p.play_unchecked(&m);
            placed += 1;
        }
    }
    let text = p.to_string();
    let grown = format!("{} g", text.rsplit_once(' ').expect("a flag field").0);
    let grown: Scware = grown.parse().expect("a position with the flag set");
    assert!(grown.outcome().is_none(), "{grown}");
    grown
}

/// The first cell of a growth with the most next cells, among a thousand random moves:
/// the costliest click there is.
fn costliest_click(p: &Scware) -> Selection {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut best = (0, Selection::default());
    for _ in 0..1_000 {
        if let Some(ScwareMove::Stones { cells, .. }) = p.random_move(&mut rng)
            && cells.len() > 1
        {
            let first = Selection {
                cells: vec![cells.iter().next().expect("a cell")],
                split: None,
            };
            let n = p.draft(&first).next.len();
            if n > best.0 {
                best = (n, first);
            }
        }
    }
    assert!(best.0 > 0, "a growth that can go on");
    best.1
}

#[divan::bench]
fn click_crowded_11x11(bencher: divan::Bencher) {
    let p: Scware = CROWDED.parse().unwrap();
    let click = costliest_click(&p);
    bencher.bench_local(|| black_box(p.draft(black_box(&click))));
}

#[divan::bench]
fn click_crowded_26x26(bencher: divan::Bencher) {
    let p = crowded_26();
    let click = costliest_click(&p);
    bencher.bench_local(|| black_box(p.draft(black_box(&click))));
}

/// The answer before any click on the crowded 11x11 position: every cell that can start a
/// move, each liberty checked for a legal growth holding it.
#[divan::bench]
fn open_crowded_11x11(bencher: divan::Bencher) {
    let p: Scware = CROWDED.parse().unwrap();
    bencher.bench_local(|| black_box(p.draft(black_box(&Selection::default()))));
}

/// The answer before any click on the crowded 26x26 board.
#[divan::bench]
fn open_crowded_26x26(bencher: divan::Bencher) {
    let p = crowded_26();
    bencher.bench_local(|| black_box(p.draft(black_box(&Selection::default()))));
}
