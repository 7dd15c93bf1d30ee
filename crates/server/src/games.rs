//! Two-player games: creating, joining, watching and moving. The rules are the play layer's
//! ([`AnyPosition`]): the server knows no game of its own.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use swapboard_core::{MoveError as RulesError, Player};
use swapboard_play::{AnyPosition, Draft, GameId, Millis, Selection, TimeControl};
use utoipa::ToSchema;

use crate::app::AppState;
use crate::auth::{Caller, random_secret};
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::live::Change;
use crate::store::{
    Claim, Finish, JoinError, Landed, MoveError, MoveRequest, NewGame, Played, Seat, SeatRow,
    Status, StoredGame, Termination, Times, now_ms,
};

/// Who the creator plays against: `ai:L` (level 1-8), `open` or `user:NAME`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
enum Opponent {
    Ai(u8),
    Open,
    User(String),
}

impl TryFrom<String> for Opponent {
    type Error = String;

    fn try_from(text: String) -> Result<Opponent, String> {
        if text == "open" {
            return Ok(Opponent::Open);
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
            "{text:?}: expected \"ai:L\" (1-8), \"open\" or \"user:NAME\""
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
    /// `ai:L` (level 1-8), `open` (anyone may join) or `user:NAME` (kept for that account).
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
#[derive(Debug, Serialize, ToSchema)]
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
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ResultView {
    /// The winner's name, `null` for a draw or an aborted game.
    winner: Option<String>,
    /// `rules`, `resigned`, `timeout` or `aborted`.
    termination: &'static str,
}

/// The players' clocks as they stand when the game is read.
#[derive(Debug, Serialize, ToSchema)]
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
    let left = |player| {
        if playing {
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

/// A two-player game, as `spec/API.md` shows it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct GameView {
    /// The game's id.
    id: String,
    /// The game's name (`swaptimum`, ...).
    game: String,
    /// The board side.
    size: u32,
    /// The seats, the first player's first.
    players: Vec<PlayerView>,
    /// `waiting`, `playing` or `finished`.
    status: &'static str,
    /// The number of moves in `moves`.
    pub(crate) ply: u32,
    /// The position now, as `spec/CONTRACT.md` writes it.
    position: String,
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

/// The seat index of a player.
pub(crate) fn seat_of(player: Player) -> u8 {
    match player {
        Player::First => 0,
        Player::Second => 1,
    }
}

/// The stored position, read back; one the server wrote and cannot read is its own fault.
fn position_of(game: &StoredGame) -> ApiResult<AnyPosition> {
    game.position
        .parse()
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("game {}: stored position: {e}", game.id)))
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
    let mut moves = state.store.moves(&game.id).await?;
    // Moves are only ever added: those read after the game are its moves and maybe newer
    // ones, which belong to a later view.
    moves.truncate(usize::try_from(game.ply).unwrap_or(usize::MAX));
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
        termination: finish.termination.as_str(),
    });
    let clocks = clocks_view(&game, &position, now());
    Ok(GameView {
        clocks,
        id: game.id,
        game: game.game,
        size: game.size,
        players,
        status: game.status.as_str(),
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
    let (status, against_ai, cap) = match body.opponent {
        Opponent::Ai(_) => (Status::Playing, true, MAX_AI_GAMES),
        _ => (Status::Waiting, false, MAX_WAITING_GAMES),
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
    let opponent = match body.opponent {
        Opponent::Ai(level) => Seat::Ai(level),
        Opponent::Open => Seat::Open,
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
    };
    state.store.create_game(&new).await?;
    after_change(&state, id, Change::State).await;
    let game = stored(&state, id).await?;
    Ok((StatusCode::CREATED, Json(view(&state, game).await?)))
}

/// A game, for anyone to watch.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let game = stored(&state, &id).await?;
    Ok(Json(view(&state, game).await?))
}

/// Takes the open seat of a waiting game (or the one kept for the caller).
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller sits in the game", body = GameView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The open seat is kept for another account", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "No seat is open, or the caller sits there already", body = ErrorBody),
    ))]
pub(crate) async fn join(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let game = state
        .store
        .join(&id, caller.holder.account_id)
        .await
        .map_err(|e| match e {
            JoinError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            JoinError::Full(_) | JoinError::Seated => ApiError::Conflict(e.to_string()),
            JoinError::Invited => ApiError::Forbidden(e.to_string()),
            JoinError::Storage(e) => ApiError::Internal(e),
        })?;
    after_change(&state, &id, Change::State).await;
    Ok(Json(view(&state, game).await?))
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
    ))]
pub(crate) async fn resign(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    let (seat, _) = seat_of_caller(&state, &id, &caller).await?;
    let game = state.store.resign(&id, seat).await.map_err(|e| match e {
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
        (status = 200, description = "`verdict` (`complete` with `move`, `more`, or `refused` with `reason`), `more`, `next`, `prompt`", body = Object),
        (status = 400, description = "A malformed cell or field", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "`forbidden` for a caller who does not play in the game, `not_your_turn`", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not being played", body = ErrorBody),
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
/// pressed for the next player.
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
    let finish = position.outcome().map(|outcome| Finish {
        winner_seat: outcome.winner().map(seat_of),
        termination: Termination::Rules,
    });
    if let Some(clock) = &mut clock {
        clock
            .press(position.to_move(), now)
            .map_err(|_| Refusal::OutOfTime)?;
    }
    Ok(Played {
        position: position.to_string(),
        finish,
        deadline_ms: clock
            .and_then(|c| c.deadline())
            .and_then(|d| i64::try_from(d.0).ok()),
        times: clock.as_ref().map(Times::of_clock),
    })
}

/// How a game whose player to move ran out of time ends: aborted before the second move
/// (nobody has really begun, as a resignation then aborts too), else lost by that player.
pub(crate) fn finish_on_time(game: &StoredGame) -> ApiResult<Finish> {
    if game.ply < 2 {
        return Ok(Finish {
            winner_seat: None,
            termination: Termination::Aborted,
        });
    }
    let loser = seat_of(position_of(game)?.to_move());
    Ok(Finish {
        winner_seat: Some(1 - loser),
        termination: Termination::Timeout,
    })
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
    ))]
pub(crate) async fn play(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<MoveBody>,
) -> ApiResult<Json<GameView>> {
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
            after_change(&state, &id, Change::Move(game.ply)).await;
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
