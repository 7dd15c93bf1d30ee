//! Swap 61 by 'pseudonam', in swapboard's words.

use swapboard_swap61::Variation;

use super::{Board, Claim, Diagram, HexRound, Rules, Section, Source, Subject};

/// A starting grid for ten seats: nodes at the six corners and three inside, the wild walls
/// on D5 and G4.
const GRID: &str = "\
A: N1 P1 P1 P2 N2
B: P1 P1 P2 P2 P2 P3
C: P3 P3 P3 P4 P4 P4 P4
D: P4 P5 P5 P5 W P5 P5 P6
E: N3 P6 P6 P6 N4 P6 P7 P7 N5
F: P7 P7 P7 P8 P8 P8 P8 P8
G: P9 P9 P9 W P9 P9 P10
H: P10 P10 P10 P10 N6 N7
I: N8 P1 P2 P3 N9";

/// Seat 2's submission in round 1: two lines accepted, three rejected.
const SEAT2_BIDS: &str = "A4 A5 5\nB3 D4 2\nC1 C2 1\nB4 C5 5\nD5 E5 3";

/// A round 1 of seven seats bidding.
const ROUND: &[(usize, &str)] = &[
    (1, "A1 A2 3"),
    (2, "A4 A5 5\nD5 E5 3"),
    (5, "D5 E5 3\nD4 E4 4"),
    (6, "E4 D4 4"),
    (8, "E5 F5 5"),
    (9, "G3 G4 4"),
    (10, "H4 G4 4"),
];

/// The pairs of round 1 and of round 2's picture: every one of their nodes is on a corner.
const CORNER_PAIRS: &str = "N1-N2,N3-N5,N8-N9";

/// Round 1 as the diagrams play it.
const fn round(bids: &'static [(usize, &'static str)], after: bool) -> HexRound {
    HexRound {
        grid: GRID,
        seats: 10,
        round: 1,
        variation: Variation::THEME,
        pairs: CORNER_PAIRS,
        bids,
        after,
    }
}

/// Round `number` of the starting grid with its variation and pairs, after these bids.
const fn later_round(
    number: usize,
    variation: Variation,
    pairs: &'static str,
    bids: &'static [(usize, &'static str)],
) -> HexRound {
    HexRound {
        round: number,
        variation,
        pairs,
        ..round(bids, true)
    }
}

/// The rules of Swap 61.
pub(super) const RULES: Rules = Rules {
    subject: Subject::Swap61,
    summary: "Nine or ten players bid tokens in secret to swap tiles of a hexagonal grid, \
              each trying to make their own shortest paths between pairs of nodes long.",
    credit: &[
        "Swap 61 is by 'pseudonam', a main match of the series \"The Genius: Variations on a \
         Theme\"; the rule sheet gives no year. It needs a game master, who collects the \
         secret bids and resolves each round (swapboard does that part).",
    ],
    links: &[],
    sections: &[
        Section {
            source: Source::Sheet,
            heading: "The grid",
            paragraphs: &[
                "The board is a hexagon of 61 tiles with five tiles on each side, in rows A \
                 (top) to I (bottom) of 5, 6, 7, 8, 9, 8, 7, 6 and 5 tiles, numbered from 1 \
                 at the left. Two tiles are neighbours when they share an edge.",
                "The tiles are 9 nodes (N1 to N9), 5 walls for each player (shown with the \
                 seat's number), and 2 wild walls that belong to every player. With nine \
                 players the five spare walls belong to nobody. The starting grid is drawn \
                 at random.",
            ],
            sheet: &[
                "This game is played on a hexhex5 grid. The grid has 52 walls and 9 nodes, \
                 which will be randomized when the game begins.",
            ],
            diagrams: &[Diagram {
                board: Board::Hex(round(&[], false)),
                marked: &[],
                caption: "A starting grid for ten seats: A3 touches B3 and B4 below it (not \
                          B2), E5 touches F4; the wild walls are D5 and G4.",
                claims: &[
                    Claim::Touching {
                        a: "A3",
                        b: "B3",
                        touching: true,
                    },
                    Claim::Touching {
                        a: "A3",
                        b: "B4",
                        touching: true,
                    },
                    Claim::Touching {
                        a: "A3",
                        b: "B2",
                        touching: false,
                    },
                    Claim::Touching {
                        a: "E5",
                        b: "F4",
                        touching: true,
                    },
                ],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Tokens and bids",
            paragraphs: &[
                "The game has a pregame and five rounds. Each player gets 4 tokens in the \
                 pregame and 9 in each round; tokens left unused are lost when the round \
                 ends.",
                "A bid puts tokens on an edge between two neighbouring tiles, asking for \
                 those two tiles to trade places. At least one of them must be one of your \
                 own walls or a wild wall. A submission is one bid per line, written \
                 CELL CELL TOKENS (for example A4 A5 5). Bids are secret: only their author \
                 and the game master ever see them.",
                "A line that breaks a rule is rejected with its reason and the others still \
                 count; a line that would take you over your tokens is rejected, and later \
                 lines that fit are still taken.",
            ],
            sheet: &[
                "Players can use their tokens in order to attempt to swap tiles bordering the \
                 same edge. At least one of the two tiles bordering the edge must be a wall \
                 they own (or a wild wall).",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Hex(HexRound {
                        bids: &[(2, SEAT2_BIDS)],
                        ..round(&[], false)
                    }),
                    marked: &[],
                    caption: "Seat 2 (walls A4, B3, B4, B5, I3) writes A4 A5 5 / B3 D4 2 / C1 C2 1 / \
                          B4 C5 5 / D5 E5 3: line 2 is refused (B3 and D4 do not touch), \
                          line 3 too (neither tile is seat 2's), line 4 would spend 10 of 9 \
                          tokens; lines 1 and 5 stand (marked).",
                    claims: &[
                        Claim::Rejects {
                            seat: 2,
                            line: 2,
                            reason: "B3 and D4 are not neighbours",
                        },
                        Claim::Rejects {
                            seat: 2,
                            line: 3,
                            reason: "neither C1 nor C2 is your wall or a wild wall at the start of the round",
                        },
                        Claim::Rejects {
                            seat: 2,
                            line: 4,
                            reason: "5 tokens over your allowance: 5 of 9 already spent",
                        },
                    ],
                },
                Diagram {
                    board: Board::Hex(HexRound {
                        round: 0,
                        pairs: "",
                        bids: &[(1, "A1 A2 4"), (2, "A4 A5 5\nB4 C5 4")],
                        ..round(&[], true)
                    }),
                    marked: &[],
                    caption: "The pregame: 4 tokens each and no pairs to score. Seat 2's A4 A5 5 is \
                          over its 4 tokens; seat 1's A1 A2 4 and seat 2's B4 C5 4 swap (marked): \
                          a wall may trade places with a node.",
                    claims: &[
                        Claim::Rejects {
                            seat: 2,
                            line: 1,
                            reason: "5 tokens over your allowance: 0 of 4 already spent",
                        },
                        Claim::Resolves(&["swap A1 A2 4", "swap B4 C5 4"]),
                    ],
                },
            ],
        },
        Section {
            source: Source::Sheet,
            heading: "Resolving a round",
            paragraphs: &[
                "When the round closes, the tokens of all players on the same edge are added \
                 up. Edges are then taken in groups of equal totals, from the highest total \
                 to the lowest.",
                "In each group, an edge can swap only if it has at least 4 tokens and \
                 neither of its tiles has already been swapped this round. Of those, an \
                 edge whose tile also appears in another such edge of the same group fails; \
                 the others all swap at once. Walls may trade places with nodes, so nodes \
                 move too.",
            ],
            sheet: &[
                "1) At least four tokens have been spent for the swap. 2) Both adjacent tiles \
                 have not already been successfully swapped with any other tile. 3) Both \
                 tiles do not appear in any other swap with an equal number of tokens that \
                 satisfies the two prior conditions.",
            ],
            diagrams: &[Diagram {
                board: Board::Hex(round(ROUND, false)),
                marked: &[],
                caption: "Round 1: D4-E4 has 8 tokens (seats 5 and 6), D5-E5 6, A4-A5 and \
                          E5-F5 5, G3-G4 and G4-H4 4, A1-A2 3 (the edges bid on are marked). \
                          D4-E4, D5-E5 and A4-A5 swap; E5 was already swapped; G3-G4 and \
                          G4-H4 share G4 at equal tokens, so neither swaps; A1-A2 has too few.",
                claims: &[Claim::Resolves(&[
                    "swap D4 E4 8",
                    "swap D5 E5 6",
                    "swap A4 A5 5",
                    "fail E5 F5 5 E5 was already swapped this round",
                    "fail G3 G4 4 G4 is also in G4 H4 with the same tokens",
                    "fail G4 H4 4 G4 is also in G3 G4 with the same tokens",
                    "fail A1 A2 3 fewer than the 4 tokens a swap needs",
                ])],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Scoring",
            paragraphs: &[
                "Each round (not the pregame) joins three pairs of nodes, announced a round \
                 ahead; the three nodes left out of one round are paired in the next.",
                "For each pair, every player scores the length of their own shortest path: \
                 the number of tiles entered from one node to the other, the last node \
                 included. A player's path may not enter their own walls, the walls they \
                 borrow this round, a wild wall that was not swapped this round, or any \
                 node outside the pair. With no such path the pair scores nothing.",
                "Players sit in a published random order around a circle; in round n each \
                 player borrows the walls of the players n seats before and n seats after.",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Hex(round(ROUND, true)),
                marked: &[],
                caption: "After round 1 (the swaps marked): the points of seats 1 to 10 for the \
                          pairs N1-N2, N3-N5 and N8-N9 are 8, 8, 11, 12, 16, 7, 7, 16, 15 \
                          and 8.",
                claims: &[Claim::Scores(&[8, 8, 11, 12, 16, 7, 7, 16, 15, 8])],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Rounds 2 to 4",
            paragraphs: &[
                "Round 2, Corner Connection: the six corner tiles are neighbours of each \
                 other, so a path may hop from one corner to another it may enter, at the \
                 cost of one tile.",
                "Round 3, Node Network: there are no pairs; every one of the nine nodes \
                 scores its distance to the nearest other node, by each player's own paths.",
                "Round 4, Ultimate Seat Exchange: a swap needs only one token, and a path \
                 may enter a tile it could not enter otherwise at a cost of three instead \
                 of one, so every pair scores.",
            ],
            sheet: &[],
            diagrams: &[
                Diagram {
                    board: Board::Hex(later_round(2, Variation::CORNERS, CORNER_PAIRS, &[])),
                    marked: &[],
                    caption: "Round 2 on the starting grid with the pairs N1-N2, N3-N5 and \
                              N8-N9: all six nodes are corners, so each pair is one hop and \
                              every seat scores 3.",
                    claims: &[Claim::Scores(&[3, 3, 3, 3, 3, 3, 3, 3, 3, 3])],
                },
                Diagram {
                    board: Board::Hex(later_round(3, Variation::NETWORK, "", &[])),
                    marked: &[],
                    caption: "Round 3 on the starting grid: adding up each node's distance to \
                              its nearest node, seats 1 to 10 score 25, 26, 23, 23, 27, 28, \
                              26, 23, 27 and 22.",
                    claims: &[Claim::Scores(&[25, 26, 23, 23, 27, 28, 26, 23, 27, 22])],
                },
                Diagram {
                    board: Board::Hex(later_round(
                        4,
                        Variation::SEAT_EXCHANGE,
                        "N1-N9,N3-N5,N6-N7",
                        &[(1, "A3 A4 1"), (3, "C1 D1 2")],
                    )),
                    marked: &[],
                    caption: "Round 4: seat 3's C1 D1 2 and seat 1's A3 A4 1 swap (marked) with \
                              fewer than 4 tokens; with blocked tiles entered at a cost of 3, \
                              seats 1 to 10 score 24, 23, 23, 23, 25, 22, 24, 21, 24 and 22 for \
                              N1-N9, N3-N5 and N6-N7.",
                    claims: &[
                        Claim::Resolves(&["swap C1 D1 2", "swap A3 A4 1"]),
                        Claim::Scores(&[24, 23, 23, 23, 25, 22, 24, 21, 24, 22]),
                    ],
                },
            ],
        },
        Section {
            source: Source::Reading,
            heading: "What the sheet leaves open",
            paragraphs: &[
                "With nine players, the five walls nobody owns block nobody; they can only \
                 be swapped as the partner of an owned or wild wall.",
                "A wild wall counts as swapped this round once it took part in a successful \
                 swap, wherever it went; until then it blocks every path.",
                "In Corner Connection, a hop from one corner to another costs one tile, and \
                 only between corners the player may enter. (Reading the corners as a free \
                 teleport is the other choice; a room can set it.)",
                "The sheet names no winner: the standings are the running totals of the \
                 rounds' points, with equal totals sharing a rank.",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Hex(round(&[(2, "D5 E5 4")], true)),
                marked: &[],
                caption: "Seat 2's D5 E5 4 swaps the wild wall D5 with the node on E5: for \
                          the rest of round 1 that wild wall is open to every path.",
                claims: &[Claim::Resolves(&["swap D5 E5 4"])],
            }],
        },
        Section {
            source: Source::Choice,
            heading: "Round 5",
            paragraphs: &[
                "The sheet describes the variations of rounds 1 to 4 and says nothing of \
                 round 5. swapboard plays round 5 as the theme, with no variation, unless \
                 the room's game master sets another.",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Hex(later_round(5, Variation::THEME, CORNER_PAIRS, &[])),
                marked: &[],
                caption: "Round 5 as the theme on the starting grid, for the pairs N1-N2, \
                          N3-N5 and N8-N9: each seat borrows the walls of the seat five \
                          places away, and seats 1 to 10 score 14, 21, 14, 17, 17, 14, 21, \
                          14, 17 and 17.",
                claims: &[Claim::Scores(&[14, 21, 14, 17, 17, 14, 21, 14, 17, 17])],
            }],
        },
    ],
};
