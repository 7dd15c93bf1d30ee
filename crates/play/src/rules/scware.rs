//! Scware by Christian Freeling (2012), in swapboard's words.

use swapboard_core::{Outcome, Player, Rule};

use super::{Board, Claim, Diagram, Link, Rules, Section, Source, Subject};
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
    links: &[Link {
        text: "Christian Freeling's games, at MindSports",
        href: "https://www.mindsports.nl",
    }],
    sections: &[
        Section {
            source: Source::Sheet,
            heading: "Board and goal",
            paragraphs: &[
                "Two players, White and Red, share a square board that starts empty. White \
                 moves first; then the turns alternate.",
                "White wants a chain of white stones from the top row to the bottom row; Red \
                 wants one of red stones from the left column to the right column. Stones \
                 are connected when they touch along a side. A group is a set of your \
                 stones connected to each other; a single stone is a group too.",
            ],
            sheet: &[
                "The object is to form a connected path of your stones between the opposing \
                 sides of the board marked by your colors.",
            ],
            diagrams: &[Diagram {
                board: Board::Square("scware ..W../.RW../..W../.RWR./..W.. R g"),
                marked: &[],
                caption: "White's column c joins the top and the bottom: White has won.",
                claims: &[Claim::Result(Some(Outcome::Win(Player::First)))],
            }],
        },
        Section {
            source: Source::Sheet,
            heading: "Starting a group",
            paragraphs: &[
                "One kind of turn puts a single stone on an empty cell that touches none of \
                 your stones along a side: it starts a new group.",
            ],
            sheet: &[
                "In the rules placing a single stone on a square without like-colored \
                 neighbors will be called \"starting a group\".",
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
            source: Source::Sheet,
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
            sheet: &[
                "A player on his turn may either: Start a new group, or grow any or all of \
                 his groups by one stone. A stone connecting two groups is considered to have \
                 grown both of them.",
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
            source: Source::Sheet,
            heading: "Connecting with two new stones",
            paragraphs: &[
                "Two groups can also be joined by growing each of them by one stone, where \
                 the two new stones touch each other and neither touches the other group. \
                 So two stones a knight's move apart can be connected in one turn.",
            ],
            sheet: &[
                "Two groups may be connected by growing both of them, as long as both \
                 placements only touch one another, but neither placement is adjacent to \
                 both original groups.",
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
            source: Source::Sheet,
            heading: "The diagonal restriction",
            paragraphs: &[
                "At the end of your turn, any two of your stones that touch at a corner must \
                 belong to the same group. A move that leaves two of your stones \
                 diagonally adjacent in different groups is not allowed. (Because of this \
                 rule a crosscut can never appear.)",
            ],
            sheet: &[
                "At the end of a player's turn any two diagonally adjacent like-colored stones \
                 must be part of the same group.",
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
            source: Source::Sheet,
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
            sheet: &[
                "If, and only if, neither player has grown yet, then Red may grow any or all \
                 of his groups followed by a single stone placement, in the same turn.",
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
        Section {
            source: Source::Reading,
            heading: "What counts as a growth",
            paragraphs: &[
                "swapboard reads a growth against the groups you had at the start of the \
                 turn: each new stone must touch one of them along a side, and none of them \
                 may touch two of the new stones. \"Any or all\" means what it says: unlike \
                 in Symple, growing every group is no duty, and one group alone may grow.",
                "The balancing move's extra stone is placed after the growth and must touch \
                 no red stone along a side, the new ones included (rule code \
                 new_group_touches). Once either player has grown, it is gone for good, and \
                 White never has it (rule code balancing_move).",
            ],
            sheet: &[],
            diagrams: &[Diagram {
                board: Board::Square(TWO_GROUPS),
                marked: &["b3"],
                caption: "Allowed: b3 grows b2 alone, and d4 stays as it is.",
                claims: &[Claim::Plays {
                    mv: "b3",
                    after: Some("scware R..../...W./.W.../.W.../....R R g"),
                }],
            }],
        },
    ],
};
