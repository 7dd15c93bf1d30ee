//! Rapid Transit by Phil Leduc (2022/2024), in swapboard's words.

use swapboard_core::{CellMark, Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Link, Rules, Section, Source, Subject};
use crate::GameId;

/// The start of the sheet's 8x8 game.
const START: &str = "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/\
                     CRCRCRCR/RCRCRCRC R 0 -";

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
        "Rapid Transit was designed by Phil Leduc. Copyright (c) 2022 and 2024, Phil Leduc.",
        "The author's terms, as his sheet states them: \"Please note that for now these game \
         rules may be duplicated and distributed via the web. All rights are reserved. \
         Those that wish to program or sell this game in any form should contact the \
         author at philleduc.pled@gmail.com for permission or a license to do so.\"",
        "A public swapboard server offers Rapid Transit only when its operator names it \
         (swapboard serve --games), which an operator should do only with the author's \
         permission (docs/DEPLOY.md).",
    ],
    links: &[Link {
        text: "Phil Leduc, the contact his sheet gives",
        href: "mailto:philleduc.pled@gmail.com",
    }],
    sections: &[
        Section {
            source: Source::Sheet,
            heading: "Board and start",
            paragraphs: &[
                "Two players, Red and Cyan, play on an 8x8 board that starts full: 32 pieces \
                 each, in a checkerboard pattern with Red's piece on a1. The board stays \
                 full: pieces are only ever swapped. The turns alternate.",
            ],
            sheet: &["initial setup: each player has 32 pieces of their color"],
            diagrams: &[Diagram {
                board: Board::Square(START),
                marked: &[],
                caption: "The start: every piece stands alone, a network of size 1.",
                claims: &[
                    Claim::Result(None),
                    Claim::Note(
                        "Red networks (32), largest first: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
                         1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
                    ),
                ],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Networks, terminals and cornered pieces",
            paragraphs: &[
                "A network is a set of pieces of one colour connected along their sides; a \
                 piece alone is a network of size 1. Two networks are adjacent when a piece \
                 of one touches a piece of the other along a side.",
                "A terminal piece touches at most one piece of its own colour: it is the \
                 loose end of a line, or a piece alone. The piece you swap must be one of \
                 your own terminals; the enemy piece it trades places with may be any piece \
                 of an adjacent enemy network, terminal or not.",
                "A piece is cornered when it shares a 2x2 square with three pieces of the \
                 other colour.",
            ],
            sheet: &[
                "Terminal: A terminal piece is a piece with zero or one like-colored \
                 adjacent piece.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(MIDGAME),
                marked: &[],
                caption: "Lines join the pieces of a network; the largest networks are \
                          outlined, terminal pieces carry a dot and cornered ones a square. \
                          Red's networks have 10, 4, 2, 1 and 1 pieces, Cyan's 15, 1, 1 and \
                          1; Red has 8 terminal pieces, Cyan 7.",
                claims: &[
                    Claim::Note("Red networks (5), largest first: 10 4 2 1 1"),
                    Claim::Note("Cyan networks (4), largest first: 15 1 1 1"),
                    Claim::Note("terminal pieces (^): Red 8, Cyan 7"),
                ],
            }],
        },
        Section {
            source: Source::Sheet,
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
            sheet: &[
                "The player must use one of his or her terminal pieces but can swap with \
                 any opponent piece in an adjacent network.",
                "A player may not create a 2 x 2 arrangement of like-colored pieces.",
                "After moving, both pieces must have two or more corresponding friendly \
                 adjacent pieces, that is, they must no longer be terminal pieces.",
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
            source: Source::Sheet,
            heading: "Passing and the end",
            paragraphs: &[
                "A player with no allowed swap must pass, and only then: passing is never a \
                 choice. When both players pass one after the other, the game is over.",
            ],
            sheet: &[
                "On a turn, a player must swap two opposing pieces from adjacent networks \
                 or pass if unable to swap.",
                "The game ends when both players pass consecutively.",
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
            source: Source::Sheet,
            heading: "Winning and the tie-breaks",
            paragraphs: &[
                "At the end, the player with the larger largest network wins. If the two \
                 largest networks are equal, the second largest decide, then the third, \
                 and so on. If both players' network sizes are the same all the way down, \
                 the last player who swapped wins.",
            ],
            sheet: &[
                "The player with the largest network wins. If there is a tie, the player \
                 with the second largest network wins, and so on. If network sizes fail to \
                 determine a winner, the last player to swap two pieces wins.",
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
        Section {
            source: Source::Reading,
            heading: "Cornered pieces and repeated positions",
            paragraphs: &[
                "The sheet defines cornering, but none of its rules uses it: swapboard shows \
                 cornered pieces and enforces nothing about them.",
                "The sheet has no rule against repeating a position. swapboard records \
                 repetitions; its self-play tools may stop an endless game at a move cap \
                 and report it as capped, never as a result of the rules. If both players \
                 pass before anybody has swapped, the network sizes are equal and nobody \
                 made the last swap: swapboard calls that game drawn.",
            ],
            sheet: &[
                "Cornering: A piece is cornered if it is part of a 2 x 2 formation and the \
                 other three pieces are opponent pieces.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(MIDGAME),
                marked: &[],
                caption: "The cornered pieces carry a square: Red's b2, b4, b6, d2, d4 and \
                          f2, Cyan's b1, c5, d1 and e5.",
                claims: &[Claim::Marks {
                    mark: CellMark::Cornered,
                    cells: &["b2", "b4", "b6", "d2", "d4", "f2", "b1", "c5", "d1", "e5"],
                }],
            }],
        },
        Section {
            source: Source::Choice,
            heading: "Other board sizes, and who starts",
            paragraphs: &[
                "The sheet's board is 8x8. swapboard also offers the even sizes from 4x4 to \
                 16x16 for quicker or longer games, never as the default; they start in the \
                 same checkerboard pattern.",
                "The sheet does not say who starts: the players decide, and on swapboard Red \
                 starts unless they choose otherwise.",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Square(
                    "rapid-transit CRCRCR/RCRCRC/CRCRCR/RCRCRC/CRCRCR/RCRCRC R 0 -",
                ),
                marked: &[],
                caption: "The start of a 6x6 game: 18 pieces each, every one alone.",
                claims: &[Claim::Note(
                    "Red networks (18), largest first: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
                )],
            }],
        },
    ],
};
