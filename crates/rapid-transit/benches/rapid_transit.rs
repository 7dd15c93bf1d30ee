//! Rapid Transit benchmarks: move generation, random plies and perft from the start.

use std::ops::ControlFlow;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, perft};
use swapboard_rapid_transit::RapidTransit;

fn main() {
    divan::main();
}

/// A position 10 random plies into a game (seed fixed), where networks have grown.
fn midgame() -> RapidTransit {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut pos = RapidTransit::start(8).expect("8x8 is the game");
    for _ in 0..10 {
        let Some(mv) = pos.random_move(&mut rng) else {
            break;
        };
        pos.play_unchecked(&mv);
    }
    pos
}

#[divan::bench]
fn count_moves_start() -> u64 {
    let pos = RapidTransit::start(8).expect("8x8 is the game");
    divan::black_box(&pos).move_count()
}

#[divan::bench]
fn list_moves_midgame(bencher: divan::Bencher) {
    let pos = midgame();
    bencher.bench_local(|| {
        let mut n = 0u32;
        let _ = divan::black_box(&pos).for_each_move(|_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    });
}

/// One whole random game from the start, capped at 2,000 plies.
#[divan::bench]
fn random_game(bencher: divan::Bencher) {
    let start = RapidTransit::start(8).expect("8x8 is the game");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    bencher.bench_local(|| {
        let mut pos = start.clone();
        let mut plies = 0;
        while plies < 2_000 {
            let Some(mv) = pos.random_move(&mut rng) else {
                break;
            };
            pos.play_unchecked(&mv);
            plies += 1;
        }
        plies
    });
}

/// Plays `games` random games from `start` with a fixed seed; returns the plies played.
fn play_random_games(start: &RapidTransit, games: u32) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        while let Some(mv) = pos.random_move(&mut rng) {
            pos.play_unchecked(&mv);
            plies += 1;
        }
    }
    plies
}

/// The same 64 random games (seed fixed) each sample, timed per ply: the figure to compare
/// with `swapboard bench` (`random_game` varies with each sample's game length).
#[divan::bench]
fn random_plies_64_games(bencher: divan::Bencher) {
    let start = RapidTransit::start(8).expect("8x8 is the game");
    let plies = play_random_games(&start, 64);
    bencher
        .counter(divan::counter::ItemsCount::new(plies))
        .bench_local(|| play_random_games(divan::black_box(&start), 64));
}

#[divan::bench]
fn perft_3_start() -> u64 {
    let pos = RapidTransit::start(8).expect("8x8 is the game");
    let nodes = perft(divan::black_box(&pos), 3);
    assert_eq!(nodes, PERFT_3_START);
    nodes
}

/// Checked against `tests/data/rapid-transit.perft`.
const PERFT_3_START: u64 = 1_101_040;
