//! The games' storage: games and seats as stored, creating, joining and reading them, and
//! rematches. The move pipeline's transaction, the deadline scheduler's claim and the one
//! place a game's end is written are in [`moves`]; the stored values and errors in `types`.
//!
//! The rules are not here: a move is checked by a function the caller passes (the play
//! layer's, once the game endpoints exist), called inside the transaction that stores it, so
//! a move is acknowledged only once it is checked and committed.

use std::sync::Arc;

use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};
pub use swapboard_play::Termination;
use swapboard_play::{AnyPosition, Clock, Millis, TimeControl};

use super::pool::{Backend, Store};
pub(super) use super::rows::SeatRow;
use crate::clock::millis;
use crate::limits::games::{CHALLENGE_TTL, LIVE_CHALLENGE_TTL};
use crate::limits::instances::SEATS_TTL;

mod conditional;
pub(super) mod moves;
mod types;

use crate::secret::same_secret;
pub use types::{
    Closed, Finish, JoinError, MoveError, NewGame, Rematch, Seat, Status, StoredGame, Times,
    seat_of,
};

/// The clock of a game that starts now, and its first deadline; `None` without a clock.
fn starting_clock(
    position: &str,
    control: TimeControl,
    now: i64,
) -> anyhow::Result<Option<(Times, i64)>> {
    if control == TimeControl::None {
        return Ok(None);
    }
    let position: AnyPosition = position
        .parse()
        .map_err(|e| anyhow::anyhow!("games.position: {e}"))?;
    let clock = Clock::new(
        control,
        position.to_move(),
        Millis(u64::try_from(now).unwrap_or(0)),
    );
    let deadline = clock
        .deadline()
        .and_then(|d| i64::try_from(d.0).ok())
        .unwrap_or(i64::MAX);
    Ok(Some((Times::of_clock(&clock), deadline)))
}

const GAME_COLUMNS: &str = "id, game, size, status, ply, position, winner_seat, termination, \
                            clock_days, clock_initial_ms, clock_increment_ms, \
                            clock_left_first_ms, clock_left_second_ms, turn_started_ms, \
                            created_ms, invite, rematch_id, rated, tournament_id, vacation_first, vacation_second, \
                            closed, closed_reason, expires_ms, conditional";

/// [`GAME_COLUMNS`] of a query in which the games table is `g`.
pub(super) fn prefixed_game_columns() -> String {
    GAME_COLUMNS
        .split(',')
        .map(|column| format!("g.{}", column.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The columns a time control is stored in: days per move, initial and increment ms.
pub(super) fn clock_columns(clock: TimeControl) -> (Option<i64>, Option<i64>, Option<i64>) {
    let ms = |value: u64| i64::try_from(value).ok();
    match clock {
        TimeControl::None => (None, None, None),
        TimeControl::Correspondence { days_per_move } => {
            (Some(i64::from(days_per_move)), None, None)
        }
        TimeControl::Live {
            initial_ms,
            increment_ms,
        } => (None, ms(initial_ms), ms(increment_ms)),
    }
}

pub(super) fn clock_of_row(row: &AnyRow) -> anyhow::Result<TimeControl> {
    let days: Option<i64> = row.try_get("clock_days")?;
    let initial: Option<i64> = row.try_get("clock_initial_ms")?;
    let increment: Option<i64> = row.try_get("clock_increment_ms")?;
    let unsigned = |value: i64, column: &str| {
        u64::try_from(value).map_err(|_| anyhow::anyhow!("games.{column}: {value} is negative"))
    };
    Ok(match (days, initial, increment) {
        (Some(days), _, _) => TimeControl::Correspondence {
            days_per_move: u32::try_from(days)
                .map_err(|_| anyhow::anyhow!("games.clock_days: {days} is out of range"))?,
        },
        (None, Some(initial), Some(increment)) => TimeControl::Live {
            initial_ms: unsigned(initial, "clock_initial_ms")?,
            increment_ms: unsigned(increment, "clock_increment_ms")?,
        },
        _ => TimeControl::None,
    })
}

fn times_of_row(row: &AnyRow) -> anyhow::Result<Option<Times>> {
    let first: Option<i64> = row.try_get("clock_left_first_ms")?;
    let second: Option<i64> = row.try_get("clock_left_second_ms")?;
    let started: Option<i64> = row.try_get("turn_started_ms")?;
    let unsigned = |value: i64| {
        u64::try_from(value).map_err(|_| anyhow::anyhow!("games.clock_left: {value} is negative"))
    };
    Ok(match (first, second, started) {
        (Some(first), Some(second), Some(turn_started_ms)) => Some(Times {
            left_ms: [unsigned(first)?, unsigned(second)?],
            turn_started_ms,
        }),
        _ => None,
    })
}

/// The columns a running clock is stored in.
fn times_columns(times: Option<Times>) -> (Option<i64>, Option<i64>, Option<i64>) {
    let ms = |value: u64| i64::try_from(value).unwrap_or(i64::MAX);
    match times {
        Some(t) => (
            Some(ms(t.left_ms[0])),
            Some(ms(t.left_ms[1])),
            Some(t.turn_started_ms),
        ),
        None => (None, None, None),
    }
}

fn named(row: &AnyRow, id: &str, name: &str) -> anyhow::Result<Option<(i64, String)>> {
    let id: Option<i64> = row.try_get(id)?;
    let name: Option<String> = row.try_get(name)?;
    Ok(id.zip(name))
}

fn number<T: TryFrom<i64>>(row: &AnyRow, column: &str) -> anyhow::Result<T> {
    let value: i64 = row.try_get(column)?;
    T::try_from(value).map_err(|_| anyhow::anyhow!("games.{column}: {value} is out of range"))
}

pub(super) fn game_of_row(row: &AnyRow) -> anyhow::Result<StoredGame> {
    let termination: Option<String> = row.try_get("termination")?;
    let winner: Option<i64> = row.try_get("winner_seat")?;
    let finish = termination
        .map(|text| -> anyhow::Result<Finish> {
            Ok(Finish {
                winner_seat: winner.map(u8::try_from).transpose()?,
                termination: text
                    .parse()
                    .map_err(|e: String| anyhow::anyhow!("games.termination: {e}"))?,
            })
        })
        .transpose()?;
    Ok(StoredGame {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        size: number(row, "size")?,
        status: Status::parse(&row.try_get::<String, _>("status")?)?,
        ply: number(row, "ply")?,
        position: row.try_get("position")?,
        finish,
        clock: clock_of_row(row)?,
        times: times_of_row(row)?,
        created_ms: row.try_get("created_ms")?,
        invite: row.try_get("invite")?,
        rematch: row.try_get("rematch_id")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        tournament: row.try_get("tournament_id")?,
        vacation_days: [
            number(row, "vacation_first")?,
            number(row, "vacation_second")?,
        ],
        closed: row
            .try_get::<Option<String>, _>("closed")?
            .as_deref()
            .map(Closed::parse)
            .transpose()?,
        closed_reason: row.try_get("closed_reason")?,
        expires_ms: row.try_get("expires_ms")?,
        conditional: row.try_get::<i64, _>("conditional")? != 0,
    })
}

impl Store {
    /// Reads a game inside a write transaction, its row locked until the commit on
    /// PostgreSQL (on SQLite the write transaction already holds the database's writer).
    pub(super) async fn locked_game<R>(
        &self,
        tx: &mut Transaction<'static, Any>,
        id: &str,
    ) -> Result<StoredGame, MoveError<R>> {
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE id = $1{lock}"
        ))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
        let Some(row) = row else {
            return Err(MoveError::NoSuchGame);
        };
        Ok(game_of_row(&row)?)
    }

    /// Starts the clock of a game that begins now (every seat taken): its times and its
    /// first deadline, in the transaction that starts it.
    async fn start_clock(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        position: &str,
        control: TimeControl,
        now: i64,
    ) -> anyhow::Result<Option<Times>> {
        let Some((times, due)) = starting_clock(position, control, now)? else {
            return Ok(None);
        };
        let (first, second, started) = times_columns(Some(times));
        sqlx::query(
            "UPDATE games SET clock_left_first_ms = $1, clock_left_second_ms = $2, \
             turn_started_ms = $3, due_ms = $4, claimed_until_ms = NULL WHERE id = $5",
        )
        .bind(first)
        .bind(second)
        .bind(started)
        .bind(due)
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
        Ok(Some(times))
    }

    /// Stores a new game and its seats.
    pub async fn create_game(&self, new: &NewGame<'_>) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        self.insert_game(&mut tx, new, false).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Inserts a new game and its seats in a transaction, its clock started if no seat
    /// waits for a player; the accounts seats are kept for are told of a challenge, or of
    /// a `rematch`.
    pub(super) async fn insert_game(
        &self,
        tx: &mut Transaction<'static, Any>,
        new: &NewGame<'_>,
        rematch: bool,
    ) -> anyhow::Result<()> {
        let now = self.now_ms();
        let waiting = new
            .seats
            .iter()
            .any(|seat| matches!(seat, Seat::Open | Seat::Invited(_)));
        let status = if waiting {
            Status::Waiting
        } else {
            Status::Playing
        };
        let (days, initial, increment) = clock_columns(new.clock);
        let waits_for = match new.clock {
            TimeControl::Live { .. } => LIVE_CHALLENGE_TTL,
            TimeControl::None | TimeControl::Correspondence { .. } => CHALLENGE_TTL,
        };
        let expires = waiting.then(|| now.saturating_add(millis(waits_for)));
        sqlx::query(
            "INSERT INTO games (id, game, size, status, ply, position, created_ms, updated_ms, \
             clock_days, clock_initial_ms, clock_increment_ms, invite, rated, expires_ms, \
             rated_asked) VALUES ($1, $2, $3, $4, 0, $5, $6, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(new.id)
        .bind(new.game)
        .bind(i64::from(new.size))
        .bind(status.as_str())
        .bind(new.position)
        .bind(now)
        .bind(days)
        .bind(initial)
        .bind(increment)
        .bind(new.invite)
        .bind(i64::from(new.rated))
        .bind(expires)
        .bind(i64::from(new.rated_asked))
        .execute(&mut **tx)
        .await?;
        for (index, seat) in (0i64..).zip(new.seats) {
            let (account, ai, invited) = match seat {
                Seat::Account(id) => (Some(id), None, None),
                Seat::Ai(level) => (None, Some(i64::from(level)), None),
                Seat::Open => (None, None, None),
                Seat::Invited(id) => (None, None, Some(id)),
            };
            sqlx::query(
                "INSERT INTO seats (game_id, seat, account_id, ai_level, invited_id) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(new.id)
            .bind(index)
            .bind(account)
            .bind(ai)
            .bind(invited)
            .execute(&mut **tx)
            .await?;
        }
        if status == Status::Playing {
            Self::start_clock(tx, new.id, new.position, new.clock, now).await?;
        }
        self.invited_in(tx, new.id, rematch).await?;
        Ok(())
    }

    /// Offers the rematch of a finished game: in one transaction that locks the game,
    /// stores `new` and links it as the game's rematch, unless the game has one already
    /// (then nothing is stored and that one is returned). Refused with
    /// [`MoveError::NoSuchGame`] or [`MoveError::NotPlaying`] for a game not finished.
    pub async fn offer_rematch(
        &self,
        id: &str,
        new: &NewGame<'_>,
    ) -> Result<Rematch, MoveError<std::convert::Infallible>> {
        let mut tx = self.begin_write().await?;
        let game = self.locked_game(&mut tx, id).await?;
        if game.status != Status::Finished {
            return Err(MoveError::NotPlaying(game.status));
        }
        if let Some(existing) = game.rematch {
            return Ok(Rematch::Existing(existing));
        }
        self.insert_game(&mut tx, new, true).await?;
        sqlx::query("UPDATE games SET rematch_id = $1, updated_ms = $2 WHERE id = $3")
            .bind(new.id)
            .bind(self.now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Rematch::Created)
    }

    /// The game of that id.
    pub async fn game(&self, id: &str) -> anyhow::Result<Option<StoredGame>> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(game_of_row).transpose()
    }

    /// The seats of a game, in order, with the names of the accounts in them.
    ///
    /// The seats of a game whose every seat is taken never change again: they are kept in
    /// memory and read once.
    pub async fn seats(&self, id: &str) -> anyhow::Result<Vec<SeatRow>> {
        if let Some((seats, until)) = self.caches.seats.get(id)
            && self.now_ms() < until
        {
            return Ok(seats.to_vec());
        }
        let seats = self.read_seats(id).await?;
        let full = !seats.is_empty()
            && seats
                .iter()
                .all(|seat| seat.account.is_some() || seat.ai_level.is_some());
        if full {
            self.caches.seats.insert(
                id.to_owned(),
                (
                    seats.as_slice().into(),
                    self.now_ms().saturating_add(millis(SEATS_TTL)),
                ),
            );
        }
        Ok(seats)
    }

    /// The seats of a game, read from the database.
    async fn read_seats(&self, id: &str) -> anyhow::Result<Vec<SeatRow>> {
        let rows = sqlx::query(
            "SELECT s.seat, s.account_id, a.name AS account_name, s.ai_level, s.invited_id, \
             i.name AS invited_name FROM seats s \
             LEFT JOIN accounts a ON a.id = s.account_id \
             LEFT JOIN accounts i ON i.id = s.invited_id \
             WHERE s.game_id = $1 ORDER BY s.seat",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let ai: Option<i64> = row.try_get("ai_level")?;
                Ok(SeatRow {
                    seat: number(row, "seat")?,
                    account: named(row, "account_id", "account_name")?,
                    ai_level: ai.map(u8::try_from).transpose()?,
                    invited: named(row, "invited_id", "invited_name")?,
                })
            })
            .collect()
    }

    /// Seats `account_id` in the first empty seat of a waiting game that is open to it (open
    /// to anyone, or kept for it); the game starts once no seat is empty. Two joiners racing
    /// for one seat: the row update's condition lets exactly one in.
    ///
    /// A game with an invite link is joined only with its `invite`, compared in constant
    /// time; the secret is forgotten once the game starts.
    ///
    /// A rated game that starts between a person and a bot stays rated only if both asked
    /// for it: its challenger in so many words and the joiner (`rated_asked`), or it is the
    /// rematch of such a game; otherwise it starts unrated (issue 49: a person never meets a
    /// bot's rating by default).
    pub async fn join(
        &self,
        id: &str,
        account_id: i64,
        invite: Option<&str>,
        rated_asked: bool,
    ) -> Result<StoredGame, JoinError> {
        let mut tx = self.begin_write().await?;
        let game = match self
            .locked_game::<std::convert::Infallible>(&mut tx, id)
            .await
        {
            Ok(game) => game,
            Err(MoveError::NoSuchGame) => return Err(JoinError::NoSuchGame),
            Err(e) => return Err(JoinError::Storage(anyhow::anyhow!("{e}"))),
        };
        if let Some(closed) = game.closed {
            return Err(JoinError::Closed(closed));
        }
        if game.status != Status::Waiting {
            return Err(JoinError::Full(game.status));
        }
        if game.expired_at(self.now_ms()) {
            return Err(JoinError::Closed(Closed::Expired));
        }
        let seated = sqlx::query("SELECT 1 FROM seats WHERE game_id = $1 AND account_id = $2")
            .bind(id)
            .bind(account_id)
            .fetch_optional(&mut *tx)
            .await?;
        if seated.is_some() {
            return Err(JoinError::Seated);
        }
        if let Some(secret) = &game.invite
            && !invite.is_some_and(|given| same_secret(given, secret))
        {
            return Err(JoinError::WrongInvite);
        }
        let taken = sqlx::query(
            "UPDATE seats SET account_id = $1, invited_id = NULL WHERE game_id = $2 AND seat = \
             (SELECT MIN(seat) FROM seats WHERE game_id = $2 AND account_id IS NULL \
              AND ai_level IS NULL AND (invited_id IS NULL OR invited_id = $1))",
        )
        .bind(account_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(JoinError::Invited);
        }
        let empty = sqlx::query(
            "SELECT 1 FROM seats WHERE game_id = $1 AND account_id IS NULL AND ai_level IS NULL",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let status = if empty.is_some() {
            Status::Waiting
        } else {
            Status::Playing
        };
        let now = self.now_ms();
        // A started game keeps no invite: the link has done its work.
        let invite = match status {
            Status::Waiting => game.invite.clone(),
            _ => None,
        };
        let rated = game.rated
            && (status == Status::Waiting || Self::both_asked(&mut tx, id, rated_asked).await?);
        // A started game no longer expires.
        sqlx::query(
            "UPDATE games SET status = $1, updated_ms = $2, invite = $3, rated = $4, \
             expires_ms = CASE WHEN $1 = 'waiting' THEN expires_ms END WHERE id = $5",
        )
        .bind(status.as_str())
        .bind(now)
        .bind(invite.as_deref())
        .bind(i64::from(rated))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let times = if status == Status::Playing {
            Self::start_clock(&mut tx, id, &game.position, game.clock, now).await?
        } else {
            None
        };
        tx.commit().await?;
        Ok(StoredGame {
            status,
            times,
            invite,
            rated,
            ..game
        })
    }

    /// Whether the rated game `id`, whose seats are now all taken, may stay rated: yes
    /// unless it is between a person and a bot; then only if its challenger asked for a
    /// rated game in so many words and its joiner did too (`joiner_asked`), or it is the
    /// rematch of such a game (its players asked for the first).
    async fn both_asked(
        tx: &mut Transaction<'static, Any>,
        id: &str,
        joiner_asked: bool,
    ) -> anyhow::Result<bool> {
        let bots = sqlx::query(
            "SELECT a.bot FROM seats s JOIN accounts a ON a.id = s.account_id \
             WHERE s.game_id = $1",
        )
        .bind(id)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| row.try_get::<i64, _>("bot"))
        .collect::<sqlx::Result<Vec<_>>>()?;
        let mixed = bots.len() == 2 && bots.iter().filter(|&&bot| bot != 0).count() == 1;
        if !mixed {
            return Ok(true);
        }
        let asked = sqlx::query(
            "SELECT g.rated_asked, (SELECT COUNT(*) FROM games p WHERE p.rematch_id = g.id) \
             AS rematches FROM games g WHERE g.id = $1",
        )
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
        let challenger: i64 = asked.try_get("rated_asked")?;
        let rematches: i64 = asked.try_get("rematches")?;
        Ok(rematches > 0 || (challenger != 0 && joiner_asked))
    }

    /// The games being played in which the account sits, with its seat in each, oldest
    /// first.
    pub async fn playing(&self, account_id: i64) -> anyhow::Result<Vec<(StoredGame, u8)>> {
        let columns = prefixed_game_columns();
        let rows = sqlx::query(&format!(
            "SELECT {columns}, s.seat FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.account_id = $1 AND g.status = 'playing' ORDER BY g.created_ms, g.id"
        ))
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((game_of_row(row)?, number(row, "seat")?)))
            .collect()
    }

    /// The games being played with an AI seat: those a starting server looks at to resume
    /// the AI's turns.
    pub async fn games_with_ai(&self) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.ai_level IS NOT NULL AND g.status = 'playing' ORDER BY g.updated_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()?)
    }

    /// Up to `limit` games of a status, most recently changed first: the lobby's lists.
    /// Games waiting for the holder of an invite link are not listed.
    pub async fn recent_games(
        &self,
        status: Status,
        limit: u32,
    ) -> anyhow::Result<Vec<StoredGame>> {
        // A waiting game is listed while it may be joined by anyone: not expired, and no
        // seat kept for one account (a direct challenge is that account's alone).
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status = $1 AND invite IS NULL \
             AND (expires_ms IS NULL OR expires_ms > $3) AND NOT EXISTS \
             (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.invited_id IS NOT NULL) \
             ORDER BY updated_ms DESC, id LIMIT $2"
        ))
        .bind(status.as_str())
        .bind(i64::from(limit))
        .bind(self.now_ms())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_of_row).collect()
    }

    /// How many games the account sits in with this status, counting only games against
    /// the AI when `against_ai` (the caps on open and AI games per account).
    pub async fn count_games(
        &self,
        account_id: i64,
        status: Status,
        against_ai: bool,
    ) -> anyhow::Result<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.account_id = $1 AND g.status = $2 AND ($3 = 0 OR EXISTS \
             (SELECT 1 FROM seats o WHERE o.game_id = g.id AND o.ai_level IS NOT NULL))",
        )
        .bind(account_id)
        .bind(status.as_str())
        .bind(i64::from(against_ai))
        .fetch_one(&self.pool)
        .await?;
        let count: i64 = row.try_get(0)?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    /// The moves of the latest `limit` games of one game and size that ended by their play
    /// (called-off games have nothing to learn from), the most recently ended first: what
    /// `swapboard puzzles generate --database` examines.
    pub async fn finished_moves(
        &self,
        game: &str,
        size: u32,
        limit: u32,
    ) -> anyhow::Result<Vec<Vec<String>>> {
        let rows = sqlx::query(
            "SELECT m.game_id, m.move FROM moves m JOIN games g ON g.id = m.game_id \
             WHERE g.id IN (SELECT id FROM games WHERE game = $1 AND size = $2 \
                 AND status = 'finished' AND termination <> 'aborted' \
                 ORDER BY updated_ms DESC LIMIT $3) \
             ORDER BY g.updated_ms DESC, m.game_id, m.ply",
        )
        .bind(game)
        .bind(i64::from(size))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut games: Vec<(String, Vec<String>)> = Vec::new();
        for row in rows {
            let id: String = row.try_get(0)?;
            let mv: String = row.try_get(1)?;
            match games.last_mut() {
                Some((last, moves)) if *last == id => moves.push(mv),
                _ => games.push((id, vec![mv])),
            }
        }
        Ok(games.into_iter().map(|(_, moves)| moves).collect())
    }

    /// The moves of a game, in order.
    pub async fn moves(&self, id: &str) -> anyhow::Result<Vec<String>> {
        Ok(self.read_moves(id).await?)
    }

    /// The first `ply` moves of a game (fewer if it has fewer). A move at a ply never
    /// changes, so the moves read are kept in memory and each played move is added: an
    /// answer to a move reads none.
    pub async fn moves_up_to(&self, id: &str, ply: u32) -> anyhow::Result<Vec<String>> {
        let wanted = usize::try_from(ply).unwrap_or(usize::MAX);
        let moves = match self.caches.moves.get(id) {
            Some(moves) if moves.len() >= wanted => moves,
            _ => {
                let moves = Arc::new(self.read_moves(id).await?);
                self.caches.moves.insert(id.to_owned(), Arc::clone(&moves));
                moves
            }
        };
        Ok(moves.iter().take(wanted).cloned().collect())
    }

    /// Every move of a game, in order, read from the database.
    async fn read_moves(&self, id: &str) -> sqlx::Result<Vec<String>> {
        let rows = sqlx::query("SELECT move FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| row.try_get(0)).collect()
    }
}
