//! Games in progress, for any front end (the terminal tools, the engine protocol, a server).
//!
//! - [`GameId`]: the four board games by id, and [`GameId::run`], which runs generic code
//!   ([`GameFn`]) for the game an id names;
//! - [`AnyPosition`]: a position of any game, kept as a value and serialised as its
//!   contract text;
//! - [`builder`]: moves built cell by cell with live validation.
//!
//! Library code does no I/O and reads no clock: time is passed in.

pub mod builder;
mod game;
mod position;

pub use builder::{Build, Draft, Selection, Verdict};
pub use game::{GameFn, GameId, Playable, UnknownGame};
pub use position::{AnyPosition, PositionFn};
