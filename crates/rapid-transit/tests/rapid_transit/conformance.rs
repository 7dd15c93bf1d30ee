//! Rapid Transit against the shared conformance suite, and the incremental engine against
//! the from-scratch reading of the sheet in `common`.

use std::collections::BTreeSet;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_conformance::{Suite, check_perft_file, perft_budget};
use swapboard_core::{Game, Player, Stone};
use swapboard_grid::Cell;
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};

/// Every pairing of a mover's piece with an opponent piece, the reversed pairings, and pass.
fn candidates(pos: &RapidTransit) -> Vec<RapidTransitMove> {
    let n = pos.size() as u8;
    let cells: Vec<Cell> = (0..n)
        .flat_map(|c| (0..n).map(move |r| Cell::new(c, r)))
        .collect();
    let mover = Stone::of(pos.to_move());
    let mut out = vec![RapidTransitMove::Pass];
    for &a in &cells {
        if pos.board().at(a) != mover {
            continue;
        }
        for &b in &cells {
            // Opponent pieces, and (to be refused) own pieces next door.
            if pos.board().at(b) != mover || (a < b && a.is_orthogonal(b)) {
                out.push(RapidTransitMove::Swap {
                    terminal: a,
                    partner: b,
                });
            }
        }
    }
    out
}

/// The board stays full with equal counts and no single-colour 2 x 2 block, and the kept
/// networks, terminals and cornered pieces equal those computed afresh.
fn invariant(pos: &RapidTransit) -> Result<(), String> {
    let fresh: RapidTransit = pos.to_string().parse().map_err(|e| format!("{e}"))?;
    let plain = crate::common::Plain::read(&pos.to_string());
    for player in Player::BOTH {
        if pos.network_sizes(player) != fresh.network_sizes(player) {
            return Err(format!("{player} network sizes drifted from a fresh count"));
        }
        if pos.terminals(player) != fresh.terminals(player) {
            return Err(format!("{player} terminals drifted"));
        }
        if pos.cornered(player) != fresh.cornered(player) {
            return Err(format!("{player} cornered pieces drifted"));
        }
    }
    let n = pos.size() as u8;
    for col in 0..n {
        for row in 0..n {
            let cell = Cell::new(col, row);
            let (r, c) = (usize::from(row), usize::from(col));
            if pos.terminals(Player::First).contains(cell)
                || pos.terminals(Player::Second).contains(cell)
            {
                if !plain.is_terminal((r, c)) {
                    return Err(format!("{cell} is marked terminal"));
                }
            } else if plain.is_terminal((r, c)) {
                return Err(format!("{cell} is terminal but not marked"));
            }
            let cornered = pos.cornered(Player::First).contains(cell)
                || pos.cornered(Player::Second).contains(cell);
            if cornered != plain.is_cornered((r, c)) {
                return Err(format!(
                    "{cell} cornering disagrees with the sheet's definition"
                ));
            }
            if pos.network_size_at(cell) != fresh.network_size_at(cell) {
                return Err(format!("the network through {cell} has the wrong size"));
            }
        }
    }
    Ok(())
}

#[test]
fn passes_the_conformance_suite() {
    let mut positions: Vec<RapidTransit> = [4, 6, 8]
        .iter()
        .map(|&n| RapidTransit::start(n).unwrap())
        .collect();
    positions.push(RapidTransit::start_with(8, Player::Second).unwrap());
    Suite {
        positions,
        candidates,
        invariant,
        playouts: 2,
        max_plies: 120,
        must_end: false,
        seed: 2024,
    }
    .run();
}

#[test]
fn larger_variants_pass_the_conformance_suite() {
    let positions = [10, 16]
        .iter()
        .map(|&n| RapidTransit::start(n).unwrap())
        .collect();
    Suite {
        positions,
        candidates: |_| vec![RapidTransitMove::Pass],
        invariant,
        playouts: 1,
        max_plies: 60,
        must_end: false,
        seed: 16,
    }
    .run();
}

/// The engine's moves equal the from-scratch reading's along random games of every size.
#[test]
fn moves_match_the_sheet_read_from_scratch() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(61);
    for size in [4, 6, 8, 10] {
        for _ in 0..3 {
            let mut pos = RapidTransit::start(size).unwrap();
            for _ in 0..300 {
                let engine: BTreeSet<String> =
                    pos.legal_moves().iter().map(ToString::to_string).collect();
                let reference = crate::common::Plain::read(&pos.to_string()).legal_moves();
                assert_eq!(engine, reference, "at {pos}");
                match pos.random_move(&mut rng) {
                    Some(mv) => pos.play_unchecked(&mv),
                    None => break,
                }
            }
        }
    }
}

#[test]
fn perft_tables_hold() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/rapid-transit.perft"
    );
    let checked = check_perft_file::<RapidTransit>(path.as_ref(), perft_budget());
    assert!(checked >= 6, "only {checked} perft counts were checked");
}

/// Pairs of orthogonal neighbours of one colour.
fn like_adjacencies(pos: &RapidTransit) -> usize {
    let plain = crate::common::Plain::read(&pos.to_string());
    let n = plain.n();
    let g = &plain.grid;
    (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .map(|(r, c)| {
            usize::from(r + 1 < n && g[r + 1][c] == g[r][c])
                + usize::from(c + 1 < n && g[r][c + 1] == g[r][c])
        })
        .sum()
}

/// Why Rapid Transit cannot cycle (docs/RESEARCH.md): a swap changes only the pairs at the
/// two moved cells; the terminal had at most one friend and ends with two or more, and the
/// partner ends with at least as many friends as it had (it needs two opposing neighbours,
/// three if the pieces touch). So every swap adds at least one like-coloured pair, from 0 at
/// the start to at most 2N(N-1), and no position comes back. Checked along random games,
/// with the repetition record watching.
#[test]
fn every_swap_adds_a_like_coloured_pair_so_no_position_repeats() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1729);
    for size in [4, 6, 8, 10] {
        for _ in 0..30 {
            let mut pos = RapidTransit::start(size).unwrap();
            let mut history = swapboard_core::History::new();
            history.record(pos.zobrist());
            assert_eq!(like_adjacencies(&pos), 0);
            while let Some(mv) = pos.random_move(&mut rng) {
                let before = like_adjacencies(&pos);
                pos.play_unchecked(&mv);
                if mv != RapidTransitMove::Pass {
                    assert!(
                        like_adjacencies(&pos) > before,
                        "{mv} added no like pair: {pos}"
                    );
                }
                assert_eq!(history.record(pos.zobrist()), None, "{pos} came back");
            }
            assert!(history.len() <= 2 * 2 * size * (size - 1) + 3);
        }
    }
}
