//! Rapid Transit by Phil Leduc (2022/2024), in swapboard's words.

use swapboard_core::{CellMark, Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Rules, Section, Subject};
use crate::GameId;

/// A game under way on a 6x6 board, Red to move.
const MIDGAME: &str = "rapid-transit CRRRRR/CCCRCR/RRCRRR/CCCCCC/CRRRCR/CCRCRC R 0 C";

/// Red to move with no swap.
const STUCK: &str = "rapid-transit RRRRCR/RCCCCC/RCRRRC/RCRCRC/RCCCCC/RCRRRC R 0 C";

/// The rules of Rapid Transit.
pub(super) const RULES: Rules = Rules {
    subject: Subject::Board(GameId::RapidTransit),
    summary: "On a full board, swap your loose end pieces into the other colour's lines to \
              build the largest network of connected pieces.",
    credit: &[
        "Rapid Transit was designed by Phil Leduc (rule sheet 2022, revised 2024).",
        "Phil Leduc's sheet allows the rules to be copied and shared on the web, but \
         reserves all other rights: anyone who wants to program or sell the game is asked to \
         contact him for permission or a licence. A public swapboard server should offer \
         Rapid Transit only with that permission (an operator can leave it out; see \
         docs/DEPLOY.md).",
    ],
    sections: &[
        Section {
            heading: "Board and start",
            paragraphs: &[
                "Two players, Red and Cyan, play on a board filled with their pieces in a \
                 checkerboard pattern (8x8 by the sheet: 32 pieces each; smaller even boards \
                 are offered for quick games). Red's corner is a1. The board stays full: \
                 pieces are only ever swapped.",
                "The players decide who starts; on swapboard it is Red unless chosen \
                 otherwise. Then the turns alternate.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(
                    "rapid-transit CRCRCR/RCRCRC/CRCRCR/RCRCRC/CRCRCR/RCRCRC R 0 -",
                ),
                marked: &[],
                caption: "The start of a 6x6 game: every piece stands alone.",
                claims: &[Claim::Note(
                    "Red networks (18), largest first: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
                )],
            }],
        },
        Section {
            heading: "Networks, terminals and cornered pieces",
            paragraphs: &[
                "A network is a set of pieces of one colour connected along their sides; a \
                 piece alone is a network of size 1. Two networks are adjacent when a piece \
                 of one touches a piece of the other along a side.",
                "A terminal piece touches at most one piece of its own colour: it is the \
                 loose end of a line, or a piece alone. Only terminal pieces may be moved.",
                "A piece is cornered when it shares a 2x2 square with three pieces of the \
                 other colour. The sheet defines cornering to describe positions; no rule \
                 depends on it.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(MIDGAME),
                marked: &[],
                caption: "Lines join the pieces of a network; the largest networks are \
                          outlined, terminal pieces carry a dot and cornered ones a square.",
                claims: &[
                    Claim::Note("Red networks (5), largest first: 10 4 2 1 1"),
                    Claim::Note("Cyan networks (4), largest first: 15 1 1 1"),
                    Claim::Note("terminal pieces (^): Red 8, Cyan 7"),
                    Claim::Marks {
                        mark: CellMark::Cornered,
                        cells: &["b2", "b4", "b6", "d2", "d4", "f2", "b1", "c5", "d1", "e5"],
                    },
                ],
            }],
        },
        Section {
            heading: "A turn: one swap",
            paragraphs: &[
                "On your turn you swap one of your terminal pieces with any enemy piece \
                 that belongs to an enemy network adjacent to your piece's network. The two \
                 pieces need not touch. The swap is written with the two cells, your piece \
                 first: a4-b3.",
                "The swap must obey two more rules: afterwards no 2x2 square may be filled \
                 by one colour, either colour; and both moved pieces must each touch at \
                 least two pieces of their own colour in their new cells.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(MIDGAME),
                    marked: &["a4", "b3"],
                    caption: "Allowed: the terminal a4 swaps with b3. Red's piece on b3 \
                              touches b2 and b4, Cyan's on a4 touches a3 and a5.",
                    claims: &[Claim::Plays {
                        mv: "a4-b3",
                        after: Some(
                            "rapid-transit CRRRRR/CCCRCR/CRCRRR/CRCCCC/CRRRCR/CCRCRC C 0 R",
                        ),
                    }],
                },
                Diagram {
                    board: Board::Square(MIDGAME),
                    marked: &["c2", "c3"],
                    caption: "Not allowed: c2 touches three red pieces, so it is no terminal.",
                    claims: &[Claim::Refused {
                        mv: "c2-c3",
                        rule: Rule::NotTerminal,
                    }],
                },
                Diagram {
                    board: Board::Square(MIDGAME),
                    marked: &["a4", "d1"],
                    caption: "Not allowed: the cyan d1 stands alone, and that network does not \
                              touch the network of a4 and b4.",
                    claims: &[Claim::Refused {
                        mv: "a4-d1",
                        rule: Rule::NetworksNotAdjacent,
                    }],
                },
                Diagram {
                    board: Board::Square(MIDGAME),
                    marked: &["b4", "c3"],
                    caption: "Not allowed: a cyan piece on b4 would fill the square b4, c4, \
                              b5, c5 with cyan.",
                    claims: &[Claim::Refused {
                        mv: "b4-c3",
                        rule: Rule::BlockFormed,
                    }],
                },
                Diagram {
                    board: Board::Square(MIDGAME),
                    marked: &["a4", "a1"],
                    caption: "Not allowed: a red piece on a1 would touch no red piece at all.",
                    claims: &[Claim::Refused {
                        mv: "a4-a1",
                        rule: Rule::TooFewNeighbours,
                    }],
                },
            ],
        },
        Section {
            heading: "Passing and the end",
            paragraphs: &[
                "A player with no allowed swap must pass, and only then: passing is never a \
                 choice. When both players pass one after the other, the game is over.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(STUCK),
                marked: &[],
                caption: "Red has no allowed swap and passes; Cyan still has swaps, so the \
                          game goes on.",
                claims: &[
                    Claim::Moves(&["pass"]),
                    Claim::Plays {
                        mv: "pass",
                        after: Some(
                            "rapid-transit RRRRCR/RCCCCC/RCRRRC/RCRCRC/RCCCCC/RCRRRC C 1 C",
                        ),
                    },
                ],
            }],
        },
        Section {
            heading: "Winning and the tie-breaks",
            paragraphs: &[
                "At the end, the player with the larger largest network wins. If the two \
                 largest networks are equal, the second largest decide, then the third, \
                 and so on. If both players' network sizes are the same all the way down, \
                 the last player who swapped wins.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(
                        "rapid-transit CCCCCR/RRRRCR/RCCCCR/RRRCRR/RCRRRC/RCCCCC C 2 R",
                    ),
                    marked: &[],
                    caption: "Both passed. Red's network of 18 beats Cyan's largest, 11.",
                    claims: &[Claim::Result(Some(Outcome::Win(Player::First)))],
                },
                Diagram {
                    board: Board::Square(
                        "rapid-transit CCCRRR/CRRRCC/CCCRRC/RRRCRC/RCRCRC/RRRCCC C 2 R",
                    ),
                    marked: &[],
                    caption: "Both largest networks have 10 pieces; Red's second (8) beats \
                              Cyan's (7): Red wins.",
                    claims: &[
                        Claim::Note("Red networks (2), largest first: 10 8"),
                        Claim::Note("Cyan networks (3), largest first: 10 7 1"),
                        Claim::Result(Some(Outcome::Win(Player::First))),
                    ],
                },
                Diagram {
                    board: Board::Square(
                        "rapid-transit CRRCCR/CCRCRR/RRRCCC/RCCCRC/RCRRRC/RRRCCC C 2 R",
                    ),
                    marked: &[],
                    caption: "Both have networks of 15 and 3: Red made the last swap and wins.",
                    claims: &[
                        Claim::Note("Red networks (2), largest first: 15 3"),
                        Claim::Note("Cyan networks (2), largest first: 15 3"),
                        Claim::Result(Some(Outcome::Win(Player::First))),
                    ],
                },
            ],
        },
    ],
};
