//! Benchmarks of the Swaptimum engine: random games, move listing, perft.
//!
//! `cargo bench -p swapboard-swaptimum`. Figures and the machine are in docs/PERFORMANCE.md.

use std::hint::black_box;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_conformance::{play_out, random_position};
use swapboard_core::{Game, perft};
use swapboard_swaptimum::Swaptimum;

fn main() {
    divan::main();
}

/// One whole random game on 9x9 (about 75 plies): the playout of the AI.
#[divan::bench]
fn random_game_9x9(bencher: divan::Bencher) {
    let start = Swaptimum::start(9).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    bencher.bench_local(|| {
        let mut p = start.clone();
        black_box(play_out(&mut p, &mut rng))
    });
}

/// Listing every legal move of a 19x19 position 150 plies into a random game.
#[divan::bench]
fn moves_19x19_midgame(bencher: divan::Bencher) {
    let p = random_position(&Swaptimum::start(19).unwrap(), 150, 7);
    let mut buf = Vec::with_capacity(512);
    bencher.bench_local(|| {
        p.fill_moves(&mut buf);
        black_box(buf.len())
    });
}

/// Perft 4 from the empty 5x5 board (303,984 nodes).
#[divan::bench]
fn perft_5x5_depth_4() {
    let p = Swaptimum::start(5).unwrap();
    assert_eq!(perft(black_box(&p), 4), 303_984);
}
