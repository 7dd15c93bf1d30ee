//! Swaptimum by Mark Steere (2023), in swapboard's words.

use swapboard_core::{Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Rules, Section, Source, Subject};
use crate::GameId;

/// Red to move: Red's c3 would make a crosscut with b2, b3 and c2.
const CROSSCUT: &str = "swaptimum ...R./...B./.B.../.RB../....R R";

/// The rules of Swaptimum.
pub(super) const RULES: Rules = Rules {
    subject: Subject::Board(GameId::Swaptimum),
    summary: "Join your two sides with a path of checkers; whenever a placement makes a \
              crosscut, you must swap two checkers to break it up.",
    credit: &[
        "Swaptimum was designed by Mark Steere in August 2023, inspired by Reneo (2023) by \
         Luis Bolaños Mures. Copyright (c) 2023 Mark Steere.",
        super::STEERE_TERMS,
    ],
    links: &[super::STEERE_SITE],
    sections: &[
        Section {
            source: Source::Sheet,
            heading: "Board and goal",
            paragraphs: &[
                "Two players, Red and Blue, share a square board that starts empty. Red \
                 moves first; then the turns alternate.",
                "Red wants a chain of red checkers from the top row to the bottom row; \
                 Blue wants one of blue checkers from the left column to the right column. \
                 Checkers in a chain touch along a side: touching only at a corner does not \
                 count.",
                "Whoever has such a chain at the end of any turn has won, even when the \
                 chain was completed during the opponent's turn by a swap.",
            ],
            sheet: &[
                "Red must form a path of red checkers (interconnected via horizontal or \
                 vertical adjacencies, or both) connecting the two red sides of the board.",
                "It's possible that a player may win on the other player's turn.",
            ],
            diagrams: &[Diagram {
                board: Board::Square("swaptimum ..R../.BR../..RB./.BR../..R.. B"),
                marked: &[],
                caption: "Red's column c joins the top and the bottom: Red has won.",
                claims: &[Claim::Result(Some(Outcome::Win(Player::First)))],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Crosscuts",
            paragraphs: &[
                "A crosscut is a 2x2 square of four checkers in which each diagonal holds \
                 one colour: two red checkers on one diagonal, two blue on the other.",
                "At the end of a turn no crosscut may stand anywhere on the board.",
            ],
            sheet: &[
                "A crosscut is comprised of four adjacent checkers arranged in a square. Two \
                 of the checkers are red and two are blue. Like-colored checkers are \
                 diagonally opposed in the square.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(CROSSCUT),
                marked: &["b2", "b3", "c2", "c3"],
                caption: "A red checker on c3 would make a crosscut of b2, b3, c2 and c3: \
                          placed on its own, without a swap, it is refused.",
                claims: &[Claim::Refused {
                    mv: "c3",
                    rule: Rule::SwapRequired,
                }],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "A turn: a placement, and a swap after a crosscut",
            paragraphs: &[
                "On your turn you put one of your checkers on an empty cell. If that forms \
                 no crosscut, your turn is over.",
                "If it forms a crosscut, you must finish the turn with exactly one swap: \
                 two checkers of different colours change places. Either both belong to the \
                 crosscut you just formed, or one of them does and the other touches it, \
                 along a side or at a corner. The swap must kill the crosscut without \
                 forming a new one.",
                "A swap is written after the placement: c3:b3-c3 places on c3, then swaps \
                 b3 and c3.",
            ],
            sheet: &[
                "If your placement forms a crosscut, then make a swap: between any two \
                 checkers in the crosscut, OR between any checker in the crosscut and any \
                 other checker not in the crosscut which is horizontally, vertically, or \
                 diagonally adjacent to said checker, which kills the crosscut and doesn't \
                 form a new crosscut, concluding your turn.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(CROSSCUT),
                    marked: &["b3", "c3"],
                    caption: "A swap inside the crosscut: Red places on c3 and swaps it with \
                              the blue b3 beside it. Each column of the square is now one \
                              colour, so the crosscut is gone.",
                    claims: &[Claim::Plays {
                        mv: "c3:b3-c3",
                        after: Some("swaptimum ...R./...B./.RB../.RB../....R B"),
                    }],
                },
                Diagram {
                    board: Board::Square(CROSSCUT),
                    marked: &["c3", "d4"],
                    caption: "A swap with a neighbour outside the crosscut: Red places on \
                              c3 and swaps it with the blue d4 touching it at a corner. \
                              Red's d4 now links to d5.",
                    claims: &[Claim::Plays {
                        mv: "c3:c3-d4",
                        after: Some("swaptimum ...R./...R./.BB../.RB../....R B"),
                    }],
                },
                Diagram {
                    board: Board::Square(CROSSCUT),
                    marked: &["d4", "d5"],
                    caption: "Not allowed: d4 and d5 touch, but neither is part of the \
                              crosscut c3 makes.",
                    claims: &[Claim::Refused {
                        mv: "c3:d4-d5",
                        rule: Rule::SwapOutsideCrosscut,
                    }],
                },
                Diagram {
                    board: Board::Square(CROSSCUT),
                    marked: &["c2", "d5"],
                    caption: "Not allowed: c2 is in the crosscut but d5 is far from it; a \
                              swap partner must touch the crosscut checker.",
                    claims: &[Claim::Refused {
                        mv: "c3:c2-d5",
                        rule: Rule::SwapNotAdjacent,
                    }],
                },
            ],
        },
        Section {
            source: Source::Sheet,
            heading: "The placement restriction and skipped turns",
            paragraphs: &[
                "A placement that forms a crosscut is only allowed when some swap can then \
                 leave the board free of crosscuts. If every possible swap would leave or \
                 make a crosscut, you may not place there.",
                "If you have no allowed placement at all, your turn is skipped (written \
                 pass) and your opponent moves again. Passing is never a choice: it is \
                 only what happens when nothing else is allowed.",
            ],
            sheet: &[
                "If your placement would form a crosscut, and if every possible crosscut \
                 killing swap would form a new crosscut, then said placement is illegal for \
                 you.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square("swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB B"),
                    marked: &["c4"],
                    caption: "Blue to move. Only c4 is empty, and a blue checker there forms \
                              a crosscut that none of the possible swaps can clear without \
                              leaving another: c4 is forbidden to Blue, whose turn is \
                              skipped.",
                    claims: &[
                        Claim::Refused {
                            mv: "c4",
                            rule: Rule::PlacementRestriction,
                        },
                        Claim::Moves(&["pass"]),
                    ],
                },
                Diagram {
                    board: Board::Square("swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R"),
                    marked: &["c4"],
                    caption: "The same board with Red to move: for Red, c4 is allowed, with \
                              any of seven different swaps after it.",
                    claims: &[Claim::MoveCount(7)],
                },
            ],
        },
        Section {
            source: Source::Reading,
            heading: "Several crosscuts, and which checkers a swap may move",
            paragraphs: &[
                "The sheet speaks of one crosscut. A placement can form up to four, each \
                 holding the placed checker: swapboard asks for exactly one swap after which \
                 no crosscut stands anywhere on the board (rule code swap_forms_crosscut \
                 otherwise). The checker just placed may take part in the swap, and so may \
                 the opponent's checkers; a swap of two checkers of one colour changes \
                 nothing and is no swap.",
                "A swap can complete the opponent's chain: then the opponent wins, as the \
                 sheet allows. If neither player has an allowed placement and nobody has a \
                 chain, swapboard ends the game as a draw; the sheet does not say.",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Square("swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R"),
                marked: &["c4", "b4"],
                caption: "Refused: Red places on c4 and swaps b4 and c4. That kills the \
                          crosscut c4 formed, but forms a new one at c3-d4, and no crosscut \
                          may stand at the end of the turn.",
                claims: &[
                    Claim::Refused {
                        mv: "c4:b4-c4",
                        rule: Rule::SwapFormsCrosscut,
                    },
                    Claim::Says {
                        mv: "c4:b4-c4",
                        words: "swapping b4 and c4 forms a new crosscut at c3-d4",
                    },
                ],
            }],
        },
    ],
};
