//! Flipstop by Mark Steere (2023), in swapboard's words.

use swapboard_core::{Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Rules, Section, Subject};
use crate::GameId;

/// Red to move: Red's c3 would make a crosscut with b2, b3 and c2.
const CROSSCUT: &str = "flipstop R...R/...../.B.../.RBB./..BR. R";

/// The rules of Flipstop.
pub(super) const RULES: Rules = Rules {
    subject: Subject::Board(GameId::Flipstop),
    summary: "Join your two sides with a path of checkers; a placement that makes a crosscut \
              turns the enemy checkers in it to your colour wherever it safely can.",
    credit: &[
        "Flipstop was designed by Mark Steere in August 2023.",
        super::STEERE_TERMS,
    ],
    sections: &[
        Section {
            heading: "Board and goal",
            paragraphs: &[
                "Two players, Red and Blue, share a square board that starts empty. Red \
                 moves first; then the turns alternate, one checker per turn.",
                "Red wants a chain of red checkers from the top row to the bottom row; \
                 Blue wants one of blue checkers from the left column to the right column. \
                 Checkers in a chain touch along a side, never only at a corner.",
            ],
            diagrams: &[Diagram {
                board: Board::Square("flipstop ...../.R.R./BBBBB/.R.R./..R.. R"),
                marked: &[],
                caption: "Blue's row 3 joins the left and the right column: Blue has won.",
                claims: &[Claim::Result(Some(Outcome::Win(Player::Second)))],
            }],
        },
        Section {
            heading: "Crosscuts and flips",
            paragraphs: &[
                "A crosscut is a 2x2 square of four checkers in which each diagonal holds \
                 one colour.",
                "When your placement forms a crosscut, look at each enemy checker in it \
                 (in every crosscut it formed). Turn that checker to your colour if doing \
                 so, by itself, makes no new crosscut with it; leave it as it is \
                 otherwise. All the flips that pass this test are made, and they are not \
                 a choice: the move is written as the placement alone.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(CROSSCUT),
                    marked: &["c3", "b3", "c2"],
                    caption: "Red places on c3, making a crosscut with the blue b3 and c2.",
                    claims: &[Claim::Plays {
                        mv: "c3",
                        after: Some("flipstop R...R/...../.RR../.RBB./..BR. B"),
                    }],
                },
                Diagram {
                    board: Board::Square("flipstop R...R/...../.RR../.RBB./..BR. B"),
                    marked: &["b3", "c2"],
                    caption: "After c3: b3 turned red. c2 stayed blue, because a red c2 \
                              would have made a new crosscut with c1, d1 and d2.",
                    claims: &[Claim::Result(None)],
                },
            ],
        },
        Section {
            heading: "The placement restriction and skipped turns",
            paragraphs: &[
                "A placement that forms a crosscut is allowed only if the flips clear every \
                 crosscut it formed. If some crosscut would keep all its enemy checkers \
                 (each one of them would make a new crosscut if turned), you may not place \
                 there. A cell can never be forbidden to both players.",
                "With no allowed placement your turn is skipped (written pass) and your \
                 opponent moves again; you can never pass by choice. If neither player can \
                 move and nobody has won, the game is a draw.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square("flipstop RRRB/BBRR/RR.R/BRRB B"),
                    marked: &["c2"],
                    caption: "Blue to move, only c2 is empty. A blue c2 makes crosscuts \
                              whose red checkers would all make new crosscuts if turned, so \
                              c2 is forbidden to Blue, and Blue's turn is skipped.",
                    claims: &[
                        Claim::Refused {
                            mv: "c2",
                            rule: Rule::PlacementRestriction,
                        },
                        Claim::Moves(&["pass"]),
                    ],
                },
                Diagram {
                    board: Board::Square("flipstop RRRB/BBRR/RR.R/BRRB R"),
                    marked: &["c2"],
                    caption: "The same board with Red to move: c2 is Red's one move.",
                    claims: &[Claim::Moves(&["c2"])],
                },
            ],
        },
    ],
};
