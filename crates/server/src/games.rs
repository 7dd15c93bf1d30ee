//! Two-player games: creating, joining, watching and moving. The rules are the play layer's
//! ([`AnyPosition`]): the server knows no game of its own.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::time::Instant;
use swapboard_core::{MoveError as RulesError, Player};
use swapboard_play::{
    AnyPosition, CatalogueEntry, Draft, Ending, GameId, Millis, Selection, TimeControl, step,
};
use utoipa::ToSchema;

use crate::app::AppState;
use crate::auth::{Caller, random_secret};
use crate::edge::{Body, MaybeBody};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::Limiter;
use crate::live::Change;
use crate::store::{
    Claim, Finish, JoinError, Landed, MoveError, MoveRequest, NewGame, Played, Rematch, Seat,
    SeatRow, Status, StoredGame, Termination, Times, now_ms, seat_of,
};

/// Who the creator plays against: `ai:L` (level 1-8), `open`, `user:NAME` or `invite`
/// (whoever comes with the game's invite link).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
enum Opponent {
    Ai(u8),
    Open,
    User(String),
    Invite,
}

impl TryFrom<String> for Opponent {
    type Error = String;

    fn try_from(text: String) -> Result<Opponent, String> {
        if text == "open" {
            return Ok(Opponent::Open);
        }
        if text == "invite" {
            return Ok(Opponent::Invite);
        }
        if let Some(level) = text.strip_prefix("ai:") {
            return match level.parse::<u8>() {
                Ok(level @ 1..=8) => Ok(Opponent::Ai(level)),
                _ => Err(format!("{text:?}: an AI's level is 1 to 8")),
            };
        }
        if let Some(name) = text.strip_prefix("user:") {
            return Ok(Opponent::User(name.to_owned()));
        }
        Err(format!(
            "{text:?}: expected \"ai:L\" (1-8), \"open\", \"user:NAME\" or \"invite\""
        ))
    }
}

/// Which seat the creator takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum Colour {
    /// The first player's.
    First,
    /// The second player's.
    Second,
    /// Either, drawn at random.
    #[default]
    Random,
}

/// The body of `POST /api/games`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateGame {
    /// `swaptimum`, `flipstop`, `scware` or `rapid-transit`.
    #[schema(value_type = String, example = "swaptimum")]
    game: GameId,
    /// The board side (default: the game's usual one); one of the game's sizes.
    size: Option<u32>,
    /// `ai:L` (level 1-8), `open` (anyone may join), `user:NAME` (kept for that account) or
    /// `invite` (joined by the invite link the answer gives the creator).
    #[schema(value_type = String, example = "ai:5")]
    opponent: Opponent,
    /// The creator's seat (default `random`).
    #[serde(default)]
    colour: Colour,
    /// `{"days_per_move": D}` (1-30) or `{"initial_s": S, "increment_s": I}`; none by default.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    clock: TimeControl,
}

/// The body of `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveBody {
    /// The move, as `spec/CONTRACT.md` writes it (cells in any case).
    #[serde(rename = "move")]
    text: String,
    /// The number of moves the client has seen.
    ply: u32,
}

/// A seat as the API shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct PlayerView {
    /// The account's name, `ai:L`, or for an empty seat the account it is kept for (`null`:
    /// open to anyone).
    name: Option<String>,
    /// The seat's colour letter (`R`, `B`, ...).
    colour: String,
    /// Whether someone sits there (an empty seat waits for a join).
    seated: bool,
}

/// How a finished game ended.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct ResultView {
    /// The winner's name, `null` for a draw or an aborted game.
    winner: Option<String>,
    /// `rules`, `resigned`, `timeout` or `aborted`.
    termination: String,
    /// How it ended, in words that follow the winner's name or "You won"/"You lost": `by
    /// connection`, `by the largest network (31 to 22)`, `on time`, `by resignation`;
    /// `aborted`.
    how: String,
}

/// The players' clocks as they stand when the game is read.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct ClocksView {
    /// Each player's time left in ms, first player first (for correspondence, the time left
    /// for the move under way and a whole period for the other side).
    remaining_ms: [u64; 2],
    /// When the player to move runs out of time, in ms since the Unix epoch; `null` once
    /// the game is over.
    deadline_ms: Option<u64>,
    /// The server's time when it answered, in ms since the Unix epoch, so that a client can
    /// count down from the server's times whatever its own clock says.
    server_now_ms: u64,
}

/// The clocks of a game that has them, at `now`.
fn clocks_view(game: &StoredGame, position: &AnyPosition, now: Millis) -> Option<ClocksView> {
    let clock = game.times?.clock(game.clock, position.to_move());
    let playing = game.status == Status::Playing;
    let flagged = game
        .finish
        .filter(|f| f.termination == Termination::Timeout)
        .map(|_| position.to_move());
    let left = |player| {
        if flagged == Some(player) {
            // The flag fell: whatever the clock held at the last move has run out.
            0
        } else if playing {
            clock.remaining(player, now).map_or(0, |m| m.0)
        } else {
            // A finished game's clock stopped at its last move.
            clock.remaining(player, clock.since()).map_or(0, |m| m.0)
        }
    };
    Some(ClocksView {
        remaining_ms: [left(Player::First), left(Player::Second)],
        deadline_ms: playing.then(|| clock.deadline().map(|d| d.0)).flatten(),
        server_now_ms: now.0,
    })
}

/// The server's time, for the play layer's clocks.
pub(crate) fn now() -> Millis {
    Millis(u64::try_from(now_ms()).unwrap_or(0))
}

/// A two-player game, as `spec/API.md` shows it (and as `swapboard loadtest` reads it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The game's name (`swaptimum`, ...).
    game: String,
    /// The board side.
    size: u32,
    /// The seats, the first player's first.
    players: Vec<PlayerView>,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// The number of moves in `moves`.
    pub(crate) ply: u32,
    /// The position now, as `spec/CONTRACT.md` writes it.
    pub position: String,
    /// The moves played, in order.
    pub(crate) moves: Vec<String>,
    /// The name of the player to move, `null` unless the game is being played.
    to_move: Option<String>,
    /// How the game ended, `null` until it has.
    result: Option<ResultView>,
    /// The time control: `null`, `{"days_per_move": D}` or `{"initial_s": S, "increment_s": I}`.
    #[schema(value_type = Option<Object>)]
    clock: TimeControl,
    /// The clocks now, `null` without a time control or before the game starts.
    clocks: Option<ClocksView>,
    /// The secret of the game's invite link (`/games/{id}?invite=...`), shown to its
    /// creator only, while the game waits; `null` for everyone else.
    invite: Option<String>,
    /// The id of the rematch offered after this game, `null` until one is.
    rematch: Option<String>,
}

/// The most games against the AI one account may have in progress at once.
pub(crate) const MAX_AI_GAMES: u32 = 10;
/// The most open or invited challenges one account may have waiting at once.
pub(crate) const MAX_WAITING_GAMES: u32 = 20;

/// What follows every committed change of a game: the AI is woken if it is to move, and
/// the watchers on every instance are told.
pub(crate) async fn after_change(state: &AppState, game_id: &str, change: Change) {
    crate::ai::wake(state, game_id);
    state.live.announce(state, game_id, change).await;
}

/// After a person's move in a game with these seats: as [`after_change`], but the AI is
/// woken only where it has a seat, so a move between people costs no look for it.
async fn after_move(state: &AppState, game_id: &str, plies: Plies, seats: &[SeatRow]) {
    if seats.iter().any(|seat| seat.ai_level.is_some()) {
        crate::ai::wake(state, game_id);
    }
    announce_plies(state, game_id, plies).await;
}

/// The plies a move added: `before` (the ply it was played at) up to `after` (the game's
/// ply once it and the passes the rules forced after it are stored).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plies {
    /// The game's ply before the move.
    pub(crate) before: u32,
    /// The game's ply after it.
    pub(crate) after: u32,
}

/// Tells the watchers of each ply a move added, in order (a forced pass is announced like
/// any move).
pub(crate) async fn announce_plies(state: &AppState, game_id: &str, plies: Plies) {
    for ply in plies.before + 1..=plies.after {
        state.live.announce(state, game_id, Change::Move(ply)).await;
    }
}

/// The name a seat shows: its account's, `ai:L`, or the invited account's.
fn seat_name(seat: &SeatRow) -> Option<String> {
    if let Some((_, name)) = &seat.account {
        return Some(name.clone());
    }
    if let Some(level) = seat.ai_level {
        return Some(format!("ai:{level}"));
    }
    seat.invited.as_ref().map(|(_, name)| name.clone())
}

/// The stored position, read back; one the server wrote and cannot read is its own fault.
fn position_of(game: &StoredGame) -> ApiResult<AnyPosition> {
    game.position
        .parse()
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("game {}: stored position: {e}", game.id)))
}

/// The start position of a stored game.
pub(crate) fn start_of(game: &StoredGame) -> ApiResult<AnyPosition> {
    let internal = |what: String| ApiError::Internal(anyhow::anyhow!("game {}: {what}", game.id));
    let kind: GameId = game.game.parse().map_err(|e| internal(format!("{e}")))?;
    let size = usize::try_from(game.size).map_err(|e| internal(format!("size: {e}")))?;
    AnyPosition::start(kind, size).map_err(|e| internal(format!("start: {e}")))
}

/// The game as the API shows it.
pub(crate) async fn view(state: &AppState, game: StoredGame) -> ApiResult<GameView> {
    let seats = state.store.seats(&game.id).await?;
    view_with_seats(state, game, &seats).await
}

/// [`view`], with the game's seats already read.
async fn view_with_seats(
    state: &AppState,
    game: StoredGame,
    seats: &[SeatRow],
) -> ApiResult<GameView> {
    // Moves are only ever added: the game's first `ply` moves are those of this view.
    let moves = state.store.moves_up_to(&game.id, game.ply).await?;
    let position = position_of(&game)?;
    let name_of = |seat: u8| {
        seats
            .iter()
            .find(|row| row.seat == seat)
            .and_then(seat_name)
    };
    let players = seats
        .iter()
        .map(|row| {
            let colour = position.colour_name(Player::from_index(usize::from(row.seat)));
            PlayerView {
                name: seat_name(row),
                colour: colour.chars().take(1).collect(),
                seated: row.account.is_some() || row.ai_level.is_some(),
            }
        })
        .collect();
    let to_move = (game.status == crate::store::Status::Playing)
        .then(|| name_of(seat_of(position.to_move())))
        .flatten();
    let result = game.finish.map(|finish| ResultView {
        winner: finish.winner_seat.and_then(name_of),
        termination: finish.termination.as_str().to_owned(),
        how: position.ending_how(Ending {
            winner: finish
                .winner_seat
                .map(|seat| Player::from_index(usize::from(seat))),
            reason: finish.termination,
        }),
    });
    let clocks = clocks_view(&game, &position, now());
    Ok(GameView {
        clocks,
        // Shown by the handlers that know the caller is the creator, and by them only.
        invite: None,
        rematch: game.rematch,
        id: game.id,
        game: game.game,
        size: game.size,
        players,
        status: game.status.as_str().to_owned(),
        ply: game.ply,
        position: game.position,
        moves,
        to_move,
        result,
        clock: game.clock,
    })
}

/// The game of that id, or 404.
pub(crate) async fn stored(state: &AppState, id: &str) -> ApiResult<StoredGame> {
    state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no game {id:?}")))
}

/// Creates a game against the AI, open to anyone, or kept for one account.
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = CreateGame,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The game is created", body = GameView),
        (status = 400, description = "A missing or malformed field, a size the game has not", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 404, description = "No account of the invited name", body = ErrorBody),
        (status = 409, description = "Too many games against the AI in progress, or challenges waiting", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many challenges from this account", body = ErrorBody),
    ))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CreateGame>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let game = body.game;
    let size = body.size.map_or(Ok(game.default_size()), usize::try_from);
    let size = size
        .ok()
        .filter(|size| game.sizes().contains(size))
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "size: {game} is played on sides {} to {}",
                game.sizes().start(),
                game.sizes().end()
            ))
        })?;
    let position =
        AnyPosition::start(game, size).map_err(|e| ApiError::BadRequest(format!("size: {e}")))?;
    check_caps(&state, &caller, matches!(body.opponent, Opponent::Ai(_))).await?;
    let invite = (body.opponent == Opponent::Invite).then(random_secret);
    let opponent = match body.opponent {
        Opponent::Ai(level) => Seat::Ai(level),
        Opponent::Open | Opponent::Invite => Seat::Open,
        Opponent::User(name) => {
            let Some(login) = state.store.login_of(&name).await? else {
                return Err(ApiError::NotFound(format!("no account named {name:?}")));
            };
            if login.account_id == caller.holder.account_id {
                return Err(ApiError::BadRequest(
                    "opponent: you cannot invite yourself".to_owned(),
                ));
            }
            Seat::Invited(login.account_id)
        }
    };
    let secret = random_secret();
    let creator_first = match body.colour {
        Colour::First => true,
        Colour::Second => false,
        // The secret's hex digits are uniform: the parity of the last is a fair coin.
        Colour::Random => secret.as_bytes()[secret.len() - 1].is_multiple_of(2),
    };
    let me = Seat::Account(caller.holder.account_id);
    let seats = if creator_first {
        [me, opponent]
    } else {
        [opponent, me]
    };
    let id = &secret[..16];
    let size32 = u32::try_from(size).map_err(anyhow::Error::from)?;
    let text = position.to_string();
    let new = NewGame {
        id,
        game: game.as_str(),
        size: size32,
        position: &text,
        seats,
        clock: body.clock,
        invite: invite.as_deref(),
    };
    state.store.create_game(&new).await?;
    after_change(&state, id, Change::State).await;
    let game = stored(&state, id).await?;
    let mut shown = view(&state, game).await?;
    shown.invite = invite;
    Ok((StatusCode::CREATED, Json(shown)))
}

/// Refuses a challenge past the caller's rate, or past the caps on games against the AI
/// in progress (`against_ai`) or on challenges waiting.
async fn check_caps(state: &AppState, caller: &Caller, against_ai: bool) -> ApiResult<()> {
    limit_account(&state.limits.challenges_per_account, caller)?;
    let (status, cap) = if against_ai {
        (Status::Playing, MAX_AI_GAMES)
    } else {
        (Status::Waiting, MAX_WAITING_GAMES)
    };
    let count = state
        .store
        .count_games(caller.holder.account_id, status, against_ai)
        .await?;
    if count >= cap {
        let what = if against_ai {
            "games against the AI in progress"
        } else {
            "challenges waiting"
        };
        return Err(ApiError::Conflict(format!(
            "you have {count} {what}, the most one account may have: finish or resign some first"
        )));
    }
    Ok(())
}

/// Takes one of the caller's tokens from an account's limiter, or answers 429.
fn limit_account(limiter: &Limiter, caller: &Caller) -> ApiResult<()> {
    limiter
        .check(&caller.holder.account_id.to_string(), Instant::now())
        .map_err(ApiError::RateLimited)
}

/// A game, for anyone to watch (its creator also sees the invite link's secret).
#[utoipa::path(get, path = "/api/games/{id}", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let game = stored(&state, &id).await?;
    let invite = game.invite.clone();
    let seats = state.store.seats(&id).await?;
    // While an invite game waits, the one account seated in it is its creator.
    let creator = caller.is_some_and(|caller| {
        seats.iter().any(|row| {
            row.account
                .as_ref()
                .is_some_and(|(account, _)| *account == caller.holder.account_id)
        })
    });
    let mut shown = view_with_seats(&state, game, &seats).await?;
    if creator {
        shown.invite = invite;
    }
    Ok(Json(shown))
}

/// The body of `POST /api/games/{id}/join` (none is needed but for an invite game).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinBody {
    /// The secret of the game's invite link.
    invite: Option<String>,
}

/// Takes the open seat of a waiting game (or the one kept for the caller); a game made
/// with `"opponent": "invite"` is joined with its invite's secret only.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    request_body(content = Option<JoinBody>, description = "`{\"invite\": \"...\"}` for an invite game; else no body, or `{}`"),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller sits in the game", body = GameView),
        (status = 400, description = "A malformed body", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The open seat is kept for another account, or the invite is wrong", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "No seat is open, or the caller sits there already", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many challenges from this account", body = ErrorBody),
    ))]
pub(crate) async fn join(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    MaybeBody(body): MaybeBody<JoinBody>,
) -> ApiResult<Json<GameView>> {
    limit_account(&state.limits.challenges_per_account, &caller)?;
    let invite = body.and_then(|body| body.invite);
    let game = take_seat(&state, &id, &caller, invite.as_deref()).await?;
    Ok(Json(view(&state, game).await?))
}

/// Seats the caller in a waiting game and tells its watchers.
async fn take_seat(
    state: &AppState,
    id: &str,
    caller: &Caller,
    invite: Option<&str>,
) -> ApiResult<StoredGame> {
    let game = state
        .store
        .join(id, caller.holder.account_id, invite)
        .await
        .map_err(|e| match e {
            JoinError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            JoinError::Full(_) | JoinError::Seated => ApiError::Conflict(e.to_string()),
            JoinError::Invited | JoinError::WrongInvite => ApiError::Forbidden(e.to_string()),
            JoinError::Storage(e) => ApiError::Internal(e),
        })?;
    after_change(state, id, Change::State).await;
    Ok(game)
}

/// Offers (or takes) the rematch of a finished game: the same game, size and clock, with the
/// colours swapped. The first player to ask makes it (201): against the AI it starts at once,
/// against a person the other seat is kept for that person, whose own call then joins it
/// (200). Asking again answers the same game (200).
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games",
    params(("id" = String, Path, description = "The finished game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The rematch offered before: the caller sits in it (joined now if it was kept for the caller)", body = GameView),
        (status = 201, description = "The rematch is offered", body = GameView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller did not play in this game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not finished, or too many games or challenges", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many challenges from this account", body = ErrorBody),
    ))]
pub(crate) async fn rematch(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let (seat, seats) = seat_of_caller(&state, &id, &caller).await?;
    let game = stored(&state, &id).await?;
    if game.status != Status::Finished {
        return Err(ApiError::Conflict(format!(
            "the game is {}: a rematch follows a finished game",
            game.status.as_str()
        )));
    }
    if let Some(existing) = &game.rematch {
        return Ok((
            StatusCode::OK,
            Json(rematch_taken(&state, existing, &caller).await?),
        ));
    }
    let against_ai = seats.iter().any(|row| row.ai_level.is_some());
    check_caps(&state, &caller, against_ai).await?;
    let position = start_of(&game)?.to_string();
    let seat_again = |index: u8| {
        let row = seats.iter().find(|row| row.seat == index);
        match row {
            _ if index == seat => Seat::Account(caller.holder.account_id),
            Some(SeatRow {
                ai_level: Some(level),
                ..
            }) => Seat::Ai(*level),
            Some(SeatRow {
                account: Some((other, _)),
                ..
            }) => Seat::Invited(*other),
            _ => Seat::Open,
        }
    };
    let secret = random_secret();
    let new_id = &secret[..16];
    let new = NewGame {
        id: new_id,
        game: &game.game,
        size: game.size,
        position: &position,
        // The colours swapped: who played second plays first.
        seats: [seat_again(1), seat_again(0)],
        clock: game.clock,
        invite: None,
    };
    let offered = state
        .store
        .offer_rematch(&id, &new)
        .await
        .map_err(|e| match e {
            MoveError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            MoveError::NotPlaying(status) => ApiError::Conflict(format!(
                "the game is {}: a rematch follows a finished game",
                status.as_str()
            )),
            MoveError::Storage(e) => ApiError::Internal(e),
            MoveError::Stale { .. } | MoveError::Refused(_) => {
                ApiError::Internal(anyhow::anyhow!("rematch: {e}"))
            }
        })?;
    if let Rematch::Existing(existing) = offered {
        // The other player offered it in the meantime.
        return Ok((
            StatusCode::OK,
            Json(rematch_taken(&state, &existing, &caller).await?),
        ));
    }
    after_change(&state, new_id, Change::State).await;
    // The finished game's watchers learn that a rematch is offered.
    state.live.announce(&state, &id, Change::State).await;
    let created = stored(&state, new_id).await?;
    Ok((StatusCode::CREATED, Json(view(&state, created).await?)))
}

/// The rematch offered before, asked for again by a player of the first game: the caller
/// joins it if its seat is kept for the caller, and sees it as it stands otherwise.
async fn rematch_taken(state: &AppState, id: &str, caller: &Caller) -> ApiResult<GameView> {
    let seats = state.store.seats(id).await?;
    let kept_for_caller = seats.iter().any(|row| {
        row.account.is_none()
            && row
                .invited
                .as_ref()
                .is_some_and(|(account, _)| *account == caller.holder.account_id)
    });
    let game = if kept_for_caller {
        limit_account(&state.limits.challenges_per_account, caller)?;
        take_seat(state, id, caller, None).await?
    } else {
        stored(state, id).await?
    };
    view(state, game).await
}

/// The caller's seat in a game: 404 for no such game, 403 `forbidden` for a caller who does
/// not sit in it (a spectator reads, never acts).
async fn seat_of_caller(
    state: &AppState,
    id: &str,
    caller: &Caller,
) -> ApiResult<(u8, Vec<SeatRow>)> {
    let seats = state.store.seats(id).await?;
    if seats.is_empty() {
        // Every game has seats: none means no game (a 404, not a 403).
        stored(state, id).await?;
    }
    let seat = seats
        .iter()
        .find(|row| {
            row.account
                .as_ref()
                .is_some_and(|(account, _)| *account == caller.holder.account_id)
        })
        .map(|row| row.seat)
        .ok_or_else(|| ApiError::Forbidden("you do not play in this game".to_owned()))?;
    Ok((seat, seats))
}

/// Resigns a game being played; before the second move, aborts it (nobody wins).
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game is over: `resigned`, or `aborted` before the second move", body = GameView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller does not play in this game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not being played", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn resign(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let (seat, _) = seat_of_caller(&state, &id, &caller).await?;
    let resigner = Player::from_index(usize::from(seat));
    let ending = |game: &StoredGame| {
        let ply = usize::try_from(game.ply).unwrap_or(usize::MAX);
        Finish::of(step::resignation(ply, resigner))
    };
    let game = state.store.resign(&id, ending).await.map_err(|e| match e {
        MoveError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
        MoveError::NotPlaying(status) => {
            ApiError::Conflict(format!("the game is {}", status.as_str()))
        }
        MoveError::Storage(e) => ApiError::Internal(e),
        MoveError::Stale { .. } | MoveError::Refused(_) => {
            ApiError::Internal(anyhow::anyhow!("resign: {e}"))
        }
    })?;
    after_change(&state, &id, Change::State).await;
    Ok(Json(view(&state, game).await?))
}

/// What the cells chosen so far make, for the player to move: the play layer's move builder
/// (`AnyPosition::draft`), so that a client that knows no game can build a move cell by cell.
#[utoipa::path(post, path = "/api/games/{id}/draft", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    request_body(content = Object, description = "`{\"cells\": [\"c3\", ...]}`, and for Scware's balancing move `\"split\": N`"),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "`verdict` (`complete` with `move`, `more`, or `refused` with `reason`), `more`, `next` (exactly the cells that lead on to a legal move; with no cells, those that start one), `actions` (`end_growth`, `pass`), `prompt`", body = Object),
        (status = 400, description = "A malformed cell or field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "`forbidden` for a caller who does not play in the game, `not_your_turn`", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not being played", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn draft(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(selection): Body<Selection>,
) -> ApiResult<Json<Draft<String>>> {
    let (seat, _) = seat_of_caller(&state, &id, &caller).await?;
    let game = stored(&state, &id).await?;
    if game.status != crate::store::Status::Playing {
        return Err(ApiError::Conflict(format!(
            "the game is {}",
            game.status.as_str()
        )));
    }
    let position = position_of(&game)?;
    if seat_of(position.to_move()) != seat {
        return Err(ApiError::NotYourTurn("it is not your turn".to_owned()));
    }
    Ok(Json(position.draft(&selection)))
}

/// The games that can be played, read from the engines: what a page offers.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Catalogue {
    /// Each game: `id`, `name`, `author`, `year`, `title`, `sizes` (every board side its
    /// engine accepts), `default_size` and `colours` (the first player's first).
    #[schema(value_type = Vec<Object>)]
    games: Vec<CatalogueEntry>,
}

/// The catalogue of games, for anyone: a page builds its game lists and forms from it.
#[utoipa::path(get, path = "/api/games/catalogue", tag = "games",
    responses(
        (status = 200, description = "Every game with its author, sizes and colours", body = Catalogue),
    ))]
pub(crate) async fn catalogue() -> Json<Catalogue> {
    Json(Catalogue {
        games: swapboard_play::catalogue(),
    })
}

/// The games waiting for the caller's move.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TurnList {
    /// The games being played in which it is the caller's turn, oldest first.
    games: Vec<GameView>,
}

/// The caller's games waiting for its move.
#[utoipa::path(get, path = "/api/me/turn", tag = "games",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The games where it is the caller's turn", body = TurnList),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
    ))]
pub(crate) async fn my_turn(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<TurnList>> {
    let mut games = Vec::new();
    for (game, seat) in state.store.playing(caller.holder.account_id).await? {
        if seat_of(position_of(&game)?.to_move()) == seat {
            games.push(view(&state, game).await?);
        }
    }
    Ok(Json(TurnList { games }))
}

/// Why the rules refused a move.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The mover's time ran out before the move came: the game ends on time instead.
    OutOfTime,
    /// The seat is not the one to move.
    NotYourTurn,
    /// The rules forbid it, or the text is not a move.
    Rules(RulesError),
    /// The stored position cannot be read.
    Corrupt(String),
}

/// The stable code of the rule a refused move breaks (`docs/RULES-CODES.md` lists them), or
/// `unreadable` for a text that is no move of this game on this board.
fn rule_code(refusal: &RulesError) -> &'static str {
    match refusal {
        RulesError::Unreadable { .. } => "unreadable",
        RulesError::Illegal { reason, .. } => reason.rule.as_str(),
    }
}

/// The play layer's judgement of a move, inside the pipeline's transaction: the clock first
/// (a move after the flag fell is too late, whatever it is), then the rules, then the clock
/// pressed for the next player; then every pass the rules force after it
/// ([`AnyPosition::play_forced_passes`]), each a ply of its own with its own press of the
/// clock, for people and the AI alike.
pub(crate) fn judge(request: MoveRequest<'_>) -> Result<Played, Refusal> {
    let mut position: AnyPosition = request
        .position
        .parse()
        .map_err(|e: swapboard_core::PositionError| Refusal::Corrupt(e.to_string()))?;
    let mover = position.to_move();
    if seat_of(mover) != request.seat {
        return Err(Refusal::NotYourTurn);
    }
    let now = Millis(u64::try_from(request.now_ms).unwrap_or(0));
    let mut clock = request.times.map(|t| t.clock(request.clock, mover));
    if clock.is_some_and(|c| c.flagged(now).is_some()) {
        return Err(Refusal::OutOfTime);
    }
    position.play_text(request.text).map_err(Refusal::Rules)?;
    if let Some(clock) = &mut clock {
        clock
            .press(position.to_move(), now)
            .map_err(|_| Refusal::OutOfTime)?;
    }
    let mut forced = Vec::new();
    position.play_forced_passes(|pass, passer| {
        // The passer's clock started at `now` and stops at once: it cannot have run out.
        if let Some(clock) = &mut clock {
            let _ = clock.press(passer.other(), now);
        }
        forced.push((seat_of(passer), pass.to_owned()));
    });
    let finish = position
        .outcome()
        .map(|outcome| Finish::of(Ending::of_outcome(outcome)));
    Ok(Played {
        forced,
        position: position.to_string(),
        finish,
        deadline_ms: clock
            .and_then(|c| c.deadline())
            .and_then(|d| i64::try_from(d.0).ok()),
        times: clock.as_ref().map(Times::of_clock),
    })
}

/// How a game whose player to move ran out of time ends ([`step::flag_fall`]: aborted
/// before the second move, else lost by that player).
pub(crate) fn finish_on_time(game: &StoredGame) -> ApiResult<Finish> {
    let ply = usize::try_from(game.ply).unwrap_or(usize::MAX);
    Ok(Finish::of(step::flag_fall(
        ply,
        position_of(game)?.to_move(),
    )))
}

/// Ends a game on time if it is still at the claim's ply and its player to move has run
/// out; tells the watchers. Whether it ended.
pub(crate) async fn end_on_time(state: &AppState, claim: &Claim) -> ApiResult<bool> {
    let Some(game) = state.store.game(&claim.game_id).await? else {
        return Ok(false);
    };
    if game.status != Status::Playing || game.ply != claim.ply {
        return Ok(false);
    }
    let position = position_of(&game)?;
    let flagged = game.times.is_some_and(|t| {
        t.clock(game.clock, position.to_move())
            .flagged(now())
            .is_some()
    });
    if !flagged {
        return Ok(false);
    }
    let ended = state
        .store
        .end_on_time(claim, finish_on_time(&game)?)
        .await?;
    if ended {
        after_change(state, &claim.game_id, Change::State).await;
    }
    Ok(ended)
}

/// Plays a move at the ply the client has seen.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "games", request_body = MoveBody,
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The move is stored (or was, by this same request before)", body = GameView),
        (status = 400, description = "A missing or malformed field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "`not_your_turn`, or `forbidden` for a caller who does not play in the game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "A stale ply, or a game not being played", body = ErrorBody),
        (status = 422, description = "`illegal_move`, with the `rule` it breaks", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many moves from this account", body = ErrorBody),
    ))]
pub(crate) async fn play(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<MoveBody>,
) -> ApiResult<Json<GameView>> {
    limit_account(&state.limits.moves_per_account, &caller)?;
    let (seat, seats) = seat_of_caller(&state, &id, &caller).await?;
    let text = body.text.trim().to_ascii_lowercase();
    let landed = state
        .store
        .play_move(&id, body.ply, seat, &text, judge)
        .await;
    if let Err(MoveError::Refused(Refusal::OutOfTime)) = landed {
        let claim = Claim {
            game_id: id.clone(),
            ply: body.ply,
        };
        end_on_time(&state, &claim).await?;
        return Err(ApiError::Conflict(
            "your time ran out before this move came: the game is over".to_owned(),
        ));
    }
    let landed = landed.map_err(|e| match e {
        MoveError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
        MoveError::NotPlaying(status) => {
            ApiError::Conflict(format!("the game is {}", status.as_str()))
        }
        MoveError::Stale { ply } => ApiError::Conflict(format!(
            "ply {} is stale: the game is at ply {ply}",
            body.ply
        )),
        MoveError::Refused(Refusal::NotYourTurn) => {
            ApiError::NotYourTurn("it is not your turn".to_owned())
        }
        MoveError::Refused(Refusal::Rules(refusal)) => ApiError::IllegalMove {
            rule: rule_code(&refusal),
            reason: refusal.to_string(),
        },
        MoveError::Refused(Refusal::Corrupt(reason)) => {
            ApiError::Internal(anyhow::anyhow!("game {id}: stored position: {reason}"))
        }
        MoveError::Refused(Refusal::OutOfTime) => {
            ApiError::Internal(anyhow::anyhow!("game {id}: a timeout handled above"))
        }
        MoveError::Storage(e) => ApiError::Internal(e),
    })?;
    let game = match landed {
        Landed::Played(game) => {
            let plies = Plies {
                before: body.ply,
                after: game.ply,
            };
            after_move(&state, &id, plies, &seats).await;
            game
        }
        Landed::Repeated(game) => game,
    };
    // The seats did not change with the move: the answer reuses them.
    Ok(Json(view_with_seats(&state, game, &seats).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponents_are_read_and_bad_ones_named() {
        assert_eq!(Opponent::try_from("open".to_owned()), Ok(Opponent::Open));
        assert_eq!(
            Opponent::try_from("invite".to_owned()),
            Ok(Opponent::Invite)
        );
        assert_eq!(Opponent::try_from("ai:8".to_owned()), Ok(Opponent::Ai(8)));
        assert_eq!(
            Opponent::try_from("user:bob".to_owned()),
            Ok(Opponent::User("bob".to_owned()))
        );
        for bad in ["ai:0", "ai:9", "ai:x", "human", ""] {
            assert!(Opponent::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_rules_refuse_moves_out_of_turn_and_illegal_ones() {
        let start = AnyPosition::start(GameId::Flipstop, 5).unwrap().to_string();
        let request = |seat, text| MoveRequest {
            position: &start,
            ply: 0,
            seat,
            text,
            clock: TimeControl::None,
            times: None,
            now_ms: 0,
        };
        assert!(matches!(judge(request(1, "c3")), Err(Refusal::NotYourTurn)));
        let Err(Refusal::Rules(unreadable)) = judge(request(0, "z9")) else {
            panic!("z9 is no cell of a side-5 board");
        };
        assert_eq!(rule_code(&unreadable), "unreadable");
        let played = judge(request(0, "c3")).unwrap();
        assert_ne!(played.position, start);
        let after = MoveRequest {
            position: &played.position,
            ply: 1,
            seat: 1,
            text: "c3",
            clock: TimeControl::None,
            times: None,
            now_ms: 0,
        };
        let Err(Refusal::Rules(illegal)) = judge(after) else {
            panic!("c3 is taken");
        };
        assert_eq!(rule_code(&illegal), "occupied");
    }
}
