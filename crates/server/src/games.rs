//! Two-player games: creating, joining, watching, drafting a move and rematches; the move
//! pipeline (judge, resign, end on time) is [`moves`]. The rules are the play layer's
//! ([`AnyPosition`]): the server knows no game of its own.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use swapboard_play::{AnyPosition, CatalogueEntry, Draft, GameId, Level, Selection, TimeControl};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::edge::{Body, MaybeBody};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::games::{MAX_AI_GAMES, MAX_WAITING_GAMES};
use crate::live::{Change, Topic};
use crate::secret::random_secret;
use crate::state::AppState;

mod challenges;
mod conditional;
mod hints;
pub(crate) mod moves;
mod socket;
pub(crate) mod view;

use crate::api::{GameView, TurnList};
use crate::store::{
    JoinError, MoveError, NewGame, Rematch, Seat, SeatRow, Status, StoredGame, seat_of,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use view::{
    after_change, limit_account, position_of, seat_of_account, seat_of_caller, start_of, stored,
    view_for, view_with_seats,
};

/// The two-player games' routes: creating, joining, moving, resigning, drafting, rematches and the catalogue, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(catalogue))
        .routes(routes!(show))
        .routes(routes!(join))
        .routes(routes!(challenges::decline))
        .routes(routes!(challenges::cancel))
        .routes(routes!(moves::play))
        .routes(routes!(moves::resign))
        .routes(routes!(conditional::set, conditional::get))
        .routes(routes!(draft))
        .routes(routes!(hints::hint))
        .routes(routes!(my_turn))
        .routes(routes!(rematch))
        .routes(routes!(socket::socket))
}

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
            let served = Level::MIN.number()..=Level::MAX_SERVED.number();
            return match level.parse::<u8>() {
                Ok(level) if served.contains(&level) => Ok(Opponent::Ai(level)),
                _ => Err(format!(
                    "{text:?}: an AI's level is {} to {}",
                    served.start(),
                    served.end()
                )),
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
    clock: TimeControl,
    /// Whether the game counts for the ratings (default: yes between two people; a game
    /// against the AI, or on a board the solver has proved from the start, never does, and
    /// asking for it is refused; between a person and a bot it counts only if both ask:
    /// `true` here and at the join).
    rated: Option<bool>,
}

/// Creates a game against the AI, open to anyone, or kept for one account.
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = CreateGame,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The game is created", body = GameView),
        (status = 400, description = "A missing or malformed field, a size the game has not", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A guest challenging a person, or a person challenging a guest", body = ErrorBody),
        (status = 404, description = "No account of the invited name", body = ErrorBody),
        (status = 409, description = "Too many games against the AI in progress, or challenges waiting", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many challenges from this account", body = ErrorBody),
    ))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CreateGame>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let game = state.offered.check(body.game)?;
    let size = checked_size(game, body.size)?;
    let position =
        AnyPosition::start(game, size).map_err(|e| ApiError::BadRequest(format!("size: {e}")))?;
    let against_ai = matches!(body.opponent, Opponent::Ai(_));
    if against_ai && body.rated == Some(true) {
        return Err(ApiError::BadRequest(
            "rated: a game against the AI is never rated".to_owned(),
        ));
    }
    let proven = proven_board(game, size, body.rated)?;
    // Whether the game is between a person and a bot, when the opponent is known now.
    let mut person_and_bot = false;
    if !against_ai {
        caller.signed_up("a game against a person")?;
    }
    check_caps(&state, &caller, against_ai).await?;
    let invite = (body.opponent == Opponent::Invite).then(random_secret);
    let opponent = match body.opponent {
        Opponent::Ai(level) => Seat::Ai(level),
        Opponent::Open | Opponent::Invite => Seat::Open,
        Opponent::User(name) => {
            let Some(login) = state.store.login_of(&name).await? else {
                return Err(ApiError::NotFound(format!("no account named {name:?}")));
            };
            if login.guest {
                return Err(ApiError::Forbidden(format!(
                    "opponent: {name:?} is a guest, who plays the AI only"
                )));
            }
            if login.account_id == caller.holder.account_id {
                return Err(ApiError::BadRequest(
                    "opponent: you cannot invite yourself".to_owned(),
                ));
            }
            let me = state.store.login_of(&caller.holder.name).await?;
            person_and_bot = me.is_some_and(|me| me.bot != login.bot);
            refuse_blocked(
                &state,
                caller.holder.account_id,
                &[(login.account_id, name)],
            )
            .await?;
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
        rated: !against_ai && !proven && body.rated.unwrap_or(!person_and_bot),
        rated_asked: body.rated == Some(true),
    };
    state.store.create_game(&new).await?;
    after_change(&state, id, Change::State).await;
    let game = stored(&state.store, id).await?;
    let mut shown = view_for(&state.store, game, Some(&caller)).await?;
    shown.invite = invite;
    Ok((StatusCode::CREATED, Json(shown)))
}

/// Whether `game` on side `size` is a board the solver has proved from the start, whose
/// games are never rated; asking for a rated game there (`rated`) is refused, naming why.
pub(crate) fn proven_board(game: GameId, size: usize, rated: Option<bool>) -> ApiResult<bool> {
    let proven = game.proven(size);
    if proven && rated == Some(true) {
        return Err(ApiError::BadRequest(format!(
            "rated: {game} on a {size}x{size} board is solved (the solver has proved who wins \
             from the start), so it is never rated"
        )));
    }
    Ok(proven)
}

/// The board side asked for (`None`: the game's usual one), if the game has it.
pub(crate) fn checked_size(game: GameId, size: Option<u32>) -> ApiResult<usize> {
    size.map_or(Ok(game.default_size()), usize::try_from)
        .ok()
        .filter(|size| game.sizes().contains(size))
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "size: {game} is played on sides {} to {}",
                game.sizes().start(),
                game.sizes().end()
            ))
        })
}

/// Refuses a challenge past the caller's rate, or past the caps on games against the AI
/// in progress (`against_ai`) or on challenges waiting.
async fn check_caps(state: &AppState, caller: &Caller, against_ai: bool) -> ApiResult<()> {
    limit_account(&state.limits.challenges_per_account, caller, &state.clock)?;
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
    let game = stored(&state.store, &id).await?;
    let invite = game.invite.clone();
    let seats = state.store.seats(&id).await?;
    // While an invite game waits, the one account seated in it is its creator.
    let creator = caller
        .as_ref()
        .is_some_and(|caller| seat_of_account(&seats, caller).is_some());
    let mut shown = view_with_seats(&state.store, game, &seats, caller.as_ref()).await?;
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
    /// `true`: the joiner asks for a rated game, which a rated challenge between a person and
    /// a bot needs from both sides (otherwise it starts unrated); no effect on other games.
    rated: Option<bool>,
}

/// Takes the open seat of a waiting game (or the one kept for the caller); a game made
/// with `"opponent": "invite"` is joined with its invite's secret only.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    request_body(content = Option<JoinBody>, description = "`{\"invite\": \"...\"}` for an invite game, `\"rated\": true` to ask for a rated game between a person and a bot; else no body, or `{}`"),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller sits in the game", body = GameView),
        (status = 400, description = "A malformed body", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The open seat is kept for another account, the invite is wrong, or a guest", body = ErrorBody),
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
    caller.signed_up("joining a game")?;
    limit_account(&state.limits.challenges_per_account, &caller, &state.clock)?;
    let (invite, rated_asked) = body.map_or((None, false), |body| {
        (body.invite, body.rated == Some(true))
    });
    let game = take_seat(&state, &id, &caller, invite.as_deref(), rated_asked).await?;
    Ok(Json(view_for(&state.store, game, Some(&caller)).await?))
}

/// Refuses a challenge, a join or a rematch between the account `me` and any of `others`
/// (by id and name) when one of the pair blocked the other (`docs/CHAT.md`).
async fn refuse_blocked(state: &AppState, me: i64, others: &[(i64, String)]) -> ApiResult<()> {
    for (other, name) in others {
        if *other != me && state.store.blocked_between(me, *other).await? {
            return Err(ApiError::Forbidden(format!(
                "opponent: you and {name} cannot play each other: one of you blocked the other"
            )));
        }
    }
    Ok(())
}

/// The accounts of a game's seats, seated or kept for, by id and name.
fn accounts_of(seats: &[SeatRow]) -> Vec<(i64, String)> {
    seats
        .iter()
        .filter_map(|row| row.account.clone().or_else(|| row.invited.clone()))
        .collect()
}

/// Seats the caller in a waiting game and tells its watchers.
async fn take_seat(
    state: &AppState,
    id: &str,
    caller: &Caller,
    invite: Option<&str>,
    rated_asked: bool,
) -> ApiResult<StoredGame> {
    let seats = state.store.seats(id).await?;
    refuse_blocked(state, caller.holder.account_id, &accounts_of(&seats)).await?;
    let game = state
        .store
        .join(id, caller.holder.account_id, invite, rated_asked)
        .await
        .map_err(|e| match e {
            JoinError::NoSuchGame => ApiError::NotFound(format!("no game {id:?}")),
            JoinError::Full(_) | JoinError::Seated | JoinError::Closed(_) => {
                ApiError::Conflict(e.to_string())
            }
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
        (status = 403, description = "The caller did not play in this game, or is a guest asking a person", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "The game is not finished (or was a challenge that never began), is a tournament's, or too many games or challenges", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many challenges from this account", body = ErrorBody),
    ))]
pub(crate) async fn rematch(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let (seat, seats) = seat_of_caller(&state, &id, &caller).await?;
    let game = stored(&state.store, &id).await?;
    if game.status != Status::Finished || game.closed.is_some() {
        return Err(ApiError::Conflict(format!(
            "the game is {}: a rematch follows a finished game",
            game.status_word(state.clock.now_ms())
        )));
    }
    if game.tournament.is_some() {
        return Err(ApiError::Conflict(
            "a tournament's game has no rematch: the tournament pairs the next".to_owned(),
        ));
    }
    if let Some(existing) = &game.rematch {
        return Ok((
            StatusCode::OK,
            Json(rematch_taken(&state, existing, &caller).await?),
        ));
    }
    let kind: GameId = game
        .game
        .parse()
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("game {id}: {e}")))?;
    state.offered.check(kind)?;
    let against_ai = seats.iter().any(|row| row.ai_level.is_some());
    if !against_ai {
        caller.signed_up("a rematch against a person")?;
    }
    refuse_blocked(&state, caller.holder.account_id, &accounts_of(&seats)).await?;
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
        rated: game.rated,
        // Its players asked for the first game (`Store::join` keeps a rematch rated).
        rated_asked: game.rated,
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
    state
        .live
        .announce(&Topic::Game(id.clone()), Change::State)
        .await;
    let created = stored(&state.store, new_id).await?;
    Ok((
        StatusCode::CREATED,
        Json(view_for(&state.store, created, Some(&caller)).await?),
    ))
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
        limit_account(&state.limits.challenges_per_account, caller, &state.clock)?;
        // A rematch keeps its first game's rating choice (`Store::join`).
        take_seat(state, id, caller, None, false).await?
    } else {
        stored(&state.store, id).await?
    };
    view_for(&state.store, game, Some(caller)).await
}

/// What the cells chosen so far make, for the player to move: the play layer's move builder
/// (`AnyPosition::draft`), so that a client that knows no game can build a move cell by cell.
#[utoipa::path(post, path = "/api/games/{id}/draft", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    request_body(content = Object, description = "`{\"cells\": [\"c3\", ...]}`, and for Scware's balancing move `\"split\": N`"),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "`verdict` (`complete` with `move`, `more`, or `refused` with `reason`), `more`, `next` (exactly the cells that lead on to a legal move; with no cells, those that start one), `actions` (`end_growth`, `pass`), `prompt`", body = Draft<String>),
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
    let position = view::position_to_move(&state, &id, seat).await?;
    Ok(Json(position.draft(&selection)))
}

/// The games that can be played, read from the engines: what a page offers.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Catalogue {
    /// Each game offered, as its engine describes it.
    games: Vec<CatalogueEntry>,
}

/// The catalogue of the games the server offers (`--games`), for anyone: a page builds its
/// game lists and forms from it.
#[utoipa::path(get, path = "/api/games/catalogue", tag = "games",
    responses(
        (status = 200, description = "Every game with its author, sizes and colours", body = Catalogue),
    ))]
pub(crate) async fn catalogue(State(state): State<AppState>) -> Json<Catalogue> {
    let mut games = swapboard_play::catalogue();
    games.retain(|entry| state.offered.has(entry.id));
    Json(Catalogue { games })
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
            games.push(view_for(&state.store, game, Some(&caller)).await?);
        }
    }
    Ok(Json(TurnList { games }))
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
}
