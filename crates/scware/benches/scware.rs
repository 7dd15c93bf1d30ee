//! Benchmarks of the Scware engine: random playouts on 11x11, exact move counting on a
//! crowded position, the lazy enumeration, and perft.
//!
//! `cargo bench -p swapboard-scware`. Figures and the machine are in docs/PERFORMANCE.md.

use std::hint::black_box;
use std::ops::ControlFlow;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, perft};
use swapboard_scware::Scware;

fn main() {
    divan::main();
}

/// A crowded 11x11 middle game (44 placements of a random game, then marked grown): 3,095,424
/// legal moves, most of the White groups in one interacting component.
const CROWDED: &str = "scware ..WR.R.RWW./...R.....W./WWWR.W.R..R/......RRW../.RW..W..WW./.R......R../\
                       .RW..RWRR../.RW......../.....R..R../.W.W....R.W/WWR..W....R W g";

/// One whole random game on 11x11 from the empty board.
#[divan::bench]
fn random_game_11x11(bencher: divan::Bencher) {
    let start = Scware::start(11).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    bencher.bench_local(|| {
        let mut p = start.clone();
        let mut plies = 0u32;
        while let Some(m) = p.random_move(&mut rng) {
            p.play_unchecked(&m);
            plies += 1;
        }
        black_box(plies)
    });
}

/// The exact number of legal moves of the crowded position, without listing them.
#[divan::bench]
fn count_crowded_11x11(bencher: divan::Bencher) {
    let p: Scware = CROWDED.parse().unwrap();
    bencher.bench_local(|| assert_eq!(black_box(&p).move_count(), 3_095_424));
}

/// A lattice of 30 single White stones two cells apart on 11x11: every group shares
/// liberties with its neighbours (5,815,019,012 moves).
const LATTICE: &str = "scware .W.W.W.W.W./.........../.W.W.W.W.W./.........../.W.W.W.W.W./\
                       .........../.W.W.W.W.W./.........../.W.W.W.W.W./.........../.W.W.W.W.W. W g";

/// The exact number of legal moves of the lattice, without listing them.
#[divan::bench]
fn count_lattice_11x11(bencher: divan::Bencher) {
    let p: Scware = LATTICE.parse().unwrap();
    bencher.bench_local(|| assert_eq!(black_box(&p).move_count(), 5_815_019_012));
}

/// Listing (and dropping) the first million moves of the crowded position lazily.
#[divan::bench]
fn enumerate_a_million_crowded_11x11(bencher: divan::Bencher) {
    let p: Scware = CROWDED.parse().unwrap();
    bencher.bench_local(|| {
        let mut n = 0u32;
        let _ = black_box(&p).for_each_move(|m| {
            black_box(m);
            n += 1;
            if n == 1_000_000 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        n
    });
}

/// Perft 4 from the empty 5x5 board (688,352 nodes).
#[divan::bench]
fn perft_5x5_depth_4() {
    let p = Scware::start(5).unwrap();
    assert_eq!(perft(black_box(&p), 4), 688_352);
}
