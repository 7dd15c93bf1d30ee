//! Scware by Christian Freeling (2012), in swapboard's words.

use swapboard_core::{Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Rules, Section, Subject};
use crate::GameId;

/// White to move with two single stones, b2 and d4.
const TWO_GROUPS: &str = "scware R..../...W./...../.W.../....R W -";

/// White to move with two single stones a knight's move apart, b2 and c4.
const KNIGHT: &str = "scware R..../..W../...../.W.../....R W -";

/// The rules of Scware.
pub(super) const RULES: Rules = Rules {
    subject: Subject::Board(GameId::Scware),
    summary: "Join your two sides with a path of stones: each turn either start one new \
              group or grow as many of your groups as you like by one stone each.",
    credit: &[
        "Scware was designed by Christian Freeling in November 2012, carrying the move \
         protocol of Symple over to a connection game on a square board.",
    ],
    sections: &[
        Section {
            heading: "Board and goal",
            paragraphs: &[
                "Two players, White and Red, share a square board that starts empty. White \
                 moves first; then the turns alternate.",
                "White wants a chain of white stones from the top row to the bottom row; Red \
                 wants one of red stones from the left column to the right column. Stones \
                 are connected when they touch along a side. A group is a set of your \
                 stones connected to each other; a single stone is a group too.",
            ],
            diagrams: &[Diagram {
                board: Board::Square("scware ..W../.RW../..W../.RWR./..W.. R g"),
                marked: &[],
                caption: "White's column c joins the top and the bottom: White has won.",
                claims: &[Claim::Result(Some(Outcome::Win(Player::First)))],
            }],
        },
        Section {
            heading: "Starting a group",
            paragraphs: &[
                "One kind of turn puts a single stone on an empty cell that touches none of \
                 your stones along a side: it starts a new group.",
            ],
            diagrams: &[Diagram {
                board: Board::Square("scware ...../...../...../...../..... W -"),
                marked: &["c3"],
                caption: "White starts the game with a group of one stone on c3.",
                claims: &[Claim::Plays {
                    mv: "c3",
                    after: Some("scware ...../...../..W../...../..... R -"),
                }],
            }],
        },
        Section {
            heading: "Growing groups",
            paragraphs: &[
                "The other kind of turn grows your groups: you put stones on empty cells, \
                 each touching one of the groups you had at the start of the turn, at most \
                 one new stone per group. You may grow one group, several, or all of them, \
                 in the same turn.",
                "A stone touching two of your groups grows both of them, joining them. A \
                 stone that touches only the stones you are placing this turn grows \
                 nothing and is not allowed.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(TWO_GROUPS),
                    marked: &["b3", "d5"],
                    caption: "White grows both groups in one turn: b3 grows b2, d5 grows d4.",
                    claims: &[Claim::Plays {
                        mv: "b3,d5",
                        after: Some("scware R..W./...W./.W.../.W.../....R R g"),
                    }],
                },
                Diagram {
                    board: Board::Square(TWO_GROUPS),
                    marked: &["b1", "b3"],
                    caption: "Not allowed: b1 and b3 would both grow the same group, b2.",
                    claims: &[Claim::Refused {
                        mv: "b1,b3",
                        rule: Rule::GroupGrownTwice,
                    }],
                },
            ],
        },
        Section {
            heading: "Connecting with two new stones",
            paragraphs: &[
                "Two groups can also be joined by growing each of them by one stone, where \
                 the two new stones touch each other and neither touches the other group. \
                 So two stones a knight's move apart can be connected in one turn.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square(KNIGHT),
                    marked: &["b3", "c3"],
                    caption: "b2 and c4 are a knight's move apart. b3 grows b2, c3 grows c4, \
                              and the two new stones touch: one group.",
                    claims: &[Claim::Plays {
                        mv: "b3,c3",
                        after: Some("scware R..../..W../.WW../.W.../....R R g"),
                    }],
                },
                Diagram {
                    board: Board::Square(KNIGHT),
                    marked: &["a3", "b3"],
                    caption: "Not allowed: a3 touches only the new b3, not a group White had \
                              at the start of the turn.",
                    claims: &[Claim::Refused {
                        mv: "a3,b3",
                        rule: Rule::NotAGrowth,
                    }],
                },
            ],
        },
        Section {
            heading: "The diagonal restriction",
            paragraphs: &[
                "At the end of your turn, any two of your stones that touch at a corner must \
                 belong to the same group. A move that leaves two of your stones \
                 diagonally adjacent in different groups is not allowed. (Because of this \
                 rule a crosscut can never appear.)",
            ],
            diagrams: &[Diagram {
                board: Board::Square(TWO_GROUPS),
                marked: &["c3"],
                caption: "Not allowed: a new group on c3 would touch b2 and d4 at corners \
                          without being connected to them.",
                claims: &[Claim::Refused {
                    mv: "c3",
                    rule: Rule::DiagonalRestriction,
                }],
            }],
        },
        Section {
            heading: "The balancing rule for the first growth",
            paragraphs: &[
                "Moving first is an advantage, so Red gets one extra: as long as neither \
                 player has ever grown a group, Red may grow and then, in the same turn, \
                 also start one new group. The new group's stone may not touch a red stone \
                 along a side.",
                "Once anybody has grown, this is over for the rest of the game. White never \
                 has it. The balancing move is written with a +: b3+d5 grows with b3, then \
                 starts a group on d5.",
            ],
            diagrams: &[
                Diagram {
                    board: Board::Square("scware ...../...../..W../.R.../..... R -"),
                    marked: &["b3", "d5"],
                    caption: "Nobody has grown yet: Red grows b2 with b3, then starts a new \
                              group on d5.",
                    claims: &[Claim::Plays {
                        mv: "b3+d5",
                        after: Some("scware ...R./...../.RW../.R.../..... W g"),
                    }],
                },
                Diagram {
                    board: Board::Square("scware ...../...../..W../.R.../..... R g"),
                    marked: &["b3", "d5"],
                    caption: "The same stones after somebody has grown: the extra group is \
                              no longer allowed.",
                    claims: &[Claim::Refused {
                        mv: "b3+d5",
                        rule: Rule::BalancingMove,
                    }],
                },
            ],
        },
    ],
};
