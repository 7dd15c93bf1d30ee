//! Conditional moves (issue 50): "if they play X, play Y for me", several branches and
//! several moves deep, as lichess's forecasts and OGS's conditional planner keep them.
//!
//! A plan is checked here once, by the rules, when its owner sets it: each line alternates
//! the opponent's move and the owner's reply from the current position (the opponent to
//! move), and every move must be legal where it stands. The plan is then kept as
//! [`Node`]s, one per reply: the ply of the opponent's move it answers, the position that
//! move (and any pass the rules force after it) leads to, and the reply. A server finds the
//! reply to a move by the position it made, so any spelling of the same move (cells in any
//! order) finds it, and a deviation finds none; it needs no rules to match.

use std::collections::BTreeMap;

use swapboard_core::{MoveError, Player};

use crate::AnyPosition;

/// The most replies a plan holds, over all its lines.
pub const MOST_REPLIES: usize = 64;

/// The most moves (the opponent's and the owner's) one line holds.
pub const MOST_LINE_MOVES: usize = 20;

/// One reply of a plan: when the opponent's move at `ply` leads to `after`, the owner plays
/// `reply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The ply at which the opponent's move is played (the game's ply before it).
    pub ply: u32,
    /// The position after the opponent's move and the passes the rules force after it.
    pub after: String,
    /// The moves from the plan's start up to and including the opponent's move answered,
    /// as the contract writes them, separated by spaces.
    pub path: String,
    /// The owner's reply, as the contract writes it.
    pub reply: String,
}

impl Node {
    /// The path a node under this one starts with: this node's path and its reply.
    pub fn continued(&self) -> String {
        format!("{} {}", self.path, self.reply)
    }
}

/// Why a plan was refused, naming the line and the move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The game is over, or it is the owner's turn: there is nothing to plan for.
    #[error("the opponent is not to move: a plan starts with their move")]
    NotTheirTurn,
    /// Too many lines, or a line too long or of the wrong shape.
    #[error("{0}")]
    Shape(String),
    /// The rules refuse a move of a line.
    #[error("line {line}, move {index} ({text:?}): {error}")]
    Illegal {
        /// The line, from 1.
        line: usize,
        /// The move in the line, from 1.
        index: usize,
        /// The move as given.
        text: String,
        /// The rules' refusal.
        error: MoveError,
    },
    /// A move of a line is not made by the player the line expects (a pass the rules force
    /// shifted the turns, or the game ends first).
    #[error("line {line}, move {index}: {why}")]
    Turn {
        /// The line, from 1.
        line: usize,
        /// The move in the line, from 1.
        index: usize,
        /// What stands in the way.
        why: String,
    },
    /// Two lines answer the same position with different replies.
    #[error("lines {first} and {second} answer the same move with different replies")]
    Conflict {
        /// The earlier line, from 1.
        first: usize,
        /// The later line, from 1.
        second: usize,
    },
}

/// Checks `lines` from `position` (at `ply`, the opponent to move) for its owner `owner`
/// and returns the plan's replies; an empty list of lines is an empty plan.
pub fn plan(
    position: &AnyPosition,
    ply: u32,
    owner: Player,
    lines: &[Vec<String>],
) -> Result<Vec<Node>, PlanError> {
    if position.outcome().is_some() || position.to_move() == owner {
        return Err(PlanError::NotTheirTurn);
    }
    let mut nodes: BTreeMap<(u32, String), (usize, Node)> = BTreeMap::new();
    for (index, line) in lines.iter().enumerate() {
        let number = index + 1;
        if line.is_empty() || line.len() % 2 != 0 || line.len() > MOST_LINE_MOVES {
            return Err(PlanError::Shape(format!(
                "line {number}: {} moves; a line alternates their move and your reply: 2 to {MOST_LINE_MOVES} moves, an even number",
                line.len()
            )));
        }
        let mut here = position.clone();
        let mut at = ply;
        let mut path = Vec::with_capacity(line.len());
        for (step, pair) in line.chunks(2).enumerate() {
            let (theirs, mine) = (&pair[0], &pair[1]);
            let their_index = 2 * step + 1;
            let (their_move, their_plies) =
                play(&mut here, theirs, owner.other(), number, their_index)?;
            path.push(their_move);
            let node = Node {
                ply: at,
                after: here.to_string(),
                path: path.join(" "),
                reply: String::new(),
            };
            at += their_plies;
            if here.outcome().is_some() {
                return Err(PlanError::Turn {
                    line: number,
                    index: their_index + 1,
                    why: "the game is over before this reply".to_owned(),
                });
            }
            let (reply, my_plies) = play(&mut here, mine, owner, number, their_index + 1)?;
            at += my_plies;
            path.push(reply.clone());
            let node = Node { reply, ..node };
            match nodes.get(&(node.ply, node.after.clone())) {
                Some((first, kept)) if kept.reply != node.reply => {
                    return Err(PlanError::Conflict {
                        first: *first,
                        second: number,
                    });
                }
                Some(_) => {}
                None => {
                    nodes.insert((node.ply, node.after.clone()), (number, node));
                }
            }
            if nodes.len() > MOST_REPLIES {
                return Err(PlanError::Shape(format!(
                    "more than {MOST_REPLIES} replies in the plan"
                )));
            }
        }
    }
    Ok(nodes.into_values().map(|(_, node)| node).collect())
}

/// Plays `text` for `mover` on `position` with the passes the rules then force: the move as
/// the contract writes it and the plies it took (with the passes).
fn play(
    position: &mut AnyPosition,
    text: &str,
    mover: Player,
    line: usize,
    index: usize,
) -> Result<(String, u32), PlanError> {
    if position.outcome().is_some() {
        return Err(PlanError::Turn {
            line,
            index,
            why: "the game is over before this move".to_owned(),
        });
    }
    if position.to_move() != mover {
        return Err(PlanError::Turn {
            line,
            index,
            why: format!(
                "{} is to move here, not {}",
                position.colour_name(position.to_move()),
                position.colour_name(mover)
            ),
        });
    }
    let written = position
        .play_text(text)
        .map_err(|error| PlanError::Illegal {
            line,
            index,
            text: text.to_owned(),
            error,
        })?;
    let mut plies = 1;
    position.play_forced_passes(|_, _| plies += 1);
    Ok((written, plies))
}

/// The lines a plan's `nodes` still hold, from the game's position now: every path from
/// there to a reply with nothing under it, as the owner set them. The moves the game played
/// by the plan since it was set are left out: what every path still kept starts with (the
/// path of the earliest reply, less the opponent's move it answers).
pub fn lines_of(nodes: &[Node]) -> Vec<Vec<String>> {
    let played = nodes
        .iter()
        .min_by_key(|node| node.ply)
        .map_or(0, |first| first.path.split(' ').count() - 1);
    let mut lines: Vec<Vec<String>> = nodes
        .iter()
        // A node whose continuation another node extends is inside a longer line.
        .filter(|node| {
            let prefix = format!("{} ", node.continued());
            !nodes.iter().any(|other| other.path.starts_with(&prefix))
        })
        .map(|node| {
            node.continued()
                .split(' ')
                .skip(played)
                .map(str::to_owned)
                .collect()
        })
        .collect();
    lines.sort();
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameId;

    fn start() -> AnyPosition {
        AnyPosition::start(GameId::Flipstop, 5).unwrap()
    }

    fn line(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| (*m).to_owned()).collect()
    }

    #[test]
    fn a_plan_keeps_one_reply_per_position_and_its_lines_read_back() {
        // Red (first) has played c3; Blue's plan is for Red's next move.
        let mut position = start();
        position.play_text("c3").unwrap();
        position.play_forced_passes(|_, _| {});
        let owner = position.to_move();
        let mut red_to_move = position.clone();
        red_to_move.play_text("b2").unwrap();
        red_to_move.play_forced_passes(|_, _| {});
        let lines = [
            line(&["a1", "e5", "a2", "e4"]),
            line(&["a1", "e5", "b4", "d4"]),
            line(&["d2", "b4"]),
        ];
        let nodes = plan(&red_to_move, 2, owner, &lines).unwrap();
        assert_eq!(nodes.len(), 4, "{nodes:?}");
        let mut expected = lines.to_vec();
        expected.sort();
        assert_eq!(lines_of(&nodes), expected);
        // After a1 and the reply e5, the rest of the lines under them.
        let under: Vec<Node> = nodes
            .iter()
            .filter(|n| n.path.starts_with("a1 e5 "))
            .cloned()
            .collect();
        assert_eq!(
            lines_of(&under),
            vec![line(&["a2", "e4"]), line(&["b4", "d4"])]
        );
        // The reply to a1 is found by the position a1 leads to.
        let mut after = red_to_move.clone();
        after.play_text("a1").unwrap();
        after.play_forced_passes(|_, _| {});
        let found = nodes
            .iter()
            .find(|n| n.ply == 2 && n.after == after.to_string())
            .unwrap();
        assert_eq!(found.reply, "e5");
    }

    #[test]
    fn a_plan_is_refused_with_the_line_and_move_named() {
        // At the start Red (first) is to move: Blue (second) may plan, Red may not.
        let red = start().to_move();
        let blue = red.other();
        assert_eq!(
            plan(&start(), 0, red, &[line(&["a1", "e5"])]),
            Err(PlanError::NotTheirTurn)
        );
        let odd = plan(&start(), 0, blue, &[line(&["a1"])]);
        assert!(matches!(odd, Err(PlanError::Shape(_))), "{odd:?}");
        let long = vec!["a1".to_owned(); MOST_LINE_MOVES + 2];
        let refused = plan(&start(), 0, blue, &[long]);
        assert!(matches!(refused, Err(PlanError::Shape(_))), "{refused:?}");
        let taken = plan(&start(), 0, blue, &[line(&["a1", "a1"])]);
        assert!(
            matches!(
                taken,
                Err(PlanError::Illegal {
                    line: 1,
                    index: 2,
                    ..
                })
            ),
            "{taken:?}"
        );
        let conflict = plan(
            &start(),
            0,
            blue,
            &[line(&["a1", "e5"]), line(&["A1", "e4"])],
        );
        assert_eq!(
            conflict,
            Err(PlanError::Conflict {
                first: 1,
                second: 2
            })
        );
        assert_eq!(plan(&start(), 0, blue, &[]), Ok(Vec::new()));
    }
}
