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
//! player of its seat and the game master, through [`views::room_view`] and the check answered to
//! a submission. Nothing else here (the public view, live messages, errors, logs, the
//! forum post) carries any part of one.
mod lobby;
mod master;
mod records;
mod rounds;
mod seats;
mod views;

use axum::Json;
use axum::extract::DefaultBodyLimit;
use serde::Deserialize;
use swapboard_swap61::{Board, Seat, Setup};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::live::{Change, Topic};
use crate::state::AppState;
use crate::store::{RoomError, RoomSeat, Store, StoredRoom};

pub(crate) use rounds::resolve_due;
pub(crate) use views::RoomView;
pub(crate) use views::public_view;
use views::room_view;

/// The largest game file an import takes, in bytes.
pub(crate) const IMPORT_LIMIT: usize = 256 * 1024;

/// The rooms' routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    // A game file is larger than any other body the server takes.
    let (schemas, paths, import) = routes!(lobby::import);
    let import = import.layer(DefaultBodyLimit::max(IMPORT_LIMIT));
    OpenApiRouter::new()
        .routes(routes!(lobby::create))
        .routes((schemas, paths, import))
        .routes(routes!(views::show))
        .routes(routes!(views::my_rooms))
        .routes(routes!(views::socket))
        .routes(routes!(lobby::join))
        .routes(routes!(lobby::start))
        .routes(routes!(seats::submit))
        .routes(routes!(seats::mark_final))
        .routes(routes!(master::resolve))
        .routes(routes!(master::extend))
        .routes(routes!(master::pause))
        .routes(routes!(master::resume))
        .routes(routes!(master::replace_seat))
        .routes(routes!(master::undo))
        .routes(routes!(master::new_invite))
        .routes(routes!(master::audit))
        .routes(routes!(records::file))
        .routes(routes!(records::post))
        .routes(routes!(records::picture))
}
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

/// The query naming the round a request is meant for: a request for a round that is no
/// longer open answers 409 instead of landing in the next.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundQuery {
    round: Option<u8>,
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

/// Tells every watcher of the room, on every instance, that it changed.
async fn announce(state: &AppState, id: &str) {
    state
        .live
        .announce(&Topic::Room(id.to_owned()), Change::State)
        .await;
}

/// Tells the room's watchers of a change the caller made, and answers the caller's view.
async fn changed(state: &AppState, id: &str, caller: &Caller) -> ApiResult<Json<RoomView>> {
    announce(state, id).await;
    let room = stored_room(state, id).await?;
    Ok(Json(
        room_view(&state.store, room, Some(caller), None).await?,
    ))
}
