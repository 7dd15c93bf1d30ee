//! Solver speed on the empty 4x4 boards of Swaptimum and Flipstop (Mark Steere), both
//! second-player wins: `cargo bench -p swapboard-solver --bench solve`. Each sample solves
//! from an empty table, so the figure is the whole proof.

use swapboard_core::{Game, Outcome, Player};
use swapboard_flipstop::Flipstop;
use swapboard_solver::{Options, Solver};
use swapboard_swaptimum::Swaptimum;

fn main() {
    divan::main();
}

/// Solves `position` from scratch and checks the known result.
fn solve<G: Game>(position: &G) -> u64 {
    let mut solver = Solver::new(Options::default());
    let solution = solver.solve(position, &mut |_| {});
    assert_eq!(solution.outcome, Some(Outcome::Win(Player::Second)));
    solution.nodes
}

/// Swaptimum 4x4 (294,110 nodes).
#[divan::bench(sample_count = 5)]
fn swaptimum_4x4(bencher: divan::Bencher) {
    let start = Swaptimum::start(4).expect("4x4 exists");
    bencher.bench_local(|| solve(&start));
}

/// Flipstop 4x4 (348,086 nodes).
#[divan::bench(sample_count = 5)]
fn flipstop_4x4(bencher: divan::Bencher) {
    let start = Flipstop::start(4).expect("4x4 exists");
    bencher.bench_local(|| solve(&start));
}
