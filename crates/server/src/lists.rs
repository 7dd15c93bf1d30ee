//! Lists of games: the lobby (open challenges and games being played now) and a player's
//! games. Each list is one indexed query, bounded in length.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;

use crate::api::{GameList, GameView, Lobby};
use crate::edge::Params;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::view;
use crate::state::AppState;
use crate::store::{Status, StoredGame};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The lists' routes: the lobby and an account's games, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(lobby))
        .routes(routes!(games_of))
}

/// The most games one list shows.
const LIST_LIMIT: u32 = 50;

async fn views(state: &AppState, games: Vec<StoredGame>) -> ApiResult<Vec<GameView>> {
    let mut shown = Vec::with_capacity(games.len());
    for game in games {
        shown.push(view(&state.store, game).await?);
    }
    Ok(shown)
}

/// Open challenges and games being played now, for anyone.
#[utoipa::path(get, path = "/api/lobby", tag = "games",
    responses((status = 200, description = "At most 50 of each, the most recent first", body = Lobby)))]
pub(crate) async fn lobby(State(state): State<AppState>) -> ApiResult<Json<Lobby>> {
    let open = state
        .store
        .recent_games(Status::Waiting, LIST_LIMIT)
        .await?;
    let playing = state
        .store
        .recent_games(Status::Playing, LIST_LIMIT)
        .await?;
    Ok(Json(Lobby {
        open: views(&state, open).await?,
        playing: views(&state, playing).await?,
    }))
}

/// The query of a player's games.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GamesQuery {
    /// Only the games of this status: `waiting`, `playing` or `finished`.
    status: Option<String>,
}

/// A player's games, for anyone.
#[utoipa::path(get, path = "/api/accounts/{name}/games", tag = "games",
    params(
        ("name" = String, Path, description = "The account's name"),
        ("status" = Option<String>, Query, pattern = "^(waiting|playing|finished)$", description = "`waiting`, `playing` or `finished`"),
    ),
    responses(
        (status = 200, description = "At most 50 games, the most recently changed first", body = GameList),
        (status = 400, description = "An unknown status", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn games_of(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Params(query): Params<GamesQuery>,
) -> ApiResult<Json<GameList>> {
    let status = match query.status.as_deref() {
        None => None,
        Some(text) => Some(Status::parse(text).map_err(|_| {
            ApiError::BadRequest(
                "status: expected \"waiting\", \"playing\" or \"finished\"".to_owned(),
            )
        })?),
    };
    let Some(login) = state.store.login_of(&name).await? else {
        return Err(ApiError::NotFound(format!("no account named {name:?}")));
    };
    let games = state
        .store
        .games_of_account(login.account_id, status, LIST_LIMIT)
        .await?;
    Ok(Json(GameList {
        games: views(&state, games).await?,
    }))
}
