//! What the rooms' handlers share: finding a room and who the caller is in it, the round a
//! request is meant for, a started room's setup and grid, and telling the room's watchers
//! that it changed.

use serde::Deserialize;
use swapboard_swap61::{Board, Seat, Setup};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::live::{Change, Topic};
use crate::state::AppState;
use crate::store::{RoomError, RoomSeat, Store, StoredRoom};

/// The query naming the round a request is meant for: a request for a round that is no
/// longer open answers 409 instead of landing in the next.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundQuery {
    pub(crate) round: Option<u8>,
}

/// Who is looking at a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Public,
    Player(u8),
    Master,
}

pub(crate) fn role_of(room: &StoredRoom, seats: &[RoomSeat], caller: Option<&Caller>) -> Role {
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
pub(crate) async fn stored_room(state: &AppState, id: &str) -> ApiResult<StoredRoom> {
    room_in(&state.store, id).await
}

/// The room of that id in the store, or 404.
pub(crate) async fn room_in(store: &Store, id: &str) -> ApiResult<StoredRoom> {
    Ok(store.room(id).await?.ok_or(RoomError::NoSuchRoom)?)
}

/// The room, if the caller is its game master; 403 otherwise.
pub(crate) async fn mastered_room(
    state: &AppState,
    id: &str,
    caller: &Caller,
) -> ApiResult<StoredRoom> {
    let room = stored_room(state, id).await?;
    if room.master.0 != caller.holder.account_id {
        return Err(ApiError::Forbidden(
            "only the room's game master may do this".to_owned(),
        ));
    }
    Ok(room)
}

/// The setup of a started room.
pub(crate) fn setup_of(room: &StoredRoom) -> anyhow::Result<Setup> {
    let text = room
        .setup
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("room {}: no setup", room.id))?;
    Ok(serde_json::from_str(text)?)
}

/// The grid now of a started room.
pub(crate) fn board_of(room: &StoredRoom) -> anyhow::Result<Board> {
    let text = room
        .grid
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("room {}: no grid", room.id))?;
    Board::parse(text, usize::from(room.seats))
        .map_err(|e| anyhow::anyhow!("room {}: stored grid: {e}", room.id))
}

pub(crate) fn seat(number: u8) -> anyhow::Result<Seat> {
    Seat::new(usize::from(number)).ok_or_else(|| anyhow::anyhow!("seat {number} out of range"))
}

/// Tells every watcher of the room, on every instance, that it changed.
pub(crate) async fn announce(state: &AppState, id: &str) {
    state
        .live
        .announce(&Topic::Room(id.to_owned()), Change::State)
        .await;
}
