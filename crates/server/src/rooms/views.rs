//! How a room is seen: by the public, by a player (its own seat and submission only) and
//! by its game master (everything), over HTTP and live.

use axum::Json;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State};
use axum::response::Response;
use swapboard_swap61::{
    Board, LAST_ROUND, Seat, Setup, TILES, Tile, allowance, blocking_seats, cell_of,
    check_submission, standings,
};

use super::access::{Role, announce, board_of, role_of, room_in, seat, setup_of, stored_room};
use crate::api::{
    BorrowedView, CheckView, LineView, MyRooms, RoomView, RoundView, SeatView, StandingView,
    SubmissionView, TokensView, YouView,
};
use crate::auth::Caller;
use crate::edge::ClientAddr;
use crate::error::{ApiResult, ErrorBody};
use crate::limits::rooms::MY_ROOMS;
use crate::live::Topic;
use crate::state::AppState;
use crate::store::{RoomSeat, RoomStatus, Store, StoredRoom, StoredSubmission};

/// The cells of a seat's walls on a grid.
fn walls(board: &Board, seat: Seat) -> Vec<String> {
    (0..TILES)
        .filter(|&t| board.tile(t) == Tile::Wall(seat))
        .map(|t| cell_of(t).to_string())
        .collect()
}

/// A submission checked against the grid at the start of its round.
pub(super) fn check_view(
    round: u8,
    board: &Board,
    seat: Seat,
    text: &str,
    receipt: &str,
) -> CheckView {
    let allowed = allowance(usize::from(round));
    let checked = check_submission(text, board, seat, allowed);
    let mut lines: Vec<LineView> = checked
        .bids
        .iter()
        .map(|b| LineView {
            line: b.line,
            status: "accepted".into(),
            reason: None,
            edge: Some(b.edge.to_string()),
            tokens: Some(b.tokens),
        })
        .chain(checked.rejections.iter().map(|r| LineView {
            line: r.line,
            status: "rejected".into(),
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
pub(super) async fn room_view(
    store: &Store,
    room: StoredRoom,
    caller: Option<&Caller>,
    invite: Option<String>,
) -> ApiResult<RoomView> {
    let seats = store.room_seats(&room.id).await?;
    let role = role_of(&room, &seats, caller);
    let mut view = RoomView {
        id: room.id.clone(),
        status: room.status.as_str().into(),
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
        closed_ms: room.closed_ms,
        paused: room.paused_left_ms.is_some(),
        server_now_ms: store.now_ms(),
        invite: invite.filter(|_| role == Role::Master),
        you: None,
        submissions: None,
    };
    // A room closed by an administrator in its lobby never drew a setup.
    if room.status == RoomStatus::Lobby || room.setup.is_none() {
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

/// The live messages of a room, for anyone: `{"type": "room", "room": <public room>}` now
/// and after every change (a client re-reads its own view for its private part).
#[utoipa::path(get, path = "/api/rooms/{id}/socket", tag = "rooms",
    params(("id" = String, Path, description = "The room's id")),
    responses(
        (status = 101, description = "A WebSocket of JSON text messages, each a `LiveMessage` of type `room` (`{\"type\": \"room\", \"room\": <room>}`), the public view only, or `chat` (a table-talk message, or for a seat's thread a nudge without its content or seat)"),
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
    let viewer = caller.as_ref().map(Caller::viewer);
    let tickets = state.admit_socket(addr, viewer.as_ref().map(|v| v.account))?;
    state
        .live
        .upgrade(Topic::Room(id), None, viewer, upgrade, tickets)
}

/// A room's public view, what its live socket is sent (each client reads its own view
/// again).
pub(crate) async fn public_view(store: &Store, id: &str) -> ApiResult<RoomView> {
    room_view(store, room_in(store, id).await?, None, None).await
}

/// Tells the room's watchers of a change the caller made, and answers the caller's view.
pub(crate) async fn changed(
    state: &AppState,
    id: &str,
    caller: &Caller,
) -> ApiResult<Json<RoomView>> {
    announce(state, id).await;
    let room = stored_room(state, id).await?;
    Ok(Json(
        room_view(&state.store, room, Some(caller), None).await?,
    ))
}
