//! The lesson of Scware by Christian Freeling, in swapboard's words.

use super::{Goal, Lesson, Step};
use crate::GameId;
use crate::rules::Claim;
use swapboard_core::{Outcome, Player, Rule};

/// White to move with two groups, b2 and d4 (the rules' picture too).
const TWO_GROUPS: &str = "scware R..../...W./...../.W.../....R W -";

/// White's groups b2 and c4, a knight's move apart (the rules' picture too).
const KNIGHT: &str = "scware R..../..W../...../.W.../....R W -";

/// The lesson of Scware.
pub(super) const LESSON: Lesson = Lesson {
    game: GameId::Scware,
    intro: "Six small positions teach Scware: starting a group, growing several groups in one \
            turn, joining groups with two new stones, the diagonal restriction, Red's \
            balancing move, and a win.",
    steps: &[
        Step {
            title: "Start a group",
            position: "scware ...../...../...../...../..... W -",
            task: "White moves first. Put one stone on any empty cell: it starts a group.",
            goal: Goal::Legal,
            done: "A new group of one stone. White wants a chain from the top row to the \
                   bottom row, Red one from the left column to the right.",
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
            title: "Grow both groups in one turn",
            position: TWO_GROUPS,
            task: "White has two groups, b2 and d4. Grow both in one turn: one new stone \
                   beside each, along a side. Click both cells, then end the growth.",
            goal: Goal::OneOf(&[
                "a2,c4", "a2,d3", "a2,d5", "a2,e4", "b1,c4", "b1,d3", "b1,d5", "b1,e4", "b3,d3",
                "b3,d5", "b3,e4", "c2,c4", "c2,d5", "c2,e4",
            ]),
            done: "Both groups grew by one stone in a single turn.",
            miss: "Both groups must grow: give each of b2 and d4 one new stone beside it.",
            solution: "b3,d5",
            wrong: "b1,b3",
            claims: &[
                Claim::Plays {
                    mv: "b3,d5",
                    after: Some("scware R..W./...W./.W.../.W.../....R R g"),
                },
                Claim::Refused {
                    mv: "b1,b3",
                    rule: Rule::GroupGrownTwice,
                },
            ],
        },
        Step {
            title: "Join two groups",
            position: KNIGHT,
            task: "White's groups b2 and c4 are a knight's move apart. Grow each by one stone \
                   so that the two new stones touch: the groups become one.",
            goal: Goal::OneOf(&["b3,c3", "b3,b4", "c2,c3"]),
            done: "Each group grew by one stone, and the two new stones touch: one group now.",
            miss: "The groups are not joined yet: each new stone must grow its own group, and \
                   the two must touch.",
            solution: "b3,c3",
            wrong: "a3,b3",
            claims: &[
                Claim::Plays {
                    mv: "b3,c3",
                    after: Some("scware R..../..W../.WW../.W.../....R R g"),
                },
                Claim::Refused {
                    mv: "a3,b3",
                    rule: Rule::NotAGrowth,
                },
            ],
        },
        Step {
            title: "The diagonal restriction",
            position: TWO_GROUPS,
            task: "Start a third group: one stone that touches none of White's stones, not \
                   even at a corner. A stone on c3 would touch b2 and d4 at corners.",
            goal: Goal::OneOf(&["a4", "b4", "b5", "d1", "d2", "e2"]),
            done: "A new group, clear of White's other groups.",
            miss: "That stone touches a white group along a side: it grows that group instead \
                   of starting one.",
            solution: "b5",
            wrong: "c3",
            claims: &[
                Claim::Refused {
                    mv: "c3",
                    rule: Rule::DiagonalRestriction,
                },
                Claim::Plays {
                    mv: "b5",
                    after: None,
                },
            ],
        },
        Step {
            title: "Red's balancing move",
            position: "scware ...../...../..W../.R.../..... R -",
            task: "Nobody has grown yet, so Red may grow and, in the same turn, start a new \
                   group. Click b3 to grow b2, press \"+ new group\", then click a cell that \
                   touches no red stone.",
            goal: Goal::OneOf(&[
                "b3+a5", "b3+b5", "b3+c5", "b3+d1", "b3+d2", "b3+d3", "b3+d4", "b3+d5", "b3+e1",
                "b3+e2", "b3+e3", "b3+e4", "b3+e5",
            ]),
            done: "Red grew b2 and started a new group in one turn. The sheet gives Red this \
                   to balance White's first move, only while nobody has grown: from the first \
                   growth on, neither player has it.",
            miss: "That does not grow b2 with b3 and start a new group in the same turn.",
            solution: "b3+d5",
            wrong: "b3",
            claims: &[Claim::Plays {
                mv: "b3+d5",
                after: Some("scware ...R./...../.RW../.R.../..... W g"),
            }],
        },
        Step {
            title: "Win",
            position: "scware WW.WR/W..WR/...RR/.RRRW/WRR.. R g",
            task: "Red to move: win at once with a chain of red stones from the left column \
                   to the right column.",
            goal: Goal::Wins,
            done: "Red's chain joins the left and the right: Red has won.",
            miss: "That does not complete a red chain from left to right.",
            solution: "a2",
            wrong: "e1",
            claims: &[Claim::Ends {
                mv: "a2",
                result: Some(Outcome::Win(Player::Second)),
            }],
        },
    ],
};
