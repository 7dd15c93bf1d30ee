//! Lists of games: the lobby (open challenges and games being played now), a player's games
//! (filtered by status, game, result, rating and opponent), two players' games against each
//! other with their record, and the Swap 61 rooms a player sat in. Each list is one indexed
//! query, bounded in length.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;

use swapboard_play::GameId;

use crate::api::{
    ChallengeList, GameList, GameView, Lobby, RecordView, RoomPlayedView, RoomsPlayed, VersusView,
};
use crate::auth::Caller;
use crate::edge::Params;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::view;
use crate::limits::games::GAMES_LISTED;
use crate::state::AppState;
use crate::store::records::{GameFilter, Outcome};
use crate::store::{Login, Status, StoredGame};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The lists' routes: the lobby and an account's games, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(lobby))
        .routes(routes!(my_challenges))
        .routes(routes!(games_of))
        .routes(routes!(versus))
        .routes(routes!(rooms_played))
}

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
        .recent_games(Status::Waiting, GAMES_LISTED)
        .await?;
    let playing = state
        .store
        .recent_games(Status::Playing, GAMES_LISTED)
        .await?;
    Ok(Json(Lobby {
        open: views(&state, open).await?,
        playing: views(&state, playing).await?,
    }))
}

/// The caller's challenges that wait: those kept for it, those it made.
#[utoipa::path(get, path = "/api/me/challenges", tag = "games",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "At most 50 of each, the newest first", body = ChallengeList),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
    ))]
pub(crate) async fn my_challenges(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<ChallengeList>> {
    let (account, now) = (caller.holder.account_id, state.clock.now_ms());
    let store = &state.store;
    let incoming = store
        .challenges_of(account, true, now, GAMES_LISTED)
        .await?;
    let outgoing = store
        .challenges_of(account, false, now, GAMES_LISTED)
        .await?;
    Ok(Json(ChallengeList {
        incoming: views(&state, incoming).await?,
        outgoing: views(&state, outgoing).await?,
    }))
}

/// The query of a player's games: every filter is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GamesQuery {
    /// Only the games of this status: `waiting`, `playing` or `finished`.
    status: Option<String>,
    /// Only the games of this two-player game (`swaptimum`, ...).
    game: Option<String>,
    /// Only the finished games the player `won`, `lost` or `drawn`.
    result: Option<String>,
    /// Only the rated games (`true`) or the others (`false`).
    rated: Option<String>,
    /// Only the games against this account.
    opponent: Option<String>,
}

/// The account of `name`, or 404 naming it.
async fn account_named(state: &AppState, name: &str) -> ApiResult<Login> {
    state
        .store
        .login_of(name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account named {name:?}")))
}

impl GamesQuery {
    /// The filter the query asks for, each parameter checked and named when it is wrong.
    async fn filter(self, state: &AppState) -> ApiResult<GameFilter> {
        let status = match self.status.as_deref() {
            None => None,
            Some(text) => Some(Status::parse(text).map_err(|_| {
                ApiError::BadRequest(
                    "status: expected \"waiting\", \"playing\" or \"finished\"".to_owned(),
                )
            })?),
        };
        let game = match self.game.as_deref() {
            None => None,
            Some(text) => Some(
                text.parse::<GameId>()
                    .map_err(|e| ApiError::BadRequest(format!("game: {e}")))?
                    .as_str()
                    .to_owned(),
            ),
        };
        let outcome = match self.result.as_deref() {
            None => None,
            Some("won") => Some(Outcome::Won),
            Some("lost") => Some(Outcome::Lost),
            Some("drawn") => Some(Outcome::Drawn),
            Some(_) => {
                return Err(ApiError::BadRequest(
                    "result: expected \"won\", \"lost\" or \"drawn\"".to_owned(),
                ));
            }
        };
        let rated = match self.rated.as_deref() {
            None => None,
            Some("true") => Some(true),
            Some("false") => Some(false),
            Some(_) => {
                return Err(ApiError::BadRequest(
                    "rated: expected \"true\" or \"false\"".to_owned(),
                ));
            }
        };
        let opponent = match self.opponent.as_deref() {
            None => None,
            Some(name) => Some(account_named(state, name).await?.account_id),
        };
        Ok(GameFilter {
            status,
            game,
            outcome,
            rated,
            opponent,
        })
    }
}

/// A player's games, for anyone.
#[utoipa::path(get, path = "/api/accounts/{name}/games", tag = "games",
    params(
        ("name" = String, Path, description = "The account's name"),
        ("status" = Option<String>, Query, pattern = "^(waiting|playing|finished)$", description = "`waiting`, `playing` or `finished`"),
        ("game" = Option<String>, Query, description = "One of the four two-player games (`swaptimum`, `flipstop`, `scware`, `rapid-transit`)"),
        ("result" = Option<String>, Query, pattern = "^(won|lost|drawn)$", description = "The finished games the player `won`, `lost` or `drawn` (a called-off game is none)"),
        ("rated" = Option<String>, Query, pattern = "^(true|false)$", description = "`true`: rated games only; `false`: the others"),
        ("opponent" = Option<String>, Query, description = "Only the games against this account"),
    ),
    responses(
        (status = 200, description = "At most 50 games, the most recently changed first", body = GameList),
        (status = 400, description = "A filter that cannot be read, named", body = ErrorBody),
        (status = 404, description = "No such account (the player or the opponent)", body = ErrorBody),
    ))]
pub(crate) async fn games_of(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Params(query): Params<GamesQuery>,
) -> ApiResult<Json<GameList>> {
    let login = account_named(&state, &name).await?;
    let filter = query.filter(&state).await?;
    let games = state
        .store
        .filtered_games(login.account_id, &filter, GAMES_LISTED)
        .await?;
    Ok(Json(GameList {
        games: views(&state, games).await?,
    }))
}

/// Two players' games against each other, from the first one's side: the record in each
/// game and over all, and their latest games; for anyone.
#[utoipa::path(get, path = "/api/accounts/{name}/versus/{opponent}", tag = "games",
    params(
        ("name" = String, Path, description = "The account whose side the record is from"),
        ("opponent" = String, Path, description = "The other account"),
    ),
    responses(
        (status = 200, description = "Their record and at most 50 of their games, the most recently changed first", body = VersusView),
        (status = 400, description = "The same account twice", body = ErrorBody),
        (status = 404, description = "No such account (either), named", body = ErrorBody),
    ))]
pub(crate) async fn versus(
    State(state): State<AppState>,
    Path((name, opponent)): Path<(String, String)>,
) -> ApiResult<Json<VersusView>> {
    let login = account_named(&state, &name).await?;
    let other = account_named(&state, &opponent).await?;
    if login.account_id == other.account_id {
        return Err(ApiError::BadRequest(
            "opponent: the same account as the player".to_owned(),
        ));
    }
    let records = state
        .store
        .record_of(login.account_id, Some(other.account_id))
        .await?;
    let mut total = RecordView::default();
    for record in records.values() {
        total.played += record.played;
        total.won += record.won;
        total.lost += record.lost;
        total.drawn += record.drawn;
    }
    let filter = GameFilter {
        opponent: Some(other.account_id),
        ..GameFilter::default()
    };
    let games = state
        .store
        .filtered_games(login.account_id, &filter, GAMES_LISTED)
        .await?;
    Ok(Json(VersusView {
        name: login.name,
        opponent: other.name,
        record: records,
        total,
        games: views(&state, games).await?,
    }))
}

/// The Swap 61 rooms a player sat in, with the final rank of those that rated it; for
/// anyone (a room's public view, `GET /api/rooms/{id}`, shows no bid).
#[utoipa::path(get, path = "/api/accounts/{name}/rooms", tag = "rooms",
    params(("name" = String, Path, description = "The account's name")),
    responses(
        (status = 200, description = "At most 50 rooms, the newest first", body = RoomsPlayed),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn rooms_played(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<RoomsPlayed>> {
    let login = account_named(&state, &name).await?;
    let rooms = state
        .store
        .rooms_played(login.account_id, GAMES_LISTED)
        .await?;
    Ok(Json(RoomsPlayed {
        rooms: rooms
            .into_iter()
            .map(|room| RoomPlayedView {
                id: room.id,
                status: room.status,
                seats: room.seats,
                round: room.round,
                master: room.master,
                seat: room.seat,
                created_ms: room.created_ms,
                closed_ms: room.closed_ms,
                rank: room.rank,
            })
            .collect(),
    }))
}
