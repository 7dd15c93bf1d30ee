use std::fmt;

/// Why a position text was refused: it cannot be read, or no game can reach it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct PositionError {
    /// What is wrong and where, in words a user understands.
    pub reason: String,
}

impl PositionError {
    /// An error with the given reason.
    pub fn new(reason: impl Into<String>) -> PositionError {
        PositionError {
            reason: reason.into(),
        }
    }
}

/// Why a move cannot be played in a position: the rule it breaks, in a player's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct IllegalMove(pub String);

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
