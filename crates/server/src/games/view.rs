//! A stored game as the API shows it, and what every games handler needs to find one and
//! its caller's seat: the parts of the games area that its handlers (`super`, `super::moves`,
//! `super::socket`) and the AI share, kept apart from them so that none imports another.

use swapboard_core::Player;
use swapboard_play::step::{self, Early};
use swapboard_play::{AnyPosition, Ending, GameId, Millis};

use crate::api::{ClocksView, GameView, PlayerView, ResultView};
use crate::auth::Caller;
use crate::clock::{Clock, rfc3339};
use crate::error::{ApiError, ApiResult};
use crate::limits::Limiter;
use crate::live::{Change, Topic};
use crate::state::AppState;
use crate::store::{SeatRow, Status, Store, StoredGame, Termination, seat_of};

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

/// What ending a game before its second move does: a tournament's game is lost (the
/// server paired it, nobody may call it off), any other is aborted.
pub(crate) fn early(game: &StoredGame) -> Early {
    if game.tournament.is_some() {
        Early::Lose
    } else {
        Early::Abort
    }
}

/// Whether a player giving the game up now calls it off (nobody wins) rather than resigns:
/// the play layer's [`step::resignation`] at the game's ply, for a game being played.
fn abortable(game: &StoredGame) -> bool {
    let ply = usize::try_from(game.ply).unwrap_or(usize::MAX);
    game.status == Status::Playing
        && step::resignation(ply, Player::First, early(game)).reason == Termination::Aborted
}

/// The server's time by `clock`, for the play layer's clocks.
pub(crate) fn now(clock: &Clock) -> Millis {
    Millis(u64::try_from(clock.now_ms()).unwrap_or(0))
}

/// What follows every committed change of a game: the AI is woken if it is to move, and
/// the watchers on every instance are told.
pub(crate) async fn after_change(state: &AppState, game_id: &str, change: Change) {
    state.ai.wake(game_id);
    state
        .live
        .announce(&Topic::Game(game_id.to_owned()), change)
        .await;
}

/// After a game a tournament made ended (and maybe completed a round, pairing the next):
/// the tournament's watchers are told. A game of no tournament (`None`) tells nobody.
pub(crate) async fn game_ended(state: &AppState, tournament: Option<&str>) {
    if let Some(id) = tournament {
        state
            .live
            .announce(&Topic::Tournament(id.to_owned()), Change::State)
            .await;
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

/// The start position of a stored game.
pub(crate) fn start_of(game: &StoredGame) -> ApiResult<AnyPosition> {
    let internal = |what: String| ApiError::Internal(anyhow::anyhow!("game {}: {what}", game.id));
    let kind: GameId = game.game.parse().map_err(|e| internal(format!("{e}")))?;
    let size = usize::try_from(game.size).map_err(|e| internal(format!("size: {e}")))?;
    AnyPosition::start(kind, size).map_err(|e| internal(format!("start: {e}")))
}

/// The game as the API shows it to anyone (no `your_seat`).
pub(crate) async fn view(store: &Store, game: StoredGame) -> ApiResult<GameView> {
    view_for(store, game, None).await
}

/// The game as the API shows it to `caller`, with their own seat.
pub(crate) async fn view_for(
    store: &Store,
    game: StoredGame,
    caller: Option<&Caller>,
) -> ApiResult<GameView> {
    let seats = store.seats(&game.id).await?;
    view_with_seats(store, game, &seats, caller).await
}

/// The seat of the caller's account among a game's seats, if it sits there.
pub(crate) fn seat_of_account(seats: &[SeatRow], caller: &Caller) -> Option<u8> {
    seats
        .iter()
        .find(|row| {
            row.account
                .as_ref()
                .is_some_and(|(account, _)| *account == caller.holder.account_id)
        })
        .map(|row| row.seat)
}

/// [`view_for`], with the game's seats already read.
pub(crate) async fn view_with_seats(
    store: &Store,
    game: StoredGame,
    seats: &[SeatRow],
    caller: Option<&Caller>,
) -> ApiResult<GameView> {
    // Moves are only ever added: the game's first `ply` moves are those of this view.
    let moves = store.moves_up_to(&game.id, game.ply).await?;
    let position = position_of(&game)?;
    let name_of = |seat: u8| {
        seats
            .iter()
            .find(|row| row.seat == seat)
            .and_then(seat_name)
    };
    let mut ratings = crate::ratings::seat_ratings(store, &game, seats).await?;
    let players = seats
        .iter()
        .map(|row| {
            let colour = position.colour_name(Player::from_index(usize::from(row.seat)));
            PlayerView {
                name: seat_name(row),
                colour: colour.chars().take(1).collect(),
                seated: row.account.is_some() || row.ai_level.is_some(),
                rating: ratings.remove(&row.seat),
                vacation_days: game
                    .vacation_days
                    .get(usize::from(row.seat))
                    .copied()
                    .unwrap_or(0),
            }
        })
        .collect();
    let seat_to_move = (game.status == crate::store::Status::Playing).then(|| position.to_move());
    let to_move = seat_to_move.and_then(|player| name_of(seat_of(player)));
    let your_seat = caller
        .and_then(|caller| seat_of_account(seats, caller))
        .map(|seat| Player::from_index(usize::from(seat)));
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
    let clocks = clocks_view(&game, &position, now(store.clock()));
    let status = game.status_word(store.now_ms()).to_owned();
    let expires_at = game
        .expires_ms
        .filter(|_| status == Status::Waiting.as_str())
        .map(rfc3339);
    Ok(GameView {
        abortable: abortable(&game),
        expires_at,
        decline_reason: game.closed_reason,
        clocks,
        // Shown by the handlers that know the caller is the creator, and by them only.
        invite: None,
        rematch: game.rematch,
        rated: game.rated,
        tournament: game.tournament,
        id: game.id,
        game: game.game,
        size: game.size,
        players,
        status,
        ply: game.ply,
        position: game.position,
        moves,
        to_move,
        seat_to_move,
        your_seat,
        result,
        clock: game.clock,
    })
}

/// The game of that id, or 404.
pub(crate) async fn stored(store: &Store, id: &str) -> ApiResult<StoredGame> {
    store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no game {id:?}")))
}

/// The stored position, read back; one the server wrote and cannot read is its own fault.
pub(crate) fn position_of(game: &StoredGame) -> ApiResult<AnyPosition> {
    game.position
        .parse()
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("game {}: stored position: {e}", game.id)))
}

/// The position of a game being played in which `seat` is to move: 409 for a game not being
/// played, `not_your_turn` for another seat (what the builder and the hints both need).
pub(crate) async fn position_to_move(
    state: &AppState,
    id: &str,
    seat: u8,
) -> ApiResult<AnyPosition> {
    let game = stored(&state.store, id).await?;
    if game.status != Status::Playing {
        return Err(ApiError::Conflict(format!(
            "the game is {}",
            game.status.as_str()
        )));
    }
    let position = position_of(&game)?;
    if seat_of(position.to_move()) != seat {
        return Err(ApiError::NotYourTurn("it is not your turn".to_owned()));
    }
    Ok(position)
}

/// Takes one of the caller's tokens from an account's limiter, or answers 429.
pub(crate) fn limit_account(limiter: &Limiter, caller: &Caller, clock: &Clock) -> ApiResult<()> {
    limiter
        .check(&caller.holder.account_id.to_string(), clock.now_ms())
        .map_err(ApiError::RateLimited)
}

/// The caller's seat in a game: 404 for no such game, 403 `forbidden` for a caller who does
/// not sit in it (a spectator reads, never acts).
pub(crate) async fn seat_of_caller(
    state: &AppState,
    id: &str,
    caller: &Caller,
) -> ApiResult<(u8, Vec<SeatRow>)> {
    let seats = state.store.seats(id).await?;
    if seats.is_empty() {
        // Every game has seats: none means no game (a 404, not a 403).
        stored(&state.store, id).await?;
    }
    let seat = seat_of_account(&seats, caller)
        .ok_or_else(|| ApiError::Forbidden("you do not play in this game".to_owned()))?;
    Ok((seat, seats))
}
