//! Solver speed on the empty 4x4 boards of Swaptimum and Flipstop (Mark Steere), both
//! second-player wins: `cargo bench -p swapboard-solver --bench solve`. Each sample solves
//! from an empty table, so the figure is the whole proof; then a lookup in the shipped 4x4
//! books.

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

/// A book lookup: Blue's proven winning answer to Red's corner opening on 4x4 Flipstop, from
/// the shipped book (one binary search per legal move, no search).
#[divan::bench]
fn book_lookup_flipstop_4x4(bencher: divan::Bencher) {
    let mut position = Flipstop::start(4).expect("4x4 exists");
    position.play_text("a1").expect("a1 is legal");
    let book = swapboard_solver::Book::shipped::<Flipstop>(4).expect("a shipped book");
    bencher.bench_local(|| {
        book.winning_move(divan::black_box(&position))
            .expect("a win")
    });
}

/// The same for 4x4 Swaptimum.
#[divan::bench]
fn book_lookup_swaptimum_4x4(bencher: divan::Bencher) {
    let mut position = Swaptimum::start(4).expect("4x4 exists");
    position.play_text("a1").expect("a1 is legal");
    let book = swapboard_solver::Book::shipped::<Swaptimum>(4).expect("a shipped book");
    bencher.bench_local(|| {
        book.winning_move(divan::black_box(&position))
            .expect("a win")
    });
}
