//! The lesson of Flipstop by Mark Steere, in swapboard's words.

use super::{Goal, Lesson, Step};
use crate::GameId;
use crate::rules::{self, Claim};
use swapboard_core::{Outcome, Player};

/// Red to move: a red c3 forms a crosscut with the blue b3 and c2 (the rules' picture too).
const CROSSCUT: &str = "flipstop R...R/...../.B.../.RBB./..BR. R";

/// The lesson of Flipstop.
pub(super) const LESSON: Lesson = Lesson {
    game: GameId::Flipstop,
    intro: "Six small positions teach Flipstop: placing a checker, the flips that follow a \
            crosscut, the placement the rules forbid, a skipped turn, and two wins with a \
            chain.",
    steps: &[
        Step {
            title: "Place a checker",
            position: "flipstop ...../...../...../...../..... R",
            task: "Red moves first. Put a red checker on any empty cell: click it.",
            goal: Goal::Legal,
            done: "That is a whole turn, and Blue moves next. Red wants a chain from the top \
                   row to the bottom row, Blue one from the left column to the right.",
            miss: "Any empty cell will do.",
            solution: "c3",
            wrong: "f6",
            claims: &[
                Claim::MoveCount(25),
                Claim::Ends {
                    mv: "c3",
                    result: None,
                },
            ],
        },
        Step {
            title: "A crosscut flips checkers",
            position: CROSSCUT,
            task: "Place on c3: it forms a crosscut with the blue b3 and c2. Each enemy \
                   checker of the crosscut is then turned to your colour, unless turning it \
                   would make a new crosscut. You choose nothing but the cell.",
            goal: Goal::OneOf(&["c3"]),
            done: "b3 turned red. c2 stayed blue: a red c2 would have made a new crosscut \
                   with c1, d1 and d2.",
            miss: "That placement forms no crosscut: place on c3 to see the flips.",
            solution: "c3",
            wrong: "a1",
            claims: &[Claim::Plays {
                mv: "c3",
                after: Some("flipstop R...R/...../.RR../.RBB./..BR. B"),
            }],
        },
        Step {
            title: "Red's one cell",
            position: rules::flipstop::LAST_CELL_RED,
            task: "Only c2 is empty, and Red may place there. Play Red's move and see what \
                   it does.",
            goal: Goal::Wins,
            done: "A red c2 forms no crosscut at all, so nothing flips, and it completes the \
                   red chain c4, c3, c2, c1 from the top row to the bottom: Red has won.",
            miss: "Red has one move only.",
            solution: "c2",
            wrong: "pass",
            claims: &[
                Claim::Moves(&["c2"]),
                Claim::Ends {
                    mv: "c2",
                    result: Some(Outcome::Win(Player::First)),
                },
            ],
        },
        Step {
            title: "A skipped turn",
            position: rules::flipstop::LAST_CELL_BLUE,
            task: "The same board with Blue to move. A blue c2 would form two crosscuts, and \
                   in one of them, b2-c3, neither red checker could be turned without forming \
                   a new crosscut: that crosscut would stay, so Blue may not place there. Play \
                   the only move Blue has.",
            goal: Goal::Legal,
            done: "With no allowed placement, Blue's turn is skipped: a pass, never a choice.",
            miss: "Blue has one move only.",
            solution: "pass",
            wrong: "c2",
            claims: rules::flipstop::BLUE_C2_REFUSED,
        },
        Step {
            title: "Finish the chain",
            position: "flipstop RRR./RBBB/R.B./BBR. R",
            task: "Red to move: win at once with a chain of red checkers from the top row to \
                   the bottom row.",
            goal: Goal::Wins,
            done: "Red's chain joins the top and the bottom: Red has won.",
            miss: "That does not complete a red chain from top to bottom.",
            solution: "b2",
            wrong: "d4",
            claims: &[Claim::Ends {
                mv: "b2",
                result: Some(Outcome::Win(Player::First)),
            }],
        },
        Step {
            title: "Win on a bigger board",
            position: "flipstop BRBBR/RRR.B/.BBRB/RRBBB/RR.BR R",
            task: "Red to move: find the cell that completes a red chain from the top row to \
                   the bottom row at once.",
            goal: Goal::Wins,
            done: "Red's chain joins the top and the bottom: Red has won.",
            miss: "That does not complete a red chain from top to bottom.",
            solution: "a3",
            wrong: "c1",
            claims: &[Claim::Ends {
                mv: "a3",
                result: Some(Outcome::Win(Player::First)),
            }],
        },
    ],
};
