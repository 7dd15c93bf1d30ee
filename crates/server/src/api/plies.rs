//! The wire types of a game's record as anyone may watch it: the board after a ply and the
//! list of moves with what each did.

use serde::{Deserialize, Serialize};
use swapboard_core::BoardView;
use utoipa::ToSchema;

/// The board after a ply, with what the move that made it did.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlyView {
    /// The number of moves played before this position.
    pub ply: usize,
    /// The board: cells, colours, sides, marks of the last move, winning path, networks
    /// (the `view` of `docs/CONTRACT.md`).
    pub board: BoardView,
    /// The move that made this position, `null` at ply 0.
    #[serde(rename = "move")]
    pub text: Option<String>,
    /// What that move did, in words.
    pub description: Option<String>,
    /// How the game ended, in words, once it has (whatever ply is shown).
    pub ending: Option<String>,
}

/// One move of a game, with what it did.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveView {
    /// The ply this move made (1 for the first move).
    pub ply: usize,
    /// The move as `docs/CONTRACT.md` writes it.
    #[serde(rename = "move")]
    pub text: String,
    /// The mover's colour letter.
    pub colour: String,
    /// What the move did, in words.
    pub description: String,
    /// Whether its player's conditional moves played it, in the opponent's move's
    /// transaction.
    pub by_condition: bool,
}

/// The moves of a game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveList {
    /// Every move, in order.
    pub moves: Vec<MoveView>,
    /// How the game ended, in words, once it has.
    pub ending: Option<String>,
}
