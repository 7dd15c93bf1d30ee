//! What a room leaves on record: its `swapboard-swap61/1` game file (game master), and for
//! anyone each resolved round's forum post and picture. Each is rebuilt by replaying the
//! stored rounds through the rules.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use swapboard_swap61::{EdgeOutcome, RoundOutcome, Swap61Game, report, svg};

use super::access::{mastered_room, setup_of, stored_room};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::state::AppState;
use crate::store::{RoomStatus, StoredRoom};

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
    if room.setup.is_none() {
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
    let resolved = room.setup.is_some() && round < room.round;
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
        bids: Vec::new(),
        focus: None,
    });
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        picture,
    )
        .into_response())
}
