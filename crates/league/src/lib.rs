//! Ratings and tournaments, with no I/O and no clock (issue 26).
//!
//! The server calls this crate from the one place a game's end is written, inside that
//! transaction; the crate itself knows nothing of games' rules, storage or time: every instant
//! is passed in as Unix seconds ([`UnixSeconds`]).
//!
//! - [`glicko2`]: Glicko-2 with lichess's parameters ([`glicko2::Params::LICHESS`]): one rated
//!   game is one rating period ([`glicko2::rate_game`]), RD grows with inactivity
//!   ([`glicko2::PlayerRating::as_of`]), a rating is provisional while RD >= 110.
//! - [`multiplayer`]: Weng-Lin (OpenSkill) for a finished Swap 61 room
//!   ([`multiplayer::rate_room`]).
//! - [`rerate`]: replays rated games in order, the same numbers every run.
//! - [`tournament`]: double round robin divisions, Swiss pairings, standings.
//!
//! What the server calls, and when:
//!
//! | event | call | store |
//! | --- | --- | --- |
//! | a rated two-player game ends | [`glicko2::rate_game`] with both players' [`glicko2::PlayerRating`] in the game's size band (a player new to the band: [`glicko2::prior`] of their other bands), the first player's [`glicko2::Outcome`] and the end time | each [`glicko2::Change`]: `after` as the player's record and a history point; `before` and `delta()` for the game view |
//! | a rating is shown | [`glicko2::PlayerRating::shown`] with the current time | nothing |
//! | a leaderboard is listed | [`glicko2::PlayerRating::on_leaderboard`] with the current time and the RD limit [`glicko2::Params::leaderboard_rd_for`] its pool's active players give, then the top 100 by rating | nothing |
//! | a Swap 61 room finishes | [`multiplayer::rate_room`] with every seat's [`multiplayer::Skill`] and final rank | each seat's new `Skill` |
//! | `swapboard admin rerate` | [`rerate::rerate`] with a game's rated games in order, each with its band, [`rerate::rerate_rooms`] with the Swap 61 rooms in order | every record and history point |
//! | a round robin starts | [`tournament::divisions`], then [`tournament::double_round_robin`] per division | the rounds |
//! | a Swiss starts, or its last round's last game ends | [`tournament::swiss_round`] with the players still in and the rounds played | the new round |
//! | a tournament game ends | [`tournament::standings`] with every entrant and the rounds | the standings |
//!
//! `docs/RATINGS.md` gives the parameters, the tournament rules and how close the ratings come
//! to known strengths in simulation (`examples/rating_accuracy.rs`).

pub mod glicko2;
pub mod multiplayer;
pub mod rerate;
pub mod tournament;

/// An instant as seconds since 1970-01-01 UTC; the caller reads the clock, never this crate.
pub type UnixSeconds = i64;

/// Why a rating or tournament computation refused its input. Each names the input, the value
/// and what was expected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A number is out of its range (e.g. a rating past 10000, a deviation not positive).
    #[error("{field} is {value}: {expected}")]
    OutOfRange {
        /// Which input, e.g. "opponent 2's rd".
        field: String,
        /// The value given.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// Glickman's iteration for the new volatility did not converge within its bound.
    #[error("the volatility iteration did not converge in {0} steps")]
    NoConvergence(u32),
    /// Games given to a replay are out of time order.
    #[error(
        "game {index} ended at {at}, before game {previous} (at {previous_at}): games must be in order"
    )]
    OutOfOrder {
        /// Position of the offending game in the input.
        index: usize,
        /// Its time.
        at: UnixSeconds,
        /// Position of the game before it.
        previous: usize,
        /// That game's time.
        previous_at: UnixSeconds,
    },
    /// A game or room names one player twice.
    #[error("{0}: a player cannot meet themself")]
    SamePlayer(String),
    /// Too few or too many players for what was asked.
    #[error("{what} needs {min} to {max} players, got {got}")]
    FieldSize {
        /// What was asked.
        what: &'static str,
        /// Least allowed.
        min: usize,
        /// Most allowed.
        max: usize,
        /// Number given.
        got: usize,
    },
    /// A rank of a room is out of range (ranks run from 1 to the number of seats).
    #[error("seat {seat}'s rank is {rank}: ranks run from 1 to {seats}")]
    BadRank {
        /// The seat, from 0.
        seat: usize,
        /// The rank given.
        rank: usize,
        /// The number of seats.
        seats: usize,
    },
    /// A tournament's input is inconsistent (a player twice, an unknown player, an unfinished
    /// round before pairing the next, ...); the text says which.
    #[error("{0}")]
    Tournament(String),
    /// No Swiss pairing satisfies the rules (no pair meets twice, colour difference at most 1).
    #[error(
        "no pairing of round {round} meets the rules (no rematch, colour difference at most 1)"
    )]
    NoPairing {
        /// The round being paired.
        round: u32,
    },
    /// The Swiss pairing search reached its bound before deciding.
    #[error("pairing round {round} gave up after {nodes} search steps")]
    SearchBound {
        /// The round being paired.
        round: u32,
        /// Steps taken.
        nodes: u64,
    },
}

/// Checks that `value` lies in `allowed` (so is not NaN nor infinite), naming it otherwise.
pub(crate) fn check(
    field: impl Fn() -> String,
    value: f64,
    allowed: impl std::ops::RangeBounds<f64>,
    expected: &'static str,
) -> Result<f64, Error> {
    if allowed.contains(&value) {
        Ok(value)
    } else {
        Err(Error::OutOfRange {
            field: field(),
            value,
            expected,
        })
    }
}

/// Above 0 and at most `high`: a deviation's or volatility's range.
pub(crate) fn positive_up_to(high: f64) -> (std::ops::Bound<f64>, std::ops::Bound<f64>) {
    (
        std::ops::Bound::Excluded(0.0),
        std::ops::Bound::Included(high),
    )
}
