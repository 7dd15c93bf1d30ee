//! Games in progress, for any front end (the terminal tools, the engine protocol, a server).
//!
//! - [`GameId`]: the four board games by id, and [`GameId::run`], which runs generic code
//!   ([`GameFn`]) for the game an id names;
//! - [`AnyPosition`]: a position of any game, kept as a value and serialised as its
//!   contract text;
//! - [`Table`]: a game in progress, with seats, the moves and their times, a [`Clock`]
//!   under a [`TimeControl`], undo, and the [`Ending`];
//! - [`builder`]: moves built cell by cell with live validation;
//! - [`rules`]: the rules of the five games in the project's words, with diagrams whose
//!   claims the tests check through the engines;
//! - [`step`]: the steps nobody chooses (a pass the rules force), decided once;
//! - [`words`]: what a move did and how a game ended, worded once for every front end;
//! - [`hints`]: on request, how far each player is from its edges and the opponent's
//!   threats;
//! - [`lessons`]: a short course per game, each step a position and a task the engine
//!   judges;
//! - [`puzzles`]: positions where exactly one move wins, proven by the solver, and the
//!   judging of an attempt;
//! - [`names`]: names shown to people, normalised and checked against look-alikes;
//! - [`record`]: the text record of a game (`docs/RECORDS.md`);
//! - [`protocol`]: the engine protocol (`swapboard engine`, `docs/ENGINE-PROTOCOL.md`) over
//!   any input and output.
//!
//! Library code reads no clock (time is passed in) and does no I/O of its own: only
//! [`protocol`] reads and writes, on the streams it is given.

mod analysis;
pub mod builder;
pub mod clock;
pub mod conditional;
mod game;
mod games;
pub mod hints;
pub mod lessons;
pub mod names;
mod opponent;
mod position;
pub mod protocol;
pub mod puzzles;
mod review;
pub mod rules;
pub mod step;
mod table;
pub mod words;

pub use analysis::{AnalysisView, Basis, Judgement, LineView, MoveReview, Proven};
pub use builder::{Build, Draft, Selection, Verdict};
pub use clock::{Clock, Millis, ThinkBudget, TimeControl};
pub use game::{Band, BandEntry, CatalogueEntry, GameFn, GameId, Playable, UnknownGame, catalogue};
pub use opponent::{AiRequest, Opponent, seat_name};
pub use position::{AnyPosition, PositionFn};
pub use review::Review;
/// The AI's strength levels, 1 to 9 (a front end names them; [`AiRequest`] takes one).
pub use swapboard_ai::Level;
pub use table::{Played, Seat, Table, TableError, UndoPolicy};
pub use words::{Ending, Termination};

/// Game records, written by matches (`swapboard-arena`, below this crate, writes them too)
/// and by tables.
pub mod record {
    pub use swapboard_arena::record::*;
}
