//! The shared conformance suite, perft tables, a brute-force reference for the rules, and
//! property tests over random games.

use std::collections::BTreeMap;
use std::path::Path;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_conformance::{Suite, check_perft_file, perft_budget, random_position};
use swapboard_core::{Game, Outcome, Stone};
use swapboard_flipstop::{Flipstop, FlipstopMove};

fn candidates(p: &Flipstop) -> Vec<FlipstopMove> {
    let mut out: Vec<FlipstopMove> = p
        .board()
        .square()
        .cells()
        .map(FlipstopMove::Place)
        .collect();
    out.push(FlipstopMove::Pass);
    out
}

/// No crosscut stands, and (the sheet's NOTE) no empty cell is illegal for both players.
fn invariant(p: &Flipstop) -> Result<(), String> {
    if let Some(c) = p.board().find_crosscut() {
        return Err(format!("a crosscut stands at {c}"));
    }
    let mut other = p.clone();
    other.play_unchecked(&FlipstopMove::Pass);
    for cell in p.board().square().cells() {
        if p.board().at(cell) == Stone::Empty
            && p.replacements(cell).is_none()
            && other.replacements(cell).is_none()
        {
            return Err(format!("{cell} is illegal for both players"));
        }
    }
    Ok(())
}

fn suite(positions: Vec<Flipstop>, playouts: usize, seed: u64) -> Suite<Flipstop> {
    Suite {
        positions,
        candidates,
        invariant,
        playouts,
        max_plies: 2000,
        must_end: true,
        seed,
    }
}

#[test]
fn conformance_small_boards() {
    suite(
        (3..=7).map(|n| Flipstop::start(n).unwrap()).collect(),
        15,
        11,
    )
    .run();
}

#[test]
fn conformance_from_the_rulings_positions() {
    let positions = [
        "flipstop RRRB/BBRR/RR.R/BRRB B",
        "flipstop RRRB/BBRR/RR.R/BRRB R",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    suite(positions, 2, 12).run();
}

#[test]
fn conformance_9x9() {
    suite(vec![Flipstop::start(9).unwrap()], 3, 13).run();
}

#[test]
fn perft_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let checked = check_perft_file::<Flipstop>(&dir.join("flipstop.perft"), perft_budget());
    assert!(checked >= 8, "only {checked} counts checked");
}

/// The rules written the slow, obvious way, with whole-board crosscut scans: each legal
/// placement and the position text it leads to.
fn reference(p: &Flipstop) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if p.outcome().is_some() {
        return out;
    }
    let sq = p.board().square();
    let me = Stone::of(p.to_move());
    for cell in sq.cells() {
        if p.board().at(cell) != Stone::Empty {
            continue;
        }
        let mut b = p.board().clone();
        b.set(sq.slot(cell), me);
        let enemies: Vec<usize> = sq
            .blocks()
            .filter(|&bl| b.is_crosscut(bl))
            .flat_map(|bl| sq.block(bl))
            .filter(|&s| b.get(s) != me)
            .collect();
        let mut replaceable = Vec::new();
        for &e in &enemies {
            let mut t = b.clone();
            t.set(e, me);
            if !sq
                .blocks()
                .any(|bl| t.is_crosscut(bl) && sq.block(bl).contains(&e))
            {
                replaceable.push(e);
            }
        }
        for &e in &replaceable {
            b.set(e, me);
        }
        if b.find_crosscut().is_none() {
            let next = if me == Stone::First { 'B' } else { 'R' };
            out.insert(
                cell.to_string(),
                format!("flipstop {} {next}", b.rows_text(['R', 'B'])),
            );
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The engine's legal placements and their results equal the brute-force reference's.
    #[test]
    fn moves_match_the_reference(size in 3usize..=8, plies in 0usize..70, seed in any::<u64>()) {
        let p = random_position(&Flipstop::start(size).unwrap(), plies, seed);
        let want = reference(&p);
        let mut got = BTreeMap::new();
        for m in p.legal_moves() {
            if m == FlipstopMove::Pass {
                continue;
            }
            let after = p.clone().play(&m).unwrap();
            got.insert(m.to_string(), after.to_string());
        }
        prop_assert_eq!(got, want, "at {}", p);
    }

    /// Random games end, keep the invariant, and the result is the player with the path.
    #[test]
    fn random_games_keep_the_invariants(size in 3usize..=9, seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut p = Flipstop::start(size).unwrap();
        while let Some(m) = p.random_move(&mut rng) {
            p = p.play(&m).unwrap();
            prop_assert!(p.board().find_crosscut().is_none());
        }
        match p.outcome() {
            Some(Outcome::Win(w)) => prop_assert!(p.board().has_path(w)),
            Some(Outcome::Draw) => prop_assert!(p.board().winner().is_none()),
            None => prop_assert!(false, "random game stopped before the end"),
        }
    }

    /// Parsing arbitrary text never panics.
    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}", mv in "\\PC{0,12}") {
        let _ = text.parse::<Flipstop>();
        let p = Flipstop::start(5).unwrap();
        let _ = p.parse_move(&mv);
        let _ = p.clone().play_text(&mv);
    }
}
