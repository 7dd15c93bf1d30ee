//! The shared conformance suite, perft tables, a brute-force reference for the move rules,
//! and property tests over random games.

use std::collections::BTreeSet;
use std::path::Path;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_conformance::{Suite, check_perft_file, perft_budget, random_position};
use swapboard_core::{Game, Outcome, Stone, StoneBoard};
use swapboard_grid::Cell;
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

/// Every placement, alone and with every swap of two cells within two of it (a legal swap
/// involves a crosscut checker, itself next to the placement), and `pass`.
fn candidates(p: &Swaptimum) -> Vec<SwaptimumMove> {
    let n = p.size() as i32;
    let mut out = vec![SwaptimumMove::Pass];
    for cell in p.board().square().cells() {
        out.push(SwaptimumMove::Place(cell));
        let near = |c: i32, r: i32| (0..n).contains(&c) && (0..n).contains(&r);
        let (c0, r0) = (i32::from(cell.col()), i32::from(cell.row()));
        for dc in -2..=2 {
            for dr in -2..=2 {
                let (c, r) = (c0 + dc, r0 + dr);
                if !near(c, r) {
                    continue;
                }
                let x = Cell::new(c as u8, r as u8);
                for (ec, er) in [(1, -1), (1, 0), (1, 1), (0, 1)] {
                    let (c2, r2) = (c + ec, r + er);
                    if near(c2, r2) && (c2 - c0).abs() <= 2 && (r2 - r0).abs() <= 2 {
                        out.push(SwaptimumMove::place_swap(
                            cell,
                            x,
                            Cell::new(c2 as u8, r2 as u8),
                        ));
                    }
                }
            }
        }
    }
    out
}

fn no_crosscut(p: &Swaptimum) -> Result<(), String> {
    match p.board().find_crosscut() {
        Some(c) => Err(format!("a crosscut stands at {c}")),
        None => Ok(()),
    }
}

fn suite(positions: Vec<Swaptimum>, playouts: usize, seed: u64) -> Suite<Swaptimum> {
    Suite {
        positions,
        candidates,
        invariant: no_crosscut,
        playouts,
        max_plies: 2000,
        must_end: true,
        seed,
    }
}

#[test]
fn conformance_small_boards() {
    let starts = (3..=6).map(|n| Swaptimum::start(n).unwrap()).collect();
    suite(starts, 12, 1).run();
}

#[test]
fn conformance_from_the_rulings_positions() {
    let positions = [
        "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB B",
        "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R",
        "swaptimum ...../..BRR/...B./...../..... R",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    suite(positions, 4, 2).run();
}

#[test]
fn conformance_9x9() {
    suite(vec![Swaptimum::start(9).unwrap()], 2, 3).run();
}

#[test]
fn perft_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let checked = check_perft_file::<Swaptimum>(&dir.join("swaptimum.perft"), perft_budget());
    assert!(checked >= 8, "only {checked} counts checked");
}

/// The rules written the slow, obvious way: every placement, every swap of two differently
/// coloured 8-adjacent checkers anywhere on the board at least one of which is in a formed
/// crosscut, checked by scanning the whole board for crosscuts.
fn reference_moves(p: &Swaptimum) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if p.outcome().is_some() {
        return out;
    }
    let sq = p.board().square();
    let me = Stone::of(p.to_move());
    let crosscut_cells = |b: &StoneBoard| -> BTreeSet<Cell> {
        sq.blocks()
            .filter(|&bl| b.is_crosscut(bl))
            .flat_map(|bl| sq.block(bl))
            .filter_map(|s| sq.cell_at(s))
            .collect()
    };
    for cell in sq.cells() {
        if p.board().at(cell) != Stone::Empty {
            continue;
        }
        let mut b = p.board().clone();
        b.set(sq.slot(cell), me);
        let in_crosscut = crosscut_cells(&b);
        if in_crosscut.is_empty() {
            out.insert(cell.to_string());
            continue;
        }
        for x in sq.cells() {
            for y in sq.cells() {
                let (sx, sy) = (b.at(x), b.at(y));
                if x >= y
                    || !x.is_king_adjacent(y)
                    || sx == Stone::Empty
                    || sy == Stone::Empty
                    || sx == sy
                {
                    continue;
                }
                if !in_crosscut.contains(&x) && !in_crosscut.contains(&y) {
                    continue;
                }
                let mut s = b.clone();
                s.set(sq.slot(x), sy);
                s.set(sq.slot(y), sx);
                if s.find_crosscut().is_none() {
                    out.insert(format!("{cell}:{x}-{y}"));
                }
            }
        }
    }
    if out.is_empty() {
        let mut other = p.clone();
        other.play_unchecked(&SwaptimumMove::Pass);
        if other
            .legal_moves()
            .iter()
            .any(|m| *m != SwaptimumMove::Pass)
        {
            out.insert("pass".into());
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// The engine's move list equals the brute-force reference's.
    #[test]
    fn moves_match_the_reference(size in 4usize..=7, plies in 0usize..60, seed in any::<u64>()) {
        let p = random_position(&Swaptimum::start(size).unwrap(), plies, seed);
        let engine: BTreeSet<String> = p.legal_moves().iter().map(ToString::to_string).collect();
        prop_assert_eq!(engine, reference_moves(&p), "at {}", p);
    }

    /// After every turn of a random game: no crosscut, the winner is the player with a path,
    /// and the stored winner agrees with a fresh parse.
    #[test]
    fn random_games_keep_the_invariants(size in 3usize..=9, seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut p = Swaptimum::start(size).unwrap();
        while let Some(m) = p.random_move(&mut rng) {
            p = p.play(&m).unwrap();
            prop_assert!(p.board().find_crosscut().is_none());
            let reparsed: Swaptimum = p.to_string().parse().unwrap();
            prop_assert_eq!(reparsed.outcome(), p.outcome());
        }
        match p.outcome() {
            Some(Outcome::Win(w)) => prop_assert!(p.board().has_path(w) && !p.board().has_path(w.other())),
            Some(Outcome::Draw) => prop_assert!(p.board().winner().is_none()),
            None => prop_assert!(false, "random game stopped before the end"),
        }
    }

    /// Parsing arbitrary text never panics.
    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}", mv in "\\PC{0,12}") {
        let _ = text.parse::<Swaptimum>();
        let p = Swaptimum::start(5).unwrap();
        let _ = p.parse_move(&mv);
        let _ = p.clone().play_text(&mv);
    }

    /// Positions made of the board alphabet parse or are refused, never panic, and those
    /// that parse print back to the same text.
    #[test]
    fn board_texts_round_trip(rows in proptest::collection::vec("[.RB]{4}", 4), red in any::<bool>()) {
        let text = format!("swaptimum {} {}", rows.join("/"), if red { 'R' } else { 'B' });
        if let Ok(p) = text.parse::<Swaptimum>() {
            prop_assert_eq!(p.to_string(), text);
        }
    }
}
