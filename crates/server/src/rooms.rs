//! Swap 61 rooms: a game master, 9 or 10 players, six rounds of sealed bids resolved at a
//! deadline, when every player is done, or when the game master says.
//!
//! The rules, the bot and the wording are the swap61 crate's, used directly as the command
//! line's `swapboard swap61` uses them: the play layer holds the two-player games only, and
//! a thin copy of this crate's API there would add nothing. A round is resolved by
//! [`play_round`], exactly what `swapboard swap61 round` runs, and the game file is
//! rebuilt by replaying the stored rounds through [`Swap61Game`], which checks every
//! stored result against the rules.
//!
//! Privacy is the point: a submission (its text, its check, its receipt) reaches only the
//! player of its seat and the game master, through [`room_view`] and the check answered to
//! a submission. Nothing else here (the public view, live messages, errors, logs, the
//! forum post) carries any part of one.

use std::collections::{BTreeMap, HashSet};

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use swapboard_play::names;
use swapboard_swap61::{
    Board, EdgeOutcome, LAST_ROUND, MIN_SEATS, RoundOutcome, Seat, Setup, Swap61Game, TILES, Tile,
    Variation, allowance, blocking_seats, bot, cell_of, check_submission, play_round, report,
    standings, svg,
};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::edge::{Body, ClientAddr, MaybeBody, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::live::{Change, Topic};
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::{
    AuditEntry, BotSubmission, ImportedRoom, NewRoom, Occupant, RoomError, RoomSeat, RoomStatus,
    RoundInput, RoundResult, SeatAssignment, Started, Store, StoredRoom, StoredRound,
    StoredSubmission, Trigger, now_ms,
};

/// The largest submission, in bytes: nine tokens take a few lines, comments included.
pub(crate) const SUBMISSION_LIMIT: usize = 4 * 1024;
/// The largest game file an import takes, in bytes.
pub(crate) const IMPORT_LIMIT: usize = 256 * 1024;
/// The most rooms not yet over one account may run as game master.
const MAX_OPEN_ROOMS: u32 = 20;
/// The shortest and longest round, in ms: a second (for tests and trials) to 30 days.
const ROUND_MS: std::ops::RangeInclusive<i64> = 1_000..=30 * 24 * 3_600_000;
/// The most a deadline may be extended at once, in seconds: 14 days.
const MAX_EXTEND_S: u32 = 14 * 24 * 3_600;
/// The most due rooms one pass of the scheduler resolves.
const DUE_BATCH: u32 = 100;

impl From<RoomError> for ApiError {
    fn from(e: RoomError) -> ApiError {
        match e {
            RoomError::NoSuchRoom => ApiError::NotFound("no such room".to_owned()),
            RoomError::Forbidden(why) => ApiError::Forbidden(why),
            RoomError::Conflict(why) => ApiError::Conflict(why),
            RoomError::Storage(e) => ApiError::Internal(e),
        }
    }
}

/// The body of `POST /api/rooms`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateRoom {
    /// 9 or 10 (default 10): the seats filled by bots when the room starts with
    /// `fill_with_bots`.
    seats: Option<u8>,
    /// Round 5's variation (default `theme`): `theme`, `corners`, `corners-teleport`,
    /// `network`, `seat-exchange`, or options joined by `+`.
    round5: Option<String>,
    /// How long each round is open, in hours (default 24; from 1/3600, one second, to 720).
    round_hours: Option<f64>,
    /// The seed of the draw (default: a random one), recorded in the game file.
    seed: Option<u64>,
}

/// The body of `POST /api/rooms/{id}/join`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinRoom {
    /// The invite the game master handed out.
    invite: String,
}

/// The optional body of `POST /api/rooms/{id}/start`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartRoom {
    /// Fill the empty seats, up to the room's `seats`, with the bidding bot.
    #[serde(default)]
    fill_with_bots: bool,
}

/// The body of `POST /api/rooms/{id}/deadline`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Extend {
    /// Seconds to add to the open round (1 to 1209600, two weeks).
    seconds: u32,
}

/// The body of `PUT /api/rooms/{id}/seats/{seat}`: exactly one of the two.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeatBody {
    /// The account that plays the seat from now on.
    account: Option<String>,
    /// `true`: the bidding bot plays the seat from now on.
    bot: Option<bool>,
}

/// The query naming the round a request is meant for: a request for a round that is no
/// longer open answers 409 instead of landing in the next.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundQuery {
    round: Option<u8>,
}

/// The query of an import.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportQuery {
    /// How long each round is open, in hours (default 24).
    round_hours: Option<f64>,
}

/// A seat as the room shows it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SeatView {
    /// The seat, from 1, in the published order.
    seat: u8,
    /// Who plays it: the account's name, or the seat's name in the game file (`bot:N` for
    /// a bot seat).
    name: String,
    /// Whether the bidding bot plays it.
    bot: bool,
    /// Whether nobody plays it (after an import, until the game master gives it away).
    vacant: bool,
}

/// One line of a checked submission.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LineView {
    /// The line number, from 1 (blank and `#` lines are counted and not listed).
    line: usize,
    /// `accepted` or `rejected`.
    status: &'static str,
    /// Why a rejected line was rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// An accepted line's edge, like `A2 A3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    edge: Option<String>,
    /// An accepted line's tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<u32>,
}

/// Tokens placed and the round's allowance.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TokensView {
    /// Tokens on accepted lines.
    spent: u32,
    /// The round's allowance (4 in the pregame, 9 after).
    allowance: u32,
}

/// A submission checked against the grid at the start of its round: `spec/API.md`'s
/// `<check>`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CheckView {
    /// The round it is for.
    round: u8,
    /// Every bid line, accepted or rejected.
    lines: Vec<LineView>,
    /// Tokens placed and allowed.
    tokens: TokensView,
    /// The SHA-256 of the text as stored, in hex.
    receipt: String,
}

/// A seat whose walls the caller borrows this round.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BorrowedView {
    /// The seat lent from.
    seat: u8,
    /// Who plays it.
    name: String,
    /// Its walls now.
    walls: Vec<String>,
}

/// What only the caller's seat sees.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct YouView {
    /// The caller's seat.
    seat: u8,
    /// The caller's walls now.
    walls: Vec<String>,
    /// The walls borrowed in the open round (none in the pregame).
    borrowed: Vec<BorrowedView>,
    /// The caller's submission for the open round, as sent.
    submission: Option<String>,
    /// Its check.
    check: Option<CheckView>,
    /// Whether the caller marked it final.
    #[serde(rename = "final")]
    is_final: bool,
}

/// One seat's submission, for the game master.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SubmissionView {
    /// The seat.
    seat: u8,
    /// The text as sent.
    submission: String,
    /// Its check.
    check: CheckView,
    /// Whether the player marked it final.
    #[serde(rename = "final")]
    is_final: bool,
}

/// A resolved round, as everyone sees it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RoundView {
    /// The round (0 = the pregame).
    round: u8,
    /// Its variation.
    variation: String,
    /// Its pairs.
    pairs: Vec<String>,
    /// The grid after it.
    grid: Vec<String>,
    /// Its scores in seat order (none for the pregame).
    scores: Option<Vec<u32>>,
}

/// A place in the standings.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct StandingView {
    /// The rank, shared on ties.
    rank: usize,
    /// The seat.
    seat: u8,
    /// The cumulative score.
    total: u32,
}

/// A room as the caller may see it: `spec/API.md`'s `<room>`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RoomView {
    /// The room's id.
    id: String,
    /// `lobby`, `playing` or `finished`.
    status: &'static str,
    /// The game master's name.
    master: String,
    /// The seats: wanted (lobby) or drawn.
    size: u8,
    /// Round 5's variation.
    round5: String,
    /// How long each round is open, in hours.
    round_hours: f64,
    /// The open round (0 = the pregame; 6 once over).
    round: u8,
    /// The open round's variation, `null` in the lobby and once over.
    variation: Option<String>,
    /// In the lobby, who has joined, in order; empty once started.
    joined: Vec<String>,
    /// The published seat order (empty in the lobby).
    seats: Vec<SeatView>,
    /// The grid now.
    grid: Vec<String>,
    /// The open round's pairs.
    pairs: Vec<String>,
    /// The next round's pairs, published one round ahead.
    next_pairs: Vec<String>,
    /// How many seats have submitted for the open round.
    submitted: u32,
    /// How many of them marked final.
    finals: u32,
    /// Cumulative scores, seat order.
    totals: Vec<u32>,
    /// The standings, shared ranks on ties.
    standings: Vec<StandingView>,
    /// The resolved rounds.
    rounds: Vec<RoundView>,
    /// When the open round resolves by itself (ms since 1970); `null` in the lobby, while
    /// paused and once over.
    deadline_ms: Option<i64>,
    /// Whether the game master paused the open round's clock.
    paused: bool,
    /// The server's time when it answered, to count down from.
    server_now_ms: i64,
    /// The invite: only in the game master's answer that made it (creation, a new invite).
    invite: Option<String>,
    /// The caller's own seat, for a player.
    you: Option<YouView>,
    /// Every submission of the open round, for the game master only.
    submissions: Option<Vec<SubmissionView>>,
}

/// The invite of a room, for its game master.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct InviteView {
    /// The new invite; the old one no longer works.
    invite: String,
}

/// A room's audit log.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AuditView {
    /// Every change, oldest first.
    entries: Vec<AuditLine>,
}

/// One change of a room.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AuditLine {
    /// When (ms since 1970).
    at_ms: i64,
    /// Who: an account's name, or `server`.
    actor: String,
    /// What: `created`, `joined`, `started`, `submitted`, `final`, `resolved`, `extended`,
    /// `paused`, `resumed`, `seat`, `undone`, `invite` or `imported`.
    action: String,
    /// The particulars.
    detail: String,
}

/// Who is looking at a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Public,
    Player(u8),
    Master,
}

fn role_of(room: &StoredRoom, seats: &[RoomSeat], caller: Option<&Caller>) -> Role {
    let Some(caller) = caller else {
        return Role::Public;
    };
    let me = caller.holder.account_id;
    if room.master.0 == me {
        return Role::Master;
    }
    seats
        .iter()
        .find(|s| s.account.as_ref().is_some_and(|a| a.0 == me))
        .map_or(Role::Public, |s| Role::Player(s.seat))
}

/// The room of that id, or 404.
async fn stored_room(state: &AppState, id: &str) -> ApiResult<StoredRoom> {
    room_in(&state.store, id).await
}

/// The room of that id in the store, or 404.
async fn room_in(store: &Store, id: &str) -> ApiResult<StoredRoom> {
    Ok(store.room(id).await?.ok_or(RoomError::NoSuchRoom)?)
}

/// The room, if the caller is its game master; 403 otherwise.
async fn mastered_room(state: &AppState, id: &str, caller: &Caller) -> ApiResult<StoredRoom> {
    let room = stored_room(state, id).await?;
    if room.master.0 != caller.holder.account_id {
        return Err(ApiError::Forbidden(
            "only the room's game master may do this".to_owned(),
        ));
    }
    Ok(room)
}

/// The setup of a started room.
fn setup_of(room: &StoredRoom) -> anyhow::Result<Setup> {
    let text = room
        .setup
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("room {}: no setup", room.id))?;
    Ok(serde_json::from_str(text)?)
}

/// The grid now of a started room.
fn board_of(room: &StoredRoom) -> anyhow::Result<Board> {
    let text = room
        .grid
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("room {}: no grid", room.id))?;
    Board::parse(text, usize::from(room.seats))
        .map_err(|e| anyhow::anyhow!("room {}: stored grid: {e}", room.id))
}

fn seat(number: u8) -> anyhow::Result<Seat> {
    Seat::new(usize::from(number)).ok_or_else(|| anyhow::anyhow!("seat {number} out of range"))
}

/// Round lengths are asked in hours, stored in ms.
fn round_ms(hours: Option<f64>) -> ApiResult<i64> {
    let hours = hours.unwrap_or(24.0);
    let ms = hours * 3_600_000.0;
    if !ms.is_finite() || !(ROUND_MS.start()..=ROUND_MS.end()).contains(&&(ms.round() as i64)) {
        return Err(ApiError::BadRequest(
            "round_hours: from 1/3600 (one second) to 720".to_owned(),
        ));
    }
    Ok(ms.round() as i64)
}

/// The cells of a seat's walls on a grid.
fn walls(board: &Board, seat: Seat) -> Vec<String> {
    (0..TILES)
        .filter(|&t| board.tile(t) == Tile::Wall(seat))
        .map(|t| cell_of(t).to_string())
        .collect()
}

/// A submission checked against the grid at the start of its round.
fn check_view(round: u8, board: &Board, seat: Seat, text: &str, receipt: &str) -> CheckView {
    let allowed = allowance(usize::from(round));
    let checked = check_submission(text, board, seat, allowed);
    let mut lines: Vec<LineView> = checked
        .bids
        .iter()
        .map(|b| LineView {
            line: b.line,
            status: "accepted",
            reason: None,
            edge: Some(b.edge.to_string()),
            tokens: Some(b.tokens),
        })
        .chain(checked.rejections.iter().map(|r| LineView {
            line: r.line,
            status: "rejected",
            reason: Some(r.reason.to_string()),
            edge: None,
            tokens: None,
        }))
        .collect();
    lines.sort_by_key(|l| l.line);
    CheckView {
        round,
        lines,
        tokens: TokensView {
            spent: checked.spent(),
            allowance: allowed,
        },
        receipt: receipt.to_owned(),
    }
}

/// The seat's occupant's name: its account's, or its name in the game file.
fn occupant(seat: &RoomSeat) -> String {
    seat.account
        .as_ref()
        .map_or_else(|| seat.name.clone(), |(_, name)| name.clone())
}

fn pairs_text(setup: &Setup, round: usize) -> Vec<String> {
    setup
        .rounds
        .get(round)
        .filter(|_| round > 0)
        .map(|spec| spec.pairs.iter().map(ToString::to_string).collect())
        .unwrap_or_default()
}

/// The room as `caller` may see it; `invite` is shown only to the game master.
async fn room_view(
    store: &Store,
    room: StoredRoom,
    caller: Option<&Caller>,
    invite: Option<String>,
) -> ApiResult<RoomView> {
    let seats = store.room_seats(&room.id).await?;
    let role = role_of(&room, &seats, caller);
    let mut view = RoomView {
        id: room.id.clone(),
        status: room.status.as_str(),
        master: room.master.1.clone(),
        size: room.seats,
        round5: room.round5.clone(),
        round_hours: room.round_ms as f64 / 3_600_000.0,
        round: room.round,
        variation: None,
        joined: Vec::new(),
        seats: Vec::new(),
        grid: Vec::new(),
        pairs: Vec::new(),
        next_pairs: Vec::new(),
        submitted: 0,
        finals: 0,
        totals: Vec::new(),
        standings: Vec::new(),
        rounds: Vec::new(),
        deadline_ms: room.deadline_ms,
        paused: room.paused_left_ms.is_some(),
        server_now_ms: now_ms(),
        invite: invite.filter(|_| role == Role::Master),
        you: None,
        submissions: None,
    };
    if room.status == RoomStatus::Lobby {
        view.joined = seats.iter().map(occupant).collect();
        return Ok(view);
    }
    let setup = setup_of(&room)?;
    let board = board_of(&room)?;
    let round = usize::from(room.round);
    let open = room.status == RoomStatus::Playing && round <= LAST_ROUND;
    view.seats = seats
        .iter()
        .map(|s| SeatView {
            seat: s.seat,
            name: occupant(s),
            bot: s.bot,
            vacant: s.account.is_none() && !s.bot,
        })
        .collect();
    view.grid = board.rows();
    let stored_rounds = store.room_rounds(&room.id).await?;
    let mut totals = vec![0u32; setup.seats()];
    for r in &stored_rounds {
        for (total, score) in totals.iter_mut().zip(r.scores.iter().flatten()) {
            *total += score;
        }
        let spec = &setup.rounds[usize::from(r.round)];
        view.rounds.push(RoundView {
            round: r.round,
            variation: spec.variation.to_string(),
            pairs: pairs_text(&setup, usize::from(r.round)),
            grid: r.grid.lines().map(str::to_owned).collect(),
            scores: r.scores.clone(),
        });
    }
    view.standings = standings(&totals)
        .into_iter()
        .map(|(rank, seat, total)| StandingView {
            rank,
            seat: u8::from(seat),
            total,
        })
        .collect();
    view.totals = totals;
    if !open {
        return Ok(view);
    }
    view.variation = Some(setup.rounds[round].variation.to_string());
    view.pairs = pairs_text(&setup, round);
    view.next_pairs = pairs_text(&setup, round + 1);
    let submissions = store.room_submissions(&room.id, Some(room.round)).await?;
    view.submitted = u32::try_from(submissions.len()).unwrap_or(u32::MAX);
    view.finals = u32::try_from(submissions.iter().filter(|s| s.is_final).count()).unwrap_or(0);
    let checked = |s: &StoredSubmission| -> anyhow::Result<CheckView> {
        Ok(check_view(
            room.round,
            &board,
            seat(s.seat)?,
            &s.text,
            &s.receipt,
        ))
    };
    match role {
        Role::Public => {}
        Role::Master => {
            let mut all = Vec::with_capacity(submissions.len());
            for s in &submissions {
                all.push(SubmissionView {
                    seat: s.seat,
                    submission: s.text.clone(),
                    check: checked(s)?,
                    is_final: s.is_final,
                });
            }
            view.submissions = Some(all);
        }
        Role::Player(number) => {
            let me = seat(number)?;
            let borrowed = blocking_seats(me, setup.seats(), round)
                .into_iter()
                .skip(1)
                .map(|lender| BorrowedView {
                    seat: u8::from(lender),
                    name: seats
                        .iter()
                        .find(|s| s.seat == u8::from(lender))
                        .map_or_else(|| setup.name(lender).to_owned(), occupant),
                    walls: walls(&board, lender),
                })
                .collect();
            let mine = submissions.iter().find(|s| s.seat == number);
            view.you = Some(YouView {
                seat: number,
                walls: walls(&board, me),
                borrowed,
                submission: mine.map(|s| s.text.clone()),
                check: mine.map(checked).transpose()?,
                is_final: mine.is_some_and(|s| s.is_final),
            });
        }
    }
    Ok(view)
}

/// The bot's submissions for `round` on `board`, for the bot seats given.
fn bot_submissions(
    setup: &Setup,
    board: &Board,
    round: usize,
    bot_seats: impl Iterator<Item = u8>,
) -> Vec<BotSubmission> {
    if round > LAST_ROUND {
        return Vec::new();
    }
    bot_seats
        .filter_map(|number| {
            let seat = Seat::new(usize::from(number))?;
            let text = bot::submission_text(&bot::bids(setup, board, round, seat));
            Some(BotSubmission {
                seat: number,
                receipt: secret_hash(&text),
                text,
            })
        })
        .collect()
}

/// The rules' resolution of a room's open round: the swap61 crate's [`play_round`] on the
/// grid now with the round's submissions (a seat that sent none bids nothing), then the
/// bot's bids for the round that opens.
fn resolve_rules(input: RoundInput<'_>) -> anyhow::Result<RoundResult> {
    let room = input.room;
    let setup = setup_of(room)?;
    let board = board_of(room)?;
    let round = usize::from(room.round);
    let texts = input
        .submissions
        .iter()
        .map(|s| Ok((seat(s.seat)?, s.text.as_str())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let outcome = play_round(&board, round, &setup.rounds[round], &texts);
    let next = &outcome.resolution.board;
    let bots = input.seats.iter().filter(|s| s.bot).map(|s| s.seat);
    Ok(RoundResult {
        grid: next.to_string(),
        scores: outcome.scores,
        next_bots: bot_submissions(&setup, next, round + 1, bots),
    })
}

/// Tells every watcher of the room, on every instance, that it changed.
async fn announce(state: &AppState, id: &str) {
    state
        .live
        .announce(&Topic::Room(id.to_owned()), Change::State)
        .await;
}

/// A room's public view, what its live socket is sent (each client reads its own view
/// again).
pub(crate) async fn public_view(store: &Store, id: &str) -> ApiResult<RoomView> {
    room_view(store, room_in(store, id).await?, None, None).await
}

/// The scheduler's pass over the rooms whose deadline passed.
pub(crate) async fn resolve_due(state: &AppState) -> anyhow::Result<usize> {
    let resolved = state
        .store
        .resolve_due_rooms(now_ms(), DUE_BATCH, resolve_rules)
        .await?;
    for id in &resolved {
        announce(state, id).await;
    }
    Ok(resolved.len())
}

/// Tells the room's watchers of a change the caller made, and answers the caller's view.
async fn changed(state: &AppState, id: &str, caller: &Caller) -> ApiResult<Json<RoomView>> {
    announce(state, id).await;
    let room = stored_room(state, id).await?;
    Ok(Json(
        room_view(&state.store, room, Some(caller), None).await?,
    ))
}

/// Creates a room; the caller is its game master.
#[utoipa::path(post, path = "/api/rooms", tag = "rooms", request_body = CreateRoom,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The room, in its lobby, with its `invite` (shown this once)", body = RoomView),
        (status = 400, description = "A missing or malformed field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 409, description = "The caller runs 20 rooms already", body = ErrorBody),
    ))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CreateRoom>,
) -> ApiResult<(StatusCode, Json<RoomView>)> {
    let seats = body.seats.unwrap_or(10);
    if !(9..=10).contains(&seats) {
        return Err(ApiError::BadRequest("seats: 9 or 10".to_owned()));
    }
    let round5: Variation = body
        .round5
        .as_deref()
        .unwrap_or("theme")
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("round5: {e}")))?;
    let round_ms = round_ms(body.round_hours)?;
    let master = caller.holder.account_id;
    let running = state.store.count_open_rooms(master).await?;
    if running >= MAX_OPEN_ROOMS {
        return Err(ApiError::Conflict(format!(
            "you run {running} rooms, the most one account may: finish some first"
        )));
    }
    let secret = random_secret();
    let invite = random_secret();
    let id = &secret[..16];
    let round5 = round5.to_string();
    let invite_hash = secret_hash(&invite);
    let new = NewRoom {
        id,
        master: (master, &caller.holder.name),
        seats,
        round5: &round5,
        round_ms,
        seed: body.seed,
        invite_hash: &invite_hash,
    };
    state.store.create_room(&new).await?;
    let room = stored_room(&state, id).await?;
    let view = room_view(&state.store, room, Some(&caller), Some(invite)).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// Imports a `swapboard-swap61/1` game file as a new room being played; the caller is its
/// game master.
#[utoipa::path(post, path = "/api/rooms/import", tag = "rooms",
    request_body(content = Object, description = "A `swapboard-swap61/1` game file (docs/SWAP61.md), at most 256 KiB"),
    params(("round_hours" = Option<f64>, Query, description = "How long each round is open, in hours (default 24)")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The room, at the file's round, with its `invite`; seats named like an account are that account's, `bot:N` seats the bot's, the others vacant", body = RoomView),
        (status = 400, description = "Not a game file, or an inconsistent one", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 409, description = "The caller runs 20 rooms already", body = ErrorBody),
    ))]
pub(crate) async fn import(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<ImportQuery>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<RoomView>)> {
    let bytes = body.map_err(|_| {
        ApiError::BadRequest(format!(
            "body: cannot be read whole (at most {IMPORT_LIMIT} bytes)"
        ))
    })?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::BadRequest("body: the game file is not UTF-8".to_owned()))?;
    let game = Swap61Game::from_json(&names::normalized(text))
        .map_err(|e| ApiError::BadRequest(format!("game file: {e}")))?;
    let round_ms = round_ms(query.round_hours)?;
    let master = caller.holder.account_id;
    let running = state.store.count_open_rooms(master).await?;
    if running >= MAX_OPEN_ROOMS {
        return Err(ApiError::Conflict(format!(
            "you run {running} rooms, the most one account may: finish some first"
        )));
    }
    let setup = game.setup();
    let mut seats = Vec::with_capacity(setup.seats());
    let mut taken = HashSet::new();
    for name in &setup.players {
        names::check_shown_name(name)
            .map_err(|e| ApiError::BadRequest(format!("game file: {e}")))?;
        let login = state.store.login_of(name).await?;
        if login.is_none()
            && let Some(other) = state.store.account_like(&names::skeleton(name)).await?
        {
            return Err(ApiError::BadRequest(format!(
                "game file: player name {name:?} looks like the account {other:?} without being it: use the account's own name or another"
            )));
        }
        let account = match login {
            Some(login) if login.account_id != master && taken.insert(login.account_id) => {
                Some(login.account_id)
            }
            _ => None,
        };
        seats.push(SeatAssignment {
            name: name.clone(),
            account_id: account,
            bot: account.is_none() && name.starts_with("bot:"),
        });
    }
    let resolved_ms = now_ms();
    let rounds = game
        .outcomes()
        .iter()
        .map(|o| StoredRound {
            round: u8::try_from(o.round).unwrap_or(u8::MAX),
            grid: o.resolution.board.to_string(),
            scores: o.scores.clone(),
            resolved_ms,
        })
        .collect();
    let submitted = |round: usize, texts: &BTreeMap<Seat, String>| {
        texts
            .iter()
            .map(|(seat, text)| {
                (
                    round,
                    BotSubmission {
                        seat: u8::from(*seat),
                        receipt: secret_hash(text),
                        text: text.clone(),
                    },
                )
            })
            .collect::<Vec<_>>()
    };
    let round = game.round();
    let mut submissions: Vec<(usize, BotSubmission)> = game
        .resolved_submissions()
        .iter()
        .enumerate()
        .flat_map(|(round, texts)| submitted(round, texts))
        .collect();
    let open: BTreeMap<Seat, String> = game
        .submitted()
        .filter_map(|s| Some((s, game.submission(s)?.to_owned())))
        .collect();
    submissions.extend(submitted(round, &open));
    let silent_bots = (1u8..)
        .zip(&seats)
        .filter(|(number, s)| s.bot && !open.keys().any(|o| u8::from(*o) == *number))
        .map(|(number, _)| number);
    submissions.extend(
        bot_submissions(setup, game.board(), round, silent_bots)
            .into_iter()
            .map(|b| (round, b)),
    );
    let secret = random_secret();
    let invite = random_secret();
    let id = &secret[..16];
    let round5 = setup.rounds[LAST_ROUND].variation.to_string();
    let invite_hash = secret_hash(&invite);
    let imported = ImportedRoom {
        room: NewRoom {
            id,
            master: (master, &caller.holder.name),
            seats: u8::try_from(setup.seats()).unwrap_or(0),
            round5: &round5,
            round_ms,
            seed: setup.seed,
            invite_hash: &invite_hash,
        },
        setup: serde_json::to_string(setup).map_err(anyhow::Error::from)?,
        grid: game.board().to_string(),
        round: u8::try_from(round).unwrap_or(u8::MAX),
        seats,
        rounds,
        submissions: submissions
            .into_iter()
            .map(|(r, s)| (u8::try_from(r).unwrap_or(u8::MAX), s))
            .collect(),
    };
    state.store.import_room(&imported).await?;
    let room = stored_room(&state, id).await?;
    let view = room_view(&state.store, room, Some(&caller), Some(invite)).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A room, as the caller may see it: the public view, a player's own seat, or everything
/// for the game master.
#[utoipa::path(get, path = "/api/rooms/{id}", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The room as the caller may see it", body = RoomView),
        (status = 401, description = "Bad credentials (none at all is the public)", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path(id): Path<String>,
) -> ApiResult<Json<RoomView>> {
    let room = stored_room(&state, &id).await?;
    Ok(Json(
        room_view(&state.store, room, caller.as_ref(), None).await?,
    ))
}

/// The most rooms `GET /api/me/rooms` lists.
const MY_ROOMS: u32 = 50;

/// The caller's rooms.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MyRooms {
    /// The rooms the caller runs as game master or holds a seat in, newest first (at most
    /// 50), each as the caller may see it.
    rooms: Vec<RoomView>,
}

/// The caller's rooms: those it runs as game master and those it sits in, newest first.
#[utoipa::path(get, path = "/api/me/rooms", tag = "rooms",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller's rooms, newest first", body = MyRooms),
        (status = 401, description = "No credentials, or unknown ones", body = ErrorBody),
    ))]
pub(crate) async fn my_rooms(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<MyRooms>> {
    let stored = state
        .store
        .rooms_of(caller.holder.account_id, MY_ROOMS)
        .await?;
    let mut rooms = Vec::with_capacity(stored.len());
    for room in stored {
        rooms.push(room_view(&state.store, room, Some(&caller), None).await?);
    }
    Ok(Json(MyRooms { rooms }))
}

/// Takes a seat in a room's lobby with its invite.
#[utoipa::path(post, path = "/api/rooms/{id}/join", tag = "rooms", request_body = JoinRoom,
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller has joined", body = RoomView),
        (status = 400, description = "A missing or malformed field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A wrong invite", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "The room is full or started, the caller sits there already or is its game master", body = ErrorBody),
    ))]
pub(crate) async fn join(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<JoinRoom>,
) -> ApiResult<Json<RoomView>> {
    let account = (caller.holder.account_id, caller.holder.name.as_str());
    state
        .store
        .join_room(&id, account, &secret_hash(&body.invite))
        .await?;
    changed(&state, &id, &caller).await
}

/// Draws the seat order, grid and pairs as `swapboard swap61 new` does, and opens the
/// pregame.
fn draw(room: &StoredRoom, lobby: &[RoomSeat], fill: bool) -> Result<Started, RoomError> {
    let joined = lobby.len();
    let players = if fill {
        usize::from(room.seats)
    } else if joined >= MIN_SEATS {
        joined
    } else {
        return Err(RoomError::Conflict(format!(
            "{joined} players joined: Swap 61 needs 9 or 10 (or start with \"fill_with_bots\": true)"
        )));
    };
    let mut names: Vec<String> = lobby.iter().map(|s| s.name.clone()).collect();
    names.extend((1..=players.saturating_sub(joined)).map(|n| format!("bot:{n}")));
    let seed = match room.seed {
        Some(seed) => seed,
        None => u64::from_str_radix(&random_secret()[..16], 16).map_err(anyhow::Error::from)?,
    };
    let round5: Variation = room
        .round5
        .parse()
        .map_err(|e: String| anyhow::anyhow!("room {}: round5: {e}", room.id))?;
    let mut setup = Setup::generate(&names, seed).map_err(anyhow::Error::from)?;
    setup.set_round5(round5);
    setup.check().map_err(anyhow::Error::from)?;
    let seats: Vec<SeatAssignment> = setup
        .players
        .iter()
        .map(|name| {
            let account = lobby
                .iter()
                .find(|s| &s.name == name)
                .and_then(|s| s.account.as_ref().map(|a| a.0));
            SeatAssignment {
                name: name.clone(),
                account_id: account,
                bot: account.is_none(),
            }
        })
        .collect();
    let bots = (1u8..).zip(&seats).filter(|(_, s)| s.bot).map(|(n, _)| n);
    let bots = bot_submissions(&setup, &setup.start, 0, bots);
    Ok(Started {
        setup: serde_json::to_string(&setup).map_err(anyhow::Error::from)?,
        grid: setup.start.to_string(),
        seats,
        bots,
    })
}

/// Starts the room (game master): 9 or 10 players joined, or the rest filled with bots.
#[utoipa::path(post, path = "/api/rooms/{id}/start", tag = "rooms",
    request_body(content = Option<StartRoom>, description = "Optional: `{\"fill_with_bots\": true}`"),
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The seat order, grid and pairs are drawn; the pregame is open", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "Started already, or too few players without bots", body = ErrorBody),
    ))]
pub(crate) async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    MaybeBody(body): MaybeBody<StartRoom>,
) -> ApiResult<Json<RoomView>> {
    mastered_room(&state, &id, &caller).await?;
    let fill = body.unwrap_or_default().fill_with_bots;
    state
        .store
        .start_room(&id, &caller.holder.name, |room, lobby| {
            draw(room, lobby, fill)
        })
        .await?;
    changed(&state, &id, &caller).await
}

/// The caller's submission for the open round, as text: it replaces an earlier one (and
/// its final mark) until the round is resolved.
#[utoipa::path(put, path = "/api/rooms/{id}/submission", tag = "rooms",
    request_body(content = String, content_type = "text/plain", description = "`CELL CELL TOKENS` lines, at most 4096 bytes"),
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another open round answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Stored: each line's check and the receipt", body = CheckView),
        (status = 400, description = "Too long, not UTF-8, or a malformed `round`", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller plays no seat here", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, or not the round meant (it closed)", body = ErrorBody),
    ))]
pub(crate) async fn submit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<CheckView>> {
    let too_long = || ApiError::BadRequest(format!("submission: at most {SUBMISSION_LIMIT} bytes"));
    let bytes = body.map_err(|_| too_long())?;
    if bytes.len() > SUBMISSION_LIMIT {
        return Err(too_long());
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::BadRequest("submission: not UTF-8 text".to_owned()))?;
    let receipt = secret_hash(text);
    let account = (caller.holder.account_id, caller.holder.name.as_str());
    let (round, seat_number, grid) = state
        .store
        .submit_to_room(&id, account, query.round, text, &receipt)
        .await?;
    let room = stored_room(&state, &id).await?;
    let board = Board::parse(&grid, usize::from(room.seats))
        .map_err(|e| anyhow::anyhow!("room {id}: stored grid: {e}"))?;
    let check = check_view(round, &board, seat(seat_number)?, text, &receipt);
    announce(&state, &id).await;
    Ok(Json(check))
}

/// Marks the caller's submission for the open round final (an empty one if none was
/// sent). Once every seat a person plays is final, the round resolves at once.
#[utoipa::path(post, path = "/api/rooms/{id}/final", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another open round answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Marked (and the round resolved if it was the last mark)", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller plays no seat here", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, or not the round meant", body = ErrorBody),
    ))]
pub(crate) async fn mark_final(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
) -> ApiResult<Json<RoomView>> {
    let account = (caller.holder.account_id, caller.holder.name.as_str());
    let round = state
        .store
        .mark_final(&id, account, query.round, &secret_hash(""))
        .await?;
    // Every final marker tries; the resolution's lock makes the last one's try see all the
    // marks, and the round resolve once.
    match state
        .store
        .resolve_room(&id, Some(round), Trigger::AllFinal, resolve_rules)
        .await
    {
        Ok(_) | Err(RoomError::Conflict(_)) => {}
        Err(e) => return Err(e.into()),
    }
    changed(&state, &id, &caller).await
}

/// Resolves the open round now (game master).
#[utoipa::path(post, path = "/api/rooms/{id}/resolve", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = Option<u8>, Query, description = "The round meant: another open round answers 409"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Resolved and scored; the next round is open", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, or not the round meant", body = ErrorBody),
    ))]
pub(crate) async fn resolve(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<RoundQuery>,
) -> ApiResult<Json<RoomView>> {
    mastered_room(&state, &id, &caller).await?;
    let trigger = Trigger::Master(caller.holder.name.clone());
    state
        .store
        .resolve_room(&id, query.round, trigger, resolve_rules)
        .await?;
    changed(&state, &id, &caller).await
}

/// Gives the open round more time (game master).
#[utoipa::path(post, path = "/api/rooms/{id}/deadline", tag = "rooms", request_body = Extend,
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The deadline moved (while paused: the time left grew)", body = RoomView),
        (status = 400, description = "`seconds` out of range", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open", body = ErrorBody),
    ))]
pub(crate) async fn extend(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<Extend>,
) -> ApiResult<Json<RoomView>> {
    if !(1..=MAX_EXTEND_S).contains(&body.seconds) {
        return Err(ApiError::BadRequest(format!(
            "seconds: 1 to {MAX_EXTEND_S}"
        )));
    }
    mastered_room(&state, &id, &caller).await?;
    let by = i64::from(body.seconds) * 1000;
    state
        .store
        .extend_room(&id, &caller.holder.name, by)
        .await?;
    changed(&state, &id, &caller).await
}

/// Stops the open round's clock (game master); submissions are still taken.
#[utoipa::path(post, path = "/api/rooms/{id}/pause", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Paused: no deadline until resumed", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, or paused already", body = ErrorBody),
    ))]
pub(crate) async fn pause(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RoomView>> {
    set_paused(&state, &id, &caller, true).await
}

/// Pauses or resumes a room (game master).
async fn set_paused(
    state: &AppState,
    id: &str,
    caller: &Caller,
    pause: bool,
) -> ApiResult<Json<RoomView>> {
    mastered_room(state, id, caller).await?;
    state
        .store
        .pause_room(id, &caller.holder.name, pause)
        .await?;
    changed(state, id, caller).await
}

/// Starts the open round's clock again with the time it had left (game master).
#[utoipa::path(post, path = "/api/rooms/{id}/resume", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Running again", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is open, or not paused", body = ErrorBody),
    ))]
pub(crate) async fn resume(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RoomView>> {
    set_paused(&state, &id, &caller, false).await
}

/// Gives a seat to another account, or to the bot (game master). The seat keeps its name
/// in the game file and its submission; the new player sees it.
#[utoipa::path(put, path = "/api/rooms/{id}/seats/{seat}", tag = "rooms", request_body = SeatBody,
    params(
        ("id" = String, Path, description = "The room's id"),
        ("seat" = u8, Path, description = "The seat, 1 to 10"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The seat changed hands (the bot submits at once)", body = RoomView),
        (status = 400, description = "Neither or both of `account` and `bot`, or a bad seat", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room or account", body = ErrorBody),
        (status = 409, description = "Still in the lobby, no such seat, or the account plays another seat", body = ErrorBody),
    ))]
pub(crate) async fn replace_seat(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, number)): Path<(String, u8)>,
    Body(body): Body<SeatBody>,
) -> ApiResult<Json<RoomView>> {
    let room = mastered_room(&state, &id, &caller).await?;
    if Seat::new(usize::from(number)).is_none() {
        return Err(ApiError::BadRequest("seat: 1 to 10".to_owned()));
    }
    let occupant = match (body.account, body.bot) {
        (Some(name), None | Some(false)) => {
            let login = state
                .store
                .login_of(&name)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("no account named {name:?}")))?;
            Occupant::Account(login.account_id, login.name)
        }
        (None, Some(true)) => {
            let submission = if room.status == RoomStatus::Playing {
                let setup = setup_of(&room)?;
                let board = board_of(&room)?;
                let round = usize::from(room.round);
                bot_submissions(&setup, &board, round, std::iter::once(number)).pop()
            } else {
                None
            };
            Occupant::Bot(submission)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "body: give either \"account\": NAME or \"bot\": true".to_owned(),
            ));
        }
    };
    state
        .store
        .replace_seat(&id, &caller.holder.name, number, occupant)
        .await?;
    changed(&state, &id, &caller).await
}

/// Takes back the last resolution, as `swapboard swap61 undo` does (game master): the
/// round opens again with the submissions it was resolved with.
#[utoipa::path(post, path = "/api/rooms/{id}/undo", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The last resolved round is open again, with a whole round's time", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "No round is resolved", body = ErrorBody),
    ))]
pub(crate) async fn undo(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RoomView>> {
    let room = mastered_room(&state, &id, &caller).await?;
    if room.status == RoomStatus::Lobby {
        return Err(ApiError::Conflict(
            "the room has not started: nothing to undo".to_owned(),
        ));
    }
    let start = setup_of(&room)?.start.to_string();
    state
        .store
        .undo_resolution(&id, &caller.holder.name, &start)
        .await?;
    changed(&state, &id, &caller).await
}

/// A new invite for the room (game master); the old one stops working.
#[utoipa::path(post, path = "/api/rooms/{id}/invite", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The new invite", body = InviteView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
    ))]
pub(crate) async fn new_invite(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<InviteView>> {
    mastered_room(&state, &id, &caller).await?;
    let invite = random_secret();
    state
        .store
        .new_invite(&id, &caller.holder.name, &secret_hash(&invite))
        .await?;
    Ok(Json(InviteView { invite }))
}

/// The room's audit log (game master).
#[utoipa::path(get, path = "/api/rooms/{id}/audit", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Every change, oldest first", body = AuditView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
    ))]
pub(crate) async fn audit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<AuditView>> {
    mastered_room(&state, &id, &caller).await?;
    let entries = state
        .store
        .room_audit(&id)
        .await?
        .into_iter()
        .map(|e: AuditEntry| AuditLine {
            at_ms: e.at_ms,
            actor: e.actor,
            action: e.action,
            detail: e.detail,
        })
        .collect();
    Ok(Json(AuditView { entries }))
}

/// The game replayed from its stored rounds, through round `upto` (all, and the open
/// round's submissions, when `None`). Every stored result is checked against the rules.
async fn replayed(state: &AppState, room: &StoredRoom, upto: Option<u8>) -> ApiResult<Swap61Game> {
    let setup = setup_of(room)?;
    let names = setup.players.clone();
    let rounds = state.store.room_rounds(&room.id).await?;
    let submissions = state.store.room_submissions(&room.id, None).await?;
    let internal = |what: String| ApiError::Internal(anyhow::anyhow!("room {}: {what}", room.id));
    let mut game = Swap61Game::new(setup, None).map_err(|e| internal(e.to_string()))?;
    let submit = |game: &mut Swap61Game, round: u8| -> ApiResult<()> {
        for s in submissions.iter().filter(|s| s.round == round) {
            let name = names
                .get(usize::from(s.seat).wrapping_sub(1))
                .ok_or_else(|| internal(format!("seat {}", s.seat)))?;
            let at = u64::try_from(s.submitted_ms / 1000).ok();
            game.submit(name, &s.text, at)
                .map_err(|e| internal(e.to_string()))?;
        }
        Ok(())
    };
    for r in rounds.iter().filter(|r| upto.is_none_or(|u| r.round <= u)) {
        submit(&mut game, r.round)?;
        let outcome = game
            .resolve(u64::try_from(r.resolved_ms / 1000).ok())
            .map_err(|e| internal(e.to_string()))?;
        if outcome.resolution.board.to_string() != r.grid || outcome.scores != r.scores {
            return Err(internal(format!(
                "round {} as stored is not what the rules give",
                r.round
            )));
        }
    }
    if upto.is_none() && room.status == RoomStatus::Playing {
        submit(&mut game, room.round)?;
    }
    Ok(game)
}

/// The room's `swapboard-swap61/1` game file, with every submission (game master): it
/// loads in `swapboard swap61 show` and the other commands.
#[utoipa::path(get, path = "/api/rooms/{id}/file", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game file (JSON)", body = Object),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master: the file holds every submission", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "The room is still in its lobby", body = ErrorBody),
    ))]
pub(crate) async fn file(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let room = mastered_room(&state, &id, &caller).await?;
    if room.status == RoomStatus::Lobby {
        return Err(ApiError::Conflict(
            "the room has not started: there is no game file yet".to_owned(),
        ));
    }
    let game = replayed(&state, &room, None).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], game.to_json()).into_response())
}

/// The room replayed through a resolved round: the game then, and that round's outcome.
async fn resolved_round(
    state: &AppState,
    id: &str,
    round: u8,
) -> ApiResult<(Swap61Game, RoundOutcome)> {
    let room = stored_room(state, id).await?;
    let resolved = room.status != RoomStatus::Lobby && round < room.round;
    if !resolved {
        return Err(ApiError::NotFound(format!(
            "round {round} of this room is not resolved"
        )));
    }
    let game = replayed(state, &room, Some(round)).await?;
    let outcome = game
        .outcomes()
        .last()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("room {id}: round {round} not replayed"))?;
    Ok((game, outcome))
}

/// The forum post of a resolved round, for anyone: the grid after it, its scores, the
/// standings and the next round; nothing of any submission.
#[utoipa::path(get, path = "/api/rooms/{id}/rounds/{round}/post", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = u8, Path, description = "A resolved round, 0 (the pregame) to 5"),
    ),
    responses(
        (status = 200, description = "The post, as text", body = String, content_type = "text/plain"),
        (status = 404, description = "No such room, or the round is not resolved", body = ErrorBody),
    ))]
pub(crate) async fn post(
    State(state): State<AppState>,
    Path((id, round)): Path<(String, u8)>,
) -> ApiResult<Response> {
    let (game, outcome) = resolved_round(&state, &id, round).await?;
    let text = report::forum_post(&game, &outcome);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The picture of the forum post, for anyone: the grid after a resolved round, in the
/// style of `swapboard swap61 show --svg`, with the swaps the grids show. A swap of two
/// like tiles (two wild walls, two walls of one seat) changes nothing visible and is not
/// drawn: drawing it would tell of a bid.
#[utoipa::path(get, path = "/api/rooms/{id}/rounds/{round}/svg", tag = "rooms",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("round" = u8, Path, description = "A resolved round, 0 (the pregame) to 5"),
    ),
    responses(
        (status = 200, description = "The picture", body = String, content_type = "image/svg+xml"),
        (status = 404, description = "No such room, or the round is not resolved", body = ErrorBody),
    ))]
pub(crate) async fn picture(
    State(state): State<AppState>,
    Path((id, round)): Path<(String, u8)>,
) -> ApiResult<Response> {
    let (game, outcome) = resolved_round(&state, &id, round).await?;
    let before = match usize::from(round).checked_sub(1) {
        Some(previous) => game.outcomes()[previous].resolution.board,
        None => game.setup().start,
    };
    let swaps = outcome
        .resolution
        .edges
        .iter()
        .filter(|e| e.outcome == EdgeOutcome::Swapped)
        .map(|e| e.edge)
        .filter(|edge| {
            let (a, b) = edge.tiles();
            before.tile(a) != before.tile(b)
        })
        .collect();
    let picture = svg::svg(&svg::Picture {
        board: game.board(),
        names: &game.setup().players,
        title: format!(
            "Swap 61 by 'pseudonam': the grid after {}",
            report::round_title(&game, usize::from(round))
        ),
        swaps,
        focus: None,
    });
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        picture,
    )
        .into_response())
}

/// The live messages of a room, for anyone: `{"type": "room", "room": <public room>}` now
/// and after every change (a client re-reads its own view for its private part).
#[utoipa::path(get, path = "/api/rooms/{id}/socket", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    responses(
        (status = 101, description = "A WebSocket of JSON text messages, each a `LiveMessage` of type `room` (`{\"type\": \"room\", \"room\": <room>}`), the public view only"),
        (status = 400, description = "Not a WebSocket request", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many live sockets open from this address or for this account", body = ErrorBody),
    ))]
pub(crate) async fn socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: ClientAddr,
    caller: Option<Caller>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    stored_room(&state, &id).await?;
    let tickets = state.admit_socket(addr, caller.map(|c| c.holder.account_id))?;
    state.live.upgrade(Topic::Room(id), None, upgrade, tickets)
}
