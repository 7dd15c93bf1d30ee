//! The games' stored values: a new game, its seats, its status and how it finished, its
//! clocks, the game as read back, and the errors of the games' operations.

use std::fmt;

use swapboard_play::Termination;
use swapboard_play::{Clock, Millis, TimeControl};

/// Who sits in a seat of a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The account of this id.
    Account(i64),
    /// The AI at this level (1-8).
    Ai(u8),
    /// Nobody yet: an open seat.
    Open,
    /// Nobody yet: a seat kept for the account of this id, until it joins.
    Invited(i64),
}

/// A two-player game to store, already started (its first position given).
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    /// The game's id, unique.
    pub id: &'a str,
    /// The game's name (`swaptimum`, ...).
    pub game: &'a str,
    /// The board side.
    pub size: u32,
    /// The start position, as docs/CONTRACT.md writes it.
    pub position: &'a str,
    /// The seats, the first player's first.
    pub seats: [Seat; 2],
    /// The players' time.
    pub clock: TimeControl,
    /// The secret of an invite link: only a joiner who shows it takes the open seat.
    pub invite: Option<&'a str>,
    /// Whether the game counts for the ratings (never against the AI).
    pub rated: bool,
    /// Whether its challenger asked for a rated game in so many words: a game between a
    /// person and a bot stays rated only if this is so and its joiner asks too.
    pub rated_asked: bool,
}

/// Whether a game waits for players, is being played or has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A seat is still open.
    Waiting,
    /// Being played.
    Playing,
    /// Ended.
    Finished,
}

impl Status {
    /// The status as stored and as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }

    /// The status of its stored (and API) name.
    pub fn parse(text: &str) -> anyhow::Result<Status> {
        [Status::Waiting, Status::Playing, Status::Finished]
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| anyhow::anyhow!("games.status: unknown {text:?}"))
    }
}

/// How a challenge (a game waiting for its opponent) ended before its game began: stored
/// with the game, finished as aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// The challenged account said no.
    Declined,
    /// The challenger (or a moderator's ban of either) called it off.
    Cancelled,
    /// Nobody joined in time.
    Expired,
}

impl Closed {
    /// The word stored and shown as the game's status.
    pub fn as_str(self) -> &'static str {
        match self {
            Closed::Declined => "declined",
            Closed::Cancelled => "cancelled",
            Closed::Expired => "expired",
        }
    }

    /// The closing of its stored word.
    pub fn parse(text: &str) -> anyhow::Result<Closed> {
        [Closed::Declined, Closed::Cancelled, Closed::Expired]
            .into_iter()
            .find(|closed| closed.as_str() == text)
            .ok_or_else(|| anyhow::anyhow!("games.closed: unknown {text:?}"))
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The seat that won, `None` for a draw.
    pub winner_seat: Option<u8>,
    /// Why it ended.
    pub termination: Termination,
}

impl Finish {
    /// The stored form of the play layer's ending.
    pub fn of(ending: swapboard_play::Ending) -> Finish {
        Finish {
            winner_seat: ending.winner.map(seat_of),
            termination: ending.reason,
        }
    }
}

/// The seat index of a player, as the `seat` columns store it.
pub fn seat_of(player: swapboard_core::Player) -> u8 {
    match player {
        swapboard_core::Player::First => 0,
        swapboard_core::Player::Second => 1,
    }
}

/// A running clock as stored: enough to rebuild the play layer's [`Clock`] on any instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Times {
    /// Each seat's time left when its turn last began (live time controls; 0 otherwise).
    pub left_ms: [u64; 2],
    /// When the side to move began its turn, in ms since the Unix epoch.
    pub turn_started_ms: i64,
}

impl Times {
    /// The clock of a game under `control` with `to_move` to play.
    pub fn clock(self, control: TimeControl, to_move: swapboard_core::Player) -> Clock {
        Clock::resume(
            control,
            self.left_ms,
            to_move,
            Millis(u64::try_from(self.turn_started_ms).unwrap_or(0)),
        )
    }

    /// The stored form of a clock.
    pub fn of_clock(clock: &Clock) -> Times {
        Times {
            left_ms: clock.left_at_turn_start(),
            turn_started_ms: i64::try_from(clock.since().0).unwrap_or(i64::MAX),
        }
    }
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// The game's name.
    pub game: String,
    /// The board side.
    pub size: u32,
    /// Waiting, playing or finished.
    pub status: Status,
    /// The number of moves played.
    pub ply: u32,
    /// The position now.
    pub position: String,
    /// How it ended, once finished.
    pub finish: Option<Finish>,
    /// The players' time.
    pub clock: TimeControl,
    /// The running clock, once a game with a clock has started.
    pub times: Option<Times>,
    /// When the game was created, in ms since the Unix epoch.
    pub created_ms: i64,
    /// The secret of its invite link, while the game waits for the invited joiner.
    pub invite: Option<String>,
    /// The id of the rematch offered after it, once one is.
    pub rematch: Option<String>,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// The tournament that made the game, if one did: it cannot be aborted.
    pub tournament: Option<String>,
    /// The days of vacation each seat spent so that its correspondence clock did not run
    /// out, the first seat's first.
    pub vacation_days: [u32; 2],
    /// How the challenge ended, if it ended before its game began.
    pub closed: Option<Closed>,
    /// The challenged account's words when it declined.
    pub closed_reason: Option<String>,
    /// When a waiting game stops being joinable, in ms since the Unix epoch (none for the
    /// games made before challenges expired).
    pub expires_ms: Option<i64>,
    /// Whether the player waiting for the opponent's move keeps a plan of conditional
    /// replies (`docs/API.md`, "Correspondence").
    pub conditional: bool,
}

impl StoredGame {
    /// Whether a waiting game's time to be joined has passed at `now_ms` (the expiry sweep
    /// may not have closed it yet).
    pub fn expired_at(&self, now_ms: i64) -> bool {
        self.status == Status::Waiting && self.expires_ms.is_some_and(|due| due <= now_ms)
    }

    /// The game's status as the API words it at `now_ms`: `declined`, `cancelled` or
    /// `expired` for a challenge that ended before its game began, else its status.
    pub fn status_word(&self, now_ms: i64) -> &'static str {
        match self.closed {
            Some(closed) => closed.as_str(),
            None if self.expired_at(now_ms) => Closed::Expired.as_str(),
            None => self.status.as_str(),
        }
    }
}

/// Why a join was refused.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// No game of that id.
    #[error("no such game")]
    NoSuchGame,
    /// The game waits for nobody: every seat is taken.
    #[error("the game is {}: no seat is open", .0.as_str())]
    Full(Status),
    /// The joiner sits in the game already.
    #[error("you sit in this game already")]
    Seated,
    /// The challenge ended before its game began (declined, cancelled or expired).
    #[error("the challenge was {}: it cannot be joined", .0.as_str())]
    Closed(Closed),
    /// The open seat is kept for another account.
    #[error("this game is kept for another player")]
    Invited,
    /// The game is joined by its invite link only, and the invite shown is not its own.
    #[error("this game is joined by its invite link only, and this invite is not its own")]
    WrongInvite,
    /// The database failed.
    #[error("storage: {0:#}")]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for JoinError {
    fn from(e: sqlx::Error) -> JoinError {
        JoinError::Storage(e.into())
    }
}

/// Why a move was not stored.
#[derive(Debug)]
pub enum MoveError<R> {
    /// No game of that id.
    NoSuchGame,
    /// The game is not being played (still waiting, or finished).
    NotPlaying(Status),
    /// The game's ply is not the one the move was sent for (and it is not a retry of the
    /// move stored there).
    Stale {
        /// The game's ply now.
        ply: u32,
    },
    /// The rules refused the move.
    Refused(R),
    /// The database failed.
    Storage(anyhow::Error),
}

impl<R: fmt::Display> fmt::Display for MoveError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoSuchGame => f.write_str("no such game"),
            MoveError::NotPlaying(status) => write!(f, "the game is {}", status.as_str()),
            MoveError::Stale { ply } => write!(f, "the game is at ply {ply}"),
            MoveError::Refused(refusal) => refusal.fmt(f),
            MoveError::Storage(e) => write!(f, "storage: {e:#}"),
        }
    }
}

impl<R> From<sqlx::Error> for MoveError<R> {
    fn from(e: sqlx::Error) -> MoveError<R> {
        MoveError::Storage(e.into())
    }
}

impl<R> From<anyhow::Error> for MoveError<R> {
    fn from(e: anyhow::Error) -> MoveError<R> {
        MoveError::Storage(e)
    }
}

/// What offering a rematch did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// The new game was stored as the rematch.
    Created,
    /// The game had a rematch already: this one's id.
    Existing(String),
}
