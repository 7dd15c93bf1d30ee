//! The wire types of a Swap 61 room: the room as its caller may see it (the public, a seat,
//! the game master), the checked submissions and the resolved rounds (the room and the
//! check of docs/API.md, "Swap 61 rooms").

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A seat as the room shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// The seat, from 1, in the published order.
    pub seat: u8,
    /// Who plays it: the account's name, or the seat's name in the game file (`bot:N` for
    /// a bot seat).
    pub name: String,
    /// Whether the bidding bot plays it.
    pub bot: bool,
    /// Whether nobody plays it (after an import, until the game master gives it away).
    pub vacant: bool,
}

/// One line of a checked submission.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LineView {
    /// The line number, from 1 (blank and `#` lines are counted and not listed).
    pub line: usize,
    /// `accepted` or `rejected`.
    pub status: Cow<'static, str>,
    /// Why a rejected line was rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// An accepted line's edge, like `A2 A3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<String>,
    /// An accepted line's tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u32>,
}

/// Tokens placed and the round's allowance.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TokensView {
    /// Tokens on accepted lines.
    pub spent: u32,
    /// The round's allowance (4 in the pregame, 9 after).
    pub allowance: u32,
}

/// A submission checked against the grid at the start of its round: the check of
/// docs/API.md.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CheckView {
    /// The round it is for.
    pub round: u8,
    /// Every bid line, accepted or rejected.
    pub lines: Vec<LineView>,
    /// Tokens placed and allowed.
    pub tokens: TokensView,
    /// The SHA-256 of the text as stored, in hex.
    pub receipt: String,
}

/// A seat whose walls the caller borrows this round.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BorrowedView {
    /// The seat lent from.
    pub seat: u8,
    /// Who plays it.
    pub name: String,
    /// Its walls now.
    pub walls: Vec<String>,
}

/// What only the caller's seat sees.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct YouView {
    /// The caller's seat.
    pub seat: u8,
    /// The caller's walls now.
    pub walls: Vec<String>,
    /// The walls borrowed in the open round (none in the pregame).
    pub borrowed: Vec<BorrowedView>,
    /// The caller's submission for the open round, as sent.
    pub submission: Option<String>,
    /// Its check.
    pub check: Option<CheckView>,
    /// Whether the caller marked it final.
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// One seat's submission, for the game master.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SubmissionView {
    /// The seat.
    pub seat: u8,
    /// The text as sent.
    pub submission: String,
    /// Its check.
    pub check: CheckView,
    /// Whether the player marked it final.
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// A resolved round, as everyone sees it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RoundView {
    /// The round (0 = the pregame).
    pub round: u8,
    /// Its variation.
    pub variation: String,
    /// Its pairs.
    pub pairs: Vec<String>,
    /// The grid after it.
    pub grid: Vec<String>,
    /// Its scores in seat order (none for the pregame).
    pub scores: Option<Vec<u32>>,
}

/// A place in the standings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StandingView {
    /// The rank, shared on ties.
    pub rank: usize,
    /// The seat.
    pub seat: u8,
    /// The cumulative score.
    pub total: u32,
}

/// A room as the caller may see it: the room of docs/API.md.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RoomView {
    /// The room's id.
    pub id: String,
    /// `lobby`, `playing` or `finished`.
    pub status: Cow<'static, str>,
    /// The game master's name.
    pub master: String,
    /// The seats: wanted (lobby) or drawn.
    pub size: u8,
    /// Round 5's variation.
    pub round5: String,
    /// How long each round is open, in hours.
    pub round_hours: f64,
    /// The open round (0 = the pregame; 6 once over).
    pub round: u8,
    /// The open round's variation, `null` in the lobby and once over.
    pub variation: Option<String>,
    /// In the lobby, who has joined, in order; empty once started.
    pub joined: Vec<String>,
    /// The published seat order (empty in the lobby).
    pub seats: Vec<SeatView>,
    /// The grid now.
    pub grid: Vec<String>,
    /// The open round's pairs.
    pub pairs: Vec<String>,
    /// The next round's pairs, published one round ahead.
    pub next_pairs: Vec<String>,
    /// How many seats have submitted for the open round.
    pub submitted: u32,
    /// How many of them marked final.
    pub finals: u32,
    /// Cumulative scores, seat order.
    pub totals: Vec<u32>,
    /// The standings, shared ranks on ties.
    pub standings: Vec<StandingView>,
    /// The resolved rounds.
    pub rounds: Vec<RoundView>,
    /// When the open round resolves by itself (ms since 1970); `null` in the lobby, while
    /// paused and once over.
    pub deadline_ms: Option<i64>,
    /// When an administrator closed the room before its end (it is then `finished`), in ms
    /// since the Unix epoch; `null` otherwise.
    pub closed_ms: Option<i64>,
    /// Whether the game master paused the open round's clock.
    pub paused: bool,
    /// The server's time when it answered, to count down from.
    pub server_now_ms: i64,
    /// The invite: only in the game master's answer that made it (creation, a new invite).
    pub invite: Option<String>,
    /// The caller's own seat, for a player.
    pub you: Option<YouView>,
    /// Every submission of the open round, for the game master only.
    pub submissions: Option<Vec<SubmissionView>>,
}

/// The caller's rooms.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MyRooms {
    /// The rooms the caller runs as game master or holds a seat in, newest first (at most
    /// 50), each as the caller may see it.
    pub rooms: Vec<RoomView>,
}
