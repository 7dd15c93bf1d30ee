//! One test per reading of docs/RULINGS.md's Swap 61 section that concerns scoring and rounds,
//! on a grid drawn so the answers can be worked out by hand, and a reference
//! implementation (plain Dijkstra over named cells) checked against the engine on random
//! games for every variation.

use proptest::prelude::*;
use swapboard_grid::hex::{HexCell, Hexagon};
use swapboard_swap61::{
    Board, CornerHop, EdgeOutcome, Pair, RoundSpec, Scoring, Seat, Setup, Tile, TileMask,
    Variation, parse_tile, play_round, tile_of,
};

/// Row A is the lane between N1 (corner A1) and N2 (corner A5), cut by a wild wall at A3.
/// Row B is P3's five walls; N3 sits at G7, next to F8 and two steps from the corner E9.
const GRID: &str = "\
A: N1 P1 W P2 N2
B: P3 P3 P3 P3 P3 P4
C: P4 P4 P4 P4 P5 P5 P5
D: P5 P5 P6 P6 P6 P6 P6 P7
E: P7 P7 P7 P7 P8 P8 P8 P8 P8
F: P9 P9 P9 P9 P9 P10 P10 P10
G: P10 P10 P1 P1 P1 P1 N3
H: N4 N5 N6 P2 P2 P2
I: N7 N8 N9 P2 W";

fn board() -> Board {
    Board::parse(GRID, 10).unwrap()
}

fn seat(n: usize) -> Seat {
    Seat::new(n).unwrap()
}

fn pair(text: &str) -> Pair {
    text.parse().unwrap()
}

fn t(cell: &str) -> usize {
    parse_tile(cell).unwrap()
}

/// One player's score for pairs `pairs` in round `round` under `variation`.
fn score(
    board: &Board,
    swapped: TileMask,
    round: usize,
    variation: Variation,
    pairs: &[Pair],
    s: usize,
) -> u32 {
    Scoring {
        round,
        variation,
        pairs,
    }
    .score(board, swapped, seat(s))
}

fn theme(board: &Board, swapped: TileMask, round: usize, pairs: &str, s: usize) -> u32 {
    let pairs: Vec<Pair> = pairs.split(',').map(pair).collect();
    score(board, swapped, round, Variation::THEME, &pairs, s)
}

#[test]
fn distance_counts_the_tiles_entered() {
    // P5 (borrowing P4 and P6 in round 1) is blocked on row A by the unswapped wild wall:
    // A1 B2 B3 B4 B5 A5 is 5. Touching nodes (N5 H2, N6 H3) are 1 apart.
    assert_eq!(theme(&board(), 0, 1, "N1-N2", 5), 5);
    assert_eq!(theme(&board(), 0, 1, "N5-N6", 5), 1);
    // G7 to H1 along row G: 6, the hex distance.
    assert_eq!(theme(&board(), 0, 1, "N3-N4", 5), 6);
}

#[test]
fn unreachable_pairs_score_zero() {
    // P3's own walls fill row B, and in round 1 P3 borrows P2 (A4): N1 is shut in.
    assert_eq!(theme(&board(), 0, 1, "N1-N2", 3), 0);
    assert_eq!(theme(&board(), 0, 1, "N1-N2,N5-N6", 3), 1);
}

#[test]
fn third_nodes_block() {
    // N4 (H1) to N6 (H3): H2 holds N5, so the path goes round it through row G: G2 G3 H3.
    assert_eq!(theme(&board(), 0, 1, "N4-N6", 5), 3);
}

#[test]
fn wild_walls_are_passable_only_when_swapped_this_round() {
    let spec = RoundSpec {
        variation: Variation::THEME,
        pairs: vec![pair("N1-N2"), pair("N3-N4"), pair("N5-N6")],
    };
    // P1 swaps its wall A2 with the wild wall A3: W now at A2, swapped this round.
    let outcome = play_round(&board(), 1, &spec, &[(seat(1), "A2 A3 4")]);
    assert_eq!(outcome.resolution.edges[0].outcome, EdgeOutcome::Swapped);
    let after = outcome.resolution.board;
    assert_eq!(after.tile(t("A2")), Tile::Wild);
    // P5: A2 (swapped wild) A3 (P1) A4 (P2) A5 = 4.
    assert_eq!(theme(&after, outcome.resolution.swapped, 1, "N1-N2", 5), 4);
    assert_eq!(outcome.scores.as_ref().unwrap()[4], 4 + 6 + 1);
    // On the same grid with nothing swapped (as in any later round) the wild wall at A2
    // blocks again.
    assert_eq!(theme(&after, 0, 1, "N1-N2", 5), 5);
    // Even a failed bid leaves it blocked.
    let failed = play_round(&board(), 1, &spec, &[(seat(1), "A2 A3 3")]);
    assert_eq!(failed.scores.unwrap()[4], 5 + 6 + 1);
}

#[test]
fn borrowing_changes_with_the_round() {
    // P4 borrows P3 and P5 in round 1 (row B closed: 0) but P2 and P6 in round 2.
    assert_eq!(theme(&board(), 0, 1, "N1-N2", 4), 0);
    assert_eq!(theme(&board(), 0, 2, "N1-N2", 4), 5);
    // P2 borrows P1 (A2) and P3 (row B) in round 1: shut in; in round 3 P9 and P5: own A4
    // still blocks row A, row B is open: 5.
    assert_eq!(theme(&board(), 0, 1, "N1-N2", 2), 0);
    assert_eq!(theme(&board(), 0, 3, "N1-N2", 2), 5);
    // Ten players, round 5: P8 borrows only P3 (both sides); P9 borrows P4 and P4 again,
    // so P3's row B is open to P9.
    assert_eq!(theme(&board(), 0, 5, "N1-N2", 8), 0);
    assert_eq!(theme(&board(), 0, 5, "N1-N2", 9), 5);
    // The pregame borrows nothing and scores nothing.
    let spec = RoundSpec {
        variation: Variation::THEME,
        pairs: Vec::new(),
    };
    assert_eq!(play_round(&board(), 0, &spec, &[]).scores, None);
}

#[test]
fn nine_players_unowned_walls_block_nobody_and_swap_only_as_partners() {
    let nine = Board::parse(&GRID.replace("P10", "U"), 9).unwrap();
    for s in Seat::all(9) {
        for round in 1..=5 {
            let open = Scoring {
                round,
                variation: Variation::THEME,
                pairs: &[],
            }
            .open_tiles(&nine, 0, s);
            let unowned = nine.mask(|tile| tile == Tile::Unowned);
            assert_eq!(open & unowned, unowned);
        }
    }
    // Nine players, round 5: P1 borrows P6 and P5 (different players).
    assert_eq!(
        swapboard_swap61::blocking_seats(seat(1), 9, 5),
        [seat(1), seat(5), seat(6)]
    );
    // F6 F7 are both unowned: nobody may bid on them; P9 may swap its F5 with F6.
    let spec = RoundSpec {
        variation: Variation::THEME,
        pairs: vec![pair("N1-N2"), pair("N3-N4"), pair("N5-N6")],
    };
    let outcome = play_round(&nine, 1, &spec, &[(seat(9), "F6 F7 4\nF5 F6 5")]);
    assert_eq!(outcome.rejections.len(), 1);
    assert!(
        outcome.rejections[0]
            .1
            .reason
            .to_string()
            .contains("neither F6 nor F7")
    );
    assert_eq!(outcome.resolution.board.tile(t("F5")), Tile::Unowned);
}

#[test]
fn corner_connection_hops_between_passable_corners() {
    let corners = |pairs: &str, s: usize| {
        let pairs: Vec<Pair> = pairs.split(',').map(pair).collect();
        score(&board(), 0, 2, Variation::CORNERS, &pairs, s)
    };
    // N1 (A1) and N2 (A5) are both corners: one hop, for anyone, even P3 who is shut in.
    assert_eq!(corners("N1-N2", 5), 1);
    assert_eq!(corners("N1-N2", 3), 1);
    // N1 to N3 (G7) for P5: hop to E9 (P8's wall, open to P5), then F8, G7: 3.
    assert_eq!(corners("N1-N3", 5), 3);
    // P8 owns E9: the hop there is closed, the path is longer.
    assert!(corners("N1-N3", 8) > 3);
    // The free-teleport reading makes the hop cost nothing.
    let teleport = Variation {
        corners: Some(CornerHop::Teleport),
        ..Variation::THEME
    };
    assert_eq!(score(&board(), 0, 2, teleport, &[pair("N1-N3")], 5), 2);
}

#[test]
fn node_network_scores_every_node_to_its_nearest() {
    // For P5 in round 3 (borrowing P2 and P8): N1 and N2 are 5 apart (by row B); N3's
    // nearest is N6 by G6 G5 G4 H3 (4); N4 to N9 are packed in rows H and I: 1 each.
    let network = score(&board(), 0, 3, Variation::NETWORK, &[], 5);
    assert_eq!(network, 5 + 5 + 4 + 6);
}

#[test]
fn seat_exchange_needs_one_token_and_blocked_tiles_cost_three() {
    // P3 in round 4 borrows P9 and P7: A2 (1) A3 wild (3) A4 (1) A5 (1) = 6.
    assert_eq!(
        score(
            &board(),
            0,
            4,
            Variation::SEAT_EXCHANGE,
            &[pair("N1-N2")],
            3
        ),
        6
    );
    // A third node costs 3 too: for P5 in round 4 (borrowing P1 and P9) N4 (H1) to N6 (H3)
    // round by G2 G3 (P1's wall) costs 1 + 3 + 1, through N5 (H2) 3 + 1.
    assert_eq!(
        score(
            &board(),
            0,
            4,
            Variation::SEAT_EXCHANGE,
            &[pair("N4-N6")],
            5
        ),
        4
    );
    // One token swaps under Seat Exchange, not under the Theme.
    let bid = [(seat(1), "A2 A3 1")];
    let mut spec = RoundSpec {
        variation: Variation::SEAT_EXCHANGE,
        pairs: vec![pair("N1-N2"), pair("N3-N4"), pair("N5-N6")],
    };
    assert_eq!(
        play_round(&board(), 4, &spec, &bid).resolution.edges[0].outcome,
        EdgeOutcome::Swapped
    );
    spec.variation = Variation::THEME;
    assert_eq!(
        play_round(&board(), 4, &spec, &bid).resolution.edges[0].outcome,
        EdgeOutcome::TooFewTokens { minimum: 4 }
    );
}

/// Round 5 is not described by the sheet: swapboard plays it as the Theme unless the game
/// master sets another variation (docs/RULINGS.md, "swapboard's own choices").
#[test]
fn round_five_defaults_to_the_theme_and_can_be_set() {
    let names: Vec<String> = (1..=10).map(|i| format!("p{i}")).collect();
    let mut setup = Setup::generate(&names, 7).unwrap();
    assert_eq!(setup.rounds[5].variation, Variation::THEME);
    assert_eq!(setup.rounds[5].pairs.len(), 3);
    setup.set_round5(Variation::NETWORK);
    assert_eq!(setup.rounds[5].variation, Variation::NETWORK);
    assert!(
        setup.rounds[5].pairs.is_empty(),
        "Node Network pairs nothing"
    );
}

/// The rules read straight from docs/RULINGS.md over named cells: Dijkstra with a linear scan.
fn reference(
    board: &Board,
    swapped: TileMask,
    round: usize,
    v: Variation,
    pairs: &[Pair],
    s: Seat,
) -> u32 {
    let hex = Hexagon::new(5).unwrap();
    let cells: Vec<HexCell> = hex.cells().collect();
    let idx = |c: HexCell| tile_of(c).unwrap();
    let blockers = swapboard_swap61::blocking_seats(s, board.seats(), round);
    let blocked = |i: usize| match board.tile(i) {
        Tile::Node(_) => true,
        Tile::Wall(w) => blockers.contains(&w),
        Tile::Wild => swapped & (1 << i) == 0,
        Tile::Unowned => false,
    };
    let nodes = board.node_tiles();
    let dist = |from: usize, targets: &[usize]| -> Option<u32> {
        let mut d = [u32::MAX; 61];
        let mut done = [false; 61];
        d[from] = 0;
        let mut best = u32::MAX;
        while let Some(u) = (0..61)
            .filter(|&i| !done[i] && d[i] != u32::MAX)
            .min_by_key(|&i| d[i])
        {
            done[u] = true;
            let mut steps: Vec<(usize, u32)> =
                hex.neighbours(cells[u]).map(|n| (idx(n), 1)).collect();
            if let Some(hop) = v.corners
                && hex.is_corner(cells[u])
                && (u == from || !blocked(u))
            {
                let cost = if hop == CornerHop::Step { 1 } else { 0 };
                for c in hex.corners() {
                    let c = idx(c);
                    if c != u && (targets.contains(&c) || !blocked(c)) {
                        steps.push((c, cost));
                    }
                }
            }
            for (n, hop_cost) in steps {
                let is_hop = !hex.are_neighbours(cells[u], cells[n]);
                if targets.contains(&n) {
                    best = best.min(d[u] + if is_hop { hop_cost } else { 1 });
                    continue;
                }
                let cost = if is_hop {
                    hop_cost
                } else if !blocked(n) {
                    1
                } else if v.seat_exchange {
                    3
                } else {
                    continue;
                };
                d[n] = d[n].min(d[u] + cost);
            }
        }
        (best != u32::MAX).then_some(best)
    };
    if v.network {
        (0..9)
            .map(|k| {
                let others: Vec<usize> = (0..9).filter(|&j| j != k).map(|j| nodes[j]).collect();
                dist(nodes[k], &others).unwrap_or(0)
            })
            .sum()
    } else {
        pairs
            .iter()
            .map(|p| dist(nodes[p.0.index()], &[nodes[p.1.index()]]).unwrap_or(0))
            .sum()
    }
}

fn variation(k: u8) -> Variation {
    let mut v = Variation::THEME;
    if k & 1 != 0 {
        v.corners = Some(CornerHop::Step);
    }
    if k & 2 != 0 {
        v.network = true;
    }
    if k & 4 != 0 {
        v.seat_exchange = true;
    }
    if k & 8 != 0 && v.corners.is_some() {
        v.corners = Some(CornerHop::Teleport);
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_engine_agrees_with_the_reference(seed in 0u64..10_000, players in 9usize..=10,
                                            round in 1usize..=5, k in 0u8..16, s in 1usize..=9,
                                            swapped in any::<u64>()) {
        let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
        let setup = Setup::generate(&names, seed).unwrap();
        let pairs = [pair("N1-N2"), pair("N3-N4"), pair("N5-N6")];
        let swapped = swapped & ((1 << 61) - 1);
        let v = variation(k);
        prop_assert_eq!(
            score(&setup.start, swapped, round, v, &pairs, s),
            reference(&setup.start, swapped, round, v, &pairs, seat(s))
        );
    }

    #[test]
    fn scores_are_symmetric_in_the_pair_order(seed in 0u64..10_000, round in 1usize..=5,
                                              k in 0u8..16, s in 1usize..=10,
                                              a in 1usize..=9, b in 1usize..=9) {
        prop_assume!(a != b);
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let setup = Setup::generate(&names, seed).unwrap();
        let (na, nb) = (format!("N{a}"), format!("N{b}"));
        let v = variation(k & !2);
        prop_assert_eq!(
            score(&setup.start, 0, round, v, &[pair(&format!("{na}-{nb}"))], s),
            score(&setup.start, 0, round, v, &[pair(&format!("{nb}-{na}"))], s)
        );
    }
}
