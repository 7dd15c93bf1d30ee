//! The rooms' stored values, and the errors of their operations.

/// Whether a room waits for players, is being played or is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomStatus {
    /// Players join; nothing is drawn yet.
    Lobby,
    /// Rounds are open, one at a time.
    Playing,
    /// Round 5 is resolved, or an administrator closed the room.
    Finished,
}

impl RoomStatus {
    /// The status as stored and as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Lobby => "lobby",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
        }
    }

    pub(super) fn parse(text: &str) -> anyhow::Result<RoomStatus> {
        [RoomStatus::Lobby, RoomStatus::Playing, RoomStatus::Finished]
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| anyhow::anyhow!("rooms.status: unknown {text:?}"))
    }
}

/// A room as stored.
#[derive(Clone, Debug)]
pub struct StoredRoom {
    /// The room's id.
    pub id: String,
    /// The game master's account and name.
    pub master: (i64, String),
    /// Lobby, playing or finished.
    pub status: RoomStatus,
    /// The seats wanted (lobby) or drawn (once started): 9 or 10.
    pub seats: u8,
    /// Round 5's variation, as swap61 writes it.
    pub round5: String,
    /// How long a round is open.
    pub round_ms: i64,
    /// The seed asked for at creation.
    pub seed: Option<u64>,
    /// The swap61 setup (JSON), once started.
    pub setup: Option<String>,
    /// The grid now (the contract's 9 lines), once started.
    pub grid: Option<String>,
    /// The open round, 0-5; 6 once the game is over.
    pub round: u8,
    /// When the open round resolves by itself.
    pub deadline_ms: Option<i64>,
    /// While paused, the time the open round had left.
    pub paused_left_ms: Option<i64>,
    /// When an administrator closed the room before its end.
    pub closed_ms: Option<i64>,
}

/// Who sits in a seat of a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomSeat {
    /// The seat, from 1 (in the lobby: the order of joining).
    pub seat: u8,
    /// The seat's name in the game file.
    pub name: String,
    /// The account sitting there, by id and name.
    pub account: Option<(i64, String)>,
    /// Whether the bidding bot plays the seat.
    pub bot: bool,
}

/// One seat's submission for one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSubmission {
    /// The round.
    pub round: u8,
    /// The seat.
    pub seat: u8,
    /// The text exactly as sent.
    pub text: String,
    /// The SHA-256 of the text, in hex.
    pub receipt: String,
    /// Whether the player marked it final.
    pub is_final: bool,
    /// When it was stored.
    pub submitted_ms: i64,
}

/// A resolved round in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRound {
    /// The round.
    pub round: u8,
    /// The grid after it.
    pub grid: String,
    /// The scores in seat order (none for the pregame).
    pub scores: Option<Vec<u32>>,
    /// When it was resolved.
    pub resolved_ms: i64,
}

/// One line of a room's audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    /// When it happened.
    pub at_ms: i64,
    /// Who did it: an account's name, or `server` for a deadline.
    pub actor: String,
    /// What was done (`created`, `joined`, `submitted`, `resolved`, ...).
    pub action: String,
    /// The particulars.
    pub detail: String,
}

/// A room to create.
#[derive(Clone, Debug)]
pub struct NewRoom<'a> {
    /// The id, unique.
    pub id: &'a str,
    /// The game master's account and name.
    pub master: (i64, &'a str),
    /// 9 or 10.
    pub seats: u8,
    /// Round 5's variation.
    pub round5: &'a str,
    /// How long a round is open.
    pub round_ms: i64,
    /// A seed for the draw, if the game master chose one.
    pub seed: Option<u64>,
    /// The SHA-256 of the invite.
    pub invite_hash: &'a str,
}

/// A seat of a room that starts (or is imported): its name in the game file and who plays.
#[derive(Clone, Debug)]
pub struct SeatAssignment {
    /// The seat's name in the game file.
    pub name: String,
    /// The account playing it.
    pub account_id: Option<i64>,
    /// Whether the bot plays it.
    pub bot: bool,
}

/// A submission the server writes itself (the bot's), with its receipt.
#[derive(Clone, Debug)]
pub struct BotSubmission {
    /// The seat.
    pub seat: u8,
    /// The text.
    pub text: String,
    /// Its SHA-256, in hex.
    pub receipt: String,
}

/// Who plays a seat from now on.
#[derive(Clone, Debug)]
pub enum Occupant {
    /// This account, by id and name.
    Account(i64, String),
    /// The bot, with its submission for the open round (none when no round is open).
    Bot(Option<BotSubmission>),
}

/// What the draw made of a room that starts.
#[derive(Clone, Debug)]
pub struct Started {
    /// The setup (JSON).
    pub setup: String,
    /// The starting grid.
    pub grid: String,
    /// The seats in the published order.
    pub seats: Vec<SeatAssignment>,
    /// The bot's submissions for the pregame.
    pub bots: Vec<BotSubmission>,
}

/// The open round as the rules see it when it is resolved.
#[derive(Clone, Copy, Debug)]
pub struct RoundInput<'a> {
    /// The room, at the open round.
    pub room: &'a StoredRoom,
    /// The round's submissions, by seat.
    pub submissions: &'a [StoredSubmission],
    /// The seats.
    pub seats: &'a [RoomSeat],
}

/// What the rules made of a round.
#[derive(Clone, Debug)]
pub struct RoundResult {
    /// The grid after it.
    pub grid: String,
    /// The scores, in seat order (none for the pregame).
    pub scores: Option<Vec<u32>>,
    /// The bot's submissions for the round that opens next.
    pub next_bots: Vec<BotSubmission>,
}

/// Why a room resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// Its deadline passed.
    Deadline,
    /// Every player marked their submission final.
    AllFinal,
    /// The game master (by name) resolved it.
    Master(String),
}

/// A room imported from a game file.
#[derive(Clone, Debug)]
pub struct ImportedRoom<'a> {
    /// The room to create (its round length and invite).
    pub room: NewRoom<'a>,
    /// The setup (JSON).
    pub setup: String,
    /// The grid now.
    pub grid: String,
    /// The open round (6 when over).
    pub round: u8,
    /// The seats.
    pub seats: Vec<SeatAssignment>,
    /// The resolved rounds.
    pub rounds: Vec<StoredRound>,
    /// The submissions of every resolved round and of the open one, with their round.
    pub submissions: Vec<(u8, BotSubmission)>,
}

/// Why a room operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum RoomError {
    /// No room of that id.
    #[error("no such room")]
    NoSuchRoom,
    /// The caller may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// The room is not in a state that allows it (a closed round, a full lobby, ...).
    #[error("{0}")]
    Conflict(String),
    /// The database or the rules' function failed.
    #[error("storage: {0:#}")]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for RoomError {
    fn from(e: sqlx::Error) -> RoomError {
        RoomError::Storage(e.into())
    }
}
