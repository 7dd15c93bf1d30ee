//! Benchmarks of the Flipstop engine: random games, move listing (alone and with the moves'
//! priors, as a search expands a node), perft.
//!
//! `cargo bench -p swapboard-flipstop`. Figures and the machine are in docs/PERFORMANCE.md.

use std::hint::black_box;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_conformance::{play_out, random_position};
use swapboard_core::{Game, perft};
use swapboard_flipstop::Flipstop;

fn main() {
    divan::main();
}

/// One whole random game on 9x9 (about 74 plies): the playout of the AI.
#[divan::bench]
fn random_game_9x9(bencher: divan::Bencher) {
    let start = Flipstop::start(9).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    bencher.bench_local(|| {
        let mut p = start.clone();
        black_box(play_out(&mut p, &mut rng))
    });
}

/// Listing every legal move of a 19x19 position 150 plies into a random game.
#[divan::bench]
fn moves_19x19_midgame(bencher: divan::Bencher) {
    let p = random_position(&Flipstop::start(19).unwrap(), 150, 7);
    let mut buf = Vec::with_capacity(512);
    bencher.bench_local(|| {
        p.fill_moves(&mut buf);
        black_box(buf.len())
    });
}

/// A 9x9 position 40 plies into a random game: a middle game, as a search meets them.
fn midgame_9x9() -> Flipstop {
    random_position(&Flipstop::start(9).unwrap(), 40, 7)
}

/// Listing every legal move of a 9x9 middle game with its prior in one pass, as a search
/// weighing priors expands a node.
#[divan::bench]
fn moves_with_priors_9x9_midgame(bencher: divan::Bencher) {
    let p = midgame_9x9();
    let (mut moves, mut priors) = (Vec::with_capacity(128), Vec::with_capacity(128));
    bencher.bench_local(|| {
        p.fill_moves_with_priors(&mut moves, &mut priors);
        black_box(priors.len())
    });
}

/// The same moves and priors asked for one by one (`fill_moves`, then `move_prior` of each
/// move): what the default hook does, and what a search did before Flipstop's own hook.
#[divan::bench]
fn moves_then_each_prior_9x9_midgame(bencher: divan::Bencher) {
    let p = midgame_9x9();
    let (mut moves, mut priors) = (Vec::with_capacity(128), Vec::with_capacity(128));
    bencher.bench_local(|| {
        p.fill_moves(&mut moves);
        priors.clear();
        priors.extend(moves.iter().map(|mv| p.move_prior(mv)));
        black_box(priors.len())
    });
}

/// Perft 4 from the empty 5x5 board (303,600 nodes).
#[divan::bench]
fn perft_5x5_depth_4() {
    let p = Flipstop::start(5).unwrap();
    assert_eq!(perft(black_box(&p), 4), 303_600);
}
