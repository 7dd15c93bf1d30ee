//! Search speed on real games (Swaptimum and Flipstop 9x9, Mark Steere), single-threaded,
//! fixed seed: `cargo bench -p swapboard-ai --bench search`. The library knows no game; only
//! this benchmark uses them.

use swapboard_ai::{Budget, Config, Mcts};
use swapboard_core::Game;
use swapboard_flipstop::Flipstop;
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

/// 10,000 iterations from the 9x9 Flipstop start position with the learned priors weighed
/// (as `mcts:` with a budget weighs them, `docs/AI.md`): every expansion asks for the prior
/// of every child.
#[divan::bench]
fn flipstop_9x9_10k_iterations_with_priors(bencher: divan::Bencher) {
    let start = Flipstop::start(9).expect("9x9 exists");
    let config = Config {
        prior_weight: Config::PRIOR_WEIGHT,
        ..Config::default()
    };
    bencher.bench_local(|| {
        let mut search = Mcts::new(start.clone(), config.clone());
        let analysis = search.think(&Budget::iterations(ITERATIONS));
        assert_eq!(analysis.iterations, ITERATIONS);
        analysis.nodes
    });
}
