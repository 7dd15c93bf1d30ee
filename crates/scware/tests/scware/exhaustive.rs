//! The move list, the count and the sampler against a brute-force reference: every subset of
//! the cells next to the mover's stones, checked one by one with `check_move` (which tests
//! the rules on the board after the move, independently of the enumeration's structure).

use std::collections::{HashMap, HashSet};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, Player, Stone, perft};
use swapboard_grid::{Cell, CellSet};
use swapboard_scware::{Scware, ScwareMove};

/// Every legal move found by trying every candidate. `None` if there are too many cells next
/// to the mover's stones to try every subset.
fn brute_force(pos: &Scware, max_libs: usize) -> Option<HashSet<ScwareMove>> {
    let sq = pos.board().square();
    let own = Stone::of(pos.to_move());
    let empty: Vec<Cell> = sq
        .cells()
        .filter(|&c| pos.board().at(c) == Stone::Empty)
        .collect();
    let libs: Vec<Cell> = empty
        .iter()
        .copied()
        .filter(|&c| {
            let s = sq.slot(c);
            sq.orthogonal()
                .iter()
                .any(|&d| pos.board().get(s.wrapping_add_signed(d)) == own)
        })
        .collect();
    if libs.len() > max_libs {
        return None;
    }
    let mut legal = HashSet::new();
    for &c in &empty {
        let m = ScwareMove::single(c);
        if pos.is_legal(&m) {
            legal.insert(m);
        }
    }
    for mask in 1u32..(1 << libs.len()) {
        let cells: CellSet = (0..libs.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| libs[i])
            .collect();
        let m = ScwareMove::growth(cells);
        if pos.is_legal(&m) {
            legal.insert(m);
            if pos.balancing_available() {
                for &p in &empty {
                    let b = ScwareMove::balanced(cells, p);
                    if !cells.contains(p) && pos.is_legal(&b) {
                        legal.insert(b);
                    }
                }
            }
        }
    }
    if legal.is_empty() && pos.is_legal(&ScwareMove::Pass) {
        legal.insert(ScwareMove::Pass);
    }
    Some(legal)
}

/// Positions met in random games on small boards.
fn random_positions(seed: u64, games: usize) -> Vec<Scware> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let size = 4 + game % 4;
        let mut pos = Scware::start(size).unwrap();
        while !pos.is_over() {
            out.push(pos.clone());
            // Mix sampler moves with placements to reach many groups.
            let mv = if rng.random_range(0..3) == 0 {
                let moves: Vec<_> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.stone_count() == 1)
                    .collect();
                if moves.is_empty() {
                    pos.random_move(&mut rng).unwrap()
                } else {
                    moves[rng.random_range(0..moves.len())]
                }
            } else {
                pos.random_move(&mut rng).unwrap()
            };
            pos = pos.play(&mv).unwrap();
        }
        out.push(pos);
    }
    out
}

#[test]
fn listed_moves_are_exactly_the_legal_ones() {
    let mut compared = 0;
    for pos in random_positions(7, 120) {
        let Some(expected) = brute_force(&pos, 12) else {
            continue;
        };
        let listed: Vec<ScwareMove> = pos.legal_moves();
        let set: HashSet<ScwareMove> = listed.iter().copied().collect();
        assert_eq!(set.len(), listed.len(), "duplicates at {pos}");
        let missing: Vec<_> = expected.difference(&set).collect();
        let extra: Vec<_> = set.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{pos}: missing {missing:?}, extra {extra:?}"
        );
        compared += 1;
    }
    assert!(compared > 500, "only {compared} positions compared");
}

#[test]
fn count_agrees_with_the_list_and_perft() {
    let mut checked = 0;
    for pos in random_positions(11, 400) {
        let mut listed = 0u64;
        let _ = pos.for_each_move(|_| {
            listed += 1;
            std::ops::ControlFlow::Continue(())
        });
        assert_eq!(pos.move_count(), listed, "{pos}");
        assert_eq!(perft(&pos, 1), listed, "{pos}");
        assert_eq!(pos.move_counts().total(), u128::from(listed), "{pos}");
        checked += 1;
    }
    assert!(checked > 2000, "only {checked} positions");
}

#[test]
fn sampler_covers_every_move_of_small_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut covered = 0;
    for pos in random_positions(5, 60) {
        let moves = pos.legal_moves();
        if moves.is_empty() || moves.len() > 40 {
            continue;
        }
        let mut seen: HashMap<ScwareMove, u32> = HashMap::new();
        for _ in 0..moves.len() * 400 {
            let m = pos.random_move(&mut rng).unwrap();
            *seen.entry(m).or_default() += 1;
        }
        for m in &moves {
            assert!(seen.contains_key(m), "{pos}: the sampler never drew {m}");
        }
        assert_eq!(
            seen.len(),
            moves.len(),
            "{pos}: the sampler drew an unlisted move"
        );
        covered += 1;
    }
    assert!(covered > 100, "only {covered} positions");
    let _ = Player::First;
}
