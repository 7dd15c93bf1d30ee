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
mod access;
mod lobby;
mod master;
mod records;
mod rounds;
mod seats;
mod views;

use axum::extract::DefaultBodyLimit;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiError;
use crate::limits::rooms::IMPORT_LIMIT;
use crate::state::AppState;
use crate::store::RoomError;

pub(crate) use access::{Role as RoomRole, announce, role_of, room_in};
pub(crate) use rounds::resolve_due;
pub(crate) use views::public_view;

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
