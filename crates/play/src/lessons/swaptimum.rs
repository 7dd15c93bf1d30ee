//! The lesson of Swaptimum by Mark Steere, in swapboard's words.

use super::{Goal, Lesson, Step};
use crate::GameId;
use crate::rules::Claim;
use swapboard_core::{Outcome, Player, Rule};

/// Red to move: a red c3 would form a crosscut with b2, b3 and c2 (the rules' picture too).
const CROSSCUT: &str = "swaptimum ...R./...B./.B.../.RB../....R R";

/// The lesson of Swaptimum.
pub(super) const LESSON: Lesson = Lesson {
    game: GameId::Swaptimum,
    intro: "Six small positions teach Swaptimum: placing a checker, the crosscut and the swap \
            that must break it, the placement the rules forbid, a skipped turn, and winning \
            with a chain, with a swap too.",
    steps: &[
        Step {
            title: "Place a checker",
            position: "swaptimum ...../...../...../...../..... R",
            task: "Red moves first. Put a red checker on any empty cell: click it.",
            goal: Goal::Legal,
            done: "That is a whole turn: the checker formed no crosscut, so no swap follows, \
                   and Blue moves next. Red wants a chain from the top row to the bottom row.",
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
            title: "Swap a crosscut away",
            position: CROSSCUT,
            task: "A red checker on c3 would form a crosscut: b2 and c3 red on one diagonal, \
                   b3 and c2 blue on the other. Place on c3, then swap two checkers of \
                   different colours so that no crosscut is left.",
            goal: Goal::OneOf(&["c3:b3-c3", "c3:c2-c3", "c3:c3-d4", "c3:b2-b3", "c3:b2-c2"]),
            done: "The swap broke the crosscut and made no new one: the turn is over.",
            miss: "Place on c3 this time, and finish the turn with a swap.",
            solution: "c3:b3-c3",
            wrong: "c3",
            claims: &[
                Claim::Refused {
                    mv: "c3",
                    rule: Rule::SwapRequired,
                },
                Claim::Plays {
                    mv: "c3:b3-c3",
                    after: Some("swaptimum ...R./...B./.RB../.RB../....R B"),
                },
            ],
        },
        Step {
            title: "A swap partner touches the crosscut",
            position: CROSSCUT,
            task: "A swap may also take a checker from outside the crosscut, if it touches a \
                   checker of the crosscut along a side or at a corner. Place on c3 and swap \
                   it with the blue d4 at its corner.",
            goal: Goal::OneOf(&["c3:c3-d4"]),
            done: "Red's checker went to d4, where it links to d5, and the crosscut is gone.",
            miss: "Swap the new checker on c3 with the blue d4 that touches it at a corner.",
            solution: "c3:c3-d4",
            wrong: "c3:d4-d5",
            claims: &[
                Claim::Plays {
                    mv: "c3:c3-d4",
                    after: Some("swaptimum ...R./...R./.BB../.RB../....R B"),
                },
                Claim::Refused {
                    mv: "c3:d4-d5",
                    rule: Rule::SwapOutsideCrosscut,
                },
            ],
        },
        Step {
            title: "Red's one cell",
            position: "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R",
            task: "Only c4 is empty. A red checker there forms a crosscut: place it and find a \
                   swap that leaves the board free of crosscuts.",
            goal: Goal::Legal,
            done: "A placement that forms a crosscut is allowed exactly when some swap can \
                   clear the board, as this one does.",
            miss: "Place on c4 and swap.",
            solution: "c4:b3-b4",
            wrong: "c4",
            claims: &[
                Claim::MoveCount(7),
                Claim::Refused {
                    mv: "c4",
                    rule: Rule::SwapRequired,
                },
            ],
        },
        Step {
            title: "A skipped turn",
            position: "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB B",
            task: "The same board with Blue to move. A blue checker on c4 forms a crosscut \
                   that no swap can clear without leaving another: Blue may not place there. \
                   Play the only move Blue has.",
            goal: Goal::Legal,
            done: "With no allowed placement, Blue's turn is skipped: a pass, never a choice.",
            miss: "Blue has one move only.",
            solution: "pass",
            wrong: "c4",
            claims: &[
                Claim::Refused {
                    mv: "c4",
                    rule: Rule::PlacementRestriction,
                },
                Claim::Moves(&["pass"]),
            ],
        },
        Step {
            title: "Finish the chain",
            position: "swaptimum RRBB./RRRRB/.BBBB/BR.BR/BRRR. B",
            task: "Blue to move: win at once. Blue wants a chain of blue checkers from the left \
                   column to the right column.",
            goal: Goal::Wins,
            done: "Row 3 is all blue from the left edge to the right: Blue has won.",
            miss: "That does not complete a blue chain from left to right.",
            solution: "a3",
            wrong: "e5",
            claims: &[Claim::Ends {
                mv: "a3",
                result: Some(Outcome::Win(Player::Second)),
            }],
        },
        Step {
            title: "Win with a swap",
            position: "swaptimum .BRR/BBRR/RBR./B.BR B",
            task: "Blue to move: win at once. Look for a placement whose crosscut you must swap \
                   away, and let the swap finish the chain.",
            goal: Goal::Wins,
            done: "The swap broke the crosscut and closed Blue's chain: a swap can win.",
            miss: "That does not complete a blue chain from left to right.",
            solution: "d2:c1-c2",
            wrong: "a4",
            claims: &[Claim::Ends {
                mv: "d2:c1-c2",
                result: Some(Outcome::Win(Player::Second)),
            }],
        },
    ],
};
