//! The move builder against the full legal move list, in both directions, on random
//! positions of every game and size:
//!
//! - every legal move (a sample of Scware's millions on crowded boards) can be built click
//!   by click, in every order the page accepts, each click offered among the cells that may
//!   come next;
//! - at every selection on the way, the cells offered next are exactly the cells that lead
//!   on to some legal move (so a player never meets a dead end), and the extra actions
//!   (Scware's new group, a pass) are offered exactly when the rules allow them;
//! - whatever cells are clicked, a complete verdict is a legal move.

use std::collections::{BTreeSet, HashSet};
use std::ops::ControlFlow;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::Game;
use swapboard_flipstop::{Flipstop, FlipstopMove};
use swapboard_grid::Cell;
use swapboard_play::{Build, Draft, Selection, Verdict, builder::Action};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};
use swapboard_scware::{Scware, ScwareMove};
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

/// How each game's moves are clicked.
trait Clicks: Build {
    /// The click orders that build `mv` (none for `pass`, played by its button).
    fn paths(mv: &Self::Move) -> Vec<Selection>;

    /// The cells that, clicked after `prefix`, lead on towards `mv`.
    fn continuations(prefix: &Selection, mv: &Self::Move) -> Vec<Cell> {
        Self::paths(mv)
            .into_iter()
            .filter(|p| p.cells.len() > prefix.cells.len())
            .filter(|p| p.cells.starts_with(&prefix.cells) && p.split == prefix.split)
            .map(|p| p.cells[prefix.cells.len()])
            .collect()
    }

    /// Whether `mv` is Scware's growth `prefix` followed by a new group (the `+` button).
    fn ends_growth(_prefix: &Selection, _mv: &Self::Move) -> bool {
        false
    }
}

fn cells(cells: Vec<Cell>) -> Selection {
    Selection { cells, split: None }
}

impl Clicks for Swaptimum {
    fn paths(mv: &SwaptimumMove) -> Vec<Selection> {
        match *mv {
            SwaptimumMove::Place(c) => vec![cells(vec![c])],
            // The two checkers of the swap, in either order.
            SwaptimumMove::PlaceSwap { cell, a, b } => {
                vec![cells(vec![cell, a, b]), cells(vec![cell, b, a])]
            }
            SwaptimumMove::Pass => Vec::new(),
        }
    }
}

impl Clicks for Flipstop {
    fn paths(mv: &FlipstopMove) -> Vec<Selection> {
        match *mv {
            FlipstopMove::Place(c) => vec![cells(vec![c])],
            FlipstopMove::Pass => Vec::new(),
        }
    }
}

impl Clicks for RapidTransit {
    fn paths(mv: &RapidTransitMove) -> Vec<Selection> {
        match *mv {
            RapidTransitMove::Swap { terminal, partner } => vec![cells(vec![terminal, partner])],
            RapidTransitMove::Pass => Vec::new(),
        }
    }
}

/// A Scware move's growth stones and new group.
fn scware_parts(mv: &ScwareMove) -> Option<(BTreeSet<Cell>, Option<Cell>)> {
    match mv {
        ScwareMove::Stones { cells, new_group } => Some((cells.iter().collect(), *new_group)),
        ScwareMove::Pass => None,
    }
}

impl Clicks for Scware {
    /// The growth in board order and in reverse (a growth is a set: any order builds it),
    /// then `+` and the new group.
    fn paths(mv: &ScwareMove) -> Vec<Selection> {
        let Some((growth, new_group)) = scware_parts(mv) else {
            return Vec::new();
        };
        let forward: Vec<Cell> = growth.iter().copied().collect();
        let backward: Vec<Cell> = growth.iter().rev().copied().collect();
        [forward, backward]
            .into_iter()
            .map(|mut all| {
                let split = new_group.map(|g| {
                    all.push(g);
                    all.len() - 1
                });
                Selection { cells: all, split }
            })
            .collect()
    }

    fn continuations(prefix: &Selection, mv: &ScwareMove) -> Vec<Cell> {
        let Some((growth, new_group)) = scware_parts(mv) else {
            return Vec::new();
        };
        let chosen: BTreeSet<Cell> = prefix.cells.iter().copied().collect();
        match prefix.split {
            None if chosen.is_subset(&growth) => growth.difference(&chosen).copied().collect(),
            Some(k) if k == prefix.cells.len() && chosen == growth => {
                new_group.into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    fn ends_growth(prefix: &Selection, mv: &ScwareMove) -> bool {
        let Some((growth, Some(_))) = scware_parts(mv) else {
            return false;
        };
        prefix.split.is_none() && prefix.cells.iter().copied().collect::<BTreeSet<_>>() == growth
    }
}

/// Checks the builder's answer at every selection on the way to every legal move (at most
/// `limit` moves: a crowded Scware board has millions) against the move list. Returns how
/// many selections were checked.
fn offers_exactly_what_leads_somewhere<G: Clicks>(pos: &G, limit: usize) -> usize {
    if pos.is_over() {
        let draft = pos.draft(&Selection::default());
        assert!(
            draft
                .refusal()
                .is_some_and(|r| r.starts_with("the game is over")),
            "{pos}: {draft:?}"
        );
        return 0;
    }
    let mut moves = Vec::new();
    let flow = pos.for_each_move(|m| {
        moves.push(m);
        if moves.len() > limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let complete_list = flow.is_continue();
    let pass = moves.iter().any(G::is_pass);
    let mut seen: HashSet<String> = HashSet::new();
    let mut checked = 0;
    let mut prefixes = vec![Selection::default()];
    for mv in &moves {
        for path in G::paths(mv) {
            for k in 1..path.cells.len() {
                let mut prefix = cells(path.cells[..k].to_vec());
                prefix.split = path.split.filter(|&s| s <= k);
                prefixes.push(prefix);
            }
        }
    }
    for prefix in prefixes {
        let key = format!("{prefix:?}");
        if !seen.insert(key) {
            continue;
        }
        let draft = pos.draft(&prefix);
        assert!(
            draft.refusal().is_none(),
            "{pos}: '{prefix}' refused: {draft:?}"
        );
        if let Some(mv) = draft.ready() {
            assert!(pos.is_legal(mv), "{pos}: '{prefix}' made the illegal {mv}");
        }
        let offered: BTreeSet<Cell> = draft.next.iter().copied().collect();
        assert_eq!(
            offered.len(),
            draft.next.len(),
            "{pos}: '{prefix}' offers a cell twice"
        );
        let expected: BTreeSet<Cell> = moves
            .iter()
            .flat_map(|m| G::continuations(&prefix, m))
            .collect();
        if complete_list {
            assert_eq!(offered, expected, "{pos}: after '{prefix}': {draft:?}");
            let new_group = moves.iter().any(|m| G::ends_growth(&prefix, m));
            assert_eq!(
                draft.actions.contains(&Action::EndGrowth),
                new_group,
                "{pos}: '{prefix}': {draft:?}"
            );
        } else {
            // A sample of the moves: what it reaches must be offered.
            assert!(
                offered.is_superset(&expected),
                "{pos}: after '{prefix}': {draft:?}"
            );
        }
        if prefix.cells.is_empty() {
            assert_eq!(
                draft.actions.contains(&Action::Pass),
                pass,
                "{pos}: {draft:?}"
            );
        }
        if draft.ready().is_some() {
            assert_eq!(
                draft.more,
                !draft.next.is_empty() || !draft.actions.is_empty(),
                "{pos}: '{prefix}': {draft:?}"
            );
            assert_eq!(
                draft.prompt.contains("add cells"),
                !draft.next.is_empty(),
                "{pos}: '{prefix}': {draft:?}"
            );
        }
        checked += 1;
    }
    checked
}

/// Builds `mv` click by click, in every order the page accepts, and checks every answer
/// on the way.
fn builds<G: Clicks>(pos: &G, mv: &G::Move) {
    for full in G::paths(mv) {
        let mut selection = Selection::default();
        let mut draft: Draft<G::Move> = pos.draft(&selection);
        for (i, &cell) in full.cells.iter().enumerate() {
            if full.split == Some(i) {
                assert!(
                    draft.actions.contains(&Action::EndGrowth),
                    "{pos} {mv}: no + offered after '{selection}': {draft:?}"
                );
                assert!(selection.end_growth(), "{pos} {mv}: + after {selection}");
                draft = pos.draft(&selection);
            }
            assert!(
                draft.next.contains(&cell),
                "{pos} {mv}: {cell} not offered after '{selection}': {draft:?}"
            );
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
    // Thousands of positions in all: every size of each game from 3 (4 for Rapid Transit)
    // to 9 or 10, from the start to the late middle game.
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn swaptimum_builder_offers_every_move_and_nothing_else(
        size in 3usize..10, plies in 0u32..60, seed: u64,
        picks in prop::collection::vec((0u8..9, 0u8..9), 1..5),
    ) {
        let pos: Swaptimum = random_position(size, plies, seed);
        every_move_builds(&pos, usize::MAX);
        offers_exactly_what_leads_somewhere(&pos, usize::MAX);
        random_clicks_stay_legal(&pos, &picks);
    }

    #[test]
    fn flipstop_builder_offers_every_move_and_nothing_else(
        size in 3usize..10, plies in 0u32..60, seed: u64,
        picks in prop::collection::vec((0u8..9, 0u8..9), 1..3),
    ) {
        let pos: Flipstop = random_position(size, plies, seed);
        every_move_builds(&pos, usize::MAX);
        offers_exactly_what_leads_somewhere(&pos, usize::MAX);
        random_clicks_stay_legal(&pos, &picks);
    }

    #[test]
    fn rapid_transit_builder_offers_every_move_and_nothing_else(
        half in 2usize..6, plies in 0u32..80, seed: u64,
        picks in prop::collection::vec((0u8..10, 0u8..10), 1..4),
    ) {
        let pos: RapidTransit = random_position(2 * half, plies, seed);
        every_move_builds(&pos, usize::MAX);
        offers_exactly_what_leads_somewhere(&pos, usize::MAX);
        random_clicks_stay_legal(&pos, &picks);
    }

    #[test]
    fn scware_builder_offers_every_move_and_nothing_else(
        size in 3usize..9, plies in 0u32..40, seed: u64,
        picks in prop::collection::vec((0u8..8, 0u8..8), 1..6),
    ) {
        let pos: Scware = random_position(size, plies, seed);
        every_move_builds(&pos, 400);
        offers_exactly_what_leads_somewhere(&pos, 4000);
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
