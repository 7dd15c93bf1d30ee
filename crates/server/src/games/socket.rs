//! A game's live socket: the route that opens it. The hub (`crate::live`) serves it; what it
//! is sent is `crate::live::messages::LiveMessage`, named here only in words (that module
//! reads the games' views, so naming its type here would make an import circle).

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;

use super::view::stored;
use crate::auth::Caller;
use crate::edge::{ClientAddr, Params};
use crate::error::ApiResult;
use crate::live::Topic;
use crate::notify::watch::Watching;
use crate::state::AppState;

/// The query of a game's socket.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SocketQuery {
    /// The ply the client has seen: the moves after it are sent first.
    since: Option<u32>,
}

/// The live messages of a game, for anyone to watch.
#[utoipa::path(get, path = "/api/games/{id}/socket", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("since" = Option<u32>, Query, description = "The ply the client has seen: the moves after it are replayed first"),
    ),
    responses(
        (status = 101, description = "A WebSocket of JSON text messages, each a `LiveMessage` of type `move` (`{\"type\": \"move\", \"ply\": N, \"move\": \"...\", \"game\": <game>}`) or `state` (`{\"type\": \"state\", \"game\": <game>}`), or `chat` (a chat's nudge, or a finished game's spectators' message: docs/CHAT.md)"),
        (status = 400, description = "A malformed `since`", body = crate::error::ErrorBody),
        (status = 404, description = "No such game", body = crate::error::ErrorBody),
        (status = 429, description = "`rate_limited`: too many live sockets open from this address or for this account", body = crate::error::ErrorBody),
    ))]
pub(crate) async fn socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(query): Params<SocketQuery>,
    addr: ClientAddr,
    caller: Option<Caller>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    // A game that does not exist answers 404 before any upgrade.
    stored(&state.store, &id).await?;
    let viewer = caller.as_ref().map(Caller::viewer);
    let account = viewer.as_ref().map(|v| v.account);
    let tickets = state.admit_socket(addr, account)?;
    // A player watching the game is mailed no "your turn" (`docs/NOTIFICATIONS.md`).
    let watching = match account {
        Some(account) => Some(Watching::start(&state.store, account, &id).await?),
        None => None,
    };
    state.live.upgrade(
        Topic::Game(id),
        query.since,
        viewer,
        upgrade,
        (tickets, watching),
    )
}
