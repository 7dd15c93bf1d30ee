//! A room's beginning: created or imported from a game file, joined with an invite, and
//! started by its game master.

use std::collections::{BTreeMap, HashSet};

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use swapboard_play::names;
use swapboard_swap61::{LAST_ROUND, Seat, Swap61Game, Variation};
use utoipa::ToSchema;

use super::access::{mastered_room, stored_room};
use super::rounds::{bot_submissions, draw};
use super::views::{changed, room_view};
use crate::api::RoomView;
use crate::auth::Caller;
use crate::edge::{Body, MaybeBody, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::rooms::{IMPORT_LIMIT, MAX_OPEN_ROOMS, ROUND_MS, SEATS};
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::{BotSubmission, ImportedRoom, NewRoom, SeatAssignment, StoredRound};

/// Round lengths are asked in hours, stored in ms.
fn round_ms(hours: Option<f64>) -> ApiResult<i64> {
    let hours = hours.unwrap_or(24.0);
    let ms = hours * 3_600_000.0;
    if !ms.is_finite() || !(ROUND_MS.start()..=ROUND_MS.end()).contains(&&(ms.round() as i64)) {
        return Err(ApiError::BadRequest(format!(
            "round_hours: from 1/3600 (one second) to {}",
            ROUND_MS.end() / 3_600_000
        )));
    }
    Ok(ms.round() as i64)
}

/// The body of `POST /api/rooms`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateRoom {
    /// 9 or 10 (default 10): the seats filled by bots when the room starts with
    /// `fill_with_bots`.
    seats: Option<u8>,
    /// Round 5's variation (default `theme`): `theme`, `corners`, `corners-teleport`,
    /// `network`, `seat-exchange`, or options joined by `+`.
    round5: Option<String>,
    /// How long each round is open, in hours (default 24; from 1/3600, one second, to 720).
    round_hours: Option<f64>,
    /// The seed of the draw (default: a random one), recorded in the game file.
    seed: Option<u64>,
}

/// The body of `POST /api/rooms/{id}/join`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinRoom {
    /// The invite the game master handed out.
    invite: String,
}

/// The optional body of `POST /api/rooms/{id}/start`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartRoom {
    /// Fill the empty seats, up to the room's `seats`, with the bidding bot.
    #[serde(default)]
    fill_with_bots: bool,
}

/// The query of an import.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportQuery {
    /// How long each round is open, in hours (default 24).
    round_hours: Option<f64>,
}

/// Creates a room; the caller is its game master.
#[utoipa::path(post, path = "/api/rooms", tag = "rooms", request_body = CreateRoom,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The room, in its lobby, with its `invite` (shown this once)", body = RoomView),
        (status = 400, description = "A missing or malformed field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A guest, who must sign up first", body = ErrorBody),
        (status = 409, description = "The caller runs 20 rooms already", body = ErrorBody),
    ))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CreateRoom>,
) -> ApiResult<(StatusCode, Json<RoomView>)> {
    state.offered.check_rooms()?;
    caller.signed_up("running a room")?;
    let seats = body.seats.unwrap_or(10);
    if !SEATS.contains(&usize::from(seats)) {
        let (fewest, most) = (SEATS.start(), SEATS.end());
        return Err(ApiError::BadRequest(format!("seats: {fewest} or {most}")));
    }
    let round5: Variation = body
        .round5
        .as_deref()
        .unwrap_or("theme")
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("round5: {e}")))?;
    let round_ms = round_ms(body.round_hours)?;
    let master = caller.holder.account_id;
    let running = state.store.count_open_rooms(master).await?;
    if running >= MAX_OPEN_ROOMS {
        return Err(ApiError::Conflict(format!(
            "you run {running} rooms, the most one account may: finish some first"
        )));
    }
    let secret = random_secret();
    let invite = random_secret();
    let id = &secret[..16];
    let round5 = round5.to_string();
    let invite_hash = secret_hash(&invite);
    let new = NewRoom {
        id,
        master: (master, &caller.holder.name),
        seats,
        round5: &round5,
        round_ms,
        seed: body.seed,
        invite_hash: &invite_hash,
    };
    state.store.create_room(&new).await?;
    let room = stored_room(&state, id).await?;
    let view = room_view(&state.store, room, Some(&caller), Some(invite)).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// Imports a `swapboard-swap61/1` game file as a new room being played; the caller is its
/// game master.
#[utoipa::path(post, path = "/api/rooms/import", tag = "rooms",
    request_body(content = Object, description = "A `swapboard-swap61/1` game file (docs/SWAP61.md), at most 256 KiB"),
    params(("round_hours" = Option<f64>, Query, description = "How long each round is open, in hours (default 24)")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The room, at the file's round, with its `invite`; seats named like an account are that account's, `bot:N` seats the bot's, the others vacant", body = RoomView),
        (status = 400, description = "Not a game file, or an inconsistent one", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A guest, who must sign up first", body = ErrorBody),
        (status = 409, description = "The caller runs 20 rooms already", body = ErrorBody),
    ))]
pub(crate) async fn import(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<ImportQuery>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<RoomView>)> {
    state.offered.check_rooms()?;
    caller.signed_up("running a room")?;
    let bytes = body.map_err(|_| {
        ApiError::BadRequest(format!(
            "body: cannot be read whole (at most {IMPORT_LIMIT} bytes)"
        ))
    })?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::BadRequest("body: the game file is not UTF-8".to_owned()))?;
    let game = Swap61Game::from_json(&names::normalized(text))
        .map_err(|e| ApiError::BadRequest(format!("game file: {e}")))?;
    let round_ms = round_ms(query.round_hours)?;
    let master = caller.holder.account_id;
    let running = state.store.count_open_rooms(master).await?;
    if running >= MAX_OPEN_ROOMS {
        return Err(ApiError::Conflict(format!(
            "you run {running} rooms, the most one account may: finish some first"
        )));
    }
    let setup = game.setup();
    let mut seats = Vec::with_capacity(setup.seats());
    let mut taken = HashSet::new();
    for name in &setup.players {
        names::check_shown_name(name)
            .map_err(|e| ApiError::BadRequest(format!("game file: {e}")))?;
        let login = state.store.login_of(name).await?;
        if login.is_none()
            && let Some(other) = state.store.account_like(&names::skeleton(name)).await?
        {
            return Err(ApiError::BadRequest(format!(
                "game file: player name {name:?} looks like the account {other:?} without being it: use the account's own name or another"
            )));
        }
        let account = match login {
            Some(login) if login.account_id != master && taken.insert(login.account_id) => {
                Some(login.account_id)
            }
            _ => None,
        };
        seats.push(SeatAssignment {
            name: name.clone(),
            account_id: account,
            bot: account.is_none() && name.starts_with("bot:"),
        });
    }
    let resolved_ms = state.clock.now_ms();
    let rounds = game
        .outcomes()
        .iter()
        .map(|o| StoredRound {
            round: u8::try_from(o.round).unwrap_or(u8::MAX),
            grid: o.resolution.board.to_string(),
            scores: o.scores.clone(),
            resolved_ms,
        })
        .collect();
    let submitted = |round: usize, texts: &BTreeMap<Seat, String>| {
        texts
            .iter()
            .map(|(seat, text)| {
                (
                    round,
                    BotSubmission {
                        seat: u8::from(*seat),
                        receipt: secret_hash(text),
                        text: text.clone(),
                    },
                )
            })
            .collect::<Vec<_>>()
    };
    let round = game.round();
    let mut submissions: Vec<(usize, BotSubmission)> = game
        .resolved_submissions()
        .iter()
        .enumerate()
        .flat_map(|(round, texts)| submitted(round, texts))
        .collect();
    let open: BTreeMap<Seat, String> = game
        .submitted()
        .filter_map(|s| Some((s, game.submission(s)?.to_owned())))
        .collect();
    submissions.extend(submitted(round, &open));
    let silent_bots = (1u8..)
        .zip(&seats)
        .filter(|(number, s)| s.bot && !open.keys().any(|o| u8::from(*o) == *number))
        .map(|(number, _)| number);
    submissions.extend(
        bot_submissions(setup, game.board(), round, silent_bots)
            .into_iter()
            .map(|b| (round, b)),
    );
    let secret = random_secret();
    let invite = random_secret();
    let id = &secret[..16];
    let round5 = setup.rounds[LAST_ROUND].variation.to_string();
    let invite_hash = secret_hash(&invite);
    let imported = ImportedRoom {
        room: NewRoom {
            id,
            master: (master, &caller.holder.name),
            seats: u8::try_from(setup.seats()).unwrap_or(0),
            round5: &round5,
            round_ms,
            seed: setup.seed,
            invite_hash: &invite_hash,
        },
        setup: serde_json::to_string(setup).map_err(anyhow::Error::from)?,
        grid: game.board().to_string(),
        round: u8::try_from(round).unwrap_or(u8::MAX),
        seats,
        rounds,
        submissions: submissions
            .into_iter()
            .map(|(r, s)| (u8::try_from(r).unwrap_or(u8::MAX), s))
            .collect(),
    };
    state.store.import_room(&imported).await?;
    let room = stored_room(&state, id).await?;
    let view = room_view(&state.store, room, Some(&caller), Some(invite)).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// Takes a seat in a room's lobby with its invite.
#[utoipa::path(post, path = "/api/rooms/{id}/join", tag = "rooms", request_body = JoinRoom,
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller has joined", body = RoomView),
        (status = 400, description = "A missing or malformed field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A wrong invite, or a guest, who must sign up first", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "The room is full or started, the caller sits there already or is its game master", body = ErrorBody),
    ))]
pub(crate) async fn join(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<JoinRoom>,
) -> ApiResult<Json<RoomView>> {
    caller.signed_up("joining a room")?;
    let account = (caller.holder.account_id, caller.holder.name.as_str());
    state
        .store
        .join_room(&id, account, &secret_hash(&body.invite))
        .await?;
    changed(&state, &id, &caller).await
}

/// Starts the room (game master): 9 or 10 players joined, or the rest filled with bots.
#[utoipa::path(post, path = "/api/rooms/{id}/start", tag = "rooms",
    request_body(content = Option<StartRoom>, description = "Optional: `{\"fill_with_bots\": true}`"),
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The seat order, grid and pairs are drawn; the pregame is open", body = RoomView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is not the game master", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "Started already, or too few players without bots", body = ErrorBody),
    ))]
pub(crate) async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    MaybeBody(body): MaybeBody<StartRoom>,
) -> ApiResult<Json<RoomView>> {
    mastered_room(&state, &id, &caller).await?;
    let fill = body.unwrap_or_default().fill_with_bots;
    state
        .store
        .start_room(&id, &caller.holder.name, |room, lobby| {
            draw(room, lobby, fill)
        })
        .await?;
    changed(&state, &id, &caller).await
}
