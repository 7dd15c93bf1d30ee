//! A game shown move by move: the board after any ply, what each move did, the record and a
//! picture. The game is replayed by the play layer from its stored moves; the server words
//! and draws nothing itself.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use swapboard_core::{BoardView, Player};
use swapboard_play::words::ply_caption;
use swapboard_play::{Ending, Review, Seat};

use crate::api::{MoveList, MoveView, PlyView};
use crate::edge::Params;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::{start_of, stored};
use crate::state::AppState;
use crate::store::{SeatRow, StoredGame, Termination};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The routes that show a game: its board at a ply, moves, record and picture, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(view))
        .routes(routes!(moves))
        .routes(routes!(record))
        .routes(routes!(svg))
}

/// The seat as the play layer names it in records: the account, the AI, or an empty seat.
fn table_seat(row: Option<&SeatRow>) -> Seat {
    match row {
        Some(SeatRow {
            account: Some((_, name)),
            ..
        }) => Seat::Person(name.clone()),
        Some(SeatRow {
            ai_level: Some(level),
            ..
        }) => Seat::Ai(*level),
        _ => Seat::Person("?".to_owned()),
    }
}

/// The game of that id replayed to its last move.
async fn replayed(state: &AppState, id: &str) -> ApiResult<(StoredGame, Box<dyn Review>)> {
    let game = stored(&state.store, id).await?;
    let seats = state.store.seats(id).await?;
    let moves = state.store.moves_up_to(id, game.ply).await?;
    let internal = |what: String| ApiError::Internal(anyhow::anyhow!("game {id}: {what}"));
    let start = start_of(&game)?;
    let seat = |index: u8| table_seat(seats.iter().find(|row| row.seat == index));
    let ending = game.finish.and_then(|finish| {
        (finish.termination != Termination::Rules).then(|| Ending {
            winner: finish
                .winner_seat
                .map(|seat| Player::from_index(usize::from(seat))),
            reason: finish.termination,
        })
    });
    let review = start
        .replay(&moves, [seat(0), seat(1)], ending)
        .map_err(|e| internal(format!("replay: {e}")))?;
    Ok((game, review))
}

/// The query naming a ply.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlyQuery {
    /// The number of moves played before the position shown (default: all of them).
    ply: Option<u32>,
}

/// The ply a query asks for, checked against the game's.
fn ply_asked(query: &PlyQuery, review: &dyn Review) -> ApiResult<usize> {
    let last = review.ply();
    match query.ply {
        None => Ok(last),
        Some(ply) => usize::try_from(ply)
            .ok()
            .filter(|&ply| ply <= last)
            .ok_or_else(|| {
                ApiError::BadRequest(format!("ply: {ply} is past the game's last ply, {last}"))
            }),
    }
}

/// The game replayed, the ply a query asks for, and the board after it.
async fn board_at(
    state: &AppState,
    id: &str,
    query: &PlyQuery,
) -> ApiResult<(Box<dyn Review>, usize, BoardView)> {
    let (_, review) = replayed(state, id).await?;
    let ply = ply_asked(query, review.as_ref())?;
    let board = review
        .view_at(ply)
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("game {id}: no view at {ply}")))?;
    Ok((review, ply, board))
}

/// The board after any ply of a game, for anyone to watch.
#[utoipa::path(get, path = "/api/games/{id}/view", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("ply" = Option<u32>, Query, description = "The number of moves before the position (default: all)"),
    ),
    responses(
        (status = 200, description = "The board after that ply", body = PlyView),
        (status = 400, description = "A ply past the game's", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(query): Params<PlyQuery>,
) -> ApiResult<Json<PlyView>> {
    let (review, ply, board) = board_at(&state, &id, &query).await?;
    let last = ply.checked_sub(1);
    Ok(Json(PlyView {
        ply,
        board,
        text: last.and_then(|k| review.move_text(k)),
        description: last.and_then(|k| review.describe(k)),
        ending: review.ending_text(),
    }))
}

/// The moves of a game with what each did, for anyone to watch.
#[utoipa::path(get, path = "/api/games/{id}/moves", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The moves, each described", body = MoveList),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn moves(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<MoveList>> {
    let (_, review) = replayed(&state, &id).await?;
    let by_condition = state.store.plies_by_condition(&id).await?;
    let moves = (0..review.ply())
        .map(|k| MoveView {
            ply: k + 1,
            text: review.move_text(k).unwrap_or_default(),
            colour: review.mover_letter(k).map(String::from).unwrap_or_default(),
            description: review.describe(k).unwrap_or_default(),
            by_condition: by_condition.contains(&k),
        })
        .collect();
    Ok(Json(MoveList {
        moves,
        ending: review.ending_text(),
    }))
}

/// The game's record (`docs/RECORDS.md`), for anyone.
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The record, as text", body = String, content_type = "text/plain"),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let record = record_text(&state, &id).await?;
    let file = format!("attachment; filename=\"swapboard-{id}.txt\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, file),
        ],
        record,
    )
        .into_response())
}

/// The record (`docs/RECORDS.md`) of the stored game `id`, its site tag naming the game.
pub(crate) async fn record_text(state: &AppState, id: &str) -> ApiResult<String> {
    let (game, review) = replayed(state, id).await?;
    let date = swapboard_play::record::date_of(game.created_ms);
    let mut record = review.record(&date);
    record.set_tag("Site", format!("swapboard, game {id}"));
    Ok(record.to_string())
}

/// A picture of the board after any ply (the render crate's SVG), for anyone.
#[utoipa::path(get, path = "/api/games/{id}/svg", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("ply" = Option<u32>, Query, description = "The number of moves before the position (default: all)"),
    ),
    responses(
        (status = 200, description = "The picture", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A ply past the game's", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn svg(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(query): Params<PlyQuery>,
) -> ApiResult<Response> {
    let (review, ply, board) = board_at(&state, &id, &query).await?;
    let mv = ply.checked_sub(1).and_then(|k| review.move_text(k));
    let caption = ply_caption(ply, review.ply(), mv.as_deref());
    let picture = swapboard_render::svg_with_caption(&board, Some(&caption));
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        picture,
    )
        .into_response())
}
