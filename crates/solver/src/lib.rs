//! A solver for any swapboard game: it proves who wins a position with perfect play.
//!
//! The search is depth-first proof-number search (df-pn, Nagai 2002) with the 1 + ε
//! threshold trick (Pawlewicz and Lew 2007), over a transposition table keyed by
//! [`Game::canonical_hash`], so that a position and its images under the board's symmetries
//! ([`Game::symmetries`]) share one entry. A position new to the table starts from the
//! game's [`Game::distances_to_win`] when it offers them (df-pn+, [`Options::distances`]),
//! else from 1 and 1.
//!
//! It knows no game: turns need not alternate (every node asks [`Game::to_move`]), `pass` is
//! a move like any other, and draws are handled by asking two questions in turn: "does the
//! player to move win?", and if not, "does the other player win?"; a position where both
//! answers are no is a draw.
//!
//! [`Solver::wins_within`] asks a narrower question: does a player win with at most n moves
//! of its own (a turn of several decisions one move, a forced pass none)? Its positions
//! carry the moves left in their table keys; the least such n is the shortest forced win, a
//! puzzle's "wins in N moves".
//!
//! A proposition is stored relative to the player to move ("the player to move wins" at the
//! nodes where the player trying to win moves, "the other player wins" at the others), so
//! that a symmetry exchanging the players' colours and turn keeps every entry true.
//!
//! Games that can repeat a position (Rapid Transit has no repetition rule) are outside what a
//! proof search can settle: the solver stops with [`Stop::Repetition`] when its path comes
//! back to a position, and says so rather than guessing.
//!
//! ```
//! use swapboard_core::{Game, Outcome, Player};
//! use swapboard_flipstop::Flipstop;
//! use swapboard_solver::{Options, Solver};
//!
//! // Blue, the second player, wins Flipstop on 3 x 3 whatever Red does.
//! let pos = Flipstop::start(3).unwrap();
//! let solution = Solver::new(Options::default()).solve(&pos, &mut |_| {});
//! assert_eq!(solution.outcome, Some(Outcome::Win(Player::Second)));
//! assert!(solution.best_move.is_some());
//! ```

pub mod book;
mod search;
mod table;

use std::fmt;
use std::time::Duration;

use swapboard_core::{Game, Outcome, Player};

pub use book::{Book, BookError, Course, Reach};
pub use search::Solver;

/// How the solver searches, and when it gives up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The memory of the transposition table, in bytes.
    pub table_bytes: usize,
    /// Whether a position and its images under the board's symmetries share one entry.
    pub symmetries: bool,
    /// Whether a new position's numbers start from the game's [`Game::distances_to_win`]
    /// (else from 1 and 1).
    pub distances: bool,
    /// Give up after this many nodes (positions expanded).
    pub max_nodes: Option<u64>,
    /// Give up after this much wall-clock time.
    pub time: Option<Duration>,
    /// The progress callback is called about every this many nodes.
    pub progress_every: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            table_bytes: 64 << 20,
            symmetries: true,
            distances: true,
            max_nodes: None,
            time: None,
            progress_every: 1 << 16,
        }
    }
}

/// Why a search stopped without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The node limit was reached.
    NodeLimit,
    /// The time limit was reached.
    TimeLimit,
    /// The caller asked the search to stop ([`Solver::with_stop`]).
    Requested,
    /// The search came back to a position already on its path: the game can cycle here,
    /// and a proof search cannot settle a cycle.
    Repetition,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::NodeLimit => "the node limit was reached",
            Stop::TimeLimit => "the time limit was reached",
            Stop::Requested => "the search was stopped",
            Stop::Repetition => {
                "the search met a position repeated on its own path (the game can cycle, and \
                 a proof search cannot settle a cycle)"
            }
        })
    }
}

/// What is known about one move from the solved position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveResult {
    /// The move wins for the player making it.
    Wins,
    /// The move does not win for the player making it (it loses or draws).
    DoesNotWin,
    /// Not settled within the limits.
    Open,
}

/// The solver's answer for one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution<M> {
    /// The result with perfect play, or `None` if the search stopped first.
    pub outcome: Option<Outcome>,
    /// Why the search stopped without a result.
    pub stopped: Option<Stop>,
    /// The player to move in the solved position.
    pub player: Player,
    /// A move that achieves the outcome: the first move of a winning proof, a drawing
    /// move, or for a lost position the move whose refutation took the most search (the
    /// longest-resisting one as far as the search can tell). `None` when the game is over
    /// or the search stopped first.
    pub best_move: Option<M>,
    /// Each legal move with whether it wins for the player to move, as far as the search
    /// got (all settled once the outcome is known, except after a winning move was found).
    pub moves: Vec<(M, MoveResult)>,
    /// Positions expanded.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// A look at a search under way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Positions expanded so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The player whose win is being proven or disproven now.
    pub goal: Player,
    /// The root's proof and disproof numbers for that goal (`u32::MAX` is infinite).
    pub proof: u32,
    /// See [`Progress::proof`].
    pub disproof: u32,
    /// Transposition table entries in use, and in all.
    pub table_used: usize,
    /// See [`Progress::table_used`].
    pub table_capacity: usize,
}

/// Solves `position` with default options and no progress report.
pub fn solve<G: Game>(position: &G) -> Solution<G::Move> {
    Solver::new(Options::default()).solve(position, &mut |_| {})
}
