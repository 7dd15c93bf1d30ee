//! The move builder against the legal move list: on random positions of every game, every
//! legal move (a sample of Scware's millions) can be built click by click, each click
//! offered among the cells that may come next; and whatever cells are clicked, a complete
//! verdict is a legal move.

use std::ops::ControlFlow;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::Game;
use swapboard_flipstop::{Flipstop, FlipstopMove};
use swapboard_grid::Cell;
use swapboard_play::{Build, Draft, Selection, Verdict};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};
use swapboard_scware::{Scware, ScwareMove};
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

/// The clicks that build a move, or `None` for `pass` (played by name, not built).
trait Clicks: Build {
    fn clicks(mv: &Self::Move) -> Option<Selection>;
}

fn cells(cells: Vec<Cell>) -> Selection {
    Selection { cells, split: None }
}

impl Clicks for Swaptimum {
    fn clicks(mv: &SwaptimumMove) -> Option<Selection> {
        match *mv {
            SwaptimumMove::Place(c) => Some(cells(vec![c])),
            SwaptimumMove::PlaceSwap { cell, a, b } => Some(cells(vec![cell, a, b])),
            SwaptimumMove::Pass => None,
        }
    }
}

impl Clicks for Flipstop {
    fn clicks(mv: &FlipstopMove) -> Option<Selection> {
        match *mv {
            FlipstopMove::Place(c) => Some(cells(vec![c])),
            FlipstopMove::Pass => None,
        }
    }
}

impl Clicks for RapidTransit {
    fn clicks(mv: &RapidTransitMove) -> Option<Selection> {
        match *mv {
            RapidTransitMove::Swap { terminal, partner } => Some(cells(vec![terminal, partner])),
            RapidTransitMove::Pass => None,
        }
    }
}

impl Clicks for Scware {
    fn clicks(mv: &ScwareMove) -> Option<Selection> {
        match mv {
            ScwareMove::Stones { cells, new_group } => {
                let mut all: Vec<Cell> = cells.iter().collect();
                let split = new_group.map(|g| {
                    all.push(g);
                    all.len() - 1
                });
                Some(Selection { cells: all, split })
            }
            ScwareMove::Pass => None,
        }
    }
}

/// Builds `mv` click by click and checks every answer on the way.
fn builds<G: Clicks>(pos: &G, mv: &G::Move) {
    let Some(full) = G::clicks(mv) else { return };
    let mut selection = Selection::default();
    let mut draft: Draft<G::Move> = pos.draft(&selection);
    for (i, &cell) in full.cells.iter().enumerate() {
        if full.split == Some(i) {
            assert!(selection.end_growth(), "{pos} {mv}: + after {selection}");
            draft = pos.draft(&selection);
        }
        if !draft.next.is_empty() {
            assert!(
                draft.next.contains(&cell),
                "{pos} {mv}: {cell} not offered after '{selection}': {draft:?}"
            );
        }
        selection = selection.with(cell);
        draft = pos.draft(&selection);
        assert!(
            draft.refusal().is_none(),
            "{pos} {mv}: '{selection}' refused: {draft:?}"
        );
        if i + 1 < full.cells.len() {
            assert!(
                draft.more,
                "{pos} {mv}: '{selection}' takes no more: {draft:?}"
            );
        }
    }
    assert_eq!(
        draft.verdict,
        Verdict::Complete { mv: mv.clone() },
        "{pos}: '{selection}'"
    );
}

/// Every legal move is built (at most `limit` of them, for Scware's crowded positions).
fn every_move_builds<G: Clicks>(pos: &G, limit: usize) -> usize {
    let mut n = 0;
    let _ = pos.for_each_move(|m| {
        builds(pos, &m);
        n += 1;
        if n == limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    n
}

/// Random cells clicked: any complete verdict is legal, and a refusal ends nothing.
fn random_clicks_stay_legal<G: Clicks>(pos: &G, picks: &[(u8, u8)]) {
    let n = pos.size() as u8;
    let mut selection = Selection::default();
    for &(col, row) in picks {
        let next = selection.with(Cell::new(col % n, row % n));
        let draft = pos.draft(&next);
        if let Some(mv) = draft.ready() {
            assert!(pos.is_legal(mv), "{pos}: '{next}' made the illegal {mv}");
        }
        if draft.refusal().is_none() {
            selection = next;
        }
    }
}

/// A position `plies` random moves from the start on a board of `size`.
fn random_position<G: Game>(size: usize, plies: u32, seed: u64) -> G {
    let mut pos = G::start(size).expect("a legal size");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..plies {
        match pos.random_move(&mut rng) {
            Some(m) => pos.play_unchecked(&m),
            None => break,
        }
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn swaptimum_moves_build(size in 3usize..7, plies in 0u32..30, seed: u64,
                             picks in prop::collection::vec((0u8..7, 0u8..7), 1..5)) {
        let pos: Swaptimum = random_position(size, plies, seed);
        every_move_builds(&pos, usize::MAX);
        random_clicks_stay_legal(&pos, &picks);
    }

    #[test]
    fn flipstop_moves_build(size in 3usize..7, plies in 0u32..30, seed: u64,
                            picks in prop::collection::vec((0u8..7, 0u8..7), 1..3)) {
        let pos: Flipstop = random_position(size, plies, seed);
        every_move_builds(&pos, usize::MAX);
        random_clicks_stay_legal(&pos, &picks);
    }

    #[test]
    fn rapid_transit_moves_build(half in 2usize..5, plies in 0u32..40, seed: u64,
                                 picks in prop::collection::vec((0u8..8, 0u8..8), 1..4)) {
        let pos: RapidTransit = random_position(2 * half, plies, seed);
        every_move_builds(&pos, usize::MAX);
        random_clicks_stay_legal(&pos, &picks);
    }

    #[test]
    fn scware_moves_build(size in 3usize..8, plies in 0u32..30, seed: u64,
                          picks in prop::collection::vec((0u8..8, 0u8..8), 1..6)) {
        let pos: Scware = random_position(size, plies, seed);
        every_move_builds(&pos, 400);
        random_clicks_stay_legal(&pos, &picks);
    }
}

/// The crowded 11x11 bench position of `crates/scware` (3,095,424 legal moves): a spread of
/// its moves builds, growths and balancing moves included.
#[test]
fn the_crowded_scware_position_builds_its_moves() {
    let pos: Scware =
        "scware ..WR.R.RWW./...R.....W./WWWR.W.R..R/......RRW../.RW..W..WW./.R......R../\
                       .RW..RWRR../.RW......../.....R..R../.W.W....R.W/WWR..W....R W g"
            .parse()
            .unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut grown = 0;
    for _ in 0..300 {
        let mv = pos.random_move(&mut rng).expect("a move");
        if matches!(&mv, ScwareMove::Stones { cells, .. } if cells.len() > 1) {
            grown += 1;
        }
        builds(&pos, &mv);
    }
    assert!(grown > 100, "the sample holds growths: {grown}");
    assert!(every_move_builds(&pos, 300) == 300);
}
