use std::fmt;

use swapboard_grid::{Cell, Square};

use crate::Rule;

/// What is wrong with a refused position text, for programs: its words are in
/// [`PositionError::reason`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionErrorKind {
    /// The text does not follow the contract's syntax (fields, rows, letters).
    Unreadable,
    /// The text names another game than the one reading it.
    UnknownGame,
    /// The board size is outside the sizes the game is played on.
    BadSize,
    /// The text is well formed but no game can reach it (a crosscut stands, the counts of
    /// pieces or the game fields disagree with the board, ...).
    Unreachable,
}

/// Why a position text was refused: it cannot be read, or no game can reach it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct PositionError {
    /// What kind of fault it is.
    pub kind: PositionErrorKind,
    /// What is wrong and where, in words a user understands.
    pub reason: String,
}

impl PositionError {
    /// An error of the given kind with the given reason.
    pub fn new(kind: PositionErrorKind, reason: impl Into<String>) -> PositionError {
        PositionError {
            kind,
            reason: reason.into(),
        }
    }

    /// A text that does not follow the syntax.
    pub fn unreadable(reason: impl Into<String>) -> PositionError {
        PositionError::new(PositionErrorKind::Unreadable, reason)
    }

    /// A text of another game.
    pub fn unknown_game(reason: impl Into<String>) -> PositionError {
        PositionError::new(PositionErrorKind::UnknownGame, reason)
    }

    /// A board size the game is not played on.
    pub fn bad_size(reason: impl Into<String>) -> PositionError {
        PositionError::new(PositionErrorKind::BadSize, reason)
    }

    /// A well-formed position no game can reach.
    pub fn unreachable(reason: impl Into<String>) -> PositionError {
        PositionError::new(PositionErrorKind::Unreachable, reason)
    }
}

/// Why a move cannot be played in a position: the rule it breaks, as a stable code for
/// programs and in a player's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct IllegalMove {
    /// The rule the move breaks.
    pub rule: Rule,
    /// What is wrong with the move here, naming its cells.
    pub message: String,
}

impl IllegalMove {
    /// A refusal under `rule`, explained by `message`.
    pub fn new(rule: Rule, message: impl Into<String>) -> IllegalMove {
        IllegalMove {
            rule,
            message: message.into(),
        }
    }

    /// The refusal of a move naming a cell off the board, for the first such cell of
    /// `cells`: a move built by a program (not parsed from text) may name any cell.
    pub fn off_board(square: Square, cells: impl IntoIterator<Item = Cell>) -> Option<IllegalMove> {
        let n = square.size();
        cells
            .into_iter()
            .find(|&c| !square.contains(c))
            .map(|cell| {
                IllegalMove::new(Rule::OffBoard, format!("{cell} is off the {n}x{n} board"))
            })
    }
}

/// Why a move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move of this game on this board.
    #[error("unreadable move {text}: {reason}")]
    Unreadable {
        /// The move as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text names a move the rules forbid here.
    #[error("illegal move {text}: {reason}")]
    Illegal {
        /// The move as given.
        text: String,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

impl MoveError {
    /// An unreadable-move error for `text`.
    pub fn unreadable(text: &str, reason: impl fmt::Display) -> MoveError {
        MoveError::Unreadable {
            text: text.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// A move refused by [`crate::Game::play`], handing the untouched position back.
#[derive(Debug, Clone, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct PlayError<G: crate::Game> {
    /// The position, unchanged.
    pub position: G,
    /// The move that was refused.
    pub mv: G::Move,
    /// Why.
    pub reason: IllegalMove,
}
