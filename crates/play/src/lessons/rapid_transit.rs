//! The lesson of Rapid Transit by Phil Leduc, in swapboard's words.

use super::{Goal, Lesson, Step};
use crate::GameId;
use crate::rules::Claim;
use swapboard_core::{Outcome, Player, Rule};

/// A 6x6 game in progress, Red to move (the rules' picture too).
const MIDGAME: &str = "rapid-transit CRRRRR/CCCRCR/RRCRRR/CCCCCC/CRRRCR/CCRCRC R 0 C";

/// Red has no allowed swap (the rules' picture too).
const STUCK: &str = "rapid-transit RRRRCR/RCCCCC/RCRRRC/RCRCRC/RCCCCC/RCRRRC R 0 C";

/// The lesson of Rapid Transit.
pub(super) const LESSON: Lesson = Lesson {
    game: GameId::RapidTransit,
    intro: "Six small positions teach Rapid Transit: swapping a terminal piece, the networks \
            a swap must stay beside, the 2x2 blocks and the two neighbours a swap must \
            respect, passing, and a win.",
    steps: &[
        Step {
            title: "Swap a terminal piece",
            position: MIDGAME,
            task: "A terminal is a piece touching at most one piece of its own colour along \
                   a side. Swap one of Red's terminals with a cyan piece.",
            goal: Goal::Legal,
            done: "A terminal went into Cyan's lines and a cyan piece came out: a whole turn.",
            miss: "Any allowed swap will do.",
            solution: "a4-b3",
            wrong: "c2-c3",
            claims: &[
                Claim::Plays {
                    mv: "a4-b3",
                    after: None,
                },
                Claim::Refused {
                    mv: "c2-c3",
                    rule: Rule::NotTerminal,
                },
            ],
        },
        Step {
            title: "Beside your network",
            position: MIDGAME,
            task: "The cyan piece must belong to a cyan network that touches the network of \
                   your terminal. Swap the terminal a4 with b3.",
            goal: Goal::OneOf(&["a4-b3"]),
            done: "b3's network touches a4's: the swap is allowed, and Red's b3 joins b2 and \
                   b4.",
            miss: "Swap a4 with b3 this time.",
            solution: "a4-b3",
            wrong: "a4-d1",
            claims: &[
                Claim::Plays {
                    mv: "a4-b3",
                    after: Some("rapid-transit CRRRRR/CCCRCR/CRCRRR/CRCCCC/CRRRCR/CCRCRC C 0 R"),
                },
                Claim::Refused {
                    mv: "a4-d1",
                    rule: Rule::NetworksNotAdjacent,
                },
            ],
        },
        Step {
            title: "No 2x2 block",
            position: MIDGAME,
            task: "After a swap no 2x2 square may be filled by one colour. Swapping b4 with c3 \
                   would put a cyan piece on b4 and fill the square b4, b5, c4, c5 with cyan. \
                   Find a swap of Red's that fills no square.",
            goal: Goal::Legal,
            done: "Every 2x2 square still holds both colours.",
            miss: "Any allowed swap will do.",
            solution: "a4-b3",
            wrong: "b4-c3",
            claims: &[
                Claim::Refused {
                    mv: "b4-c3",
                    rule: Rule::BlockFormed,
                },
                Claim::Says {
                    mv: "b4-c3",
                    words: "b4, b5, c4, c5 with Cyan",
                },
            ],
        },
        Step {
            title: "Two neighbours each",
            position: MIDGAME,
            task: "Both moved pieces must touch at least two pieces of their own colour in \
                   their new cells. A red piece on a1 would touch none. Find a swap where \
                   both do.",
            goal: Goal::Legal,
            done: "Both pieces touch two of their own colour where they now stand.",
            miss: "Any allowed swap will do.",
            solution: "a4-b3",
            wrong: "a4-a1",
            claims: &[Claim::Refused {
                mv: "a4-a1",
                rule: Rule::TooFewNeighbours,
            }],
        },
        Step {
            title: "Passing",
            position: STUCK,
            task: "Red has no allowed swap here. Play the only move Red has.",
            goal: Goal::Legal,
            done: "Red passes; Cyan still has swaps, so the game goes on. When both pass in a \
                   row, the game ends and the largest network wins.",
            miss: "Red has one move only.",
            solution: "pass",
            wrong: "a1-b2",
            claims: &[Claim::Moves(&["pass"])],
        },
        Step {
            title: "Win",
            position: "rapid-transit CCCR/RRRR/CRCC/RCRC R 0 C",
            task: "A small board near the end. Find the swap after which neither player can \
                   swap any more, with Red's network the largest.",
            goal: Goal::Wins,
            done: "Neither player can swap: both pass, the game ends, and Red's network is \
                   the largest.",
            miss: "That swap does not end the game in Red's favour.",
            solution: "a3-b1",
            wrong: "b2-c2",
            claims: &[Claim::Ends {
                mv: "a3-b1",
                result: Some(Outcome::Win(Player::First)),
            }],
        },
    ],
};
