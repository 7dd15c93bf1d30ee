//! Resolution: the tokens of all players on each edge, turned into swaps group by group.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::{Board, TileMask, bit, cell_of};
use crate::submission::Edge;

/// What became of an edge that received tokens.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum EdgeOutcome {
    /// The two tiles were swapped.
    Swapped,
    /// Fewer tokens than the round's minimum.
    TooFewTokens {
        /// The minimum of the round.
        minimum: u32,
    },
    /// A tile had already been swapped by an edge with more tokens.
    AlreadySwapped {
        /// The tile.
        tile: u8,
    },
    /// A tile is also in another candidate of the same token count.
    Conflict {
        /// The shared tile.
        tile: u8,
        /// The other edge.
        with: Edge,
    },
}

impl fmt::Display for EdgeOutcome {
    /// The reason for a failure (empty for a swap).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EdgeOutcome::Swapped => Ok(()),
            EdgeOutcome::TooFewTokens { minimum } => {
                write!(f, "fewer than the {minimum} tokens a swap needs")
            }
            EdgeOutcome::AlreadySwapped { tile } => {
                write!(
                    f,
                    "{} was already swapped this round",
                    cell_of(usize::from(tile))
                )
            }
            EdgeOutcome::Conflict { tile, with } => write!(
                f,
                "{} is also in {with} with the same tokens",
                cell_of(usize::from(tile))
            ),
        }
    }
}

/// One edge's line of the resolution.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EdgeResult {
    /// The edge.
    pub edge: Edge,
    /// All players' tokens on it, added up.
    pub tokens: u32,
    /// What happened.
    pub outcome: EdgeOutcome,
}

impl fmt::Display for EdgeResult {
    /// The contract's line: `swap A2 A3 9` or `fail A2 A3 3 <reason>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            EdgeOutcome::Swapped => write!(f, "swap {} {}", self.edge, self.tokens),
            other => write!(f, "fail {} {} {other}", self.edge, self.tokens),
        }
    }
}

/// The result of resolving a round's bids.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Resolution {
    /// Every edge that received tokens, in resolution order: by tokens, highest first, then
    /// by edge.
    pub edges: Vec<EdgeResult>,
    /// The grid after the swaps.
    pub board: Board,
    /// The tiles that took part in a successful swap (after the swaps, a wild wall on one of
    /// them was swapped this round).
    pub swapped: TileMask,
}

/// Adds up the tokens of all bids per edge, in edge order.
pub fn total_tokens(bids: impl IntoIterator<Item = (Edge, u32)>) -> Vec<(Edge, u32)> {
    let mut all: Vec<(Edge, u32)> = bids.into_iter().collect();
    all.sort_unstable_by_key(|&(e, _)| e);
    let mut merged: Vec<(Edge, u32)> = Vec::with_capacity(all.len());
    for (edge, tokens) in all {
        match merged.last_mut() {
            Some((last, total)) if *last == edge => *total += tokens,
            _ => merged.push((edge, tokens)),
        }
    }
    merged
}

/// Resolves the bids of a round on `board` with the round's minimum tokens per swap.
///
/// Edges are grouped by total tokens, highest first. In a group, a *candidate* has at least
/// `minimum` tokens and neither tile already swapped this round; a candidate succeeds iff
/// neither tile is in another candidate of the group. A group's successes are applied
/// together; failures mark nothing.
pub fn resolve(
    board: &Board,
    bids: impl IntoIterator<Item = (Edge, u32)>,
    minimum: u32,
) -> Resolution {
    let mut edges = total_tokens(bids);
    edges.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut board = *board;
    let mut swapped: TileMask = 0;
    let mut results = Vec::with_capacity(edges.len());
    let mut start = 0;
    while start < edges.len() {
        let tokens = edges[start].1;
        let end = start + edges[start..].iter().take_while(|e| e.1 == tokens).count();
        let group = &edges[start..end];
        let first_results = results.len();
        // Conditions 1 and 2 pick the candidates; count how often each tile appears in one.
        let mut seen_once: TileMask = 0;
        let mut seen_twice: TileMask = 0;
        for &(edge, _) in group {
            let (a, b) = edge.tiles();
            let outcome = if tokens < minimum {
                EdgeOutcome::TooFewTokens { minimum }
            } else if let Some(t) = [a, b].into_iter().find(|&t| swapped & bit(t) != 0) {
                EdgeOutcome::AlreadySwapped { tile: t as u8 }
            } else {
                let cells = bit(a) | bit(b);
                seen_twice |= seen_once & cells;
                seen_once |= cells;
                EdgeOutcome::Swapped
            };
            results.push(EdgeResult {
                edge,
                tokens,
                outcome,
            });
        }
        // Condition 3, then apply the group's successes together.
        let candidates: Vec<Edge> = results[first_results..]
            .iter()
            .filter(|r| r.outcome == EdgeOutcome::Swapped)
            .map(|r| r.edge)
            .collect();
        for result in &mut results[first_results..] {
            if result.outcome != EdgeOutcome::Swapped {
                continue;
            }
            let edge = result.edge;
            let (a, b) = edge.tiles();
            if let Some(t) = [a, b].into_iter().find(|&t| seen_twice & bit(t) != 0) {
                let with = *candidates
                    .iter()
                    .find(|&&e| e != edge && e.touches(t))
                    .expect("a tile seen twice is in another candidate");
                result.outcome = EdgeOutcome::Conflict {
                    tile: t as u8,
                    with,
                };
            } else {
                swapped |= bit(a) | bit(b);
                board.swap(a, b);
            }
        }
        start = end;
    }
    Resolution {
        edges: results,
        board,
        swapped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Tile, parse_tile, tests::TEN};
    use proptest::prelude::*;

    fn edge(a: &str, b: &str) -> Edge {
        Edge::new(parse_tile(a).unwrap(), parse_tile(b).unwrap()).unwrap()
    }

    fn board() -> Board {
        Board::parse(TEN, 10).unwrap()
    }

    fn lines(r: &Resolution) -> Vec<String> {
        r.edges.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn swaps_go_from_most_tokens_to_least() {
        // B5-B6 (5) and B5-C5 share B5: the higher bid wins, the lower finds B5 swapped.
        let r = resolve(&board(), [(edge("B5", "C5"), 4), (edge("B5", "B6"), 5)], 4);
        assert_eq!(
            lines(&r),
            [
                "swap B5 B6 5",
                "fail B5 C5 4 B5 was already swapped this round"
            ]
        );
        assert_eq!(
            r.swapped,
            bit(parse_tile("B5").unwrap()) | bit(parse_tile("B6").unwrap())
        );
    }

    #[test]
    fn tokens_of_all_players_on_one_edge_add_up() {
        let r = resolve(&board(), [(edge("B5", "B6"), 2), (edge("B6", "B5"), 2)], 4);
        assert_eq!(lines(&r), ["swap B5 B6 4"]);
    }

    #[test]
    fn equal_tokens_conflict_and_both_fail() {
        let r = resolve(
            &board(),
            [
                (edge("B4", "B5"), 4),
                (edge("B5", "C5"), 4),
                (edge("E1", "E2"), 4),
            ],
            4,
        );
        assert_eq!(
            lines(&r),
            [
                "fail B4 B5 4 B5 is also in B5 C5 with the same tokens",
                "fail B5 C5 4 B5 is also in B4 B5 with the same tokens",
                "swap E1 E2 4",
            ]
        );
        // Failed edges mark nothing: a lower edge through B5 still swaps.
        let r = resolve(
            &board(),
            [
                (edge("B4", "B5"), 6),
                (edge("B5", "C5"), 6),
                (edge("B5", "B6"), 5),
            ],
            4,
        );
        assert_eq!(r.edges[2].outcome, EdgeOutcome::Swapped);
    }

    #[test]
    fn a_conflict_only_counts_candidates() {
        // B5-C5 (5) swaps first. In the 4-group, B4-B5 is no candidate (B5 is swapped), so
        // it does not stop B4-C4, which shares B4 with it.
        let r = resolve(
            &board(),
            [
                (edge("B5", "C5"), 5),
                (edge("B4", "B5"), 4),
                (edge("B4", "C4"), 4),
            ],
            4,
        );
        assert_eq!(r.edges[1].edge, edge("B4", "B5"));
        assert_eq!(
            r.edges[1].outcome,
            EdgeOutcome::AlreadySwapped {
                tile: parse_tile("B5").unwrap() as u8
            }
        );
        assert_eq!(r.edges[2].outcome, EdgeOutcome::Swapped);
    }

    #[test]
    fn a_cell_is_swapped_at_most_once_and_nodes_move() {
        let r = resolve(&board(), [(edge("A5", "B6"), 9), (edge("B6", "C7"), 8)], 4);
        assert_eq!(
            r.board.tile(parse_tile("B6").unwrap()),
            Tile::Node("N5".parse().unwrap())
        );
        assert_eq!(
            r.edges[1].outcome,
            EdgeOutcome::AlreadySwapped {
                tile: parse_tile("B6").unwrap() as u8
            }
        );
    }

    #[test]
    fn minimum_tokens_depend_on_the_variation() {
        let bids = [(edge("B5", "B6"), 3), (edge("C1", "C2"), 1)];
        let four = resolve(&board(), bids, 4);
        assert_eq!(
            lines(&four),
            [
                "fail B5 B6 3 fewer than the 4 tokens a swap needs",
                "fail C1 C2 1 fewer than the 4 tokens a swap needs"
            ]
        );
        assert_eq!(four.board, board());
        let one = resolve(&board(), bids, 1);
        assert!(one.edges.iter().all(|e| e.outcome == EdgeOutcome::Swapped));
    }

    fn any_bids() -> impl Strategy<Value = Vec<(usize, usize, u32)>> {
        prop::collection::vec((0usize..61, 0usize..6, 1u32..12), 0..40)
    }

    fn to_edges(raw: &[(usize, usize, u32)]) -> Vec<(Edge, u32)> {
        let g = crate::board::geometry();
        raw.iter()
            .map(|&(t, k, n)| {
                let nb = g.neighbours[t][k % usize::from(g.degree[t])];
                (Edge::new(t, usize::from(nb)).unwrap(), n)
            })
            .collect()
    }

    proptest! {
        #[test]
        fn resolution_never_swaps_a_cell_twice(raw in any_bids(), minimum in 1u32..5) {
            let r = resolve(&board(), to_edges(&raw), minimum);
            let mut used: TileMask = 0;
            let mut replay = board();
            for e in r.edges.iter().filter(|e| e.outcome == EdgeOutcome::Swapped) {
                let (a, b) = e.edge.tiles();
                prop_assert!(used & (bit(a) | bit(b)) == 0);
                prop_assert!(e.tokens >= minimum);
                used |= bit(a) | bit(b);
                replay.swap(a, b);
            }
            prop_assert_eq!(used, r.swapped);
            prop_assert_eq!(replay, r.board);
            // Resolution order: tokens never increase.
            prop_assert!(r.edges.windows(2).all(|w| w[0].tokens >= w[1].tokens));
        }

        #[test]
        fn resolution_ignores_bid_order(raw in any_bids()) {
            let mut edges = to_edges(&raw);
            let a = resolve(&board(), edges.clone(), 4);
            edges.reverse();
            prop_assert_eq!(a, resolve(&board(), edges, 4));
        }
    }
}
