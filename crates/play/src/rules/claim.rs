//! What the words of a rules page or a lesson claim about a position, in terms the engines
//! check: every caption, task and answer that states a fact about a position carries the
//! claims it makes, and [`Claim::check`] holds each against the engines (the board games'
//! moves, outcome and picture; the Swap 61 crate's neighbours, submission check,
//! resolution and scores). The tests check every claim of every diagram and lesson step, so
//! words that tell something the rules do not fail the build.

use swapboard_core::{CellMark, MoveError, Outcome, Rule};

use super::{Board, HexRound};
use crate::AnyPosition;

/// What a diagram claims, in terms an engine can check.
#[derive(Debug, Clone, Copy)]
pub enum Claim {
    /// The move is legal here; with `after`, it leads to exactly that position text.
    Plays {
        /// The move, in the contract's notation.
        mv: &'static str,
        /// The position it leads to.
        after: Option<&'static str>,
    },
    /// The move is refused, for breaking this rule.
    Refused {
        /// The move, in the contract's notation.
        mv: &'static str,
        /// The rule it breaks.
        rule: Rule,
    },
    /// The legal moves here are exactly these.
    Moves(&'static [&'static str]),
    /// The number of legal moves here.
    MoveCount(usize),
    /// How the position stands: `None` while the game goes on.
    Result(Option<Outcome>),
    /// Exactly these cells carry this mark in the engine's picture of the position.
    Marks {
        /// The mark.
        mark: CellMark,
        /// The cells, in any order.
        cells: &'static [&'static str],
    },
    /// One line of the engine's notes about the position (Rapid Transit's network sizes).
    Note(&'static str),
    /// The move is legal here, and after it and the passes the rules then force, the game
    /// stands so (`None`: it goes on). A caption that says a move wins, or does not, says it
    /// through this.
    Ends {
        /// The move, in the contract's notation.
        mv: &'static str,
        /// How the game stands after it.
        result: Option<Outcome>,
    },
    /// The move is refused, and the engine's reason contains these words: a caption that
    /// explains a refusal (which crosscut stays, which checker cannot be turned) says it
    /// through this.
    Says {
        /// The move, in the contract's notation.
        mv: &'static str,
        /// Words the engine's refusal contains.
        words: &'static str,
    },
    /// Swap 61: whether two tiles share an edge.
    Touching {
        /// One tile.
        a: &'static str,
        /// The other.
        b: &'static str,
        /// Whether they touch.
        touching: bool,
    },
    /// Swap 61: the round rejects this line of a seat's submission, for this reason.
    Rejects {
        /// The seat, from 1.
        seat: usize,
        /// The line, from 1.
        line: usize,
        /// The reason, as the engine words it.
        reason: &'static str,
    },
    /// Swap 61: the round's edges as resolved, in order (the contract's `swap A2 A3 9` and
    /// `fail ...` lines).
    Resolves(&'static [&'static str]),
    /// Swap 61: each seat's points for the round, in seat order.
    Scores(&'static [u32]),
}

impl Claim {
    /// Whether the claim holds on `board`; the error says what the engine found instead.
    pub fn check(&self, board: &Board) -> Result<(), String> {
        match board {
            Board::Square(text) => {
                let position: AnyPosition = text.parse().map_err(|e| format!("refused: {e}"))?;
                self.check_square(&position)
            }
            Board::Hex(round) => self.check_hex(round),
        }
    }

    /// The rule a move is claimed to break, if this claim names one.
    pub fn rule(&self) -> Option<Rule> {
        match *self {
            Claim::Refused { rule, .. } => Some(rule),
            _ => None,
        }
    }

    /// Whether the claim holds on a square-board position.
    pub fn check_square(&self, position: &AnyPosition) -> Result<(), String> {
        match *self {
            Claim::Plays { mv, after } => {
                let mut played = position.clone();
                played
                    .play_text(mv)
                    .map_err(|e| format!("{mv} is not legal: {e}"))?;
                match after {
                    Some(expected) if played.to_string() != expected => {
                        Err(format!("{mv} leads to {played}, not {expected}"))
                    }
                    _ => Ok(()),
                }
            }
            Claim::Refused { mv, rule } => match position.clone().play_text(mv) {
                Err(MoveError::Illegal { reason, .. }) if reason.rule == rule => Ok(()),
                Err(e) => Err(format!("{mv} is refused otherwise than under {rule}: {e}")),
                Ok(_) => Err(format!("{mv} is legal")),
            },
            Claim::Moves(expected) => {
                let mut moves = position.legal_moves(10_000).ok_or("too many moves")?;
                let mut expected: Vec<String> = expected.iter().map(|m| m.to_string()).collect();
                moves.sort();
                expected.sort();
                (moves == expected)
                    .then_some(())
                    .ok_or(format!("the legal moves are {moves:?}"))
            }
            Claim::MoveCount(count) => {
                let moves = position.legal_moves(10_000).ok_or("too many moves")?;
                (moves.len() == count)
                    .then_some(())
                    .ok_or(format!("{} legal moves: {moves:?}", moves.len()))
            }
            Claim::Result(expected) => (position.outcome() == expected)
                .then_some(())
                .ok_or(format!("the outcome is {:?}", position.outcome())),
            Claim::Ends { mv, result } => {
                let mut played = position.clone();
                played
                    .play_text(mv)
                    .map_err(|e| format!("{mv} is not legal: {e}"))?;
                played.play_forced_passes(|_, _| {});
                (played.outcome() == result)
                    .then_some(())
                    .ok_or(format!("after {mv} the outcome is {:?}", played.outcome()))
            }
            Claim::Says { mv, words } => match position.clone().play_text(mv) {
                Err(e) if e.to_string().contains(words) => Ok(()),
                Err(e) => Err(format!("{mv} is refused in other words: {e}")),
                Ok(_) => Err(format!("{mv} is legal")),
            },
            Claim::Marks { mark, cells } => {
                let mut found: Vec<String> = position
                    .view()
                    .marks
                    .iter()
                    .filter(|&&(_, m)| m == mark)
                    .map(|(c, _)| c.to_string())
                    .collect();
                let mut expected: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                found.sort();
                expected.sort();
                (found == expected)
                    .then_some(())
                    .ok_or(format!("{mark:?} marks {found:?}"))
            }
            Claim::Note(line) => {
                let notes = position.view().notes;
                notes
                    .iter()
                    .any(|n| n == line)
                    .then_some(())
                    .ok_or(format!("the notes are {notes:?}"))
            }
            _ => Err(format!("{self:?} is a claim about a Swap 61 grid")),
        }
    }

    fn check_hex(&self, round: &HexRound) -> Result<(), String> {
        swapboard_swap61::Board::parse(round.grid, round.seats).map_err(|e| e.to_string())?;
        match *self {
            Claim::Touching { a, b, touching } => {
                let tile =
                    |name: &str| swapboard_swap61::parse_tile(name).ok_or(format!("{name}?"));
                let found = swapboard_swap61::are_neighbours(tile(a)?, tile(b)?);
                (found == touching)
                    .then_some(())
                    .ok_or(format!("{a} and {b} touching: {found}"))
            }
            Claim::Rejects { seat, line, reason } => {
                let outcome = round.play();
                let found = outcome
                    .rejections
                    .iter()
                    .find(|(s, r)| s.number() == seat && r.line == line)
                    .map(|(_, r)| r.reason.to_string());
                (found.as_deref() == Some(reason))
                    .then_some(())
                    .ok_or(format!("seat {seat} line {line}: {found:?}"))
            }
            Claim::Resolves(lines) => {
                let found: Vec<String> = round
                    .play()
                    .resolution
                    .edges
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                (found == lines)
                    .then_some(())
                    .ok_or(format!("resolved as {found:?}"))
            }
            Claim::Scores(expected) => {
                let found = round.play().scores;
                (found.as_deref() == Some(expected))
                    .then_some(())
                    .ok_or(format!("scores {found:?}"))
            }
            _ => Err(format!("{self:?} is a claim about a square board")),
        }
    }
}
