//! The move pipeline of two-player games: a move judged by the play layer
//! ([`step::judge`]) inside the storage's transaction, the passes the rules force after it,
//! a resignation, and a game ended on time; each change then told to the AI and the
//! watchers.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use swapboard_core::{MoveError as RulesError, Player};
use swapboard_play::step::{self, Early};
use swapboard_play::{AnyPosition, Ending, Millis};
use utoipa::ToSchema;

use super::view::{
    after_change, early, game_ended, limit_account, now, seat_of_caller, view_for, view_with_seats,
};
use crate::api::GameView;
use crate::auth::Caller;
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::instruments;
use crate::live::{Change, Hub, Topic};
use crate::state::AppState;
use crate::store::{
    Bank, Claim, Finish, Landed, MoveError, MoveRequest, OnTime, Played, SeatRow, Status,
    StoredGame, Termination, Timeout, Times, seat_of,
};

/// The body of `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveBody {
    /// The move, as docs/CONTRACT.md writes it (cells in any case).
    #[serde(rename = "move")]
    text: String,
    /// The number of moves the client has seen.
    ply: u32,
}

/// After a person's move in a game with these seats: as [`after_change`], but the AI is
/// woken only where it has a seat, so a move between people costs no look for it.
async fn after_move(state: &AppState, game_id: &str, plies: Plies, seats: &[SeatRow]) {
    if seats.iter().any(|seat| seat.ai_level.is_some()) {
        state.ai.wake(game_id);
    }
    announce_plies(&state.live, game_id, plies).await;
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
/// any move): the move's transaction told every instance on PostgreSQL, so only SQLite's
/// sockets are told here ([`Hub::announce_committed`]).
pub(crate) async fn announce_plies(live: &Hub, game_id: &str, plies: Plies) {
    let topic = Topic::Game(game_id.to_owned());
    for ply in plies.before + 1..=plies.after {
        live.announce_committed(&topic, Change::Move(ply)).await;
    }
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
    let game = state
        .store
        .resign(&id, resignation(seat))
        .await
        .map_err(|e| match e {
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
    game_ended(&state, game.tournament.as_deref()).await;
    Ok(Json(view_for(&state.store, game, Some(&caller)).await?))
}

/// How a game ends when `seat` resigns it (or forfeits it): the other side wins, and before
/// the second move nobody does (the game is aborted), except in a tournament's game.
pub(crate) fn resignation(seat: u8) -> impl Fn(&StoredGame) -> Finish {
    let resigner = Player::from_index(usize::from(seat));
    move |game: &StoredGame| {
        let ply = usize::try_from(game.ply).unwrap_or(usize::MAX);
        Finish::of(step::resignation(ply, resigner, early(game)))
    }
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
pub(crate) fn rule_code(refusal: &RulesError) -> &'static str {
    match refusal {
        RulesError::Unreadable { .. } => "unreadable",
        RulesError::Illegal { reason, .. } => reason.rule.as_str(),
    }
}

/// The play layer's judgement of a move ([`step::judge`]), inside the pipeline's
/// transaction: the clock first (a move after the flag fell is too late, whatever it is),
/// then the rules, then the clock pressed for the next player; then every pass the rules
/// force after it ([`AnyPosition::play_forced_passes`]), each a ply of its own with its own
/// press of the clock, for people and the AI alike.
pub(crate) fn judge(request: MoveRequest<'_>) -> Result<Played, Refusal> {
    let position: AnyPosition = request
        .position
        .parse()
        .map_err(|e: swapboard_core::PositionError| Refusal::Corrupt(e.to_string()))?;
    let mover = position.to_move();
    if seat_of(mover) != request.seat {
        return Err(Refusal::NotYourTurn);
    }
    let now = Millis(u64::try_from(request.now_ms).unwrap_or(0));
    let clock = request.times.map(|t| t.clock(request.clock, mover));
    let ply = usize::try_from(request.ply).unwrap_or(usize::MAX);
    let moved =
        step::judge(&position, request.text, clock, ply, now, Early::Abort).map_err(|refused| {
            match refused {
                step::Refused::OutOfTime(_) => Refusal::OutOfTime,
                step::Refused::Rules(e) => Refusal::Rules(e),
            }
        })?;
    let mut position = moved.position;
    let mut clock = moved.clock.map(|(clock, _)| clock);
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

/// What a claimed deadline comes to, judged in its transaction from the game, its seats'
/// vacation banks and the time now: nothing while the player to move has time; in a
/// correspondence game they would lose on time, a save by their bank (the turn restarts
/// when they are back, if they are away on days taken on purpose; else the whole days that
/// carry the clock past now are spent, if they are left); else the end [`step::flag_fall`]
/// says (aborted before the second move unless a tournament made it, else lost on time).
pub(crate) fn on_time(
    game: &StoredGame,
    banks: &[Option<Bank>; 2],
    now_ms: i64,
) -> Result<Timeout, Refusal> {
    let position: AnyPosition = game
        .position
        .parse()
        .map_err(|e: swapboard_core::PositionError| Refusal::Corrupt(e.to_string()))?;
    let mover = position.to_move();
    let now = Millis(u64::try_from(now_ms).unwrap_or(0));
    let Some(clock) = game.times.map(|t| t.clock(game.clock, mover)) else {
        return Ok(Timeout::NotYet);
    };
    let Some(deadline) = clock.deadline().filter(|deadline| now >= *deadline) else {
        return Ok(Timeout::NotYet);
    };
    let ply = usize::try_from(game.ply).unwrap_or(usize::MAX);
    let finish = Finish::of(step::flag_fall(ply, mover, early(game)));
    let bank = banks.get(mover.index()).copied().flatten();
    if let Some(bank) = bank.filter(|_| finish.termination == Termination::Timeout) {
        let saved = match bank.away_until_ms {
            Some(until) if until > now_ms => {
                let back = Millis(u64::try_from(until).unwrap_or(0));
                Some((0, clock.resumed_at(back)))
            }
            _ => clock
                .vacation_days_needed(now)
                .filter(|days| *days <= bank.left)
                .map(|days| (days, clock.after_vacation(days))),
        };
        if let Some((days, clock)) = saved {
            let restarted = clock.deadline().unwrap_or(deadline);
            return Ok(Timeout::Vacation {
                seat: seat_of(mover),
                days,
                times: Times::of_clock(&clock),
                deadline_ms: i64::try_from(restarted.0).unwrap_or(i64::MAX),
            });
        }
    }
    Ok(Timeout::Finish {
        finish,
        deadline_ms: i64::try_from(deadline.0).unwrap_or(i64::MAX),
    })
}

/// Acts on a claimed deadline ([`on_time`]) and tells the watchers of what changed: the
/// game ended on time, or the player to move was saved by their vacation bank (logged).
pub(crate) async fn end_on_time(state: &AppState, claim: &Claim) -> ApiResult<OnTime> {
    let on_time = state
        .store
        .end_on_time(claim, state.vacation_days, on_time)
        .await
        .map_err(|e| match e {
            MoveError::NoSuchGame => ApiError::NotFound(format!("no game {:?}", claim.game_id)),
            MoveError::Storage(e) => ApiError::Internal(e),
            e => ApiError::Internal(anyhow::anyhow!("game {}: on time: {e:?}", claim.game_id)),
        })?;
    match on_time {
        OnTime::Nothing => {}
        OnTime::Ended { deadline_ms } => {
            let late = now(&state.clock)
                .0
                .saturating_sub(u64::try_from(deadline_ms).unwrap_or(0));
            instruments::flag_lag(Duration::from_millis(late));
            after_change(state, &claim.game_id, Change::State).await;
            let tournament = state.store.game(&claim.game_id).await?;
            game_ended(state, tournament.and_then(|g| g.tournament).as_deref()).await;
        }
        OnTime::Saved {
            seat,
            account_id,
            days,
        } => {
            tracing::info!(
                game = claim.game_id,
                seat,
                account_id,
                days,
                "vacation: a correspondence clock ran out and the player's bank carried it on"
            );
            after_change(state, &claim.game_id, Change::State).await;
        }
    }
    Ok(on_time)
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
    limit_account(&state.limits.moves_per_account, &caller, &state.clock)?;
    let (seat, seats) = seat_of_caller(&state, &id, &caller).await?;
    let text = body.text.trim().to_ascii_lowercase();
    let mut landed = state
        .store
        .play_move(&id, body.ply, seat, &text, judge)
        .await;
    if let Err(MoveError::Refused(Refusal::OutOfTime)) = landed {
        let claim = Claim {
            game_id: id.clone(),
            ply: body.ply,
        };
        if let OnTime::Saved { .. } = end_on_time(&state, &claim).await? {
            // The vacation bank carried the clock on: the move came in time after all.
            landed = state
                .store
                .play_move(&id, body.ply, seat, &text, judge)
                .await;
        }
        if let Err(MoveError::Refused(Refusal::OutOfTime)) = landed {
            return Err(ApiError::Conflict(
                "your time ran out before this move came: the game is over".to_owned(),
            ));
        }
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
        MoveError::Refused(Refusal::Rules(refusal)) => {
            let rule = rule_code(&refusal);
            instruments::move_offered(Some(rule), false);
            ApiError::IllegalMove {
                rule,
                reason: refusal.to_string(),
            }
        }
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
            instruments::move_offered(None, false);
            let plies = Plies {
                before: body.ply,
                after: game.ply,
            };
            after_move(&state, &id, plies, &seats).await;
            if game.status == Status::Finished {
                game_ended(&state, game.tournament.as_deref()).await;
            }
            game
        }
        Landed::Repeated(game) => game,
    };
    // The seats did not change with the move: the answer reuses them.
    Ok(Json(
        view_with_seats(&state.store, game, &seats, Some(&caller)).await?,
    ))
}

#[cfg(test)]
mod tests {
    use swapboard_play::{GameId, TimeControl};

    use super::*;

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
