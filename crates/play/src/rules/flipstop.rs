//! Flipstop by Mark Steere (2023), in swapboard's words.

use swapboard_core::{Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Rules, Section, Source, Subject};
use crate::GameId;

/// Red to move: Red's c3 would make a crosscut with b2, b3 and c2.
const CROSSCUT: &str = "flipstop R...R/...../.B.../.RBB./..BR. R";

/// Red to move: a red b2 forms one crosscut (b2-c3), and turning either of its blue checkers
/// would form a new one, so b2 is forbidden to Red.
const RESTRICTED: &str = "flipstop RB../BBR./..BB/..BR R";

/// Blue to move, only c2 empty: a blue c2 forms two crosscuts and is forbidden.
pub(crate) const LAST_CELL_BLUE: &str = "flipstop RRRB/BBRR/RR.R/BRRB B";

/// The same board with Red to move: c2 is Red's one move, and it wins.
pub(crate) const LAST_CELL_RED: &str = "flipstop RRRB/BBRR/RR.R/BRRB R";

/// Why a blue c2 is refused on [`LAST_CELL_BLUE`], as the rules' reading and the lesson both
/// tell it: the crosscut b2-c3 would keep both its red checkers, so Blue can only pass.
pub(crate) const BLUE_C2_REFUSED: &[Claim] = &[
    Claim::Refused {
        mv: "c2",
        rule: Rule::PlacementRestriction,
    },
    Claim::Says {
        mv: "c2",
        words: "forms the crosscut b2-c3 and no enemy checker in it can be replaced (the \
                placement restriction): replacing b2 would form the crosscut a1-b2; replacing \
                c3 would form the crosscut c3-d4",
    },
    Claim::Moves(&["pass"]),
];

/// The rules of Flipstop.
pub(super) const RULES: Rules = Rules {
    subject: Subject::Board(GameId::Flipstop),
    summary: "Join your two sides with a path of checkers; a placement that makes a crosscut \
              turns the enemy checkers in it to your colour wherever it safely can.",
    credit: &[
        "Flipstop was designed by Mark Steere in August 2023. Copyright (c) 2023 Mark Steere.",
        super::STEERE_TERMS,
    ],
    links: &[super::STEERE_SITE],
    sections: &[
        Section {
            source: Source::Sheet,
            heading: "Board and goal",
            paragraphs: &[
                "Two players, Red and Blue, share a square board of any size that starts \
                 empty. Red moves first; then the turns alternate, one checker per turn.",
                "Red wants a chain of red checkers from the top row to the bottom row; \
                 Blue wants one of blue checkers from the left column to the right column. \
                 Checkers in a chain touch along a side, never only at a corner.",
            ],
            sheet: &[
                "Red must form a path of red checkers (interconnected via horizontal or \
                 vertical adjacencies, or both) connecting the two red sides of the board.",
            ],
            diagrams: &[Diagram {
                board: Board::Square("flipstop ...../.R.R./BBBBB/.R.R./..R.. R"),
                marked: &[],
                caption: "Blue's row 3 joins the left and the right column: Blue has won.",
                claims: &[Claim::Result(Some(Outcome::Win(Player::Second)))],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Crosscuts and flips",
            paragraphs: &[
                "A crosscut is a 2x2 square of four checkers, two red and two blue, with \
                 the two red checkers diagonally opposite each other and the two blue ones \
                 on the other diagonal.",
                "When your placement forms a crosscut, look at each enemy checker in it. \
                 Turn that checker to your colour if doing so makes no new crosscut; leave \
                 it as it is otherwise. All the flips that pass this test are made, and \
                 they are not a choice: the move is written as the placement alone.",
            ],
            sheet: &[
                "Two of the checkers are red and two are blue. Like-colored checkers are \
                 diagonally opposed in the square.",
                "If your placement forms a crosscut, then for each enemy checker in the \
                 crosscut, if you can remove it and replace it with one of your own \
                 checkers without forming a new crosscut, do so.",
            ],
            diagrams: &[Diagram {
                board: Board::Square(CROSSCUT),
                marked: &["b2", "b3", "c2", "c3"],
                caption: "Before and after: Red places on c3, and b2 and c3 (red) with b3 and \
                          c2 (blue) form a crosscut. b3 turns red. c2 stays blue, because a \
                          red c2 would form a new crosscut with c1, d1 and d2.",
                claims: &[Claim::Plays {
                    mv: "c3",
                    after: Some("flipstop R...R/...../.RR../.RBB./..BR. B"),
                }],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "The placement restriction and skipped turns",
            paragraphs: &[
                "A placement that forms a crosscut is forbidden when none of the crosscut's \
                 enemy checkers can be turned: each of them, turned, would form a new \
                 crosscut. The sheet notes that a cell can never be forbidden to both \
                 players.",
                "With no allowed placement your turn is skipped (written pass) and your \
                 opponent moves again; you can never pass by choice.",
            ],
            sheet: &[
                "If your placement would form a crosscut, and if for all of the enemy \
                 checkers in the crosscut, replacing each of them with a friendly checker \
                 would form a new crosscut, then said placement is illegal for you.",
                "Passing is not allowed, but if you don't have an available placement, your \
                 turn is skipped.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(RESTRICTED),
                    marked: &["b2", "b3", "c2", "c3"],
                    caption: "Refused: a red b2 forms the crosscut b2-c3. Turning b3 red would \
                              form a new crosscut with a3, a4 and b4, and turning c2 red one \
                              with c1, d1 and d2, so no blue checker of it can be turned: b2 \
                              is forbidden to Red.",
                    claims: &[
                        Claim::Refused {
                            mv: "b2",
                            rule: Rule::PlacementRestriction,
                        },
                        Claim::Says {
                            mv: "b2",
                            words: "replacing c2 would form the crosscut c1-d2; replacing b3 \
                                    would form the crosscut a3-b4",
                        },
                    ],
                },
                Diagram {
                    board: Board::Square(LAST_CELL_BLUE),
                    marked: &["c2"],
                    caption: "Blue to move, and only c2 is empty. c2 is forbidden to Blue \
                              (below, how swapboard reads a placement that forms two \
                              crosscuts), so Blue has no allowed placement and Blue's turn \
                              is skipped.",
                    claims: &[
                        Claim::Refused {
                            mv: "c2",
                            rule: Rule::PlacementRestriction,
                        },
                        Claim::Moves(&["pass"]),
                    ],
                },
                Diagram {
                    board: Board::Square(LAST_CELL_RED),
                    marked: &["c2"],
                    caption: "The same board with Red to move: c2 is Red's one move. A red \
                              c2 forms no crosscut at all, and it completes the red chain c4, \
                              c3, c2, c1 from the top row to the bottom: Red wins.",
                    claims: &[
                        Claim::Moves(&["c2"]),
                        Claim::Ends {
                            mv: "c2",
                            result: Some(Outcome::Win(Player::First)),
                        },
                    ],
                },
            ],
        },
        Section {
            source: Source::Reading,
            heading: "One placement, several crosscuts",
            paragraphs: &[
                "The sheet speaks of one crosscut. A placement can form up to four. \
                 swapboard judges each enemy checker of every crosscut formed on its own, \
                 on the board just after the placement, and turns every one that passes; \
                 the order cannot matter. The placement is forbidden when some crosscut it \
                 forms would keep all its enemy checkers, even if the checkers of another \
                 crosscut could be turned (rule code placement_restriction).",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Square(LAST_CELL_BLUE),
                marked: &["b2", "b3", "c3", "c1", "d1", "d2"],
                caption: "Refused: a blue c2 forms two crosscuts. In c1-d2 both red checkers \
                          could be turned blue, but in b2-c3 neither can (a blue b2 would \
                          form the crosscut a1-b2, a blue c3 the crosscut c3-d4), so that \
                          crosscut would stay: c2 is forbidden to Blue.",
                claims: BLUE_C2_REFUSED,
            }],
        },
    ],
};
