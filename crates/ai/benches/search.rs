//! Search speed on a real game (Swaptimum 9x9, Mark Steere), single-threaded, fixed seed:
//! `cargo bench -p swapboard-ai --bench search`. The library knows no game; only this
//! benchmark uses one.

use swapboard_ai::{Budget, Config, Mcts};
use swapboard_core::Game;
use swapboard_swaptimum::Swaptimum;

const ITERATIONS: u64 = 10_000;

fn main() {
    divan::main();
}

/// 10,000 iterations from the 9x9 start position (divide by the time for iterations/s).
#[divan::bench]
fn swaptimum_9x9_10k_iterations(bencher: divan::Bencher) {
    let start = Swaptimum::start(9).expect("9x9 exists");
    bencher.bench_local(|| {
        let mut search = Mcts::new(start.clone(), Config::default());
        let analysis = search.think(&Budget::iterations(ITERATIONS));
        assert_eq!(analysis.iterations, ITERATIONS);
        analysis.nodes
    });
}
