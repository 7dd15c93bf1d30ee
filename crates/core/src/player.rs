use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the two players of a two-player game, by turn order.
///
/// Which colour each is depends on the game (Swaptimum's first player is Red, Scware's is
/// White); [`crate::Game::colour_letter`] names them. In JSON `first` and `second`, like
/// every word of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// The player who moves first from the start position.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// Both players, first player first.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// 0 for the first player, 1 for the second.
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The player with the given index (0 or 1; anything else is the second player).
    pub const fn from_index(index: usize) -> Player {
        if index == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The opponent.
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// How a finished game ended. In JSON `{"win": "first"}` or `"draw"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// The result from `player`'s side: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, player: Player) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}
