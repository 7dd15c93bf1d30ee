//! Adjudication (issue 24): an admin decides the result of a game being played, over HTTP
//! and at the command line (`swapboard admin adjudicate`). Admins only, like an annulment: a
//! moderator's tools are for accounts, and a decided result moves ratings and standings.
//!
//! The game ends with the termination `adjudicated` through the one place a game's end is
//! written, so it is rated like any result, counts in its tournament (and may complete a
//! round, pairing the next), and its players are told, in the transaction of the decision,
//! which also writes the admin log's line.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use swapboard_core::Player;
use swapboard_play::step;
use utoipa::ToSchema;

use super::gate::{Reason, holding, reason_of};
use crate::api::GameView;
use crate::auth::Caller;
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::{after_change, game_ended, view_for};
use crate::live::Change;
use crate::state::AppState;
use crate::store::{Finish, MoveError, Role, Store, StoredGame};

/// The result an admin gives a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ToSchema, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The first player (seat 0) wins.
    First,
    /// The second player wins.
    Second,
    /// Nobody wins.
    Draw,
}

impl Verdict {
    /// The game's end as the play layer words it: the winner named, or a draw.
    fn finish(self) -> Finish {
        let winner = match self {
            Verdict::First => Some(Player::First),
            Verdict::Second => Some(Player::Second),
            Verdict::Draw => None,
        };
        Finish::of(step::adjudication(winner))
    }
}

/// An admin's decision on a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Adjudication {
    /// `first`, `second` or `draw`.
    result: Verdict,
    /// Words for the admin log, 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    reason: String,
}

/// Why [`adjudicate_game`] decided nothing.
#[derive(Debug)]
pub(crate) enum Refused {
    /// No game of that id.
    NoSuchGame,
    /// The game is not being played: its status (`waiting` or `finished`).
    NotPlaying(&'static str),
    /// The database failed.
    Storage(anyhow::Error),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NoSuchGame => f.write_str("no such game"),
            Refused::NotPlaying(status) => {
                write!(
                    f,
                    "the game is {status}: only a game being played is adjudicated"
                )
            }
            Refused::Storage(e) => write!(f, "storage: {e:#}"),
        }
    }
}

/// Ends the game `id` being played as `verdict` says, logged as done by `actor` with
/// `reason`: the one path of the route and of `swapboard admin adjudicate`.
pub(crate) async fn adjudicate_game(
    store: &Store,
    id: &str,
    verdict: Verdict,
    actor: &str,
    reason: &str,
) -> Result<StoredGame, Refused> {
    store
        .adjudicate(id, verdict.finish(), actor, reason)
        .await
        .map_err(|e| match e {
            MoveError::NoSuchGame => Refused::NoSuchGame,
            MoveError::NotPlaying(status) => Refused::NotPlaying(status.as_str()),
            MoveError::Storage(e) => Refused::Storage(e),
            MoveError::Stale { .. } | MoveError::Refused(_) => {
                Refused::Storage(anyhow::anyhow!("adjudicate {id}: {e}"))
            }
        })
}

/// Decides the result of a game being played, for admins: it ends `adjudicated` with the
/// winner named (or drawn), rated like any result when rated, counted in its tournament,
/// its players notified and its watchers told; written in the admin log with the reason.
#[utoipa::path(post, path = "/api/admin/games/{id}/adjudicate", tag = "admin", request_body = Adjudication,
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game is over, `adjudicated`: its view", body = GameView),
        (status = 400, description = "A result not `first`, `second` or `draw`, or a missing, empty or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not being played (waiting or finished), named in the message", body = ErrorBody),
    ))]
pub(crate) async fn adjudicate(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<Adjudication>,
) -> ApiResult<Json<GameView>> {
    holding(&state, &caller, &[Role::Admin]).await?;
    let reason = reason_of(Reason {
        reason: body.reason,
    })?;
    let game = adjudicate_game(&state.store, &id, body.result, &caller.holder.name, &reason)
        .await
        .map_err(|e| match e {
            Refused::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            Refused::NotPlaying(_) => ApiError::Conflict(e.to_string()),
            Refused::Storage(e) => ApiError::Internal(e),
        })?;
    after_change(&state, &id, Change::State).await;
    game_ended(&state, game.tournament.as_deref()).await;
    Ok(Json(view_for(&state.store, game, Some(&caller)).await?))
}
