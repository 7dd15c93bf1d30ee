//! The wire types of the HTTP API that clients read back: an account, a new token, a
//! two-player game as the API shows it and its parts, the lists of games, the error body, a
//! game's record (the board after a ply, the moves) and a Swap 61 room. Written once, with
//! `Serialize` for the server and `Deserialize` for whoever reads them (`swapboard bot`,
//! `swapboard loadtest`, the server's own tests), and listed in the OpenAPI document through
//! their `ToSchema`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use swapboard_core::Player;
use swapboard_play::TimeControl;
use utoipa::ToSchema;

mod chat;
mod plies;
mod rooms;

pub use chat::{
    BlockView, BlocksView, ChatMessageView, ChatView, MutedChatsView, ReportView, ReportsView,
};

pub use plies::{MoveList, MoveView, PlyView};
pub use rooms::{
    BorrowedView, CheckView, LineView, MyRooms, RoomView, RoundView, SeatView, StandingView,
    SubmissionView, TokensView, YouView,
};

/// A seat as the API shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    /// The account's name, `ai:L`, or for an empty seat the account it is kept for (`null`:
    /// open to anyone).
    pub name: Option<String>,
    /// The seat's colour letter (`R`, `B`, ...).
    pub colour: String,
    /// Whether someone sits there (an empty seat waits for a join).
    pub seated: bool,
    /// For a rated game between two accounts, the player's rating: while it is played, as
    /// of now with no change; once it is finished, before it and the change. Absent for a
    /// game not rated, not yet started, or aborted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<ChangeView>,
    /// The days of the player's vacation bank spent in this game so that their
    /// correspondence clock did not run out; absent when none were.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub vacation_days: u32,
}

/// Whether a count is zero: a field left out of an answer then.
fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// How a finished game ended.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ResultView {
    /// The winner's name, `null` for a draw or an aborted game.
    pub winner: Option<String>,
    /// `rules`, `resigned`, `timeout`, `aborted` or `adjudicated` (an admin decided it).
    pub termination: String,
    /// How it ended, in words that follow the winner's name or "You won"/"You lost": `by
    /// connection`, `by the largest network (31 to 22)`, `on time`, `by resignation`, `by
    /// adjudication`; `aborted`.
    pub how: String,
}

/// The players' clocks as they stand when the game is read.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ClocksView {
    /// Each player's time left in ms, first player first (for correspondence, the time left
    /// for the move under way and a whole period for the other side).
    pub remaining_ms: [u64; 2],
    /// When the player to move runs out of time, in ms since the Unix epoch; `null` once
    /// the game is over.
    pub deadline_ms: Option<u64>,
    /// The server's time when it answered, in ms since the Unix epoch, so that a client can
    /// count down from the server's times whatever its own clock says.
    pub server_now_ms: u64,
}

/// A two-player game, as docs/API.md shows it (and as `swapboard loadtest` reads it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The game's name (`swaptimum`, ...).
    pub game: String,
    /// The board side.
    pub size: u32,
    /// The seats, the first player's first.
    pub players: Vec<PlayerView>,
    /// `waiting`, `playing` or `finished`; for a challenge that ended before its game
    /// began, `declined`, `cancelled` or `expired`.
    pub status: String,
    /// The number of moves in `moves`.
    pub ply: u32,
    /// The position now, as docs/CONTRACT.md writes it.
    pub position: String,
    /// The moves played, in order.
    pub moves: Vec<String>,
    /// The name of the player to move, `null` unless the game is being played.
    pub to_move: Option<String>,
    /// The seat to move, `first` or `second`; `null` unless the game is being played.
    pub seat_to_move: Option<Player>,
    /// The caller's own seat, `first` or `second`; `null` for a caller who does not sit in
    /// the game, and in what is the same for everyone (lists, the socket's messages).
    pub your_seat: Option<Player>,
    /// How the game ended, `null` until it has.
    pub result: Option<ResultView>,
    /// The time control: `null`, `{"days_per_move": D}` or `{"initial_s": S, "increment_s": I}`.
    pub clock: TimeControl,
    /// The clocks now, `null` without a time control or before the game starts.
    pub clocks: Option<ClocksView>,
    /// The secret of the game's invite link (`/games/{id}?invite=...`), shown to its
    /// creator only, while the game waits; `null` for everyone else.
    pub invite: Option<String>,
    /// The id of the rematch offered after this game, `null` until one is.
    pub rematch: Option<String>,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// The id of the tournament that made the game (`/api/tournaments/{id}`), `null` for
    /// any other game.
    #[serde(default)]
    pub tournament: Option<String>,
    /// When a waiting game stops being joinable (RFC 3339, UTC); `null` once it started or
    /// ended, and for the challenges made before they expired.
    #[serde(default)]
    pub expires_at: Option<String>,
    /// The challenged player's words when it declined; `null` otherwise.
    #[serde(default)]
    pub decline_reason: Option<String>,
    /// Whether a player giving the game up now calls it off, nobody winning ("Abort"),
    /// rather than resigns: before the second move, never in a tournament's game; false
    /// once the game is over.
    #[serde(default)]
    pub abortable: bool,
}

/// A player's rating in a rated game's view.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChangeView {
    /// The rating going into the game: while it is played, the player's rating in the
    /// game's pool now; once finished, the one the game was rated from.
    pub before: f64,
    /// The points won or lost (unrounded; pages show "+12" / "-12"), `null` while the game
    /// is played.
    pub change: Option<f64>,
    /// Whether that rating is provisional: RD, grown by the days since the player's last
    /// rated game (to now while the game is played, to its end once finished), is at least
    /// 110 ("1612?").
    pub provisional: bool,
}

/// The body of every error answer.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// What went wrong, for a program (`code`) and for a person (`message`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable code: `bad_request`, `unauthenticated`, `forbidden`, `not_your_turn`,
    /// `not_found`, `conflict`, `illegal_move`, `rate_limited`, `timeout`, `storage_full`,
    /// `unavailable` or `internal`.
    #[schema(value_type = String)]
    pub code: Cow<'static, str>,
    /// Words for a person.
    pub message: String,
    /// With `illegal_move` only: the stable code of the rule the move breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub rule: Option<Cow<'static, str>>,
}

/// An account as the API shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Account {
    /// The name, as written at sign-up (a guest's: `guest-` and eight hex digits).
    pub name: String,
    /// Whether this is a guest's account (no password; it plays only the AI until it signs
    /// up, which keeps its games).
    #[serde(default)]
    pub guest: bool,
}

/// The caller's account, as `GET /api/me` shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Me {
    /// The name, as written at sign-up (a guest's: `guest-` and eight hex digits).
    pub name: String,
    /// Whether this is a guest's account.
    #[serde(default)]
    pub guest: bool,
    /// The roles it holds beyond playing (`admin`, `moderator`): what the client offers
    /// (the moderators' page); every route checks them again.
    pub roles: Vec<String>,
}

/// A new bearer token, shown this once.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct NewToken {
    /// The secret to send as `Authorization: Bearer <token>`.
    pub token: String,
    /// When it stops working, in ms since the Unix epoch; `null`: when revoked.
    #[serde(default)]
    pub expires_ms: Option<i64>,
}

/// The lobby.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Lobby {
    /// Games waiting for anyone to join (open challenges, not expired), newest first: a
    /// challenge kept for one account is that account's alone (`GET /api/me/challenges`).
    pub open: Vec<GameView>,
    /// Games being played, the most recently moved first.
    pub playing: Vec<GameView>,
}

/// The caller's challenges that wait, newest first, at most 50 each.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChallengeList {
    /// Those kept for the caller, to join or decline.
    pub incoming: Vec<GameView>,
    /// Those the caller made, to cancel.
    pub outgoing: Vec<GameView>,
}

/// A player's games.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    /// The games, the most recently changed first.
    pub games: Vec<GameView>,
}

/// Finished games played, won, lost and drawn (an aborted or annulled game is none of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordView {
    /// Won + lost + drawn.
    pub played: u32,
    /// Won.
    pub won: u32,
    /// Lost.
    pub lost: u32,
    /// Drawn (finished with no winner).
    pub drawn: u32,
}

/// Two players' games against each other.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersusView {
    /// The player whose side the record is from.
    pub name: String,
    /// The other player.
    pub opponent: String,
    /// The record in each game they finished one of, by game name.
    pub record: BTreeMap<String, RecordView>,
    /// The record over every game.
    pub total: RecordView,
    /// Their games, the most recently changed first (at most 50).
    pub games: Vec<GameView>,
}

/// A Swap 61 room a player sat in.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RoomPlayedView {
    /// The room's id (`/api/rooms/{id}`).
    pub id: String,
    /// `lobby`, `playing` or `finished`.
    pub status: String,
    /// Its seats (9 or 10).
    pub seats: u8,
    /// The open round (0 before the first; 6 once over).
    pub round: u8,
    /// Its game master.
    pub master: String,
    /// The player's seat (1 to 10).
    pub seat: u8,
    /// When it was made, in ms since the Unix epoch.
    pub created_ms: i64,
    /// When an administrator closed it, `null` unless one did.
    pub closed_ms: Option<i64>,
    /// The player's final rank among the room's rated seats (ties share one), `null` until
    /// the room rated them (a room with fewer than two accounts seated rates nobody).
    pub rank: Option<u32>,
}

/// The rooms a player sat in.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RoomsPlayed {
    /// The rooms, the newest first (at most 50).
    pub rooms: Vec<RoomPlayedView>,
}

/// The games waiting for the caller's move.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TurnList {
    /// The games being played in which it is the caller's turn, oldest first.
    pub games: Vec<GameView>,
}

/// An entrant of a tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EntrantView {
    /// The account's name.
    pub name: String,
    /// The rating in the tournament's game: at the start once it started, else now.
    pub rating: f64,
    /// Round robin: the division, from 1 (strongest first); `null` before the start and in
    /// a Swiss.
    pub division: Option<u32>,
    /// Whether the player withdrew (the remaining games are forfeits).
    pub withdrawn: bool,
}

/// A game of a tournament's round.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PairingView {
    /// The game (`/api/games/{id}`); `null` for a game not made yet (a later round robin
    /// round) or a forfeit decided without one.
    pub id: Option<String>,
    /// Round robin: the division; `null` in a Swiss.
    pub division: Option<u32>,
    /// Plays first.
    pub first: String,
    /// Plays second.
    pub second: String,
    /// `first`, `second` or `draw` once decided, else `null`.
    pub result: Option<String>,
}

/// A round of a tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentRoundView {
    /// From 1.
    pub round: u32,
    /// Its games.
    pub games: Vec<PairingView>,
    /// A Swiss's one-point bye, when the field is odd.
    pub bye: Option<String>,
}

/// A line of a tournament's standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentStandingView {
    /// From 1 (in a round robin, within the division); equal players share a rank.
    pub rank: usize,
    /// The account's name.
    pub name: String,
    /// 1 a win or a bye, 1/2 a draw.
    pub points: f64,
    /// The points of every opponent beaten plus half those of every opponent drawn.
    pub sonneborn_berger: f64,
    /// Games won with the second player's colour.
    pub second_player_wins: u32,
    /// The rating the player started with, the last tie-break.
    pub rating: f64,
    /// Round robin: the division; `null` in a Swiss.
    pub division: Option<u32>,
}

/// What a field that says whether something is allowed is when a body leaves it out.
fn allowed() -> bool {
    true
}

/// A tournament as the list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentSummary {
    /// Its id (`/api/tournaments/{id}`).
    pub id: String,
    /// The game (`swaptimum`, ...).
    pub game: String,
    /// The board side.
    pub size: u32,
    /// `round_robin` or `swiss`.
    pub format: String,
    /// `open`, `running` or `finished`.
    pub status: String,
    /// The games' time control.
    pub clock: TimeControl,
    /// When it starts (or started), RFC 3339.
    pub starts_at: String,
    /// How many rounds: a Swiss's as asked until it starts, then as played (a small Swiss
    /// plays fewer); a round robin's once it started (0 before).
    pub total_rounds: u32,
    /// Why a running Swiss plays fewer rounds than its creator asked, in words (`null`
    /// when it plays them all, and before the start).
    pub rounds_note: Option<String>,
    /// The round being played (0 before the start).
    pub round: u32,
    /// Entrants so far (withdrawn ones included).
    pub player_count: u32,
    /// The fewest players it starts with.
    pub min_players: u32,
    /// The most it takes.
    pub max_players: u32,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Whether a player's vacation bank may carry a clock that ran out in its games.
    #[serde(default = "allowed")]
    pub vacation: bool,
    /// When it finished, RFC 3339; `null` until then.
    pub finished_at: Option<String>,
    /// Who made it; `null` for the server's monthly tournaments.
    pub creator: Option<String>,
}

/// A tournament with its entrants, rounds and standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentView {
    /// What the list shows.
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// The entrants, in the order they joined.
    #[serde(rename = "players")]
    pub entrants: Vec<EntrantView>,
    /// The rounds paired so far (a round robin's whole schedule once it started).
    pub rounds: Vec<TournamentRoundView>,
    /// Best first (a round robin's division by division).
    pub standings: Vec<TournamentStandingView>,
}

/// The tournaments, by stage.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    /// Taking entries, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Being played, newest first.
    pub running: Vec<TournamentSummary>,
    /// Over, newest first (at most 100).
    pub finished: Vec<TournamentSummary>,
}
