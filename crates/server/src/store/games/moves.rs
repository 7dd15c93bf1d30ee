//! The move pipeline's storage: a move checked by the rules its caller passes, inside the
//! transaction that stores it, so a move is acknowledged only once it is checked and
//! committed; the deadlines of the clocks and the scheduler's claim; a resignation; and
//! [`Store::finish_in`], the one place a game's end is written.

use std::sync::Arc;
use std::time::Instant;

use sqlx::{Any, Row as _, Transaction};
use swapboard_play::TimeControl;

use super::{Finish, MoveError, Status, StoredGame, Times, number, times_columns};
use crate::instruments;
use crate::store::pool::{
    Backend, Store, bind_notifications, move_payload, notify_calls, notify_channel,
};
use crate::store::vacation::{Bank, Reason};

/// The game as the rules see it when a move comes.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// The position before the move.
    pub position: &'a str,
    /// The number of moves played so far.
    pub ply: u32,
    /// The seat of the player sending the move.
    pub seat: u8,
    /// The move's text.
    pub text: &'a str,
    /// The time control.
    pub clock: TimeControl,
    /// The running clock, if the game has one.
    pub times: Option<Times>,
    /// When the move came, in ms since the Unix epoch.
    pub now_ms: i64,
}

/// What the rules made of an accepted move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The position after the move.
    pub position: String,
    /// Set when the move ends the game.
    pub finish: Option<Finish>,
    /// When the next player's clock runs out, in ms since the Unix epoch (`None`: no clock,
    /// or the game is over).
    pub deadline_ms: Option<i64>,
    /// The clock after the move (`None`: no clock).
    pub times: Option<Times>,
    /// The passes the rules forced after the move, each a ply of its own: the seat that
    /// passed and the move's text. Stored in the move's transaction.
    pub forced: Vec<(u8, String)>,
}

/// A move that is in the game after the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Landed {
    /// Played now.
    Played(StoredGame),
    /// The same player had sent the same move at the same ply before (a retry): nothing was
    /// played again.
    Repeated(StoredGame),
}

/// A due deadline this caller has claimed and must act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The game.
    pub game_id: String,
    /// The ply the deadline was set for: a move since makes it void.
    pub ply: u32,
}

/// What a fallen flag comes to, as the caller's play layer judges it in the transaction of
/// [`Store::end_on_time`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeout {
    /// The player to move has not run out of time (a deadline claimed early, or moved on):
    /// nothing happens.
    NotYet,
    /// The game ends so; the flag fell at `deadline_ms`.
    Finish {
        /// How it ends (a timeout, or an abort before the second move).
        finish: Finish,
        /// When the flag fell, in ms since the Unix epoch.
        deadline_ms: i64,
    },
    /// The player to move is saved by their vacation bank: their turn restarts as `times`
    /// says, until `deadline_ms`, with `days` days spent (none when they are away on days
    /// taken before).
    Vacation {
        /// The seat saved.
        seat: u8,
        /// The days spent from its account's bank.
        days: u32,
        /// The clock with the turn restarted.
        times: Times,
        /// The turn's new deadline, in ms since the Unix epoch.
        deadline_ms: i64,
    },
}

/// What [`Store::end_on_time`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnTime {
    /// Nothing: the game was not out of time, or had moved on or ended.
    Nothing,
    /// The game ended on time (or was aborted); the flag fell at `deadline_ms`.
    Ended {
        /// When the flag fell, in ms since the Unix epoch.
        deadline_ms: i64,
    },
    /// The player to move was saved by their vacation bank.
    Saved {
        /// The seat saved.
        seat: u8,
        /// Its account.
        account_id: i64,
        /// The days spent (none when the account is away on days taken before).
        days: u32,
    },
}

impl Store {
    /// Ends a game being played at a player's request, as `ending` decides from the game
    /// locked in the transaction (the play layer's `step::resignation`: storage picks no
    /// winner). Refused as [`MoveError::NoSuchGame`] or [`MoveError::NotPlaying`]: the rules
    /// have no say.
    pub async fn resign(
        &self,
        id: &str,
        ending: impl FnOnce(&StoredGame) -> Finish,
    ) -> Result<StoredGame, MoveError<std::convert::Infallible>> {
        let mut tx = self.begin_write().await?;
        let game = self.locked_game(&mut tx, id).await?;
        if game.status != Status::Playing {
            return Err(MoveError::NotPlaying(game.status));
        }
        let finish = ending(&game);
        self.finish_in(&mut tx, id, game.ply, finish).await?;
        tx.commit().await?;
        Ok(StoredGame {
            status: Status::Finished,
            finish: Some(finish),
            ..game
        })
    }

    /// The move pipeline: in one transaction, checks that the game is being played at
    /// `ply`, asks `rules` about the move, stores it at `ply` (and the passes the rules
    /// forced after it at the plies that follow) with the new position (and the next
    /// deadline), and commits; only then does it return. Two requests racing for one
    /// ply land exactly once: the game's row is locked (PostgreSQL) or the database's writer
    /// is (SQLite), and the moves' primary key `(game_id, ply)` would refuse a second row
    /// anyway. The same seat sending again the move stored at `ply` gets
    /// [`Landed::Repeated`] and nothing is played twice.
    pub async fn play_move<R>(
        &self,
        game_id: &str,
        ply: u32,
        seat: u8,
        text: &str,
        rules: impl Fn(MoveRequest<'_>) -> Result<Played, R>,
    ) -> Result<Landed, MoveError<R>> {
        // Read before the transaction (and cached once every seat is taken): who is told of
        // the move and whether the AI has a part in the game cost the move no statement.
        let seats = self.seats(game_id).await.map_err(MoveError::Storage)?;
        let mut tx = self.begin_write().await?;
        let game = self.locked_game(&mut tx, game_id).await?;
        if game.ply != ply {
            let stored =
                sqlx::query("SELECT seat, move FROM moves WHERE game_id = $1 AND ply = $2")
                    .bind(game_id)
                    .bind(i64::from(ply))
                    .fetch_optional(&mut *tx)
                    .await?;
            if let Some(stored) = stored {
                let same_seat = stored.try_get::<i64, _>(0)? == i64::from(seat);
                if same_seat && stored.try_get::<String, _>(1)? == text {
                    return Ok(Landed::Repeated(game));
                }
            }
            return Err(MoveError::Stale { ply: game.ply });
        }
        if game.status != Status::Playing {
            return Err(MoveError::NotPlaying(game.status));
        }
        let now = self.now_ms();
        let request = MoveRequest {
            position: &game.position,
            ply,
            seat,
            text,
            clock: game.clock,
            times: game.times,
            now_ms: now,
        };
        let played = rules(request).map_err(MoveError::Refused)?;
        // Every ply the request stores: the move, the passes the rules force after it and,
        // when the waiting player's plan answers it, the reply and its forced passes.
        let mut plies: Vec<(u8, String, bool)> = std::iter::once((seat, text.to_owned(), false))
            .chain(
                played
                    .forced
                    .iter()
                    .map(|(seat, pass)| (*seat, pass.clone(), false)),
            )
            .collect();
        let mut played = played;
        let mut conditional = false;
        if game.conditional {
            let after_move = ply + u32::try_from(plies.len()).unwrap_or(u32::MAX);
            let reply = if played.finish.is_none() {
                Self::conditional_reply_in(&mut tx, game_id, ply, &played.position).await?
            } else {
                None
            };
            let answered = reply.and_then(|(owner, path, reply)| {
                let request = MoveRequest {
                    position: &played.position,
                    ply: after_move,
                    seat: owner,
                    text: &reply,
                    clock: game.clock,
                    times: played.times,
                    now_ms: now,
                };
                // A reply the rules refuse now (a clock run out) drops the plan.
                rules(request)
                    .ok()
                    .map(|answer| (owner, format!("{path} {reply}"), reply, answer))
            });
            match answered {
                Some((owner, path, reply, answer)) => {
                    plies.push((owner, reply, true));
                    plies.extend(
                        answer
                            .forced
                            .iter()
                            .map(|(seat, pass)| (*seat, pass.clone(), false)),
                    );
                    played = answer;
                    conditional = played.finish.is_none()
                        && Self::keep_plan_under_in(&mut tx, game_id, &path).await?;
                }
                None => Self::drop_plan_in(&mut tx, game_id).await?,
            }
        }
        let mut next_ply = ply;
        for (seat, text, by_condition) in &plies {
            let inserted = sqlx::query(
                "INSERT INTO moves (game_id, ply, seat, move, played_ms, by_condition) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(game_id)
            .bind(i64::from(next_ply))
            .bind(i64::from(*seat))
            .bind(text.as_str())
            .bind(now)
            .bind(i64::from(*by_condition))
            .execute(&mut *tx)
            .await;
            match inserted {
                // The locks above keep a second writer out; should one get here all the
                // same, the key refuses its row and it lost the race.
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    return Err(MoveError::Stale { ply: ply + 1 });
                }
                inserted => inserted?,
            };
            next_ply += 1;
        }
        let (first, second, started) = times_columns(played.times);
        // The game's row takes the clock, the next deadline (none once it is over) and, on
        // PostgreSQL, the watchers' notification of each ply stored: one statement.
        let due = played.deadline_ms.filter(|_| played.finish.is_none());
        let announced: Vec<String> = (ply + 1..=next_ply)
            .map(|stored| move_payload(game_id, stored))
            .collect();
        let channels: Vec<String> = announced.iter().map(|p| notify_channel(p)).collect();
        let notify = match self.backend {
            Backend::Postgres => format!(" RETURNING {}", notify_calls(11, announced.len())),
            Backend::Sqlite => " RETURNING id".to_owned(),
        };
        let sql = format!(
            "UPDATE games SET ply = $1, position = $2, updated_ms = $3, \
             clock_left_first_ms = $4, clock_left_second_ms = $5, turn_started_ms = $6, \
             due_ms = $9, claimed_until_ms = NULL, conditional = $10 WHERE id = $7 AND ply = $8{notify}"
        );
        let mut update = sqlx::query(&sql)
            .bind(i64::from(next_ply))
            .bind(&played.position)
            .bind(now)
            .bind(first)
            .bind(second)
            .bind(started)
            .bind(game_id)
            .bind(i64::from(ply))
            .bind(due)
            .bind(i64::from(conditional));
        if self.backend == Backend::Postgres {
            update = bind_notifications(update, &channels, &announced);
        }
        let updated = update.fetch_all(&mut *tx).await?;
        if updated.len() != 1 {
            return Err(MoveError::Stale { ply: game.ply });
        }
        let status = match played.finish {
            Some(finish) => {
                self.finish_in(&mut tx, game_id, next_ply, finish).await?;
                Status::Finished
            }
            None => Status::Playing,
        };
        let with_ai = seats.iter().any(|row| row.ai_level.is_some());
        if with_ai {
            Self::finish_ai_jobs_in(&mut tx, game_id, next_ply).await?;
        }
        if status == Status::Playing {
            let last_seat = plies.last().map_or(seat, |(mover, _, _)| *mover);
            let to_move = last_seat ^ 1;
            self.your_turn_in(&mut tx, &game, &seats, to_move, next_ply)
                .await?;
            if with_ai {
                self.enqueue_ai_job_in(&mut tx, game_id, next_ply, to_move)
                    .await?;
            }
        }
        // Real time, not the server's clock: the commit's duration, for the metrics.
        let committing = Instant::now();
        tx.commit().await?;
        instruments::commit(committing.elapsed());
        let stored_before = usize::try_from(ply).unwrap_or(usize::MAX);
        self.caches.moves.update(game_id, |moves| {
            if moves.len() == stored_before {
                let moves = Arc::make_mut(moves);
                moves.extend(plies.iter().map(|(_, text, _)| text.clone()));
            }
        });
        Ok(Landed::Played(StoredGame {
            status,
            ply: next_ply,
            position: played.position,
            finish: played.finish,
            times: played.times,
            conditional,
            ..game
        }))
    }

    /// The scheduler's claim: marks up to `limit` deadlines due at `now_ms` as this caller's
    /// until `lease_until_ms` and returns them. Claims never overlap, on any number of
    /// instances: PostgreSQL skips the rows another claimer holds (`FOR UPDATE SKIP
    /// LOCKED`); SQLite runs one write at a time. A claim not acted on (its instance died)
    /// is due again once its lease has passed.
    pub async fn claim_due_deadlines(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> anyhow::Result<Vec<Claim>> {
        let skip_locked = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let rows = sqlx::query(&format!(
            "UPDATE games SET claimed_until_ms = $1 WHERE id IN \
             (SELECT id FROM games WHERE due_ms <= $2 \
              AND (claimed_until_ms IS NULL OR claimed_until_ms <= $2) \
              ORDER BY due_ms LIMIT $3{skip_locked}) \
             RETURNING id AS game_id, ply"
        ))
        .bind(lease_until_ms)
        .bind(now_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Claim {
                    game_id: row.try_get("game_id")?,
                    ply: number(row, "ply")?,
                })
            })
            .collect()
    }

    /// Acts on a claimed deadline, in one transaction: if the game is still being played
    /// at the claim's ply, `judge` (the caller's play layer) says from the game locked here,
    /// its seats' vacation banks (of `allowance` days a year) and the time now what the
    /// fallen flag comes to: nothing (not out of time), the game's end (written by
    /// `Store::finish_in`), or the player to move saved by their bank: the turn restarts
    /// later, the days are spent and logged, and the deadline moves, all with the save.
    pub async fn end_on_time<R>(
        &self,
        claim: &Claim,
        allowance: u32,
        judge: impl FnOnce(&StoredGame, &[Option<Bank>; 2], i64) -> Result<Timeout, R>,
    ) -> Result<OnTime, MoveError<R>> {
        let mut tx = self.begin_write().await?;
        let game = self.locked_game(&mut tx, &claim.game_id).await?;
        let current = game.status == Status::Playing && game.ply == claim.ply;
        let now = self.now_ms();
        let (timeout, banks) = if current {
            let banks = Self::banks_in(&mut tx, &claim.game_id, allowance, now).await?;
            (
                judge(&game, &banks, now).map_err(MoveError::Refused)?,
                banks,
            )
        } else {
            (Timeout::NotYet, [None; 2])
        };
        let on_time = match timeout {
            // A void claim leaves the game's deadline as it is: a move since set the next
            // one (and cleared the claim), an end removed it.
            Timeout::NotYet => OnTime::Nothing,
            Timeout::Finish {
                finish,
                deadline_ms,
            } => {
                self.finish_in(&mut tx, &claim.game_id, claim.ply, finish)
                    .await?;
                OnTime::Ended { deadline_ms }
            }
            Timeout::Vacation {
                seat,
                days,
                times,
                deadline_ms,
            } => {
                let account_id = banks
                    .get(usize::from(seat))
                    .copied()
                    .flatten()
                    .map(|bank| bank.account_id)
                    .ok_or_else(|| anyhow::anyhow!("seat {seat} has no vacation bank"))?;
                let spent = if seat == 0 {
                    "vacation_first"
                } else {
                    "vacation_second"
                };
                sqlx::query(&format!(
                    "UPDATE games SET turn_started_ms = $1, {spent} = {spent} + $2, \
                     due_ms = $3, claimed_until_ms = NULL WHERE id = $4 AND ply = $5"
                ))
                .bind(times.turn_started_ms)
                .bind(i64::from(days))
                .bind(deadline_ms)
                .bind(&claim.game_id)
                .bind(i64::from(claim.ply))
                .execute(&mut *tx)
                .await?;
                if days > 0 {
                    Self::spend_vacation_in(
                        &mut tx,
                        account_id,
                        Some(&claim.game_id),
                        days,
                        Reason::Clock,
                        now,
                    )
                    .await?;
                }
                OnTime::Saved {
                    seat,
                    account_id,
                    days,
                }
            }
        };
        tx.commit().await?;
        Ok(on_time)
    }

    /// THE place where a game's end is written, whatever ended it (the rules after a move,
    /// a resignation or abort, a fallen flag): in `tx`, the transaction of the event that
    /// ended it, the game at `ply` and still being played becomes finished as `finish`
    /// says, and its deadline goes. Storage picks no winner: `finish` is what the caller's
    /// play layer decided. What follows a game's end (a rating, a tournament's next pairing,
    /// a notification) is written here, once, so it commits or fails with the end itself.
    /// Whether the game ended now (`false`: it had moved on or ended before).
    pub(crate) async fn finish_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        ply: u32,
        finish: Finish,
    ) -> anyhow::Result<bool> {
        let now = self.now_ms();
        let ended = sqlx::query(
            "UPDATE games SET status = 'finished', winner_seat = $1, termination = $2, \
             updated_ms = $3, due_ms = NULL, claimed_until_ms = NULL \
             WHERE id = $4 AND ply = $5 AND status = 'playing'",
        )
        .bind(finish.winner_seat.map(i64::from))
        .bind(finish.termination.as_str())
        .bind(now)
        .bind(game_id)
        .bind(i64::from(ply))
        .execute(&mut **tx)
        .await?;
        if ended.rows_affected() != 1 {
            return Ok(false);
        }
        // The status guard above lets this run once per game.
        super::super::ratings::on_game_end(tx, self.backend, game_id, finish, now).await?;
        super::super::tournament_rounds::on_game_end(self, tx, game_id, finish, now).await?;
        self.game_ended_in(tx, game_id, finish).await?;
        Ok(true)
    }
}
