//! The frozen reference search `classic` plays today what it played when it was frozen.
//!
//! Each case is a short self-play game of the classic search (one search kept between moves,
//! so tree reuse is pinned too) from a fixed seed with an iteration budget: single-threaded,
//! that is a function of the seed. The expected moves were recorded from the search as it
//! stood before issue 28 (commit d9ab169). A change to the shared search code that alters
//! them moves the yardstick every later search is measured against: if that is meant, it
//! needs a new reference, not new numbers here.

use swapboard_ai::{Budget, Level, Mcts, classic};
use swapboard_core::Stepwise;
use swapboard_flipstop::Flipstop;
use swapboard_rapid_transit::RapidTransit;
use swapboard_scware::Scware;
use swapboard_swaptimum::Swaptimum;

/// The first `plies` moves of classic self-play on `G` at `size`, with `config`'s seed and
/// `budget` a move, as one line of text.
fn self_play<G: Stepwise>(
    size: usize,
    seed: u64,
    level: Option<Level>,
    iterations: u64,
    plies: usize,
) -> String {
    let start = G::start(size).expect("the size exists");
    let (config, budget) = match level {
        Some(level) => (
            classic::level_config(level, seed),
            classic::level_budget::<G>(level),
        ),
        None => (classic::config(seed), Budget::iterations(iterations)),
    };
    let mut search = Mcts::new(start, config);
    let mut moves = Vec::new();
    for _ in 0..plies {
        search.think(&budget);
        let Some(mv) = search.best_move() else { break };
        moves.push(mv.to_string());
        search.advance(&mv).expect("the search plays legal moves");
    }
    moves.join(" ")
}

#[test]
fn classic_is_frozen() {
    let cases = [
        (
            self_play::<Swaptimum>(9, 11, None, 600, 6),
            "g7 g3 h4 f3 h3 c4",
        ),
        (
            self_play::<Swaptimum>(5, 12, Level::new(3), 0, 8),
            "c1 d3 c3 b2 c2 c4 d4:c4-d4 c5",
        ),
        (
            self_play::<Flipstop>(9, 13, None, 600, 6),
            "d4 f6 d5 e5 e6 d6",
        ),
        (
            self_play::<Flipstop>(6, 14, Level::new(2), 0, 8),
            "e5 a1 e1 c2 b5 e2 f1 f6",
        ),
        (
            self_play::<Scware>(7, 15, None, 150, 6),
            "b7 f5 b2 a3 f2 b5",
        ),
        (
            self_play::<RapidTransit>(8, 16, None, 300, 6),
            "f6-f7 g8-g7 d6-g6 c6-d8 h6-g4 e2-f2",
        ),
    ];
    for (played, expected) in cases {
        assert_eq!(played, expected);
    }
}
