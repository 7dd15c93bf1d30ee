//! Swap 61 by 'pseudonam': the game master's engine.
//!
//! Swap 61 is a sealed-bid game for 9 or 10 players on a hexagon of 61 tiles: each round
//! every player secretly bids tokens on edges, the bids are resolved into swaps, and every
//! player scores the length of their own shortest paths between nodes, blocked by their own
//! walls and the walls they borrow that round. docs/RULINGS.md ("Swap 61") records how the
//! rule sheet is read; this crate follows it.
//!
//! - [`Board`]: the 61 tiles ([`Tile`]: nodes, player walls, wild walls, unowned walls) and
//!   the contract's 9-line grid text.
//! - [`check_submission`]: a player's `CELL CELL TOKENS` lines, each rejected one with a
//!   reason ([`RejectReason`]).
//! - [`resolve`]: the bids of all players turned into swaps, group by group.
//! - [`Scoring`] and [`shortest_path`]: each player's weighted shortest paths under every
//!   [`Variation`].
//! - [`play_round`]: one round from submissions to scores (the contract's
//!   `swapboard swap61 round`).
//! - [`Setup`] and [`Swap61Game`]: a whole game with its append-only history, saved as a
//!   versioned JSON game file.
//! - [`bot`]: a bidding bot; [`report`] and [`svg`]: what the game master posts.
//!
//! Rules code does no I/O; the command line reads and writes the files.

mod board;
pub mod bot;
mod game;
pub mod report;
mod resolve;
mod round;
mod score;
mod setup;
mod submission;
pub mod svg;

pub use board::{
    Board, BoardError, MAX_SEATS, MIN_SEATS, NODES, Node, SIDE, Seat, TILES, Tile, TileMask,
    WALLS_PER_SEAT, WILD_WALLS, are_neighbours, cell_of, parse_tile, tile_of,
};
pub use game::{Change, Entry, FORMAT, GameError, Swap61Game, standings};
pub use resolve::{EdgeOutcome, EdgeResult, Resolution, resolve, total_tokens};
pub use round::{LAST_ROUND, RoundOutcome, RoundSpec, allowance, play_round};
pub use score::{
    CornerHop, Pair, Scoring, Variation, blocking_seats, check_pairs, parse_pairs, shortest_path,
};
pub use setup::{DEFAULT_VARIATIONS, Setup, SetupError, check_name};
pub use submission::{
    Bid, Edge, RejectReason, Rejection, SUBMISSION_BYTES, Submission, check_submission,
};
